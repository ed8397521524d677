"""The one path from what a user types to layouts: read a file or stdin within the limits, parse a tensor type
into a checked shape, load an attribute from `-l` or from an `-i` file's aliases, check that its kind suits the
command, and convert it to a `LinearLayout`. Every command goes through here; none repeats a step of it.

Each step raises a `TTLayoutError` whose message is the one line the user sees.
"""
from __future__ import annotations

import re

from . import errors
from .errors import (
    HARD_MAX_ELEMENTS,
    MAX_ELEMENTS,
    ParseError,
    ShapeError,
    TooManyElements,
    TTLayoutError,
    UnsupportedError,
    VerifyError,
    abbreviate,
    abbreviate_path,
)
from .outfile import remember_stream
from .patterns import lazy
from .records import frozen

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: the engine loads when a layout is converted, typing never
    from .conversions.padded_shared import Padding
    from .engine import LinearLayout
    from .parsing.sections import Section

DEFAULT_MAX_ELEMENTS = MAX_ELEMENTS    # --max-elements: about 1 GB of tensor-view text at ~16 bytes per element
DEFAULT_LANES = 32                    # lanes per warp CuTe text is read with where no target says otherwise
MAX_RANK = 32                         # every cell prints one number per dimension; real layouts have rank <= 5


@frozen
class Tensor:
    """A checked `-t` tensor type: a non-empty power-of-two shape and its element type (e.g. `f16`); `encoding`:
    the text of an encoding written in it (`#blocked`, `#ttg.blocked<{...}>`), found at `encoding_at` of
    `source`, the `-t` text."""
    shape: tuple[int, ...]
    element: str
    encoding: str | None = None
    source: str = ""
    encoding_at: int = 0

    @property
    def element_bits(self) -> int:
        return element_bitwidth(self.element)


def once(values, option: str):
    """The one value of an option given at most once (click's `multiple=True`), so that a repeated option is an
    error instead of the last one silently winning."""
    if len(values) > 1:
        raise TTLayoutError(f"{option} given {len(values)} times ({', '.join(abbreviate(v, 40) for v in values)}); "
                            "give it once")
    return values[0] if values else None


# ----------------------------------------------------------------------------------------- reading


def modules(text: str, only=None):
    """The modules of a TTGIR dump (every line starting `// -----` separates them: a lit file's separators, the
    pass headers of an MLIR_ENABLE_DUMP capture), each read when asked for: its aliases, ops and their types;
    `only`: the section numbers to read (None: all)."""
    from .parsing.module import iter_modules
    return iter_modules(text, only)


def replace_aliases(text: str, values: dict[int, dict[str, str]]) -> str:
    """The dump with some alias definitions given new values (module index -> {name: value text}): every other
    byte as it was (`advise --write`)."""
    from .parsing.module import replace_alias_values
    return replace_alias_values(text, values)


def several_modules(text: str) -> bool:
    """Whether a dump holds more than one module (a `// -----` line)."""
    from .parsing.module import separators
    return next(separators(text), None) is not None


def file_sections(text: str) -> list:
    """The sections of a file (`parsing.sections.sections`, on its text with newlines normalised)."""
    from .parsing.mlir_file import normalise_newlines
    from .parsing.sections import sections
    return sections(normalise_newlines(text))


def is_dump(found: list) -> bool:
    """Whether a file's sections are the passes of an MLIR_ENABLE_DUMP capture."""
    from .parsing.sections import is_dump as passes
    return passes(found)


def last_ttgir(text: str, found: list):
    """The last TTGIR section of a dump (the input of ConvertTritonGPUToLLVM), None if none is."""
    from .parsing.mlir_file import normalise_newlines
    from .parsing.sections import last_ttgir as last
    return last(normalise_newlines(text), found)


def section_is_ttgir(text: str, section) -> bool:
    """Whether one section of a file holds TTGIR (`parsing.sections.is_ttgir`)."""
    from .parsing.mlir_file import normalise_newlines
    from .parsing.sections import is_ttgir
    return is_ttgir(normalise_newlines(text)[section.start:section.end])


def sections_to_read(path: str, text: str, names, section: str | None):
    """(the section numbers `-i FILE` without -t reads, or None for all; the note saying which): --section's, one
    section of a dump (`dump_scope`), every section of any other file."""
    found = file_sections(text)
    if section is not None:
        return {pick_section(found, section, "--section").number}, None
    if not is_dump(found):
        return None, None
    from .parsing.mlir_file import normalise_newlines
    shown = "standard input" if path == "-" else abbreviate_path(path)
    chosen, note = dump_scope(normalise_newlines(text), found, [n.lstrip("#") for n in names], shown)
    return {chosen.number}, note


# ----------------------------------------------------------------------------------------- what a file is

# what marks TTGIR: found with str.find (a regex alternation scans a 60 MB file for seconds)
_TTGIR_MARKS = ("#ttg.", "#triton_gpu.", "#ttng.", "#triton_nvidia_gpu.", "ttg.num-warps", "triton_gpu.num-warps")
HOW_TO_DUMP = "run the kernel with MLIR_ENABLE_DUMP=1 or TRITON_KERNEL_DUMP=1 to get its TTGIR"


@frozen
class FileKind:
    """A file given where TTGIR is expected that is something else Triton writes: what it is (`what`), and where
    its TTGIR is (`ttgir`: the file beside it, or how to get one)."""
    what: str
    ttgir: str

    def message(self, shown: str) -> str:
        """'softmax.json is Triton's metadata, not TTGIR; the TTGIR is softmax.ttgir beside it'."""
        return f"{shown} is {self.what}, not TTGIR; {self.ttgir}"


