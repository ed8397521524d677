"""Read CuTe layout text into a `CuteLayout` record.

Accepted, with any whitespace between tokens:

    [cute: | cute-tv: | cute-shared:] [Swizzle<B,M,S> o [_0 o]] SHAPE : STRIDE

where SHAPE and STRIDE are congruent int tuples: `_32` or `32`, `(a,b,...)` nested at will. `Sw<B,M,S>` (CuTe's own
print of a swizzle) is the same as `Swizzle<B,M,S>`, and `o _0 o` is the zero offset CuTe prints between the two
parts of a composed layout. So TLX's `tlx.dump_layout` text, CuTe's `print(layout)` and tensor-layouts'
`str(layout)` (`(32, 32) : (32, 1)`) are all read. `cute-tv:` and `cute-shared:` also say how the text is to be read
(`cute_reading`): as a thread-value layout or as a shared one.

Errors are one `ParseError` line naming the column and what was expected, like the attribute parser's:

>>> parse_cute("cute: (_32,_2):(_1")
Traceback (most recent call last):
...
linlayout_cli.errors.ParseError: column 19: expected ',' or ')' but found end of input
"""
from __future__ import annotations

import re

from ..attributes.cute import CuteLayout, Swizzle, int_tuple_text, top_modes
from ..attributes.values import found_text
from ..errors import ParseError
from .locate import MAX_ATTRIBUTE_CHARS, MAX_NESTING, line_col, where

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from typing import NoReturn

MAX_CUTE_DIGITS = 20            # larger numbers are far beyond any layout (2^64 has 20 digits)

_INT = re.compile(r"_?-?[0-9]+")
_WORD = re.compile(r"[A-Za-z_0-9]+|\S")
_PREFIX = re.compile(r"\s*cute(?:-(tv|shared))?(?:\s*\[([a-z0-9=,\s]{0,40})\])?\s*:")
_PARAM = re.compile(r"\s*(ctas|lanes)\s*=\s*([0-9]{1,6})\s*")
READINGS = {"tv": "distributed", "shared": "shared"}      # the prefix's word -> the kind of layout it reads as
_SWIZZLE = re.compile(r"Swizzle\b|Sw(?=\s*<)")


def is_cute_text(text: str) -> bool:
    """Whether an option value is CuTe text rather than a Triton attribute (`#ttg...`) or Gluon code: it starts
    with `cute:`, a swizzle, a parenthesis or an integer.

    >>> is_cute_text("((_32,_2,_2),_1):((_1,_32,_0),_0)"), is_cute_text("#ttg.blocked<{...}>")
    (True, False)
    """
    if not isinstance(text, str):
        return False
    s = text.lstrip()
    return bool(_PREFIX.match(s) or _SWIZZLE.match(s) or s[:1] in ("(", "_") or s[:1].isdigit())


def has_cute_prefix(text: str) -> bool:
    """Whether the text says it is CuTe (`cute:`, `cute-tv:`, `cute-shared:`, with `[ctas=N, lanes=N]`), rather
    than only looking like it."""
    return isinstance(text, str) and _PREFIX.match(text) is not None


def cute_reading(text: str) -> str | None:
    """The reading CuTe text's prefix names: 'distributed' for `cute-tv:` (a thread-value layout), 'shared' for
    `cute-shared:`, None for `cute:` or no prefix (the text and the tensor's shape decide).

    >>> cute_reading("cute-tv: ((_8,_8),(_2,_2,_4)):((_2,_32),(_1,_16,_256))"), cute_reading("cute: _64:_1")
    ('distributed', None)
    """
    m = _PREFIX.match(text) if isinstance(text, str) else None
    return READINGS[m.group(1)] if m and m.group(1) else None


def cute_params(text: str) -> dict[str, int]:
    """What CuTe text's prefix says of the hardware, `cute-tv[ctas=2, lanes=16]:`: `ctas`, the CTAs (blocks) the
    layout spans, its outermost threads or top offsets (1 unless given); `lanes`, the lanes per warp its thread
    mode splits into (absent unless given: the target's). ParseError on anything else in the brackets.

    >>> cute_params("cute-tv[ctas=2]: ((_32,_4,_2),_4):((_4,_128,_512),_1)"), cute_params("(_32,_32):(_32,_1)")
    ({'ctas': 2}, {})
    """
    m = _PREFIX.match(text) if isinstance(text, str) else None
    if not m or m.group(2) is None:
        return {}
    out: dict[str, int] = {}
    for part in m.group(2).split(","):
        found = _PARAM.fullmatch(part)
        if not found or found.group(1) in out or int(found.group(2)) < 1:
            raise ParseError(f"expected 'ctas=N' or 'lanes=N' in the brackets of the CuTe prefix, got "
                             f"'{part.strip()}'", 1, m.start(2) + 1)
        out[found.group(1)] = int(found.group(2))
    return out


