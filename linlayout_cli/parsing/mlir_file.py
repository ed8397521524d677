"""The `-i` MLIR file scanner: every top-level alias `#name = <attr>`, parsed in order; operations and
type aliases are stepped over by bracket counting, uninterpreted, so whole compiler dumps read fast.

Definitions may share a line (`#mma = #ttg.amd_mfma<{...}>#shared = ...`, as Triton's own tests write
them): a value, or an operation, ends where the next `#name =` starts at bracket depth 0. The
`#locN = loc(...)` lines that make up most of a dump take a fast path: one anchored regex scan over the
run of them, no parser, the same `OtherAttribute` text the general path gives."""
from __future__ import annotations

import gc
import re
from collections import namedtuple
from collections.abc import Mapping
from contextlib import contextmanager

from ..attributes.encodings import OtherAttribute
from ..attributes.values import AttrError
from ..errors import ParseError, TTLayoutError
from ..patterns import lazy
from .attribute import parse_attr_at, parse_value
from .lexical import skip_strings, skip_ws
from .locate import MAX_ATTRIBUTE_CHARS, MAX_FILE_CHARS, check_limits, line_col

AliasDef = namedtuple("AliasDef", "name attr line")
AliasDef.__doc__ = """A top-level `#name = <attr>` of an MLIR file: name without '#', the parsed object (an encoding
or an `OtherAttribute`), and the 1-based line of the definition. (collections' namedtuple: `typing.NamedTuple` would
load `typing`, ~5 ms of the audit's start-up.)"""


_ALIAS_NAME = re.compile(r"#([A-Za-z0-9_$.\-]+)")
_TYPE_ALIAS = lazy(r"![A-Za-z0-9_$.\-]+")
_LAYOUT_START = re.compile(r"#(?:ttg|triton_gpu|ttng|triton_nvidia_gpu)\.|#[A-Za-z0-9_$\-]+(?![A-Za-z0-9_$.\-])")
_DEFINITION_AHEAD = lazy(r"#[A-Za-z0-9_$.\-]+[ \t]*=(?!=)")     # where another definition starts
_LOC_START = lazy(r"loc\(")

# The `#locN = loc(...)` lines Triton writes: a file location `loc("f.py":3:4)`, a named one
# `loc("x"(#loc3))`, `loc(callsite(#loc1 at #loc2))`, `loc(fused[#loc1, #loc2])`, `loc(unknown)`, alone on
# their line and not continued by a ':' line. The general path keeps exactly this text (nothing to normalise,
# nothing nested deeply); any other spelling simply takes the general path. The match runs on over the
# whitespace and comments after the line, to the next token.
_REF = r"#[A-Za-z0-9_$\-]+"
_LOC_VALUE = (r'loc\((?:"[^"\\\n]*"(?::[0-9]+:[0-9]+|\(' + _REF + r'\))?|callsite\(' + _REF + " at " + _REF
              + r"\)|fused\[" + _REF + "(?:, " + _REF + r")*\]|unknown|" + _REF + r")\)")
_SKIP = r"(?:\s|//[^\n]*)*"


_FAST_LOC = re.compile(r"#([A-Za-z0-9_$\-]+) = (" + _LOC_VALUE + r")[ \t\r]*(?:\Z|\n(?!" + _SKIP + ":)" + _SKIP
                       + ")")                                   # one definition: (name, value)


def parse_mlir_file(text: str) -> list[AliasDef]:
    """Every top-level attribute alias definition `#name = <attr>` of an MLIR file, in order.

    Layout attributes become encoding objects (aliases used inside later definitions are resolved);
    other aliases (`#loc3 = loc("x.py":12:20)`, `#smem = #ttg.shared_memory`, builtin values) come back
    as `OtherAttribute(text)`. Operations (`module attributes {...} {...}`, functions, `{-# ... #-}`
    resource blocks) are skipped without being interpreted."""
    return parse_alias_table(text).definitions()


