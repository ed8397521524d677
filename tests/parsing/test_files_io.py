"""Files and streams: -i (missing, directory, unreadable, non-UTF-8, NUL, too large, stdin '-'), -o (unwritable
paths, atomic replacement, no partial or temporary file after an error or Ctrl-C, devices and FIFOs written
in place, symlinks followed, permissions kept), Ctrl-C and closed pipes through the real executable."""
from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import outfile
from linlayout_cli.cli import run
from linlayout_cli.errors import TTLayoutError

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
FILE_TEXT = f"#blocked = {BLOCKED}\n#shared = {SHARED}\nmodule {{\n}}\n"
T16 = ["-t", "tensor<16x16xf16>"]
# big enough to take a few seconds to render (about 60 MB of text)
BIG = ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
       "-t", "tensor<2048x2048xf16>"]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def clean_error(argv, stdin=None):
    code, out, err = run(argv, stdin=stdin)
    assert code == 1 and out == "", (code, out[:200], err)
    assert err.endswith("\n") and "\n" not in err[:-1] and err.startswith("ttlayout: error: "), err
    assert len(err) <= 301 and "Traceback" not in err
    return err[len("ttlayout: error: "):-1]


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(".ttlayout-"))


@pytest.fixture
def mlir(tmp_path):
    path = tmp_path / "in.mlir"
    path.write_text(FILE_TEXT, encoding="utf-8")
    return path


def expected_output():
    code, out, err = run(["-i", "-"] + T16, stdin=FILE_TEXT)
    assert code == 0 and not err
    return out


# ---------------------------------------------------------------------------------------------
# -i
# ---------------------------------------------------------------------------------------------

def test_input_file_and_stdin_agree(mlir):
    code, out, err = run(["-i", str(mlir)] + T16)
    assert code == 0 and not err and out == expected_output()
    assert out.startswith(f"Print layout attribute: #blocked = {BLOCKED}\n")


def test_missing_input_file(tmp_path):
    message = clean_error(["-i", str(tmp_path / "nope.mlir")] + T16)
    assert "cannot read input file" in message and "nope.mlir" in message and "No such file" in message


def test_input_is_a_directory(tmp_path):
    assert "it is a directory" in clean_error(["-i", str(tmp_path)] + T16)


@pytest.mark.skipif(IS_ROOT, reason="root reads files whatever their permissions")
def test_unreadable_input_file(mlir):
    mlir.chmod(0)
    try:
        assert "Permission denied" in clean_error(["-i", str(mlir)] + T16)
    finally:
        mlir.chmod(0o644)


def test_unreadable_input_file_simulated(mlir, monkeypatch):
    real_open = open

    def deny(path, *args, **kwargs):
        if str(path) == str(mlir):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", deny)
    message = clean_error(["-i", str(mlir)] + T16)
    assert "cannot read input file" in message and "Permission denied" in message


@pytest.mark.parametrize("bad,offset", [(b"\xff", 11), (b"\xc3(", 11), (b"\xed\xa0\x80", 11)])
def test_non_utf8_input_file(tmp_path, bad, offset):
    path = tmp_path / "bad.mlir"
    path.write_bytes(b"#blocked = " + bad + FILE_TEXT.encode()[11:])
    message = clean_error(["-i", str(path)] + T16)
    assert "is not UTF-8 text" in message and f"offset {offset}" in message and "bad.mlir" in message


def test_nul_in_input_file(tmp_path):
    path = tmp_path / "nul.mlir"
    path.write_bytes(FILE_TEXT.encode().replace(b"order", b"or\x00der", 1))
    assert "NUL" in clean_error(["-i", str(path)] + T16)


def test_input_file_without_a_layout_is_an_error(tmp_path):
    """Triton's tool prints nothing and exits 0; a user deserves to hear that nothing was found, and what the file
    is when it is another file Triton works with (issue 24)."""
    for name, text, said in (("empty.mlir", "", "holds no layout alias"),
                             ("kernel.py", "import triton\n@triton.jit\ndef k(x): pass\n",
                              "kernel.py is Python source, not TTGIR; run the kernel with MLIR_ENABLE_DUMP=1 or "
                              "TRITON_KERNEL_DUMP=1 to get its TTGIR")):
        path = tmp_path / name
        path.write_text(text)
        code, out, err = run(["-i", str(path)] + T16)
        assert (code, out) == (1, "") and said in err and err.count("\n") == 1


