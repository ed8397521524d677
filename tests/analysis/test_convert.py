"""The convert_layout cost model (analysis/convert.py) against Triton 3.9.

Ground truth: golden/convert/cases.jsonl, written by scripts/golden/convert.py, which compiles a one-op
kernel per case with Triton 3.9 and counts the instructions of its assembly.  The path, the scratch bytes, the
per-thread counts and the vector widths must equal Triton's on every case.

Run ``PYTHONPATH=tests python tests/analysis/test_convert.py`` to print the agreement tables of
docs/convert_model.md.  How the compiled instructions are counted: ``measured`` in tests/golden_cases.py.
"""
from __future__ import annotations

import collections
import functools
import json

import pytest
from golden_cases import COUNTS, compiled_cases, measured

from linlayout_cli.analysis.convert import (
    COPIES_MOVED,
    LOWERINGS,
    PATHS,
    analyze_convert,
    explain_moves,
    minimal_conversion,
)
from linlayout_cli.analysis.targets import get_target
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.errors import ShapeError, TTLayoutError, UnsupportedError
from linlayout_cli.notebook import linear_layout
from linlayout_cli.parsing import parse_attribute
from linlayout_cli.reports import convert as convert_report

CASES = compiled_cases("convert")
BY_ID = {c["id"]: c for c in CASES}


def convert_of(src: str, dst: str, shape, bitwidth: int, target: str | None = "sm90", num_warps: int | None = None):
    """`analyze_convert` of two distributed layouts given as attribute texts."""
    return analyze_convert(linear_layout(src, shape, "distributed", "source"),
                           linear_layout(dst, shape, "distributed", "destination"), bitwidth, get_target(target), num_warps)


@functools.lru_cache(maxsize=None)
def modelled(case_id: str):
    c = BY_ID[case_id]
    return convert_of(c["src"], c["dst"], c["shape"], c["bitwidth"], c["target"], c["num_warps"])


def kind_of(attr: str) -> str:
    """The layout kind of an attribute text: blocked, slice, linear, mma_v2, mma_v3, amd_mfma, amd_wmma,
    dot_op(<parent kind>)."""
    a = attr.strip()
    if a.startswith("#ttg.dot_op"):
        return f"dot_op({kind_of(a[a.index('parent = ') + 9:])})"
    if a.startswith("#ttg.nvidia_mma"):
        return "mma_v3" if "versionMajor = 3" in a else "mma_v2"
    return a[5:a.index("<")]


# ----------------------------------------------------------------------------------------- the data itself


def test_golden_covers_kinds_paths_and_targets():
    targets = collections.Counter(c["target"] for c in CASES)
    assert len(CASES) >= 400
    assert set(targets) >= {"sm80", "sm90", "sm100", "gfx942", "gfx950"}
    kinds = {kind_of(c[s]) for c in CASES for s in ("src", "dst")}
    assert kinds >= {"blocked", "slice", "linear", "mma_v2", "mma_v3", "amd_mfma", "amd_wmma",
                     "dot_op(mma_v2)", "dot_op(mma_v3)", "dot_op(amd_mfma)", "dot_op(amd_wmma)"}
    assert {len(c["shape"]) for c in CASES} == {1, 2, 3}
    assert {c["bitwidth"] for c in CASES} == {8, 16, 32, 64}
    assert {c["num_warps"] for c in CASES} == {4, 8}
    paths = collections.Counter((c["target"], measured(c).path) for c in CASES)
    for t in ("sm80", "sm90", "sm100", "gfx942", "gfx950"):
        for p in ("registers", "warp_shuffle", "shared_memory"):
            assert paths[(t, p)] > 0, (t, p)
    assert all(c["checks"] == "ok" for c in CASES), "a baseline kernel used shared memory, or a kernel loops"


def test_inputs_are_tritons_layouts():
    """ttlayout's conversions of every SRC and DST equal Triton's own linear layouts (recorded by the
    generator), so the model works on what Triton works on."""
    bad = []
    for c in CASES:
        for side in ("src", "dst"):
            ll = to_linear_layout(parse_attribute(c[side]), c["shape"])
            tri = c[f"{side}_ll"]
            ours = {d: [list(v) for v in ll.get_in_dim_bases(d)] for d in ("register", "lane", "warp", "block")}
            if ours != tri:
                bad.append((c["id"], side))
    assert not bad


