"""`ttlayout -l ATTR -t TYPE` / `ttlayout -i FILE [-t TYPE]`: the tensor or hardware view, byte-identical to
Triton's triton-tensor-layout, including its LLVM-style option spellings (`normalize_argv`). A plain print
command line runs without click (`quick`)."""
from __future__ import annotations

import os
import re
import sys
from functools import partial

from .. import inputs
from ..errors import TTLayoutError, abbreviate, escaped
from ..records import frozen, frozen_slots
from .options import MAX_ELEMENTS, OUTPUT, SECTION, Opt
from .options import quick as quick_params
from .output import write_result

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

_VALUE_OPTS = {"t": "-t", "l": "-l", "i": "-i", "o": "-o", "alias-names": "--alias-names",
               "max-elements": "--max-elements"}
FORMATS = ("text", "json", "svg", "html", "cute")
TMEM_INSTR = "32x32b"

OPTIONS = (
    Opt(("-l",), "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>' (a whole alias "
        "line '#name = <attr> loc(...)' copied from a dump works too), a Gluon constructor, or CuTe text "
        "('((_32,_4),_4):((_4,_128),_1)', 'Swizzle<3,3,3> o (_64,_64):(_64,_1)'; see 'ttlayout help cute')."),
    Opt(("-t",), "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>', or a "
        "'!ttg.memdesc<...>'; an encoding written in it is the layout when -l is not given. Without -t, -i prints "
        "each alias at the shapes the file uses it with."),
    Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin)."),
    OUTPUT,
    Opt(("--alias-names",), "alias_names", "multi", metavar="A,B",
        help="Aliases (with or without '#') to print from the -i file, comma separated; repeatable."),
    SECTION,
    Opt(("--use-hw-view",), "use_hw_view", "flag",
        help="Print the hardware view (per block/warp/register) instead of the tensor view."),
    Opt(("--format",), "fmt", type=FORMATS, default="text", show_default=True,
        help="text: Triton's view, byte for byte; json: the same grid as nested JSON arrays, for scripts; svg: a "
             "picture (cells coloured by warp and lane, or by bank); html: one self-contained interactive page "
             "(hover, click a thread, search, tensor/hardware switch); cute: the layout in CuTe notation, one line "
             "('ttlayout help cute')."),
    Opt(("--json",), "as_json", "flag", help="Same as --format json."),
    Opt(("--color",), "color", type=("auto", "always", "never"), default="auto", show_default=True,
        help="Colour the text view by warp and lane (shared layouts: by bank), replicated cells underlined; auto: "
             "only on a terminal, and not when NO_COLOR is set. The text itself never changes."),
    MAX_ELEMENTS,
    Opt(("--tmem-warps",), "tmem_warps", type=int, metavar="N",
        help="For a tensor memory layout: print instead the register layout tmem_load gives with N warps (a power "
             "of two, at least 4), as Triton's get_tmem_reg_layout computes it."),
    Opt(("--tmem-instr",), "tmem_instr", default=TMEM_INSTR, show_default=True, metavar="SHAPE",
        help="The tcgen05.ld/st message shape for --tmem-warps: 32x32b, 16x64b, 16x128b or 16x256b."),
)


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept triton-tensor-layout's LLVM spellings: -use-hw-view[=bool], -alias-names=a,b, -t=X, --t X."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        m = re.fullmatch(r"--?use-hw-view(?:=(.*))?", arg, re.S)
        if m:
            value = (m.group(1) or "true").lower()
            if value not in ("true", "false", "1", "0"):
                import click
                raise click.UsageError(f"invalid value '{abbreviate(m.group(1))}' for -use-hw-view (expected true or "
                                       "false)")
            out += ["--use-hw-view"] if value in ("true", "1") else []
            continue
        m = re.fullmatch(r"--?(t|l|i|o|alias-names|max-elements)(?:=(.*))?", arg, re.S)
        if not m:
            out.append(arg)
            continue
        out.append(_VALUE_OPTS[m.group(1)])
        if m.group(2) is not None:
            out.append(m.group(2))
        else:
            nxt = next(args, None)
            out += [nxt] if nxt is not None else []
    return out


def quick(argv: list[str]) -> dict | None:
    """The parameters of a plain print command line, in any of triton-tensor-layout's spellings; None where click
    must read it (`options.quick`).

    >>> quick(["-l", "#a", "-t=tensor<4xf16>", "-use-hw-view"])["tensor_type"]
    'tensor<4xf16>'
    >>> quick(["-l", "#a", "-t", "x", "--color", "sometimes"]) is None
    True
    """
    try:
        args = normalize_argv(argv)
    except Exception:
        return None
    return quick_params(args, OPTIONS) if args else None


