"""Reads the parameter names and types of a `tt.func` from TTIR text.

The C API reports each parameter's kind (pointer, i32, f32, ...) but not what
a pointer points to; the element type is what lets refcpu.Kernel refuse a
float64 array for a !tt.ptr<f32> before the kernel reads garbage. This is a
small scanner over the textual signature, not an MLIR parser: when it does
not understand the text it returns None and the checks that need it are
skipped.
"""

import re

_OPEN = {"(": ")", "<": ">", "{": "}", "[": "]"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def _split_top_level(text, start):
    """Splits text[start:] at top-level commas up to the ')' that closes the
    parameter list. Returns the pieces, or None if the text is unbalanced."""
    pieces, stack, piece_start = [], [], start
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            end = text.find('"', i + 1)
            while end != -1 and text[end - 1] == "\\":
                end = text.find('"', end + 1)
            if end == -1:
                return None
            i = end
        elif c == "-" and text.startswith("->", i):
            i += 1  # '>' of a function type arrow is not a bracket
        elif c in _OPEN:
            stack.append(c)
        elif c in _CLOSE:
            if not stack:
                if c != ")":
                    return None
                pieces.append(text[piece_start:i])
                return pieces
            if stack.pop() != _CLOSE[c]:
                return None
        elif c == "," and not stack:
            pieces.append(text[piece_start:i])
            piece_start = i + 1
        i += 1
    return None


def _leading_type(text):
    """The type at the start of `text` (balanced over <>)."""
    depth = 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0 and (c.isspace() or c in "{,"):
            return text[:i]
    return text


def pointee(type_text):
    """'f32' for '!tt.ptr<f32>' or '!tt.ptr<f32, 1>'; None for non-pointers."""
    if not type_text.startswith("!tt.ptr<") or not type_text.endswith(">"):
        return None
    inner = type_text[len("!tt.ptr<"):-1]
    depth = 0
    for i, c in enumerate(inner):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            return inner[:i].strip()
    return inner.strip()


def parse(ttir, kernel_name):
    """[(name, type_text)] for the parameters of `tt.func @kernel_name`, or
    None when the signature cannot be read."""
    match = re.search(r"tt\.func\s+(?:public\s+|private\s+)?@" +
                      re.escape(kernel_name) + r"\s*\(", ttir)
    if not match:
        return None
    pieces = _split_top_level(ttir, match.end())
    if pieces is None:
        return None
    params = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        m = re.match(r"%([\w$.\-]+)\s*:\s*", piece)
        if not m:
            return None
        params.append((m.group(1), _leading_type(piece[m.end():])))
    return params
