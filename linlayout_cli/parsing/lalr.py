"""Lexer and LALR(1) driver over the precomputed tables: one compiled regexp lexes, and each reduction
calls the builder directly (no parse tree). Syntax errors name the expected tokens in words."""
from __future__ import annotations

import re

from ..attributes.values import AttrError, found_text

_TABLES: tuple | None = None
_LEX_RE: re.Pattern[str] | None = None
_IGNORE: frozenset[str] = frozenset()


def _tables():
    """(TERMINALS, IGNORE, RULES, STATES, START, END) of the generated module, loaded on first use."""
    global _TABLES
    if _TABLES is None:
        try:
            from . import _mlir_tables as t
            _TABLES = (t.TERMINALS, t.IGNORE, t.RULES, t.STATES, t.START, t.END)
        except ImportError:  # pragma: no cover - only when the generated module was deleted
            from .tables import compute_tables, grammar_text
            _TABLES = compute_tables(grammar_text())
        _init_lexer(_TABLES[0], _TABLES[1])
    return _TABLES


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
    """Expected terminals in words, closing brackets first; all value starts become 'an attribute value'."""
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


def run_lalr(text: str, builder):
    """Parse `text` with the grammar's automaton; returns what the builder made of the start rule."""
    terminals, _ignore, rules, states, start, end = _tables()
    assert _LEX_RE is not None                      # _tables() compiled it
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
                found = "end of input" if is_end else found_text(tok.text)
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
            raise AttrError(f"expected {_expected_text(expected)} but found {found_text(text[pos])}", pos)
        kind = m.lastgroup
        assert kind is not None                     # every alternative is a named group
        if kind not in ignore:
            feed(Tok(kind, m.group(), pos), False)
        pos = m.end()
    return feed(Tok("$END", "", n), True)
