"""Parse Triton layout attributes, tensor types and MLIR files into encoding objects.

Public API (other modules call exactly this):

    parse_attribute(text, aliases=None) -> encoding object      # ParseError / VerifyError
    parse_tensor_type(text) -> TensorType
    parse_mlir_file(text) -> list[AliasDef]                     # every top-level `#name = <attr>`

How it works
------------
The attribute syntax is the LALR(1) grammar `grammar/mlir.lark`. Lark computes the LALR tables from
it; they are stored, together with the terminal regexps, in the generated module
`linlayout_cli/attributes/_mlir_tables.py` (regenerate with `python -m linlayout_cli.parser
--regenerate` after editing the grammar; a test fails while it is stale). At run time a small table
driver below lexes with one compiled regexp and runs the LALR automaton, so importing this module
does not import Lark at all (importing `lark` alone costs ~50 ms, more than the whole parse).
Reductions call the callbacks of `_Builder` directly (no parse tree is built): generic MLIR values
become `values.*V` objects and every `#dialect.mnemonic<...>` is handed to `attributes/build.py`,
which applies Triton 3.9's own parsing rules and verifiers.

Errors: a syntax error names the column and the expected tokens
(`column 23: expected one of ']' or ',' but found 'x'`); Triton's semantic parse errors keep Triton's
words after the location prefix (`column 6: unexpected key: foo`); verification failures raise
`VerifyError` with exactly Triton's message (in file mode prefixed with `line L, column C: `).
"""
from __future__ import annotations

import re
from typing import Mapping, NamedTuple

from .attributes.encodings import OtherAttribute, TensorType
from .attributes.values import (ArrayV, AttrError, BoolV, DictV, FloatV, IdentV, IntervalV, IntV,
                                OpaqueV, StrV, found_text, int_type_width, is_float_type,
                                print_value)
from .errors import ParseError, VerifyError

__all__ = ["parse_attribute", "parse_tensor_type", "parse_mlir_file", "AliasDef"]

MAX_NESTING = 64
MAX_INT_DIGITS = 4000            # longer literals are out of range for any type (and int() refuses > 4300 digits)
MAX_INT_WIDTH = 16777215         # MLIR's IntegerType::kMaxWidth
MAX_ATTRIBUTE_CHARS = 64 * 1024     # a real layout is < 4 KB; parsing costs ~8 us per token
MAX_FILE_CHARS = 256 * 1024 * 1024


class AliasDef(NamedTuple):
    """A top-level `#name = <attr>` of an MLIR file: name without '#', the parsed object (an encoding
    or an `OtherAttribute`), and the 1-based line of the definition."""
    name: str
    attr: object
    line: int


# =============================================================================================
# tables (generated from grammar/mlir.lark)
# =============================================================================================

_TABLES = None


def _tables():
    global _TABLES
    if _TABLES is None:
        try:
            from .attributes import _mlir_tables as t
            _TABLES = (t.TERMINALS, t.IGNORE, t.RULES, t.STATES, t.START, t.END)
        except ImportError:  # pragma: no cover - only when the generated module was deleted
            _TABLES = _compute_tables(_grammar_text())
        _init_lexer(_TABLES[0], _TABLES[1])
    return _TABLES


def _grammar_path() -> str:
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "grammar", "mlir.lark"),                 # installed package
                 os.path.join(os.path.dirname(here), "grammar", "mlir.lark")):  # source checkout
        if os.path.exists(cand):
            return cand
    try:
        import linlayout_cli.grammar as g
        return os.path.join(os.path.dirname(g.__file__), "mlir.lark")
    except ImportError as e:  # pragma: no cover
        raise FileNotFoundError("grammar/mlir.lark not found") from e


def _grammar_text() -> str:
    with open(_grammar_path(), encoding="utf-8") as f:
        return f.read()


