"""Character-level skipping (whitespace and `//` comments, strings, balanced brackets) shared by the
tensor-type parser and the file scanner, to step over text the attribute grammar does not cover."""
from __future__ import annotations

import re

_WS = re.compile(r"(?:\s|//[^\n]*)*")
_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\.)*')


def skip_ws(s: str, i: int) -> int:
    """Index after the whitespace and `//` comments starting at s[i]."""
    return _WS.match(s, i).end()


def skip_string(s: str, i: int) -> int:
    """s[i] == '"'; index after the closing quote (or of the newline / end if unterminated)."""
    j = _STRING_BODY.match(s, i + 1).end()
    return j + 1 if j < len(s) and s[j] == '"' else j


def skip_balanced(s: str, i: int) -> int:
    """s[i] is an opening bracket; the index after the bracket that closes it, or -1. All of `<([{`
    count, strings are skipped and the '>' of `->` is ignored: `<a->b>` is one bracket pair."""
    depth = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c == '"':
            i = skip_string(s, i)
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