def parse_alias_table(text: str, broken: dict | None = None) -> AliasTable:
    """The definitions of an MLIR file as `parse_mlir_file` reads them, by name (an `AliasTable`: the
    `#loc` lines become objects only when asked for). With `broken`, a definition whose value fails to parse
    is left out and its error kept there by name, and the rest is still read (one pass, whatever fails);
    errors outside a value (an unbalanced operation, a stray '}') always end the read, naming their line."""
    if not isinstance(text, str):
        raise ParseError(f"expected the file contents as a string, got {type(text).__name__}", 1, 1)
    if len(text) > MAX_FILE_CHARS:
        raise ParseError(f"input file too large ({len(text)} characters; the limit is {MAX_FILE_CHARS})", 1, 1)
    nul = text.find("\x00")
    if nul >= 0:
        raise _error(text, nul, "unexpected NUL character")
    return scan_definitions(normalise_newlines(text), broken=broken)


def normalise_newlines(text: str) -> str:
    """CR LF and a lone CR (old Mac files) both end a line, as LF does.

    >>> normalise_newlines("a\\r\\nb\\rc")
    'a\\nb\\nc'
    """
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


class AliasTable(Mapping):
    """name -> AliasDef of a file's definitions, in file order. A `#loc` line read by the fast path is held as
    the offset of its definition (an int, which costs the garbage collector nothing) and becomes an AliasDef
    when it is looked up: a dump's 80,000 locations are rarely asked for."""
    __slots__ = ("_text", "_entries", "attributes", "op_spans")

    def __init__(self, text: str):
        self._text = text
        self._entries: dict[str, AliasDef | int] = {}
        self.attributes = _Attributes(self)
        self.op_spans: list[tuple[int, int]] = []      # [start, end) of each top-level operation (`module {...}`)

    def __getitem__(self, name: str) -> AliasDef:
        entry = self._entries[name]
        if isinstance(entry, int):
            entry = self._entries[name] = self._loc_def(name, entry, self._text.count("\n", 0, entry) + 1)
        return entry

    def __contains__(self, name) -> bool:
        return name in self._entries

    def __iter__(self):
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def values(self):
        return self.definitions()

    def items(self):
        return [(d.name, d) for d in self.definitions()]

    def value_text(self, name: str) -> str:
        """The text of a definition's value without building it: a fast-path `#loc` line's `loc(...)`, or the
        text of the attribute (`OtherAttribute`) the general path made."""
        entry = self._entries[name]
        if isinstance(entry, int):
            return _loc_value(self._text, name, entry)
        return str(getattr(entry.attr, "text", entry.attr))

    def layouts(self) -> list[AliasDef]:
        """The definitions whose value is a layout, in file order (no `#loc` line is one)."""
        return [e for e in self._entries.values() if not isinstance(e, int) and getattr(e.attr, "kind", None)]

    def definitions(self) -> list[AliasDef]:
        """Every definition, in file order; the lines of the `#loc` ones are counted in one pass."""
        text, entries = self._text, self._entries
        pos, line = 0, 1
        with collector_paused():
            for name, entry in entries.items():
                if isinstance(entry, int):
                    line += text.count("\n", pos, entry)
                    pos = entry
                    entries[name] = AliasDef(name, OtherAttribute(_loc_value(text, name, entry)), line)
        return [e for e in entries.values() if not isinstance(e, int)]      # every one is built now

    def _add(self, name: str, definition: AliasDef) -> None:
        self._entries[name] = definition

    def _loc_def(self, name: str, offset: int, line: int) -> AliasDef:
        return AliasDef(name, OtherAttribute(_loc_value(self._text, name, offset)), line)


def _loc_value(text: str, name: str, offset: int) -> str:
    """The value of the fast-path definition `#name = loc(...)` at `offset`: the rest of its line."""
    end = text.find("\n", offset)
    return text[offset + len(name) + 4:end if end >= 0 else len(text)].rstrip(" \t\r")


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector while the objects of a dump's `#loc` lines are made: none of
    them form cycles, yet each batch of them would start a collection that walks all the earlier ones."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Attributes(Mapping):
    """An AliasTable's attributes by name: what the attribute parser resolves `#name` against."""
    __slots__ = ("_table",)

    def __init__(self, table: AliasTable):
        self._table = table

    def __getitem__(self, name: str):
        return self._table[name].attr

    def __contains__(self, name) -> bool:
        return name in self._table

    def __iter__(self):
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)