def _compute_tables(grammar: str):
    """Run Lark's LALR(1) analysis on the grammar and return plain-data tables:
    TERMINALS [(name, regexp)], IGNORE [names], RULES [(origin, length, alias, expand1)],
    STATES {state: {symbol: action}} (action >= 0: shift/goto state; action < 0: reduce rule -action-1),
    START, END."""
    from lark import Lark
    from lark.lexer import PatternStr
    from lark.parsers.lalr_analysis import Shift

    lark = Lark(grammar, parser="lalr", lexer="contextual")
    parse_table = lark.parser.parser.parser.parse_table
    terminals = []
    for t in lark.terminals:
        pat = t.pattern
        regexp = re.escape(pat.value) if isinstance(pat, PatternStr) else pat.to_regexp()
        terminals.append((str(t.name), regexp, t.priority, isinstance(pat, PatternStr)))
    # regexps first by priority (FLOAT before INT), then literals
    terminals.sort(key=lambda t: (-t[2], t[3]))
    terminals = [(n, r) for n, r, _p, _s in terminals]
    rule_index = {}
    rules = []
    for r in lark.rules:
        rule_index[id(r)] = len(rules)
        rules.append((str(r.origin.name), len(r.expansion), None if r.alias is None else str(r.alias),
                      bool(r.options.expand1)))
    # Lark may hold equal Rule objects that are not identical; index by value as a fallback
    by_value = {(r.origin.name, tuple(s.name for s in r.expansion), r.alias): i for i, r in enumerate(lark.rules)}
    states = {}
    for state, actions in parse_table.states.items():
        row = {}
        for sym, (action, arg) in actions.items():
            sym = str(sym)
            if action is Shift:
                row[sym] = arg
            else:
                idx = rule_index.get(id(arg))
                if idx is None:
                    idx = by_value[(arg.origin.name, tuple(s.name for s in arg.expansion), arg.alias)]
                row[sym] = -idx - 1
        states[state] = row
    return (terminals, [str(x) for x in lark.ignore_tokens], rules, states,
            parse_table.start_states["start"], parse_table.end_states["start"])


def _grammar_digest(grammar: str) -> str:
    import hashlib
    return hashlib.sha256(grammar.encode("utf-8")).hexdigest()


def regenerate_tables() -> str:
    """Rewrite linlayout_cli/attributes/_mlir_tables.py from grammar/mlir.lark; returns its path."""
    import os
    import pprint
    grammar = _grammar_text()
    terminals, ignore, rules, states, start, end = _compute_tables(grammar)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "attributes", "_mlir_tables.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write('"""GENERATED by `python -m linlayout_cli.parser --regenerate` from grammar/mlir.lark\n'
                '(LALR(1) tables computed by Lark). Do not edit."""\n')
        f.write(f"GRAMMAR_SHA256 = {_grammar_digest(grammar)!r}\n")
        f.write(f"TERMINALS = {pprint.pformat(terminals, width=110)}\n")
        f.write(f"IGNORE = {ignore!r}\n")
        f.write(f"RULES = {pprint.pformat(rules, width=110)}\n")
        f.write(f"START = {start!r}\nEND = {end!r}\n")
        f.write(f"STATES = {pprint.pformat(states, width=110, compact=True)}\n")
    return path


# =============================================================================================
# lexer + LALR driver
# =============================================================================================

_LEX_RE = None
_IGNORE = frozenset()


def _init_lexer(terminals, ignore):
    global _LEX_RE, _IGNORE
    _LEX_RE = re.compile("|".join(f"(?P<{name}>{regexp})" for name, regexp in terminals))
    _IGNORE = frozenset(ignore)


class Tok:
    """A token: type, text and start offset (line/column are computed only for error messages)."""
    __slots__ = ("type", "text", "pos")

    def __init__(self, type_: str, text: str, pos: int):
        self.type, self.text, self.pos = type_, text, pos

    def __repr__(self):  # pragma: no cover - debugging aid
        return f"Tok({self.type}, {self.text!r}, {self.pos})"


