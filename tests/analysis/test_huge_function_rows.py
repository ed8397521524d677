"""Issue 32 C: a function of hundreds of thousands of ops is audited in time and memory linear in its size, and the
shortcuts that make it so (a repeated convert's row analysed once and placed at each op; prices memoised; Membar
skipping ops that access nothing) give exactly the rows a fresh analysis of every op gives."""
from __future__ import annotations

import sys
from pathlib import Path

from linlayout_cli.analysis.audit import analyze_audit
from linlayout_cli.analysis.kernel import convert
from linlayout_cli.parsing.module import read_modules

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
import huge_dump  # noqa: E402  (the benchmark's generator: the same dump the README's figure is measured on)

LOOP = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", \
"ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %0 = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #mma> loc("k.py":3:4)
    %1 = ttg.convert_layout %0 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked> loc("k.py":4:4)
    %2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %1) -> (tensor<128x128xf16, #blocked>) : i32 {
      %3 = ttg.convert_layout %a : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1> loc("k.py":6:8)
      %4 = ttg.convert_layout %3 : tensor<128x128xf16, #blocked1> -> tensor<128x128xf16, #blocked> loc("k.py":7:8)
      %5 = ttg.convert_layout %4 : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1> loc("k.py":6:8)
      %6 = ttg.convert_layout %5 : tensor<128x128xf16, #blocked1> -> tensor<128x128xf16, #blocked> loc("k.py":9:8)
      scf.yield %6 : tensor<128x128xf16, #blocked>
    }
    %7 = ttg.convert_layout %2 : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #blocked1> loc("k.py":11:4)
    %8 = ttg.convert_layout %7 : tensor<128x128xf16, #blocked1> -> tensor<128x128xf16, #blocked> loc("k.py":12:4)
    tt.return
  }
}
"""


LIVE_BUFFER = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:80", \
"ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k() {
    %0 = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #mma>
    %1 = ttg.convert_layout %0 : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #blocked>
    %a = ttg.local_alloc %0 : (tensor<128x128xf16, #mma>) -> !ttg.memdesc<128x128xf16, #shared, #smem>
    %2 = ttg.convert_layout %1 : tensor<128x128xf16, #blocked> -> tensor<128x128xf16, #mma>
    %3 = ttg.local_load %a : !ttg.memdesc<128x128xf16, #shared, #smem> -> tensor<128x128xf16, #blocked>
    tt.return
  }
}
"""


def _audit(text: str):
    return analyze_audit(read_modules(text))[0]


def _one_function(tmp_path, converts: int) -> str:
    path = tmp_path / f"one_function_{converts}.ttgir"
    huge_dump.write(str(path), converts)
    return path.read_text()


def test_placed_rows_are_the_rows_each_op_gets_alone(tmp_path, monkeypatch):
    """Every row of repeated converts (in and out of a loop, at repeated and distinct Python lines) equals, field
    by field (line, location, frames, loops, barriers, cost, ideal...), the row a fresh analysis of that op gives."""
    for text in (LOOP, _one_function(tmp_path, 300)):
        placed = _audit(text)
        monkeypatch.setattr(convert, "placed_row", lambda ctx, op, key, make: make())
        fresh = _audit(text)
        monkeypatch.undo()
        assert placed.findings == fresh.findings and placed.extras == fresh.extras
        assert placed.shared == fresh.shared
        assert [f.line for f in placed.findings] == sorted({f.line for f in placed.findings})
    rows = _audit(LOOP).findings
    assert [(f.line, f.loc, f.loops) for f in rows] == [
        (9, "k.py:4:4", 0), (11, "k.py:6:8", 1), (12, "k.py:7:8", 1), (13, "k.py:6:8", 1), (14, "k.py:9:8", 1),
        (17, "k.py:11:4", 0), (18, "k.py:12:4", 0)]
    assert rows[1].cost == rows[3].cost == 8 * rows[5].cost     # the loop weighs 8 (LOOP_WEIGHT)


def test_each_distinct_convert_is_analysed_once(tmp_path, monkeypatch):
    """3,000 converts cycling through three layout pairs: three analyses, 3,000 rows."""
    calls = []
    real = convert._convert_finding
    monkeypatch.setattr(convert, "_convert_finding", lambda *a: calls.append(a[2:]) or real(*a))
    audit = _audit(_one_function(tmp_path, 3000))
    assert len(audit.findings) == 3000 and len(calls) == 3
    assert len({f.loc for f in audit.findings}) == 1000            # each row at its own Python line


