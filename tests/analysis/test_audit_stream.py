"""Issue 32 C, the report stage: `audit`'s text and JSON are written as they are made. A huge function's rows are
never held as cells, lines, dicts or one string; each distinct op text is worded and encoded once. The streamed
text and JSON are byte for byte what the plain forms give (`json.dumps(..., indent=2)` of the whole report; the
table's lines from its cells), on the real kernels, a capture, hostile locations and a huge function."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import inputs, sources
from linlayout_cli.analysis.audit import analyze_audit, rank_by_waste
from linlayout_cli.reports import audit as report
from linlayout_cli.reports.blocks import Rows, Table, to_text, write_text

KERNELS = sorted((DATA / "kernels").glob("*.ttgir"))
CACHE = sorted((DATA / "cache").glob("*/*.ttgir"))
CASES = KERNELS[::4] + CACHE[::3] + [DATA / "dumps" / "softmax.sm90.mlir_dump.txt"]


def _huge_dump(path: Path, converts: int) -> Path:
    """benchmarks/huge_dump.py's one-function dump of `converts` converts."""
    spec = importlib.util.spec_from_file_location("huge_dump", ROOT / "benchmarks" / "huge_dump.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.write(str(path), converts)
    return path


def _audits(text: str):
    return analyze_audit(inputs.modules(text, None), None, inputs.several_modules(text))


def _eager_json(audits, path, extra, asm) -> str:
    """The report as one `json.dumps` of every row's dict (what `json_stream` must equal)."""
    mods = [report._module_json(m, asm[k] if asm else None) for k, m in enumerate(audits)]
    top = dict(mods[0]) if mods else {}
    return json.dumps({"file": path, **extra, **top, "modules": mods}, indent=2) + "\n"


def _plain_tables(blocks) -> list:
    """The blocks with every table's rows made into cells first (plain text then measures and pads them)."""
    return [Table(b.columns, tuple(b.rows), b.indent, b.fit, b.narrow) if isinstance(b, Table) else b
            for b in blocks]


def _check(text: str, path: str, asm=None) -> None:
    audits = _audits(text)
    extra = {"advise_command": "ttlayout advise k"}
    assert report.json_text(audits, path, extra, asm) == _eager_json(audits, path, extra, asm)
    for top, wide in ((None, False), (None, True), (3, False)):
        blocks = report.blocks(audits, path, top, wide, ("a note",), asm=asm, advise="ttlayout advise k")
        assert any(isinstance(b, Table) and isinstance(b.rows, Rows) for b in blocks) or \
            not any(m.findings for m in audits)
        assert to_text(blocks) == to_text(_plain_tables(report.blocks(audits, path, top, wide, ("a note",),
                                                                      asm=asm, advise="ttlayout advise k")))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_streamed_report_equals_plain_forms(path):
    text = path.read_text()
    listing = inputs.assembly(str(path), None, None, False, text) if path.parent.parent.name == "cache" else None
    asm = sources.asm_columns(_audits(text), listing) if listing is not None else None
    _check(text, str(path), asm)


def test_hostile_locations_are_escaped_the_same_way():
    """Locations echo the input: control characters, non-ASCII, braces and quotes go through the memoized cells
    and the JSON templates exactly as through `escaped` and `json.dumps`."""
    text = (DATA / "kernels" / "softmax.sm90.ttgir").read_text()
    hostile = text.replace('softmax.py"', '\x1b]0;x{0}\\"\u00e9\u202esoftmax.py"', 3)
    assert hostile != text
    audits = _audits(hostile)
    assert any("{0}" in (f.loc or "") for f in audits[0].findings)
    _check(hostile, "k{1}.ttgir")
    out = to_text(report.blocks(audits, "k.ttgir"))
    assert "\x1b" not in out and "\\x1b" in out


def test_linear_selections_equal_sorting():
    """most_waste / costliest / ranked(top) pick what sorting every row would, ties included."""
    for path in KERNELS[::3]:
        for m in _audits(path.read_text()):
            rows = m.findings
            assert report.most_waste(rows, 5, wasting=True) == [f for f in rank_by_waste(rows) if f.waste > 0][:5]
            assert report.most_waste(rows, 4) == rank_by_waste(rows)[:4]
            assert report.costliest(rows, 5) == [f for f in sorted(rows, key=lambda f: (-f.cost, f.line))
                                                 if f.cost > 0][:5]
            for top in (1, 3, 10):
                whole = rank_by_waste(rows)
                must = [f for f in whole if f.category.value in ("convert", "shared")]
                rest = [f for f in whole if f.category.value not in ("convert", "shared")]
                expected = whole if len(whole) <= top else rank_by_waste(must + rest[:max(0, top - len(must))])
                assert report.ranked(m, top) == expected


def test_each_distinct_op_is_worded_once(tmp_path, monkeypatch):
    """A function of 3,000 converts of three distinct op texts: the verdicts and the JSON rows are made a
    handful of times, not once a row (a regression to per-row wording fails here, without timing)."""
    audits = _audits(_huge_dump(tmp_path / "k.ttgir", 3000).read_text())
    calls = {"short_verdict": 0, "verdict": 0, "finding_json": 0}
    for name in calls:
        real = getattr(report, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)
        monkeypatch.setattr(report, name, counted)
    pieces: list[str] = []
    write_text(report.blocks(audits, "k.ttgir"), pieces.append)
    report.json_stream(audits, "k.ttgir", pieces.append)
    assert sum(p.count("ttg.convert_layout") for p in pieces) >= 3 * 3000
    assert calls["short_verdict"] <= 12 and calls["finding_json"] <= 6 and calls["verdict"] <= 12, calls


MEMORY = r"""
import os, resource, sys
from linlayout_cli import inputs
from linlayout_cli.analysis.audit import analyze_audit
from linlayout_cli.commands.output import Buffered
from linlayout_cli.reports import audit as report
from linlayout_cli.reports.blocks import write_text
text = open(sys.argv[1]).read()
audits = analyze_audit(inputs.modules(text, None), None, False)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with open(os.devnull, "wb") as sink:
    with Buffered(sink.write) as put:
        write_text(report.blocks(audits, "k.ttgir", advise="ttlayout advise k"), put)
    with Buffered(sink.write) as put:
        report.json_stream(audits, "k.ttgir", put)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


def test_reports_of_a_huge_function_hold_no_row(tmp_path):
    """The text (1 MB) and JSON (24 MB) of 10,000 converts raise the process's peak memory by less than 16 MB
    (holding the rows' dicts and one JSON string took over 150 MB): measured in a child process."""
    dump = _huge_dump(tmp_path / "k.ttgir", 10_000)
    done = subprocess.run([sys.executable, "-c", MEMORY, str(dump)], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 16, f"the reports added {done.stdout.strip()} MB"


@pytest.mark.parametrize("path", [KERNELS[0], DATA / "kernels" / "flash_attention.sm90.ttgir", CACHE[0]],
                         ids=lambda p: p.name)
def test_memo_bound_keeps_the_output(path, monkeypatch):
    """Rows that share nothing fill the memos up to MEMO, which then start again (a bound on memory): the text
    falls back to the rows' cells, the JSON to encoding each entry anew; the output stays the same."""
    monkeypatch.setattr(report, "MEMO", 2)
    text = path.read_text()
    listing = inputs.assembly(str(path), None, None, False, text) if path.parent.parent.name == "cache" else None
    asm = sources.asm_columns(_audits(text), listing) if listing is not None else None
    _check(text, str(path), asm)
