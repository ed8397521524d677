"""The attribute-string parser: one MLIR attribute (`#ttg.blocked<{...}>`, `1 : i32`) -> encoding or
OtherAttribute, with internal errors turned into located ParseError / VerifyError messages."""
from __future__ import annotations

import re
from typing import Mapping

from ..attributes.values import AttrError
from ..errors import ParseError
from .lalr import run_lalr
from .locate import MAX_ATTRIBUTE_CHARS, check_limits, raise_located
from .reductions import Builder, finish

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
