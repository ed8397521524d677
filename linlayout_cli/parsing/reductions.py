"""The grammar's reductions: tokens -> generic MLIR values (`values.*V`, with MLIR's integer and float
rules), and every `#dialect.mnemonic<...>` -> `attributes/build.py`, which applies Triton 3.9's rules."""
from __future__ import annotations

import re
from collections.abc import Mapping

from ..attributes.encodings import OtherAttribute
from ..attributes.values import (
    ArrayV,
    AttrError,
    BoolV,
    DictV,
    FloatV,
    IdentV,
    IntervalV,
    IntV,
    OpaqueV,
    StrV,
    found_text,
    int_type_width,
    is_float_type,
    print_value,
)
from .lalr import Tok
from .locate import MAX_INT_DIGITS, MAX_INT_WIDTH


def _unescape(raw: str, pos: int) -> str:
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in '"\\':
            out += nxt.encode()
            i += 2
        elif nxt == "n":
            out += b"\n"
            i += 2
        elif nxt == "t":
            out += b"\t"
            i += 2
        elif re.match(r"[0-9a-fA-F]{2}", body[i + 1:i + 3]):
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
        else:
            raise AttrError("unknown escape in string literal", pos + 1 + i)
    return out.decode("utf-8", errors="replace")


# Dialects registered in Triton's MLIR context besides the layout dialects: their attributes are
# kept as text (OtherAttribute); any other dialect is an error, as in Triton ("unregistered dialect").
_OTHER_DIALECTS = frozenset({
    "tt", "amdgpu", "nvgpu", "nvws", "gluon", "proton", "proton_gpu", "llvm", "arith", "math", "scf",
    "cf", "gpu", "nvvm", "rocdl", "ub", "func", "builtin", "index", "vector", "tensor", "memref", "ptr",
})


def _int_literal(tok) -> int:
    """A decimal or 0x-hex integer token; a literal too long for any integer type is out of range."""
    if len(tok.text) > MAX_INT_DIGITS:
        raise AttrError("integer constant out of range for attribute", tok.pos)
    return int(tok.text, 16) if tok.text.startswith("0x") else int(tok.text)


class _Splice(list):
    """Items collected by a `(...)*` helper rule, owned by the reduction that built them."""