_DISPLAY = {
    "HASH_ID": "an attribute ('#...')", "BARE_ID": "an identifier", "INT": "an integer",
    "FLOAT": "a float", "STRING": "a string", "MINUS": "'-'", "PLUS": "'+'", "LANGLE": "'<'",
    "RANGLE": "'>'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "COLON": "':'", "EQUAL": "'='", "$END": "end of input",
}
_ORDER = ["RSQB", "RBRACE", "RANGLE", "COMMA", "EQUAL", "COLON", "PLUS", "LANGLE", "LBRACE", "LSQB",
          "HASH_ID", "INT", "MINUS", "FLOAT", "STRING", "BARE_ID", "$END"]
_VALUE_START = {"HASH_ID", "INT", "FLOAT", "MINUS", "STRING", "LSQB", "LBRACE", "BARE_ID"}


def _expected_text(expected) -> str:
    names = [e for e in expected if e.isupper() or e == "$END"]
    parts = []
    if _VALUE_START <= set(names):
        parts.append("an attribute value")
        names = [n for n in names if n not in _VALUE_START]
    names.sort(key=lambda n: _ORDER.index(n) if n in _ORDER else 99)
    parts += [_DISPLAY.get(n, n) for n in names]
    if not parts:
        return "nothing"
    if len(parts) == 1:
        return parts[0]
    return "one of " + ", ".join(parts[:-1]) + " or " + parts[-1]


_found_text = found_text


def _acceptable(state_stack, states, rules, end) -> list[str]:
    """Terminals that can really follow (LALR rows also hold merged lookaheads of default reductions):
    simulate the reductions for each candidate on a copy of the state stack, like Lark's
    InteractiveParser.accepts()."""
    ok = []
    for sym in states[state_stack[-1]]:
        if not (sym.isupper() or sym == "$END"):
            continue
        stack = list(state_stack)
        while True:
            action = states[stack[-1]].get(sym)
            if action is None:
                break
            if action >= 0:
                ok.append(sym)
                break
            origin, size, _alias, _e = rules[-action - 1]
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][origin])
            if sym == "$END" and stack[-1] == end:
                ok.append(sym)
                break
    return ok


def _run_lalr(text: str, builder: "_Builder"):
    terminals, _ignore, rules, states, start, end = _tables()
    lex_match = _LEX_RE.match
    ignore = _IGNORE
    state_stack = [start]
    value_stack = []
    pos, n = 0, len(text)

    def feed(tok: Tok, is_end: bool):
        while True:
            row = states[state_stack[-1]]
            action = row.get(tok.type)
            if action is None:
                found = "end of input" if is_end else _found_text(tok.text)
                expected = _acceptable(state_stack, states, rules, end)
                raise AttrError(f"expected {_expected_text(expected)} but found {found}", tok.pos)
            if action >= 0:
                state_stack.append(action)
                value_stack.append(tok)
                return None
            origin, size, alias, expand1 = rules[-action - 1]
            if size:
                children = value_stack[-size:]
                del value_stack[-size:]
                del state_stack[-size:]
            else:
                children = []
            value = builder.reduce(origin, alias, expand1, children)
            state_stack.append(states[state_stack[-1]][origin])
            value_stack.append(value)
            if is_end and state_stack[-1] == end:
                return value_stack[-1]

    while pos < n:
        m = lex_match(text, pos)
        if m is None:
            expected = _acceptable(state_stack, states, rules, end)
            raise AttrError(f"expected {_expected_text(expected)} but found {_found_text(text[pos])}", pos)
        kind = m.lastgroup
        if kind not in ignore:
            feed(Tok(kind, m.group(), pos), False)
        pos = m.end()
    return feed(Tok("$END", "", n), True)


# =============================================================================================
# reductions -> values / encodings
# =============================================================================================

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


