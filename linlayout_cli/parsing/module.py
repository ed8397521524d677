"""A reader for whole TTGIR dumps that knows enough of operations for `ttlayout audit`: each op's name, operands,
results, operand and result types (with their layouts and shapes), attribute text and source location, resolved
through `#loc` aliases, `callsite(...)` and `fused[...]` to the Python `file:line:col`.

It reads the printed form line by line: an op is one line (or more while brackets are open); a line ending in `{`
opens the op's regions and the line that closes them (`} {attrs} loc(...)`, `}) : (types) -> type loc(...)`,
`} else {`, `} partition0(...) {`) completes the op. Unknown ops are kept as opaque, never an error. A file holding
several modules separated by `// -----` (as Triton's own tests are) is read module by module.
"""
from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Mapping
from itertools import chain

from ..patterns import lazy
from ..records import frozen, frozen_slots
from .lexical import line_matches, skip_balanced, skip_string
from .mlir_file import collector_paused, normalise_newlines

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from typing import Any

_LINE_PREFIX = lazy(r"^line (\d+), column \d+: ")

SEPARATOR = lazy(r"^// -----.*$", re.M)     # every line starting '// -----' (a lit file's or a dump's)
_RESULTS = re.compile(r"((?:%[\w$.\-]+(?::\d+)?)(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*)\s*=\s*")
_NAME = re.compile(r'"([\w.$\-]+)"|([A-Za-z_][\w$]*(?:\.[\w$]+)+|module)\b')
_SSA = re.compile(r"%[\w$.\-]+(?:#\d+)?")
_REGION_HEAD = re.compile(r"^(?:default|partition\d+\s*\(.*\)\s*num_warps\s*\(\d+\))\s*\{$", re.S)
_LIBRARY = ("triton/", "<frozen", "<string>")