@frozen
class Request:
    """One print command line."""
    layout: str | None = None
    tensor_type: str | None = None
    input_file: str | None = None
    output: str | None = None
    alias_names: tuple[str, ...] = ()
    section: str | None = None
    use_hw_view: bool = False
    fmt: str = "text"
    as_json: bool = False
    color: str = "auto"
    max_elements: int = inputs.DEFAULT_MAX_ELEMENTS
    tmem_warps: int | None = None
    tmem_instr: str = TMEM_INSTR


def run(ctx: Context, given: Request) -> int:
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    The command name may be left out: 'ttlayout -l ATTR -t TYPE' is 'ttlayout print -l ATTR -t TYPE'."""
    layout, tensor_type, input_file, output = given.layout, given.tensor_type, given.input_file, given.output
    alias_names, section, max_elements = given.alias_names, given.section, given.max_elements
    fmt, as_json, use_hw_view, tmem_warps, tmem_instr = (given.fmt, given.as_json, given.use_hw_view,
                                                         given.tmem_warps, given.tmem_instr)
    if not layout and not input_file and not tensor_type:
        raise TTLayoutError("nothing to do: give -l ATTR (or -i FILE) and -t TYPE; see 'ttlayout --help'")
    if alias_names and not input_file:
        raise TTLayoutError("--alias-names picks aliases of an -i FILE, but no -i was given")
    if section is not None and not input_file:
        raise TTLayoutError("--section picks a section of an -i FILE, but no -i was given")
    failures: list[str] = []
    if input_file and not tensor_type and not layout:
        jobs = _file_uses(ctx, input_file, inputs.split_names(alias_names), section, failures)
    else:
        jobs = _jobs(ctx, layout, tensor_type, input_file, alias_names, section, max_elements)
    _check_tmem_instr(tmem_warps, tmem_instr)
    jobs = _of_rank(ctx, jobs)
    as_json = as_json or fmt == "json"
    _check_tmem_warps(jobs, tmem_warps)
    convert = partial(_convert, max_elements=max_elements, tmem_warps=tmem_warps, tmem_instr=tmem_instr,
                      failures=failures, release=_release())
    if fmt in ("svg", "html") and not as_json:                 # one picture of every layout: drawn whole
        shown = [item for item in map(convert, jobs) if item is not None]
        pictures: dict = {fmt: partial(_picture, fmt, shown, use_hw_view)}
    elif fmt == "cute" and not as_json:
        lines = _ahead(jobs, lambda job: _cute_line(convert(job), failures))
        pictures = {"cute": lambda write: _stream(ctx, (line.encode() for line in lines if line), write)}
    else:
        pictures = {}
    shown_each = _ahead(jobs, convert) if as_json or fmt == "text" else iter(())
    note = fmt == "text" and not as_json
    system = _color_system(given.color, output) if not as_json and fmt == "text" else None
    write_result(ctx, output, lambda write: _text(ctx, shown_each, use_hw_view, system, tmem_warps, tmem_instr,
                                                  note, write),
                 lambda write: _json(ctx, shown_each, _json_listed(jobs), use_hw_view, write), fmt, as_json,
                 pictures)
    return _report_failures(ctx, failures)


def _ahead(jobs: list, make):
    """make(job) of every job, in order, made as it is consumed (a file's thousands of aliases are printed one by
    one, none held). The layouts named on the command line (-l, --alias-names, a -t encoding: a few) are made
    now, and a file's aliases at the shape -t gives are made once now and again when written: an error in any of
    them stops the run before anything is written, as one error line (only an alias printed at the file's own
    shapes, -i without -t, is skipped and named instead). None results are dropped."""
    early = {}
    for i, job in enumerate(jobs):
        if not job.listed:
            early[i] = make(job)
        elif not job.per_shape:
            make(job)                                # checked, not kept: memory stays that of one alias

    def each():
        for i, job in enumerate(jobs):
            item = early.pop(i) if i in early else make(job)
            if item is not None:
                yield item
    return each()


def _stream(ctx: Context, pieces, write) -> None:
    """Write each piece and hand it to the reader at once (standard output's buffer flushed): the first alias of a
    long file is read while the next ones are made."""
    for piece in pieces:
        write(piece)
        ctx.sink.flush()


def _cute_line(converted, failures: list) -> str | None:
    """--format cute: one layout's CuTe text on one line (an alias's prefixed `#name = `, with where the file uses
    it as in the text view's header); a layout without a CuTe form is the error line saying why (for -i without
    -t: reported in `failures` and None, the others still print)."""
    if converted is None:
        return None
    from ..analysis.cute import cute_form, cute_input, cute_text
    from ..analysis.info import mnemonic
    job, shown = converted
    try:
        text = cute_text(shown.linear, mnemonic(job.attr), shown.padding is not None)
        text = cute_input(cute_form(shown.linear, mnemonic(job.attr)), job.shape) or text
    except TTLayoutError as e:
        if not job.per_shape:
            raise TTLayoutError(f"#{job.name}: {e}" if job.name is not None else str(e)) from None
        failures.append(f"#{job.name} at {job.type_text}: {e}")
        return None
    head = f"#{job.name} = " if job.name is not None else ""
    tail = f" at {job.type_text} (line {job.line})" if job.per_shape else ""
    return f"{head}{text}{tail}\n"


def _of_rank(ctx: Context, jobs: list) -> list:
    """-i FILE -t TYPE: the file's aliases whose rank is the tensor's; each other one is named, with its rank, in a
    note on stderr (a lit file mixes ranks). Nothing left is an error naming them; a layout named on the command
    line is never skipped (its rank error stays an error)."""
    def fits(job) -> bool:
        rank = getattr(job.attr, "rank", None)
        return not job.listed or job.per_shape or not isinstance(rank, int) or rank == len(job.shape)
    kept = [job for job in jobs if fits(job)]
    skipped = [job for job in jobs if not fits(job)]
    if not skipped:
        return jobs
    rank = len(skipped[0].shape)
    if not kept:
        names = _listed([f"#{job.name} (rank {job.attr.rank})" for job in skipped])
        raise TTLayoutError(f"no layout alias of the -i file has the rank {rank} of -t: {names}")
    for job in skipped:
        ctx.note(f"#{job.name} skipped: its rank is {job.attr.rank}, -t's is {rank}")
    return kept


def _note_lanes(ctx: Context, job, shown) -> None:
    """A stderr note where a layout's lanes per warp match no target (threadsPerWarp = [2, 8]: 16 lanes), under
    the text view (the one a person reads), said as the layout is printed; the view itself prints as Triton
    prints it."""
    from .hardware import lanes_note
    if shown.view == "triton" and shown.linear.has_in_dim("lane"):
        said = lanes_note(shown.linear.get_in_dim_size("lane"))
        if said is not None:
            ctx.note((f"#{job.name}: " if job.name is not None else "") + said)


def _convert(job, max_elements: int, tmem_warps, tmem_instr: str, failures: list, release):
    """(job, what print shows for it); a job found through the file's own types that fails is reported in
    `failures` (None: the others still print), any other's error is raised."""
    try:
        attr = job.attr
        if release is not None:
            from ..attributes.releases import check, modelled_attr
            check(attr, job.shape, release)
            attr = modelled_attr(attr, release, partial(inputs.element_bitwidth, job.element))
        return job, inputs.printed(attr, inputs.Tensor(job.shape, job.element), max_elements, tmem_warps,
                                   tmem_instr)
    except TTLayoutError as e:
        if not job.per_shape:
            raise
        failures.append(f"#{job.name} at {job.type_text}: {e}")
        return None


