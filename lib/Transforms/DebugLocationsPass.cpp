//===- DebugLocationsPass.cpp - the refcpu-debug-locations pass -----------===//
//
// Debug mode: every op of the module but the functions themselves gets one
// FileLineColLoc (or unknown), the source line it is to be attributed to in
// the DWARF line table:
//
//   loc("x"("kernel.py":25:16))                        -> kernel.py:25:16
//   loc(callsite("standard.py":290:36 at "kernel.py":40:12))
//                                                      -> kernel.py:40:12
//   loc(fused["kernel.py":27:33, "kernel.py":27:29])   -> kernel.py:27:33
//
// See Passes.td for the rules.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Transforms/Passes.h"

namespace refcpu {
#define GEN_PASS_DEF_DEBUGLOCATIONS
#include "refcpu/Transforms/Passes.h.inc"
} // namespace refcpu

using namespace mlir;

namespace {

/// Reduces a location to the file:line:col it is to be attributed to in a
/// function of `kernelFile` (null when the function has no file).
class LineResolver {
public:
  explicit LineResolver(StringAttr kernelFile) : kernelFile(kernelFile) {}

  /// The FileLineColLoc for `loc`, or null when it has none.
  FileLineColLoc resolve(Location loc) const {
    if (auto file = dyn_cast<FileLineColLoc>(loc))
      return file;
    if (auto name = dyn_cast<NameLoc>(loc))
      return resolve(name.getChildLoc());
    if (auto opaque = dyn_cast<OpaqueLoc>(loc))
      return resolve(opaque.getFallbackLocation());
    if (auto callSite = dyn_cast<CallSiteLoc>(loc)) {
      FileLineColLoc callee = resolve(callSite.getCallee());
      if (callee && isKernelFile(callee))
        return callee;
      FileLineColLoc caller = resolve(callSite.getCaller());
      return caller ? caller : callee;
    }
    if (auto fused = dyn_cast<FusedLoc>(loc)) {
      FileLineColLoc first;
      for (Location part : fused.getLocations()) {
        FileLineColLoc line = resolve(part);
        if (line && isKernelFile(line))
          return line;
        if (!first)
          first = line;
      }
      return first;
    }
    return {};
  }

private:
  bool isKernelFile(FileLineColLoc loc) const {
    return kernelFile && loc.getFilename() == kernelFile;
  }

  StringAttr kernelFile;
};

struct DebugLocationsPass
    : refcpu::impl::DebugLocationsBase<DebugLocationsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto reduce = [&](Operation *op, const LineResolver &resolver) {
      FileLineColLoc line = resolver.resolve(op->getLoc());
      op->setLoc(line ? Location(line) : UnknownLoc::get(context));
    };
    // Ops outside functions too (globals and their initializers, which
    // fast-preset code has): the scope pass rewrites call sites everywhere
    // and crashes on one outside a function.
    LineResolver noKernelFile({});
    for (Operation &op : getOperation().getOps()) {
      auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
      if (!func) {
        op.walk([&](Operation *nested) { reduce(nested, noKernelFile); });
        continue;
      }
      // The function's own location keeps its wrappers: the scope pass reads
      // the file and line of its definition from it.
      FileLineColLoc funcLine = noKernelFile.resolve(func.getLoc());
      LineResolver resolver(funcLine ? funcLine.getFilename() : StringAttr());
      func.getBody().walk([&](Operation *nested) { reduce(nested, resolver); });
    }
  }
};

} // namespace
