//===- TritonDialect.td - The tt dialect, its types and attributes -------===//
//
// Our own definition of Triton's `tt` dialect, written to parse and print the
// TTIR that Triton 3.6 emits exactly (see TTIR-REFERENCE in docs/).
//
//===----------------------------------------------------------------------===//

#ifndef REFCPU_DIALECT_TRITON_IR_TRITONDIALECT_TD
#define REFCPU_DIALECT_TRITON_IR_TRITONDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"

def TT_Dialect : Dialect {
  let name = "tt";
  let cppNamespace = "::mlir::triton";
  let summary = "Triton IR as printed by Triton 3.6";
  let description = [{
    Tile-level IR of the Triton language: every value is a scalar or a tensor
    with a static, power-of-two shape, pointers are typed, and memory is
    accessed through tensors of pointers, block pointers or tensor
    descriptors.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
  let useDefaultTypePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class TT_TypeDef<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TT_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TT_PtrType : TT_TypeDef<"Pointer", "ptr"> {
  let summary = "pointer to a scalar or, for block pointers, to a tensor";
  let description = [{
    `!tt.ptr<f32>` points to scalars; `!tt.ptr<tensor<16x16xf32>>` is a block
    pointer. Address space 1 is the default and is not printed.
  }];
  let parameters = (ins "::mlir::Type":$pointeeType, "int":$addressSpace);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType,
                                        "int":$addressSpace), [{
      return $_get(pointeeType.getContext(), pointeeType, addressSpace);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let skipDefaultBuilders = 1;
}

def TT_TensorDescType : TT_TypeDef<"TensorDesc", "tensordesc"> {
  let summary = "tensor descriptor: a global tensor read and written by blocks";
  let parameters = (ins "::mlir::RankedTensorType":$blockType);
  let assemblyFormat = "`<` $blockType `>`";
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def TT_Float : AnyTypeOf<[F8E4M3FN, F8E4M3FNUZ, F8E5M2, F8E5M2FNUZ, F16, BF16,
                          F32, F64], "floating-point">;
def TT_FloatTensor : RankedTensorOf<[TT_Float]>;
def TT_FloatLike : AnyTypeOf<[TT_Float, TT_FloatTensor]>;

def TT_Int : AnyTypeOf<[AnySignlessInteger]>;
def TT_IntTensor : RankedTensorOf<[TT_Int]>;
def TT_IntLike : AnyTypeOf<[TT_Int, TT_IntTensor]>;
def TT_I1Like : AnyTypeOf<[I1, RankedTensorOf<[I1]>]>;
def TT_I32Like : AnyTypeOf<[I32, RankedTensorOf<[I32]>]>;
def TT_I64Like : AnyTypeOf<[I64, RankedTensorOf<[I64]>]>;

def TT_Ptr : DialectType<TT_Dialect,
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self) && "
          "!::llvm::isa<::mlir::RankedTensorType>("
          "::llvm::cast<::mlir::triton::PointerType>($_self).getPointeeType())">,
    "pointer", "::mlir::triton::PointerType">;
def TT_PtrTensor : RankedTensorOf<[TT_Ptr]>;
def TT_PtrLike : AnyTypeOf<[TT_Ptr, TT_PtrTensor]>;

def TT_TensorPtr : DialectType<TT_Dialect,
    CPred<"::llvm::isa<::mlir::triton::PointerType>($_self) && "
          "::llvm::isa<::mlir::RankedTensorType>("
          "::llvm::cast<::mlir::triton::PointerType>($_self).getPointeeType())">,
    "block pointer", "::mlir::triton::PointerType">;

def TT_TensorDesc : DialectType<TT_Dialect,
    CPred<"::llvm::isa<::mlir::triton::TensorDescType>($_self)">,
    "tensor descriptor", "::mlir::triton::TensorDescType">;

def TT_Tensor : RankedTensorOf<[TT_Float, TT_Int, TT_Ptr]>;
def TT_Type : AnyTypeOf<[TT_FloatLike, TT_IntLike, TT_PtrLike, TT_TensorPtr]>;
def TT_AnyPtr : AnyTypeOf<[TT_PtrLike, TT_TensorPtr]>;

//===----------------------------------------------------------------------===//
// Enum attributes. All are I32 integer enums so that both the keyword form
// (in custom syntax) and the integer form (in attribute dictionaries) parse.
//===----------------------------------------------------------------------===//

def TT_CacheModifierAttr : I32EnumAttr<"CacheModifier", "load/store cache hint", [
    I32EnumAttrCase<"NONE", 1, "none">, I32EnumAttrCase<"CA", 2, "ca">,
    I32EnumAttrCase<"CG", 3, "cg">, I32EnumAttrCase<"WB", 4, "wb">,
    I32EnumAttrCase<"CS", 5, "cs">, I32EnumAttrCase<"WT", 6, "wt">,
    I32EnumAttrCase<"CV", 7, "cv">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_EvictionPolicyAttr : I32EnumAttr<"EvictionPolicy", "cache eviction hint", [
    I32EnumAttrCase<"NORMAL", 1, "evict_normal">,
    I32EnumAttrCase<"EVICT_FIRST", 2, "evict_first">,
    I32EnumAttrCase<"EVICT_LAST", 3, "evict_last">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_PaddingOptionAttr : I32EnumAttr<"PaddingOption", "out-of-bounds fill", [
    I32EnumAttrCase<"PAD_ZERO", 1, "zero">,
    I32EnumAttrCase<"PAD_NAN", 2, "nan">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_MemSemanticAttr : I32EnumAttr<"MemSemantic", "atomic memory order", [
    I32EnumAttrCase<"RELAXED", 1, "relaxed">,
    I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
    I32EnumAttrCase<"RELEASE", 3, "release">,
    I32EnumAttrCase<"ACQUIRE_RELEASE", 4, "acq_rel">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_MemSyncScopeAttr : I32EnumAttr<"MemSyncScope", "atomic scope", [
    I32EnumAttrCase<"GPU", 1, "gpu">, I32EnumAttrCase<"CTA", 2, "cta">,
    I32EnumAttrCase<"SYSTEM", 3, "sys">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_AtomicRMWAttr : I32EnumAttr<"RMWOp", "atomic read-modify-write kind", [
    I32EnumAttrCase<"AND", 1, "and">, I32EnumAttrCase<"OR", 2, "or">,
    I32EnumAttrCase<"XOR", 3, "xor">, I32EnumAttrCase<"ADD", 4, "add">,
    I32EnumAttrCase<"FADD", 5, "fadd">, I32EnumAttrCase<"MAX", 6, "max">,
    I32EnumAttrCase<"MIN", 7, "min">, I32EnumAttrCase<"UMAX", 8, "umax">,
    I32EnumAttrCase<"UMIN", 9, "umin">, I32EnumAttrCase<"XCHG", 10, "exch">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_ProgramDim : I32EnumAttr<"ProgramIDDim", "launch grid axis", [
    I32EnumAttrCase<"X", 0, "x">, I32EnumAttrCase<"Y", 1, "y">,
    I32EnumAttrCase<"Z", 2, "z">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_RoundingModeAttr : I32EnumAttr<"RoundingMode", "float rounding mode", [
    I32EnumAttrCase<"RTZ", 0, "rtz">, I32EnumAttrCase<"RTNE", 1, "rtne">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_PropagateNanAttr : I32EnumAttr<"PropagateNan", "NaN handling of clampf", [
    I32EnumAttrCase<"NONE", 0, "none">, I32EnumAttrCase<"ALL", 0xFFFF, "all">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_InputPrecisionAttr : I32EnumAttr<"InputPrecision", "tt.dot input precision", [
    I32EnumAttrCase<"TF32", 0, "tf32">, I32EnumAttrCase<"TF32x3", 1, "tf32x3">,
    I32EnumAttrCase<"IEEE", 2, "ieee">, I32EnumAttrCase<"BF16x3", 3, "bf16x3">,
    I32EnumAttrCase<"BF16x6", 4, "bf16x6">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_ScaleDotElemTypeAttr : I32EnumAttr<"ScaleDotElemType",
    "element format of tt.dot_scaled operands", [
    I32EnumAttrCase<"E4M3", 0, "e4m3">, I32EnumAttrCase<"E5M2", 1, "e5m2">,
    I32EnumAttrCase<"E2M3", 2, "e2m3">, I32EnumAttrCase<"E3M2", 3, "e3m2">,
    I32EnumAttrCase<"E2M1", 4, "e2m1">, I32EnumAttrCase<"BF16", 5, "bf16">,
    I32EnumAttrCase<"FP16", 6, "fp16">]> {
  let cppNamespace = "::mlir::triton";
}

def TT_DescriptorReduceKindAttr : I32EnumAttr<"DescriptorReduceKind",
    "tt.descriptor_reduce kind", [
    I32EnumAttrCase<"ADD", 1, "add">, I32EnumAttrCase<"MIN", 2, "min">,
    I32EnumAttrCase<"MAX", 3, "max">, I32EnumAttrCase<"INC", 4, "inc">,
    I32EnumAttrCase<"DEC", 5, "dec">, I32EnumAttrCase<"AND", 6, "and">,
    I32EnumAttrCase<"OR", 7, "or">, I32EnumAttrCase<"XOR", 8, "xor">]> {
  let cppNamespace = "::mlir::triton";
}

#endif // REFCPU_DIALECT_TRITON_IR_TRITONDIALECT_TD