def _release():
    """The release of --triton (attributes.releases.Release), None for Triton 3.9."""
    from .. import attributes
    return attributes.active_release


def _header(attr) -> str:
    """The attribute as the header line of the release modelled writes it."""
    release = _release()
    if release is None:
        return str(attr)
    from ..attributes.releases import spelled
    return spelled(attr, release)


def _text(ctx: Context, converted, use_hw_view: bool, system, tmem_warps, tmem_instr: str, note: bool,
          write) -> None:
    """Triton's views, byte for byte (coloured by `system` where one is given), each handed to the reader as soon
    as it is written."""
    from ..render import render_layout
    for job, shown in converted:
        if note:
            _note_lanes(ctx, job, shown)
        head = f"#{job.name} = " if job.name is not None else ""
        tail = f" at {escaped(job.type_text)} (line {job.line})" if job.per_shape else ""
        write(f"Print layout attribute: {head}{_header(job.attr)}{tail}\n".encode())
        if shown.tmem_load:
            write(f"tmem_load register layout ({tmem_warps} warps, {tmem_instr}): {shown.tmem_load}\n".encode())
        if shown.view != "triton":
            _render_memory(shown, use_hw_view, write)
        elif system is None:
            render_layout(shown.linear, use_hw_view, write)
        else:
            from ..render.color import colored_writer
            colored = colored_writer(shown.linear, use_hw_view, job.element_bits, write, system)
            render_layout(shown.linear, use_hw_view, colored)
            colored.close()
        if job.blank:
            write(b"\n")
        ctx.sink.flush()


