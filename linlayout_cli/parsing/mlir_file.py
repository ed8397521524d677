"""The `-i` MLIR file scanner: every top-level alias `#name = <attr>`, parsed in order; operations and
type aliases are stepped over by bracket counting, uninterpreted, so whole compiler dumps read fast."""
from __future__ import annotations

import re
from typing import NamedTuple

from ..attributes.encodings import OtherAttribute
from ..attributes.values import AttrError
from ..errors import ParseError
from .attribute import parse_attr_at, parse_value
from .lexical import skip_string, skip_ws
from .locate import MAX_ATTRIBUTE_CHARS, MAX_FILE_CHARS, check_limits, line_col


class AliasDef(NamedTuple):
    """A top-level `#name = <attr>` of an MLIR file: name without '#', the parsed object (an encoding
    or an `OtherAttribute`), and the 1-based line of the definition."""
    name: str
    attr: object
    line: int


_ALIAS_NAME = re.compile(r"#([A-Za-z0-9_$.\-]+)")
_TYPE_ALIAS = re.compile(r"![A-Za-z0-9_$.\-]+")
_LAYOUT_START = re.compile(r"#(?:ttg|triton_gpu|ttng|triton_nvidia_gpu)\.|#[A-Za-z0-9_$\-]+(?![A-Za-z0-9_$.\-])")


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
        raise _error(text, nul, "unexpected NUL character")
    defs: list[AliasDef] = []
    table: dict[str, object] = {}
    i, n = 0, len(text)
    def_line, def_line_pos = 1, 0                   # line of the last alias definition (counted incrementally)
    while True:
        i = skip_ws(text, i)
        if i >= n:
            break
        if text[i] == "#":
            name, attr, end = _alias_definition(text, i, table)
            table[name] = attr
            def_line += text.count("\n", def_line_pos, i)
            def_line_pos = i
            defs.append(AliasDef(name, attr, def_line))
            i = end
        elif text[i] == "!" and _TYPE_ALIAS.match(text, i):
            i = _skip_type_alias(text, i)
        else:
            i = _skip_op(text, i)
    return defs


def _error(text: str, pos: int, message: str) -> ParseError:
    line, col = line_col(text, pos)
    return ParseError(f"line {line}, column {col}: {message}", line, col)


def _alias_definition(text: str, i: int, table: dict) -> tuple[str, object, int]:
    """The alias `#name = value` at text[i]: its name, its parsed value and the offset after the value."""
    m = _ALIAS_NAME.match(text, i)
    if not m:
        raise _error(text, i, "expected an alias name after '#'")
    name = m.group(1)
    j = skip_ws(text, m.end())
    if j >= len(text) or text[j] != "=":
        raise _error(text, j, f"expected '=' in attribute alias definition of '#{name}'")
    if "." in name:
        raise _error(text, i, "attribute names with a '.' are reserved for dialect-defined names")
    if name in table:
        raise _error(text, i, f"redefinition of attribute alias id '{name}'")
    start = skip_ws(text, j + 1)
    end = scan_value_end(text, start)
    value_text = text[start:end]
    if not value_text.strip():
        raise _error(text, start, "expected attribute value")
    return name, _parse_file_value(value_text, table, start, text), end


def _skip_type_alias(text: str, i: int) -> int:
    """Skip a type alias `!name = type` (its value is not needed); a `!...` that is not one is an operation."""
    m = _TYPE_ALIAS.match(text, i)
    j = skip_ws(text, m.end())
    if j < len(text) and text[j] == "=":
        return scan_value_end(text, skip_ws(text, j + 1))
    return _skip_op(text, i)


def _parse_file_value(value_text: str, table, base: int, whole: str):
    """A layout (or alias) value must parse; any other value is kept as canonical text when our grammar
    knows its syntax, else as the text itself with whitespace normalised."""
    if _LAYOUT_START.match(value_text):
        return parse_attr_at(value_text, table, base, whole, True)
    # builtin / other-dialect attribute (`loc(...)`, `1 : i32`, `dense<...> : tensor<..>`)
    if len(value_text) > MAX_ATTRIBUTE_CHARS:      # e.g. a big dense<...> constant: kept as text
        return OtherAttribute(normalise_ws(value_text))
    check_limits(value_text, MAX_ATTRIBUTE_CHARS, "attribute", base, whole, True)
    try:
        attr = parse_value(value_text, table)
        if isinstance(attr, OtherAttribute):
            return attr
    except AttrError:
        pass
    return OtherAttribute(normalise_ws(value_text))


# string literals and plain characters on one line: nothing in such a run opens, closes or ends a value
_STRING_RUN = re.compile(r'(?:"(?:[^"\\\n]|\\.)*"?|[^"/<>()\[\]{}\n])+')
_CHAR_RUNS = {c: re.compile(re.escape(c) + "+") for c in "<>()[]{}"}


def scan_value_end(s: str, i: int) -> int:
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
                    nxt = skip_ws(s, i)
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
            j = skip_string(s, i)
            if not (j > i + 1 and s[j - 1] == '"'):
                raise _error(s, i, "unterminated string literal")
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
                raise _error(s, i, f"unexpected '{c}'")
            take = min(run, stack[-1][2])
            stack[-1][2] -= take
            if not stack[-1][2]:
                stack.pop()
            run -= take
            i += take
    if stack:
        c, start, count = stack[-1]
        raise _error(s, start + count - 1, f"'{c}' is never closed (unexpected end of file)")
    return n


_WS_STRINGS_COMMENTS = re.compile(r'((?:"(?:[^"\\\n]|\\.)*"?)+)(\s*)|//[^\n]*|\s+')


def normalise_ws(s: str) -> str:
    """Whitespace runs become one space and `//` comments go, string literals are kept as they are."""
    def keep(m):
        strings, space = m.group(1, 2)
        if strings is not None:
            return strings + (" " if space else "")
        return "" if m.group()[0] == "/" else " "
    return _WS_STRINGS_COMMENTS.sub(keep, s).strip()