def test_too_large_input_is_refused(tmp_path, monkeypatch):
    import linlayout_cli.parsing as parsing
    monkeypatch.setattr(parsing, "MAX_FILE_CHARS", 100)
    path = tmp_path / "big.mlir"
    path.write_text(FILE_TEXT * 10)
    assert "too large" in clean_error(["-i", str(path)] + T16)
    assert "too large" in clean_error(["-i", "-"] + T16, stdin=FILE_TEXT * 10)


def test_nul_in_file_names():
    assert "NUL" in clean_error(["-i", "a\x00b"] + T16)
    assert "NUL" in clean_error(["-l", BLOCKED, "-o", "a\x00b"] + T16)


# ---------------------------------------------------------------------------------------------
# -o
# ---------------------------------------------------------------------------------------------

def test_output_file_written_atomically(tmp_path, mlir):
    target = tmp_path / "out.txt"
    assert run(["-i", str(mlir), "-o", str(target)] + T16) == (0, "", "")
    assert target.read_text() == expected_output()
    assert leftovers(tmp_path) == []
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_output_file_replaced_keeps_its_permissions(tmp_path, mlir):
    target = tmp_path / "out.txt"
    target.write_text("old")
    target.chmod(0o640)
    assert run(["-i", str(mlir), "-o", str(target)] + T16)[0] == 0
    assert target.read_text() == expected_output() and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_output_symlink_is_followed(tmp_path, mlir):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    assert run(["-i", str(mlir), "-o", str(link)] + T16)[0] == 0
    assert link.is_symlink() and real.read_text() == expected_output()


@pytest.mark.parametrize("where", ["missing dir", "directory", "under a file"])
def test_unwritable_output_path(tmp_path, where):
    (tmp_path / "file").write_text("x")
    path = {"missing dir": tmp_path / "no" / "out.txt", "directory": tmp_path,
            "under a file": tmp_path / "file" / "out.txt"}[where]
    message = clean_error(["-l", BLOCKED, "-o", str(path)] + T16)
    assert message.startswith("cannot write output file")
    assert leftovers(tmp_path) == [] and (tmp_path / "file").read_text() == "x"


