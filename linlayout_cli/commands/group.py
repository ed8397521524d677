"""The click group `ttlayout`: each command built from its module's declared options (`click_command`), dispatch
(the print command when none is named, "did you mean" for a mistyped name), the help of the whole tool and its
topics, and --version. Help goes to standard output through the process's writer, like every other output, so a
full disk or a closed stdout is one error line."""
from __future__ import annotations

import click

from ..errors import TTLayoutError, abbreviate
from ..resources import VERSION as __version__
from . import COMMANDS, CONTEXT, PRINT, SUBCOMMANDS, TOPICS, did_you_mean, load, unknown_command

NOTATION = """\
Notation (the views Triton prints):
  T4:1          thread 4 (lane + warp x lanes per warp), register 1
  B1:T4:1       the same in CTA (block) 1, when the layout spans several CTAs
  T0:0|T32:0    every thread holding a replicated element
  [[ ... ]]     tensor view: one line per run of the last dimension, nested like the tensor
  Warp1: (0,8)  hardware view: per block, warp and register, the element each lane holds
  ( 0: 8)       shared tensor view: the element stored at that position's offset (coordinates joined by ':')
  Offset: 5 -> (1,0)
                shared hardware view: the element stored at offset 5

Notation of the reports (info, lookup, convert, bank, swizzle, diff):
  dim0 128      lane 4 · warp 4 · register 8
                how the index bits of dim0 (128 = 7 bits) come from the hardware, from low to high:
                bits 0-1 from 2 lane bits (lane 4 = 2^2 values), bits 2-3 from warp bits, bits 4-6
                from register bits; shared layouts say offset (offset 64: 6 offset bits); (not
                spread): no bit steps it
  ...; mixed with another dim: lane 4
                the input whose index is 4 (lane 4 = lane bit 2) moves this dim and another one at
                once (a swizzle): its basis has two non-zero coordinates
  lane = [[0, 2], [1, 0]]
                bases: input bit i of lane (lane 1, 2, 4, ...) steps the element by the i-th basis;
                an index holds the XOR of the bases of its set bits (Triton's LinearLayout); [0, 0]:
                a copy
  lane l holds what lane l ^ 4 holds
                replication: lanes differing in bit 2 hold the same elements
  v4, st.shared.v4.b32
                a vector of 4 elements (or 32-bit words) per lane per shared-memory instruction
  conflicts     bank conflicts in Triton's unit, 2^k - 1 extra wavefronts per wavefront; wavefronts:
                the passes one instruction takes (ttlayout help bank-model)
  dst lane bit 2 <- src warp bit 0
                convert: what destination lane bit 2 selects, source warp bit 0 selected (dst^-1 o
                src): elements move between warps, so through shared memory
  4 x 32-bit, 0 conflict(s)
                swizzle: the vector each lane writes (or reads) and its conflicts; n/a (TMA reads):
                the TMA engine or wgmma reads the tile, no thread layout
  ttgl.BlockedLayout(...)
                the same layout as Gluon code (info, swizzle, convert), checked with Triton's Gluon
  A, B / A / B  diff: a row the same in both layouts / A's / B's
  register 4: (0, 32) -> (32, 0)
                diff: register 4 (register bit 2) steps element (0, 32) in A and (32, 0) in B;
                (no such bit): that layout has fewer bits of that input
  offset 64: (1, 0) in A, (1, 8) in B
                diff of shared layouts: offset 64 holds element (1, 0) in A and (1, 8) in B
  ... and 12 more
                a list that stops says how many it left out (--json lists them all unless the line
                says otherwise)

Notation of the audit table (ttlayout help audit-model):
  waste  cost   cost: weighted cost per thread, the unit advise ranks by (wavefront 1, shuffle 1,
                barrier 8, global instruction 1 + sector 2 / load line 1; x8 inside a loop); waste:
                cost above the op's ideal (0: as cheap as the model can make it); most waste first
  #blocked, L1  layouts by the dump's alias; L1, L2, ...: a layout written inline; the layouts
                line below the table gives each in full
  8x16b x4, cap; sectors 16/16
                global access: 8 elements of 16 bits per instruction, 4 instructions per thread,
                limited by the 128-bit cap (mask, divisibility, contiguity: the pointers' facts,
                layout; +2: two more limits bind); 16 sectors of 32 bytes per warp access where 16
                would do
  st.shared.v4.b32, regs; 0 conflicts
                shared access: the instruction, what limits its vector (cap, regs: the register
                layout's contiguous registers, swizzle: the shared layout), Triton's conflicts
  smem 32768 B, conflicts 0/0
                convert through shared memory: scratch bytes, store/load conflicts
  4 warps: 5 shuffles + smem
                reduction across 4 warps: 5 shuffle rounds, then shared memory and a barrier
  --wide, --json, --line N
                the long verdicts; every field; one op's full convert or bank report"""