# what a file Triton writes beside a kernel's TTGIR is, by its extension (the text decides where it can)
NOT_TTGIR_EXTENSIONS = (".json", ".ptx", ".amdgcn", ".ttir", ".llir", ".ll", ".source", ".cubin", ".hsaco", ".py")
_BINARIES = {".cubin": "the binary of a kernel (a cubin)", ".hsaco": "the binary of a kernel (an hsaco)"}
_HEAD_BYTES = 1 << 20


def path_kind(path: str) -> FileKind | None:
    """`file_kind` of a file named like one Triton writes beside a kernel (`NOT_TTGIR_EXTENSIONS`), read from at
    most its first MiB; None for another name, or a file that cannot be read (the reader then says why)."""
    import os
    ext = os.path.splitext(path)[1].lower()
    if path == "-" or ext not in NOT_TTGIR_EXTENSIONS:
        return None
    if ext in _BINARIES:
        return FileKind(_BINARIES[ext], _where_ttgir(path, os.path.basename(path), None))
    try:
        with open(path, "rb") as f:
            text = f.read(_HEAD_BYTES).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None
    return file_kind(path, text)


def file_kind(path: str, text: str) -> FileKind | None:
    """What a file is when it is not TTGIR but another file Triton writes (read from its text, and from its name's
    extension where the text alone does not tell): Triton's metadata or cache group JSON, PTX or AMDGCN assembly,
    LLVM IR, TTIR (tensors without layouts: Triton's `.ttir` and `.source`) or Python source. None when the file
    holds TTGIR (any `#ttg.` layout or `ttg.num-warps`) or is none of these: the caller reads it as TTGIR.

    The one place that tells file kinds apart: `audit`, `-i` and the cache and directory inputs call it."""
    if any(mark in text for mark in _TTGIR_MARKS):
        return None
    import os
    base = os.path.basename(path) if path != "-" else ""
    ext = os.path.splitext(base)[1].lower()
    prefix = text[:_HEAD_BYTES]                       # what the kind is sniffed from: memory bounded by 1 MiB
    head = prefix.lstrip()[:8192]
    name = None
    if ext == ".json" or head.startswith("{"):
        import json
        try:
            obj = json.loads(prefix) if len(text) <= _HEAD_BYTES else _json_head(head)
        except (ValueError, RecursionError):
            obj = None
        if isinstance(obj, dict) and isinstance(obj.get("child_paths"), dict):
            what = "Triton's cache group file"
            name = next((os.path.splitext(k)[0] for k in obj["child_paths"] if k.endswith(".ttgir")), None)
        elif isinstance(obj, dict) and "num_warps" in obj and ({"hash", "target"} & set(obj)):
            what = "Triton's metadata"
            name = obj.get("name") if isinstance(obj.get("name"), str) else None
        elif ext == ".json":
            what = "a JSON file"
        else:
            return None
    elif ext == ".ptx" or (re.search(r"^\.version \d", head, re.M) and re.search(r"^\.target sm_", head, re.M)):
        what = "PTX assembly"
    elif ext == ".amdgcn" or ".amdgcn_target" in head:
        what = "AMDGCN assembly"
    elif ext in (".llir", ".ll") or head.startswith("; ModuleID") or re.search(r"^target (?:datalayout|triple) = ",
                                                                               head, re.M):
        what = "LLVM IR"
    elif ext in (".ttir", ".source") or (re.search(r"^\s*tt\.func\b", prefix, re.M) and "tensor<" in prefix):
        what = "Triton's TTIR (its tensors have no layouts yet)"
    elif ext == ".py" or re.search(r"^\s*(?:import triton|from triton\b|@triton\.jit)", prefix, re.M):
        what = "Python source"
    else:
        return None
    return FileKind(what, _where_ttgir(path, base, name))


def _json_head(head: str) -> dict | None:
    """The keys that tell Triton's JSON files apart, read from the start of a JSON object too large to parse
    whole (a cache file is a few KB): `{"child_paths": {...}}` or metadata's `num_warps` and `hash`/`target`.

    >>> _json_head('{"hash": "ab", "target": {"arch": 90}, "num_warps": 4, "name": "k", "x": [[], [], ')
    {'hash': None, 'target': None, 'num_warps': None, 'name': 'k'}
    """
    if re.search(r'"child_paths"\s*:\s*\{', head):
        return {"child_paths": {}}
    keys = {k: None for k in re.findall(r'"(hash|target|num_warps)"\s*:', head)}
    if not keys:
        return None
    name = re.search(r'"name"\s*:\s*"([^"\\]*)"', head)
    return {**keys, **({"name": name.group(1)} if name else {})}


def _where_ttgir(path: str, base: str, name: str | None) -> str:
    """'the TTGIR is NAME.ttgir beside it' where a cache entry's TTGIR file is there, else how to get one."""
    import os

    from .analysis.kernels import plain_name
    if path != "-":
        stem = name if name and plain_name(name) else os.path.splitext(base)[0]
        stem = stem[len("__grp__"):] if stem.startswith("__grp__") else stem
        if stem and os.path.isfile(os.path.join(os.path.dirname(path), stem + ".ttgir")):
            return f"the TTGIR is {stem}.ttgir beside it"
    return HOW_TO_DUMP


