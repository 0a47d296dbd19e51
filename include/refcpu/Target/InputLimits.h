//===- InputLimits.h - limits on TTIR text the parser may see ---*- C++ -*-===//

#ifndef REFCPU_TARGET_INPUTLIMITS_H
#define REFCPU_TARGET_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace refcpu {

/// Refuses `text` (named `sourceName` in the error) when it is larger than
/// 256 MiB or nests brackets ((, [, {, <) deeper than 512 levels, naming
/// where, before MLIR's parser, which recurses once per level, overflows the
/// stack on it. String literals and comments do not count.
llvm::Error checkInputLimits(llvm::StringRef text, llvm::StringRef sourceName);

} // namespace refcpu

#endif // REFCPU_TARGET_INPUTLIMITS_H
