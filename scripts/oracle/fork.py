"""Running one oracle call in a forked child, so that an abort (SIGABRT -> 134, SIGFPE -> 136) or a hang loses that
call only, never the server; stdout comes back only when the child succeeds, like the tool's."""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import tempfile
import traceback

CASE_TIMEOUT_S = int(os.environ.get("ORACLE_CASE_TIMEOUT", "120"))
# address-space limit of each child in MiB (0: none); old releases take gigabytes on some inputs, an allocation
# failure then aborts the child like any other abort
CASE_MEMORY_MB = int(os.environ.get("ORACLE_CASE_MEMORY_MB", "0"))
_PROGNAME = None


def _set_progname(name: bytes):
    """Make assertion messages read `triton-tensor-layout: file:line: ...` as from the real tool."""
    global _PROGNAME
    try:
        libc = ctypes.CDLL(None)
        _PROGNAME = ctypes.create_string_buffer(name)
        ctypes.c_void_p.in_dll(libc, "program_invocation_short_name").value = ctypes.addressof(_PROGNAME)
    except (OSError, ValueError):
        pass


def run_forked(fn, timeout=CASE_TIMEOUT_S, progname=None):
    """Run fn() -> (rc, payload_bytes) in a forked child. Returns (exit_code, payload|None, stderr)."""
    errf = tempfile.TemporaryFile()
    resf = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        rc = 99
        try:
            signal.alarm(timeout)
            if CASE_MEMORY_MB:
                import resource
                limit = CASE_MEMORY_MB << 20
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            if progname:
                _set_progname(progname)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(errf.fileno(), 2)
            rc, payload = fn()
            if payload is not None:
                resf.write(payload)
                resf.flush()
        except BaseException:
            try:
                os.write(2, ("ORACLE-INTERNAL-ERROR: " + traceback.format_exc()).encode())
            except BaseException:
                pass
            rc = 99
        os._exit(rc)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        rc = 128 + os.WTERMSIG(status)
    else:
        rc = os.WEXITSTATUS(status)
    errf.seek(0)
    err = errf.read()
    resf.seek(0)
    res = resf.read()
    errf.close()
    resf.close()
    return rc, (res if rc == 0 else None), err


def python_error(fn):
    """fn() -> (0, bytes); a Python exception becomes exit 1 with ``Type: message`` on stderr (an abort stays one)."""
    def run():
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - Gluon's asserts and nanobind's TypeErrors are answers here
            os.write(2, ("%s: %s\n" % (type(e).__name__, e)).encode())
            return 1, None
    return run


def first_error_line(err: bytes) -> str:
    """The first meaningful line of a child's stderr (nanobind's leak report skipped)."""
    for line in err.decode("utf-8", "replace").splitlines():
        if line.strip() and not line.startswith(("nanobind: leaked", " - leaked", " - ... skipped")):
            return line.strip()
    return ""