def check_ttgir(path: str, text: str) -> None:
    """The error naming what a file is, where TTGIR was expected and the file is another one Triton writes."""
    kind = file_kind(path, text)
    if kind is not None:
        raise TTLayoutError(kind.message("standard input" if path == "-" else abbreviate_path(path)))


_MODULE_STARTS = ("module", "tt.func", '"builtin.module"')


def holds_module(text: str) -> bool:
    """Whether a text holds an MLIR module: a line starting `module`, `tt.func` or generic `"builtin.module"`
    (found with `lexical.line_matches`, so a large dump is scanned in milliseconds). Prose, an empty file or a
    file of aliases alone holds none.

    >>> holds_module('#blocked = #ttg.blocked<{}>\\nmodule attributes {} {\\n}'), holds_module('hello module')
    (True, False)
    """
    from .parsing.lexical import line_matches
    if "\r" in text:                                  # a lone CR ends a line too
        from .parsing.mlir_file import normalise_newlines
        text = normalise_newlines(text)
    return any(next(line_matches(re.compile(r"^[ \t]*" + re.escape(word) + r"(?![\w.])", re.M), text, word), None)
               is not None for word in _MODULE_STARTS)


def kernel_text(path: str, stdin) -> str:
    """The TTGIR of one kernel given to `audit` or `advise` (a file or '-'): a file Triton writes beside a kernel
    that is not its TTGIR (metadata, assembly, TTIR, LLVM IR, source; by name, then by text) and a text that holds
    no module (prose in `x.ttgir`) are refused with one line saying what the file is. The one reading step both
    commands share, so they recognise the same files."""
    shown = "standard input" if path == "-" else abbreviate_path(path)
    kind = path_kind(path)
    if kind is not None:
        raise TTLayoutError(kind.message(shown))
    text = read_text(path, stdin)
    check_ttgir(path, text)
    if not holds_module(text):
        what = "is empty" if not text.strip() else "holds no MLIR module (no line starts 'module' or 'tt.func')"
        raise TTLayoutError(f"{shown} {what}: it is not TTGIR; {HOW_TO_DUMP}")
    return text


# ----------------------------------------------------------------------------------------- sections


def pick_section(found: list, spec: str, flag: str):
    """The section `spec` names: its number (1-based), or for a dump a part of a pass name (`Coalesce`; the whole
    name wins over longer ones, `CSEPass`). A name that matches several sections, or none, is an error listing
    the choices."""
    from .parsing.sections import is_dump
    spec = spec.strip()
    if spec.isdigit():
        k = int(spec)
        if not 1 <= k <= len(found):
            raise TTLayoutError(f"{flag} {k}: the file has {len(found)} section(s), numbered 1 to {len(found)}")
        return found[k - 1]
    if not is_dump(found):
        raise TTLayoutError(f"{flag} '{abbreviate(spec, 40)}' names a pass, but the file is no MLIR_ENABLE_DUMP "
                            f"capture (no 'IR Dump' headers); give a section number from 1 to {len(found)}")
    want = spec.lower()
    exact = [s for s in found if s.pass_name.lower() == want]
    ending = [s for s in found if s.pass_name.lower().endswith(want)]
    hits = exact or (ending if len({s.pass_name for s in ending}) == 1 else []) or \
        [s for s in found if want in s.pass_name.lower()]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise TTLayoutError(f"{flag} '{abbreviate(spec, 40)}' matches {len(hits)} dumps: "
                            + _listed([f"{s.number} {s.title()} (line {s.first_line})" for s in hits])
                            + f"; give the number ({flag} {hits[0].number})")
    import difflib
    names = list(dict.fromkeys(s.pass_name for s in found if s.pass_name))
    close = difflib.get_close_matches(spec, names, n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]}?)" if close else ""
    raise TTLayoutError(f"{flag} '{abbreviate(spec, 40)}' names no pass of the dump{hint}; its passes: "
                        + _listed(names, 130) + "; 'ttlayout audit FILE --json' lists every module under 'passes'")


def _listed(items: list[str], room: int = 160) -> str:
    """Items joined by ', ' within about `room` characters, with how many were left out.

    >>> _listed(["a", "b", "c"], 4)
    'a, ... (2 more)'
    """
    out: list[str] = []
    used = 0
    for k, item in enumerate(items):
        if out and used + len(item) + 2 > room:
            return ", ".join(out) + f", ... ({len(items) - k} more)"
        out.append(item)
        used += len(item) + 2
    return ", ".join(out)


def section_at_line(found: list, line: int, flag: str = "--line"):
    """The section holding file line `line`."""
    for s, nxt in zip(found, found[1:] + [None]):
        if s.first_line <= line and (nxt is None or line < nxt.first_line - 1):
            return s
    raise TTLayoutError(f"{flag} {line}: no module of the file holds that line")


def _defines(chunk: str, name: str) -> bool:
    return re.search(rf"^#{re.escape(name)}[ \t]*=", chunk, re.M) is not None


def limit_text(limit: int) -> str:
    """'64 MiB' for the file limit (bytes)."""
    return f"{limit >> 20} MiB" if limit >= 1 << 20 and not limit % (1 << 20) else f"{limit} bytes"


