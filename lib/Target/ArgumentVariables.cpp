//===- ArgumentVariables.cpp - DWARF variables for kernel arguments -------===//
//
// Debug mode only. MLIR's translation emits a line table but no variables:
// the kernel's arguments (pointers are i64 by then, the program ids are
// six anonymous i32s) would be invisible in gdb. Here each gets an alloca,
// a store and a #dbg_declare in the entry block, all at the function's line.
//
//===----------------------------------------------------------------------===//

#include "ArgumentVariables.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {
/// The names of the trailing grid arguments (refcpu/kernel_abi.h).
const char *const gridArgNames[REFCPU_NUM_GRID_ARGS] = {
    "num_programs_x", "num_programs_y", "num_programs_z",
    "pid_x",          "pid_y",          "pid_z"};

/// A DWARF basic type for a Triton scalar type as MLIR prints it ("f32",
/// "i64"); null for others. Triton's integers carry no signedness in TTIR:
/// they are shown as signed.
DIType *scalarType(DIBuilder &builder, StringRef name) {
  struct Basic {
    const char *name;
    uint64_t bits;
    unsigned encoding;
  };
  std::optional<Basic> basic =
      StringSwitch<std::optional<Basic>>(name)
          .Case("i1", Basic{"bool", 8, dwarf::DW_ATE_boolean})
          .Case("i8", Basic{"int8_t", 8, dwarf::DW_ATE_signed})
          .Case("i16", Basic{"int16_t", 16, dwarf::DW_ATE_signed})
          .Case("i32", Basic{"int32_t", 32, dwarf::DW_ATE_signed})
          .Case("i64", Basic{"int64_t", 64, dwarf::DW_ATE_signed})
          // gdb reads a 16-bit float named __bf16 as bfloat16.
          .Case("f16", Basic{"_Float16", 16, dwarf::DW_ATE_float})
          .Case("bf16", Basic{"__bf16", 16, dwarf::DW_ATE_float})
          .Case("f32", Basic{"float", 32, dwarf::DW_ATE_float})
          .Case("f64", Basic{"double", 64, dwarf::DW_ATE_float})
          .Default(std::nullopt);
  if (!basic)
    return nullptr;
  return builder.createBasicType(basic->name, basic->bits, basic->encoding);
}

} // namespace

void refcpu::addArgumentVariables(Function &kernel, ArrayRef<std::string> names,
                                  ArrayRef<refcpu_arg_kind> kinds,
                                  ArrayRef<std::string> types,
                                  ArrayRef<std::string> pointeeTypes) {
  DISubprogram *subprogram = kernel.getSubprogram();
  if (!subprogram || kernel.empty())
    return;
  Module &module = *kernel.getParent();
  DIBuilder builder(module, /*AllowUnresolved=*/false, subprogram->getUnit());
  DIFile *file = subprogram->getFile();
  unsigned line = subprogram->getLine();
  DILocation *location = DILocation::get(kernel.getContext(), line, 0, subprogram);
  DIType *int32 = scalarType(builder, "i32");
  uint64_t pointerBits = module.getDataLayout().getPointerSizeInBits();

  IRBuilder<> ir(&kernel.getEntryBlock(), kernel.getEntryBlock().begin());
  ir.SetCurrentDebugLocation(location);
  size_t numParams = names.size();
  for (Argument &arg : kernel.args()) {
    unsigned i = arg.getArgNo();
    std::string name;
    DIType *type = int32;
    if (i < numParams) {
      name = names[i];
      if (kinds[i] == REFCPU_ARG_PTR)
        // A tensor descriptor's base pointer has no pointee type: void *.
        type = builder.createPointerType(
            scalarType(builder, pointeeTypes[i]), pointerBits);
      else
        type = scalarType(builder, types[i]);
    } else if (i - numParams < REFCPU_NUM_GRID_ARGS) {
      name = gridArgNames[i - numParams];
    } else {
      name = "arg" + std::to_string(i);
    }
    if (!type)
      continue;
    AllocaInst *slot = ir.CreateAlloca(arg.getType(), nullptr, name + ".addr");
    ir.CreateStore(&arg, slot);
    DILocalVariable *variable = builder.createParameterVariable(
        subprogram, name, i + 1, file, line, type);
    builder.insertDeclare(slot, variable, builder.createExpression(), location,
                          ir.GetInsertPoint());
  }
  builder.finalize();
}
