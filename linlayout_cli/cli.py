"""ttlayout command line: the triton-tensor-layout interface (-l/-t/-i/-o/-alias-names/-use-hw-view) plus analysis
subcommands. Every failure is one stderr line and exit 1; output is written only once every layout converted."""
from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import tempfile

import click

from . import __version__
from .errors import ShapeError, TTLayoutError, UnsupportedError

DEFAULT_MAX_ELEMENTS = 1 << 26        # about 1 GB of tensor-view text at ~16 bytes per element
HARD_MAX_ELEMENTS = 1 << 31
MAX_RANK = 32                         # every cell prints one number per dimension; real layouts have rank <= 5
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


ERROR_PREFIX = "ttlayout: error: "
INTERNAL_ERROR = "internal error"


def printable(text: str) -> str:
    """Whitespace runs (newlines included) become one space; other unprintable characters (NUL, ESC,
    lone surrogates from non-UTF-8 argv bytes) are shown escaped, so an echoed input can neither break
    the one-line rule nor drive the terminal."""
    text = " ".join(str(text).split())
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def one_line(message: str, suffix: str = "") -> str:
    """The whole stderr line `ttlayout: error: <message><suffix>`, at most MAX_MESSAGE characters (a long
    message is cut, keeping its start, which names the problem, and the suffix)."""
    text = printable(message)
    room = MAX_MESSAGE - len(ERROR_PREFIX) - len(suffix)
    if len(text) > room:
        text = text[: room - 3] + "..."
    return ERROR_PREFIX + text + suffix


def abbreviate(text: str, limit: int = 80) -> str:
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-l", "layout", metavar="ATTR", help="One layout attribute, e.g. '#ttg.blocked<{...}>'.")
@click.option("-t", "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required).")
@click.option("-i", "input_file", metavar="FILE", help="MLIR/TTGIR file with '#name = <attr>' aliases ('-' = stdin).")
@click.option("-o", "output", metavar="FILE", help="Write the output to FILE (atomically) instead of stdout.")
@click.option("--alias-names", "alias_names", multiple=True, metavar="A,B",
              help="Aliases (no '#') to print from the -i file, comma separated; repeatable.")
@click.option("--use-hw-view", is_flag=True, help="Print the hardware view (per block/warp/register) instead of the tensor view.")
@click.option("--max-elements", type=click.IntRange(min=1), default=DEFAULT_MAX_ELEMENTS, show_default=True,
              help="Refuse tensors (or hardware index spaces) with more elements than this, before allocating "
                   "anything (the default keeps the output under about 1 GB; hard limit 2^31); raise it for huge "
                   "layouts.")
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
    from .parsing import parse_attribute, parse_mlir_file, parse_tensor_type
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
    if len(ttype.shape) > MAX_RANK:
        raise ShapeError(f"tensor rank {len(ttype.shape)} is above ttlayout's limit of {MAX_RANK} dimensions")
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
        shown = str(count) if count.bit_length() <= 64 else f"about 2^{count.bit_length() - 1}"
        raise ShapeError(f"{what} has {shown} elements, more than the limit of {limit}{hint}")


def convert(attr, shape, max_elements):
    if getattr(attr, "kind", None) not in ("distributed", "shared"):
        raise UnsupportedError(f"Unsupported tensor layout attribute: {abbreviate(str(attr))}")
    from .conversions import to_linear_layout
    linear = to_linear_layout(attr, shape)
    check_size(linear.get_total_in_dim_size(), "the layout's hardware index space", max_elements)
    return linear


