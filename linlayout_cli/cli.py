"""ttlayout command line: the triton-tensor-layout interface (-l/-t/-i/-o/-alias-names/-use-hw-view) plus analysis
subcommands. Every failure is one stderr line and exit 1; output is written only once every layout converted."""
from __future__ import annotations

import io
import os
import re
import sys
import tempfile

import click

from . import __version__
from .errors import ShapeError, TTLayoutError, UnsupportedError

DEFAULT_MAX_ELEMENTS = 1 << 26        # about 1 GB of tensor-view text at ~16 bytes per element
HARD_MAX_ELEMENTS = 1 << 31
MAX_MESSAGE = 300
SUBCOMMANDS = ("bank", "swizzle")

_VALUE_OPTS = {"t": "-t", "l": "-l", "i": "-i", "o": "-o", "alias-names": "--alias-names",
               "max-elements": "--max-elements"}


def normalize_argv(argv: list[str]) -> list[str]:
    """Accept triton-tensor-layout's LLVM spellings: -use-hw-view[=bool], -alias-names=a,b, -t=X, --t X."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        m = re.fullmatch(r"--?use-hw-view(?:=(.*))?", arg, re.S)
        if m:
            value = (m.group(1) or "true").lower()
            if value not in ("true", "false", "1", "0"):
                raise click.UsageError(f"invalid value '{abbreviate(m.group(1))}' for -use-hw-view (expected true or false)")
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


def one_line(message: str) -> str:
    text = " ".join(str(message).split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def abbreviate(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>'.")
@click.option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required).")
@click.option("-i", "input_file", metavar="FILE", help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@click.option("-o", "output", metavar="FILE", help="Write the output to FILE (atomically) instead of stdout.")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (no '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--max-elements", type=int, default=DEFAULT_MAX_ELEMENTS, show_default=True,
              help="Refuse tensors (or hardware index spaces) larger than this; raise it for huge dumps.")
@click.version_option(__version__, "--version", prog_name="ttlayout")
def print_command(layout, tensor_type, input_file, output, alias_names, use_hw_view, max_elements):
    """Print which thread/register (or shared-memory offset) holds each tensor element, exactly like Triton's
    triton-tensor-layout. Single-dash spellings (-use-hw-view, -alias-names=a,b) work too.

    Subcommands: 'ttlayout bank --help', 'ttlayout swizzle --help'."""
    ctx = click.get_current_context()
    stdin, sink = ctx.obj["stdin"], ctx.obj["sink"]
    if not tensor_type:
        if not layout and not input_file:
            raise TTLayoutError("nothing to do: give -l ATTR (or -i FILE) and -t TYPE; see 'ttlayout --help'")
        raise TTLayoutError("missing -t: specify the tensor type, e.g. -t 'tensor<16x16xf16>'")
    from .parser import parse_attribute, parse_mlir_file, parse_tensor_type
    shape = tensor_shape(parse_tensor_type(tensor_type), tensor_type, max_elements)
    names = [n for group in alias_names for n in group.split(",") if n]
    jobs = []                                    # (header, layout, trailing blank line)
    if input_file:
        text = read_input(input_file, stdin)
        defs = parse_mlir_file(text)
        if names:
            by_name = {d.name: d for d in defs}
            for name in names:
                if name not in by_name:
                    raise TTLayoutError(f"Can't find the layout attribute: {name}")
                jobs.append((f"#{name} = ", by_name[name].attr, True))
        else:
            jobs += [(f"#{d.name} = ", d.attr, False) for d in defs if getattr(d.attr, "kind", None)]
    if layout:
        jobs.append(("", parse_attribute(layout), False))
    converted = [(head + str(attr), convert(attr, shape, max_elements), blank) for head, attr, blank in jobs]
    with sink(output) as write:
        from .render import render_layout
        for header, linear, blank in converted:
            write(f"Print layout attribute: {header}\n".encode())
            render_layout(linear, use_hw_view, write)
            if blank:
                write(b"\n")


def tensor_shape(ttype, text: str, max_elements: int) -> list[int]:
    if ttype.shape is None:
        raise ShapeError(f"unranked tensor type {abbreviate(text)} has no shape to lay out; give e.g. tensor<16x16xf16>")
    if not ttype.shape:
        raise ShapeError(f"rank-0 tensor type {abbreviate(text)} has no dimension to lay out")
    for s in ttype.shape:
        if s < 0:
            raise ShapeError(f"dynamic dimension '?' in {abbreviate(text)}: every dimension must be a known power of two")
        if s == 0 or s & (s - 1):
            raise ShapeError(f"dimension {s} of {abbreviate(text)} is not a power of two; Triton layouts need power-of-two shapes")
    total = 1
    for s in ttype.shape:
        total *= s
    check_size(total, "tensor", max_elements)
    return list(ttype.shape)


def check_size(count: int, what: str, max_elements: int) -> None:
    limit = min(max_elements, HARD_MAX_ELEMENTS)
    if count > limit:
        hint = (" (raise it with --max-elements N)" if limit < HARD_MAX_ELEMENTS
                else " (the hard limit is 2^31)")
        raise ShapeError(f"{what} has {count} elements, more than the limit of {limit}{hint}")


def convert(attr, shape, max_elements):
    if getattr(attr, "kind", None) not in ("distributed", "shared"):
        raise UnsupportedError(f"Unsupported tensor layout attribute: {abbreviate(str(attr))}")
    from .conversions import to_linear_layout
    linear = to_linear_layout(attr, shape)
    check_size(linear.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
    return linear


def read_input(path: str, stdin) -> str:
    if path == "-":
        data = stdin.read()
        if isinstance(data, str):
            return data
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except IsADirectoryError:
            raise TTLayoutError(f"cannot read input file {path}: it is a directory")
        except OSError as e:
            raise TTLayoutError(f"cannot read input file {path}: {e.strerror or e}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TTLayoutError(f"input file {path} is not UTF-8 text (byte {e.start})")


class _StreamSink:
    """Context manager yielding write(bytes): to `stream`, or atomically to a file (temp file + rename)."""

    def __init__(self, stream):
        self.stream = stream

    def __call__(self, path):
        self.path = path
        return self

    def __enter__(self):
        if not self.path:
            return self.stream.write
        directory = os.path.dirname(os.path.abspath(self.path))
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=".ttlayout-", dir=directory)
        except OSError as e:
            raise TTLayoutError(f"cannot write output file {self.path}: {e.strerror or e}")
        self.file = os.fdopen(fd, "wb")
        return self.file.write

    def __exit__(self, exc_type, exc, tb):
        if not self.path:
            return False
        self.file.close()
        if exc_type is None:
            try:
                os.replace(self.tmp, self.path)
                return False
            except OSError as e:
                os.unlink(self.tmp)
                raise TTLayoutError(f"cannot write output file {self.path}: {e.strerror or e}")
        os.unlink(self.tmp)
        return False


def execute(argv: list[str], stdin, stdout_bytes, stderr) -> int:
    """Run one command line; returns the exit status. Errors become one 'ttlayout: error: ...' line."""
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from .analysis import commands
            command, args = getattr(commands, argv[0]), argv[1:]
        else:
            command, args = print_command, normalize_argv(argv)
        command.main(args=args, prog_name="ttlayout", standalone_mode=False,
                     obj={"stdin": stdin, "sink": _StreamSink(stdout_bytes), "stdout": stdout_bytes})
        return 0
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.Abort:
        return 130
    except click.UsageError as e:
        stderr.write(f"ttlayout: error: {one_line(e.format_message())} (see 'ttlayout --help')\n")
        return 1
    except TTLayoutError as e:
        stderr.write(f"ttlayout: error: {one_line(str(e))}\n")
        return 1
    except RecursionError:
        stderr.write("ttlayout: error: input nested too deeply\n")
        return 1
    except MemoryError:
        stderr.write("ttlayout: error: out of memory (try a smaller tensor or --max-elements)\n")
        return 1


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """In-process run for tests: (exit status, stdout, stderr)."""
    out, err = io.BytesIO(), io.StringIO()
    saved = sys.stdout
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stdout = text_out           # click's --help / --version print through sys.stdout
    try:
        code = execute(list(argv), io.StringIO(stdin or ""), out.write, err)
    finally:
        sys.stdout = saved
    return code, out.getvalue().decode("utf-8"), err.getvalue()


def main() -> None:
    stdout = sys.stdout.buffer
    try:
        code = execute(sys.argv[1:], sys.stdin.buffer, stdout.write, sys.stderr)
        stdout.flush()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        # `ttlayout ... | head`: the reader left; end quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 0
    sys.exit(code)
