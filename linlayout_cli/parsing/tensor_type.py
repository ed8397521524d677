"""The `-t` type: `tensor<16x16xf16>` -> TensorType(shape, element), read by hand in three steps (shape, element
type, optional encoding) since only the shape, the element type's name and the encoding's text matter. A
`!ttg.memdesc<64x64xf16, #shared, #smem, mutable>` copied from a dump is read the same way."""
from __future__ import annotations

import re

from ..attributes.encodings import TensorType
from ..attributes.values import found_text
from ..errors import ParseError, UnsupportedError
from ..patterns import lazy
from ..records import frozen
from .attribute import parse_attribute
from .lexical import skip_balanced, skip_string, skip_ws
from .locate import MAX_ATTRIBUTE_CHARS, check_limits, line_col, offset_of, shorten, where

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: typing is not loaded on the print path
    from typing import NoReturn

_TYPE_NAME = lazy(r"[A-Za-z_!][A-Za-z0-9_$.]*")
_DIM = lazy(r"([0-9]+|\?)\s*x")      # `16x16xf16`: a dimension is digits/'?' followed by 'x'
_DIALECT_TYPE = lazy(r"![A-Za-z_][A-Za-z0-9_$.]*")
_ELEM_TYPE = lazy(
    r"(?:(?:s|u)?i[1-9][0-9]*|index|f16|bf16|f32|f64|f80|f128|tf32|f[0-9]+E[0-9]+M[0-9]+[A-Za-z0-9]*)"
    r"(?![A-Za-z0-9_$.])")
_CONTAINER_TYPE = lazy(r"(complex|vector)\s*<")
_SPACES = lazy(r"\s+")
_WORD = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_ALLOC_SHAPE = lazy(r"[0-9]+(?:x[0-9]+)*")
MEMDESC_NAMES = ("!ttg.memdesc", "!triton_gpu.memdesc")

# element type spellings of other languages (PyTorch, numpy, C) -> the MLIR name
_ELEMENT_TYPOS = {
    "fp16": "f16", "float16": "f16", "half": "f16", "fp32": "f32", "float32": "f32", "float": "f32",
    "fp64": "f64", "float64": "f64", "double": "f64", "bfloat16": "bf16", "bfp16": "bf16", "bf32": "f32",
    "int1": "i1", "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int": "i32", "int64": "i64",
    "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64", "fp8": "f8E4M3FN or f8E5M2",
    "float8": "f8E4M3FN or f8E5M2", "fp8e4m3": "f8E4M3FN", "fp8e5m2": "f8E5M2", "fp4": "f4E2M1FN",
}
_ELEMENT_NAMES = ["f16", "bf16", "f32", "f64", "tf32", "i1", "i8", "i16", "i32", "i64", "ui8", "index",
                  "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f4E2M1FN"]


@frozen
class TypeArgument:
    """A `-t` argument: its shape and element type, and the text of an encoding written in it (`None` without
    one) with the offset where that text starts. `memdesc`: it was a `!ttg.memdesc<...>`."""
    type: TensorType
    encoding: str | None = None
    encoding_at: int = 0
    memdesc: bool = False


class _Source:
    """The type text, for located messages."""
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def error(self, msg: str, pos: int) -> ParseError:
        line, col = line_col(self.text, pos)
        return ParseError(f"{where(line, col, False)}: {msg}", line, col)

    def fail(self, msg: str, pos: int) -> NoReturn:
        raise self.error(msg, pos)


def parse_tensor_type(text: str) -> TensorType:
    """`tensor<16x16xf16>`, `tensor<f32>` (rank 0), `tensor<*xf32>` (shape None), `tensor<?x4xf16>`
    ('?' -> -1). Any MLIR element type is accepted; an encoding (`, #blocked...`) is parsed (so it
    must be valid) and ignored. Not a tensor type -> ParseError("Invalid tensor type argument: <t>")."""
    return _parse(text, False).type