def read_input(path: str, stdin) -> str:
    """The -i file (or stdin for '-') as text; at most MAX_FILE_CHARS + 1 bytes are read (so `-i /dev/zero`
    ends with an error instead of filling the memory)."""
    from .parsing import MAX_FILE_CHARS
    limit = MAX_FILE_CHARS
    shown = "standard input" if path == "-" else f"input file {abbreviate(path)}"
    if path == "-":
        if stdin is None:
            raise TTLayoutError("cannot read standard input: it is closed")
        try:
            data = stdin.read(limit + 1)
        except OSError as e:
            raise TTLayoutError(f"cannot read standard input: {e.strerror or e}")
        if isinstance(data, str):
            if len(data) > limit:
                raise TTLayoutError(f"standard input is too large (the limit is {limit} characters)")
            return data
    else:
        if "\x00" in path:
            raise TTLayoutError(f"cannot read {shown}: the file name contains a NUL character")
        try:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
        except IsADirectoryError:
            raise TTLayoutError(f"cannot read {shown}: it is a directory")
        except OSError as e:
            raise TTLayoutError(f"cannot read {shown}: {e.strerror or e}")
    if len(data) > limit:
        raise TTLayoutError(f"{shown} is too large (the limit is {limit} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TTLayoutError(f"{shown} is not UTF-8 text (invalid byte 0x{data[e.start]:02x} at offset {e.start})")


class _StreamSink:
    """Context manager yielding write(bytes): the given stdout writer, or an atomic file (temp file + rename).

    A regular (or new) -o file is written to a temporary file next to it and renamed over it only after
    everything was written, so an error or Ctrl-C leaves the old file (or none) and no temporary file. A
    symlink is followed (its target is replaced); a target that is not a regular file (/dev/null, a FIFO,
    /dev/stdout) is written directly, since it cannot be replaced by a rename."""

    def __init__(self, write):
        self.write = write

    def __call__(self, path):
        self.path = path
        return self

    def _fail(self, e: OSError):
        raise TTLayoutError(f"cannot write output file {abbreviate(self.path)}: {e.strerror or e}")

    def __enter__(self):
        self.file = self.tmp = None
        if not self.path:
            return self.write
        if "\x00" in self.path:
            raise TTLayoutError(f"cannot write output file {abbreviate(self.path)}: the name contains a NUL character")
        target = os.path.realpath(self.path)
        try:
            st = os.stat(target)
        except FileNotFoundError:
            st = None
        except OSError as e:
            self._fail(e)
        try:
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(errno.EISDIR, "it is a directory")
            if st is not None and not stat.S_ISREG(st.st_mode):
                self.file = open(target, "wb")          # device, FIFO, ...: no rename possible
                return self._write
            fd, self.tmp = tempfile.mkstemp(prefix=".ttlayout-", dir=os.path.dirname(target))
        except OSError as e:
            self._fail(e)
        self.target = target
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)           # replacing a file keeps its permissions
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask                     # mkstemp's 0600 would make new -o files private
        os.fchmod(fd, mode)
        self.file = os.fdopen(fd, "wb")
        return self._write

    def _write(self, data: bytes) -> None:
        try:
            self.file.write(data)
        except OSError as e:                          # disk full, quota, I/O error
            self._fail(e)

    def __exit__(self, exc_type, exc, tb):
        if self.file is None:
            return False
        try:
            self.file.close()
        except OSError as e:
            if exc_type is None:
                self._remove_tmp()
                self._fail(e)
        if self.tmp is None:
            return False
        if exc_type is None:
            try:
                os.replace(self.tmp, self.target)
                return False
            except OSError as e:
                self._remove_tmp()
                self._fail(e)
        self._remove_tmp()
        return False

    def _remove_tmp(self):
        try:
            os.unlink(self.tmp)
        except OSError:
            pass


def execute(argv: list[str], stdin, stdout_bytes, stderr) -> int:
    """Run one command line; returns the exit status. Errors become one 'ttlayout: error: ...' line."""
    name = "ttlayout"
    try:
        if argv and argv[0] in SUBCOMMANDS:
            from .analysis import commands
            command, args, name = getattr(commands, argv[0]), argv[1:], f"ttlayout {argv[0]}"
        else:
            command, args, name = print_command, normalize_argv(argv), "ttlayout"
        # make_context + invoke instead of command.main(): main() turns Ctrl-C into a blank stderr line plus
        # Abort and a closed pipe into sys.exit(1); here both reach main() below, which ends quietly
        with command.make_context(name, list(args),
                                  obj={"stdin": stdin, "sink": _StreamSink(stdout_bytes), "stdout": stdout_bytes}) as ctx:
            command.invoke(ctx)
        return 0
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.Abort:
        return 130
    except click.UsageError as e:
        stderr.write(one_line(e.format_message(), f" (see '{name} --help')") + "\n")
        return 1
    except click.ClickException as e:
        stderr.write(one_line(e.format_message()) + "\n")
        return 1
    except TTLayoutError as e:
        stderr.write(one_line(str(e)) + "\n")
        return 1
    except RecursionError:
        stderr.write(one_line("input nested too deeply") + "\n")
        return 1
    except MemoryError:
        stderr.write(one_line("out of memory (try a smaller tensor or --max-elements)") + "\n")
        return 1
    except BrokenPipeError:
        raise                                    # main() ends quietly
    except Exception as e:                       # a bug in ttlayout: still one line, never a traceback
        stderr.write(one_line(f"{INTERNAL_ERROR} ({type(e).__name__}: {e}); please report this command line") + "\n")
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


def _stdout_writer():
    stdout = sys.stdout.buffer if sys.stdout is not None else None

    def write(data: bytes) -> None:
        if stdout is None:
            raise TTLayoutError("cannot write to standard output: it is closed (use -o FILE)")
        try:
            stdout.write(data)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise TTLayoutError(f"cannot write to standard output: {e.strerror or e}")

    def flush() -> None:
        if stdout is not None:
            try:
                stdout.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                raise TTLayoutError(f"cannot write to standard output: {e.strerror or e}")
    return write, flush


def main() -> None:
    write, flush = _stdout_writer()
    stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w")
    try:
        code = execute(sys.argv[1:], sys.stdin.buffer if sys.stdin is not None else None, write, stderr)
        try:
            flush()
        except TTLayoutError as e:
            stderr.write(one_line(str(e)) + "\n")
            code = 1
    except KeyboardInterrupt:
        # Ctrl-C: end quietly (an -o file was not touched, its temporary file is removed)
        _discard_stdout()
        code = 130
    except BrokenPipeError:
        # `ttlayout ... | head`: the reader left; end quietly.
        _discard_stdout()
        code = 0
    sys.exit(code)


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what is still buffered can neither
    block on nor fail with a pipe whose reader is gone ("Exception ignored ... BrokenPipeError")."""
    if sys.stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
