"""Loader helpers for the golden files written by ``scripts/make_golden.py`` (Triton 3.9.0 oracle).

Layout of ``golden/<suite>/``:

* ``cases.jsonl`` - one JSON object per line: ``id``, ``args`` (argv for ttlayout), ``exit`` (Triton's
  exit code: 0, 1, 134 = abort, 136 = SIGFPE), ``stdout`` (``"<id>.out"`` or null), ``kind``, ``note``
  and, for error cases, ``stderr_first_line``.  ``-i`` inputs live in ``golden/<suite>/inputs`` and are
  referenced relative to the repository root.
* ``<id>.out`` - Triton's exact stdout.

The core and mma success cases printing one ``-l`` layout also have Triton's own linear layout:
``bases`` (``{"register": [[..], ..], "lane", "warp", "block"}`` or ``{"offset", "block"}``), ``out_dims``
(``{"dim0": n, ..}``), ``linear_attr`` (Triton's canonical print of those bases as an attribute, or null),
``linear_same_view`` and sometimes ``linear_rejected`` (see ``scripts/golden/linear.py``).

The bank suite (``golden/bank/cases.jsonl``) has ``id, reg, shared, shape, bitwidth, conflicts, exit``.
Ids are ``<section>-<nnn>``: stable across regenerations (``scripts/golden/suite.py``).
"""
from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


def load_suite(suite: str) -> list[dict]:
    path = GOLDEN / suite / "cases.jsonl"
    if not path.exists():
        return []
    cases = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                c = json.loads(line)
                c["suite"] = suite
                cases.append(c)
    return cases


def expected_stdout(case: dict) -> str:
    return (GOLDEN / case["suite"] / case["stdout"]).read_bytes().decode("utf-8")


def case_id(case: dict) -> str:
    return "%s/%s" % (case["suite"], case["id"])


def short_diff(expected: str, actual: str, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                      fromfile="triton", tofile="ttlayout", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)\n" % (len(lines) - limit)]
    out = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return out or "(no line difference; trailing newline or whitespace differs)\n"


def option_values(args: list[str]) -> dict[str, str]:
    """Values of the valued options of a golden argv, in any LLVM spelling (``-l X``, ``-l=X``, ``--l X``)."""
    values, i = {}, 0
    while i < len(args):
        name, eq, value = args[i].lstrip("-").partition("=")
        if name in ("l", "t", "i", "o", "alias-names") and args[i].startswith("-"):
            if not eq:
                i += 1
                value = args[i]
            values[name] = value
        i += 1
    return values


def tensor_shape(tensor_type: str) -> list[int]:
    """``tensor<16x8xf16>`` -> ``[16, 8]``"""
    dims = re.match(r"tensor<((?:\d+x)*)", tensor_type).group(1)
    return [int(x) for x in dims.split("x") if x]


def replace_layout(args: list[str], attr: str) -> list[str]:
    """The argv with its ``-l`` value replaced by `attr`, spelling kept; an encoding written in ``-t`` (which
    would then be a different layout from ``-l``) is left out."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-l", "--l"):
            out += [a, attr]
            i += 2
            continue
        if a in ("-t", "--t") and i + 1 < len(args):
            out += [a, without_encoding(args[i + 1])]
            i += 2
            continue
        if a.startswith(("-t=", "--t=")):
            name, value = a.split("=", 1)
            a = name + "=" + without_encoding(value)
        out.append(a.split("=", 1)[0] + "=" + attr if a.startswith(("-l=", "--l=")) else a)
        i += 1
    return out


def without_encoding(tensor_type: str) -> str:
    """``tensor<16x16xf16, #ttg.blocked<...>>`` -> ``tensor<16x16xf16>``"""
    return re.sub(r",.*>$", ">", tensor_type, flags=re.S)