def read_text(path: str, stdin, limit: int | None = None) -> str:
    """The `-i` file (or stdin for '-') as text; at most the parser's file limit (MAX_FILE_CHARS bytes, 64 MiB;
    `limit` a smaller one, for a kind of file that is always small) + 1 bytes are read, so `-i /dev/zero` ends
    with an error instead of filling the memory. Every reader of the package reads through here, so the one limit
    holds everywhere."""
    from .parsing import MAX_FILE_CHARS
    limit = MAX_FILE_CHARS if limit is None else min(limit, MAX_FILE_CHARS)
    shown = "standard input" if path == "-" else f"input file {abbreviate_path(path)}"
    if path == "-":
        if stdin is None:
            raise TTLayoutError("cannot read standard input: it is closed")
        try:
            data = stdin.read(limit + 1)
        except OSError as e:
            raise TTLayoutError(f"cannot read standard input: {e.strerror or e}") from None
        remember_stream(stdin)
        if isinstance(data, str):
            if len(data) > limit:
                raise TTLayoutError(f"standard input is too large (the limit is {limit_text(limit)})")
            return data
    else:
        if "\x00" in path:
            raise TTLayoutError(f"cannot read {shown}: the file name contains a NUL character")
        try:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
                remember_stream(f)
        except IsADirectoryError:
            raise TTLayoutError(f"cannot read {shown}: it is a directory") from None
        except OSError as e:
            raise TTLayoutError(f"cannot read {shown}: {e.strerror or e}") from None
    if len(data) > limit:
        raise TTLayoutError(f"{shown} is too large (the limit is {limit_text(limit)})")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TTLayoutError(f"{shown} is not UTF-8 text (invalid byte 0x{data[e.start]:02x} at offset {e.start})") from None


# ----------------------------------------------------------------------------------------- tensor types


def tensor(text: str | None, max_elements: int = DEFAULT_MAX_ELEMENTS, example: str = "tensor<16x16xf16>") -> Tensor:
    """`-t TYPE` parsed and checked: ranked, every dimension a known power of two, within the size limit."""
    if not text:
        raise TTLayoutError(f"missing -t: specify the tensor type, e.g. -t '{example}'")
    from .parsing import parse_type_argument
    try:
        arg = parse_type_argument(text)
    except (ParseError, VerifyError) as e:
        raise located(e, text, "-t") from None
    shape = tuple(checked_shape(arg.type.shape, text, max_elements))
    return Tensor(shape, arg.type.element, arg.encoding, text, arg.encoding_at)


def checked_shape(shape, text: str, max_elements: int) -> list[int]:
    if shape is None:
        raise ShapeError(f"unranked tensor type {abbreviate(text)} has no shape to lay out; give e.g. tensor<16x16xf16>")
    if not shape:
        raise ShapeError(f"rank-0 tensor type {abbreviate(text)} has no dimension to lay out")
    if len(shape) > MAX_RANK:
        raise ShapeError(f"tensor rank {len(shape)} is above ttlayout's limit of {MAX_RANK} dimensions")
    for k, s in enumerate(shape):
        if s < 0:
            raise ShapeError(f"dimension {k} of {abbreviate(text)} is dynamic ('?'): every dimension must be a known "
                             "power of two")
        if s == 0 or s & (s - 1):
            raise ShapeError(f"dimension {k} of {abbreviate(text)} has size {s}, not a power of two; Triton layouts "
                             "need power-of-two shapes")
    total = 1
    for s in shape:
        total *= s
    check_size(total, "tensor", max_elements)
    return list(shape)


def check_size(count: int, what: str, max_elements: int) -> None:
    """`errors.check_size`, its error saying how to raise the limit."""
    try:
        errors.check_size(count, what, max_elements)
    except TooManyElements as e:
        raise too_many(e) from None


def too_many(e: TooManyElements) -> ShapeError:
    """The size error with how to raise the limit (--max-elements), or that it is the hard one."""
    return ShapeError(f"{e} (raise it with --max-elements N)" if e.limit < HARD_MAX_ELEMENTS
                      else f"{e} (the hard limit is 2^31)")


def element_bitwidth(element: str) -> int:
    """`parsing.element_bitwidth` (bits of an MLIR element type in memory); an unknown type is one error line (the
    commands that have --bitwidth add that hint: `commands.layouts.element_bits`)."""
    from . import parsing
    try:
        return parsing.element_bitwidth(element)
    except parsing.UnknownElementWidth as e:
        raise UnsupportedError(str(e)) from None


# ----------------------------------------------------------------------------------------- attributes


_LOCATED = lazy(r"(?:line [0-9]+, )?column [0-9]+: ")
_MAX_MESSAGE = 280                    # the error line stays under 300 characters with 'ttlayout: error: '


def located(err: TTLayoutError, text: str, what: str) -> TTLayoutError:
    """A located parse (or file-mode verify) error with the text around its column quoted, on the same line:
    `column 14: expected 'x' in dimension list (in -t: 'tensor<128x64[HERE]>')`."""
    line, column = getattr(err, "line", None), getattr(err, "column", None)
    message = str(err)
    if line is None or column is None or not _LOCATED.match(message):
        return err
    from .parsing.locate import excerpt, offset_of
    quoted = f"{message} (in {what}: '{excerpt(text, offset_of(text, line, column))}')"
    if len(quoted) > _MAX_MESSAGE:
        return err
    new = ParseError(quoted, line, column) if isinstance(err, ParseError) else type(err)(quoted)
    new.line, new.column = line, column
    return new


def _aliases(text: str):
    from .parsing import parse_alias_table
    try:
        return parse_alias_table(text)
    except (ParseError, VerifyError) as e:
        raise located(e, text, "-i") from None