@pytest.mark.skipif(IS_ROOT, reason="root writes into read-only directories")
def test_read_only_output_directory(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert "Permission denied" in clean_error(["-l", BLOCKED, "-o", str(ro / "out.txt")] + T16)
    finally:
        ro.chmod(0o755)


def test_error_leaves_no_output_file(tmp_path):
    target = tmp_path / "out.txt"
    # the second layout fails: nothing is written at all
    clean_error(["-i", "-", "-o", str(target)] + T16, stdin=FILE_TEXT + "#bad = " + SHARED.replace("1, 0", "0, 0") + "\n")
    assert not target.exists() and leftovers(tmp_path) == []
    target.write_text("old")
    clean_error(["-l", "#ttg.foo<{}>", "-o", str(target)] + T16)
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def _fail_mid_render(exc):
    def render(layout, use_hw_view, write):
        write(b"partial output\n")
        raise exc
    return render


def test_error_during_rendering_leaves_old_file(tmp_path, monkeypatch):
    import linlayout_cli.render as render
    target = tmp_path / "out.txt"
    target.write_text("old")
    monkeypatch.setattr(render, "render_layout", _fail_mid_render(TTLayoutError("disk on fire")))
    assert "disk on fire" in clean_error(["-l", BLOCKED, "-o", str(target)] + T16)
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_keyboard_interrupt_during_rendering_leaves_old_file(tmp_path, monkeypatch):
    import linlayout_cli.render as render
    target = tmp_path / "out.txt"
    target.write_text("old")
    monkeypatch.setattr(render, "render_layout", _fail_mid_render(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):           # main() turns it into a quiet exit 130
        run(["-l", BLOCKED, "-o", str(target)] + T16)
    assert target.read_text() == "old" and leftovers(tmp_path) == []


def test_write_error_is_clean(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f):
            self.f = f

        def write(self, data):
            raise OSError(28, "No space left on device")

        def close(self):
            self.f.close()

    monkeypatch.setattr(outfile.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    assert "No space left on device" in clean_error(["-l", BLOCKED, "-o", str(target)] + T16)
    assert not target.exists() and leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_output_to_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, out, err = run(["-l", BLOCKED, "-o", str(fifo)] + T16)
    reader.join(10)
    assert code == 0 and not err and stat.S_ISFIFO(fifo.stat().st_mode)
    assert received and received[0].decode() == run(["-l", BLOCKED] + T16)[1]
    assert leftovers(tmp_path) == []


def test_output_to_the_input_file_is_refused(tmp_path, mlir):
    """-o naming the -i file, under its own name or another (./, a symlink, a hard link), would destroy the input:
    one error line, the input untouched, no temporary file."""
    (tmp_path / "hard.mlir").hardlink_to(mlir)
    (tmp_path / "link.mlir").symlink_to(mlir)
    for out in (mlir, tmp_path / "." / "in.mlir", tmp_path / "hard.mlir", tmp_path / "link.mlir"):
        message = clean_error(["-i", str(mlir), "-o", str(out)] + T16)
        named, _, why = message.partition(": it is a file this command reads")
        assert why and named.startswith("cannot write output file ") and out.name in named, message
        assert mlir.read_text() == FILE_TEXT and leftovers(tmp_path) == []
    # stdin redirected from the file is that file too
    with open(mlir, "rb") as f:
        proc = ttlayout("-i", "-", *T16, "-o", str(mlir), stdin=f)
    assert proc.returncode == 1 and b"it is a file this command reads" in proc.stderr
    assert mlir.read_text() == FILE_TEXT
    # another file is fine, and so is the same file as -i of one run and -o of the next
    assert run(["-i", str(mlir), "-o", str(tmp_path / "out.txt")] + T16)[0] == 0
    assert run(["-l", BLOCKED, "-o", str(mlir)] + T16)[0] == 0 and mlir.read_text() == run(["-l", BLOCKED] + T16)[1]


def test_output_through_a_descriptor_keeps_its_append_mode(tmp_path):
    """`-o /dev/stdout >> log` appends (reopening /dev/stdout by name would truncate the log); /dev/fd/N and
    /proc/self/fd/N are the same descriptors."""
    log = tmp_path / "log.txt"
    log.write_text("old log\n")
    plain = run(["-l", BLOCKED] + T16)[1]
    for name in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
        with open(log, "ab") as f:
            proc = ttlayout("-l", BLOCKED, *T16, "-o", name, stdout=f, stderr=subprocess.PIPE)
        assert proc.returncode == 0 and proc.stderr == b""
    assert log.read_text() == "old log\n" + plain * 3
    assert leftovers(tmp_path) == []


def test_output_to_a_pipe_through_its_descriptor():
    """`-o /dev/stdout | cat`, `-o /dev/fd/1` and a process substitution `-o >(cat)` write into the pipe."""
    plain = run(["-l", BLOCKED] + T16)[1].encode()
    for name in ("/dev/stdout", "/dev/fd/1"):
        proc = ttlayout("-l", BLOCKED, *T16, "-o", name)
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, plain, b"")
    bash = shutil.which("bash")
    if bash:
        cmd = (f"{sys.executable} -m linlayout_cli -l '{BLOCKED}' -t 'tensor<16x16xf16>' -o >(cat > sub.txt); "
               "wait; sleep 0.2; cat sub.txt")
        proc = subprocess.run([bash, "-c", cmd], capture_output=True, timeout=60, cwd=DATA,
                              env=dict(os.environ, PYTHONPATH=str(ROOT)))
        (DATA / "sub.txt").unlink(missing_ok=True)
        assert proc.returncode == 0 and proc.stdout == plain, proc.stderr


def test_output_to_a_closed_descriptor_is_one_error():
    proc = ttlayout("-l", BLOCKED, *T16, "-o", "/dev/fd/9")
    assert proc.returncode == 1 and proc.stdout == b""
    assert proc.stderr == b"ttlayout: error: cannot write output file /dev/fd/9: Bad file descriptor\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["-l", BLOCKED, *T16], ["-l", BLOCKED, *T16, "--format", "svg"],
                                  ["convert", "-s", BLOCKED, "-d", BLOCKED.replace("[4, 1]", "[1, 4]"), *T16]],
                         ids=["print", "svg", "convert"])
