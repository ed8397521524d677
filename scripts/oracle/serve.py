"""The oracle's one entry point: the command line of ``scripts/triton_oracle.py`` and the JSON-lines server the golden
generator talks to.  Run with the oracle interpreter (Triton 3.9.0 installed).

Usage
-----
  triton_oracle.py [CLI args]            emulate the tool: -l ATTR -t TYPE [-use-hw-view] [-i FILE]
                                         [-alias-names=a,b] [-o FILE]; prints stdout/stderr, exits
                                         with the tool's exit code
  triton_oracle.py bank REG SHARED SHAPE BITWIDTH
                                         GluonOpBuilder.get_shared_bank_conflicts (SHAPE like 64x64)
  triton_oracle.py linear ATTR SHAPE     Triton's linear layout of ATTR (the "linear" answer below), as JSON
  triton_oracle.py gluon TEXT SHAPE [hw] Gluon's answers for a constructor text (the "gluon" answer below), as JSON
  triton_oracle.py --serve               JSON-lines server used by scripts/golden/: one request per input line,
                                         one answer per output line, in order

Requests of ``--serve`` and their answers (every answer has "exit", Triton's exit code: 0, 1, 134 abort, 136 SIGFPE):

* {"op": "cli", "args": [...]}: the tool (module ``printing``) -> {"exit", "stdout": str|null, "stderr"};
* {"op": "bank", "reg", "shared", "shape": [..], "bitwidth": n} (module ``bank``) -> {"exit", "conflicts": n|null,
  "stdout": null, "stderr"};
* {"op": "linear", "attr", "shape": [..]}: Triton's toLinearLayout(shape, attr) (module ``bases``) -> {"exit",
  "bases": {in dim: [[..]..]}, "out_dims": {dim: size}, "alignment": a shared layout's getAlignment() or null,
  "gluon": GluonOpBuilder.to_linear_layout's bases (+ alignment of a shared layout) or null, "stdout": null,
  "stderr"};
* {"op": "gluon", "text": GLUON, "shape": [..], "hw": bool}: a Gluon constructor text (``ttgl.BlockedLayout(...)``)
  evaluated safely (module ``gluon``) -> {"exit", "error", "attr" (canonical text of the attribute Gluon builds),
  "view" (gluon_ir.get_layout_view), "view_error", "linear" (to_linear_layout: {"bases", "out_sizes"|"alignment"}),
  "linear_error"};
* {"op": "memory", "what": "shared"|"tmem"|"tmem_reg", ...}: facts of padded / partitioned shared and tensor memory
  layouts (module ``memory``) -> {"exit", "facts", "stdout": null, "stderr"}.

Each oracle is built once, on first use, in the server process; every request then runs in forked children of it.
"""
from __future__ import annotations

import functools
import json
import sys

from .bank import BankOracle, run_bank
from .bases import LinearOracle, run_linear
from .gluon import GluonOracle, run_gluon
from .memory import MemoryOracle, run_memory
from .printing import CliOracle, run_cli


@functools.cache
def cli() -> CliOracle:
    """3.9's tool, or the installed older release's (``release.ReleaseOracle``, imported only then)."""
    import importlib.metadata
    if not importlib.metadata.version("triton").startswith("3.9."):
        from .release import ReleaseOracle
        return ReleaseOracle()
    return CliOracle()


@functools.cache
def bank() -> BankOracle:
    return BankOracle(cli())


@functools.cache
def linear() -> LinearOracle:
    return LinearOracle(bank())


@functools.cache
def gluon() -> GluonOracle:
    return GluonOracle(linear())


@functools.cache
def memory() -> MemoryOracle:
    return MemoryOracle(linear())


def answer(req: dict) -> dict:
    """The answer to one ``--serve`` request (see the module docstring)."""
    if req["op"] == "cli":
        rc, out, err = run_cli(cli(), req["args"])
        return {"exit": rc, "stdout": None if out is None else out.decode("utf-8", "surrogateescape"),
                "stderr": err.decode("utf-8", "replace")}
    if req["op"] == "linear":
        rc, res, err = run_linear(linear(), req["attr"], req["shape"])
        return {"exit": rc, "stdout": None, "stderr": err.decode("utf-8", "replace"), **(res or {})}
    if req["op"] == "gluon":
        return run_gluon(gluon(), req["text"], req["shape"], req.get("hw", False))
    if req["op"] == "memory":
        rc, res, err = run_memory(memory(), req)
        return {"exit": rc, "stdout": None, "stderr": err.decode("utf-8", "replace"), "facts": res}
    if req["op"] == "bank":
        rc, n, err = run_bank(bank(), req["reg"], req["shared"], req["shape"], req["bitwidth"])
        return {"exit": rc, "conflicts": n, "stdout": None, "stderr": err.decode("utf-8", "replace")}
    return {"exit": 99, "stdout": None, "stderr": "bad request"}


def serve():
    """Answer JSON requests from stdin, one line each, until stdin closes."""
    cli()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        sys.stdout.write(json.dumps(answer(json.loads(line))) + "\n")
        sys.stdout.flush()


def _shape(text: str) -> list[int]:
    """``64x64`` -> ``[64, 64]``."""
    return [int(x) for x in text.split("x")]


def main(argv) -> int:
    if argv[:1] == ["--serve"]:
        serve()
        return 0
    if argv[:1] == ["linear"]:
        if len(argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        rc, res, err = run_linear(linear(), argv[1], _shape(argv[2]))
        sys.stderr.buffer.write(err)
        if rc == 0:
            print(json.dumps(res))
        return rc
    if argv[:1] == ["gluon"]:
        if len(argv) not in (3, 4):
            print(__doc__, file=sys.stderr)
            return 2
        print(json.dumps(run_gluon(gluon(), argv[1], _shape(argv[2]), argv[3:] == ["hw"]), indent=1))
        return 0
    if argv[:1] == ["bank"]:
        if len(argv) != 5:
            print(__doc__, file=sys.stderr)
            return 2
        rc, n, err = run_bank(bank(), argv[1], argv[2], _shape(argv[3]), int(argv[4]))
        sys.stderr.buffer.write(err)
        if rc == 0:
            print(n)
        return rc
    rc, out, err = run_cli(cli(), argv)
    sys.stderr.buffer.write(err)
    sys.stderr.flush()
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return rc
