"""Generic MLIR attribute values produced by the parser before a dialect builder interprets them.

The parser turns `{key = [1, 2], flag = true}` into `DictV([...])`, `ArrayV([IntV, IntV])`, ... and
hands the body of every dialect attribute to `build.py`, which reads these values with Triton's own
rules (`read_uint`, `read_bool`, ...). Values that are not layouts survive as `OtherAttribute` with
MLIR's canonical text (`1 : i64`, `"s"`, `[1, 2]`).

`AttrError` is the internal error: it carries a character offset into the parsed text; the public
functions in `linlayout_cli.parsing` turn it into `ParseError`/`VerifyError` with line and column.
"""
from __future__ import annotations

import re

from ..patterns import lazy

_INT_TYPE = re.compile(r"^(?:(s|u)?i([0-9]+)|index)$")
_FLOAT_TYPE = lazy(r"^(?:f16|bf16|f32|f64|f80|f128|tf32|f[0-9]+E[0-9]+M[0-9]+[A-Za-z0-9]*)$")
# bare identifiers that MLIR accepts as an attribute value (builtin types as TypeAttr, `unit`)
_TYPE_LIKE = lazy(r"^(?:unit|none|index|(?:s|u)?i[0-9]+|f16|bf16|f32|f64|f80|f128|tf32|"
                  r"f[0-9]+E[0-9]+M[0-9]+[A-Za-z0-9]*)$")
_BARE_KEY = lazy(r"^[A-Za-z_][A-Za-z0-9_$.]*$")


class AttrError(Exception):
    """Internal error with a character offset (`pos`) into the text being parsed.

    kind: "parse" (becomes ParseError) or "verify" (becomes VerifyError)."""

    def __init__(self, message: str, pos: int, kind: str = "parse"):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.kind = kind


# ---------------------------------------------------------------------------------------------
# value classes
# ---------------------------------------------------------------------------------------------

class IntV:
    """An integer attribute. `typ` is the MLIR type (`i64` when none was written); `value` is already
    normalised like MLIR's APInt: sign-extended for signless/signed types, plain for unsigned."""
    __slots__ = ("value", "typ", "pos", "typed")

    def __init__(self, value: int, typ: str, pos: int, typed: bool):
        self.value, self.typ, self.pos, self.typed = value, typ, pos, typed

    @property
    def unsigned_type(self) -> bool:
        return self.typ.startswith("ui")


class BoolV:
    """`true` / `false` (MLIR: an i1 integer attribute)."""
    __slots__ = ("value", "pos")

    def __init__(self, value: bool, pos: int):
        self.value, self.pos = value, pos


class FloatV:
    __slots__ = ("value", "typ", "pos")

    def __init__(self, value: float, typ: str, pos: int):
        self.value, self.typ, self.pos = value, typ, pos


class StrV:
    __slots__ = ("value", "pos")

    def __init__(self, value: str, pos: int):
        self.value, self.pos = value, pos


class ArrayV:
    __slots__ = ("items", "pos")

    def __init__(self, items: list, pos: int):
        self.items, self.pos = items, pos


class DictV:
    """A dictionary `{k = v, flag}` in source order. `entries`: list of (key, key_pos, value-or-None,
    key_is_string). `dup` is the first repeated key (key, pos) or None: MLIR rejects those with
    `duplicate key '<k>' in dictionary attribute` (struct bodies report them differently)."""
    __slots__ = ("entries", "pos", "dup", "end")

    def __init__(self, entries: list, pos: int, end: int | None = None):
        self.entries, self.pos = entries, pos
        self.end = pos if end is None else end       # offset of the closing '}'

        seen = set()
        self.dup = None
        for key, kpos, _v, _s in entries:
            if key in seen:
                self.dup = (key, kpos)
                break
            seen.add(key)

    def sorted_items(self):
        """(key, value) pairs sorted by key (byte order), as MLIR's DictionaryAttr stores them.
        Unit entries (`{flag}`) get `UnitV`."""
        self.check_dup()
        items = [(k, UnitV(p) if v is None else v) for k, p, v, _s in self.entries]
        items.sort(key=lambda kv: kv[0].encode("utf-8"))
        return items

    def key_pos(self, key):
        return next((p for k, p, _v, _s in self.entries if k == key), self.pos)

    def get(self, key):
        for k, p, v, _s in self.entries:
            if k == key:
                return UnitV(p) if v is None else v
        return None

    def keys(self):
        return [k for k, _p, _v, _s in self.entries]

    def check_dup(self):
        if self.dup is not None:
            raise AttrError(f"duplicate key '{self.dup[0]}' in dictionary attribute", self.dup[1])