def _json_listed(jobs: list) -> bool:
    """Whether the JSON is `{"layouts": [...]}` (a file's aliases, or several layouts) rather than one grid."""
    return len(jobs) != 1 or any(job.listed for job in jobs)


def _json(ctx: Context, converted, listed: bool, use_hw_view: bool, write) -> None:
    """One JSON document (--json, --format json): the layout's grid object for one layout named on the command
    line (-l, a -t encoding, one --alias-names entry); `{"layouts": [grid, ...]}` for a file's aliases (-i alone,
    -i -t) or several layouts, however many the file holds, so that a script reads one shape of document. Each
    grid is handed to the reader as soon as it is written: the opening, each layout, the closing."""
    from ..render.json_view import render_json
    if listed:
        write(b'{"layouts": [\n')
    for i, (job, shown) in enumerate(converted):
        if listed and i:
            write(b",\n")
        header = {"layout": _header(job.attr), "alias": job.name, "shape": list(job.shape),
                  "view": "hardware" if use_hw_view else "tensor", "kind": job.attr.kind or "distributed"}
        if job.per_shape:
            header["line"] = job.line
        if shown.tmem_load:
            header["tmem_load"] = shown.tmem_load
        if shown.view == "tensor_memory":
            from ..render.memory_json import tensor_memory_json
            tensor_memory_json(shown.linear, shown.element_bits, use_hw_view, dict(header, kind="tensor_memory"),
                               write)
        elif shown.view == "shared_memory":
            from ..render.memory_json import shared_memory_json
            shared_memory_json(shown.linear, shown.padding, use_hw_view, header, write)
        else:
            render_json(shown.linear, use_hw_view, header, write)
        ctx.sink.flush()
    if listed:
        write(b"]}\n")


def _render_memory(shown, use_hw_view: bool, write) -> None:
    from ..render import memory
    if shown.view == "tensor_memory":
        view = memory.tmem_hardware_view if use_hw_view else memory.tmem_tensor_view
        view(shown.linear, shown.element_bits, write)
    else:
        shared_view = memory.shared_hardware_view if use_hw_view else memory.shared_tensor_view
        shared_view(shown.linear, shown.padding, write)


def _check_tmem_instr(tmem_warps, tmem_instr: str) -> None:
    if tmem_warps is None and tmem_instr == TMEM_INSTR:
        return
    from ..conversions.tmem_registers import ATOMS
    if tmem_instr not in ATOMS:
        raise TTLayoutError(f"unknown --tmem-instr '{abbreviate(tmem_instr)}' (expected {', '.join(ATOMS)})")
    if tmem_warps is None and tmem_instr != "32x32b":
        raise TTLayoutError("--tmem-instr needs --tmem-warps N")


def _check_tmem_warps(jobs: list, tmem_warps) -> None:
    """--tmem-warps needs a tensor memory layout among those printed."""
    if tmem_warps is None:
        return
    from ..attributes import encodings as enc
    if not any(isinstance(job.attr, (enc.TensorMemoryEncoding, enc.TensorMemoryScalesEncoding)) for job in jobs):
        raise TTLayoutError("--tmem-warps applies to tensor memory layouts (#ttng.tensor_memory_encoding, "
                            "#ttng.tensor_memory_scales_encoding) only")


def _report_failures(ctx, failures) -> int:
    """The aliases that could not be printed, one error line each, and exit status 1 (the others printed)."""
    for message in failures:
        ctx.stderr.write(ctx.error_line(message) + "\n")
    return 1 if failures else 0


def _color_system(mode: str, output):
    """rich's colour system for the text view, or None for plain text. auto: standard output is a terminal,
    NO_COLOR is unset or empty and TERM is not 'dumb'; checked before rich is imported."""
    if mode == "never":
        return None
    if mode == "auto":
        if output not in (None, "-") or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
            return None
        try:
            if sys.stdout is None or not sys.stdout.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    from ..render.color import color_system
    return color_system(mode == "always")


