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
from dataclasses import dataclass, field

from .lexical import skip_balanced, skip_string

SEPARATOR = re.compile(r"^// -----\s*$", re.M)
_RESULTS = re.compile(r"((?:%[\w$.\-]+(?::\d+)?)(?:\s*,\s*%[\w$.\-]+(?::\d+)?)*)\s*=\s*")
_NAME = re.compile(r'"([\w.$\-]+)"|([A-Za-z_][\w$]*(?:\.[\w$]+)+|module)\b')
_SSA = re.compile(r"%[\w$.\-]+(?:#\d+)?")
_FILE_LOC = re.compile(r'^"((?:[^"\\]|\\.)*)":(\d+):(\d+)(?:\s+to\s+.*)?$', re.S)
_REGION_HEAD = re.compile(r"^(?:default|partition\d+\s*\(.*\)\s*num_warps\s*\(\d+\))\s*\{$", re.S)
_LIBRARY = ("triton/", "<frozen", "<string>")


@dataclass(frozen=True)
class Loc:
    """A source position: the user's frame (`file`, `line`, `col`), and every frame from innermost to outermost."""
    file: str
    line: int
    col: int
    frames: tuple[tuple[str, int, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Op:
    """One operation as printed: its header and the text that follows its regions."""
    name: str
    results: tuple[str, ...]
    operands: tuple[str, ...]
    operand_types: tuple[str, ...]
    result_types: tuple[str, ...]
    attrs: str                      # the op's attribute dictionary text ({...} or <{...}>), '' if none
    loc_text: str                   # what stands inside its trailing loc(...), '' if none
    line: int                       # 1-based line of the file where the op starts
    depth: int                      # regions around it (0 = directly in the function)
    loops: int                      # scf.for / scf.while around it
    text: str = ""                  # the whole op as printed, regions left out
    region: int = 0                 # which region holds it (each region of the file has its own number)
    loc: Loc | None = None


@dataclass
class Module:
    """One module of a file: its attributes (`ttg.num-warps`, `ttg.target`, ...), alias definitions and ops."""
    first_line: int
    attributes: dict
    aliases: dict                   # name -> parsed attribute (layouts) or OtherAttribute (locations, ...)
    ops: list = field(default_factory=list)
    types: dict = field(default_factory=dict, repr=False, compare=False)    # value_type's cache

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


def _int_attr(value: str | None) -> int | None:
    m = re.match(r"\s*(-?\d+)", value or "")
    return int(m.group(1)) if m else None


# ----------------------------------------------------------------------------------------- text helpers


def _top_level(text: str, start: int = 0):
    """(index, character, bracket depth before it) of every character of `text` from `start` that is outside
    strings; `<([{` open and `>)]}` close, but the '>' of '->' closes nothing."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        yield i, c, depth
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        i += 1


def _depth_split(text: str, sep: str) -> list[str]:
    """`text` split at the `sep` characters outside brackets and strings."""
    out, start = [], 0
    for i, c, depth in _top_level(text):
        if c == sep and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [p.strip() for p in out]


def _find_top(text: str, token: str, start: int = 0) -> int:
    """Index of `token` outside brackets and strings, or -1."""
    return next((i for i, _c, depth in _top_level(text, start) if depth == 0 and text.startswith(token, i)), -1)


def _balance(text: str) -> tuple[int, int]:
    """(open round/square brackets, open braces) of a line, strings and `->` skipped."""
    paren = brace = 0
    i = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if c in "([":
            paren += 1
        elif c in ")]":
            paren -= 1
        elif c == "{":
            brace += 1
        elif c == "}":
            brace -= 1
        i += 1
    return paren, brace


def _strip_loc(text: str) -> tuple[str, str]:
    """(text without its trailing `loc(...)`, what stands inside it)."""
    text = text.rstrip()
    if not text.endswith(")"):
        return text, ""
    i = _find_top(text, "loc(")
    last = -1
    while i >= 0:
        end = skip_balanced(text, i + 3)
        if end == len(text):
            last = i
            break
        i = _find_top(text, "loc(", i + 4)
    if last < 0:
        return text, ""
    return text[:last].rstrip(), text[last + 4:-1]


def _types(text: str) -> list[str]:
    """A type list: 'a, b', '(a, b)' or a dot's 'a * b' -> ['a', 'b'] ('()' -> [])."""
    text = text.strip()
    if text.startswith("(") and skip_balanced(text, 0) == len(text):
        text = text[1:-1]
    return [u for t in _depth_split(text, ",") for u in _depth_split(t, "*") if u]


# ----------------------------------------------------------------------------------------- ops


def parse_op(text: str, line: int, depth: int, loops: int, region: int = 0) -> Op | None:
    """One op's whole text (header plus what followed its regions) -> Op; None for text that is no op."""
    body, loc_text = _strip_loc(text.strip())
    results: tuple[str, ...] = ()
    m = _RESULTS.match(body)
    if m:
        results = tuple(r.strip() for r in m.group(1).split(","))
        body = body[m.end():]
    m = _NAME.match(body)
    if not m:
        return None
    name = m.group(1) or m.group(2)
    rest = body[m.end():]
    colon = _find_top(rest, " : ")
    head, types = (rest, "") if colon < 0 else (rest[:colon], rest[colon + 3:])
    attrs = ""
    for opener in ("<{", "{"):
        at = _find_top(head, opener)
        if at >= 0:
            end = skip_balanced(head, at)
            attrs = head[at:end if end > 0 else len(head)]
            head = head[:at] + head[end:] if end > 0 else head[:at]
            break
    operands = tuple(_SSA.findall(head))
    arrow = _find_top(types, "->")
    operand_types = _types(types if arrow < 0 else types[:arrow])
    result_types = _types(types[arrow + 2:]) if arrow >= 0 else []
    return Op(name, results, operands, tuple(operand_types), tuple(result_types), attrs, loc_text, line, depth, loops,
              text, region)


def _statements(lines: list[str], first: int) -> list[dict]:
    """Every op as {"text", "line", "depth", "loops", "name", "region"}, in the order they start; an op with regions gets the
    text that follows each of its regions appended (see the module docstring)."""
    out: list[dict] = []
    stack: list[dict] = []              # ops whose regions are open
    regions: list[int] = [0]            # number of the region each open op is in now
    count = 0
    last: dict | None = None            # the op completed last (its regions may open on the next line)
    i = 0
    while i < len(lines):
        raw = lines[i].strip()
        number = first + i
        i += 1
        if not raw or raw.startswith("//") or raw.startswith("^"):
            continue
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
                regions.pop()
            continue
        if _REGION_HEAD.match(raw) and last is not None:
            stack.append(last)              # the regions of an op whose header ended its line (warp_specialize)
            last["text"] += " " + raw[:-1].strip()
            count += 1
            regions.append(count)
            continue
        text = raw
        paren, brace = _balance(text)
        while paren > 0 and not text.endswith("{") and i < len(lines):
            text += " " + lines[i].strip()
            i += 1
            paren, brace = _balance(text)
        opens = text.endswith("{") and (brace > 0 or paren > 0)
        if opens:
            text = text[:-1].rstrip()
            text = text[:-1].rstrip() if text.endswith("(") else text
        m = _NAME.match(_RESULTS.sub("", text, count=1))
        stmt = {"text": text, "line": number, "depth": len(stack), "region": regions[-1],
                "loops": sum(1 for s in stack if s["name"] in ("scf.for", "scf.while")),
                "name": (m.group(1) or m.group(2)) if m else ""}
        out.append(stmt)
        if opens:
            stack.append(stmt)
            count += 1
            regions.append(count)
        else:
            last = stmt
    return out


# ----------------------------------------------------------------------------------------- locations


class Locations:
    """`#loc` aliases and inline `loc(...)` texts -> Loc, with the user's frame preferred over Triton's own."""

    def __init__(self, aliases: dict):
        self.text = {name: str(a.text)[4:-1] for name, a in aliases.items()
                     if type(a).__name__ == "OtherAttribute" and str(a.text).startswith("loc(")}
        self.cache: dict[str, tuple] = {}

    def frames(self, text: str, seen: frozenset = frozenset()) -> tuple:
        """Every file frame a location text names, innermost first."""
        text = text.strip()
        if text in self.cache:
            return self.cache[text]
        out: tuple = ()
        if text.startswith("#"):
            name = text[1:]
            if name in self.text and name not in seen:
                out = self.frames(self.text[name], seen | {name})
        elif text.startswith("callsite(") and text.endswith(")"):
            at = _find_top(text[9:-1], " at ")
            if at >= 0:
                out = self.frames(text[9:9 + at], seen) + self.frames(text[9 + at + 4:-1], seen)
        elif text.startswith("fused") and text.endswith("]"):
            inner = text[text.index("[") + 1:-1]
            out = tuple(f for part in _depth_split(inner, ",") for f in self.frames(part, seen))
        elif text.startswith('"'):
            m = _FILE_LOC.match(text)
            if m:
                out = ((m.group(1), int(m.group(2)), int(m.group(3))),)
            else:                                    # a named location: "name"(child)
                end = skip_string(text, 0)
                if text[end:end + 1] == "(" and text.endswith(")"):
                    out = self.frames(text[end + 1:-1], seen)
        self.cache[text] = out
        return out

    def resolve(self, text: str) -> Loc | None:
        frames = self.frames(text) if text else ()
        if not frames:
            return None
        user = next((f for f in frames if not f[0].startswith(_LIBRARY) and "site-packages" not in f[0]), frames[0])
        return Loc(user[0], user[1], user[2], frames)


# ----------------------------------------------------------------------------------------- modules


_MODULE_ATTRIBUTES = re.compile(r"^[ \t]*module\b[^{\n]*?attributes\s*\{", re.M)


def _module_attributes(text: str) -> dict:
    m = _MODULE_ATTRIBUTES.search(text)
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
    for m in _MODULE_ATTRIBUTES.finditer(text):
        value = _attribute_dict(text, m.end() - 1).get("ttg.target")
        if value is not None:
            found.append(value.strip('"'))
    return found


_LINE_PREFIX = re.compile(r"^line (\d+), column \d+: ")
_DEFINITION = re.compile(r"^\s*#([A-Za-z0-9_$.\-]+)\s*=")
MAX_BROKEN_ALIASES = 200


def tolerant_aliases(text: str, first_line: int = 1) -> dict:
    """The file's alias definitions, name -> attribute; a definition that fails maps to its TTLayoutError (whose
    message names the line) instead of stopping the others. Each failure blanks that definition and reads again."""
    from ..errors import TTLayoutError
    from .mlir_file import parse_mlir_file
    broken: dict = {}
    lines = text.split("\n")
    for _ in range(MAX_BROKEN_ALIASES):
        try:
            defs = parse_mlir_file("\n".join(lines))
            break
        except TTLayoutError as e:
            m = _LINE_PREFIX.match(str(e))
            number = getattr(e, "line", None) or (int(m.group(1)) if m else None)
            k = number - 1 if number else -1
            while k >= 0 and not _DEFINITION.match(lines[k]):
                k -= 1
            if k < 0:
                raise
            name = _DEFINITION.match(lines[k]).group(1)
            broken[name] = _shifted(e, first_line)
            lines[k] = f'#{name} = "unreadable"'
    else:
        raise TTLayoutError(f"more than {MAX_BROKEN_ALIASES} alias definitions fail to read")
    aliases = {d.name: d.attr for d in defs}
    aliases.update(broken)
    return aliases


def _shifted(error, first_line: int):
    """The error with its `line N` counted from the file's start instead of the module's."""
    m = _LINE_PREFIX.match(str(error))
    if first_line == 1 or not m:
        return error
    return type(error)(str(error).replace(f"line {m.group(1)},", f"line {int(m.group(1)) + first_line - 1},", 1))


def read_module(text: str, first_line: int = 1) -> Module:
    """One module's text (no `// -----` inside) -> Module; an alias that fails to read is kept as its error."""
    aliases = tolerant_aliases(text, first_line)
    module = Module(first_line, _module_attributes(text), aliases)
    locations = Locations(aliases)
    lines = text.split("\n")
    for stmt in _statements(lines, first_line):
        if stmt["text"].lstrip().startswith("#"):
            continue                                 # an alias definition
        op = parse_op(stmt["text"], stmt["line"], stmt["depth"], stmt["loops"], stmt["region"])
        if op is not None:
            op.loc = locations.resolve(op.loc_text)
            module.ops.append(op)
    return module


def read_modules(text: str) -> list[Module]:
    """Every module of a file, split at `// -----` lines."""
    out, line = [], 1
    pos = 0
    for m in list(SEPARATOR.finditer(text)) + [None]:
        end = m.start() if m else len(text)
        chunk = text[pos:end]
        if chunk.strip():
            out.append(read_module(chunk, line))
        line += chunk.count("\n") + (1 if m else 0)
        pos = m.end() if m else end
    return out


# ----------------------------------------------------------------------------------------- types


@dataclass(frozen=True)
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


_DIMS = re.compile(r"((?:\d+x)*)(.*)", re.S)


def parse_type(text: str, aliases: dict, cache: dict | None = None) -> ValueType:
    """'tensor<128x64xf16, #blocked>', '!ttg.memdesc<4x128x64xf16, #shared, #smem, mutable>' or the short
    '<128x64xf16, #shared, #smem>' of async copies -> ValueType, the layout resolved through `aliases`."""
    text = text.strip()
    kind = "tensor" if text.startswith("tensor<") else "memdesc" if text.startswith(("!ttg.memdesc<", "<")) else ""
    if not kind or not text.endswith(">"):
        return ValueType("other", (), text)
    parts = _depth_split(text[text.index("<") + 1:-1], ",")
    m = _DIMS.fullmatch(parts[0])
    shape = tuple(int(d) for d in m.group(1).split("x") if d)
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
    return ValueType(kind, shape, m.group(2), encoding, enc_text, memory, "mutable" in parts[3:], problem)


def _encoding(text: str, aliases: dict):
    from ..errors import TTLayoutError
    from .attribute import parse_attribute
    name = text[1:] if text.startswith("#") else None
    if name is not None and name in aliases:
        value = aliases[name]
        return (None, str(value)) if isinstance(value, Exception) else (value, "")
    try:
        return parse_attribute(text, {n: a for n, a in aliases.items() if not isinstance(a, Exception)}), ""
    except TTLayoutError as e:
        return None, str(e)