class UnitV:
    __slots__ = ("pos",)

    def __init__(self, pos: int):
        self.pos = pos


class IntervalV:
    """`2:+4` inside the padded_shared interval list."""
    __slots__ = ("interval", "padding", "pos")

    def __init__(self, interval: int, padding: int, pos: int):
        self.interval, self.padding, self.pos = interval, padding, pos


class IdentV:
    """A bare identifier in value position (an enum keyword such as `kThenMn`, or a builtin type)."""
    __slots__ = ("name", "pos")

    def __init__(self, name: str, pos: int):
        self.name, self.pos = name, pos


class OpaqueV:
    """A builtin attribute kept as canonical text (e.g. `array<i32: 1, 2>`, a type such as `f32`)."""
    __slots__ = ("text", "pos")

    def __init__(self, text: str, pos: int):
        self.text, self.pos = text, pos


def is_type_like(name: str) -> bool:
    return bool(_TYPE_LIKE.match(name))


def int_type_width(typ: str):
    """(signedness, width) for an integer type name: signedness in {'', 's', 'u'}; index -> ('', 64)."""
    m = _INT_TYPE.match(typ)
    if not m:
        return None
    if typ == "index":
        return ("", 64)
    digits = m.group(2).lstrip("0") or "0"
    # a width of more than 9 digits is far above MLIR's limit (16777215): report it as 2^30, not int() it
    return (m.group(1) or "", int(digits) if len(digits) <= 9 else 1 << 30)


def is_float_type(typ: str) -> bool:
    return bool(_FLOAT_TYPE.match(typ))


# ---------------------------------------------------------------------------------------------
# canonical printing of generic values (MLIR's printer)
# ---------------------------------------------------------------------------------------------

def _escape(s: str) -> str:
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append("\\22")
        elif ch == "\\":
            out.append("\\\\")
        elif 0x20 <= o < 0x7F:
            out.append(ch)
        else:
            for b in ch.encode("utf-8"):
                out.append("\\%02X" % b)
    return "".join(out)


def _print_float(v: float) -> str:
    if v != v:
        return "0x7FF8000000000000"
    if v in (float("inf"), float("-inf")):
        return "0x7FF0000000000000" if v > 0 else "0xFFF0000000000000"
    return "%e" % v


def print_value(v, top: bool = False) -> str:
    """MLIR's canonical print of a generic value. The default i64/f64 types are elided only for
    array elements (`[1, 2]`); at top level and as dictionary values they are printed (`1 : i64`)."""
    if isinstance(v, IntV):
        if v.typ == "i1":
            return "true" if v.value else "false"
        if v.typ == "i64" and not top:
            return str(v.value)
        return f"{v.value} : {v.typ}"
    if isinstance(v, BoolV):
        return "true" if v.value else "false"
    if isinstance(v, FloatV):
        if v.typ == "f64" and not top:
            return _print_float(v.value)
        return f"{_print_float(v.value)} : {v.typ}"
    if isinstance(v, StrV):
        return '"' + _escape(v.value) + '"'
    if isinstance(v, ArrayV):
        return "[" + ", ".join(print_value(x) for x in v.items) + "]"
    if isinstance(v, DictV):
        parts = []
        for key, val in v.sorted_items():
            k = key if _BARE_KEY.match(key) else '"' + _escape(key) + '"'
            parts.append(k if isinstance(val, UnitV) else f"{k} = {print_value(val, top=True)}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(v, UnitV):
        return "unit"
    if isinstance(v, IntervalV):
        return f"{v.interval}:+{v.padding}"
    if isinstance(v, IdentV):
        return v.name
    if isinstance(v, OpaqueV):
        return v.text
    return str(v)


def found_text(text: str) -> str:
    """A found token for error messages: quoted, at most 20 characters, non-printables escaped."""
    shown = text if len(text) <= 20 else text[:17] + "..."
    return "'" + "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in shown) + "'"