class _Builder:
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
        from .attributes.build import check_generic
        items = [check_generic(c) for c in self._flat(ch) if not isinstance(c, Tok)]
        return ArrayV(items, ch[0].pos)

    def r_dict(self, ch):
        entries = [c for c in self._flat(ch) if isinstance(c, tuple)]
        return DictV(entries, ch[0].pos, ch[-1].pos)

    def r_entry(self, ch):
        from .attributes.build import check_generic
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
        from .attributes.build import build_dialect_attr, is_layout_dialect
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


def _finish(value):
    """Top-level value -> encoding or OtherAttribute."""
    from .attributes.build import check_generic
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


# =============================================================================================
# error positions
# =============================================================================================

def _line_col(text: str, pos: int) -> tuple[int, int]:
    pos = max(0, min(pos, len(text)))
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def _where(line: int, col: int, file_mode: bool) -> str:
    return f"line {line}, column {col}" if (file_mode or line > 1) else f"column {col}"


def _raise_located(err: AttrError, text: str, base: int = 0, file_mode: bool = False):
    line, col = _line_col(text, base + err.pos)
    if err.kind == "verify":
        msg = f"{_where(line, col, True)}: {err.message}" if file_mode else err.message
        e = VerifyError(msg)
        e.line, e.column = line, col
        raise e from None
    raise ParseError(f"{_where(line, col, file_mode)}: {err.message}", line, col) from None


def _shorten(text: str, limit: int = 80) -> str:
    text = text.replace("\n", " ")
    shown = text if len(text) <= limit else text[:limit - 3] + "..."
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in shown)


def _check_limits(text: str, limit: int, what: str, base: int = 0, whole: str | None = None,
                  file_mode: bool = False):
    head = text[:limit + 1]           # NUL and nesting are reported first when they occur in the first `limit` chars
    nul = head.find("\x00")
    if nul >= 0:
        _raise_located(AttrError("unexpected NUL character", nul), whole or text, base, file_mode)
    depth = 0
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}<>()]', head):
        c = m.group()
        if c[0] == '"':
            continue
        if c in "[{<(":
            depth += 1
            if depth > MAX_NESTING:
                _raise_located(AttrError(f"nesting too deep (more than {MAX_NESTING} levels)", m.start()),
                               whole or text, base, file_mode)
        elif depth:
            depth -= 1
    if len(text) > limit:
        raise ParseError(f"{what} too large ({len(text)} characters; the limit is {limit})", 1, 1)


# =============================================================================================
# public API
# =============================================================================================

def _parse_attr_at(text: str, aliases, base: int, whole: str, file_mode: bool):
    _check_limits(text, MAX_ATTRIBUTE_CHARS, "attribute", base, whole, file_mode)
    try:
        value = _run_lalr(text, _Builder(text, aliases))
        return _finish(value)
    except AttrError as e:
        _raise_located(e, whole, base, file_mode)


def parse_attribute(text: str, aliases: Mapping[str, object] | None = None):
    """Parse one attribute (textual MLIR, e.g. `#ttg.blocked<{...}>`) into its encoding object.

    `aliases` maps alias names (without '#'; a key with '#' works too) to objects for `#name`
    references. Non-layout attributes (`#ttg.shared_memory`, `1 : i32`, ...) come back as
    `OtherAttribute` with their canonical text. Raises ParseError (with line/column) or VerifyError."""
    if not isinstance(text, str):
        raise ParseError(f"expected the attribute as a string, got {type(text).__name__}", 1, 1)
    if not text.strip() or _only_comments(text):
        raise ParseError("column 1: expected an attribute value but found end of input", 1, 1)
    return _parse_attr_at(text, aliases, 0, text, False)


def _only_comments(text: str) -> bool:
    return re.fullmatch(r"(?:\s|//[^\n]*)*", text) is not None


# ---- tensor types ---------------------------------------------------------------------------

_ELEM_TYPE = re.compile(
    r"(?:(?:s|u)?i[1-9][0-9]*|index|f16|bf16|f32|f64|f80|f128|tf32|f[0-9]+E[0-9]+M[0-9]+[A-Za-z0-9]*)"
    r"(?![A-Za-z0-9_$.])")
