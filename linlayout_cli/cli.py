"""The `ttlayout` process: dispatch to a command of `commands/`, the output sink (stdout or an `-o` file), signal
handling and error formatting. Every failure is one stderr line and a non-zero exit; an `-o` file appears only once
everything was written, whatever ends the run (an error, Ctrl-C, any catchable fatal signal; on Linux even SIGKILL,
the temporary file having no name until the end)."""
from __future__ import annotations

import errno
import io
import os
import signal
import stat
import sys

from .errors import TTLayoutError, abbreviate_path, printable

MAX_MESSAGE = 300
ERROR_PREFIX = "ttlayout: error: "
INTERNAL_ERROR = "internal error"
OUT_OF_MEMORY = ERROR_PREFIX + "out of memory (try a smaller tensor or --max-elements)\n"
COMPLETE_VAR = "_TTLAYOUT_COMPLETE"          # click's shell completion: _TTLAYOUT_COMPLETE=bash_source ttlayout
# every signal whose default action ends the process and that a program may catch (SIGINT is Python's
# KeyboardInterrupt, SIGPIPE a BrokenPipeError; SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP are faults
# of the interpreter itself, not requests to stop)
_STOP_NAMES = ("SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU", "SIGXFSZ", "SIGVTALRM",
               "SIGPROF", "SIGIO", "SIGPWR", "SIGSTKFLT", "SIGSYS")
STOP_SIGNALS = tuple(sorted({getattr(signal, n) for n in _STOP_NAMES if hasattr(signal, n)}
                            | (set(range(signal.SIGRTMIN, signal.SIGRTMAX + 1)) if hasattr(signal, "SIGRTMIN")
                               else set())))


