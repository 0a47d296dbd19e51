//===- InputLimits.cpp - limits on TTIR text the parser may see -----------===//
//
// MLIR's parser has no limit on nesting or size; these are refcpu's, checked
// before the text reaches it, by compileTTIR and refcpu-opt alike.
//
//===----------------------------------------------------------------------===//

#include "refcpu/Target/InputLimits.h"

using namespace llvm;

namespace {

/// MLIR's parser recurses once per nesting level (brackets, regions, nested
/// locations) and has no limit of its own: hostile input 10^4 levels deep
/// overflows the stack. Real TTIR nests a few dozen levels.
constexpr unsigned kMaxNesting = 512;
/// Far above any kernel's TTIR (the largest in the corpus is 60 KB).
constexpr size_t kMaxTTIRBytes = size_t(256) << 20;

} // namespace

llvm::Error refcpu::checkInputLimits(StringRef text, StringRef sourceName) {
  if (text.size() > kMaxTTIRBytes)
    return llvm::createStringError("%s: the TTIR is %zu bytes, more than the "
                                   "limit of %zu",
                                   sourceName.str().c_str(), text.size(),
                                   kMaxTTIRBytes);
  unsigned depth = 0, line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      lineStart = i + 1;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return llvm::createStringError(
            "%s:%u:%zu: error: the TTIR nests deeper than %u levels",
            sourceName.str().c_str(), line, i - lineStart + 1, kMaxNesting);
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
               !(c == '>' && i > 0 && text[i - 1] == '-')) {
      --depth;
    }
  }
  return llvm::Error::success();
}