def scan_definitions(text: str, fast: bool = True, broken: dict | None = None) -> AliasTable:
    """The definitions of `text` (already checked for size and NUL); `fast=False` turns the `#loc` fast path
    off, so that tests can compare both paths; `broken`: see `parse_alias_table`."""
    table = AliasTable(text)
    i, n = 0, len(text)
    line, line_pos = 1, 0                   # line number at offset line_pos (counted incrementally)
    while True:
        i = skip_ws(text, i)
        if i >= n:
            break
        c = text[i]
        if c == "#":
            if fast:
                j = _take_loc_lines(text, i, table)
                if j != i:
                    i = j
                    continue
            name, attr, end = _alias_definition(text, i, table, broken)
            line += text.count("\n", line_pos, i)
            line_pos = i
            if not isinstance(attr, TTLayoutError):
                table._add(name, AliasDef(name, attr, line))
            i = end
        elif c == "!" and _TYPE_ALIAS.match(text, i):
            i = _skip_type_alias(text, i)
        else:
            start, i = i, _skip_op(text, i)
            table.op_spans.append((start, i))
    return table


def _take_loc_lines(text: str, i: int, table: AliasTable) -> int:
    """Add the fast-path definitions that follow one another from text[i], each as its offset; the offset after
    the last one taken, `i` if none. A name defined before stops the run: the general path reports it."""
    entries = table._entries
    m = None
    # Pattern.scanner (CPython's, untyped): successive matches each starting where the last one ended
    for m in iter(_FAST_LOC.scanner(text, i).match, None):  # type: ignore[attr-defined]
        name = m[1]
        if name in entries:
            return m.start()
        entries[name] = m.start()
    return i if m is None else m.end()


def _error(text: str, pos: int, message: str) -> ParseError:
    line, col = line_col(text, pos)
    return ParseError(f"line {line}, column {col}: {message}", line, col)


def _alias_definition(text: str, i: int, table: AliasTable, broken: dict | None = None) -> tuple[str, object, int]:
    """The alias `#name = value` at text[i]: its name, its parsed value and the offset after the value. With
    `broken`, a value that fails to parse comes back as its error (also kept in `broken` under the name)."""
    m = _ALIAS_NAME.match(text, i)
    if not m:
        raise _error(text, i, "expected an alias name after '#'")
    name = m.group(1)
    j = skip_ws(text, m.end())
    if j >= len(text) or text[j] != "=":
        raise _error(text, j, f"expected '=' in attribute alias definition of '#{name}'")
    if "." in name:
        raise _error(text, i, "attribute names with a '.' are reserved for dialect-defined names")
    if name in table or broken is not None and name in broken:
        raise _error(text, i, f"redefinition of attribute alias id '{name}'")
    start = skip_ws(text, j + 1)
    end = scan_value_end(text, start)
    value_text = text[start:end]
    if not value_text.strip():
        raise _error(text, start, "expected attribute value")
    if broken is None:
        return name, _parse_file_value(value_text, table.attributes, start, text), end
    try:
        return name, _parse_file_value(value_text, table.attributes, start, text), end
    except TTLayoutError as e:
        broken[name] = e
        return name, e, end


def _skip_type_alias(text: str, i: int) -> int:
    """Skip a type alias `!name = type` (its value is not needed); a `!...` that is not one is an operation."""
    m = _TYPE_ALIAS.match(text, i)
    assert m is not None                            # the caller saw '!'
    j = skip_ws(text, m.end())
    if j < len(text) and text[j] == "=":
        return scan_value_end(text, skip_ws(text, j + 1))
    return _skip_op(text, i)


# layouts read so far, by their text (one that names no other alias means the same in every file): a dump of many
# `// -----` modules repeating its layouts parses each once
_PARSED: dict[str, object] = {}
_PARSED_LIMIT = 4096


def forget_parsed() -> None:
    """Drop the attributes parsed so far: --triton changes what some texts mean (amd_mfma's versionMajor)."""
    _PARSED.clear()


