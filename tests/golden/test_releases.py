"""`ttlayout --triton X.Y` vs. each older release's own triton-tensor-layout (Triton 3.2 ... 3.8), byte for byte.

The golden files ``golden/releases/<X.Y>.jsonl.gz`` come from ``scripts/golden/releases.py`` (each release's own
printer run on the 3.9 cases of core, files, errors and mma, spelled as that release spells them; only what differs
from 3.9's text is stored). Per case:

* the release printed (exit 0): ttlayout exits 0 with the same bytes (but the header line where the release printed
  uninitialized memory there: Triton 3.5 after an amd_mfma with its optional fields left out);
* the release failed (exit 1, an abort 134, SIGFPE 136): ttlayout exits 1 with one error line, nothing on stdout;
* a case whose 3.9 twin is a deliberate difference (``"ttlayout"`` in the 3.9 suite: ``same_as``, ``error``,
  ``prints``) keeps it where the release answers as 3.9 does.

``release_gaps.json`` lists the cases where ttlayout does not match the release yet (xfail, strict: a fixed gap must
leave the list). ``release_deviations.json`` lists deliberate differences: where the release rejects a 3.9 spelling
of a layout it has (3.2's ``#ttg.`` in ``-t``), ttlayout prints what the release's own spelling prints. The 3.9
suites themselves are ``test_golden.py``'s."""
from __future__ import annotations

import gzip
import json

import pytest
from golden_cases import GOLDEN, ROOT, load_suite, short_diff

RELEASES = ("3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8")
BASE = {(c["suite"], c["id"]): c for suite in ("core", "files", "errors", "mma") for c in load_suite(suite)}
GAPS = json.loads((ROOT / "tests" / "golden" / "release_gaps.json").read_text(encoding="utf-8"))
DEVIATIONS = json.loads((ROOT / "tests" / "golden" / "release_deviations.json").read_text(encoding="utf-8"))


def load_release(release: str) -> list[dict]:
    path = GOLDEN / "releases" / f"{release}.jsonl.gz"
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


RECORDS = {r: load_release(r) for r in RELEASES}
CASES = [(r, rec) for r in RELEASES for rec in RECORDS[r]]


def expected_stdout(rec: dict) -> str:
    """The release's stdout: 3.9's .out, with the lines the release prints differently replaced."""
    out = rec["stdout"]
    if isinstance(out, str):
        return out
    base = BASE[rec["suite"], rec["id"]]
    text = (GOLDEN / base["suite"] / base["stdout"]).read_bytes().decode("utf-8")
    if out.get("same"):
        return text
    lines = text.split("\n")
    for i, line in out["lines"]:
        lines[i] = line
    return "\n".join(lines)


@pytest.fixture(scope="module")
def run():
    from linlayout_cli.cli import run as _run
    return _run


@pytest.fixture(autouse=True)
def _repo_root_cwd(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TTLAYOUT_TRITON", raising=False)


def test_deviations_are_recorded_failures():
    """Each deliberate difference is a case its release refuses (and so no gap too)."""
    for release, cases in DEVIATIONS.items():
        for case in cases:
            rec = next(r for r in RECORDS[release] if f"{r['suite']}/{r['id']}" == case)
            assert rec["exit"] != 0 and case not in GAPS.get(release, {})


def test_every_release_has_golden_files():
    for release in RELEASES:
        assert RECORDS[release], f"golden/releases/{release}.jsonl.gz missing; run python3 -m scripts.golden.releases"


def _params():
    for release, rec in CASES:
        marks = ()
        gap = GAPS.get(release, {}).get(f"{rec['suite']}/{rec['id']}")
        if gap:
            marks = (pytest.mark.xfail(strict=True, reason=gap),)
        yield pytest.param(release, rec, id=f"{release}-{rec['suite']}-{rec['id']}", marks=marks)


def _release_spelling(args: list[str], release: str) -> list[str]:
    """`-t`'s encoding spelled in the release's dialect (3.2: #triton_gpu.)."""
    from linlayout_cli.attributes.releases import RELEASES
    dialect = RELEASES[release].dialect
    return [a.replace("#ttg.", f"#{dialect}.") if k and args[k - 1] in ("-t", "--t") else a
            for k, a in enumerate(args)]


@pytest.mark.parametrize("release,rec", list(_params()))
def test_release_case(release, rec, run):
    code, out, err = run(["--triton", release, *rec["args"]])
    if f"{rec['suite']}/{rec['id']}" in DEVIATIONS.get(release, {}):
        spelled = _release_spelling(rec["args"], release)
        assert spelled != rec["args"]
        want = run(["--triton", release, *spelled])
        assert want[0] == 0 and (code, out) == want[:2], (code, err)
        return
    base = BASE[rec["suite"], rec["id"]]
    deviation = base.get("ttlayout") if (base["exit"] == 0) == (rec["exit"] == 0) else None
    if deviation and "same_as" in deviation:
        twin = next((r for r in RECORDS[release] if r["id"] == deviation["same_as"] and r["suite"] == rec["suite"]),
                    None)
        if twin is None or twin["exit"] != 0:
            pytest.skip(f"the canonical twin {deviation['same_as']} does not print in Triton {release}")
        want = expected_stdout(twin)
        assert code == 0, err
        assert out == want, short_diff(want, out)
    elif deviation and "error" in deviation:
        _clean_error(code, out, err)
    elif deviation and "prints" in deviation:
        if code != 0:                # the release refuses the layout for a reason of its own: named, one line
            _clean_error(code, out, err)
            assert f"Triton {release}" in err, err
        else:
            assert out.startswith("Print layout attribute: "), out[:300]
    elif rec["exit"] == 0:
        want = expected_stdout(rec)
        assert code == 0, f"Triton {release} prints; ttlayout exit {code}: {err}"
        if rec["stdout"].get("unstable_header") if isinstance(rec["stdout"], dict) else False:
            # the release's header holds uninitialized memory: every other line must match
            assert out.startswith("Print layout attribute: ")
            out, want = out.split("\n", 1)[1], want.split("\n", 1)[1]
        if out != want:
            pytest.fail(f"stdout differs from Triton {release}\n{short_diff(want, out)}", pytrace=False)
    else:
        _clean_error(code, out, err)


def _clean_error(code, out, err):
    assert code == 1 and out == "", (code, out[:300], err)
    text = err.strip("\n")
    assert text.startswith("ttlayout: error: ") and "\n" not in text and "Traceback" not in err, err
