"""Triton compiler backend for refcpu (triton.backends.compiler.BaseBackend).

Stages: Triton's frontend builds TTIR from the @triton.jit function; the
`ttir` stage runs Triton's own TTIR passes on it (inlining, canonicalization,
block pointers rewritten into pointer tensors, ...); the `ttgir` stage
compiles the resulting TTIR with librefcpu, which reports lowering errors
with the kernel's source locations, and yields the TTIR after refcpu's own
tt-level optimizations (refcpu has no GPU layouts: this is the IR that sits
where TritonGPU IR sits in the GPU pipelines, `compiled.asm["ttgir"]`); the
`llir` stage yields the optimized LLVM IR the CPU runs
(`compiled.asm["llir"]`, as on Triton's GPU backends); the `refcpu`
stage's artifact - what Triton's cache stores as the kernel binary - is the
TTIR text. The driver JIT-compiles it once per process when Triton loads
the kernel; in the process that compiled it, the kernel is already there.
"""

import hashlib
from dataclasses import dataclass
from typing import Optional, Tuple

import refcpu
from refcpu.triton_backend import _kernels
from triton._C.libtriton import ir, passes
# Module imports, not class imports: Triton picks the backend class as the
# only concrete BaseBackend subclass among this module's attributes.
from triton.backends import compiler as triton_compiler

# The name under which targets, caches and options identify this backend.
BACKEND_NAME = "cpu"


@dataclass(frozen=True)
class RefcpuOptions:
    # Fields Triton's frontend and launch code read on every backend. The
    # GPU ones (warps, stages, CTAs) have no effect on the CPU but keep
    # their Triton meaning so kernels and autotune configs that pass them
    # still compile.
    num_warps: int = 4
    num_ctas: int = 1
    num_stages: int = 1
    warp_size: int = 1
    maxnreg: Optional[int] = None
    cluster_dims: Tuple[int, int, int] = (1, 1, 1)
    enable_fp_fusion: bool = True
    launch_cooperative_grid: bool = False
    launch_pdl: bool = False
    supported_fp8_dtypes: Tuple[str, ...] = ("fp8e5", "fp8e4nv")
    deprecated_fp8_dot_operand_dtypes: Tuple[str, ...] = ()
    # refcpu's tt.dot ignores the requested input precision and multiplies
    # in the operands' own type, at least as precise as any request: accept
    # them all.
    default_dot_input_precision: str = "ieee"
    allowed_dot_input_precisions: Tuple[str, ...] = ("ieee", "tf32", "tf32x3",
                                                     "bf16x3", "bf16x6")
    max_num_imprecise_acc_default: int = 0
    extern_libs: Optional[dict] = None
    debug: bool = False
    sanitize_overflow: bool = True
    instrumentation_mode: str = ""
    ir_override: Optional[str] = None
    arch: Optional[str] = None
    backend_name: str = BACKEND_NAME

    def hash(self):
        key = "_".join(f"{name}-{value}"
                       for name, value in sorted(self.__dict__.items()))
        return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _min_dot_size(lhs_type, rhs_type):
    # refcpu lowers tt.dot of any shape; Triton's default minimum (16) only
    # reflects GPU tensor-core tiles.
    return (1, 1, 1)


class RefcpuBackend(triton_compiler.BaseBackend):
    binary_ext = "refcpu"

    @staticmethod
    def supports_target(target):
        return target.backend == BACKEND_NAME

    def hash(self):
        # Debug mode (REFCPU_DEBUG) changes the `llir` stage Triton caches;
        # Triton's own `debug` option (device assertions) is a separate one.
        debug = "-debug" if refcpu.debug_default() else ""
        return f"{refcpu.version()}-{self.target.arch}{debug}"

    def parse_options(self, options):
        known = RefcpuOptions.__dataclass_fields__
        args = {k: v for k, v in options.items() if k in known}
        args.setdefault("arch", self.target.arch)
        # Triton's GPU backends refuse these too; kernels and autotune
        # configs written for them must fail the same way here.
        num_warps = args.get("num_warps", RefcpuOptions.num_warps)
        assert num_warps > 0 and (num_warps & (num_warps - 1)) == 0, \
            "num_warps must be a power of 2"
        for key in ("supported_fp8_dtypes", "allowed_dot_input_precisions",
                    "deprecated_fp8_dot_operand_dtypes", "cluster_dims"):
            if key in args:
                args[key] = tuple(args[key])
        return RefcpuOptions(**args)

    def pack_metadata(self, metadata):
        return metadata

    def get_codegen_implementation(self, options):
        return {"min_dot_size": _min_dot_size}

    def get_module_map(self):
        # tl.extra.libdevice calls become tt.extern_elementwise ops with the
        # __nv_* names, which refcpu maps to math / libm.
        try:
            from triton.language.extra.cuda import libdevice
        except ImportError:
            return {}
        return {"triton.language.extra.libdevice": libdevice}

    def load_dialects(self, context):
        pass

    def add_stages(self, stages, options, language):
        if language != triton_compiler.Language.TRITON:
            raise refcpu.CompileError(
                f"refcpu compiles Triton kernels, not {language.name}")
        # The binary is the TTIR that the ttgir stage compiles; the stages
        # of one compilation share it and the IR texts here.
        compilation = {}
        stages["ttir"] = lambda src, metadata: self.make_ttir(src)
        stages["ttgir"] = lambda mod, metadata: self.make_ttgir(
            mod, metadata, compilation)
        stages["llir"] = lambda ttgir, metadata: compilation["llir"]
        stages[self.binary_ext] = lambda llir, metadata: compilation["ttir"]

    @staticmethod
    def make_ttir(mod):
        pm = ir.pass_manager(mod.context)
        pm.enable_debug()
        passes.common.add_inliner(pm)
        # refcpu reads block pointers and tensor descriptors too, but the
        # pointer-tensor form is what the corpus's kernel.ttir files hold
        # (Triton's CUDA pipeline rewrites them the same way).
        passes.ttir.add_rewrite_tensor_pointer(pm)
        passes.ttir.add_rewrite_tensor_descriptor_to_pointer(pm)
        passes.common.add_canonicalizer(pm)
        passes.ttir.add_combine(pm)
        passes.ttir.add_reorder_broadcast(pm)
        passes.common.add_cse(pm)
        passes.common.add_symbol_dce(pm)
        passes.ttir.add_loop_unroll(pm)
        pm.run(mod, "make_ttir")
        return mod

    @staticmethod
    def make_ttgir(mod, metadata, compilation):
        binary = str(mod).encode("utf-8")
        compilation["ttir"] = binary
        # Compiling here reports lowering errors (with the kernel's Python
        # source locations) at compile time, and the driver reuses the
        # result instead of compiling again. The kernel's name is the one
        # refcpu compiled (the module's only public tt.func).
        name, ttir_opt, compilation["llir"] = _kernels.compile_with_ir(binary)
        metadata["name"] = name
        metadata["shared"] = 0
        return ttir_opt
