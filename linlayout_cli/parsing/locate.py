"""Where a parse error is: offsets -> `column C` / `line L, column C` messages of ParseError and
VerifyError, and the input limits (size, NUL, nesting depth) checked before parsing so it stays fast."""
from __future__ import annotations

import re

from ..attributes.values import AttrError
from ..errors import ParseError, VerifyError

MAX_NESTING = 64
MAX_INT_DIGITS = 4000            # longer literals are out of range for any type (and int() refuses > 4300 digits)
MAX_INT_WIDTH = 16777215         # MLIR's IntegerType::kMaxWidth
MAX_ATTRIBUTE_CHARS = 64 * 1024     # a real layout is < 4 KB; parsing costs ~8 us per token
MAX_FILE_CHARS = 64 * 1024 * 1024   # bytes of an -i file or stdin (README, "Limits"): ~10x that in memory at most

_BRACKET_OR_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[\[\]{}<>()]')


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of offset `pos` (clamped to the text)."""
    pos = max(0, min(pos, len(text)))
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def offset_of(text: str, line: int, col: int) -> int:
    """The offset of 1-based (line, col) in `text`: the inverse of `line_col`."""
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            break
        pos = nl + 1
    return pos + col - 1


def where(line: int, col: int, file_mode: bool) -> str:
    """The location prefix: the line is named in file mode or when the text has several lines."""
    return f"line {line}, column {col}" if (file_mode or line > 1) else f"column {col}"


def raise_located(err: AttrError, text: str, base: int = 0, file_mode: bool = False):
    """Re-raise an internal error at offset `base + err.pos` of `text` as ParseError / VerifyError.
    A verification failure keeps Triton's bare message in string mode (in file mode it gets the prefix)."""
    line, col = line_col(text, base + err.pos)
    if err.kind == "verify":
        msg = f"{where(line, col, True)}: {err.message}" if file_mode else err.message
        e = VerifyError(msg)
        e.line, e.column = line, col
        raise e from None
    raise ParseError(f"{where(line, col, file_mode)}: {err.message}", line, col) from None


def shorten(text: str, limit: int = 80) -> str:
    """One printable line of at most `limit` characters, for quoting the input in a message."""
    text = text.replace("\n", " ")
    shown = text if len(text) <= limit else text[:limit - 3] + "..."
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in shown)


EXCERPT_BEFORE, EXCERPT_AFTER = 25, 15
HERE = "[HERE]"


def excerpt(text: str, pos: int) -> str:
    """About 40 characters of the line of `text` around offset `pos`, printable, with HERE marking `pos`.

    >>> excerpt('tensor<128x64>', 13)
    'tensor<128x64[HERE]>'
    """
    pos = max(0, min(pos, len(text)))
    first = text.rfind("\n", 0, pos) + 1
    last = text.find("\n", pos)
    last = len(text) if last < 0 else last
    start, end = max(first, pos - EXCERPT_BEFORE), min(last, pos + EXCERPT_AFTER)
    before = ("..." if start > first else "") + _one_line(text[start:pos])
    after = _one_line(text[pos:end]) + ("..." if end < last else "")
    return before + HERE + after


def _one_line(text: str) -> str:
    return "".join(ch if ch.isprintable() else (" " if ch in "\n\r\t" else repr(ch)[1:-1]) for ch in text)


def check_limits(text: str, limit: int, what: str, base: int = 0, whole: str | None = None,
                 file_mode: bool = False):
    """Refuse a NUL character, nesting deeper than MAX_NESTING and more than `limit` characters.
    NUL and nesting are reported first when they occur in the first `limit` characters."""
    head = text[:limit + 1]
    nul = head.find("\x00")
    if nul >= 0:
        raise_located(AttrError("unexpected NUL character", nul), whole or text, base, file_mode)
    depth = 0
    for m in _BRACKET_OR_STRING.finditer(head):
        c = m.group()
        if c[0] == '"':
            continue
        if c in "[{<(":
            depth += 1
            if depth > MAX_NESTING:
                raise_located(AttrError(f"nesting too deep (more than {MAX_NESTING} levels)", m.start()),
                              whole or text, base, file_mode)
        elif depth:
            depth -= 1
    if len(text) > limit:
        raise ParseError(f"{what} too large ({len(text)} characters; the limit is {limit})", 1, 1)