@frozen
class Dump:
    """An `-i` file as the analysis commands read it: the alias table of the scope read (the whole file, or one
    section of a lit file or an MLIR_ENABLE_DUMP capture), the distinct `ttg.target`s its modules name, in file
    order (the target such a command defaults to), what to tell the user about the section chosen (`note`, None
    when nothing), the `Section` read (None: the whole file), and `layouts`: the layout aliases to print when none
    is named (every section's, in order, for a lit file whose sections reuse names)."""
    aliases: object
    targets: tuple[str, ...]
    note: str | None = None
    section: Section | None = None
    layouts: tuple = ()

    @property
    def scope(self) -> str:
        """What the aliases were read from, for a message: 'the file', or 'section 2 (line 14)'."""
        s = self.section
        return "the file" if s is None else f"{s.title()} (line {s.first_line})"


def dump(path: str, stdin, wanted=(), section: str | None = None) -> Dump:
    """The `-i` file (read once, so '-' works) as its aliases and its modules' targets. A file of several sections
    (`// -----`, or the passes of an MLIR_ENABLE_DUMP capture) gives each section its own aliases; the one read is
    `section` (`--section N`, or a pass name), else for a dump the last TTGIR module, else the first section that
    defines every alias in `wanted` (the names the command line gives), said in `note` when several do. A lit file
    with no name wanted reads as a whole, as before; where its sections reuse names, each is read on its own."""
    text = read_text(path, stdin)
    check_ttgir(path, text)
    shown = "standard input" if path == "-" else abbreviate_path(path)
    wanted = [w[1:] if w.startswith("#") else w for w in wanted if w]
    from .parsing.mlir_file import normalise_newlines
    from .parsing.sections import is_dump, sections
    norm = normalise_newlines(text)
    found = sections(norm)
    if section is None and not is_dump(found) and (len(found) <= 1 or not wanted):
        try:
            table = _aliases(text)
            return Dump(table, module_targets(text), layouts=tuple(table.layouts()))
        except ParseError as e:
            if len(found) <= 1 or "redefinition of attribute alias id" not in str(e):
                raise
        tables = [_section_table(norm, s) for s in found]
        note: str | None = (f"{shown} has {len(found)} sections ('// -----'), each with its own aliases; this reads section 1 "
                f"(line {found[0].first_line}): --alias-names or --section N picks another")
        return Dump(tables[0], module_targets(norm[found[0].start:found[0].end]), note, found[0],
                    tuple(d for t in tables for d in t.layouts()))
    note = None
    if section is not None:
        chosen = pick_section(found, section, "--section")
    elif is_dump(found):
        chosen, note = dump_scope(norm, found, wanted, shown)
    else:
        having = [s for s in found if all(_defines(norm[s.start:s.end], w) for w in wanted)]
        chosen = having[0] if having else next((s for s in found if _defines(norm[s.start:s.end], wanted[0])),
                                               found[0])
        if len(having) > 1:
            names = " and ".join("#" + w for w in wanted)
            note = (f"{names} {'is' if len(wanted) == 1 else 'are'} defined in sections "
                    f"{_listed([str(s.number) for s in having], 60)} of {shown}; this reads section {chosen.number} "
                    f"(line {chosen.first_line}): --section N picks another")
    table = _section_table(norm, chosen)
    return Dump(table, module_targets(norm[chosen.start:chosen.end]), note, chosen, tuple(table.layouts()))


def dump_scope(norm: str, found: list, wanted: list, shown: str):
    """(section, note) of a dump: the last TTGIR module that defines every wanted alias (the last TTGIR module when
    none is wanted), or the last section that does."""
    from .parsing.sections import is_ttgir, last_ttgir
    if not wanted:
        chosen = last_ttgir(norm, found) or found[-1]
    else:
        having = [s for s in found if all(_defines(norm[s.start:s.end], w) for w in wanted)]
        ttgir = [s for s in having if is_ttgir(norm[s.start:s.end])]
        chosen = (ttgir or having or [last_ttgir(norm, found) or found[-1]])[-1]
    last = " (the last TTGIR module)" if chosen is last_ttgir(norm, found) else ""
    return chosen, (f"{shown} is an MLIR_ENABLE_DUMP capture of {len(found)} modules; this reads module "
                    f"{chosen.number}, {chosen.title()} (line {chosen.first_line}){last}: --section N or a pass name "
                    "picks another")


def _section_table(norm: str, s):
    from .parsing.module import section_aliases
    try:
        return section_aliases(norm[s.start:s.end], s.first_line)
    except (ParseError, VerifyError) as e:
        raise located(e, norm, "-i") from None


def module_targets(text: str) -> tuple[str, ...]:
    """The distinct `ttg.target`s the modules of a file name ('cuda:90', 'hip:gfx942'), in file order."""
    from .parsing.module import module_targets as named
    return tuple(dict.fromkeys(named(text)))


def split_names(groups) -> list[str]:
    """`--alias-names a,b --alias-names c` -> ['a', 'b', 'c'] (spaces around a name dropped: no alias has any).

    >>> split_names([" a-b", "c , d,"])
    ['a-b', 'c', 'd']
    """
    return [n.strip() for group in groups for n in group.split(",") if n.strip()]


def named(table, name: str, scope: str = "the file"):
    """The attribute an alias name (`mma` or `#mma`) stands for, or the error that says it is not in the file
    (or the section read: `scope`) and lists its layout aliases."""
    key = name[1:] if name.startswith("#") else name
    if key not in table:
        raise TTLayoutError(f"Can't find the layout attribute: {abbreviate(name, 60)}"
                            f"{aliases_hint(table, key, scope)}")
    return table[key].attr