def _parse_file_value(value_text: str, table, base: int, whole: str):
    """A layout (or alias) value must parse; any other value is kept as canonical text when our grammar
    knows its syntax, else as the text itself with whitespace normalised."""
    if _LAYOUT_START.match(value_text):
        if value_text.count("#") != 1:                # names other aliases: its meaning depends on them
            return parse_attr_at(value_text, table, base, whole, True)
        parsed = _PARSED.get(value_text)
        if parsed is None:
            parsed = parse_attr_at(value_text, table, base, whole, True)
            if len(_PARSED) >= _PARSED_LIMIT:
                _PARSED.clear()
            _PARSED[value_text] = parsed
        return parsed
    # builtin / other-dialect attribute (`loc(...)`, `1 : i32`, `dense<...> : tensor<..>`)
    if len(value_text) > MAX_ATTRIBUTE_CHARS:      # e.g. a big dense<...> constant: kept as text
        return OtherAttribute(normalise_ws(value_text))
    check_limits(value_text, MAX_ATTRIBUTE_CHARS, "attribute", base, whole, True)
    if not _LOC_START.match(value_text):            # the grammar has no `loc(...)`: it would only fail
        try:
            attr = parse_value(value_text, table)
            if isinstance(attr, OtherAttribute):
                return attr
        except AttrError:
            pass
    return OtherAttribute(normalise_ws(value_text))


# plain characters of one line: nothing in such a run opens, closes or ends a value (strings are stepped over by
# `skip_string`, which is linear; a regex repeating a string-or-character group costs memory per character)
_PLAIN_RUN = re.compile(r'[^"/<>()\[\]{}\n#]+')
_CHAR_RUNS = {c: re.compile(re.escape(c) + "+") for c in "<>()[]{}"}


def scan_value_end(s: str, i: int) -> int:
    """End of an attribute value starting at s[i]: runs to a newline at bracket depth 0 (strings and
    comments skipped, `->` is not a bracket); a line ending in ',', ':' or '=' continues; another
    definition `#name =` at depth 0 ends it too. Plain text is taken a run at a time by a regex, and so
    are strings and runs of one bracket, so that a megabyte-long value is scanned quickly."""
    depth = 0
    n = len(s)
    start = i
    last_sig = i                         # just after the last character that is neither space nor comment
    while i < n:
        c = s[i]
        if c in "<([{" or c in ">)]}":
            if c == ">" and i > 0 and s[i - 1] == "-":
                run = 1
            else:
                # (hot loop: no check) s[i] is c, so the run matches
                run = _CHAR_RUNS[c].match(s, i).end() - i if s.startswith(c, i + 1) else 1  # type: ignore[union-attr]
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
        elif c == "#":
            if depth == 0 and i > start and _DEFINITION_AHEAD.match(s, i):
                return last_sig
            i = last_sig = i + 1
        elif c == "/":
            if s.startswith("//", i):
                nl = s.find("\n", i)
                i = n if nl < 0 else nl
            else:
                i = last_sig = i + 1
        else:
            # (hot loop: no check) s[i] is a plain character here, so the run matches
            end = skip_strings(s, i) if c == '"' else _PLAIN_RUN.match(s, i).end()  # type: ignore[union-attr]
            stripped = len(s[i:end].rstrip())
            if stripped:
                last_sig = i + stripped
            i = end
    return last_sig


_OP_TOP = re.compile(r'["/()\[\]{}\n#]')        # at depth 0: a newline or a definition ends the operation
# inside brackets: plain text (one fast character-class run), then a quote (the string is stepped over by
# `skip_string`), a comment or a run of one bracket
# (up to 4096 innermost pairs, `[...]` `(...)` `{...}` holding plain text only, count as plain text: they open and
# close nothing else, so a function of a million `loc(#locN)` lines, or a JSON file of a million `[]`s, takes a few
# hundred steps, not two million; the bound keeps the regex engine's own memory for the repetition constant)
_OP_PLAIN = r'[^"/()\[\]{}]*'
_OP_NESTED = re.compile(_OP_PLAIN + r'(?:(?:\[' + _OP_PLAIN + r'\]|\(' + _OP_PLAIN + r'\)|\{' + _OP_PLAIN + r'\})'
                        + _OP_PLAIN + r'){0,4096}("|//[^\n]*|\(+|\[+|\{+|\)+|\]+|\}+|/)')
_OP_PAIRS = {")": "(", "]": "[", "}": "{"}