class Stopped(BaseException):
    """A fatal signal arrived: unwind like Ctrl-C (temporary files removed), then exit 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def one_line(message: str, suffix: str = "") -> str:
    """The whole stderr line `ttlayout: error: <message><suffix>`, at most MAX_MESSAGE characters (a long
    message is cut, keeping its start, which names the problem, and the suffix)."""
    text = printable(message)
    room = MAX_MESSAGE - len(ERROR_PREFIX) - len(suffix)
    if len(text) > room:
        text = text[: room - 3] + "..."
    return ERROR_PREFIX + text + suffix


# ----------------------------------------------------------------------------------------- the output sink


def descriptor_of(path: str) -> int | None:
    """The open file descriptor a path names, or None: `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N`,
    `/proc/self/fd/N`, `/proc/<our pid>/fd/N`, and a symlink chain leading to one of them (`>(cmd)` gives
    `/dev/fd/63`). Such a target is written through the descriptor itself: reopening it by name would truncate a
    file the shell opened for appending (`-o /dev/stdout >> log`) and fails for a pipe."""
    names = {"/dev/stdout": 1, "/dev/stderr": 2, "/dev/stdin": 0}
    fd_dirs = {"/dev/fd", "/proc/self/fd", f"/proc/{os.getpid()}/fd"}
    for _ in range(40):                                  # the kernel's own limit on a symlink chain
        norm = os.path.normpath(path)
        if norm in names:
            return names[norm]
        head, tail = os.path.split(norm)
        if tail.isdigit() and (head in fd_dirs or os.path.realpath(head) in fd_dirs):
            return int(tail)
        try:
            link = os.readlink(norm)
        except OSError:
            return None
        path = link if os.path.isabs(link) else os.path.join(os.path.dirname(norm), link)
    return None


def _read_identities() -> set:
    """(st_dev, st_ino) of every file this run has read (`inputs.read_text` records them)."""
    inputs = sys.modules.get(__package__ + ".inputs")
    return inputs.read_identities() if inputs is not None else set()


class _StreamSink:
    """Context manager yielding write(bytes): the given stdout writer, or an `-o` target.

    A regular (or new) file is written to a temporary file in its directory and renamed over it only once
    everything was written, so an error or a signal leaves the old file (or none). On Linux the temporary file is
    made with O_TMPFILE: it has no name until it is linked just before the rename, so even SIGKILL leaves nothing;
    elsewhere it is a `.ttlayout-*` file removed on every catchable way out. A symlink is followed (its target is
    replaced). Permissions are those of a shell `>`: a file this user may not write is refused (root may),
    a replaced file keeps its mode. A file the command reads (its -i input, under any name: a hard link, a
    symlink) is refused, since writing it would destroy the input. A target that is not a regular file (a device,
    a FIFO, /dev/stdout, /dev/fd/N, a process substitution) is written in place, through the descriptor when the
    path names one, so its append mode and position are kept. `-o -` is standard output."""

    def __init__(self, write):
        self.write = write
        self.written: set[tuple[int, int]] = set()     # (st_dev, st_ino) of every file this run has published

    def __call__(self, path):
        self.path = path
        return self

    def _fail(self, e: OSError | str):
        why = e if isinstance(e, str) else (e.strerror or str(e))
        raise TTLayoutError(f"cannot write output file {abbreviate_path(self.path)}: {why}")

    def __enter__(self):
        self.file = self.tmp = self.target = None
        self.anonymous = False
        if self.path is None or self.path == "-":
            return self.write
        if not self.path:
            raise TTLayoutError("the output file name is empty; give a file name ('-' is standard output)")
        if "\x00" in self.path:
            self._fail("the name contains a NUL character")
        if self.path.endswith(("/", "/.")) and not os.path.isdir(self.path):
            self._fail("the name ends with '/' but no directory has it (a shell's '>' refuses it too)")
        fd = descriptor_of(self.path)
        if fd is not None:
            return self._open_descriptor(fd)
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
                self.file = open(os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0)), "wb")
                return self._write                      # device, FIFO: no rename possible
            if st is not None:
                self._refuse_input(st)
                if (st.st_dev, st.st_ino) in self.written:
                    self._fail("this command has just written it (two output options name the same file); give "
                               "each output its own file")
                os.close(os.open(target, os.O_WRONLY))  # may this user write it (as `>` would ask)?
        except OSError as e:
            self._fail(e)
        self.target = target
        try:
            with _signals_held():                       # a signal lands after self.tmp is known
                self._open_temporary(target, st)
        except OSError as e:
            self._discard()
            self._fail(e)
        except BaseException:                           # a signal held above, delivered on release
            self._discard()
            raise
        return self._write

    def _refuse_input(self, st) -> None:
        if (st.st_dev, st.st_ino) in _read_identities():
            self._fail("it is a file this command reads (its input); writing it would destroy the input, so "
                       "write the output elsewhere")

    def _open_descriptor(self, fd: int):
        """Write to an inherited descriptor in place (its mode, append or not, and its position kept)."""
        try:
            os.fstat(fd)
            if fd == 1 and sys.stdout is not None:
                sys.stdout.flush()
            self.file = open(os.dup(fd), "wb")
        except (OSError, ValueError) as e:
            self._fail(e if isinstance(e, OSError) else str(e))
        return self._write

    def _open_temporary(self, target: str, st) -> None:
        directory = os.path.dirname(target)
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)           # replacing a file keeps its permissions
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask                     # a temporary file's 0600 would make new -o files private
        fd = _anonymous_file(directory)
        if fd is not None:
            self.anonymous = True
        else:
            import tempfile
            fd, self.tmp = tempfile.mkstemp(prefix=".ttlayout-", dir=directory)
        self.file = os.fdopen(fd, "wb")
        os.fchmod(fd, mode)

    def _discard(self) -> None:
        if self.file is not None:
            try:
                self.file.close()
            except OSError:
                pass
        if self.tmp is not None:
            self._remove_tmp()

    def _write(self, data: bytes) -> None:
        try:
            self.file.write(data)
        except BrokenPipeError:                       # `-o /dev/stdout | head`: the reader left; end quietly
            raise
        except OSError as e:                          # disk full, quota, I/O error
            self._fail(e)

    def __exit__(self, exc_type, exc, tb):
        if self.file is None:
            return False
        with _signals_held():
            self._finish(exc_type is None)
        return False

    def _finish(self, ok: bool) -> None:
        """Close (in place) or publish (temporary file) the output; on failure leave no trace but the error."""
        if not ok or self.target is None:
            self._close(ok)
            if self.tmp is not None:
                self._remove_tmp()
            return
        try:
            self.file.flush()
            st = os.stat(self.target) if os.path.exists(self.target) else None
            if st is not None:
                self._refuse_input(st)                # an input read after the output was opened
            if self.anonymous:
                self._link_anonymous()
            self.file.close()
            os.replace(self.tmp, self.target)
            self.tmp = None
            st = os.stat(self.target)
            self.written.add((st.st_dev, st.st_ino))
        except (OSError, TTLayoutError) as e:
            self._close(False)
            if self.tmp is not None:
                self._remove_tmp()
            if isinstance(e, TTLayoutError):
                raise
            self._fail(e)

    def _link_anonymous(self) -> None:
        """Give the O_TMPFILE file a name next to the target, just before the rename."""
        import random
        directory = os.path.dirname(self.target)
        # linkat(AT_FDCWD, "/proc/self/fd/N", dirfd, name, AT_SYMLINK_FOLLOW): Python calls plain link(), which
        # does not follow the /proc magic link, unless a directory descriptor is given
        dir_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            for _ in range(100):
                name = f".ttlayout-{random.getrandbits(48):012x}"
                try:
                    os.link(f"/proc/self/fd/{self.file.fileno()}", name, dst_dir_fd=dir_fd, follow_symlinks=True)
                except FileExistsError:
                    continue
                self.tmp = os.path.join(directory, name)
                return
        finally:
            os.close(dir_fd)
        raise OSError(errno.EEXIST, "no free temporary name")

    def _close(self, ok: bool) -> None:
        try:
            self.file.close()
        except BrokenPipeError:
            if ok:
                raise
        except OSError as e:
            if ok:
                self._fail(e)

    def _remove_tmp(self):
        try:
            os.unlink(self.tmp)
        except OSError:
            pass
        self.tmp = None


def _anonymous_file(directory: str) -> int | None:
    """A nameless file in `directory` (Linux O_TMPFILE, linked by /proc/self/fd at the end), or None where the
    system or the file system has none; a permission error is raised (the directory is not writable)."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(directory, flag | os.O_WRONLY, 0o600)
    except OSError as e:
        if e.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOTSUP):
            return None
        raise


