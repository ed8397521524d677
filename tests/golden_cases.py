"""Loader helpers for the golden files written by ``scripts/make_golden.py`` (Triton 3.9.0 oracle).

Layout of ``golden/<suite>/``:

* ``cases.jsonl`` - one JSON object per line: ``id``, ``args`` (argv for ttlayout), ``exit`` (Triton's
  exit code: 0, 1, 134 = abort, 136 = SIGFPE), ``stdout`` (``"<id>.out"`` or null), ``kind``, ``note``
  and, for error cases, ``stderr_first_line``.  ``-i`` inputs live in ``golden/<suite>/inputs`` and are
  referenced relative to the repository root.
* ``<id>.out`` - Triton's exact stdout.

The bank suite (``golden/bank/cases.jsonl``) has ``id, reg, shared, shape, bitwidth, conflicts, exit``.
"""
from __future__ import annotations

import difflib
import json
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