def _skip_op(s: str, i: int) -> int:
    """Skip one top-level operation (e.g. `module attributes {...} {...} loc(#loc)`): text up to a
    newline (or a `#name =`) at bracket depth 0 of (), [], {}; strings and comments are skipped, '<'
    '>' are not counted (they appear unbalanced in `->`). Unbalanced brackets are a ParseError."""
    n = len(s)
    while True:
        m = _OP_TOP.search(s, i)
        if m is None:
            return n
        i = m.start()
        c = s[i]
        if c == "\n":
            return i
        if c == "#":
            if _DEFINITION_AHEAD.match(s, i):
                return i
            i += 1
        elif c == '"':
            i = _string_end(s, i, skip_strings(s, i))
        elif c == "/":
            if s.startswith("//", i):
                nl = s.find("\n", i)
                i = n if nl < 0 else nl
            else:
                i += 1
        elif c in _OP_PAIRS:
            raise _error(s, i, f"unexpected '{c}'")
        else:
            i = _skip_brackets(s, i)


def _string_end(s: str, i: int, j: int) -> int:
    """The end `j` of the string literal s[i:j]; an unterminated one is a ParseError."""
    if not (j > i + 1 and s[j - 1] == '"'):
        raise _error(s, i, "unterminated string literal")
    return j


def _skip_brackets(s: str, i: int) -> int:
    """s[i] opens a bracket: the offset after the bracket that closes it. The tokens come from one regex
    that steps over plain text in C, and the stack holds [bracket, position of the run, run length]
    for runs of one bracket (`((`), so a multi-megabyte module body costs one Python step per bracket run."""
    c = s[i]
    run = _CHAR_RUNS[c].match(s, i).end() - i  # type: ignore[union-attr]     # s[i] is c: the run matches
    stack: list[list] = [[c, i, run]]           # (taken apart: an innermost pair starting at s[i] is no plain text)
    pos, n = i + run, len(s)
    while pos < n:
        m = _OP_NESTED.match(s, pos)
        if m is None:
            break
        tok = m.group(1)
        c = tok[0]
        pos = m.end(1)
        if c in "([{":
            stack.append([c, m.start(1), len(tok)])
        elif c in _OP_PAIRS:
            run, at = len(tok), m.start(1)
            opener = _OP_PAIRS[c]
            while run:
                if not stack or stack[-1][0] != opener:
                    raise _error(s, at, f"unexpected '{c}'")
                top = stack[-1]
                take = min(run, top[2])
                top[2] -= take
                if not top[2]:
                    stack.pop()
                run -= take
                at += take
                if not stack and run:
                    raise _error(s, at, f"unexpected '{c}'")
            if not stack:
                return at
        elif c == '"':
            pos = _string_end(s, m.start(1), skip_strings(s, m.start(1)))
    c, start, count = stack[-1]
    raise _error(s, start + count - 1, f"'{c}' is never closed (unexpected end of file)")


_STRING_OR_COMMENT = lazy(r'"|//')
_COMMENT_OR_SPACE = lazy(r"//[^\n]*|\s+")


def normalise_ws(s: str) -> str:
    """Whitespace runs become one space and `//` comments go, string literals are kept as they are.

    Linear: the text between strings is rewritten by one regex substitution, the strings are stepped over.

    >>> normalise_ws('dense<[1,\\n   2]> : tensor<2xi32>   "a  b"   "c" // two')
    'dense<[1, 2]> : tensor<2xi32> "a  b" "c"'
    """
    if '"' not in s:
        return _COMMENT_OR_SPACE.sub(_space_or_nothing, s).strip()
    out, start, i, n = [], 0, 0, len(s)
    while True:
        m = _STRING_OR_COMMENT.search(s, i)
        if m is None:
            break
        if m.group() == "//":                   # a comment may hold quotes: step to its end
            nl = s.find("\n", m.end())
            i = n if nl < 0 else nl
            continue
        out.append(_COMMENT_OR_SPACE.sub(_space_or_nothing, s[start:m.start()]))
        i = start = skip_strings(s, m.start())
        out.append(s[m.start():i])
    out.append(_COMMENT_OR_SPACE.sub(_space_or_nothing, s[start:]))
    return "".join(out).strip()


def _space_or_nothing(m) -> str:
    return "" if m.group()[0] == "/" else " "
