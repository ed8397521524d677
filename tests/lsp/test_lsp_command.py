"""`ttlayout lsp` as a command: registered like the others, its libraries (the lsp extra) loaded only when it
runs, and one error line naming the extra where they are missing."""
from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from linlayout_cli.cli import run
from linlayout_cli.commands import COMMANDS, SUBCOMMANDS

# pygls and lsprotocol made unimportable, as in a base install
WITHOUT_PYGLS = ("import sys\nfor name in ('pygls', 'lsprotocol'):\n    sys.modules[name] = None\n"
                 "sys.argv = ['ttlayout', 'lsp']\nfrom linlayout_cli.cli import main\nmain()\n")


def test_lsp_is_a_command():
    assert "lsp" in COMMANDS and "lsp" in SUBCOMMANDS
    code, out, _ = run(["--help"])
    assert code == 0 and "lsp " in out and "Language Server" in out


def test_without_the_extra_it_is_one_error_line():
    done = subprocess.run([sys.executable, "-c", WITHOUT_PYGLS], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("ttlayout: error: ttlayout lsp needs the lsp extra (pygls 2 and lsprotocol): "
                           "pip install 'ttlayout[lsp]'\n")


def test_other_commands_never_load_pygls():
    script = ("import sys\nfrom linlayout_cli.cli import run\n"
              "run(['info', '-l', '#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = "
              "[1, 1], order = [1, 0]}>', '-t', 'tensor<4x8xf16>'])\n"
              "run(['--help'])\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol', 'cattrs') or "
              "m.startswith('linlayout_cli.lsp')))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def _message(payload: dict) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _server() -> subprocess.Popen:
    pytest.importorskip("pygls")
    proc = subprocess.Popen([sys.executable, "-m", "linlayout_cli", "lsp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(_message({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                               "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
    proc.stdin.flush()
    header = proc.stdout.readline()
    assert header.startswith(b"Content-Length: ")
    return proc


def test_exit_ends_the_server_even_with_its_input_open():
    proc = _server()
    proc.stdin.write(_message({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    proc.stdin.write(_message({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.flush()
    assert proc.wait(timeout=60) == 0                 # the pipe is still open: exit alone ended it
    proc.stdin.close()
    proc.stdout.close()
    proc.stderr.close()


def test_exit_without_shutdown_is_status_1_and_sigterm_ends_it():
    proc = _server()
    proc.stdin.write(_message({"jsonrpc": "2.0", "method": "exit"}))
    proc.stdin.flush()
    assert proc.wait(timeout=60) == 1
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()
    proc = _server()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()