class _Reader:
    """A cursor over the text; every `expect` names what it wanted when the text has something else."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, token: str) -> bool:
        self.skip()
        return self.text.startswith(token, self.pos)

    def fail(self, expected: str, pos: int | None = None) -> NoReturn:
        pos = self.pos if pos is None else pos
        m = _WORD.match(self.text, pos)
        found = found_text(m.group()) if m else "end of input"
        self.error(f"expected {expected} but found {found}", pos)

    def error(self, message: str, pos: int) -> NoReturn:
        line, col = line_col(self.text, pos)
        raise ParseError(f"{where(line, col, False)}: {message}", line, col)

    def expect(self, token: str, expected: str | None = None) -> None:
        if not self.peek(token):
            self.fail(expected or f"'{token}'")
        self.pos += len(token)

    def integer(self, expected: str = "an integer ('_32' or '32')") -> tuple[int, int]:
        """(value, position) of `_N`, `N`, `_-N` or `-N`."""
        self.skip()
        m = _INT.match(self.text, self.pos)
        if not m:
            self.fail(expected)
        digits = m.group().lstrip("_-")
        if len(digits) > MAX_CUTE_DIGITS:
            self.error(f"integer of {len(digits)} digits is out of range", self.pos)
        start, self.pos = self.pos, m.end()
        return int(m.group().lstrip("_")), start

    def int_tuple(self, depth: int = 0):
        """An int or a parenthesised tuple of int tuples; returns (value, position)."""
        self.skip()
        start = self.pos
        if not self.peek("("):
            return self.integer("an integer ('_32' or '32') or '('")[0], start
        if depth >= MAX_NESTING:
            self.error(f"tuples nested deeper than {MAX_NESTING}", start)
        self.pos += 1
        items = [self.int_tuple(depth + 1)[0]]
        while True:
            self.skip()
            if self.peek(","):
                self.pos += 1
                items.append(self.int_tuple(depth + 1)[0])
            elif self.peek(")"):
                self.pos += 1
                return tuple(items), start
            else:
                self.fail("',' or ')'")


def _check_shape(reader: _Reader, shape, pos: int) -> None:
    bad = [s for s in _flat(shape) if s < 1]
    if bad:
        reader.error(f"every shape entry must be positive, got _{bad[0]} in {int_tuple_text(shape)}", pos)


def _flat(x):
    return [x] if isinstance(x, int) else [v for e in x for v in _flat(e)]


def _congruence(shape, stride) -> str | None:
    """Why `stride` is not the same tree as `shape`, or None."""
    if isinstance(shape, int) != isinstance(stride, int):
        return f"{int_tuple_text(stride)} against the shape's {int_tuple_text(shape)}"
    if isinstance(shape, int):
        return None
    if len(shape) != len(stride):
        return (f"{int_tuple_text(stride)} has {len(stride)} modes where the shape's {int_tuple_text(shape)} "
                f"has {len(shape)}")
    for a, b in zip(shape, stride):
        why = _congruence(a, b)
        if why:
            return why
    return None


def _swizzle(reader: _Reader) -> Swizzle:
    start = reader.pos
    m = _SWIZZLE.match(reader.text, reader.pos)      # the caller saw it match
    assert m is not None
    reader.pos = m.end()
    reader.expect("<")
    b, _ = reader.integer()
    reader.expect(",")
    base, _ = reader.integer()
    reader.expect(",")
    s, _ = reader.integer()
    reader.expect(">", "'>'")
    if b < 0 or base < 0 or abs(s) < b:
        reader.error(f"Swizzle<{b},{base},{s}> is not a CuTe swizzle: it needs B >= 0, M >= 0 and |S| >= B", start)
    return Swizzle(b, base, s)


def parse_cute(text: str) -> CuteLayout:
    """CuTe text -> CuteLayout; ParseError (column and what was expected) on anything else.

    >>> parse_cute("Swizzle<2,1,5> o (_32,_32):(_32,_1)")
    CuteLayout(shape=(32, 32), stride=(32, 1), swizzle=Swizzle(bits=2, base=1, shift=5))
    >>> str(parse_cute("cute: (32, 32) : (32, 1)"))
    '(_32,_32):(_32,_1)'
    """
    if not isinstance(text, str):
        raise ParseError(f"expected the CuTe layout as a string, got {type(text).__name__}", 1, 1)
    if len(text) > MAX_ATTRIBUTE_CHARS:
        raise ParseError(f"CuTe layout text of {len(text)} characters exceeds the limit of {MAX_ATTRIBUTE_CHARS}", 1, 1)
    reader = _Reader(text)
    prefix = _PREFIX.match(text)
    if prefix:
        reader.pos = prefix.end()
    reader.skip()
    swizzle = None
    if _SWIZZLE.match(text, reader.pos):
        swizzle = _swizzle(reader)
        reader.skip()
        if not re.match(r"o\b", text[reader.pos:reader.pos + 2]):
            reader.fail("'o' (composition) after the swizzle")
        reader.pos += 1
        reader.skip()
        # CuTe prints a composed layout as `Sw<B,M,S> o _0 o (shape):(stride)`: an int followed by `o` is the offset
        offset = re.match(r"(_?-?[0-9]+)\s*o\b", text[reader.pos:])
        if offset:
            value, at = reader.integer()
            if value != 0:
                reader.error(f"a composed layout's offset must be _0 (the layout starts at offset 0), got _{value}", at)
            reader.skip()
            reader.pos += 1
    shape, shape_pos = reader.int_tuple()
    _check_shape(reader, shape, shape_pos)
    reader.expect(":", "':' between the shape and the stride")
    stride, stride_pos = reader.int_tuple()
    reader.skip()
    if reader.pos < len(text):
        reader.fail("end of input")
    why = _congruence(shape, stride)
    if why:
        reader.error(f"the stride is not congruent with the shape: {why}", stride_pos)
    if len(top_modes(shape)) == 1 and not isinstance(shape, int) and not isinstance(shape[0], tuple):
        shape, stride = shape[0], stride[0]         # `(_64):(_1)` is the layout `_64:_1`
    return CuteLayout(shape, stride, swizzle)


__all__ = ["parse_cute", "is_cute_text", "has_cute_prefix", "cute_reading", "cute_params", "MAX_CUTE_DIGITS"]