def test_output_to_a_full_device_is_one_error(argv):
    """Data that only reaches the device when the file is closed (the text of `convert`) fails there: still one
    line (it was `internal error (TypeError ...)`)."""
    assert clean_error(argv + ["-o", "/dev/full"]) == "cannot write output file /dev/full: No space left on device"


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_read_only_output_file_is_refused_as_a_shell_would(tmp_path):
    """`>` on a 0444 file fails for a user and succeeds for root: so does -o (root's replacement keeps the mode).
    Run as root, the test takes the user's side by dropping its effective ids to nobody's for that one run."""
    shared = Path(tempfile.mkdtemp(prefix="ttlayout-ro-"))
    try:
        shared.chmod(0o777)
        ro = shared / "ro.txt"
        ro.write_text("old")
        ro.chmod(0o444)
        argv = ["-l", BLOCKED, "-o", str(ro)] + T16
        run(["-l", BLOCKED, "-o", str(shared / "warm.txt")] + T16)      # every module the run needs is loaded
        if IS_ROOT:
            os.setegid(65534)
            os.seteuid(65534)
        try:
            code, out, err = run(argv)
        finally:
            if IS_ROOT:
                os.seteuid(0)
                os.setegid(0)
        assert (code, out) == (1, "") and err == f"ttlayout: error: cannot write output file {ro}: Permission denied\n"
        assert ro.read_text() == "old" and leftovers(shared) == []
        if IS_ROOT:
            assert run(argv)[0] == 0
            assert ro.read_text() == run(["-l", BLOCKED] + T16)[1] and stat.S_IMODE(ro.stat().st_mode) == 0o444
    finally:
        shutil.rmtree(shared, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# the real executable: stdin bytes, closed streams, Ctrl-C, closed pipes
# ---------------------------------------------------------------------------------------------

def ttlayout(*argv, cwd=ROOT, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if "stdout" not in kwargs and "stderr" not in kwargs:
        kwargs["capture_output"] = True
    return subprocess.run([sys.executable, "-m", "linlayout_cli", *argv], timeout=60, cwd=cwd, env=env, **kwargs)


def test_stdin_bytes():
    good = ttlayout("-i", "-", *T16, input=FILE_TEXT.encode())
    assert good.returncode == 0 and good.stdout.decode() == expected_output() and not good.stderr
    bad = ttlayout("-i", "-", *T16, input=b"#blocked = \xff\xfe\n")
    assert bad.returncode == 1 and not bad.stdout
    assert bad.stderr.decode() == "ttlayout: error: standard input is not UTF-8 text (invalid byte 0xff at offset 11)\n"


def test_closed_streams():
    script = f"{sys.executable!s} -m linlayout_cli"
    closed_out = subprocess.run(["sh", "-c", f"{script} -l '{BLOCKED}' -t 'tensor<16x16xf16>' >&-"],
                                capture_output=False, stderr=subprocess.PIPE, timeout=60, cwd=ROOT)
    assert closed_out.returncode == 1 and closed_out.stderr.decode().count("\n") == 1
    assert b"standard output" in closed_out.stderr and b"Traceback" not in closed_out.stderr
    closed_in = subprocess.run(["sh", "-c", f"{script} -i - -t 'tensor<16x16xf16>' <&-"],
                               capture_output=True, timeout=60, cwd=ROOT)
    assert closed_in.returncode == 1 and b"standard input" in closed_in.stderr
    assert closed_in.stderr.decode().count("\n") == 1


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_full_disk_on_stdout():
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "linlayout_cli", "-l", BLOCKED, *T16], stdout=full,
                              stderr=subprocess.PIPE, timeout=60, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr.decode() == "ttlayout: error: cannot write to standard output: No space left on device\n"


@pytest.mark.parametrize("signum,code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["SIGTERM", "SIGHUP"])
def test_stop_signal_while_printing_to_stdout(signum, code):
    got, out, err = _interrupt(BIG, lambda p: p.stdout.read(100_000), signum=signum)
    assert got == code and err == b"", err[-2000:]
    assert out.startswith(b"Print layout attribute: ")


def test_dash_output_is_standard_output(tmp_path):
    proc = ttlayout("-l", BLOCKED, *T16, "-o", "-", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.decode() == run(["-l", BLOCKED] + T16)[1]
    assert list(tmp_path.iterdir()) == []


def test_closed_pipe_ends_quietly():
    """`ttlayout ... | head -c 1000`: the reader leaves early."""
    proc = subprocess.Popen([sys.executable, "-m", "linlayout_cli", *BIG], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)
    head = proc.stdout.read(1000)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert head.startswith(b"Print layout attribute: ") and err == b""


def default_signals():
    """For a child: every signal at its default disposition, whatever this process inherited (a test suite started
    as a background job ignores SIGINT and SIGQUIT, under nohup SIGHUP)."""
    for signum in range(1, signal.NSIG):
        if signum in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            signal.signal(signum, signal.SIG_DFL)
        except (OSError, ValueError):
            pass


def _interrupt(argv, ready, cwd=ROOT, signum=signal.SIGINT, code=None):
    """Start ttlayout (or `code`, a -c script) with default signal dispositions, wait for `ready`, send `signum`."""
    command = [sys.executable, "-m", "linlayout_cli", *argv] if code is None else [sys.executable, "-c", code, *argv]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                            preexec_fn=default_signals, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    got = ready(proc)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, got + out, err


def test_ctrl_c_while_printing_to_stdout():
    code, out, err = _interrupt(BIG, lambda p: p.stdout.read(100_000))
    assert code == 130 and err == b"", err[-2000:]
    assert out.startswith(b"Print layout attribute: ") and len(out) < 200_000_000


def test_ctrl_c_test_holds_when_the_suite_ignores_sigint():
    """The suite started in the background (`pytest &`, nohup) inherits SIGINT ignored; the child's dispositions
    are set by the test itself, so Ctrl-C still reaches it."""
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code, out, err = _interrupt(BIG, lambda p: p.stdout.read(100_000))
    finally:
        signal.signal(signal.SIGINT, saved)
    assert code == 130 and err == b"", err[-2000:]


def _temporary_file_open(proc, directory: Path) -> bool:
    """Whether the child holds its temporary output file: a `.ttlayout-*` name, or (O_TMPFILE) a nameless file in
    `directory`, which /proc shows as `<directory>/#<inode> (deleted)`."""
    if leftovers(directory):
        return True
    try:
        links = [os.readlink(f"/proc/{proc.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{proc.pid}/fd")]
    except OSError:
        return False
    return any(link.startswith(f"{directory}/#") or link.startswith(f"{directory}/.ttlayout-") for link in links)


def _wait_for_temporary_file(directory: Path):
    def ready(proc):
        deadline = time.monotonic() + 30
        while not _temporary_file_open(proc, directory) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
        assert _temporary_file_open(proc, directory), "the render ended before the temporary file was seen"
        return b""
    return ready


# a child that writes its -o file through a named temporary file, as systems without O_TMPFILE do
NAMED_TEMPORARY = ("import sys; from linlayout_cli import cli, outfile; outfile._anonymous_file = lambda directory: None; "
                   "sys.argv[0] = 'ttlayout'; cli.main()")
FATAL = [s for s in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGXCPU",
                     "SIGVTALRM", "SIGPROF", "SIGPWR", "SIGRTMIN") if hasattr(signal, s)]


@pytest.mark.parametrize("name", FATAL)
def test_every_fatal_signal_removes_the_temporary_file(tmp_path, name):
    """Ctrl-C and every catchable fatal signal end quietly with 128 + signal: the old file stays, the (named)
    temporary file is gone."""
    signum = getattr(signal, name)
    target = tmp_path / "out.txt"
    target.write_text("old")
    got, out, err = _interrupt(BIG + ["-o", str(target)], _wait_for_temporary_file(tmp_path), signum=signum,
                               code=NAMED_TEMPORARY)
    assert (got, err, out) == (128 + signum, b"", b"")
    assert target.read_text() == "old" and leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "O_TMPFILE") or not os.path.isdir("/proc/self/fd"), reason="Linux O_TMPFILE")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGKILL"])