def aliases_hint(table, name: str, scope: str = "the file") -> str:
    """What the file defines, for a name it lacks: " (did you mean #mma?); the file's layout aliases are ..."
    (the first dozen) and how many other aliases (`#loc`...) it has."""
    import difflib
    layouts = [d.name for d in table.layouts()]
    others = len(table) - len(layouts)
    close = difflib.get_close_matches(name, layouts, n=1, cutoff=0.6) if len(name) <= 100 else []
    close = [c for c in close if c != name]          # never the name that was not found
    if layouts:
        shown = ", ".join("#" + n for n in layouts[:12]) + (", ..." if len(layouts) > 12 else "")
        text = f"{scope}'s layout aliases are {abbreviate(shown, 120)}"
    else:
        text = f"{scope} has no layout alias"
    if others:
        text += f" (and {others} other alias{'es' if others > 1 else ''})"
    return (f" (did you mean #{close[0]}?)" if close else "") + "; " + text


def attribute(text: str, table=None, *, shape=None, kind: str | None = None, lanes: int = DEFAULT_LANES,
              flag: str = "-l"):
    """One attribute from the command line: its text, a Gluon constructor (`ttgl.BlockedLayout(...)`, built as
    Triton's Gluon builds it), CuTe text (`cute_attribute`: `shape`, a tuple or a function giving `-t`'s, is asked
    for only then), or (with an `-i` table) a `#name` / `name` of the file. A line copied from a dump works too:
    `#name = <attr>` and a trailing `loc(...)` are dropped. `flag` names the option in errors."""
    if table is not None:
        name = text[1:] if text.startswith("#") else text
        if name in table:
            return table[name].attr
    if not text.lstrip().startswith("#"):              # MLIR attributes start with '#': no CuTe or Gluon parser
        if looks_like_cute(text):
            return cute_attribute(text, shape, kind, lanes, flag, table)
        from .parsing import looks_like_gluon, parse_gluon
        if looks_like_gluon(text):
            return parse_gluon(text)
    return _attribute_text(text, table, flag)


def _attribute_text(text: str, table, flag: str):
    from .parsing import parse_pasted_attribute
    try:
        return parse_pasted_attribute(text, table.attributes if table is not None else None)
    except (ParseError, VerifyError) as e:
        raise located(e, text, flag) from None


def looks_like_gluon(text) -> bool:
    """Whether an option's value is a Gluon constructor (`ttgl.BlockedLayout(...)`) rather than an attribute."""
    if not isinstance(text, str) or text.lstrip().startswith("#"):
        return False
    from .parsing import looks_like_gluon as gluon_text
    return gluon_text(text)


# ----------------------------------------------------------------------------------------- CuTe text


def looks_like_cute(text) -> bool:
    """Whether an option's value is CuTe text (`parsing.cute.is_cute_text`: `cute:`, a swizzle, '(', '_' or a
    digit first); an attribute (`#...`) is told without loading the CuTe reader."""
    if not isinstance(text, str) or text.lstrip().startswith("#"):
        return False
    from .parsing.cute import is_cute_text
    return is_cute_text(text)


def cute_attribute(text: str, shape, kind: str | None = None, lanes: int = DEFAULT_LANES, flag: str = "-l",
                   table=None):
    """The Triton attribute CuTe text is at the tensor's shape (`conversions.cute.cute_to_attribute`): a
    thread-value layout (its thread mode split into warps of `lanes` lanes, one CTA) or a shared one, as `kind`
    ('distributed', 'shared') or the text's prefix (`cute-tv:`, `cute-shared:`) says, else as it reads. Text without
    a prefix that CuTe's reader rejects but the attribute parser takes (`-l '1 : i32'`) is that attribute, as before
    CuTe was read."""
    from .parsing.cute import cute_params, cute_reading, has_cute_prefix, parse_cute
    try:
        layout = parse_cute(text)
    except ParseError as e:
        if not has_cute_prefix(text):
            try:
                return _attribute_text(text, table, flag)
            except TTLayoutError:
                pass
        raise located(e, text, flag) from None
    if shape is None:
        raise TTLayoutError(f"missing -t: CuTe layout text ({flag}) needs the tensor type for its shape, e.g. "
                            "-t 'tensor<64x64xf16>'")
    named = cute_reading(text)
    if named is not None and kind is not None and named != kind:
        word = "cute-tv:" if named == "distributed" else "cute-shared:"
        raise TTLayoutError(f"{flag} takes a {kind} layout, but its CuTe text says '{word}' (a {named} layout)")
    shape = list(shape() if callable(shape) else shape)
    from .conversions.cute import cute_to_attribute, two_readings
    where = f"CuTe text in {flag} at tensor<{'x'.join(map(str, shape))}>"
    try:
        params = cute_params(text)
    except ParseError as e:
        raise located(e, text, flag) from None
    blocks, lanes = params.get("ctas", 1), params.get("lanes", lanes)
    try:
        if kind is None and named is None and two_readings(layout, shape):
            readings = []
            for reading in ("shared", "distributed"):
                try:
                    readings.append(cute_to_attribute(layout, shape, kind=reading, lanes=lanes, blocks=blocks))
                except ShapeError:
                    pass
            if len(readings) == 2:
                raise TTLayoutError(f"{where} reads two ways; say which, 'cute-shared: ...' or 'cute-tv: ...': "
                                    f"shared {abbreviate(str(readings[0]), 90)} or thread-value "
                                    f"{abbreviate(str(readings[1]), 90)}")
        return cute_to_attribute(layout, shape, kind=kind or named, lanes=lanes, blocks=blocks)
    except ShapeError as e:
        raise ShapeError(f"{where}: {e}") from None