_WS = re.compile(r"(?:\s|//[^\n]*)*")


def _skip_balanced(s: str, i: int, open_ch: str = "<", close_ch: str = ">") -> int:
    """s[i] == open_ch; return the index after the matching close_ch (strings skipped, `->` ignored)."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            i = _skip_string(s, i)
            continue
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            if c == ">" and i > 0 and s[i - 1] == "-":
                i += 1
                continue
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\.)*')


def _skip_string(s: str, i: int) -> int:
    """s[i] == '"'; index after the closing quote (or of the newline / end if unterminated)."""
    j = _STRING_BODY.match(s, i + 1).end()
    return j + 1 if j < len(s) and s[j] == '"' else j


def parse_tensor_type(text: str) -> TensorType:
    """`tensor<16x16xf16>`, `tensor<f32>` (rank 0), `tensor<*xf32>` (shape None), `tensor<?x4xf16>`
    ('?' -> -1). Any MLIR element type is accepted; an encoding (`, #blocked...`) is parsed (so it
    must be valid) and ignored. Not a tensor type -> ParseError("Invalid tensor type argument: <t>")."""
    if not isinstance(text, str):
        raise ParseError(f"expected the tensor type as a string, got {type(text).__name__}", 1, 1)
    _check_limits(text, MAX_ATTRIBUTE_CHARS, "tensor type")
    shown = _shorten(text.strip())

    def fail(msg: str, pos: int):
        line, col = _line_col(text, pos)
        raise ParseError(f"{_where(line, col, False)}: {msg} (in tensor type argument: {shown})", line, col)

    i = _WS.match(text, 0).end()
    m = re.compile(r"[A-Za-z_!][A-Za-z0-9_$.]*").match(text, i)
    if not m:
        fail("expected a type" + (f" but found {_found_text(text[i])}" if i < len(text) else ""), i)
    head = m.group()
    if head != "tensor":
        # a different type (memref<..>, vector<..>, f32, !tt.ptr<..>): valid MLIR, but not a tensor
        j = m.end()
        if j < len(text) and text[j] == "<":
            j = _skip_balanced(text, j)
            if j < 0:
                fail(f"unbalanced '<' in type '{head}'", m.end())
        if _WS.match(text, j).end() != len(text):
            fail(f"found trailing characters after the type: {_found_text(text[_WS.match(text, j).end():])}",
                 _WS.match(text, j).end())
        raise ParseError(f"Invalid tensor type argument: {shown}", 1, 1)
    i = _WS.match(text, m.end()).end()
    if i >= len(text) or text[i] != "<":
        fail("expected '<' in tensor type", i)
    close = _skip_balanced(text, i)
    if close < 0:
        fail("expected '>' in tensor type", len(text))
    tail = _WS.match(text, close).end()
    if tail != len(text):
        fail(f"found trailing characters: {_found_text(text[tail:])}", tail)
    body_start, body_end = i + 1, close - 1
    j = _WS.match(text, body_start).end()
    shape: list[int] | None = []
    if text.startswith("*", j):
        shape = None
        j = _WS.match(text, j + 1).end()
        if not text.startswith("x", j):
            fail("expected 'x' in unranked tensor type", j)
        j = _WS.match(text, j + 1).end()
    else:
        dim_re = re.compile(r"([0-9]+|\?)\s*x")
        while True:
            dm = dim_re.match(text, j)
            if not dm:
                break
            # `16x16xf16`: a dimension is digits/'?' followed by 'x'; stop before the element type
            if len(dm.group(1)) > 19 or (dm.group(1) != "?" and int(dm.group(1)) >= 1 << 63):
                fail("invalid dimension (larger than a 64-bit integer)", j)
            shape.append(-1 if dm.group(1) == "?" else int(dm.group(1)))
            j = _WS.match(text, dm.end()).end()
        if j < body_end and text[j].isdigit():
            k = j
            while k < body_end and text[k].isdigit():
                k += 1
            fail("expected 'x' in dimension list", k)
    # element type
    if j >= body_end:
        fail("expected non-function type", j)
    if text[j] == "!":
        em = re.compile(r"![A-Za-z_][A-Za-z0-9_$.]*").match(text, j)
        if not em:
            fail("expected non-function type", j)
        k = em.end()
        if k < body_end and text[k] == "<":
            k = _skip_balanced(text, k)
            if k < 0 or k > body_end:
                fail("unbalanced '<' in element type", j)
    else:
        em = _ELEM_TYPE.match(text, j)
        if em:
            k = em.end()
        else:
            cm = re.compile(r"(complex|vector)\s*<").match(text, j)
            if not cm:
                if text.startswith("tensor", j) or text.startswith("none", j) or text.startswith("memref", j):
                    fail("invalid tensor element type", j)
                fail("expected non-function type", j)
            k = _skip_balanced(text, cm.end() - 1)
            if k < 0 or k > body_end:
                fail("unbalanced '<' in element type", j)
    element = re.sub(r"\s+", " ", text[j:k]).strip()
    k = _WS.match(text, k).end()
    if k < body_end:
        if text[k] != ",":
            fail(f"expected ',' or '>' in tensor type but found {_found_text(text[k])}", k)
        enc_text = text[k + 1:body_end]
        if not enc_text.strip():
            fail("expected attribute value (the tensor encoding)", k + 1)
        try:
            parse_attribute(enc_text)
        except ParseError as e:
            if "undefined symbol alias id" in str(e):
                # `tensor<128x64xf16, #blocked>` copied from a dump: the encoding is ignored anyway
                return TensorType(None if shape is None else tuple(shape), element)
            line, col = _line_col(text, k + 1 + _pos_of(enc_text, e.line, e.column))
            body = str(e).split(": ", 1)[1] if ": " in str(e) else str(e)
            raise ParseError(f"{_where(line, col, False)}: {body} (in tensor type argument: {shown})",
                             line, col) from None
    return TensorType(None if shape is None else tuple(shape), element)


def _pos_of(text: str, line: int, col: int) -> int:
    pos = 0
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            break
        pos = nl + 1
    return pos + col - 1


# ---- MLIR files -----------------------------------------------------------------------------

_ALIAS_NAME = re.compile(r"#([A-Za-z0-9_$.\-]+)")
_TYPE_ALIAS = re.compile(r"![A-Za-z0-9_$.\-]+")


def _skip_ws_comments(s: str, i: int) -> int:
    return _WS.match(s, i).end()


# string literals and plain characters on one line: nothing in such a run opens, closes or ends a value
_STRING_RUN = re.compile(r'(?:"(?:[^"\\\n]|\\.)*"?|[^"/<>()\[\]{}\n])+')
_CHAR_RUNS = {c: re.compile(re.escape(c) + "+") for c in "<>()[]{}"}


def _scan_value_end(s: str, i: int) -> int:
    """End of an attribute value starting at s[i]: runs to a newline at bracket depth 0 (strings and
    comments skipped, `->` is not a bracket); a line ending in ',', ':' or '=' continues. Plain text and
    strings are taken a run at a time by a regex, and so are runs of one bracket, so that a megabyte-long
    value is scanned quickly."""
    depth = 0
    n = len(s)
    last_sig = i                         # just after the last character that is neither space nor comment
    while i < n:
        c = s[i]
        if c in "<([{" or c in ">)]}":
            if c == ">" and i > 0 and s[i - 1] == "-":
                run = 1
            else:
                run = _CHAR_RUNS[c].match(s, i).end() - i if s.startswith(c, i + 1) else 1
                depth = depth + run if c in "<([{" else max(0, depth - run)
            i = last_sig = i + run
        elif c == "\n":
            if depth == 0:
                prev = s[last_sig - 1] if last_sig > 0 else ""
                if prev not in ",:=":
                    nxt = _skip_ws_comments(s, i)
                    if not s.startswith(":", nxt):
                        return last_sig
            i += 1
        elif c == "/" and s.startswith("//", i):
            nl = s.find("\n", i)
            i = n if nl < 0 else nl
        else:
            end = _STRING_RUN.match(s, i).end() if c != "/" else i + 1
            plain = s[i:end].rstrip()
            if plain:
                last_sig = i + len(plain)
            i = end
    return last_sig


_OP_SPECIAL = re.compile(r'["/()\[\]{}\n]')    # at depth 0: a newline ends the operation
_OP_NESTED = re.compile(r'["/()\[\]{}]')       # inside brackets newlines do not matter
_OP_PAIRS = {")": "(", "]": "[", "}": "{"}


def _skip_op(s: str, i: int) -> int:
    """Skip one top-level operation (e.g. `module attributes {...} {...} loc(#loc)`): text up to a
    newline at bracket depth 0 of (), [], {}; strings and comments are skipped, '<' '>' are not
    counted (they appear unbalanced in `->`). Unbalanced brackets are a ParseError. The scan jumps
    from one special character to the next and takes runs of one bracket at once (the stack holds
    [bracket, position of the run, run length]), so multi-megabyte dumps are skipped quickly."""
    stack: list[list] = []
    n = len(s)
    top, nested = _OP_SPECIAL.search, _OP_NESTED.search
    while True:
        m = (nested if stack else top)(s, i)
        if m is None:
            break
        i = m.start()
        c = s[i]
        if c == '"':
            j = _skip_string(s, i)
            if not (j > i + 1 and s[j - 1] == '"'):
                line, col = _line_col(s, i)
                raise ParseError(f"line {line}, column {col}: unterminated string literal", line, col)
            i = j
            continue
        if c == "/":
            if s.startswith("//", i):
                nl = s.find("\n", i)
                i = n if nl < 0 else nl
            else:
                i += 1
            continue
        if c == "\n":
            if not stack:
                return i
            i += 1
            continue
        run = _CHAR_RUNS[c].match(s, i).end() - i
        if c in "([{":
            stack.append([c, i, run])
            i += run
            continue
        while run:
            if not stack or stack[-1][0] != _OP_PAIRS[c]:
                line, col = _line_col(s, i)
                raise ParseError(f"line {line}, column {col}: unexpected '{c}'", line, col)
            take = min(run, stack[-1][2])
            stack[-1][2] -= take
            if not stack[-1][2]:
                stack.pop()
            run -= take
            i += take
    if stack:
        c, start, count = stack[-1]
        line, col = _line_col(s, start + count - 1)
        raise ParseError(f"line {line}, column {col}: '{c}' is never closed (unexpected end of file)", line, col)
    return n


def parse_mlir_file(text: str) -> list[AliasDef]:
    """Every top-level attribute alias definition `#name = <attr>` of an MLIR file, in order.

    Layout attributes become encoding objects (aliases used inside later definitions are resolved);
    other aliases (`#loc3 = loc("x.py":12:20)`, `#smem = #ttg.shared_memory`, builtin values) come back
    as `OtherAttribute(text)`. Operations (`module attributes {...} {...}`, functions, `{-# ... #-}`
    resource blocks) are skipped without being interpreted."""
    if not isinstance(text, str):
        raise ParseError(f"expected the file contents as a string, got {type(text).__name__}", 1, 1)
    if len(text) > MAX_FILE_CHARS:
        raise ParseError(f"input file too large ({len(text)} characters; the limit is {MAX_FILE_CHARS})", 1, 1)
    nul = text.find("\x00")
    if nul >= 0:
        line, col = _line_col(text, nul)
        raise ParseError(f"line {line}, column {col}: unexpected NUL character", line, col)
    defs: list[AliasDef] = []
    table: dict[str, object] = {}
    i, n = 0, len(text)
    def_line, def_line_pos = 1, 0                   # line of the last alias definition (counted incrementally)
    while True:
        i = _skip_ws_comments(text, i)
        if i >= n:
            break
        if text[i] == "#":
            m = _ALIAS_NAME.match(text, i)
            if not m:
                line, col = _line_col(text, i)
                raise ParseError(f"line {line}, column {col}: expected an alias name after '#'", line, col)
            name = m.group(1)
            j = _skip_ws_comments(text, m.end())
            if j >= n or text[j] != "=":
                line, col = _line_col(text, j)
                raise ParseError(f"line {line}, column {col}: expected '=' in attribute alias definition "
                                 f"of '#{name}'", line, col)
            if "." in name:
                line, col = _line_col(text, i)
                raise ParseError(f"line {line}, column {col}: attribute names with a '.' are reserved for "
                                 f"dialect-defined names", line, col)
            if name in table:
                line, col = _line_col(text, i)
                raise ParseError(f"line {line}, column {col}: redefinition of attribute alias id '{name}'",
                                 line, col)
            vstart = _skip_ws_comments(text, j + 1)
            vend = _scan_value_end(text, vstart)
            value_text = text[vstart:vend]
            if not value_text.strip():
                line, col = _line_col(text, vstart)
                raise ParseError(f"line {line}, column {col}: expected attribute value", line, col)
            attr = _parse_file_value(value_text, table, vstart, text)
            table[name] = attr
            def_line += text.count("\n", def_line_pos, i)
            def_line_pos = i
            defs.append(AliasDef(name, attr, def_line))
            i = vend
        elif text[i] == "!" and _TYPE_ALIAS.match(text, i):
            # type alias `!name = type`: skip the value
            m = _TYPE_ALIAS.match(text, i)
            j = _skip_ws_comments(text, m.end())
            if j < n and text[j] == "=":
                i = _scan_value_end(text, _skip_ws_comments(text, j + 1))
            else:
                i = _skip_op(text, i)
        else:
            i = _skip_op(text, i)
    return defs


_LAYOUT_START = re.compile(r"#(?:ttg|triton_gpu|ttng|triton_nvidia_gpu)\.|#[A-Za-z0-9_$\-]+(?![A-Za-z0-9_$.\-])")


def _parse_file_value(value_text: str, table, base: int, whole: str):
    if _LAYOUT_START.match(value_text):
        return _parse_attr_at(value_text, table, base, whole, True)
    # builtin / other-dialect attribute (`loc(...)`, `1 : i32`, `dense<...> : tensor<..>`): canonical
    # text when our grammar knows the syntax, else the text itself (whitespace normalised)
    if len(value_text) > MAX_ATTRIBUTE_CHARS:      # e.g. a big dense<...> constant: kept as text
        return OtherAttribute(_normalise_ws(value_text))
    _check_limits(value_text, MAX_ATTRIBUTE_CHARS, "attribute", base, whole, True)
    try:
        attr = _finish(_run_lalr(value_text, _Builder(value_text, table)))
        if isinstance(attr, OtherAttribute):
            return attr
    except AttrError:
        pass
    return OtherAttribute(_normalise_ws(value_text))


_WS_STRINGS_COMMENTS = re.compile(r'((?:"(?:[^"\\\n]|\\.)*"?)+)(\s*)|//[^\n]*|\s+')


def _normalise_ws(s: str) -> str:
    """Whitespace runs become one space and `//` comments go, string literals are kept as they are."""
    def keep(m):
        strings, space = m.group(1, 2)
        if strings is not None:
            return strings + (" " if space else "")
        return "" if m.group()[0] == "/" else " "
    return _WS_STRINGS_COMMENTS.sub(keep, s).strip()


if __name__ == "__main__":  # pragma: no cover
    import sys
    if sys.argv[1:] == ["--regenerate"]:
        print(regenerate_tables())
    else:
        print("usage: python -m linlayout_cli.parser --regenerate", file=sys.stderr)
        sys.exit(2)