def test_rows_share_their_location_objects(tmp_path):
    """450,000 ops naming 1,000 Python lines hold 1,000 locations and 1,000 'file:line:col' strings, not one each."""
    audit = _audit(_one_function(tmp_path, 3000))
    assert len({id(f.loc) for f in audit.findings}) == 1000
    assert len({id(f.frames) for f in audit.findings}) == 1000


def test_membar_skips_only_ops_that_access_nothing():
    """Membar looks only at ops named in `_ACCESSING`: on every op of every real kernel (tests/data: compiled by
    Triton for sm80/sm90/sm100/gfx942, and Triton's cache), an op outside it has no shared- or tensor-memory
    access, and every name `_accesses` answers for is in it."""
    import glob

    from linlayout_cli.analysis import membar
    from linlayout_cli.analysis.kernel.ops import MMA_V5_OPS
    files = sorted(glob.glob(str(ROOT / "tests/data/kernels/*.ttgir")) +
                   glob.glob(str(ROOT / "tests/data/cache/**/*.ttgir"), recursive=True))
    assert len(files) > 100
    seen = set()
    for path in files:
        for module in read_modules(Path(path).read_text()):
            for op in module.ops:
                if membar._accesses(op):
                    seen.add(op.name)
                    assert op.name in membar._ACCESSING, (path, op.line, op.name)
    assert {"ttg.local_alloc", "ttg.local_load", "ttg.local_store", "ttng.warp_group_dot"} <= seen
    assert set(MMA_V5_OPS) <= membar._ACCESSING


def test_scratch_alone_in_its_live_range_is_placed_as_the_allocator_places_it(monkeypatch):
    """`shared_use` places an op's scratch that no buffer's live range covers at 0 without building a Buffer for it;
    on every real kernel (loops, multi-buffering, warp specialization, atomics) the total, the largest scratch and
    every placement Membar reads equal those of the full allocator run over every scratch."""
    import glob

    from linlayout_cli.analysis.kernel import audit as kernel_audit
    from linlayout_cli.analysis.kernel import memory
    files = sorted(glob.glob(str(ROOT / "tests/data/kernels/*.ttgir")) +
                   glob.glob(str(ROOT / "tests/data/cache/**/*.ttgir"), recursive=True))
    seen: dict[str, list] = {}
    real = memory.shared_use

    def recording(ctx, findings, roots=None, placed=None):
        out = real(ctx, findings, roots, placed)
        seen.setdefault(mode, []).append((out, dict(placed or {})))
        return out
    monkeypatch.setattr(kernel_audit, "shared_use", recording)
    texts = [Path(p).read_text() for p in files] + [LIVE_BUFFER]
    mode = "fast"
    for text in texts:
        analyze_audit(read_modules(text))
    monkeypatch.setattr(memory, "_outside", lambda buffers: lambda at: False)
    mode = "full"
    for text in texts:
        analyze_audit(read_modules(text))
    assert len(seen["fast"]) == len(seen["full"]) > 100
    assert seen["fast"] == seen["full"]
    assert any(placed.get("scratch") for _, placed in seen["fast"])


def test_scratch_inside_a_live_buffer_is_placed_beside_it():
    """A convert while a 32 KiB buffer is live needs its scratch beside the buffer (32 KiB + the scratch); the
    convert before the buffer is made needs its scratch alone: the peak is the sum, hand-checked."""
    audit = _audit(LIVE_BUFFER)
    converts = [f for f in audit.findings if f.op == "ttg.convert_layout"]
    assert [f.line for f in converts] == [8, 10] and converts[1].scratch_bytes > 0
    assert [b.bytes for b in audit.shared.allocations] == [128 * 128 * 2]
    assert audit.shared.total == 128 * 128 * 2 + converts[1].scratch_bytes


def test_rank_by_waste_is_the_order_it_defines():
    """Two stable sorts (by line, then by waste and cost, reversed) give the documented order: waste, then cost,
    most first, ties in line order; checked on random rows with repeated lines, costs and infinite ideals."""
    import random

    from linlayout_cli.analysis.kernel.findings import rank_by_waste

    class Row:
        def __init__(self, line, cost, ideal):
            self.line, self.cost, self.ideal = line, cost, ideal

        @property
        def waste(self):
            return max(0.0, self.cost - self.ideal)
    rng = random.Random(32)
    for _ in range(2000):
        rows = [Row(rng.randint(1, 30), rng.choice([0, 1, 2, 8, 16.5]), rng.choice([0, 1, 2, float("inf")]))
                for _ in range(rng.randint(0, 20))]
        expected = sorted(rows, key=lambda f: (-f.waste, -f.cost, f.line))
        assert [id(f) for f in rank_by_waste(rows)] == [id(f) for f in expected]