def check_same_layout(attr, inline, flag: str = "-l", shape=None) -> None:
    """The layout an option gave (`-l` by default) and an encoding written in `-t` must be the same layout
    (their canonical texts agree; with `shape`, given where the option was CuTe text, which becomes an attribute
    of its own choosing, their linear layouts at `shape` may agree instead)."""
    a, b = str(attr), str(inline)
    if a == b or (shape is not None and same_linear_layout(attr, inline, shape)):
        return
    d = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = a.rfind(" ", 0, max(0, d - 20)) + 1          # the texts agree before d: one start for both

    def cut(text: str) -> str:
        return ("..." if start else "") + abbreviate(text[start:], 60)
    raise TTLayoutError(f"{flag} and the encoding in -t are different layouts: {flag} has '{cut(a)}' where -t has "
                        f"'{cut(b)}'; give the layout once")


def same_linear_layout(a, b, shape) -> bool:
    """Whether two attributes are the same layout at `shape` (False where either does not convert)."""
    from .conversions import to_linear_layout
    try:
        la, lb = to_linear_layout(a, list(shape)), to_linear_layout(b, list(shape))
        return la.in_dims == lb.in_dims and la == lb.transpose_outs(la.out_dims)
    except (TTLayoutError, ValueError, KeyError):
        return False


def inline_layout(t: Tensor, table, required: bool):
    """The layout an encoding written in `-t` names, as (alias name or None, attribute); None when `-t` has no
    encoding, or (unless `required`) when it names an alias that no `-i` file defines."""
    if t.encoding is None:
        return None
    name = t.encoding[1:]
    if table is not None and t.encoding.startswith("#") and name in table:
        return name, table[name].attr
    from .parsing import parse_inline_encoding
    try:
        return None, parse_inline_encoding(t.source, t.encoding, t.encoding_at,
                                           table.attributes if table is not None else None)
    except ParseError as e:
        if "undefined symbol alias id" not in str(e):
            raise located(e, t.source, "-t") from None
        if not required:
            return None
        found = re.search(r"undefined symbol alias id '(.*)'", str(e))
        assert found is not None                     # the parser's message for an undefined alias
        alias = found.group(1)
        if table is None:
            raise TTLayoutError(f"the encoding in -t names the alias #{abbreviate(alias, 40)}; give -i FILE that "
                                "defines it, or the layout with -l") from None
        raise TTLayoutError(f"the encoding in -t names the alias #{abbreviate(alias, 40)}, which the -i file does not "
                            f"define{aliases_hint(table, alias)}") from None


def require_kind(attr, kind: str, role: str, name: str | None = None):
    """`attr` if it is a `kind` ('distributed' or 'shared') layout, else the error naming the role it was for."""
    if getattr(attr, "kind", None) == kind:
        return attr
    if name is not None:
        raise TTLayoutError(f"#{name} is not a {kind} layout attribute (needed for the {role} layout)")
    raise TTLayoutError(f"the {role} layout must be a {kind} layout attribute, got {abbreviate(str(attr))}")


def linear_layout(attr, shape, max_elements: int = DEFAULT_MAX_ELEMENTS):
    """`conversions.analysable_layout` (Triton's `toLinearLayout(shape, attr)` of a distributed or shared layout,
    its hardware index space within the size limit) with the command line's words in its errors."""
    from .conversions import PrintOnlyLayout, analysable_layout
    try:
        return analysable_layout(attr, shape, max_elements)
    except PrintOnlyLayout as e:
        raise UnsupportedError(f"{e.mnemonic} can only be printed ('ttlayout -l ATTR -t TYPE'): "
                               "this command does not model its padding or partitions") from None
    except TooManyElements as e:
        raise too_many(e) from None