class _signals_held:
    """Defers Ctrl-C and the fatal signals while a temporary file is created, linked, renamed or removed, so no
    signal can strand one; a signal that arrived meanwhile is delivered on exit."""

    def __enter__(self):
        self.saved = None
        if hasattr(signal, "pthread_sigmask"):
            self.saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOP_SIGNALS})

    def __exit__(self, *exc):
        if self.saved is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.saved)
        return False


# ----------------------------------------------------------------------------------------- running a command


def execute(argv: list[str], stdin, stdout_bytes, stderr) -> int:
    """Run one command line; returns the exit status. Errors become one 'ttlayout: error: ...' line. A plain
    command line runs without click (`commands.quick`); everything else goes through the click group."""
    obj = {"stdin": stdin, "sink": _StreamSink(stdout_bytes), "stdout": stdout_bytes, "stderr": stderr,
           "error_line": one_line}
    inputs = sys.modules.get(__package__ + ".inputs")
    if inputs is not None:
        inputs.forget_reads()                    # an earlier in-process run's inputs are not this run's
    try:
        from .commands import quick
        plain = quick(argv)
        if plain is not None:
            module, params = plain
            return module.run(obj, **params) or 0
        from .commands.group import group
        # make_context + invoke instead of group.main(): main() turns Ctrl-C into a blank stderr line plus
        # Abort and a closed pipe into sys.exit(1); here both reach main() below, which ends quietly
        with group.make_context("ttlayout", list(argv), obj=obj) as ctx:
            group.invoke(ctx)
        return 0
    except TTLayoutError as e:
        stderr.write(one_line(str(e)) + "\n")
        return 1
    except RecursionError:
        stderr.write(one_line("input nested too deeply") + "\n")
        return 1
    except MemoryError:
        try:
            stderr.write(one_line("out of memory (try a smaller tensor" + _max_elements_hint(argv) + ")") + "\n")
        except MemoryError:                    # nothing more to allocate: a constant line
            stderr.write(OUT_OF_MEMORY)
        return 1
    except BrokenPipeError:
        raise                                    # main() ends quietly
    except Exception as e:
        code = _click_failure(e, stderr)
        if code is not None:
            return code
        _reraise_interruption(e)                 # a bug in ttlayout: still one line, never a traceback
        stderr.write(one_line(f"{INTERNAL_ERROR} ({type(e).__name__}: {e}); please report this command line") + "\n")
        return 1


def _max_elements_hint(argv: list[str]) -> str:
    """' or --max-elements N' where the command of `argv` has that option (not audit)."""
    from .commands import COMMANDS, PRINT
    name = argv[0] if argv and argv[0] in COMMANDS else PRINT
    module = sys.modules.get(f"{__package__}.commands.{COMMANDS[name].module}")
    options = getattr(module, "OPTIONS", ())
    return " or --max-elements N" if any("--max-elements" in o.decls for o in options) else ""


def _click_failure(e: Exception, stderr) -> int | None:
    """The exit status of a click exception (its message written as one line), or None for any other."""
    click = sys.modules.get("click")
    if click is None:
        return None
    if isinstance(e, click.exceptions.Exit):
        return e.exit_code
    if isinstance(e, click.Abort):
        return 130
    if isinstance(e, click.UsageError):
        stderr.write(one_line(e.format_message(), f" (see '{_help_name(e.ctx)} --help')") + "\n")
        return 1
    if isinstance(e, click.ClickException):
        stderr.write(one_line(e.format_message()) + "\n")
        return 1
    return None


