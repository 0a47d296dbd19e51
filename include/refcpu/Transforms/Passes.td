//===- Passes.td - refcpu transformation passes ------------*- tablegen -*-===//
//
// Passes that rewrite IR within a level (no dialect conversion).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_TRANSFORMS_PASSES_TD
#define REFCPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ColdLoops : Pass<"refcpu-cold-loops", "::mlir::ModuleOp"> {
  let summary = "Keep LLVM from unrolling and vectorizing the loops of per-lane fallbacks";
  let description = [{
    A strided load or store that the pointer analysis describes keeps its
    per-lane form for when the run-time check of its strides (or of the
    analysis' assumptions) fails. LLVM unrolled those loops like any
    other (a branch and a scalar access per lane, eight times over), for
    code that the launches of Triton's tutorial matmul never run. The
    conversion marks the fallback's llvm.load and llvm.store ops with
    `refcpu.cold` (refcpu/Transforms/ColdLoops.h), which they keep through
    fusion and bufferization. This pass removes the marks; the block that
    holds the perfect scf.for nest around a marked op, while it is a branch
    of an scf.if (the run-time check), is the fallback's, and every loop in
    it (the accesses, and the address and mask blocks that
    control-flow-sink moved there) gets `llvm.loop_annotation` with
    unrolling and vectorization disabled, which refcpu-loop-annotations
    turns into `!llvm.loop` metadata. A fallback whose check was folded
    away always runs and keeps its loops as they are. Runs after linalg ops
    become loops.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LoopAnnotations : Pass<"refcpu-loop-annotations", "::mlir::ModuleOp"> {
  let summary = "Turn the loop annotations of Triton's loops into LLVM loop metadata";
  let description = [{
    `tl.range(..., disable_licm=True)` puts `llvm.loop_annotation` on its
    `scf.for`. scf-to-cf copies that discardable attribute onto the loop's
    back edge, and cf-to-llvm keeps it on `llvm.br` as a discardable
    attribute, which the LLVM IR translation ignores. This pass moves it
    into the branch's `loop_annotation`, which becomes `!llvm.loop`
    metadata (`llvm.licm.disable`, ...). Runs on the LLVM dialect.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ReduceLocality : Pass<"refcpu-reduce-locality", "::mlir::ModuleOp"> {
  let summary = "Accumulate loop reductions in SIMD lanes, reduce once after the loop";
  let description = [{
    A loop that folds a reduction of each iteration's block into a carried
    value (`acc = acc + tl.sum(x, axis=-1)`, max, min, ...) pays a
    horizontal reduction across vector lanes every iteration. This pass
    carries one partial result per lane instead: the block's reduced axis
    of size N is split into N/L x L (L elements fill one 512-bit vector),
    each iteration reduces only the N/L part (vertical vector operations)
    into a carried tensor with an L axis, and one reduction over L after
    the loop gives the value. It is the CPU counterpart of TritonGPU's
    thread-locality optimization (partial results per thread, one
    cross-thread reduction at the end). Applies when the reduced axis is the
    innermost one, N is a multiple of L larger than L, and the combiner is
    one associative, commutative arith op with an identity (add, mul, max,
    min, and, or, xor). Floating-point sums are reassociated, as on the GPU.
    Fast preset only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::triton::TTDialect"];
}

def LoopOffsets : Pass<"refcpu-loop-offsets", "::mlir::ModuleOp"> {
  let summary = "Carry uniformly advanced pointer and offset tensors of loops as scalars";
  let description = [{
    A tensor of pointers (or integers) that an scf.for advances by the same
    amount in every lane, as in `a_ptrs += BLOCK_K * stride_ak`, becomes a
    scalar the loop carries: the lanes are the loop-invariant initial tensor
    plus that scalar. The access then has one form in every iteration, so
    the TTIR lowering describes it as a strided block (a memref view)
    instead of per-lane addresses. Pointer offsets are summed in i64, as
    the pointers' addresses are; integer offsets wrap as the original adds
    did. Runs on TTIR, before refcpu-triton-to-linalg.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def DirectStores : Pass<"refcpu-direct-stores", "::mlir::ModuleOp"> {
  let summary = "Elementwise results written straight into the stored view";
  let description = [{
    A stored block bufferizes to its computation writing a scratch buffer
    and a copy of that buffer into the stored view. When one elementwise
    linalg.generic fills the scratch buffer, nothing between it and the copy
    writes memory and nothing else uses the buffer, the generic writes the
    view itself, on the copied lanes of its inputs, under a run-time check
    that every input either shares no byte with the view or is that view
    lane for lane; otherwise the original generic and copy run, so that an
    output overlapping an input still sees the input's old values, as
    Triton's store after the whole block does. A generic that
    refcpu-collapse-dims made 1-D over collapse_shapes of the buffers gets
    their rows back when only a part of its buffer is copied; a copy in one
    branch of an scf.if (a store whose row stride may be negative) gets the
    generic moved into each branch that uses the buffer. Runs after
    bufferization; fast preset only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def StreamingStores : Pass<"refcpu-streaming-stores", "::mlir::ModuleOp"> {
  let summary = "Large launches store elementwise results with non-temporal stores";
  let description = [{
    A 1-D elementwise linalg.generic that writes a contiguous view of global
    memory without reading it, whose memref inputs it reads lane for lane
    and whose payload is arith and math ops, stores through 64-byte aligned
    non-temporal vector stores (vector.store {nontemporal = true}) when the
    launch stores at least min-bytes through it (num_programs x * y * z
    times this program's lanes): stores to lines that are not in cache then
    skip reading them from memory first. The lanes before the view's first
    64-byte boundary and after its last whole vector run the generic as
    before, as does a smaller launch. Fast preset, after
    refcpu-direct-stores.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"32 << 20",
           "Bytes a launch stores through the generic from which its stores "
           "bypass the caches (32 MiB: the last-level cache a core shares on "
           "the machines measured, a Zen 5 CCD's L3, about a 16-core share "
           "of a Sapphire Rapids L3)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def WidenKLoops : Pass<"refcpu-widen-k-loops", "::mlir::ModuleOp"> {
  let summary = "Load U iterations' K blocks of a tt.dot loop at once";
  let description = [{
    A loop that loads one K block of A and B per iteration and accumulates
    their tt.dot (Triton's matmul) becomes a main loop that loads U
    consecutive K blocks as one block U times as deep, with one tt.dot of
    them, and the original loop for the iterations left over. Each tt.dot
    is one call of a runtime kernel, which loads and stores its accumulator
    block and packs its operands per call: deeper blocks pay that once per
    `depth` elements of K instead of once per BK. Each depth of `depths` in
    turn widens the loops that the one before left, so the rest of a K
    that is no multiple of the deepest still runs mostly in deep dots. The
    wide blocks are the original address and mask computations on a U
    times longer K range; the pass proves that their lanes are exactly the
    next iterations' lanes (addresses advanced by BK times their K stride,
    mask bounds by BK, nothing else changing) and otherwise leaves the loop
    alone. Runs on TTIR after refcpu-loop-offsets; fast preset only.
  }];
  let options = [
    ListOption<"depths", "depths", "int64_t",
               "K elements per tt.dot to reach, deepest first: each depth "
               "widens the loops left over by the one before (U = depth / "
               "BK; BK >= depth / 2 is left alone). Default: 512, 256">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::triton::TTDialect"];
}

def ArithSemantics : Pass<"refcpu-arith-semantics", "::mlir::ModuleOp"> {
  let summary = "Give arith ops that are undefined in LLVM Triton's GPU results";
  let description = [{
    Scalar arith ops whose LLVM lowering is poison or traps for some inputs
    are rewritten to the values Triton 3.6 produces on NVIDIA GPUs (see
    TTIR-REFERENCE section 8), so that kernels never hit SIGFPE or undefined
    behaviour on the CPU:
      - x / 0 = -1 (unsigned: all ones), x % 0 = x, INT_MIN / -1 = INT_MIN,
        INT_MIN % -1 = 0;
      - shifts by the bit width or more give 0 (arithmetic right shifts give
        the sign fill);
      - float -> int conversions saturate (NaN -> 0); to 8-bit integers they
        saturate to 16 bits first, then truncate;
      - math.absf of fp8 clears the sign bit (LLVM has no fp8 arithmetic).
    Runs after convert-elementwise-to-linalg, when every such op is scalar.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseElementwise : Pass<"refcpu-fuse-elementwise", "::mlir::ModuleOp"> {
  let summary = "Fuse elementwise linalg ops of a kernel (fast preset)";
  let description = [{
    Generalizes linalg.fill / broadcast / transpose and fuses producers into
    elementwise consumers, so address, mask and value computations run in
    the loop of the load, store or math that uses them instead of going
    through memory. Unlike upstream linalg-fuse-elementwise-ops it never
    fuses into a consumer with reduction loops (a matmul or a reduce), where
    the producer would be recomputed once per reduction step.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def AccumulateInPlace : Pass<"refcpu-accumulate-in-place", "::mlir::ModuleOp"> {
  let summary = "Loop-carried elementwise updates write into the carried block (fast preset)";
  let description = [{
    An elementwise op whose result is a fresh tensor (`outs` a tensor.empty
    that the body does not read) and one of whose inputs is a block that an
    scf.for carries and nothing else reads (`acc += x`) takes that block as
    its destination instead. One-shot bufferization then updates the
    carried buffer in place, where it gave every iteration a new heap buffer
    (a malloc and a free per iteration). The values are the same: the body
    still reads the block through its input.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CollapseDims : Pass<"refcpu-collapse-dims", "::mlir::ModuleOp"> {
  let summary = "Give every linalg op the fewest loops that describe it";
  let description = [{
    Drops unit dimensions and merges neighbouring loops of the same kind
    that every operand indexes together, reshaping the operands around the
    op. High-rank blocks of small extents (Triton's bitonic sort reshapes to
    2x2x...x2) otherwise become deep nests of two-iteration loops that LLVM
    unrolls completely, so their code and compile time explode.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MatmulToRuntime : Pass<"refcpu-matmul-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Run block matrix products on the runtime's register-tiled kernels (fast preset)";
  let description = [{
    Replaces linalg.matmul and linalg.batch_matmul on memrefs whose types
    the runtime has a kernel for (f32, bf16 or f16 operands with an f32
    accumulator, i8 with an i32 one; REFCPU_RT_MATMUL_* of kernel_abi.h)
    by calls of that
    kernel, once per batch for batch products. The kernels keep a tile of
    the accumulator in vector registers for the whole k loop, which the
    loops LLVM would vectorize do not. The last argument holds the
    REFCPU_RT_SHARED_A / _B bits of a product marked
    `refcpu.shared_operands` whose A or B views global memory (a memref
    built from an LLVM pointer, not an alloc; an scf.if that yields the view
    or a copy is extended to yield which): the runtime packs those once per
    launch. A buffer that a zero fill initializes for products alone
    (refcpu/Analysis/ZeroAccumulators.h: nothing else touches it from the
    fill to the op holding the last product) gets a flag in the frame, set
    where the fill was: the first product that runs adds REFCPU_RT_ZERO_C
    and stores its result instead of adding it to zeros; one that writes
    only part of the buffer fills it first while the flag is set, and the
    fill runs after the last product's op where none ran.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DebugLocations : Pass<"refcpu-debug-locations", "::mlir::ModuleOp"> {
  let summary = "Reduce every op location to one source line";
  let description = [{
    Debug mode, before `ensure-debug-info-scope-on-llvm-func`. Triton's
    locations wrap file:line in names (`loc("x"(#loc3))`), call sites
    (`callsite(#standard_py at #kernel_py)` for code inlined from
    `tl.sum`, ...) and fusions; the line table needs one line per op. Each
    op gets the file:line:col that a kernel author breaks at: a name is
    dropped; of a call-site chain, the innermost location in the kernel's
    own file (the llvm.func's file) is kept - a @triton.jit helper's line
    in that file, otherwise the line in the kernel that calls Triton's
    library - and the outermost caller when none is there; of a fusion, the
    first part that has a line, preferring one in the kernel's file (ops
    outside functions: the outermost caller, the first part). So
    the line table names only the kernel's file where it can, and there
    are no inlined-subroutine scopes (upstream's scope pass also crashes on
    call sites whose callee has no file, `callsite(unknown at ...)`).
    Locations without any file:line stay unknown.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def StackBuffers : Pass<"refcpu-stack-buffers", "::mlir::ModuleOp"> {
  let summary = "Place the blocks a program computes in its stack frame (fast preset)";
  let description = [{
    Bufferization allocates every block on the heap: a malloc and a free
    per block and program (softmax_rows: seven per row). Statically shaped
    buffers that live no longer than the program become memref.alloca at
    function entry, in program order until the function's stack budget is
    spent. Buffers nested in loops and conditionals move to the entry too,
    unless the body of a loop around them passes an alias of theirs on (it
    may be live in the next iteration; a conditional that yields it does not
    count); buffers returned from a function stay on the heap. Runs
    after bufferization, before buffer deallocation.
  }];
  let options = [
    Option<"stackBudget", "stack-budget", "uint64_t", /*default=*/"131072",
           "Bytes of stack each function may use for buffers (the launcher's "
           "threads and the caller's have megabytes)">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CopiesToLoops : Pass<"refcpu-copies-to-loops", "::mlir::ModuleOp"> {
  let summary = "Copies between strided buffers as loops, not memrefCopy calls (fast preset)";
  let description = [{
    finalize-memref-to-llvm lowers a memref.copy that is not between
    contiguous buffers to a call of the generic runtime function
    `memrefCopy`, which walks both descriptors element by element.
    Bufferization makes such copies wherever a block is either read in
    place or copied (scf.if yields both, with a dynamic layout). This pass
    turns them into linalg.copy, lowered to loops that LLVM vectorizes;
    copies that become memcpy stay. Runs after bufferization.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def VectorizeReductions : Pass<"refcpu-vectorize-reductions", "::mlir::ModuleOp"> {
  let summary = "Reductions of small static blocks as vector operations (fast preset)";
  let description = [{
    Lowered to loops, a reduction into a block of partial results (the
    conversion's form of a long tt.reduce) is fully unrolled by LLVM before
    its vectorizers run, which then leave it scalar. This pass vectorizes
    linalg ops with a reduction dimension (block products excepted) on
    statically shaped memrefs with upstream linalg
    vectorization instead (vector.transfer_read, vector.multi_reduction,
    vector.transfer_write), when each input holds at most `max-elements`
    elements and the combiner is a reduction kind the vectorizer knows.
    The pipeline then lowers the vector ops with upstream passes
    (lower-vector-multi-reduction, convert-vector-to-scf with full
    unrolling, convert-vector-to-llvm). Runs after bufferization.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"8192",
           "Largest input, in elements, that is vectorized (the vectors are "
           "unrolled completely)">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def FastMath : Pass<"refcpu-fast-math", "::mlir::ModuleOp"> {
  let summary = "Polynomial f32 exp that stays on the vector path (fast preset)";
  let description = [{
    Replaces f32 math.exp by MLIR's polynomial approximation (arith and
    math.fma only), which LLVM vectorizes lane by lane. libmvec's vector
    expf, which the libm lowering reaches, runs the whole vector through
    scalar expf when one lane is outside its fast range, as the -inf of
    masked-out lanes are. Special values are kept: exp(-inf) = 0,
    exp(+inf) = +inf, NaN propagates, overflow gives +inf; normal results
    are within 6 ulp, subnormal ones flush to within 1e-38.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // REFCPU_TRANSFORMS_PASSES_TD