def _picture(fmt: str, converted, use_hw_view: bool, write) -> None:
    """--format svg / html: every layout of the command line in one picture (or one page)."""
    layouts = [((f"#{job.name} = " if job.name is not None else "") + str(job.attr)
                + (f" at {job.type_text}" if job.per_shape else ""), shown) for job, shown in converted]
    bits = [job.element_bits for job, _ in converted]
    if fmt == "svg":
        from ..render.picture import render_svg
        render_svg(layouts, use_hw_view, bits, write)
    else:
        from ..render.html import render_html
        render_html(layouts, use_hw_view, bits, write)


@frozen_slots
class Job:
    """One layout to print at one shape (slotted: a file's 100,000 aliases make as many)."""
    name: str | None                 # alias name, None for -l
    attr: object
    shape: tuple[int, ...]
    blank: bool = False              # a blank line after it (Triton does so for --alias-names)
    per_shape: bool = False          # found through the file's own types (-i without -t)
    type_text: str = ""
    line: int = 0
    element: str = "f16"

    @property
    def listed(self) -> bool:
        """Found by listing a file's aliases (-i with no --alias-names), not named on the command line."""
        return self.per_shape or (self.name is not None and not self.blank)

    @property
    def element_bits(self) -> int:
        """The element width shared-memory banks need (16 where it cannot be told)."""
        try:
            return inputs.element_bitwidth(self.element)
        except TTLayoutError:
            return 16


def _jobs(ctx, layout, tensor_type, input_file, alias_names, section, max_elements) -> list[Job]:
    """-l and/or -i with -t (or a -t whose encoding is the layout): every layout at the one shape, as
    triton-tensor-layout does; a file of several sections gives the aliases of the one `inputs.dump` picks."""
    t = inputs.tensor(tensor_type, max_elements)
    shape, element = t.shape, t.element
    if not layout and not input_file and t.encoding is None:
        raise TTLayoutError("nothing to print: -t gives the shape, but no layout was given (-l ATTR, -i FILE, or an "
                            "encoding in -t such as tensor<16x16xf16, #ttg.blocked<...>>)")
    cute = inputs.looks_like_cute(layout)
    names = inputs.split_names(alias_names)
    dump = None
    if input_file:                                 # (commands/layouts loads only with a file: start-up)
        from .layouts import wanted_aliases
        dump = inputs.dump(input_file, ctx.stdin, wanted_aliases([layout], alias_names, tensor_type), section)
    table = dump.aliases if dump else None
    inline = inputs.inline_layout(t, table, required=not layout and not names)
    if dump is not None and dump.note and (names or inline is not None or layout):
        ctx.note(dump.note)                       # every layout of every section prints otherwise
    jobs = []
    if names:
        jobs += [Job(name[1:] if name.startswith("#") else name, inputs.named(table, name, dump.scope if dump else
                                                                              "the file"), shape, True,
                     element=element) for name in names]
    elif inline is not None and not layout:
        jobs.append(Job(inline[0], inline[1], shape, inline[0] is not None, element=element))
    elif dump is not None:                         # (-i was given)
        jobs += [Job(d.name, d.attr, shape, element=element) for d in dump.layouts]
        if not jobs and not layout:
            where = "standard input" if input_file == "-" else abbreviate(input_file)
            where = where if dump.section is None else f"{dump.scope} of {where}"
            raise TTLayoutError(f"{where} holds no layout alias ('#name = #ttg.<layout><...>'); nothing to print")
    if layout:
        lanes = inputs.DEFAULT_LANES
        if cute:
            from .layouts import warp_lanes
            lanes = warp_lanes(None, dump.targets if dump else ())
        attr = inputs.attribute(layout, table, shape=shape, lanes=lanes)
        if inline is not None:
            inputs.check_same_layout(attr, inline[1], shape=shape if cute else None)
        jobs.append(Job(None, attr, shape, element=element))
    return jobs