CUTE_NOTATION = """\
CuTe notation ('ttlayout help cute'): info's cute line, --format cute, and CuTe text in -l/-r/-d/-s with -t:
  ((_32,_4),(_4,_2)):((_4,_128),(_1,_512))
                (thread, value) -> row-major element index: thread = lane + warp x lanes
  Swizzle<3,3,3> o (_64,_64):(_64,_1)
                shared: element (i, j) -> offset, then CuTe's swizzle"""

DOCS = {"bank-model": "bank_model.md", "cute": "cute.md", "audit-model": "audit_model.md"}   # docs/ topics

EXAMPLES = """\
Examples:
  ttlayout -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>' -t 'tensor<16x16xf16>'
  ttlayout info -l '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>' -t 'tensor<128x256xf16>'"""


class _Option(click.Option):
    """A click option whose `legacy` spellings are accepted but left out of the help."""

    def __init__(self, *args, legacy=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.legacy = legacy

    def get_help_record(self, ctx):
        shown = self.opts
        self.opts = [o for o in shown if o not in self.legacy]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = shown


def click_option(opt):
    """The click option of one declared `options.Opt`. A single-value option given twice is an error, not a
    silent last-one-wins."""
    kind = click.Choice(list(opt.type)) if isinstance(opt.type, tuple) else (
        click.IntRange(min=opt.minimum) if opt.type is int and opt.minimum is not None else opt.type)
    common = {"metavar": opt.metavar, "help": opt.help, "show_default": opt.show_default, "cls": _Option,
              "legacy": opt.legacy}
    if opt.kind == "flag":
        return click.option(*opt.decls, opt.name, is_flag=True, help=opt.help)
    if opt.kind == "multi":
        return click.option(*opt.decls, opt.name, multiple=True, type=kind, **common)
    from ..inputs import once
    return click.option(*opt.decls, opt.name, multiple=True, type=kind, default=(
        () if opt.default is None else (opt.default,)),
        callback=lambda _ctx, param, values: once(values, param.opts[0]), **common)


def _show_help(ctx, _param, value) -> None:
    if value and not ctx.resilient_parsing:
        ctx.obj.stdout((ctx.get_help() + "\n").encode())
        ctx.exit()


class _HelpThroughWriter:
    """-h / --help written through the process's stdout writer (click's own echoes to sys.stdout, where a full
    disk is a traceback and a closed stdout a silent success)."""

    def get_help_option(self, ctx):
        if getattr(self, "_written_help", None) is None:
            self._written_help = click.Option(["-h", "--help"], is_flag=True, expose_value=False, is_eager=True,
                                              callback=_show_help, help="Show this message and exit.")
        return self._written_help


class _Command(_HelpThroughWriter, click.Command):
    pass


_BUILT: dict = {}


def click_command(name: str):
    """The click command of a command module: its OPTIONS (and ARGUMENTS), and `run` as the callback, whose
    docstring is the help; a non-zero status `run` returns becomes the exit status."""
    if name in _BUILT:
        return _BUILT[name]
    module = load(name)

    def callback(**params):
        code = module.run(click.get_current_context().obj, module.Request(**params))
        if code:
            raise click.exceptions.Exit(code)
    f = callback
    for opt in reversed(module.OPTIONS):
        f = click_option(opt)(f)
    for arg in reversed(getattr(module, "ARGUMENTS", ())):
        f = click.argument(arg.name, metavar=arg.metavar, required=arg.required, nargs=-1 if arg.many else 1)(f)
    if name == PRINT:
        f = click.version_option(__version__, "--version", prog_name="ttlayout")(f)
    _BUILT[name] = click.command(name, cls=_Command, context_settings=CONTEXT, help=inspect_doc(module.run))(f)
    return _BUILT[name]


def inspect_doc(run) -> str:
    """The help text of a command: its run function's docstring, without the indentation."""
    import inspect
    return inspect.cleandoc(run.__doc__ or "")


class TTLayout(_HelpThroughWriter, click.Group):
    """Dispatches to a subcommand, or to the print command when the first argument is not a command name."""

    def list_commands(self, ctx):
        return [*SUBCOMMANDS, PRINT, "help"]

    def get_command(self, ctx, name):
        if name == "help":
            return help_command
        if name in COMMANDS:
            return click_command(name)
        return None

    def parse_args(self, ctx, args):
        if args and args[0] not in self.list_commands(ctx) and args[0] not in ("-h", "--help", "--version"):
            unknown = unknown_command(args[0])
            if unknown is not None and not ctx.resilient_parsing:
                raise TTLayoutError(unknown)
            from .print import normalize_argv
            args = [PRINT, *normalize_argv(args)]
        elif not args and not ctx.resilient_parsing:     # completion of the first word lists the commands
            args = [PRINT]
        return super().parse_args(ctx, args)

    def format_help(self, ctx, formatter):
        formatter.write("Usage: ttlayout (-l ATTR | -i FILE) -t TYPE [OPTIONS]     print a layout\n"
                        "       ttlayout COMMAND [ARGS]...                        see 'ttlayout help COMMAND'\n")
        formatter.write_paragraph()
        formatter.write_text("Which GPU thread and register holds each element of a Triton tensor, printed exactly "
                             "like Triton 3.9's triton-tensor-layout, and what layouts cost: conversions, bank "
                             "conflicts, whole kernels.")
        for block in (NOTATION, EXAMPLES):
            formatter.write_paragraph()
            for line in block.split("\n"):
                formatter.write(line + "\n")
        print_cmd = click_command(PRINT)
        with click.Context(print_cmd, info_name="ttlayout", parent=None) as print_ctx:
            rows = [r for p in print_cmd.get_params(print_ctx) if (r := p.get_help_record(print_ctx))]
        formatter.write_paragraph()
        with formatter.section("Print options (no COMMAND)"):
            formatter.write_dl(rows)
        with formatter.section("Commands"):
            formatter.write_dl([(name, _summary(name)) for name in self.list_commands(ctx)])


def _summary(name: str) -> str:
    """A command's line in --help, from the registry: no command module is imported for it."""
    if name == "help":
        return "Help on a command or topic (" + ", ".join(TOPICS) + ")."
    return COMMANDS[name].summary


@click.command("help", cls=_Command, context_settings=CONTEXT)
@click.argument("topic", required=False, metavar="[COMMAND|TOPIC]")
def help_command(topic):
    """Help on the whole tool, one command, or a topic (notation, cute, bank-model, audit-model, releases)."""
    ctx = click.get_current_context()
    group = ctx.parent.command
    if topic is None:
        text = group.get_help(ctx.parent)
    elif topic == "notation":
        text = NOTATION + "\n\n" + CUTE_NOTATION
    elif topic == "releases":
        from ..attributes.releases import help_text
        text = help_text()
    elif topic in DOCS:
        from ..resources import data_text
        text = data_text("docs", DOCS[topic]).rstrip("\n")
    else:
        command = group.get_command(ctx, topic)
        if command is None:
            names = group.list_commands(ctx)
            raise click.UsageError(f"no command or topic '{abbreviate(topic, 40)}'{did_you_mean(topic, [*names, *TOPICS])}"
                                   f"; commands: {', '.join(names)}; topics: {', '.join(TOPICS)}")
        with click.Context(command, info_name=topic, parent=ctx.parent) as sub:
            text = command.get_help(sub)
    ctx.obj.stdout((text + "\n").encode())


group = TTLayout("ttlayout", context_settings=CONTEXT, params=[
    click.Option(["--version"], is_flag=True, expose_value=False, is_eager=True, help="Show the version and exit.",
                 callback=lambda ctx, _param, value: _version(ctx) if value else None)])


def _version(ctx) -> None:
    ctx.obj.stdout(f"ttlayout, version {__version__}\n".encode())
    ctx.exit()