def parse_type_argument(text: str) -> TypeArgument:
    """A `-t` argument: a tensor type as `parse_tensor_type` reads it, or a `!ttg.memdesc<shape x element,
    encoding, memory space[, mutable][, alloc shape]>`; the encoding's text is kept (an alias such as
    `#blocked` is resolved later, against the `-i` file)."""
    return _parse(text, True)


def _parse(text: str, allow_memdesc: bool) -> TypeArgument:
    if not isinstance(text, str):
        raise ParseError(f"expected the tensor type as a string, got {type(text).__name__}", 1, 1)
    check_limits(text, MAX_ATTRIBUTE_CHARS, "tensor type")
    src = _Source(text)
    body_start, body_end, memdesc = _type_body(src, allow_memdesc)
    shape, i = _shape(src, body_start, body_end)
    if memdesc and shape is None:
        src.fail("a memdesc needs a ranked shape", body_start)
    element, i = _element_type(src, i, body_end)
    enc_at = _encoding_start(src, i, body_end, memdesc)
    if enc_at is None:
        return TypeArgument(TensorType(shape, element))
    enc_end = _memdesc_tail(src, enc_at, body_end) if memdesc else body_end
    encoding = text[enc_at:enc_end]
    _check_encoding(src, encoding, enc_at)
    lead = len(encoding) - len(encoding.lstrip())
    return TypeArgument(TensorType(shape, element), encoding.strip(), enc_at + lead, memdesc)


def _type_body(src: _Source, allow_memdesc: bool) -> tuple[int, int, bool]:
    """Offsets of the text between `tensor<` (or `!ttg.memdesc<`) and its closing '>' (nothing may follow it),
    and whether it is a memdesc."""
    text = src.text
    i = skip_ws(text, 0)
    m = _TYPE_NAME.match(text, i)
    if not m:
        src.fail("expected a type" + (f" but found {found_text(text[i])}" if i < len(text) else ""), i)
    memdesc = allow_memdesc and m.group() in MEMDESC_NAMES
    if m.group() != "tensor" and not memdesc:
        _reject_other_type(src, m)
    i = skip_ws(text, m.end())
    if i >= len(text) or text[i] != "<":
        src.fail(f"expected '<' in {'memdesc' if memdesc else 'tensor'} type", i)
    close = skip_balanced(text, i)
    if close < 0:
        src.fail(f"expected '>' in {'memdesc' if memdesc else 'tensor'} type", len(text))
    tail = skip_ws(text, close)
    if tail != len(text):
        src.fail(f"found trailing characters: {found_text(text[tail:])}", tail)
    return i + 1, close - 1, memdesc


def _reject_other_type(src: _Source, name: re.Match) -> NoReturn:
    """A well-formed type that is not a tensor (`memref<..>`, `f32`, `!tt.ptr<..>`) is valid MLIR but the
    wrong argument; a malformed one gets a located error."""
    text, head = src.text, name.group()
    j = name.end()
    if j < len(text) and text[j] == "<":
        j = skip_balanced(text, j)
        if j < 0:
            src.fail(f"unbalanced '<' in type '{head}'", name.end())
    tail = skip_ws(text, j)
    if tail != len(text):
        src.fail(f"found trailing characters after the type: {found_text(text[tail:])}", tail)
    raise ParseError(f"Invalid tensor type argument: {shorten(text.strip())}", 1, 1)


def _shape(src: _Source, i: int, body_end: int) -> tuple[tuple[int, ...] | None, int]:
    """The dimensions before the element type (None for `*x`, -1 for '?') and the offset after them."""
    text = src.text
    i = skip_ws(text, i)
    if text.startswith("*", i):
        i = skip_ws(text, i + 1)
        if not text.startswith("x", i):
            src.fail("expected 'x' in unranked tensor type", i)
        return None, skip_ws(text, i + 1)
    dims = []
    while (m := _DIM.match(text, i)):
        dims.append(_dimension(src, m.group(1), i))
        i = skip_ws(text, m.end())
    if i < body_end and text[i].isdigit():
        k = i
        while k < body_end and text[k].isdigit():
            k += 1
        src.fail("expected 'x' in dimension list" + _missing_element_hint(src.text, k, body_end), k)
    return tuple(dims), i


