//===- Bf16Bits.cpp - bf16 values moved as their bits ---------------------===//
//
// x86 has no bf16 registers: its backend keeps a bf16 value in an f32
// register (exact) and converts it back to bf16 wherever the bits are needed
// again: to store it, or to pass it between blocks. With AVX512_BF16 it
// converts with vcvtneps2bf16, which flushes subnormal values to zero, so a
// kernel that only selects or carries bf16 values (tl.where, a loop-carried
// bf16 tensor) changed them. Moving such values as i16 leaves nothing to
// convert back: the backend promotes bits to f32 exactly, for the
// conversions that need a value.
//
//   %v = load bfloat, ptr %p          %b = load i16, ptr %p
//   %s = select i1 %c, bfloat %v, 0   %s = select i1 %c, i16 %b, 0
//   store bfloat %s, ptr %q           store i16 %s, ptr %q
//
//===----------------------------------------------------------------------===//

#include "Bf16Bits.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace {

/// i16 for bf16 and vectors of i16 for vectors of bf16; null otherwise.
Type *bitsType(Type *type) {
  if (type->isBFloatTy())
    return Type::getInt16Ty(type->getContext());
  if (auto *vector = dyn_cast<VectorType>(type))
    if (vector->getElementType()->isBFloatTy())
      return VectorType::get(Type::getInt16Ty(type->getContext()),
                             vector->getElementCount());
  return nullptr;
}

/// Instructions that only move a value, so they can move its bits.
bool movesValue(const Instruction &inst) {
  return isa<LoadInst, PHINode, SelectInst, FreezeInst, ShuffleVectorInst,
             InsertElementInst, ExtractElementInst>(inst);
}

class Rewriter {
public:
  void run(Function &function) {
    SmallVector<Instruction *> moves;
    SmallVector<StoreInst *> stores;
    for (BasicBlock &block : function)
      for (Instruction &inst : block) {
        if (movesValue(inst) && bitsType(inst.getType()))
          moves.push_back(&inst);
        if (auto *store = dyn_cast<StoreInst>(&inst))
          if (bitsType(store->getValueOperand()->getType()))
            stores.push_back(store);
      }
    if (moves.empty() && stores.empty())
      return;
    // Phis first, empty: the other moves and the phis' incoming values may
    // refer to them.
    for (Instruction *inst : moves)
      if (auto *phi = dyn_cast<PHINode>(inst))
        bits[phi] = PHINode::Create(bitsType(phi->getType()),
                                    phi->getNumIncomingValues(),
                                    phi->getName() + ".bits",
                                    phi->getIterator());
    for (Instruction *inst : moves)
      if (!isa<PHINode>(inst))
        bits[inst] = moveBits(*inst);
    for (Instruction *inst : moves)
      if (auto *phi = dyn_cast<PHINode>(inst)) {
        auto *twin = cast<PHINode>(bits[phi]);
        for (auto [value, block] :
             llvm::zip(phi->incoming_values(), phi->blocks()))
          twin->addIncoming(asBits(value), block);
      }
    for (StoreInst *store : stores)
      store->setOperand(0, asBits(store->getValueOperand()));
    // Values that other instructions still read as bf16 (conversions,
    // calls) get them back from the bits.
    for (Instruction *inst : moves) {
      auto *twin = cast<Instruction>(bits[inst]);
      if (!inst->use_empty()) {
        IRBuilder<> b(twin->getParent(),
                      isa<PHINode>(twin) ? twin->getParent()->getFirstInsertionPt()
                                         : std::next(twin->getIterator()));
        inst->replaceAllUsesWith(b.CreateBitCast(twin, inst->getType()));
      }
    }
    for (Instruction *inst : moves)
      inst->eraseFromParent();
    bits.clear();
  }

private:
  /// The bits of `value`: its rewritten move, a constant's bits, or a cast
  /// right after its definition.
  Value *asBits(Value *value) {
    if (Value *known = bits.lookup(value))
      return known;
    Type *type = bitsType(value->getType());
    if (auto *constant = dyn_cast<Constant>(value))
      return ConstantExpr::getBitCast(constant, type);
    BasicBlock::iterator at;
    if (auto *arg = dyn_cast<Argument>(value)) {
      at = arg->getParent()->getEntryBlock().getFirstInsertionPt();
    } else {
      auto *inst = cast<Instruction>(value);
      std::optional<BasicBlock::iterator> after =
          inst->getInsertionPointAfterDef();
      // Only terminators (an invoke) have no point after them; kernels
      // have none that yield bf16.
      assert(after && "a bf16 value without a point after its definition");
      at = *after;
    }
    IRBuilder<> b(at->getParent(), at);
    Value *cast = b.CreateBitCast(value, type, value->getName() + ".bits");
    bits[value] = cast;
    return cast;
  }

  /// The move `inst` done on bits, next to it.
  Value *moveBits(Instruction &inst) {
    IRBuilder<> b(&inst);
    Type *type = bitsType(inst.getType());
    std::string name = (inst.getName() + ".bits").str();
    if (auto *load = dyn_cast<LoadInst>(&inst)) {
      LoadInst *twin =
          b.CreateAlignedLoad(type, load->getPointerOperand(), load->getAlign(),
                              load->isVolatile(), name);
      twin->setAtomic(load->getOrdering(), load->getSyncScopeID());
      twin->copyMetadata(*load);
      return twin;
    }
    if (auto *select = dyn_cast<SelectInst>(&inst))
      return b.CreateSelect(select->getCondition(),
                            asBits(select->getTrueValue()),
                            asBits(select->getFalseValue()), name);
    if (auto *freeze = dyn_cast<FreezeInst>(&inst))
      return b.CreateFreeze(asBits(freeze->getOperand(0)), name);
    if (auto *shuffle = dyn_cast<ShuffleVectorInst>(&inst))
      return b.CreateShuffleVector(asBits(shuffle->getOperand(0)),
                                   asBits(shuffle->getOperand(1)),
                                   shuffle->getShuffleMask(), name);
    if (auto *insert = dyn_cast<InsertElementInst>(&inst))
      return b.CreateInsertElement(asBits(insert->getOperand(0)),
                                   asBits(insert->getOperand(1)),
                                   insert->getOperand(2), name);
    auto *extract = cast<ExtractElementInst>(&inst);
    return b.CreateExtractElement(asBits(extract->getVectorOperand()),
                                  extract->getIndexOperand(), name);
  }

  DenseMap<Value *, Value *> bits;
};

} // namespace

void refcpu::moveBf16AsBits(Module &module) {
  Rewriter rewriter;
  for (Function &function : module)
    if (!function.isDeclaration())
      rewriter.run(function);
}
