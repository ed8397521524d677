"""The `-t` tensor type, `tensor<16x16xf16>` -> TensorType(shape, element), read by hand in three steps
(shape, element type, optional encoding) since only the shape and the element type's name matter."""
from __future__ import annotations

import re
from typing import NoReturn

from ..attributes.encodings import TensorType
from ..attributes.values import found_text
from ..errors import ParseError
from .attribute import parse_attribute
from .lexical import skip_balanced, skip_ws
from .locate import MAX_ATTRIBUTE_CHARS, check_limits, line_col, offset_of, shorten, where

_TYPE_NAME = re.compile(r"[A-Za-z_!][A-Za-z0-9_$.]*")
_DIM = re.compile(r"([0-9]+|\?)\s*x")      # `16x16xf16`: a dimension is digits/'?' followed by 'x'
_DIALECT_TYPE = re.compile(r"![A-Za-z_][A-Za-z0-9_$.]*")
_ELEM_TYPE = re.compile(
    r"(?:(?:s|u)?i[1-9][0-9]*|index|f16|bf16|f32|f64|f80|f128|tf32|f[0-9]+E[0-9]+M[0-9]+[A-Za-z0-9]*)"
    r"(?![A-Za-z0-9_$.])")
_CONTAINER_TYPE = re.compile(r"(complex|vector)\s*<")
_SPACES = re.compile(r"\s+")


class _Source:
    """The type text and its one-line quotation for messages."""
    __slots__ = ("text", "shown")

    def __init__(self, text: str, shown: str):
        self.text, self.shown = text, shown

    def error(self, msg: str, pos: int) -> ParseError:
        line, col = line_col(self.text, pos)
        return ParseError(f"{where(line, col, False)}: {msg} (in tensor type argument: {self.shown})", line, col)

    def fail(self, msg: str, pos: int) -> NoReturn:
        raise self.error(msg, pos)


def parse_tensor_type(text: str) -> TensorType:
    """`tensor<16x16xf16>`, `tensor<f32>` (rank 0), `tensor<*xf32>` (shape None), `tensor<?x4xf16>`
    ('?' -> -1). Any MLIR element type is accepted; an encoding (`, #blocked...`) is parsed (so it
    must be valid) and ignored. Not a tensor type -> ParseError("Invalid tensor type argument: <t>")."""
    if not isinstance(text, str):
        raise ParseError(f"expected the tensor type as a string, got {type(text).__name__}", 1, 1)
    check_limits(text, MAX_ATTRIBUTE_CHARS, "tensor type")
    src = _Source(text, shorten(text.strip()))
    body_start, body_end = _tensor_body(src)
    shape, i = _shape(src, body_start, body_end)
    element, i = _element_type(src, i, body_end)
    _check_encoding(src, i, body_end)
    return TensorType(shape, element)


def _tensor_body(src: _Source) -> tuple[int, int]:
    """Offsets of the text between `tensor<` and its closing '>' (nothing may follow it)."""
    text = src.text
    i = skip_ws(text, 0)
    m = _TYPE_NAME.match(text, i)
    if not m:
        src.fail("expected a type" + (f" but found {found_text(text[i])}" if i < len(text) else ""), i)
    if m.group() != "tensor":
        _reject_other_type(src, m)
    i = skip_ws(text, m.end())
    if i >= len(text) or text[i] != "<":
        src.fail("expected '<' in tensor type", i)
    close = skip_balanced(text, i)
    if close < 0:
        src.fail("expected '>' in tensor type", len(text))
    tail = skip_ws(text, close)
    if tail != len(text):
        src.fail(f"found trailing characters: {found_text(text[tail:])}", tail)
    return i + 1, close - 1


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
    raise ParseError(f"Invalid tensor type argument: {src.shown}", 1, 1)


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
        src.fail("expected 'x' in dimension list", k)
    return tuple(dims), i


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
        src.fail("expected non-function type", i)
    end = skip_balanced(src.text, m.end() - 1)
    if end < 0 or end > body_end:
        src.fail("unbalanced '<' in element type", i)
    return end


def _check_encoding(src: _Source, i: int, body_end: int) -> None:
    """After the element type only `, <encoding>` may follow; the encoding must parse, but an alias
    reference (`tensor<128x64xf16, #blocked>` copied from a dump) is accepted: it is ignored anyway."""
    text = src.text
    if i >= body_end:
        return
    if text[i] != ",":
        src.fail(f"expected ',' or '>' in tensor type but found {found_text(text[i])}", i)
    enc_text = text[i + 1:body_end]
    if not enc_text.strip():
        src.fail("expected attribute value (the tensor encoding)", i + 1)
    try:
        parse_attribute(enc_text)
    except ParseError as e:
        if "undefined symbol alias id" in str(e):
            return
        message = str(e).split(": ", 1)[1] if ": " in str(e) else str(e)
        raise src.error(message, i + 1 + offset_of(enc_text, e.line, e.column)) from None
