"""The attribute-string parser: one MLIR attribute (`#ttg.blocked<{...}>`, `1 : i32`) -> encoding or
OtherAttribute, with internal errors turned into located ParseError / VerifyError messages."""
from __future__ import annotations

import re

from ..attributes.values import AttrError
from ..errors import ParseError
from ..patterns import lazy
from .lalr import run_lalr
from .lexical import skip_balanced
from .locate import MAX_ATTRIBUTE_CHARS, check_limits, raise_located
from .reductions import Builder, finish

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: typing is not loaded on the print path
    from typing import Mapping

_ONLY_COMMENTS = re.compile(r"(?:\s|//[^\n]*)*")


def parse_value(text: str, aliases):
    """`text` as an encoding or OtherAttribute; errors stay unlocated AttrErrors."""
    return finish(run_lalr(text, Builder(text, aliases)))


def parse_attr_at(text: str, aliases, base: int, whole: str, file_mode: bool):
    """Parse `text`, which starts at offset `base` of `whole`; errors are located in `whole`."""
    check_limits(text, MAX_ATTRIBUTE_CHARS, "attribute", base, whole, file_mode)
    try:
        return parse_value(text, aliases)
    except AttrError as e:
        raise_located(e, whole, base, file_mode)


def parse_attribute(text: str, aliases: Mapping[str, object] | None = None):
    """Parse one attribute (textual MLIR, e.g. `#ttg.blocked<{...}>`) into its encoding object.

    `aliases` maps alias names (without '#'; a key with '#' works too) to objects for `#name`
    references. Non-layout attributes (`#ttg.shared_memory`, `1 : i32`, ...) come back as
    `OtherAttribute` with their canonical text. Raises ParseError (with line/column) or VerifyError."""
    if not isinstance(text, str):
        raise ParseError(f"expected the attribute as a string, got {type(text).__name__}", 1, 1)
    if not text.strip() or _ONLY_COMMENTS.fullmatch(text) is not None:
        raise ParseError("column 1: expected an attribute value but found end of input", 1, 1)
    return parse_attr_at(text, aliases, 0, text, False)


_ALIAS_HEAD = lazy(r"\s*#[A-Za-z0-9_$\-]+\s*=(?!=)\s*")      # `#blocked = ` of a whole alias line
_LOC_CALL = lazy(r"(?<![A-Za-z0-9_$.#\-])loc\s*\(")
_LOC_CANDIDATES = 4        # the trailing `loc(` is among the last few (each try scans to the end)


def pasted_value_span(text: str) -> tuple[int, int]:
    """Where the attribute is in a line copied from a dump: after a leading `#name =` (a whole alias
    definition) and before a trailing location `loc(...)`; (0, len(text)) when there is neither.

    >>> t = '#b = #ttg.blocked<{...}> loc(#loc3)'
    >>> s, e = pasted_value_span(t); t[s:e]
    '#ttg.blocked<{...}>'
    """
    head = _ALIAS_HEAD.match(text)
    start = head.end() if head else 0
    end = len(text.rstrip())
    if text.endswith(")", 0, end):
        for m in [m for m in _LOC_CALL.finditer(text, start) if m.start() > start][-_LOC_CANDIDATES:]:
            if skip_balanced(text, m.end() - 1) == end:
                return start, len(text[:m.start()].rstrip())
    return start, len(text)


def parse_pasted_attribute(text: str, aliases: Mapping[str, object] | None = None):
    """`parse_attribute` for a `-l` argument pasted from a dump: the whole alias line `#name = <attr>` and a
    trailing `loc(...)` are accepted around the attribute; errors keep their columns in `text`."""
    if not isinstance(text, str) or len(text) > MAX_ATTRIBUTE_CHARS:
        return parse_attribute(text, aliases)
    start, end = pasted_value_span(text)
    if (start, end) == (0, len(text)):
        return parse_attribute(text, aliases)
    value = text[start:end]
    if not value.strip() or _ONLY_COMMENTS.fullmatch(value) is not None:
        raise ParseError(f"column {start + 1}: expected an attribute value but found end of input", 1, start + 1)
    return parse_attr_at(value, aliases, start, text, False)
