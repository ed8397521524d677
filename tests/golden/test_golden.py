"""ttlayout vs. Triton 3.9.0: byte-for-byte comparison with the golden files.

The golden files are produced by ``scripts/make_golden.py`` (the package ``scripts/golden/``; Triton as an oracle,
never needed here).
Each case runs ttlayout in process through ``linlayout_cli.cli.run(argv) -> (exit, stdout, stderr)``.

* success case (Triton exit 0): exit 0 and stdout identical to ``golden/<suite>/<id>.out``;
* error case (Triton exit != 0, including its aborts 134/136): exit 1, empty stdout, and stderr is
  exactly one non-empty line (no traceback).

* deliberate difference (the case's ``"ttlayout"`` field, see ``scripts/golden/__init__.py``):
  ``same_as`` (a legacy spelling must print exactly Triton's output for the canonical twin case),
  ``error`` (Triton prints a meaningless result; ttlayout must fail cleanly), ``prints`` (Triton aborts on
  a well-defined layout; ttlayout must print it).

The ``bank`` suite (numbers, not text) is checked by ``tests/analysis/test_bank.py``.
"""
from __future__ import annotations

import pytest
from golden_cases import ROOT, case_id, expected_stdout, load_suite, short_diff

SUITES = ["core", "files", "errors", "mma"]

CASES = [c for suite in SUITES for c in load_suite(suite)]


@pytest.fixture(scope="module")
def run():
    from linlayout_cli.cli import run as _run  # ImportError until the CLI exists

    return _run


@pytest.fixture(autouse=True)
def _repo_root_cwd(monkeypatch):
    # -i inputs are referenced relative to the repository root
    monkeypatch.chdir(ROOT)


def test_suites_present():
    for suite in SUITES:
        assert load_suite(suite), "golden/%s/cases.jsonl missing or empty; run scripts/make_golden.py" % suite


BY_ID = {c["id"]: c for c in CASES}


def assert_clean_error(code, out, err, why):
    assert code == 1, "ttlayout exit %r, expected 1; %s\nstdout: %.300s\nstderr: %.300s" % (code, why, out, err)
    assert out == "", "stdout must be empty on error; %s\nstdout: %.300s" % (why, out)
    assert "Traceback" not in err and "internal error" not in err, "traceback on stderr; %s\n%s" % (why, err)
    text = err.strip("\n")
    assert text.strip() and "\n" not in text, "stderr must be exactly one non-empty line; %s\nstderr: %r" % (why, err)


def assert_same(expected, code, out, err, note):
    assert code == 0, "ttlayout exit %r, Triton 0 (%s)\nstderr: %s" % (code, note, err)
    if out != expected:
        pytest.fail("stdout differs from Triton (%s)\n%s" % (note, short_diff(expected, out)), pytrace=False)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_golden(case, run):
    code, out, err = run(list(case["args"]))
    deviation = case.get("ttlayout")
    if deviation and "same_as" in deviation:
        assert_same(expected_stdout(BY_ID[deviation["same_as"]]), code, out, err, case["note"] + ", legacy spelling")
    elif deviation and "error" in deviation:
        assert_clean_error(code, out, err, deviation["error"])
    elif deviation and "prints" in deviation:
        notes_only = all(line.startswith("ttlayout: note: ") for line in err.splitlines())   # e.g. 2 lanes per warp
        assert code == 0 and notes_only, "ttlayout should print (%s); exit %r, stderr %s" % (deviation["prints"], code,
                                                                                           err)
        assert out.startswith("Print layout attribute: "), out[:300]
    elif case["exit"] == 0:
        assert_same(expected_stdout(case), code, out, err, case["note"])
    else:
        why = "Triton exit %d: %s (%s)" % (case["exit"], case.get("stderr_first_line", ""), case["note"])
        assert_clean_error(code, out, err, why)