def _missing_element_hint(text: str, k: int, body_end: int) -> str:
    """`tensor<128x64>`: the last dimension ends the body, so the element type was left out."""
    if skip_ws(text, k) < body_end:
        return ""
    example = shorten(text[:k] + "xf16" + text[k:].rstrip(), 60)
    return f"; missing element type, e.g. {example}"


def _dimension(src: _Source, digits: str, pos: int) -> int:
    """One dimension: '?' is dynamic (-1); a size must fit a signed 64-bit integer."""
    if digits == "?":
        return -1
    if len(digits) > 19 or int(digits) >= 1 << 63:
        src.fail("invalid dimension (larger than a 64-bit integer)", pos)
    return int(digits)


def _element_type(src: _Source, i: int, body_end: int) -> tuple[str, int]:
    """The element type (whitespace runs shown as one space) and the offset after it and its spaces."""
    text = src.text
    if i >= body_end:
        src.fail("expected non-function type", i)
    end = _dialect_type_end(src, i, body_end) if text[i] == "!" else _builtin_type_end(src, i, body_end)
    return _SPACES.sub(" ", text[i:end]).strip(), skip_ws(text, end)


def _dialect_type_end(src: _Source, i: int, body_end: int) -> int:
    """`!tt.ptr<f16>`: a dialect type name with an optional balanced `<...>` body."""
    m = _DIALECT_TYPE.match(src.text, i)
    if not m:
        src.fail("expected non-function type", i)
    end = m.end()
    if end < body_end and src.text[end] == "<":
        end = skip_balanced(src.text, end)
        if end < 0 or end > body_end:
            src.fail("unbalanced '<' in element type", i)
    return end


def _builtin_type_end(src: _Source, i: int, body_end: int) -> int:
    """An integer/float/index type, or `complex<..>` / `vector<..>`; tensor, memref and none cannot be
    tensor elements."""
    m = _ELEM_TYPE.match(src.text, i)
    if m:
        return m.end()
    m = _CONTAINER_TYPE.match(src.text, i)
    if not m:
        if src.text.startswith(("tensor", "none", "memref"), i):
            src.fail("invalid tensor element type", i)
        src.fail("expected non-function type" + _element_hint(src.text, i), i)
    end = skip_balanced(src.text, m.end() - 1)
    if end < 0 or end > body_end:
        src.fail("unbalanced '<' in element type", i)
    return end


def _element_hint(text: str, i: int) -> str:
    """`fp16` -> "; 'fp16' is not an MLIR element type, did you mean f16?" (other languages' names, case
    slips and near misses); empty when nothing is close."""
    m = _WORD.match(text, i)
    if not m:
        return ""
    word = m.group()
    guess = _ELEMENT_TYPOS.get(word.lower())
    if guess is None and _ELEM_TYPE.fullmatch(word.lower()):
        guess = word.lower()
    if guess is None:
        import difflib
        close = difflib.get_close_matches(word, _ELEMENT_NAMES, n=1, cutoff=0.6)
        guess = close[0] if close else None
    if guess is None:
        return ""
    return f"; '{shorten(word, 20)}' is not an MLIR element type, did you mean {guess}?"


def _encoding_start(src: _Source, i: int, body_end: int, memdesc: bool) -> int | None:
    """After the element type: nothing (None) or `, <encoding>` (the offset after the comma). A memdesc must
    have its encoding."""
    text = src.text
    if i >= body_end:
        if memdesc:
            src.fail("expected ',' and the encoding of the memdesc", i)
        return None
    if text[i] != ",":
        src.fail(f"expected ',' or '>' in {'memdesc' if memdesc else 'tensor'} type but found "
                 f"{found_text(text[i])}", i)
    return i + 1