# ----------------------------------------------------------------------------------------- agreement


@pytest.mark.parametrize("case_id", [c["id"] for c in CASES])
def test_path_and_scratch_equal_tritons(case_id):
    m, t = modelled(case_id), measured(BY_ID[case_id])
    assert m.path == t.path
    assert m.scratch_bytes == BY_ID[case_id]["scratch_bytes"]


def _mismatches(key: str) -> set[str]:
    out = set()
    for c in CASES:
        m, t = modelled(c["id"]), measured(c)
        if key in COUNTS:
            if m.per_thread[key] != t.counts[key]:
                out.add(c["id"])
        elif t.path == "shared_memory":
            bits = m.store_vector_bits if key == "store_bits" else m.load_vector_bits
            if bits not in (t.store_bits if key == "store_bits" else t.load_bits):
                out.add(c["id"])
    return out


@pytest.mark.parametrize("key", COUNTS + ("store_bits", "load_bits"))
def test_counts_and_widths_equal_tritons(key):
    """Every per-thread count, and the vector width of every shared-memory access, equals Triton's."""
    assert _mismatches(key) == set()


def test_barrier_kind_and_matrix_instructions():
    for c in CASES:
        m, t = modelled(c["id"]), measured(c)
        if t.path != "shared_memory":
            continue
        if c["target"].startswith("sm"):
            assert (m.barrier == "warp") == t.warp_barrier, c["id"]
        assert m.uses_stmatrix == t.stmatrix, c["id"]
        assert m.uses_ldmatrix == t.ldmatrix, c["id"]


# ----------------------------------------------------------------------------------------- hand-checked cases


B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"
ROWS = B.format([1, 4], [4, 8], [4, 1], [1, 0])
COLS = B.format([4, 1], [8, 4], [1, 4], [0, 1])
MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>"


def _golden(note_start: str, target: str) -> dict:
    return next(c for c in CASES if c["section"] == "classic" and c["target"] == target
                and c["note"].startswith(note_start))


def test_transpose_goes_through_shared_memory():
    """64x64 f32, rows of 4 per thread -> columns of 4 per thread, 4 warps (128 threads, 32 values each).
    Warps split the rows in SRC and the columns in DST, so data crosses warps: shared memory.  SRC's registers
    hold dim1 bits 0, 1, 5 and dim0 bits 4, 5; DST's hold dim0 bits 0, 1, 5 and dim1 bits 4, 5: they share dim1
    bit 5 and dim0 bit 5, a 4-element (128-bit) vector both sides keep in registers, and nothing is left for
    reps: the buffer holds the whole tensor (64*64*4 = 16384 bytes), each thread stores 32/4 = 8 vectors and
    loads 8, with one barrier between."""
    r = convert_of(ROWS, COLS, [64, 64], 32, "sm90")
    assert (r.path, r.scratch_bytes, r.reps) == ("shared_memory", 16384, 1)
    assert r.per_thread == {"shuffles": 0, "shared_stores": 8, "shared_loads": 8, "barriers": 1}
    assert (r.store_instruction, r.store_vector_bits, r.load_instruction, r.load_vector_bits) == \
        ("st.shared", 128, "ld.shared", 128)
    assert any("warp bit" in line and "shared memory" in line for line in r.moves)
    smem = to_linear_layout(parse_attribute(r.shared_layout), [64, 64])
    assert smem.is_surjective() and smem.is_injective()
    t = _golden("transpose", "sm90")
    assert (measured(t).path, t["scratch_bytes"], measured(t).counts) == \
        ("shared_memory", 16384, r.per_thread)


