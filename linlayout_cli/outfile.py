"""The output sink every command writes through: standard output, or an `-o FILE` written atomically. A file
appears only once everything was written, whatever ends the run (an error, Ctrl-C, any catchable fatal signal; on
Linux even SIGKILL, the temporary file having no name until the end). It also keeps the identities of the files the
run reads (`remember_stream`, `remember_path`), since writing one of them would destroy the input.

Bottom layer: it needs only `errors`, so `inputs` records what it reads here and `cli` opens the sink here."""
from __future__ import annotations

import errno
import os
import signal
import stat
import sys

from .errors import TTLayoutError, abbreviate_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import BinaryIO, Literal, NoReturn

    Write = Callable[[bytes], object]

# every signal whose default action ends the process and that a program may catch (SIGINT is Python's
# KeyboardInterrupt, SIGPIPE a BrokenPipeError; SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP are faults
# of the interpreter itself, not requests to stop)
_STOP_NAMES = ("SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU", "SIGXFSZ", "SIGVTALRM",
               "SIGPROF", "SIGIO", "SIGPWR", "SIGSTKFLT", "SIGSYS")
STOP_SIGNALS = tuple(sorted({getattr(signal, n) for n in _STOP_NAMES if hasattr(signal, n)}
                            | (set(range(signal.SIGRTMIN, signal.SIGRTMAX + 1)) if hasattr(signal, "SIGRTMIN")
                               else set())))


# ----------------------------------------------------------------------------------------- output names

def check_name(path: str) -> None:
    """Refuse an output name no write could honour, before any work is done: empty, holding a NUL, or ending with
    '/' where no directory has that name (a shell's `>` refuses `FILE/` too; the sink would otherwise write FILE)."""
    if not path:
        raise TTLayoutError("the output file name is empty; give a file name ('-' is standard output)")
    why = None
    if "\x00" in path:
        why = "the name contains a NUL character"
    elif path.endswith(("/", "/.")) and not os.path.isdir(path):
        why = "the name ends with '/' but no directory has it (a shell's '>' refuses it too)"
    if why:
        raise TTLayoutError(f"cannot write output file {abbreviate_path(path)}: {why}")


# ----------------------------------------------------------------------------------------- the files this run reads

_READ: set[tuple[int, int]] = set()   # (st_dev, st_ino) of the regular files read: an -o sink refuses them


def read_identities() -> set[tuple[int, int]]:
    """(st_dev, st_ino) of every regular file this process has read (`inputs.read_text` records them)."""
    return _READ


def forget_reads() -> None:
    """An earlier in-process run's inputs are not this run's."""
    _READ.clear()


def remember_stream(stream: object) -> None:
    """Record the file behind a stream that was read (regular files only: a pipe or a terminal cannot be lost)."""
    import io
    try:
        st = os.fstat(stream.fileno())  # type: ignore[attr-defined]  # any stream; one without a file is skipped
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return
    if stat.S_ISREG(st.st_mode):
        _READ.add((st.st_dev, st.st_ino))


def remember_path(path: str) -> None:
    """Record a regular file that another process of this run reads (a worker auditing a kernel), so that an -o
    sink refuses it as it refuses the files `read_text` reads here."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISREG(st.st_mode):
        _READ.add((st.st_dev, st.st_ino))


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


class Sink:
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

    def __init__(self, write: Write, flush: Callable[[], object] | None = None):
        self.write = write
        self.flush_stdout = flush                   # pushes what standard output's buffer holds to its reader
        self.path: str | None = None
        self.file: BinaryIO | None = None           # what _write writes to: the target, or the temporary file
        self.tmp: str | None = None                 # the temporary file's name, once it has one
        self.target: str | None = None              # the file renamed over at the end (None: written in place)
        self.anonymous = False                      # the temporary file is O_TMPFILE's (no name yet)
        self.written: set[tuple[int, int]] = set()  # (st_dev, st_ino) of every file this run has published

    def __call__(self, path: str | None) -> Sink:
        self.path = path
        return self

    def _fail(self, e: OSError | str) -> NoReturn:
        why = e if isinstance(e, str) else (e.strerror or str(e))
        raise TTLayoutError(f"cannot write output file {abbreviate_path(self.path or '-')}: {why}")

    def __enter__(self) -> Write:
        self.file = self.tmp = self.target = None
        self.anonymous = False
        if self.path is None or self.path == "-":
            return self.write
        check_name(self.path)
        fd = descriptor_of(self.path)
        if fd is not None:
            return self._open_descriptor(fd)
        target = os.path.realpath(self.path)
        st: os.stat_result | None
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

    def flush(self) -> None:
        """Hand what was written so far to the reader: standard output's buffer, or a file written in place (a
        pipe, a FIFO, /dev/stdout). A temporary file (an `-o` file, published at the end) has no reader yet."""
        if self.file is None:
            if self.flush_stdout is not None:
                self.flush_stdout()
        elif self.target is None:
            try:
                self.file.flush()
            except BrokenPipeError:
                raise
            except OSError as e:
                self._fail(e)

    def _refuse_input(self, st: os.stat_result) -> None:
        if (st.st_dev, st.st_ino) in _READ:
            self._fail("it is a file this command reads (its input); writing it would destroy the input, so "
                       "write the output elsewhere")

    def _open_descriptor(self, fd: int) -> Write:
        """Write to an inherited descriptor in place (its mode, append or not, and its position kept)."""
        try:
            os.fstat(fd)
            if fd == 1 and sys.stdout is not None:
                sys.stdout.flush()
            self.file = open(os.dup(fd), "wb")
        except (OSError, ValueError) as e:
            self._fail(e if isinstance(e, OSError) else str(e))
        return self._write

    def _open_temporary(self, target: str, st: os.stat_result | None) -> None:
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
        assert self.file is not None                  # __enter__ opened it before handing out this writer
        try:
            self.file.write(data)
        except BrokenPipeError:                       # `-o /dev/stdout | head`: the reader left; end quietly
            raise
        except OSError as e:                          # disk full, quota, I/O error
            self._fail(e)

    def __exit__(self, exc_type: type[BaseException] | None, exc: object, tb: object) -> Literal[False]:
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
        assert self.file is not None and (self.tmp is not None or self.anonymous)
        try:
            self.file.flush()
            st = os.stat(self.target) if os.path.exists(self.target) else None
            if st is not None:
                self._refuse_input(st)                # an input read after the output was opened
            if self.anonymous:
                self._link_anonymous()
            self.file.close()
            assert self.tmp is not None                # named by _link_anonymous or mkstemp
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
        assert self.file is not None and self.target is not None
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
        assert self.file is not None
        try:
            self.file.close()
        except BrokenPipeError:
            if ok:
                raise
        except OSError as e:
            if ok:
                self._fail(e)

    def _remove_tmp(self) -> None:
        assert self.tmp is not None
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

    def __enter__(self) -> None:
        self.saved: set[int | signal.Signals] | None = None
        if hasattr(signal, "pthread_sigmask"):
            self.saved = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOP_SIGNALS})

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.saved is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.saved)
        return False
