"""What the server knows of one open file: its sections (each its own alias scope), and in each the alias
definitions and uses, the `tt.func`s, the tensor types and inline layouts under a position. Only text is read
here (regular expressions and bracket counting): the analyses go through `model`, and each section is indexed
when first asked about, so a 50 MB dump costs one scan for its section headers.

Positions are 0-based (line, character) with characters counted in UTF-16 code units, as LSP counts them."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from . import model

ALIAS_DEF = re.compile(r"^[ \t]*#([A-Za-z0-9_$.\-]+)[ \t]*=(?!=)", re.M)
ALIAS_REF = re.compile(r"#([A-Za-z0-9_$.\-]+)")
FUNC = re.compile(r"^[ \t]*(?:tt\.func|llvm\.func|func\.func|tt\.func\s+(?:public|private))\b[^@\n]*@([\w$.\-]+)",
                  re.M)
TYPE_START = re.compile(r"tensor<|!ttg\.memdesc<")
INLINE_START = re.compile(r"#(?:ttg|triton_gpu|ttng|triton_nvidia_gpu|amdg)\.[A-Za-z_]+<")
LOC_NAME = re.compile(r"loc\d*$")


def utf16_len(text: str) -> int:
    """How many UTF-16 code units `text` takes (LSP's unit for a character position)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def from_utf16(line: str, units: int) -> int:
    """The index in `line` of the character at UTF-16 offset `units`."""
    if line.isascii():
        return min(units, len(line))
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


@dataclass
class Span:
    """A piece of one line: 0-based line, [start, end) in characters of that line (code points)."""
    line: int
    start: int
    end: int


@dataclass
class SectionIndex:
    """One section's aliases: where each is defined, where each is used; its functions."""
    definitions: dict[str, Span] = field(default_factory=dict)
    uses: dict[str, list[Span]] = field(default_factory=dict)
    functions: list[tuple[str, Span]] = field(default_factory=list)


class Document:
    """One version of an open file's text, indexed lazily."""

    def __init__(self, uri: str, text: str, version: int | None = None, path: str | None = None):
        self.uri, self.version, self.path = uri, version, path
        self.original = text
        self.text = model.normalise_newlines(text)
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        self.sections = model.sections(self.text)
        self.dump = model.is_dump(self.sections)
        self._index: dict[int, SectionIndex] = {}
        self._modules: dict[int, object] = {}
        self._aliases: dict[int, object] = {}

    # --- lines and offsets

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_text(self, line: int) -> str:
        if not 0 <= line < len(self.starts):
            return ""
        end = self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[line]:end]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1

    def span(self, start: int, end: int) -> Span:
        line = self.line_of(start)
        return Span(line, start - self.starts[line], end - self.starts[line])

    def units(self, s: Span) -> tuple[int, int, int]:
        """(line, start, end) of a span in UTF-16 units."""
        text = self.line_text(s.line)
        return s.line, utf16_len(text[:s.start]), utf16_len(text[:s.end])

    def column(self, line: int, character: int) -> int:
        """The code-point column of an LSP position."""
        return from_utf16(self.line_text(line), character)

    # --- sections

    def section_at(self, line: int):
        """The section holding 0-based `line` (None on a header line or outside every section)."""
        offset = self.starts[line] if 0 <= line < len(self.starts) else -1
        k = bisect.bisect_right([s.start for s in self.sections], offset) - 1
        if k >= 0 and self.sections[k].start <= offset < max(self.sections[k].end, self.sections[k].start + 1):
            return self.sections[k]
        return None

    def section_text(self, section) -> str:
        return self.text[section.start:section.end]

    def index(self, section) -> SectionIndex:
        found = self._index.get(section.number)
        if found is not None:
            return found
        idx = SectionIndex()
        text, base = self.text, section.start
        chunk = text[section.start:section.end]
        for m in ALIAS_DEF.finditer(chunk):
            idx.definitions.setdefault(m.group(1), self.span(base + m.start(1) - 1, base + m.end(1)))
        for m in ALIAS_REF.finditer(chunk):
            name = m.group(1)
            if name in idx.definitions:
                s = self.span(base + m.start(), base + m.end())
                d = idx.definitions[name]
                if (s.line, s.start) != (d.line, d.start):
                    idx.uses.setdefault(name, []).append(s)
        for m in FUNC.finditer(chunk):
            idx.functions.append((m.group(1), self.span(base + m.start(1) - 1, base + m.end(1))))
        self._index[section.number] = idx
        return idx

    def module(self, section):
        """The section's module as the audit reads it; the TTLayoutError when it cannot be read."""
        key = section.number
        if key not in self._modules:
            try:
                self._modules[key] = model.read_module(self.text, section)
            except model.TTLayoutError as e:
                self._modules[key] = e
            except RecursionError:
                self._modules[key] = model.TTLayoutError("the section is nested too deeply to read")
        found = self._modules[key]
        if isinstance(found, Exception):
            raise found
        return found

    def aliases(self, section):
        """The section's aliases alone (what a hover on a layout needs: no op is read)."""
        key = section.number
        if key not in self._aliases:
            try:
                self._aliases[key] = model.read_aliases(self.text, section)
            except model.TTLayoutError as e:
                self._aliases[key] = e
            except RecursionError:
                self._aliases[key] = model.TTLayoutError("the section is nested too deeply to read")
        found = self._aliases[key]
        if isinstance(found, Exception):
            raise found
        return found

    def module_index(self, section) -> int:
        """The section's index among the file's modules, as `advise --write` counts them."""
        return section.number - 1

    # --- what is under a position

    def alias_at(self, line: int, column: int) -> tuple[str, Span, object] | None:
        """(name, span, section) of the `#alias` under a position, if that section defines it."""
        section = self.section_at(line)
        if section is None:
            return None
        text = self.line_text(line)
        for m in ALIAS_REF.finditer(text):
            if m.start() <= column <= m.end():
                name = m.group(1)
                if name in self.index(section).definitions:
                    return name, Span(line, m.start(), m.end()), section
        return None

    def type_at(self, line: int, column: int) -> tuple[str, Span] | None:
        """The `tensor<...>` or `!ttg.memdesc<...>` type enclosing a position on its line."""
        text = self.line_text(line)
        for m in TYPE_START.finditer(text):
            end = _closing(text, m.end() - 1)
            if end is not None and m.start() <= column < end:
                return text[m.start():end], Span(line, m.start(), end)
        return None

    def inline_at(self, line: int, column: int) -> tuple[str, Span] | None:
        """An inline layout attribute `#ttg.…<…>` enclosing a position (the innermost that does)."""
        text = self.line_text(line)
        best = None
        for m in INLINE_START.finditer(text):
            end = _closing(text, m.end() - 1)
            if end is not None and m.start() <= column < end:
                best = (text[m.start():end], Span(line, m.start(), end))
        return best

    def first_type_using(self, section, name: str) -> str | None:
        """The first tensor (else memdesc) type of the section whose layout is `#name`: the shape an alias is
        shown at."""
        chunk = self.section_text(section)
        for kind in ("tensor<", "!ttg.memdesc<"):
            pattern = re.compile(re.escape(kind) + r"[0-9x]+[^,<>]*(?:<[^<>]*>)?[^,<>]*,\s*#" + re.escape(name)
                                 + r"(?![A-Za-z0-9_$.\-])")
            m = pattern.search(chunk)
            if m:
                end = _closing(chunk, m.start() + len(kind) - 1)
                if end is not None:
                    return chunk[m.start():end]
        return None


def _closing(text: str, open_at: int) -> int | None:
    """The index after the `>` closing the `<` at `open_at` ('->' is no bracket), None if it does not close on
    this line."""
    depth = 0
    i = open_at
    while i < len(text):
        ch = text[i]
        if ch == "<":
            depth += 1
        elif ch == ">" and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        elif ch == '"':
            j = text.find('"', i + 1)
            if j < 0:
                return None
            i = j
        i += 1
    return None


def is_location(name: str) -> bool:
    """Whether an alias is one of the dump's `#locN` source locations (left out of the symbol list)."""
    return bool(LOC_NAME.match(name))