def test_slice_over_warps_is_the_same_layout():
    """A 32-element slice along dim1 of a [4, 1]-warp layout: 32 lanes cover the 32 elements, the warps (which
    split the sliced dim0) hold copies.  A 1-D blocked layout with 32 lanes and 4 warps on 32 elements also
    spreads them over lanes and replicates them over warps: the same linear layout, a no-op."""
    src = "#ttg.slice<{dim = 0, parent = " + B.format([1, 1], [1, 32], [4, 1], [1, 0]) + "}>"
    dst = B.format([1], [32], [4], [0])
    r = convert_of(src, dst, [32], 32, "sm90")
    assert (r.path, r.scratch_bytes, r.moves) == ("noop", 0, ())
    assert measured(_golden("slice broadcast over warps", "sm90")).path == "noop"


def test_whole_slice_in_every_thread_to_distributed():
    """Every thread holds all 64 elements (the slice of a layout with one thread along dim1, so lanes and warps
    are copies); the destination gives each thread 2 of them.  Each thread already has what it needs."""
    src = "#ttg.slice<{dim = 0, parent = " + B.format([1, 1], [32, 1], [4, 1], [1, 0]) + "}>"
    dst = B.format([2], [32], [4], [0])
    r = convert_of(src, dst, [64], 32, "sm90")
    assert all("no movement across lanes" in line for line in r.moves if line.startswith("dst lane"))
    # ... yet Triton 3.9 goes through shared memory: it reuses copies held along warps, not along lanes
    t = _golden("every thread holds the whole slice", "sm90")
    assert (measured(t).path, t["scratch_bytes"]) == ("shared_memory", 128)
    assert (r.path, r.scratch_bytes, r.per_thread) == ("shared_memory", 128, measured(t).counts)
    assert any(n.code == COPIES_MOVED for n in r.notes)                     # a code; reports/convert words it
    assert any("moves the data anyway" in n for n in convert_report.notes(r))


def test_mma_accumulator_feeds_the_next_dot_for_free():
    """Chained matmul (e.g. attention's P @ V): the mma v2 accumulator of m16n8 tiles, warps along M only,
    becomes the A operand (f16, kWidth 2) of the next mma.  Both give lane l the rows l/4 and l/4 + 8 and the
    column pair 2*(l%4), +1 of every 8-column tile, and the same warp the same 16 rows: the A operand's 16-wide
    k-tiles are two accumulator n-tiles, which is the same linear layout, so nothing moves."""
    r = convert_of(MMA2, f"#ttg.dot_op<{{opIdx = 0, parent = {MMA2}, kWidth = 2}}>", [64, 64], 16, "sm80")
    assert (r.path, r.scratch_bytes) == ("noop", 0)
    t = _golden("mma v2 accumulator", "sm80")
    assert measured(t).path == "noop" and t["scratch_bytes"] == 0
    # with warps along N as well, the operand needs rows from other warps
    mma22 = MMA2.replace("[4, 1]", "[2, 2]")
    r2 = convert_of(mma22, f"#ttg.dot_op<{{opIdx = 0, parent = {mma22}, kWidth = 2}}>", [64, 64], 16, "sm80")
    assert r2.path == "shared_memory"


# ----------------------------------------------------------------------------------------- API behaviour


def test_minimal_conversion_drops_unchanged_dims():
    src = to_linear_layout(parse_attribute(ROWS), [64, 64])
    dst = to_linear_layout(parse_attribute(COLS), [64, 64])
    assert minimal_conversion(src, src).in_dims == []
    assert minimal_conversion(src, dst).in_dims == ["register", "lane", "warp"]
    assert explain_moves(minimal_conversion(src, src)) == ()


def test_bad_inputs_raise_clear_errors():
    src = to_linear_layout(parse_attribute(ROWS), [64, 64])
    with pytest.raises(ShapeError):
        analyze_convert(src, to_linear_layout(parse_attribute(COLS), [64, 32]), 32)
    with pytest.raises(UnsupportedError, match="lanes per warp"):
        analyze_convert(src, to_linear_layout(parse_attribute(COLS), [64, 64]), 32, get_target("gfx942"))
    with pytest.raises(TTLayoutError, match="unknown target"):      # names are resolved before the analysis
        get_target("sm70")
    with pytest.raises(UnsupportedError, match="power of two"):
        analyze_convert(src, src, 24)
    with pytest.raises(TTLayoutError, match="distributed"):
        convert_of(ROWS, "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", [64, 64], 32)
    assert set(PATHS) == {"noop", "registers", "warp_shuffle", "shared_memory", "cross_cta"}
    assert set(LOWERINGS) >= {"sm80", "sm90", "sm100", "gfx942", "gfx950"}