@frozen_slots
class Loc:
    """A source position: the user's frame (`file`, `line`, `col`), and every frame from innermost to outermost."""
    file: str
    line: int
    col: int
    frames: tuple[tuple[str, int, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


_UNREAD = object()                       # an Op's location before it is first asked for


class OpShared:
    """What the ops of one module share: its `Locations` (or None), its cache of type lists by type text (or
    None) and its text (where a plain op's line is read, `Op.text`)."""
    __slots__ = ("locations", "types", "source")

    def __init__(self, locations=None, types: dict | None = None, source: str = ""):
        self.locations, self.types, self.source = locations, types, source


class Op:
    """One operation as printed: its header and the text that follows its regions. Its types and its source
    location are read when first asked for: an audit looks at the types of the few ops that touch layouts, and
    at the location of the ops it reports."""
    __slots__ = ("name", "results", "operands", "attrs", "loc_text", "line", "depth", "loops", "_text", "region",
                 "_types", "_loc", "_shared")

    def __init__(self, name: str, results: tuple, operands: tuple, types: str, attrs: str, loc_text: str,
                 line: int, depth: int, loops: int, text: str | int = "", region: int = 0, locations=None,
                 type_cache=None, shared: OpShared | None = None):
        self.name, self.results, self.operands, self.attrs = name, results, operands, attrs
        self.loc_text = loc_text             # what stands inside its trailing loc(...), '' if none
        self.line, self.depth, self.loops = line, depth, loops    # 1-based line; regions around it; loops around
        # the whole op as printed (regions left out), or the offset in `shared.source` of the one line that is the
        # whole op (a huge function's plain ops keep no copy of their text); which region holds it
        self._text, self.region = text, region
        self._types: str | tuple = types     # the text after ' : ', until read: then (operand types, result types)
        self._loc = _UNREAD
        # what the ops of a module share: its locations, its type cache, its text
        self._shared = OpShared(locations, type_cache) if shared is None else shared

    @property
    def text(self) -> str:
        """The whole op as printed, its regions left out (a one-line op: its line without the indentation)."""
        text = self._text
        if isinstance(text, str):
            return text
        source = self._shared.source
        end = source.find("\n", text)
        return source[text:end if end >= 0 else len(source)].strip()

    @text.setter
    def text(self, value: str) -> None:
        self._text = value

    def _type_lists(self) -> tuple:
        types = self._types
        if isinstance(types, tuple):
            return types
        cache = self._shared.types
        found = cache.get(types) if cache is not None else None
        if found is None:
            found = _type_lists(types)
            if cache is not None:
                cache[types] = found
        self._types = found
        return found

    @property
    def operand_types(self) -> tuple[str, ...]:
        return self._type_lists()[0]

    @property
    def result_types(self) -> tuple[str, ...]:
        return self._type_lists()[1]

    @property
    def loc(self) -> Loc | None:
        """The op's source position (None when it names none)."""
        loc = self._loc
        if loc is _UNREAD:
            locations = self._shared.locations
            loc = self._loc = locations.resolve(self.loc_text) if locations is not None else None
        return loc  # type: ignore[return-value]     # (not _UNREAD any more)

    @loc.setter
    def loc(self, value) -> None:
        self._loc = value

    # ------------------------------------------------------------------ parsed attributes (read when asked for)

    def int_attr(self, key: str) -> int | None:
        """The integer value of `key = N` in the op's attribute text (`axis`, `contiguity`, `alignment`), None if
        absent (or absurdly long).

        >>> parse_op('%1 = "tt.reduce"(%0) <{axis = 1 : i32}> : (tensor<4x4xf32>) -> tensor<4xf32>', 1, 0, 0).int_attr("axis")
        1
        """
        return _attr_int(self.attrs, key)

    def flag(self, key: str) -> bool:
        """True where the attribute text sets `key = true` (a scan's `reverse`)."""
        pattern = _FLAG_PATTERNS.get(key)
        if pattern is None:
            pattern = _FLAG_PATTERNS[key] = re.compile(rf"\b{re.escape(key)}\s*=\s*true")
        return pattern.search(self.attrs) is not None

    def iter_args(self) -> tuple[tuple[str, str], ...]:
        """An `scf.for`'s loop-carried values as (block argument, initial value) pairs, in order.

        >>> parse_op('%r:2 = scf.for %i = %a to %b step %c iter_args(%x = %p, %y = %q) -> (i32, i32) {', 1, 0, 0).iter_args()
        (('%x', '%p'), ('%y', '%q'))
        """
        return iter_args(self.text)

    def captures(self) -> tuple[str, ...]:
        """A `ttg.warp_specialize`'s explicit captures (the values inside its parentheses)."""
        return captures(self.text)

    def leading_memdesc_dim(self) -> int | None:
        """The first dimension of the first memdesc type the op's text names (a `ttg.memdesc_index`'s source:
        its slot count), None where there is none."""
        return leading_memdesc_dim(self.text)

    def symbol(self) -> str | None:
        """The first `@name` the op's text names (a `tt.func`'s own name), None where there is none."""
        m = _SYMBOL.search(self.text)
        return m.group(1) if m else None

    def partition_warps(self) -> tuple[int, ...]:
        """A `ttg.warp_specialize`'s `num_warps(N)` of each partition, in order."""
        return tuple(int(n) for n in _NUM_WARPS.findall(self.text))


_ATTR_PATTERNS: dict[str, re.Pattern] = {}
_FLAG_PATTERNS: dict[str, re.Pattern] = {}
_ITER_ARGS = re.compile(r"iter_args\((.*?)\)\s*->")
_CAPTURES = re.compile(r"ttg\.warp_specialize\(([^)]*)\)")
_NUM_WARPS = re.compile(r"num_warps\((\d+)\)")
_ALLOC_SHAPE = re.compile(r",\s*(\d+(?:x\d+)+)\s*>$")
_LEADING_MEMDESC = re.compile(r"memdesc<(\d+)x")
_SYMBOL = lazy(r"@([\w$.\-]+)")
_ALIAS_REF = lazy(r"#([A-Za-z_][\w$]*)")
_SLICE = lazy(r"^#ttg\.slice<\{dim = (\d+), parent = (.*)\}>$")
_TYPE_SHAPE = lazy(r"(?:tensor|!ttg\.memdesc)?<((?:\d+x)+)")
_LEADING_INT = lazy(r"\s*(\d{1,9})\b")


def iter_args(text: str) -> tuple[tuple[str, str], ...]:
    """An `scf.for` op text's loop-carried values as (block argument, initial value) pairs (`Op.iter_args`)."""
    m = _ITER_ARGS.search(text)
    if not m:
        return ()
    pairs = (pair.partition("=") for pair in m.group(1).split(","))
    return tuple((arg.strip(), init.strip()) for arg, _, init in pairs)


def captures(text: str) -> tuple[str, ...]:
    """A `ttg.warp_specialize` op text's explicit captures (`Op.captures`)."""
    m = _CAPTURES.search(text)
    return tuple(c.strip() for c in m.group(1).split(",") if c.strip()) if m else ()


def leading_memdesc_dim(text: str) -> int | None:
    """The first dimension of the first memdesc type in an op's text (`Op.leading_memdesc_dim`)."""
    m = _LEADING_MEMDESC.search(text)
    return int(m.group(1)) if m else None


def alias_references(text: str) -> list[str]:
    """The attribute alias names a text refers to ('tensor<4xf32, #blocked1>' -> ['blocked1']), in order."""
    return [m.group(1) for m in _ALIAS_REF.finditer(text)]


def slice_parent(encoding: str) -> tuple[int, str] | None:
    """A `#ttg.slice<{dim = D, parent = P}>` encoding's (D, P text), None for any other encoding text.

    >>> slice_parent("#ttg.slice<{dim = 1, parent = #blocked}>"), slice_parent("#blocked")
    ((1, '#blocked'), None)
    """
    m = _SLICE.match(encoding)
    return (int(m.group(1)), m.group(2)) if m else None


def type_shape(text: str) -> tuple[int, ...] | None:
    """The shape a tensor or memdesc type's text starts with ('tensor<128x64xf16, #a>' -> (128, 64)), else None.

    >>> type_shape("tensor<128x64xf16, #a>"), type_shape("i32")
    ((128, 64), None)
    """
    m = _TYPE_SHAPE.match(text.strip())
    return tuple(int(d) for d in m.group(1).rstrip("x").split("x")) if m else None


def leading_int(value: str | None) -> int | None:
    """The non-negative integer (up to 9 digits) a module attribute's value starts with ('1 : i32' -> 1)."""
    m = _LEADING_INT.match(value or "")
    return int(m.group(1)) if m else None


def _attr_int(attrs: str, key: str) -> int | None:
    pattern = _ATTR_PATTERNS.get(key)
    if pattern is None:
        pattern = _ATTR_PATTERNS[key] = re.compile(rf"\b{re.escape(key)}\s*=\s*(-?\d{{1,18}})(?!\d)")
    m = pattern.search(attrs)
    return int(m.group(1)) if m else None


def alloc_shape(memdesc: str) -> tuple[int, ...] | None:
    """The allocation shape a memdesc type of a view ends with (`!ttg.memdesc<64x64xf16, #s, #smem, mutable,
    2x64x64>` -> (2, 64, 64)), None where it names none.

    >>> alloc_shape("!ttg.memdesc<64x64xf16, #s, #smem, mutable, 2x64x64>"), alloc_shape("!ttg.memdesc<4xf16, #s>")
    ((2, 64, 64), None)
    """
    m = _ALLOC_SHAPE.search(memdesc)
    return tuple(int(d) for d in m.group(1).split("x")) if m else None


def _type_lists(types: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """An op's type text (what follows its ' : ') -> (operand types, result types), split at a depth-0 '->'.

    >>> _type_lists("(tensor<4xi32, #a>, i1) -> tensor<4xf32, #b>")
    (('tensor<4xi32, #a>', 'i1'), ('tensor<4xf32, #b>',))
    """
    spans = _top_spans(types)
    arrow = _find_top(types, "->", 0, spans)
    if arrow < 0:
        return tuple(_types(types, spans)), ()
    return (tuple(_types(types[:arrow], _clip(spans, 0, arrow))),
            tuple(_types(types[arrow + 2:], _clip(spans, arrow + 2, len(types)))))


class Module:
    """One module of a file: its attributes (`ttg.num-warps`, `ttg.target`, ...), alias definitions and ops. (A plain
    class, not a dataclass: importing `dataclasses` costs the audit's start-up ~15 ms, see records.py.)"""
    __slots__ = ("first_line", "attributes", "aliases", "ops", "types", "section")

    def __init__(self, first_line: int, attributes: dict, aliases: Mapping, ops: list | None = None,
                 types: dict | None = None, section: object = None):
        self.first_line, self.attributes = first_line, attributes
        self.aliases = aliases          # name -> parsed attribute (layouts) or OtherAttribute (locations, ...)
        self.ops: list = [] if ops is None else ops
        self.types: dict = {} if types is None else types    # value_type's cache
        self.section = section          # the file's `sections.Section` this module is (None: read on its own)

    def value_type(self, text: str) -> ValueType:
        """A type written in this module (an op's operand or result type) read by `parse_type`, its layout
        resolved through the module's aliases; each layout text is parsed once."""
        return parse_type(text, self.aliases, self.types)

    @property
    def num_warps(self) -> int | None:
        return _int_attr(self.attributes.get("ttg.num-warps"))

    @property
    def threads_per_warp(self) -> int | None:
        return _int_attr(self.attributes.get("ttg.threads-per-warp"))

    @property
    def target(self) -> str | None:
        value = self.attributes.get("ttg.target")
        return value.strip('"') if value else None

    def with_aliases(self, values: dict) -> Module:
        """This module with some aliases redefined (name -> attribute): the same ops, read through the new
        definitions (an `advise` candidate is priced without reading the dump again)."""
        return Module(self.first_line, self.attributes, Redefined(self.aliases, values), self.ops)


class Redefined(Mapping):
    """A module's aliases with some of them given new values (`Module.with_aliases`); `attributes` is what the
    attribute parser resolves `#name` against (a slice's parent), the new values first."""

    def __init__(self, aliases, values: dict):
        self.base, self.new = aliases, dict(values)
        self.attributes = ChainMap(self.new, getattr(aliases, "attributes", aliases))

    def __getitem__(self, name: str):
        return self.new[name] if name in self.new else self.base[name]

    def __contains__(self, name) -> bool:
        return name in self.new or name in self.base

    def __iter__(self):
        yield from self.base
        yield from (n for n in self.new if n not in self.base)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _int_attr(value: str | None) -> int | None:
    """The integer an attribute value starts with ('4 : i32' -> 4); an absurdly long one as 10**40."""
    m = re.match(r"\s*(-?)(\d+)", value or "")
    if not m:
        return None
    return (-1 if m.group(1) else 1) * (int(m.group(2)) if len(m.group(2)) <= 40 else 10 ** 40)


# ----------------------------------------------------------------------------------------- text helpers
#
# An op's text is scanned once for the parts at bracket depth 0 outside strings (`_top_spans`); the helpers
# search only those parts, with str.find, so a line costs one Python step per bracket, not per character.

_BRACKET_OR_QUOTE = re.compile(r'["<>()\[\]{}]')


def _top_spans(text: str) -> list[tuple[int, int]]:
    """The [start, end) ranges of `text` at bracket depth 0 outside strings; `<([{` open and `>)]}` close
    (an opening bracket is the last character of its range), but the '>' of '->' closes nothing.

    >>> _top_spans('a<b>c "d" e(f)')
    [(0, 2), (4, 6), (9, 12)]
    """
    spans, depth, seg, i = [], 0, 0, 0
    while True:
        m = _BRACKET_OR_QUOTE.search(text, i)
        if m is None:
            break
        k = m.start()
        c = text[k]
        if c == '"':
            i = skip_string(text, k)
            if depth == 0:
                spans.append((seg, k))
                seg = i
            continue
        i = k + 1
        if c == ">" and k and text[k - 1] == "-":
            continue
        if depth == 0:
            spans.append((seg, k + 1))
        depth += 1 if c in "<([{" else -1
        if depth == 0:
            seg = k + 1
    if depth == 0:
        spans.append((seg, len(text)))
    return [(a, b) for a, b in spans if a < b]


def _depth_split(text: str, sep: str, spans=None) -> list[str]:
    """`text` split at the `sep` characters outside brackets and strings."""
    out, start = [], 0
    for a, b in spans if spans is not None else _top_spans(text):
        k = text.find(sep, a, b)
        while k >= 0:
            out.append(text[start:k])
            start = k + 1
            k = text.find(sep, k + 1, b)
    out.append(text[start:])
    return [p.strip() for p in out]


def _find_top(text: str, token: str, start: int = 0, spans=None) -> int:
    """Index of `token` starting outside brackets and strings, at or after `start`, or -1."""
    for a, b in spans if spans is not None else _top_spans(text):
        if b <= start:
            continue
        k = text.find(token, max(a, start), b + len(token) - 1)
        if k >= 0:
            return k
    return -1


def _without_strings(text: str) -> str:
    """`text` with its string literals left out."""
    if '"' not in text:
        return text
    out, i = [], 0
    while True:
        k = text.find('"', i)
        if k < 0:
            break
        out.append(text[i:k])
        i = skip_string(text, k)
    out.append(text[i:])
    return "".join(out)


def _balance(text: str) -> tuple[int, int]:
    """(open round/square brackets, open braces) of a line, strings skipped."""
    text = _without_strings(text)
    return (text.count("(") + text.count("[") - text.count(")") - text.count("]"),
            text.count("{") - text.count("}"))


_SIMPLE_LOC = re.compile(r"loc\((#[\w$.\-]+)\)$")


def _strip_loc(text: str) -> tuple[str, str]:
    """(text without its trailing `loc(...)`, what stands inside it)."""
    text = text.rstrip()
    if not text.endswith(")"):
        return text, ""
    k = text.rfind("loc(#")
    if k > 0 and text[k - 1] == " " and _SIMPLE_LOC.match(text, k):
        # the common `... loc(#loc12)`: at depth 0 when the brackets before it balance, no string before it
        head = text[:k]
        if '"' not in head and head.count("(") == head.count(")") and head.count("{") == head.count("}") \
                and head.count("[") == head.count("]"):
            return head.rstrip(), text[k + 4:-1]
    spans = _top_spans(text)
    i = _find_top(text, "loc(", 0, spans)
    while i >= 0:
        if skip_balanced(text, i + 3) == len(text):
            return text[:i].rstrip(), text[i + 4:-1]
        i = _find_top(text, "loc(", i + 4, spans)
    return text, ""


def _types(text: str, spans=None) -> list[str]:
    """A type list: 'a, b', '(a, b)' or a dot's 'a * b' -> ['a', 'b'] ('()' -> []); `spans`: text's depth-0
    parts, when known."""
    stripped = text.strip()
    if stripped.startswith("(") and skip_balanced(stripped, 0) == len(stripped):
        text, spans = stripped[1:-1], None
    elif "*" not in text and "," not in text:
        return [stripped] if stripped else []
    out = []
    for t in _depth_split(text, ",", spans):
        out += [u for u in (_depth_split(t, "*") if "*" in t else [t]) if u]
    return out


# ----------------------------------------------------------------------------------------- ops


def _clip(spans, a: int, b: int) -> list[tuple[int, int]]:
    """The depth-0 spans of text[a:b] (a and b at depth 0), from those of the whole text."""
    return [(max(x, a) - a, min(y, b) - a) for x, y in spans if y > a and x < b]


def parse_op(text: str, line: int, depth: int, loops: int, region: int = 0, locations=None) -> Op | None:
    """One op's whole text (header plus what followed its regions) -> Op; None for text that is no op."""
    return OpReader(locations).op(text, line, depth, loops, region)


_NO_OP = ("",)                           # what OpReader.fields keeps for a text that is no op


class OpReader:
    """Reads the ops of one module. What an op's text says apart from its location (name, results, operands,
    attributes, types) depends on that text alone, so it is read once per distinct text, and a type list once
    per distinct type text: a dump repeating a kernel, or a type, reads it once. The cache of op texts lives while
    the module is read and holds at most FIELDS_LIMIT of them (then starts again): a dump of all-different ops
    keeps a bounded number of second copies."""
    FIELDS_LIMIT = 1 << 15

    def __init__(self, locations=None):
        self.locations = locations
        self.fields: dict[str, tuple] = {}           # op text without its loc(...) -> its fields
        self.types: dict[str, tuple] = {}            # type text -> (operand types, result types)
        self.type_texts: dict[str, str] = {}         # type text -> its one copy
        self.names: dict[str, str] = {}              # op name -> its one copy (`_statements`' plain ops)
        self.locs: dict[str, str] = {}               # location alias (`#loc7`) -> its one copy (the same)
        self.shared = OpShared(locations, self.types)

    def bound_tables(self) -> None:
        """Start the interning tables again where one holds more than FIELDS_LIMIT texts (a dump of all-different
        op names or locations keeps a bounded number of entries)."""
        for table in (self.type_texts, self.names, self.locs):
            if len(table) > self.FIELDS_LIMIT:
                table.clear()

    def op(self, text: str, line: int, depth: int, loops: int, region: int = 0) -> Op | None:
        body, loc_text = _strip_loc(text.strip())
        fields = self.fields.get(body)
        if fields is None:
            if len(self.fields) >= self.FIELDS_LIMIT:
                self.fields.clear()
            fields = _op_fields(body) or _NO_OP
            if fields is not _NO_OP and fields[3]:     # one copy of each type text (a dump's few types)
                if len(self.type_texts) >= self.FIELDS_LIMIT:
                    self.type_texts.clear()
                types = self.type_texts.setdefault(fields[3], fields[3])
                fields = fields[:3] + (types,) + fields[4:]
            self.fields[body] = fields
        if fields is _NO_OP:
            return None
        name, results, operands, types, attrs = fields
        return Op(name, results, operands, types, attrs, loc_text, line, depth, loops, text, region, None, None,
                  self.shared)


def _op_fields(body: str) -> tuple | None:
    """(name, results, operands, type text, attribute text) of an op's text without its trailing loc(...); None
    for text that is no op. When nothing before the first ' : ' is a bracket or a string (most ops: `%3 =
    arith.addi %1, %2 : tensor<...>`), that ' : ' is the one at depth 0 and nothing is scanned; otherwise the
    text's depth-0 parts are found once and shared by every search below."""
    results: tuple[str, ...] = ()
    m = _RESULTS.match(body)
    start = 0
    if m:
        results = tuple(r.strip() for r in m.group(1).split(","))
        start = m.end()
    m = _NAME.match(body, start)
    if not m:
        return None
    name = m.group(1) or m.group(2)
    rest = body[m.end():]
    colon = rest.find(" : ")
    if _BRACKET_OR_QUOTE.search(rest, 0, colon if colon >= 0 else len(rest)) is None:
        if colon < 0:
            return name, results, tuple(_SSA.findall(rest)), "", ""
        return name, results, tuple(_SSA.findall(rest, 0, colon)), rest[colon + 3:], ""
    spans = _top_spans(rest)
    colon = _find_top(rest, " : ", 0, spans)
    if colon < 0:
        head, head_spans, types = rest, spans, ""
    else:
        head, head_spans = rest[:colon], _clip(spans, 0, colon)
        types = rest[colon + 3:]
    attrs = ""
    for opener in ("<{", "{"):
        at = _find_top(head, opener, 0, head_spans)
        if at >= 0:
            end = skip_balanced(head, at)
            attrs = head[at:end if end > 0 else len(head)]
            head = head[:at] + head[end:] if end > 0 else head[:at]
            break
    return name, results, tuple(_SSA.findall(head)), types, attrs


def _lines(text: str):
    """The lines of `text`, one at a time (a dump's 80,000 `#loc` lines are never all held at once)."""
    pos, n = 0, len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        if nl < 0:
            nl = n
        yield text[pos:nl]
        pos = nl + 1


# A plain one-line op, the bulk of a huge function (`%5 = ttg.convert_layout %4 : tensor<..> -> tensor<..>
# loc(#loc7)`): printable ASCII without strings or comments, nothing but `<>` brackets before its first ' : ' except one
# `{...}` attribute dictionary (holding at most `<...>` pairs), any brackets after it, and at most a trailing
# `loc(#name)`. Groups: results, name, the text before the attributes, the attributes, the text after them (up to
# ' : '), the types (without brackets, or with: those are checked to balance) and the location alias. Its pieces are
# the ones `_RESULTS` and `_NAME` take (their white space can only be blanks and tabs here), its ' : ' is the first
# at depth 0 and its attributes the dictionary `_op_fields` finds, so what is read from it is what the general path
# reads (`tests/parsing/test_plain_ops.py` holds both to that); anything else (a region, a string, a line continued,
# brackets before the types) takes the general path.
_PLAIN_CHAR = r"[\t !#-'*-.0-Z\\^-z|~]"         # printable ASCII but " ( ) / [ ] { }
_PLAIN_SOLID = r"[!#-'*-.0-Z\\^-z|~]"            # the same but blanks and tabs
_HEAD_CHAR = r"[\t !#-'*-.0-9;=?-Z\\^-z|~]"      # the same as _PLAIN_CHAR but : < >
_ATTR_CHAR = r"[\t !#-'*-.0-;=?-Z\\^-z|~]"       # the same as _PLAIN_CHAR but < >
_ANGLE_CHAR = r"[\t !#-'*-,.0-;=?-Z\\^-z|~]"     # the same as _ATTR_CHAR but - (no '->' in a <...> pair)
_TYPE_CHAR = r"[\t !#-.0-~]"                     # printable ASCII but " /
_TYPE_END = r"[!#-(*-.0-~]"                      # the same but blanks, tabs and ')' (no `...loc(#x)` at the end)
_FAST_OP = re.compile(r"[ \t]*(?:(%[\w$.\-]+(?::\d+)?(?:[ \t]*,[ \t]*%[\w$.\-]+(?::\d+)?)*)[ \t]*=[ \t]*)?"
                      r"([A-Za-z_][\w$]*(?:\.[\w$]+)+)\b(" + _HEAD_CHAR + r"*)"
                      r"(?:(\{" + _ATTR_CHAR + "*(?:<" + _ANGLE_CHAR + "*>" + _ATTR_CHAR + r"*)*\})(" + _HEAD_CHAR
                      + r"*))?(?: : (?:(" + _PLAIN_CHAR + "*" + _PLAIN_SOLID + ")|(" + _TYPE_CHAR + "*" + _TYPE_END
                      + r")))?(?:[ \t]+loc\((#[\w$.\-]+)\))?[ \t]*(?:\n|\Z)", re.ASCII)


def _statements(text: str, first: int, regions_before: int = 0, make=None, reader: OpReader | None = None,
                start: int = 0, end: int | None = None) -> tuple[list, int]:
    """Every op of text[start:end] as {"text", "line", "depth", "loops", "name", "region"}, in the order they
    start; an op with regions gets the text that follows each of its regions appended (see the module
    docstring), and how many regions are numbered (counting on from `regions_before`). Alias definitions (read by
    the alias table) are stepped over.

    `make(stmt)`: each statement is replaced by what it returns as soon as nothing can be added to its text (it
    holds no open region and is not the last one completed, which a `default {` line could still extend), so a
    function of 450,000 ops never holds 450,000 statement dicts beside its ops. With `reader` too, a plain
    one-line op (`_FAST_OP`) becomes its `Op` at once, without a statement, its fields read from the line's one
    match and its text left in `text` (`Op.text`); `make` must then make ops with that reader."""
    out: list = []
    pending: list[int] = []             # indices in `out` of statements not yet given to `make`

    def settle() -> None:
        keep = []
        for k in pending:
            stmt = out[k]
            if stmt is last or "open" in stmt:
                keep.append(k)
            else:
                out[k] = make(stmt)
        pending[:] = keep
    stack: list[dict] = []              # ops whose regions are open
    regions: list[int] = [0]            # number of the region each open op is in now
    count = regions_before              # regions numbered so far (in the file's earlier operations)
    last: dict | int | None = None      # the op completed last (its regions may open on the next line); an int:
    #                                     the index in `out` of a plain op made at once
    n = len(text) if end is None else end
    pos = start
    number = first - 1
    # Pattern.scanner (CPython's, untyped): successive matches, each starting where the last one ended
    fast = _FAST_OP.scanner if reader is not None and make is not None else None  # type: ignore[attr-defined]
    if reader is not None:
        shared, findall = reader.shared, _SSA.findall
        shared.source = text
        same_types, same_name, same_loc = (reader.type_texts.setdefault, reader.names.setdefault,
                                           reader.locs.setdefault)
    loops = 0                           # loops around the current line (scf.for / scf.while ops in `stack`)
    dirty = False                       # whether `pending` may hold a statement that `make` can take now
    general_at = -1                     # a line the fast path matched but must leave to the general path
    while pos <= n:
        if fast is not None and pos != general_at:
            scanner = fast(text, pos, n)
            first_match = scanner.match()
            if first_match is not None:     # a run of plain ops: each made at once
                run_start, bad = len(out), -1
                depth, region, append = len(stack), regions[-1], out.append
                for m in chain((first_match,), iter(scanner.match, None)):
                    res, name, head, attrs, head2, types, bracketed, loc = m.groups()
                    if attrs is None and bracketed is None:
                        attrs = ""
                    else:
                        if bracketed is not None:
                            if bracketed.count("(") != bracketed.count(")") or \
                                    bracketed.count("[") != bracketed.count("]") or \
                                    bracketed.count("{") != bracketed.count("}"):
                                bad = m.start()     # the general path reads it (a line continued, ...)
                                break
                            types = bracketed
                        if attrs is None:
                            attrs = ""
                        else:
                            head, attrs = head + head2, same_types(attrs, attrs)
                    number += 1
                    append(Op(same_name(name, name),
                              () if res is None else (res,) if "," not in res else _result_names(res),
                              tuple(findall(head)), "" if types is None else same_types(types, types), attrs,
                              "" if loc is None else same_loc(loc, loc), number, depth, loops, m.start(), region,
                              None, None, shared))
                if len(out) > run_start:
                    last = len(out) - 1
                    if dirty:
                        settle()
                        dirty = False
                if bad >= 0:
                    pos = general_at = bad
                else:
                    after = m.end()
                    if text[after - 1] == "\n":
                        pos = after
                    else:                   # the run ends the text
                        if n < len(text) and text[n] != "\n":      # and its line goes on (a definition follows)
                            out[-1].text = text[m.start():after].strip()
                        pos = n + 1
                reader.bound_tables()  # type: ignore[union-attr]     # (`fast` is only set with a reader)
                continue
        nl = text.find("\n", pos, n)
        if nl < 0:
            nl = n
        raw = text[pos:nl].strip()
        pos = nl + 1
        number += 1
        line_number = number
        if not raw or raw.startswith("//") or raw.startswith("^"):
            continue
        if raw.startswith("#") and raw.count("(") + raw.count("[") <= raw.count(")") + raw.count("]"):
            continue                                 # a one-line alias definition (a dump's #loc lines)
        dirty = True
        if raw.startswith("}"):
            rest = raw.lstrip("})").strip()
            if not stack:
                continue
            owner = stack[-1]
            owner["text"] += " " + (rest[:-1].strip() if rest.endswith("{") else rest)
            if rest.endswith("{"):              # the op's next region
                count += 1
                regions[-1] = count
            else:
                last = stack.pop()
                del last["open"]
                regions.pop()
                loops = _loops(stack)
            continue
        if _REGION_HEAD.match(raw) and last is not None:
            if isinstance(last, int):           # a plain op made at once: its statement again
                op = out[last]
                out[last] = {"text": op.text, "line": op.line, "depth": op.depth, "region": op.region,
                             "loops": op.loops, "name": op.name}
                pending.append(last)
                last = out[last]
            assert isinstance(last, dict)
            stack.append(last)              # the regions of an op whose header ended its line (warp_specialize)
            last["open"] = True
            last["text"] += " " + raw[:-1].strip()
            count += 1
            regions.append(count)
            loops = _loops(stack)
            continue
        line_text = raw
        paren, brace = _balance(line_text)
        if paren > 0 and not line_text.endswith("{"):
            parts = [line_text]                   # an op continued on the next lines, counted line by line
            while paren > 0 and not parts[-1].endswith("{"):
                if pos > n:
                    break
                nl = text.find("\n", pos, n)
                if nl < 0:
                    nl = n
                more = text[pos:nl].strip()
                pos = nl + 1
                number += 1
                parts.append(more)
                p, b = _balance(more)
                paren, brace = paren + p, brace + b
            line_text = " ".join(parts)
        opens = line_text.endswith("{") and (brace > 0 or paren > 0)
        if opens:
            line_text = line_text[:-1].rstrip()
            line_text = line_text[:-1].rstrip() if line_text.endswith("(") else line_text
        r = _RESULTS.match(line_text)
        m = _NAME.match(line_text, r.end() if r else 0)
        stmt = {"text": line_text, "line": line_number,
                "depth": len(stack), "region": regions[-1], "loops": loops,
                "name": (m.group(1) or m.group(2)) if m else ""}
        if make is not None:
            settle()
            pending.append(len(out))
        out.append(stmt)
        if opens:
            stack.append(stmt)
            stmt["open"] = True
            count += 1
            regions.append(count)
            loops = _loops(stack)
        else:
            last = stmt
    if make is not None:
        for k in pending:
            out[k] = make(out[k])
    return out, count


def _result_names(text: str) -> tuple[str, ...]:
    """The names of a `%a, %b = ` list ('%a, %b' -> ('%a', '%b'))."""
    return tuple(r.strip() for r in text.split(","))


def _loops(stack: list[dict]) -> int:
    """How many of the open ops are loops (the `loops` of an op inside them)."""
    return sum(1 for s in stack if s["name"] in ("scf.for", "scf.while"))


# ----------------------------------------------------------------------------------------- locations

_LOC_TOKEN = re.compile(r'"|#([\w$.\-]+)')
_LINE_COL = re.compile(r":(\d+):(\d+)")
_PLAIN_REF = re.compile(r"#[\w$.\-]+")


def _loc_tokens(text: str) -> list[tuple[str, Any]]:
    """The frames and alias references of a location text in the order they are written: ("frame", (file,
    line, col)) for each file location `"f.py":3:4`, ("ref", name) for each `#name`. Strings that are no file
    location (the name of `"x"(#loc)`, fused metadata) are stepped over. One pass, whatever the nesting.

    >>> _loc_tokens('callsite("f.py":1:2 at callsite(#loc3 at "g.py":5:6))')
    [('frame', ('f.py', 1, 2)), ('ref', 'loc3'), ('frame', ('g.py', 5, 6))]
    """
    out: list[tuple[str, object]] = []
    i = 0
    while True:
        m = _LOC_TOKEN.search(text, i)
        if m is None:
            return out
        if m.group(1) is not None:
            out.append(("ref", m.group(1)))
            i = m.end()
            continue
        end = skip_string(text, m.start())
        closed = end > m.start() + 1 and text[end - 1] == '"'
        lc = _LINE_COL.match(text, end) if closed else None
        if lc:
            out.append(("frame", (text[m.start() + 1:end - 1], int(lc.group(1)), int(lc.group(2)))))
            end = lc.end()
        i = end


class Locations:
    """`#loc` aliases and inline `loc(...)` texts -> Loc, with the user's frame preferred over Triton's own.

    A location's frames, innermost first, are its file locations in the order they are written, with each
    `#alias` replaced by that alias' frames (callsite(callee at caller), fused[a, b] and "name"(child) all keep
    that order). Aliases are resolved once each, with an explicit stack, so neither deep nesting nor long alias
    chains recurse."""

    def __init__(self, aliases):
        self.aliases = aliases
        self.done: dict[str, tuple] = {}
        self.cache: dict[str, tuple] = {}
        self.locs: dict[str, Loc | None] = {}      # location text -> its one Loc (a dump's ops share a few)

    def _text(self, name: str) -> str | None:
        """The text inside an alias' `loc(...)`, or None when the alias is no location."""
        value_text = getattr(self.aliases, "value_text", None)
        if value_text is not None:
            try:
                text = value_text(name)
            except KeyError:
                return None
        else:
            value = self.aliases.get(name)
            if type(value).__name__ != "OtherAttribute":
                return None
            text = str(value.text)
        return text[4:-1] if text.startswith("loc(") and text.endswith(")") else None

    def _alias(self, name: str) -> tuple:
        """The frames of alias `name` (empty for a name that is no location, or on a cycle)."""
        if name in self.done:
            return self.done[name]
        tokens: dict[str, list] = {}
        on_stack = {name}
        stack = [(name, 0)]
        while stack:
            n, k = stack[-1]
            if n not in tokens:
                text = self._text(n)
                tokens[n] = _loc_tokens(text) if text is not None else []
            items = tokens[n]
            child = None
            while k < len(items):
                kind, v = items[k]
                k += 1
                if kind == "ref" and v not in self.done and v not in on_stack:
                    child = v
                    break
            if child is not None:
                stack[-1] = (n, k)
                on_stack.add(child)
                stack.append((child, 0))
                continue
            frames: list = []
            for kind, v in items:
                if kind == "frame":
                    frames.append(v)
                else:
                    frames.extend(self.done.get(v, ()))
            self.done[n] = tuple(frames)
            on_stack.discard(n)
            stack.pop()
        return self.done[name]

    def frames(self, text: str) -> tuple:
        """Every file frame a location text names, innermost first."""
        text = text.strip()
        if text.startswith("#") and _PLAIN_REF.fullmatch(text):
            return self._alias(text[1:])            # a plain alias (a dump's every op): no second cache entry
        out = self.cache.get(text)
        if out is None:
            frames: list = []
            for kind, v in _loc_tokens(text):
                frames.extend((v,) if kind == "frame" else self._alias(v))
            out = self.cache[text] = tuple(frames)
        return out

    def resolve(self, text: str) -> Loc | None:
        """The Loc of a location text, one object per distinct text (450,000 ops naming 1,000 lines share 1,000)."""
        try:
            return self.locs[text]
        except KeyError:
            loc = self.locs[text] = self._resolve(text)
            return loc

    def _resolve(self, text: str) -> Loc | None:
        frames = self.frames(text) if text else ()
        if not frames:
            return None
        user = next((f for f in frames if not f[0].startswith(_LIBRARY) and "site-packages" not in f[0]), frames[0])
        return Loc(user[0], user[1], user[2], frames)


# ----------------------------------------------------------------------------------------- modules


_MODULE_ATTRIBUTES = re.compile(r"^[ \t]*module\b[^{\n]*?attributes\s*\{", re.M)


def _module_headers(text: str):
    """The matches of `_MODULE_ATTRIBUTES` in `text`, in order (`lexical.line_matches`: no regex scan of every
    character of a dump)."""
    return line_matches(_MODULE_ATTRIBUTES, text, "module")


def _module_attributes(text: str) -> dict:
    m = next(_module_headers(text), None)
    return _attribute_dict(text, m.end() - 1) if m else {}


def _attribute_dict(text: str, start: int) -> dict:
    """The `{key = value, ...}` dictionary opening at `start`, key (quotes dropped) -> value text."""
    end = skip_balanced(text, start)
    out = {}
    for item in _depth_split(text[start + 1:end - 1], ","):
        key, _, value = item.partition("=")
        out[key.strip().strip('"')] = value.strip()
    return out


def module_targets(text: str) -> list[str]:
    """The `ttg.target` of every module of a file that names one, in file order, read from the `module attributes
    {...}` headers alone (no op is parsed): the target a command given a dump defaults to.

    >>> module_targets('module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:80"} {}')
    ['cuda:80']
    """
    found = []
    for m in _module_headers(text):
        value = _attribute_dict(text, m.end() - 1).get("ttg.target")
        if value is not None:
            found.append(value.strip('"'))
    return found


class Aliases(Mapping):
    """A module's aliases by name: the parsed attribute (a layout, or an `OtherAttribute` such as a location),
    or the error of a definition that could not be read (kept so that a user of that alias hears why).
    `attributes` holds only the readable ones (what the attribute parser resolves `#name` against)."""

    def __init__(self, table, broken: dict):
        self.table, self.broken = table, broken
        self.attributes = table.attributes

    def __getitem__(self, name: str):
        if name in self.broken:
            return self.broken[name]
        return self.table[name].attr

    def __contains__(self, name) -> bool:
        return name in self.broken or name in self.table

    def __iter__(self):
        yield from self.table
        yield from (n for n in self.broken if n not in self.table)

    def __len__(self) -> int:
        return len(self.table) + sum(1 for n in self.broken if n not in self.table)

    def value_text(self, name: str) -> str:
        """The text of a readable definition's value (KeyError for a broken or missing one)."""
        return self.table.value_text(name)


def tolerant_aliases(text: str, first_line: int = 1) -> Aliases:
    """The file's alias definitions, name -> attribute; a definition whose value fails maps to its TTLayoutError
    (whose message names its line, counted from the file's start) instead of stopping the others. The text is
    read once; an error outside a definition's value (a stray '}', an unclosed bracket) stops the read."""
    from .mlir_file import parse_alias_table
    broken: dict = {}
    table = parse_alias_table(text, broken)
    return Aliases(table, {name: _shifted(e, first_line) for name, e in broken.items()})


def _shifted(error, first_line: int):
    """The error with its `line N` counted from the file's start instead of the module's."""
    m = _LINE_PREFIX.match(str(error))
    if first_line == 1 or not m:
        return error
    shifted = type(error)(str(error).replace(f"line {m.group(1)},", f"line {int(m.group(1)) + first_line - 1},", 1))
    if hasattr(error, "line"):
        shifted.line, shifted.column = error.line + first_line - 1, getattr(error, "column", 1)
    return shifted


def section_aliases(text: str, first_line: int = 1):
    """`parse_alias_table` of one section of a file (its text starts on `first_line`), its errors counted in lines
    of the whole file: a lit file's or a dump's section as an alias scope of its own."""
    from ..errors import TTLayoutError
    from .mlir_file import parse_alias_table
    try:
        return parse_alias_table(text)
    except TTLayoutError as e:
        raise _shifted(e, first_line) from None


def read_module(text: str, first_line: int = 1, section=None) -> Module:
    """One module's text (no `// -----` inside) -> Module; an alias that fails to read is kept as its error;
    `section`: the file's section it is (`sections.Section`)."""
    from ..errors import TTLayoutError
    text = normalise_newlines(text)
    try:
        aliases = tolerant_aliases(text, first_line)
    except TTLayoutError as e:
        raise _shifted(e, first_line) from None
    module = Module(first_line, _module_attributes(text), aliases, section=section)
    reader = OpReader(Locations(aliases))

    def make(stmt: dict) -> Op | None:
        if stmt["text"].lstrip().startswith("#"):
            return None                              # an alias definition
        return reader.op(stmt["text"], stmt["line"], stmt["depth"], stmt["loops"], stmt["region"])

    line, pos, regions = first_line, 0, 0
    with collector_paused():        # ops form no cycles: no collection need walk the ones made so far
        for start, end in aliases.table.op_spans:     # the operations only: the alias lines were read already
            line += text.count("\n", pos, start)
            pos = start
            ops, regions = _statements(text, line, regions, make, reader, start, end)
            module.ops += [op for op in ops if op is not None]
    return module


def separators(text: str):
    """The matches of `SEPARATOR` in `text`, in order (`lexical.line_matches`: no regex scan of every character
    of a dump)."""
    return line_matches(SEPARATOR, text, "// -----")


def read_modules(text: str) -> list[Module]:
    """Every module of a file, split at `// -----` lines."""
    return list(iter_modules(text))


def iter_modules(text: str, only=None):
    """The modules of a file one by one, split at the lines that start `// -----` (a lit file's separators, the
    headers of an MLIR_ENABLE_DUMP capture: `sections.sections`), each read when asked for, so a file of many
    modules is audited with one module in memory at a time; `only`: the section numbers to read (None: all)."""
    from .sections import sections
    text = normalise_newlines(text)
    for s in sections(text):
        if only is None or s.number in only:
            yield read_module(text[s.start:s.end], s.first_line, s)


def module_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of each module of a file in its own characters (CR LF kept), in the order `iter_modules`
    reads them: the pieces between `// -----` lines that hold more than white space."""
    spans, pos = [], 0
    for m in list(separators(text)) + [None]:
        end = m.start() if m else len(text)
        if text[pos:end].strip():
            spans.append((pos, end))
        pos = m.end() if m else end
    return spans


def replace_alias_values(text: str, values: dict[int, dict[str, str]]) -> str:
    """`text` with the values of some alias definitions replaced (module index -> {name: new value text}); every
    other character is kept, line endings included. A name the module does not define is a TTLayoutError.

    >>> replace_alias_values("#a = #x<1>\\n#b = #y<2>\\nmodule {}\\n", {0: {"b": "#z<3>"}})
    '#a = #x<1>\\n#b = #z<3>\\nmodule {}\\n'
    """
    from ..errors import TTLayoutError
    from .mlir_file import scan_value_end
    edits = []
    spans = module_spans(text)
    for index, names in values.items():
        start, end = spans[index]
        for name, value in names.items():
            m = re.compile(rf"^[ \t]*#{re.escape(name)}[ \t]*=[ \t]*", re.M).search(text, start, end)
            if m is None:
                raise TTLayoutError(f"the module defines no alias #{name}")
            edits.append((m.end(), scan_value_end(text, m.end()), value))
    out, pos = [], 0
    for a, b, value in sorted(edits):
        out += [text[pos:a], value]
        pos = b
    return "".join(out) + text[pos:]


# ----------------------------------------------------------------------------------------- types


@frozen
class ValueType:
    """A tensor or shared-memory descriptor type: its shape, element type and layout (an encoding object, or None
    when it has none or it could not be read; `problem` then says why)."""
    kind: str                       # "tensor", "memdesc" or "other"
    shape: tuple[int, ...]
    element: str
    encoding: object = None
    encoding_text: str = ""
    memory: str = ""                # memdesc: '#smem' / '#ttng.tensor_memory'
    mutable: bool = False
    problem: str = ""

    @property
    def is_pointer(self) -> bool:
        return self.element.startswith("!tt.ptr")

    @property
    def pointee(self) -> str:
        """The element a tensor of pointers points to ('!tt.ptr<f16>' -> 'f16')."""
        return self.element[len("!tt.ptr<"):-1].split(",")[0].strip() if self.is_pointer else self.element

    @property
    def element_bits(self) -> int:
        """Bits one element takes in memory (a pointer 64); UnsupportedError for a type of unknown width."""
        from .tensor_type import element_bitwidth
        return element_bitwidth(self.element)

    @property
    def pointee_bits(self) -> int:
        """Bits of the element a tensor of pointers points to (of the element itself for other tensors)."""
        from .tensor_type import element_bitwidth
        return element_bitwidth(self.pointee)


_DIGITS_AND_X = re.compile(r"[0-9x]*")
MAX_DIM_DIGITS = 18                 # a dimension of a real tensor; longer ones make the type unreadable


def _split_dims(text: str) -> tuple[tuple[int, ...], str] | None:
    """'128x64xf16' -> ((128, 64), 'f16'): the leading `NxMx...` dimensions and the element type (the way a
    regex `(?:\\d+x)*` would take them, without its per-dimension backtracking record); None when a dimension
    is absurdly long.

    >>> _split_dims("128x64xf16"), _split_dims("4xi1"), _split_dims("f32"), _split_dims("8x")
    (((128, 64), 'f16'), ((4,), 'i1'), ((), 'f32'), ((8,), ''))
    """
    m = _DIGITS_AND_X.match(text)                   # matches always (possibly empty)
    assert m is not None
    run = m.group()
    pieces = run[:run.rfind("x") + 1].split("x")[:-1]
    count = next((k for k, p in enumerate(pieces) if not p), len(pieces))
    dims = pieces[:count]
    if any(len(d) > MAX_DIM_DIGITS for d in dims):
        return None
    return tuple(int(d) for d in dims), text[sum(len(d) + 1 for d in dims):]


def parse_type(text: str, aliases, cache: dict | None = None) -> ValueType:
    """'tensor<128x64xf16, #blocked>', '!ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>' or the short
    '<128x64xf16, #shared, #smem>' of async copies -> ValueType, the layout resolved through `aliases`."""
    text = text.strip()
    kind = "tensor" if text.startswith("tensor<") else "memdesc" if text.startswith(("!ttg.memdesc<", "<")) else ""
    if not kind or not text.endswith(">"):
        return ValueType("other", (), text)
    parts = _depth_split(text[text.index("<") + 1:-1], ",")
    split = _split_dims(parts[0])
    if split is None:
        return ValueType("other", (), text)
    shape, element = split
    encoding, problem, enc_text = None, "", parts[1] if len(parts) > 1 else ""
    if enc_text:
        key = (enc_text, id(aliases))
        if cache is not None and key in cache:
            encoding, problem = cache[key]
        else:
            encoding, problem = _encoding(enc_text, aliases)
            if cache is not None:
                cache[key] = (encoding, problem)
    memory = parts[2] if kind == "memdesc" and len(parts) > 2 else ""
    return ValueType(kind, shape, element, encoding, enc_text, memory, "mutable" in parts[3:], problem)


def _encoding(text: str, aliases):
    from ..errors import TTLayoutError
    from .attribute import parse_attribute
    name = text[1:] if text.startswith("#") else None
    if name is not None and name in aliases:
        value = aliases[name]
        return (None, str(value)) if isinstance(value, Exception) else (value, "")
    readable = getattr(aliases, "attributes", None)
    if readable is None:
        readable = {n: a for n, a in aliases.items() if not isinstance(a, Exception)}
    try:
        return parse_attribute(text, readable), ""
    except TTLayoutError as e:
        return None, str(e)
