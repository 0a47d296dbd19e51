@triton.jit
def atomic_cas_slots(slot_ptr, old_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    # Each lane owns one slot: swap in pid+1 where the slot holds its even index.
    cmp = tl.where(offs % 2 == 0, offs, -1)
    old = tl.atomic_cas(slot_ptr + offs, cmp, offs * 0 + pid + 1)
    tl.store(old_ptr + offs, old)
    # A scalar CAS per program on a shared counter slot (never matching).
    tl.atomic_cas(slot_ptr + pid * BLOCK, -7, 1000)