# ----------------------------------------------------------------------------------------- tables for the docs


def agreement_tables() -> str:
    """Cases and agreement per target and per layout-kind pair (docs/convert_model.md, section 4)."""
    rows = collections.defaultdict(lambda: collections.Counter())
    for c in CASES:
        m, t = modelled(c["id"]), measured(c)
        for key in (c["target"], f"{kind_of(c['src'])} -> {kind_of(c['dst'])}", "all"):
            r = rows[key]
            r["n"] += 1
            r["path"] += m.path == t.path
            r["scratch"] += m.scratch_bytes == c["scratch_bytes"]
            for k in COUNTS:
                r[k] += m.per_thread[k] == t.counts[k]
            r[f"p:{t.path}"] += 1
    out = ["| group | cases | noop/reg/shfl/smem | path | scratch | shuffles | stores | loads | barriers |",
           "|---|---|---|---|---|---|---|---|---|"]
    for key in sorted(rows, key=lambda k: (k != "all", "->" in k, k)):
        r = rows[key]
        mix = "/".join(str(r[f"p:{p}"]) for p in ("noop", "registers", "warp_shuffle", "shared_memory"))
        out.append(f"| {key} | {r['n']} | {mix} | " + " | ".join(
            f"{r[k]}/{r['n']}" for k in ("path", "scratch") + COUNTS) + " |")
    return "\n".join(out)


if __name__ == "__main__":
    print(agreement_tables())


# ----------------------------------------------------------------------------------------- the command


@pytest.mark.parametrize("case_id", sorted(BY_ID)[::9])
def test_command_json_equals_the_compiler(case_id):
    """`ttlayout convert --json` on a sample of golden pairs: path, scratch and every count as Triton emitted."""
    from linlayout_cli.cli import run
    case = BY_ID[case_id]
    shape = "x".join(map(str, case["shape"]))
    code, out, err = run(["convert", "-s", case["src"], "-d", case["dst"], "-t", f"tensor<{shape}x{case['elem']}>",
                          "--target", case["target"], "--json"])
    assert code == 0, err
    got, want = json.loads(out), measured(case)
    assert (got["path"], got["scratch_bytes"]) == (want.path, case["scratch_bytes"])
    assert got["per_thread"] == want.counts
    for key in ("store_vector_bits", "load_vector_bits", "bank_conflicts", "target", "element_bits"):
        assert key in got


def test_command_verdicts_and_errors():
    from linlayout_cli.cli import run
    code, out, _ = run(["convert", "-s", ROWS, "-d", COLS, "-t", "tensor<64x64xf32>"])
    assert code == 0 and out.startswith("convert: shared memory: 16384 bytes scratch, 1 round, store v4")
    assert "elements move between warps, so shared memory" in out and "#ttg.shared_linear<{offset" in out
    code, out, _ = run(["convert", "-s", ROWS, "-d", ROWS, "-t", "tensor<64x64xf32>"])
    assert out.startswith("convert: no-op (same layout)")
    shared = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    code, out, err = run(["convert", "-s", ROWS, "-d", shared, "-t", "tensor<64x64xf32>"])
    assert code == 1 and "shared layout" in err and "ttlayout bank" in err
    code, out, err = run(["convert", "-s", ROWS, "-d", COLS, "-t", "tensor<64x64xf32>", "--target", "sm70"])
    assert code == 1 and "unknown target" in err


def test_command_svg_shows_both_layouts_and_what_moves(tmp_path):
    from linlayout_cli.cli import run
    target = tmp_path / "cvt.svg"
    code, out, err = run(["convert", "-s", ROWS, "-d", COLS, "-t", "tensor<16x16xf32>", "--format", "svg",
                          "-o", str(target)])
    assert code == 0 and not err, err
    svg = target.read_text()
    assert svg.startswith("<svg") and "source #ttg.blocked" in svg and "destination #ttg.blocked" in svg
    assert "moves between warps (" in svg and "stays in its thread (" in svg
