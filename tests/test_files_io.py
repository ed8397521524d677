"""Files and streams: -i (missing, directory, unreadable, non-UTF-8, NUL, too large, stdin '-'), -o (unwritable
paths, atomic replacement, no partial or temporary file after an error or Ctrl-C, devices and FIFOs written
in place, symlinks followed, permissions kept), Ctrl-C and closed pipes through the real executable."""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from linlayout_cli import cli
from linlayout_cli.cli import run
from linlayout_cli.errors import TTLayoutError

ROOT = Path(__file__).resolve().parent.parent
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
    """Triton's tool prints nothing and exits 0; a user deserves to hear that nothing was found."""
    for name, text in (("empty.mlir", ""), ("kernel.py", "import triton\n@triton.jit\ndef k(x): pass\n")):
        path = tmp_path / name
        path.write_text(text)
        code, out, err = run(["-i", str(path)] + T16)
        assert (code, out) == (1, "") and "holds no layout alias" in err and err.count("\n") == 1


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

    monkeypatch.setattr(cli.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
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


def test_input_and_output_the_same_file(tmp_path, mlir):
    assert run(["-i", str(mlir), "-o", str(mlir)] + T16)[0] == 0
    assert mlir.read_text() == expected_output()


# ---------------------------------------------------------------------------------------------
# the real executable: stdin bytes, closed streams, Ctrl-C, closed pipes
# ---------------------------------------------------------------------------------------------

def ttlayout(*argv, cwd=ROOT, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "linlayout_cli", *argv], capture_output=True, timeout=60,
                          cwd=cwd, env=env, **kwargs)


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


def _interrupt(argv, ready, cwd=ROOT, signum=signal.SIGINT):
    proc = subprocess.Popen([sys.executable, "-m", "linlayout_cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=cwd)
    got = ready(proc)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, got + out, err


def test_ctrl_c_while_printing_to_stdout():
    code, out, err = _interrupt(BIG, lambda p: p.stdout.read(100_000))
    assert code == 130 and err == b"", err[-2000:]
    assert out.startswith(b"Print layout attribute: ") and len(out) < 200_000_000


@pytest.mark.parametrize("signum,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_signal_while_writing_an_output_file(tmp_path, signum, code):
    """Ctrl-C, SIGTERM and SIGHUP all end quietly: the old file stays, the temporary file is gone."""
    target = tmp_path / "out.txt"
    target.write_text("old")

    def wait_for_temp_file(proc):
        deadline = time.monotonic() + 30
        while not leftovers(tmp_path) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
        assert leftovers(tmp_path), "the render ended before the temporary file was seen"
        return b""

    got, out, err = _interrupt(BIG + ["-o", str(target)], wait_for_temp_file, signum=signum)
    assert (got, err, out) == (code, b"", b"")
    assert target.read_text() == "old" and leftovers(tmp_path) == []