def test_nameless_temporary_file_survives_nothing(tmp_path, name):
    """With O_TMPFILE the temporary file has no name until the end: even SIGKILL leaves nothing behind."""
    signum = getattr(signal, name)
    target = tmp_path / "out.txt"
    target.write_text("old")
    got, out, err = _interrupt(BIG + ["-o", str(target)], _wait_for_temporary_file(tmp_path), signum=signum)
    assert got == (128 + signum if signum != signal.SIGKILL else -signum) and out == b""
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_an_ignored_signal_stays_ignored(tmp_path):
    """Under nohup SIGHUP is ignored: ttlayout keeps it so and finishes its output."""
    target = tmp_path / "out.txt"
    ignore_hup = "import signal, sys, runpy; signal.signal(signal.SIGHUP, signal.SIG_IGN); " \
                 "sys.argv[0] = 'ttlayout'; runpy.run_module('linlayout_cli', run_name='__main__')"
    medium = ["-l", BIG[1], "-t", "tensor<1024x1024xf16>", "-o", str(target)]
    proc = subprocess.Popen([sys.executable, "-c", ignore_hup, *medium], stderr=subprocess.PIPE, cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    _wait_for_temporary_file(tmp_path)(proc)
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=120) == 0 and proc.stderr.read() == b""
    assert target.read_text().startswith("Print layout attribute: ")