class Builder:
    """Callbacks for every grammar rule, applied at each LALR reduction."""

    def __init__(self, text: str, aliases: Mapping[str, object] | None):
        self.text = text
        self.aliases = aliases or {}

    def reduce(self, origin, alias, expand1, children):
        if alias is not None:
            return getattr(self, "r_" + alias)(children)
        if origin.startswith("_"):          # helper rules for `(...)*`: splice into the parent
            # the rule is left-recursive: extend the list built so far in place (a copy per item would
            # make long arrays quadratic)
            if children and type(children[0]) is _Splice:
                out, children = children[0], children[1:]
            else:
                out = _Splice()
            for c in children:
                if isinstance(c, list):
                    out.extend(c)
                else:
                    out.append(c)
            return out
        if expand1 and len(children) == 1:
            return children[0]
        return getattr(self, "r_" + origin)(children)

    @staticmethod
    def _flat(children):
        out = []
        for c in children:
            if isinstance(c, list):
                out.extend(c)
            else:
                out.append(c)
        return out

    # ---- scalars ----
    def r_int_lit(self, ch):
        neg = ch[0].type == "MINUS"
        toks = ch[1:] if neg else ch
        lit = toks[0]
        start = ch[0].pos
        text = lit.text
        value = _int_literal(lit)
        if neg:
            value = -value
        typ, typed = "i64", False
        if len(toks) > 1:
            typ, typed = toks[-1].text, True
            if is_float_type(typ):
                if text.startswith("0x"):
                    if value.bit_length() > 128:        # wider than any float type (f128)
                        raise AttrError("hexadecimal float constant out of range for type", lit.pos)
                    return FloatV(float(value), typ, start)
                raise AttrError("unexpected decimal integer literal for a floating point value", lit.pos)
        sw = int_type_width(typ)
        if sw is None:
            raise AttrError(f"expected an integer or floating point type after ':' but found '{typ}'",
                            toks[-1].pos)
        sign, width = sw
        if width > MAX_INT_WIDTH:
            raise AttrError(f"integer bitwidth is limited to {MAX_INT_WIDTH} bits", toks[-1].pos)
        if width == 0:                              # i0 holds only 0
            if value:
                raise AttrError("integer constant out of range for attribute", lit.pos)
            return IntV(0, typ, start, typed)
        if sign == "u":
            if value < 0:
                raise AttrError("negative integer literal not valid for unsigned integer type", start)
            if value >> width:
                raise AttrError("integer constant out of range for attribute", lit.pos)
        elif sign == "s":
            if not -(1 << (width - 1)) <= value < (1 << (width - 1)):
                raise AttrError("integer constant out of range for attribute", lit.pos)
        else:
            if not -(1 << (width - 1)) <= value < (1 << width):
                raise AttrError("integer constant out of range for attribute", lit.pos)
            value &= (1 << width) - 1              # signless: stored as APInt, read back sign-extended
            if value >> (width - 1):
                value -= 1 << width
        return IntV(value, typ, start, typed)

    def r_float_lit(self, ch):
        neg = ch[0].type == "MINUS"
        toks = ch[1:] if neg else ch
        value = float(toks[0].text)
        typ = "f64"
        if len(toks) > 1:
            typ = toks[-1].text
            if not is_float_type(typ):
                raise AttrError(f"floating point value not valid for specified type '{typ}'", toks[-1].pos)
        return FloatV(-value if neg else value, typ, ch[0].pos)

    def r_string(self, ch):
        return StrV(_unescape(ch[0].text, ch[0].pos), ch[0].pos)

    def r_ident(self, ch):
        t = ch[0]
        if t.text == "true":
            return BoolV(True, t.pos)
        if t.text == "false":
            return BoolV(False, t.pos)
        return IdentV(t.text, t.pos)

    def r_interval(self, ch):
        return IntervalV(_int_literal(ch[0]), _int_literal(ch[3]), ch[0].pos)

    def r_builtin_array(self, ch):
        head = ch[0]
        if head.text != "array":
            raise AttrError(f"expected an attribute value but found {found_text(head.text)}", head.pos)
        elem_type = ch[2].text
        vals = [c for c in self._flat(ch[3:]) if not isinstance(c, Tok)]
        body = elem_type + (": " + ", ".join(print_value(v) for v in vals) if vals else "")
        return OpaqueV(f"array<{body}>", head.pos)

    # ---- containers ----
    def r_array(self, ch):
        from ..attributes.build import check_generic
        items = [check_generic(c) for c in self._flat(ch) if not isinstance(c, Tok)]
        return ArrayV(items, ch[0].pos)

    def r_dict(self, ch):
        entries = [c for c in self._flat(ch) if isinstance(c, tuple)]
        return DictV(entries, ch[0].pos, ch[-1].pos)

    def r_entry(self, ch):
        from ..attributes.build import check_generic
        key = ch[0]
        return (self._key(key), key.pos, check_generic(ch[-1]), key.type == "STRING")

    def r_unit_entry(self, ch):
        key = ch[0]
        return (self._key(key), key.pos, None, key.type == "STRING")

    @staticmethod
    def _key(tok):
        return _unescape(tok.text, tok.pos) if tok.type == "STRING" else tok.text

    # ---- dialect attributes ----
    def r_body_value(self, ch):
        v = ch[0]
        return ("value", v, getattr(v, "pos", 0))

    def r_body_value_dict(self, ch):
        v = ch[0]
        return ("value_dict", v, ch[1], getattr(v, "pos", 0))

    def r_body_param(self, ch):
        return ("param", ch[0].text, ch[-1], ch[0].pos)

    def r_hash_ref(self, ch):
        tok = ch[0]
        name = tok.text[1:]
        if "." in name:
            return self._dialect(tok, None, None)
        return self._alias(tok)

    def r_dialect_attr(self, ch):
        tok = ch[0]
        if "." not in tok.text:
            self._alias(tok)
            raise AttrError(f"unexpected '<' after the alias reference '{tok.text}'", ch[1].pos)
        items = [c for c in self._flat(ch[2:-1]) if isinstance(c, tuple)]
        return self._dialect(tok, items, (ch[1].pos, ch[-1].pos + 1))

    def _alias(self, tok):
        name = tok.text[1:]
        if name in self.aliases:
            return self.aliases[name]
        if tok.text in self.aliases:
            return self.aliases[tok.text]
        raise AttrError(f"undefined symbol alias id '{name}'", tok.pos)

    def _dialect(self, tok, items, span):
        from ..attributes.build import build_dialect_attr, is_layout_dialect
        dialect, _, mnemonic = tok.text[1:].partition(".")
        if not is_layout_dialect(dialect):
            if dialect not in _OTHER_DIALECTS:
                raise AttrError(f"unknown dialect '{dialect}' in '{tok.text}' (layout attributes are "
                                "#ttg.<name> or #ttng.<name>)", tok.pos + 1)
            end = span[1] if span else tok.pos + len(tok.text)
            return OpaqueV(self.text[tok.pos:end], tok.pos)
        mnemonic_pos = tok.pos + 2 + len(dialect)
        body_pos = span[0] if span else tok.pos + len(tok.text)
        body_end = span[1] - 1 if span else body_pos
        return build_dialect_attr(dialect, mnemonic, items or [], span is not None, mnemonic_pos, body_pos,
                                  body_end)

    def r_start(self, ch):
        return ch[0]


def finish(value):
    """Top-level value -> encoding or OtherAttribute."""
    from ..attributes.build import check_generic
    if isinstance(value, OpaqueV):
        return OtherAttribute(value.text)
    if isinstance(value, IdentV):
        check_generic(value)
        return OtherAttribute(value.name)
    if isinstance(value, IntervalV):
        raise AttrError("expected an attribute value but found an interval-padding pair", value.pos)
    if isinstance(value, (IntV, BoolV, FloatV, StrV, ArrayV, DictV)):
        if isinstance(value, DictV):
            value.check_dup()
        return OtherAttribute(print_value(value, top=True))
    return value