def _file_uses(ctx, input_file, names, section, failures) -> list[Job]:
    """-i without -t: every layout alias at each shape the file's tensor and memdesc types use it with, in the
    order of first use; an alias that cannot be read is reported (in `failures`) and the others still print. An
    alias used only inside other layouts (a dot_op's or a slice's parent) prints where it is named, at the shape of
    its user; unnamed, a note says it was left out. Every section of a lit file is read, one section of a dump
    (`inputs.dump`'s choice) or the one --section names."""
    text = inputs.read_text(input_file, ctx.stdin)
    inputs.check_ttgir(input_file, text)
    only, told = inputs.sections_to_read(input_file, text, names, section)
    if told:
        ctx.note(told)
    wanted = {n.lstrip("#") for n in names}
    seen: set[tuple] = set()
    jobs: list[Job] = []
    inner: dict = {}
    numbers: dict = {}
    for m in inputs.modules(text, only):
        numbers[id(m)] = m.section.number if m.section is not None else 0
        by_text: dict = {}                           # a layout's text -> the alias defining it (the first one)
        for d in m.aliases.table.layouts():
            by_text.setdefault(str(d.attr), d.name)
        for op in m.ops:
            for text in op.operand_types + op.result_types:
                vt = m.value_type(text)
                name = vt.encoding_text[1:] if vt.encoding_text.startswith("#") else ""
                if vt.encoding is not None and vt.shape:
                    _parents_of(id(m), by_text, vt, op.line, inner)
                if not name or name not in m.aliases or not vt.shape or (wanted and name not in wanted):
                    continue
                key = (id(m), name, vt.shape)
                if key in seen:
                    continue
                seen.add(key)
                attr = m.aliases[name]
                if isinstance(attr, Exception):
                    if (id(m), name) not in seen:
                        seen.add((id(m), name))
                        failures.append(f"#{name}: {attr}")
                    continue
                if getattr(attr, "kind", None) is None:
                    continue
                jobs.append(_use(name, attr, vt.shape, vt, op.line))
    used = {(key[0], key[1]) for key in seen if len(key) == 3}
    only_inside = {k: v for k, v in inner.items() if (k[0], k[1]) not in used}
    for (_, name), uses in only_inside.items():
        if name in wanted:
            jobs += [_use(name, attr, shape, vt, line) for attr, shape, vt, line in uses]
    skipped = list(dict.fromkeys(name for _, name in only_inside if name not in wanted))
    if skipped and not wanted:
        where = [f"#{name}" + (f" (section {numbers[mid]})" if len(numbers) > 1 else "") for mid, name in only_inside]
        ctx.note(f"{_listed(where)} {'is' if len(where) == 1 else 'are'} used only inside other layouts (as a dot_op "
                 f"or slice parent) and not printed; print {'it' if len(where) == 1 else 'them'} with --alias-names "
                 f"{','.join(skipped[:4])}")
    if not jobs and not failures:
        source = "standard input" if input_file == "-" else abbreviate(input_file)
        what = f" named {', '.join(sorted(wanted))}" if wanted else ""
        raise TTLayoutError(f"{source} uses no layout alias{what} in a tensor or memdesc type; give -t TYPE to print "
                            "its aliases at one shape")
    return jobs


def _listed(items: list[str]) -> str:
    """'#a, #b and 3 more'."""
    return ", ".join(items[:4]) + (f" and {len(items) - 4} more" if len(items) > 4 else "")


def _use(name: str, attr, shape, vt, line: int) -> Job:
    """The job printing alias `name` at the shape one of the file's types uses it with."""
    shape_text = "x".join(map(str, shape))
    kind = "tensor" if vt.kind == "tensor" else "!ttg.memdesc"
    return Job(name, attr, tuple(shape), per_shape=True, line=line, element=vt.element,
               type_text=f"{kind}<{shape_text}x{vt.element}>")


def _parents_of(module_id: int, by_text: dict, vt, line: int, inner: dict) -> None:
    """Record each layout alias (`by_text`: a layout's text -> its alias) that a type's layout holds as a parent
    (a dot_op's parent at the type's shape, a slice's parent at that shape with the sliced dimension 1), under
    (module_id, name), once per shape, with the line that uses it."""
    from ..attributes.encodings import DotOperandEncoding, SliceEncoding
    enc, shape = vt.encoding, tuple(vt.shape)
    while isinstance(enc, (DotOperandEncoding, SliceEncoding)):
        if isinstance(enc, SliceEncoding):
            shape = shape[:enc.dim] + (1,) + shape[enc.dim:]
        enc = enc.parent
        name = by_text.get(str(enc))
        if name is None:
            continue
        uses = inner.setdefault((module_id, name), [])
        if all(u[1] != shape for u in uses):
            uses.append((enc, shape, vt, line))