def _help_name(ctx) -> str:
    """'ttlayout bank' for a subcommand, 'ttlayout' for the print command (it needs no name)."""
    if ctx is None or ctx.command.name in ("print", "ttlayout"):
        return "ttlayout"
    return f"ttlayout {ctx.command.name}"


def _reraise_interruption(e: BaseException) -> None:
    """A signal that landed inside library code which wrapped it (an import turning KeyboardInterrupt into an
    ImportError, say) still ends the run as that signal."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, (KeyboardInterrupt, Stopped)):
            raise e
        e = e.__cause__ or e.__context__


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
    """(write, flush) for standard output; an OSError other than a closed pipe becomes one error line."""
    stdout = sys.stdout.buffer if sys.stdout is not None else None

    def guarded(action):
        if stdout is None:
            raise TTLayoutError("cannot write to standard output: it is closed (use -o FILE)")
        try:
            action()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise TTLayoutError(f"cannot write to standard output: {e.strerror or e}") from None

    def flush() -> None:
        if stdout is not None:
            guarded(stdout.flush)
    return (lambda data: guarded(lambda: stdout.write(data))), flush


def _raise_stopped(signum, frame):
    raise Stopped(signum)


def complete(instruction: str, write, stderr) -> int:
    """Shell completion (`_TTLAYOUT_COMPLETE=bash_source ttlayout`, ..._complete with COMP_WORDS): click's answer,
    written through `write` like any other output, so that a full disk or a closed stdout is one error line."""
    from click.shell_completion import shell_complete

    from .commands.group import group
    why = _completion_problem(instruction)
    if why is not None:
        stderr.write(one_line(why) + "\n")
        return 1
    buffer, saved = io.BytesIO(), sys.stdout
    wrapper = sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8", write_through=True)
    try:
        code = shell_complete(group, {}, "ttlayout", COMPLETE_VAR, instruction)
    except (KeyError, ValueError) as e:                # an environment the checks above did not foresee
        stderr.write(one_line(f"shell completion failed ({type(e).__name__}: {e})") + "\n")
        return 1
    finally:
        sys.stdout = saved
        wrapper.flush()
        data = buffer.getvalue()
        wrapper.detach()                               # the buffer stays open when the wrapper is collected
    try:
        write(data)
    except TTLayoutError as e:
        stderr.write(one_line(str(e)) + "\n")
        return 1
    return code


_SHELLS = ("bash", "zsh", "fish")


def _completion_problem(instruction: str) -> str | None:
    """Why `_TTLAYOUT_COMPLETE=instruction` cannot be answered (click's instructions are SHELL_source and
    SHELL_complete; the second needs COMP_WORDS and COMP_CWORD, a number for bash and zsh), or None.

    >>> _completion_problem("source")
    "_TTLAYOUT_COMPLETE='source' is not a completion instruction: give bash_source, zsh_source or fish_source"
    """
    shell, _, action = instruction.partition("_")
    if shell not in _SHELLS or action not in ("source", "complete"):
        return (f"{COMPLETE_VAR}={instruction!r} is not a completion instruction: give "
                f"{', '.join(s + '_source' for s in _SHELLS[:-1])} or {_SHELLS[-1]}_source")
    if action == "complete":
        missing = [v for v in ("COMP_WORDS", "COMP_CWORD") if v not in os.environ]
        if missing:
            return (f"{COMPLETE_VAR}={instruction} needs {' and '.join(missing)} (set by the script "
                    f"'{COMPLETE_VAR}={shell}_source ttlayout' prints)")
        if shell != "fish" and not os.environ["COMP_CWORD"].strip().isdigit():
            return f"COMP_CWORD={os.environ['COMP_CWORD']!r} is not a word number"
    return None


def catch_stop_signals() -> None:
    """Every fatal signal that is not ignored ends the run like Ctrl-C: the -o temporary file is removed, then
    exit 128 + signal. A signal the parent made us ignore (nohup's SIGHUP, a background job's) stays ignored."""
    for signum in STOP_SIGNALS:
        try:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _raise_stopped)
        except (OSError, ValueError):               # a signal this system reserves
            pass


def main() -> None:
    catch_stop_signals()
    write, flush = _stdout_writer()
    stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w")
    try:
        if os.environ.get(COMPLETE_VAR):
            code = complete(os.environ[COMPLETE_VAR], write, stderr)
        else:
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
    except Stopped as e:
        _discard_stdout()
        code = 128 + e.signum
    except BrokenPipeError:
        # `ttlayout ... | head`: the reader left; end quietly.
        _discard_stdout()
        code = 0
    except MemoryError:
        # out of memory while reporting another failure: a constant line, nothing more to allocate
        stderr.write(OUT_OF_MEMORY)
        code = 1
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