def _memdesc_tail(src: _Source, enc_at: int, body_end: int) -> int:
    """The end of a memdesc's encoding; what follows it (the memory space, `mutable`, an alloc shape such as
    `1x64x64`) is checked and dropped."""
    items = _top_level_items(src.text, enc_at, body_end)
    enc_end = items[0][1]
    rest = items[1:]
    if rest:
        start, end = rest[0]
        _check_encoding(src, src.text[start:end], start, "the memory space")
        rest = rest[1:]
    for start, end in rest:
        word = src.text[start:end].strip()
        if word != "mutable" and not _ALLOC_SHAPE.fullmatch(word):
            src.fail(f"expected 'mutable' or an alloc shape (like 1x64x64) but found {found_text(word)}",
                     skip_ws(src.text, start))
    return enc_end


def _top_level_items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The comma-separated items of text[start:end] at bracket depth 0, as (start, end) offsets."""
    items, i, item_start = [], start, start
    while i < end:
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
        elif c in "<([{":
            j = skip_balanced(text, i)
            i = end if j < 0 else j
        elif c == ",":
            items.append((item_start, i))
            i = item_start = i + 1
        else:
            i += 1
    items.append((item_start, end))
    return items


def _check_encoding(src: _Source, enc_text: str, at: int, what: str = "the tensor encoding") -> None:
    """An encoding (or memory space) must parse; an alias reference (`tensor<128x64xf16, #blocked>` copied
    from a dump) is accepted here, and resolved against the `-i` file when the layout is needed."""
    if not enc_text.strip():
        src.fail(f"expected attribute value ({what})", at)
    try:
        parse_attribute(enc_text)
    except ParseError as e:
        if "undefined symbol alias id" in str(e):
            return
        message = str(e).split(": ", 1)[1] if ": " in str(e) else str(e)
        raise src.error(message, at + offset_of(enc_text, e.line, e.column)) from None


def parse_inline_encoding(text: str, encoding: str, at: int, aliases=None):
    """The encoding written in the `-t` argument `text` (`encoding`, found at offset `at` by
    `parse_type_argument`), parsed with the `-i` file's aliases; errors are located in `text`."""
    from .attribute import parse_attr_at
    return parse_attr_at(encoding, aliases, at, text, False)


# ----------------------------------------------------------------------------------------- element widths


class UnknownElementWidth(UnsupportedError):
    """An element type whose width in memory ttlayout cannot tell (the command layer says how to give it)."""


def element_bitwidth(element: str) -> int:
    """Bits one element of an MLIR element type takes in memory.

    f16/bf16 -> 16; f32/tf32/i32 -> 32; f64/i64 -> 64; f8* -> 8; f6*/f4* -> 6/4; iN -> N except i1 -> 8 (Triton
    keeps booleans as one byte each); index and pointers (!tt.ptr<...>) -> 64.

    >>> [element_bitwidth(e) for e in ("bf16", "f8E4M3FN", "i1", "ui16", "!tt.ptr<f16>")]
    [16, 8, 8, 16, 64]
    """
    e = element.strip()
    if e.startswith("!tt.ptr") or e == "index":
        return 64
    if e == "tf32":
        return 32
    if e == "bf16":
        return 16
    m = re.fullmatch(r"[su]?i(\d+)", e)
    if m:
        bits = int(m.group(1))
        return 8 if bits == 1 else bits
    m = re.fullmatch(r"f(\d+)(?:E\d+M\d+\w*)?", e)
    if m:
        return int(m.group(1))
    if re.fullmatch(r"vector<(?:\d+x)+(.+)>", e):
        raise UnsupportedError(f"vector element type {e} is not supported; give the scalar element type")
    raise UnknownElementWidth(f"cannot tell the bit width of element type '{e}'")
