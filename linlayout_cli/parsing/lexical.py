"""Character-level skipping (whitespace and `//` comments, strings, balanced brackets) shared by the
tensor-type parser and the file scanner, to step over text the attribute grammar does not cover."""
from __future__ import annotations

import re

from ..patterns import lazy

# Every pattern here repeats a single character class, or a group once per comment: a group repeated once per
# character would make the regex engine keep a backtracking record per character (about 130 bytes each).
_WS = re.compile(r"\s*(?://[^\n]*\s*)*")


def skip_ws(s: str, i: int) -> int:
    """Index after the whitespace and `//` comments starting at s[i]."""
    m = _WS.match(s, i)                               # matches always (possibly empty)
    assert m is not None
    return m.end()


_SIMPLE = lazy(r'"[^"\\\n]*"')                 # a string without escapes (the usual one): one regex step


def skip_string(s: str, i: int) -> int:
    """s[i] == '"'; index after the closing quote (or of the newline / end if unterminated). Linear in time with
    constant memory: a quote is escaped when an odd run of backslashes stands before it, so the scan jumps from
    quote to quote, one step per escaped quote.

    >>> text = '"a' + chr(92) + '"b"c'          # "a\"b"c: the escaped quote does not end the string
    >>> skip_string(text, 0), skip_string('"ab', 0)
    (6, 3)
    """
    m = _SIMPLE.match(s, i)
    if m:
        return m.end()
    j, n = i + 1, len(s)
    while True:
        k = s.find('"', j)
        nl = s.find("\n", j, n if k < 0 else k)
        if nl >= 0:
            return nl
        if k < 0:
            return n
        if s[k - 1] != "\\":
            return k + 1
        run = k - 1
        while run > j and s[run - 1] == "\\":
            run -= 1
        if (k - run) % 2 == 0:
            return k + 1
        j = k + 1


_BRACKET_OR_QUOTE = re.compile(r'["<>()\[\]{}]')


_QUOTE_RUN = lazy(r'"+')


def skip_strings(s: str, i: int) -> int:
    """s[i] == '"': the index after the strings that follow one another from there (an unterminated one ends the
    run, as in `skip_string`). A run of quotes is a run of empty strings, stepped over at once: a megabyte of `"`
    costs one step, not half a million.

    >>> q = chr(34)                                  # a quote
    >>> skip_strings(3 * q + "a" + q + "b", 0), skip_strings(4 * q, 0), skip_strings(q + "a" + q + " " + q, 0)
    (5, 4, 3)
    """
    n = len(s)
    while i < n and s[i] == '"':
        m = _QUOTE_RUN.match(s, i)                    # s[i] is a quote: it matches
        assert m is not None
        run = m.end() - i
        if run >= 2:
            i += run - run % 2
            continue
        j = skip_string(s, i)
        if not (j > i + 1 and s[j - 1] == '"'):
            return j
        i = j
    return i


def skip_balanced(s: str, i: int) -> int:
    """s[i] is an opening bracket; the index after the bracket that closes it, or -1. All of `<([{`
    count, strings are skipped and the '>' of `->` is ignored: `<a->b>` is one bracket pair. One Python step
    per bracket or string (the text between them is jumped over by a regex)."""
    depth = 0
    while True:
        m = _BRACKET_OR_QUOTE.search(s, i)
        if m is None:
            return -1
        i = m.start()
        c = s[i]
        if c == '"':
            i = skip_string(s, i)
            continue
        if c in "<([{":
            depth += 1
        elif not (c == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


_BLANKS = lazy(r"[ \t]*")


def line_matches(pattern: re.Pattern, text: str, literal: str):
    """The matches of `pattern` that `pattern.finditer(text)` finds when the pattern starts `^[ \\t]*LITERAL` in
    MULTILINE mode (a line whose first characters other than spaces and tabs are `literal`), in order. str.find
    jumps from one occurrence of the literal to the next, so a 10 MB dump is scanned in milliseconds, where the
    regex engine tries `^` at every character; each line is looked at a bounded number of times, however long.

    >>> [m.group() for m in line_matches(re.compile(r"^ *ab.$", re.M), "ab1 ab2\\n  ab3\\nx ab4", "ab")]
    ['  ab3']
    """
    pos, n = 0, len(text)
    at_line_start = True                       # whether pos starts a line
    while pos < n:
        k = text.find(literal, pos)
        if k < 0:
            return
        nl = text.rfind("\n", pos, k)
        start = nl + 1 if nl >= 0 else pos if at_line_start else -1
        blanks = _BLANKS.match(text, start, k) if start >= 0 else None     # matches always (possibly empty)
        if blanks is not None and blanks.end() == k:
            m = pattern.match(text, start)
            if m is not None:
                yield m
                pos = max(m.end(), start + 1)
                at_line_start = text[pos - 1] == "\n"
                continue
        nl = text.find("\n", k)                # no match can start on this line any more
        if nl < 0:
            return
        pos, at_line_start = nl + 1, True