def memory_layout(attr, shape, max_elements: int = DEFAULT_MAX_ELEMENTS):
    """(linear layout, padding or None) of a layout only the print command used to take: tensor memory (row, col,
    block inputs), padded shared memory (its linear component and padding) and partitioned shared memory (offset,
    block, partition inputs; the inner layout's padding), Triton's `toLinearLayout(shape, attr)`, its index space
    within the size limit: for the commands that answer for one layout (info, lookup, diff)."""
    from .attributes import encodings as enc
    from .conversions import to_linear_layout
    from .conversions.padded_shared import padding_of
    layout = to_linear_layout(attr, list(shape))
    check_size(layout.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
    inner = attr.partition_layout if isinstance(attr, enc.PartitionedSharedEncoding) else attr
    return layout, padding_of(inner) if isinstance(inner, enc.PaddedSharedEncoding) else None


# ----------------------------------------------------------------------------------------- what print shows


@frozen
class Printed:
    """What the print command shows for one attribute. view "triton": `linear` in Triton's own views;
    "shared_memory": padded / partitioned shared memory (`padding` None when unpadded); "tensor_memory": TMEM
    rows and columns of `element_bits`-bit elements. `tmem_load`: with --tmem-warps, the register layout (then
    `linear`) as a #ttg.linear attribute."""
    linear: LinearLayout
    view: str = "triton"
    padding: Padding | None = None
    element_bits: int = 32
    tmem_load: str | None = None


def printed(attr, t: Tensor, max_elements: int = DEFAULT_MAX_ELEMENTS, tmem_warps: int | None = None,
            tmem_instr: str = "32x32b") -> Printed:
    """The print command's layout for `attr` at tensor `t`; with tmem_warps, a tensor memory layout gives the
    register layout Triton's tmem_load produces for that many warps and message shape instead."""
    from .attributes import encodings as enc
    from .conversions import PRINT_ONLY
    tmem_kinds = (enc.TensorMemoryEncoding, enc.TensorMemoryScalesEncoding)
    if not isinstance(attr, PRINT_ONLY + tmem_kinds):
        return Printed(linear_layout(attr, t.shape, max_elements))
    from .conversions import to_linear_layout
    layout = to_linear_layout(attr, list(t.shape))
    check_size(layout.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
    if isinstance(attr, tmem_kinds):
        bits = tmem_element_bits(t)
        if tmem_warps is None:
            return Printed(layout, "tensor_memory", element_bits=bits)
        if tmem_warps < 4 or tmem_warps & (tmem_warps - 1):
            raise ShapeError(f"--tmem-warps must be a power of two and at least 4, got {tmem_warps}")
        from .conversions.tmem_registers import register_layout
        regs = register_layout(layout, tmem_instr, tmem_warps, bits)
        check_size(regs.get_total_in_dim_size(), "the register layout's hardware index space", max_elements)
        text = enc.LinearEncoding(*(regs.get_in_dim_bases(d) for d in ("register", "lane", "warp", "block")))
        return Printed(regs, tmem_load=str(text))
    from .conversions.padded_shared import padding_of
    inner = attr.partition_layout if isinstance(attr, enc.PartitionedSharedEncoding) else attr
    if not isinstance(inner, enc.PaddedSharedEncoding):
        return Printed(layout, "shared_memory")
    padding = padding_of(inner)
    count = layout.get_in_dim_size("offset")
    check_size(padding.padded_size(count) * (layout.get_total_in_dim_size() // count), "the padded memory",
               max_elements)
    return Printed(layout, "shared_memory", padding)


def tmem_element_bits(t: Tensor) -> int:
    """Bits per element in tensor memory (32-bit columns hold 32 / bits elements)."""
    try:
        bits = t.element_bits
    except UnsupportedError:
        raise UnsupportedError(f"cannot tell the bit width of element type '{abbreviate(t.element)}' "
                               "for the tensor memory view") from None
    if bits > 32 or 32 % bits:
        raise UnsupportedError(f"tensor memory holds elements of 1 to 32 bits that divide 32; "
                               f"{abbreviate(t.element)} has {bits}")
    return bits


ASM_SUFFIXES = (".ptx", ".amdgcn")


def assembly(path: str, option: str | None, stdin=None, several: bool = False, ttgir: str | None = None):
    """The compiled assembly of an audited kernel, counted per Python line (parsing.asm.AsmListing), or None: the
    `--asm FILE` given, else NAME.ptx or NAME.amdgcn beside NAME.ttgir (as Triton's cache keeps them). A file of
    several modules takes no assembly (one assembly belongs to one kernel). With the TTGIR's text (`ttgir`), an
    assembly of another kernel (its `.entry` names none of the TTGIR's public functions) is refused (`--asm`) or
    left out (the file beside)."""
    import os
    if option is None:
        if path == "-" or several:
            return None
        base = os.path.splitext(path)[0]
        found = [base + s for s in ASM_SUFFIXES if os.path.isfile(base + s)]
        if not found:
            return None
        file = found[0]
    else:
        if several:
            raise TTLayoutError("--asm: the input holds several modules; give one kernel's TTGIR")
        if option == "-" and path == "-":
            raise TTLayoutError("--asm: standard input already holds the TTGIR")
        file = option
    text = read_text(file, stdin)
    from .parsing.asm import AsmError, read_asm  # here: a kernel without assembly never loads its 14 regexes
    try:
        listing = read_asm(text)                     # the text says which it is, whatever the file is named
    except AsmError as e:
        raise TTLayoutError(f"--asm {abbreviate_path(file)}: {e}") from None
    kernels = kernel_names(ttgir) if ttgir is not None else ()
    if kernels and listing.entries and not set(kernels) & set(listing.entries):
        if option is None:
            return None                               # NAME.ptx beside NAME.ttgir is another kernel's: not used
        raise TTLayoutError(f"--asm {abbreviate_path(file)} is the assembly of {_names(listing.entries)}, not of "
                            f"{_names(kernels)} (the TTGIR's kernel): give that kernel's assembly")
    return listing


def kernel_names(text: str) -> tuple[str, ...]:
    """The public functions (kernels) a TTGIR text defines, in order.

    >>> kernel_names('tt.func public @softmax(%a: i32) {\\n  tt.func private @helper() {')
    ('softmax',)
    """
    return tuple(dict.fromkeys(re.findall(r"tt\.func\s+public\s+@\"?([\w$.\-]+)", text)))


def _names(names) -> str:
    """"kernel 'a'" or "kernels 'a', 'b'"."""
    shown = ", ".join(f"'{abbreviate(n, 40)}'" for n in names[:3]) + (", ..." if len(names) > 3 else "")
    return f"kernel{'s' if len(names) > 1 else ''} {shown}"
