"""ttlayout bank: Triton 3.9's get_shared_bank_conflicts, the explaining report, the AMD models, the CLI.

Triton numbers below come from the oracle (scripts/make_bank_reference.py); the golden suite
tests/golden/test_golden_bank.py covers 240 more pairs.  AMD numbers are worked out by hand in the comments.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from golden_cases import DATA
from helpers import ncu_bank_check, random_blocked

from linlayout_cli.analysis import bank
from linlayout_cli.analysis.bank import analyze_bank
from linlayout_cli.analysis.targets import READ, TARGETS, WRITE, get_target
from linlayout_cli.cli import run
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.inputs import element_bitwidth
from linlayout_cli.notebook import bank_conflicts, linear_layout
from linlayout_cli.reports import bank as report
from linlayout_cli.reports.blocks import to_rich, to_text


def layouts(reg: str, shared: str, shape):
    """(register, shared) linear layouts of two attribute texts over `shape`."""
    return linear_layout(reg, shape, "distributed", "register"), linear_layout(shared, shape, "shared", "shared")


def bank_report(reg: str, shared: str, shape, bitwidth: int, target=None):
    return analyze_bank(*layouts(reg, shared, shape), bitwidth, get_target(target))
B = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"
S = "#ttg.swizzled_shared<{{vec = {}, perPhase = {}, maxPhase = {}, order = {}}}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
UNSWIZZLED = S.format(1, 1, 1, [1, 0])

ROW4 = B.format([1, 4], [4, 8], [4, 1], [1, 0])          # 16x32 f32, 128-bit row stores
COL16 = B.format([1, 1], [16, 2], [1, 4], [0, 1])        # 16x32 f32, column reads
ROW8 = B.format([1, 8], [4, 8], [4, 1], [1, 0])          # 64x64 f16, 128-bit row stores
COL8 = B.format([8, 1], [8, 4], [1, 4], [0, 1])          # 64x64 f16, column reads
MMA3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>"
MMA2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>"
NVMMA0 = "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>"


# ----------------------------------------------------------------------------------------- Triton's numbers

# Triton 3.9.0's get_shared_bank_conflicts on 64x64, per element bit width: column reads (spt [8,1]), one
# lane per row (tpw [32,1]) and 128-bit row reads (spt [1,8]) against unswizzled, swizzled and NVMMA shared
TRITON_64X64 = [
    (B.format([8, 1], [8, 4], [1, 4], [0, 1]), S.format(1, 1, 1, [1, 0]), {8: 7, 16: 7, 32: 7, 64: 7}),
    (B.format([8, 1], [8, 4], [1, 4], [0, 1]), S.format(8, 1, 8, [1, 0]), {16: 7}),
    (B.format([8, 1], [8, 4], [1, 4], [0, 1]), S.format(1, 1, 32, [1, 0]), {8: 1, 16: 1, 32: 1, 64: 3}),
    (B.format([8, 1], [8, 4], [1, 4], [0, 1]), NVMMA128, {16: 7}),
    (B.format([1, 1], [32, 1], [4, 1], [0, 1]), S.format(1, 1, 1, [1, 0]), {8: 3, 16: 7, 32: 7, 64: 7}),
    (B.format([1, 1], [32, 1], [4, 1], [0, 1]), S.format(8, 1, 8, [1, 0]), {8: 1, 16: 0, 32: 1, 64: 3}),
    (B.format([1, 1], [32, 1], [4, 1], [0, 1]), S.format(1, 1, 32, [1, 0]), {8: 0, 16: 0, 32: 0, 64: 0}),
    (B.format([1, 1], [32, 1], [4, 1], [0, 1]), NVMMA128, {8: 1, 16: 0, 32: 1, 64: 3}),
    (B.format([1, 8], [4, 8], [4, 1], [1, 0]), S.format(1, 1, 1, [1, 0]), {16: 0}),
    (B.format([1, 8], [4, 8], [4, 1], [1, 0]), S.format(8, 1, 8, [1, 0]), {16: 0}),
    (B.format([1, 8], [4, 8], [4, 1], [1, 0]), NVMMA128, {16: 0}),
]
TRITON_64X64_WAVE64 = [  # 64-lane warps, bw 16 and 32, vs (1,1,1), (8,1,8), (4,1,16)
    (B.format([8, 1], [8, 8], [1, 4], [0, 1]), [7, 7, 7, 7, 3, 7]),
    (B.format([1, 8], [8, 8], [4, 1], [1, 0]), [0, 1, 0, 1, 0, 1]),
]


@pytest.mark.parametrize("reg,shared,expected", TRITON_64X64)
def test_matches_triton_64x64(reg, shared, expected):
    for bw, want in expected.items():
        assert bank_conflicts(reg, shared, [64, 64], bw) == want, bw


@pytest.mark.parametrize("reg,expected", TRITON_64X64_WAVE64)
def test_matches_triton_64x64_wave64(reg, expected):
    got = [bank_conflicts(reg, S.format(*p, [1, 0]), [64, 64], bw)
           for p in ((1, 1, 1), (8, 1, 8), (4, 1, 16)) for bw in (16, 32)]
    assert got == expected


# scripts/make_bank_reference.py (Triton 3.9.0 oracle): the README demos
BANK_REFERENCE = [
    (COL16, S.format(1, 1, 1, [1, 0]), [16, 32], 32, 15),
    (COL16, S.format(1, 1, 16, [1, 0]), [16, 32], 32, 1),        # XOR by row: 2-way conflict
    (COL16, S.format(2, 1, 16, [1, 0]), [16, 32], 32, 0),        # the right swizzle
    (ROW4, S.format(1, 1, 16, [1, 0]), [16, 32], 32, 0),
    (ROW4, S.format(2, 1, 16, [1, 0]), [16, 32], 32, 0),
    (ROW8, S.format(1, 1, 1, [1, 0]), [64, 64], 16, 0),
    (COL8, S.format(1, 1, 1, [1, 0]), [64, 64], 16, 7),
    (COL8, S.format(8, 1, 8, [1, 0]), [64, 64], 16, 7),
    (COL8, S.format(8, 8, 8, [0, 1]), [64, 64], 16, 0),
    (ROW8, S.format(8, 8, 8, [0, 1]), [64, 64], 16, 0),
    (MMA3, NVMMA128, [128, 128], 16, 0),
    (MMA3, NVMMA0, [128, 128], 16, 7),
    (MMA3, S.format(1, 1, 1, [1, 0]), [128, 128], 16, 7),
    (MMA2, NVMMA128, [64, 64], 16, 0),
    (MMA2, NVMMA0, [64, 64], 16, 7),
]


@pytest.mark.parametrize("reg,shared,shape,bw,want", BANK_REFERENCE)
def test_triton_reference(reg, shared, shape, bw, want):
    assert bank_conflicts(reg, shared, shape, bw) == want
    rep = bank_report(reg, shared, shape, bw, "sm90")
    assert rep.conflicts == want
    for a in rep.accesses.values():          # NVIDIA: reads and writes behave alike; simulation agrees
        assert a.conflicts == want
        assert a.sim_conflicts == want
        assert a.wavefronts == a.phases * (want + 1)


# ----------------------------------------------------------------------------------------- Triton's aborts


def test_tiny_tensor_raises_like_triton_aborts():
    # 64 one-byte elements with 4-element vectors do not fill one 128-byte wavefront: Triton asserts
    reg = B.format([4], [32], [4], [0])
    with pytest.raises(TTLayoutError, match="too small"):
        bank_conflicts(reg, S.format(1, 1, 1, [0]), [64], 8)


def test_bitwidth_limits():
    with pytest.raises(TTLayoutError):
        bank_conflicts(ROW8, UNSWIZZLED, [64, 64], 256)
    with pytest.raises(TTLayoutError):
        bank_conflicts(ROW8, UNSWIZZLED, [64, 64], 12)


def test_wrong_kinds():
    with pytest.raises(TTLayoutError, match="shared"):
        bank_conflicts(ROW8, ROW8, [64, 64], 16)
    with pytest.raises(TTLayoutError, match="distributed"):
        bank_conflicts(UNSWIZZLED, UNSWIZZLED, [64, 64], 16)


@pytest.mark.parametrize("element,bits", [("f16", 16), ("bf16", 16), ("f32", 32), ("tf32", 32), ("f64", 64),
                                          ("i1", 8), ("i8", 8), ("i32", 32), ("i64", 64), ("f8E4M3FN", 8),
                                          ("f8E5M2", 8), ("!tt.ptr<f16>", 64), ("index", 64)])
def test_element_bitwidth(element, bits):
    assert element_bitwidth(element) == bits


# ----------------------------------------------------------------------------------------- model vs simulation


def random_swizzled(rng: random.Random, rank: int) -> str:
    order = list(range(rank))
    rng.shuffle(order)
    return S.format(rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8, 16]), order)


def test_linear_count_equals_simulation_for_word_sized_accesses():
    """For accesses of 32 bits or more per lane, every bank a phase touches sees exactly 2^k distinct words:
    the lane-by-lane simulation reproduces Triton's 2^k - 1 on every target."""
    rng = random.Random(7)
    checked = 0
    for _ in range(150):
        shape = rng.choice([[64, 64], [32, 128], [16, 16, 16], [128, 32]])
        bw = rng.choice([8, 16, 32, 64])
        reg, shared = random_blocked(rng, shape, rng.choice([32, 64])), random_swizzled(rng, len(shape))
        for name in TARGETS:
            try:
                rep = bank_report(reg, shared, shape, bw, name)
            except TTLayoutError:
                continue
            for a in rep.accesses.values():
                if a.access_bits >= 32:
                    checked += 1
                    assert a.sim_conflicts == a.conflicts, (name, reg, shared, shape, bw)
                    assert a.wavefronts == a.phases * (1 + a.conflicts)
                else:                       # sub-word: the simulation can only see more conflicts
                    assert a.sim_conflicts >= a.conflicts
    assert checked > 300


def test_sub_word_difference_is_reported():
    # golden bank/spec7-025: Triton says 0, but lanes 0 and 2 (rows 0 and 2) sit in bank 0 at words 0 and 32
    reg = B.format([1, 1], [32, 1], [4, 1], [0, 1])
    shared = S.format(1, 1, 32, [1, 0])
    rep = bank_report(reg, shared, [64, 64], 8)
    assert rep.conflicts == 0 == bank_conflicts(reg, shared, [64, 64], 8)
    assert rep.accesses[READ].sim_conflicts == 1
    text = to_text(report.blocks(rep, reg, shared, "i8"))
    assert "lane-by-lane simulation: 1 conflict(s)" in text


# ----------------------------------------------------------------------------------------- AMD, by hand

COL64 = B.format([1, 1], [64, 1], [1, 64], [0, 1])      # 64x64 f32, one element per thread, lanes down a column
ROW64 = B.format([1, 1], [1, 64], [64, 1], [1, 0])      # lanes along a row
# offset bases: row 1 and row 4 move the row by +32 columns (64 bytes of f16): rows 0 and 1 use different banks,
# rows 0 and 5 the same ones.
ODD_SWIZZLE = ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 32], [2, 0], "
               "[4, 32], [8, 0], [16, 0], [32, 0]]}, alignment = 16>")


def test_gfx942_column_of_f32():
    # 64 lanes down a column of a 64x64 f32 tile: word = 64 * row + col, bank = word % 32 = col for every lane.
    # gfx942 serves lanes 0-31 then 32-63 (ds_read_b32): 32 lanes in one bank -> 32 wavefronts, 31 extra.
    # gfx950 (64 banks) serves all 64 lanes at once: 63 extra.  NVIDIA keeps 32-lane phases: 31.
    expect = {"gfx942": (31, 2, 64), "gfx950": (63, 1, 64), "sm90": (31, 2, 64)}
    for name, (conf, phases, waves) in expect.items():
        rep = bank_report(COL64, UNSWIZZLED, [64, 64], 32, name)
        a = rep.accesses[READ]
        assert (rep.vector_width, a.conflicts, a.phases, a.wavefronts) == (1, conf, phases, waves), name
        assert a.sim_conflicts == conf
        rep = bank_report(ROW64, UNSWIZZLED, [64, 64], 32, name)
        assert rep.conflicts == 0
        assert rep.accesses[READ].wavefronts == phases


def test_gfx942_ds_read_b128_lane_groups():
    # f16 64x64, each lane moves 8 elements (128 bits); lane l covers row l // 4, columns 8 * (l % 4) .. +7,
    # i.e. bytes 128 * row + 16 * (l % 4): lanes of one row fill banks 0-15, shifted to 16-31 when the swizzle
    # moves the row by 32 columns (rows 1, 4: row ^ 1 ^ 4 decides).
    # ds_write_b128 serves lanes 0-7 = rows 0, 1 -> banks 0-15 and 16-31: no conflict.
    # ds_read_b128 serves lanes {0-3, 20-23} = rows 0 and 5 (5 = 1 ^ 4: no net shift) -> both on banks 0-15 at
    # different words: 2 wavefronts for 1, one conflict.  NVIDIA's quarter warps (lanes 0-7) see no conflict.
    reg = B.format([1, 8], [16, 4], [1, 1], [1, 0])
    rep = bank_report(reg, ODD_SWIZZLE, [64, 64], 16, "gfx942")
    w, r = rep.accesses[WRITE], rep.accesses[READ]
    assert rep.vector_width == 8
    assert (w.instruction, w.conflicts, w.phases, w.wavefronts) == ("ds_write_b128", 0, 8, 8)
    assert (r.instruction, r.conflicts, r.phases, r.wavefronts) == ("ds_read_b128", 1, 8, 16)
    assert list(r.worst.lanes) == [0, 1, 2, 3, 20, 21, 22, 23]
    assert sorted(e for x in r.worst.words for e in x.lanes) in ([0, 20], [1, 21], [2, 22], [3, 23])
    assert rep.conflicts == 1
    assert bank_report(reg, ODD_SWIZZLE, [64, 64], 16, "sm90").conflicts == 0
    text = to_text(report.blocks(rep, reg, ODD_SWIZZLE, "f16"))
    assert "write (ds_write_b128): 0 conflict(s)" in text and "read (ds_read_b128): 1 conflict(s)" in text


def test_gfx950_ds_read_b128_lane_groups():
    # gfx950: 64 banks = 256 bytes = 2 rows of 64 f16, bank = 32 * (row % 2) + 4 * chunk + ...
    # ds_read_b128 phase 0 = lanes {0-3, 12-15, 20-23, 24-27}.  With lane l at row l // 4, chunk l % 4:
    # lanes 12-15 (row 3) and 20-23 (row 5) both land on banks 32-47 at different words: one conflict.
    # With lane l at row l // 8, chunk l % 8 (tpw [8, 8]) the same lanes cover banks 0-15, 48-63, 16-31, 32-47:
    # conflict-free.  Writes (8 consecutive lanes, 128 bytes) never conflict here.
    rep = bank_report(B.format([1, 8], [16, 4], [1, 1], [1, 0]), UNSWIZZLED, [64, 64], 16, "gfx950")
    r = rep.accesses[READ]
    assert (r.conflicts, r.phases, r.lanes_per_phase, r.wavefronts) == (1, 4, 16, 8)
    assert rep.accesses[WRITE].conflicts == 0
    rep = bank_report(B.format([1, 8], [8, 8], [1, 1], [1, 0]), UNSWIZZLED, [64, 64], 16, "gfx950")
    assert rep.accesses[READ].conflicts == 0 and rep.accesses[WRITE].conflicts == 0
    # gfx942 with tpw [16, 4]: lanes 0-7 are rows 0 and 1, both on banks 0-15 -> the write conflicts too
    rep = bank_report(B.format([1, 8], [16, 4], [1, 1], [1, 0]), UNSWIZZLED, [64, 64], 16, "gfx942")
    assert rep.accesses[WRITE].conflicts == 1 and rep.accesses[READ].conflicts == 1


def test_phase_masks():
    t = get_target("gfx942")
    assert t.phase_masks(32, READ, 6) == (1, 2, 4, 8, 16)
    assert t.phase_masks(64, WRITE, 6) == (1, 2, 4, 8)
    assert t.phase_masks(128, WRITE, 6) == (1, 2, 4)
    assert t.phase_masks(128, READ, 6) == (1, 2, 20)
    t = get_target("gfx950")
    assert t.phase_masks(16, READ, 6) == (1, 2, 4, 8, 16, 32)
    assert t.phase_masks(64, READ, 6) == (1, 2, 4, 8, 16)
    assert t.phase_masks(64, WRITE, 6) == (1, 2, 4, 8)
    assert t.phase_masks(128, READ, 6) == (1, 2, 12, 20)
    t = get_target("sm90")
    assert t.phase_masks(128, READ, 5) == (1, 2, 4)
    assert t.phase_masks(64, READ, 6) == (1, 2, 4, 8)       # Triton: 5 - log2(64/32) lane bits, even for 64 lanes
    assert t.phase_masks(8, READ, 4) == (1, 2, 4, 8)
    assert get_target("MI300X") is get_target("gfx942")
    with pytest.raises(TTLayoutError, match="unknown target"):
        get_target("sm70")


def test_phase_groups_are_the_documented_lane_sets():
    groups = bank.span_cosets((1, 2, 20), 64)
    lanes = lambda g: [lane for lane, phase in enumerate(groups) if phase == groups[g]]  # noqa: E731
    assert lanes(0) == [0, 1, 2, 3, 20, 21, 22, 23]
    assert lanes(4) == [4, 5, 6, 7, 16, 17, 18, 19]
    assert lanes(8) == [8, 9, 10, 11, 28, 29, 30, 31]
    assert lanes(12) == [12, 13, 14, 15, 24, 25, 26, 27]
    assert lanes(32) == [32, 33, 34, 35, 52, 53, 54, 55]
    groups = bank.span_cosets((1, 2, 12, 20), 64)
    assert lanes(0) == [0, 1, 2, 3, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25, 26, 27]
    assert lanes(4) == [4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 28, 29, 30, 31]


# ----------------------------------------------------------------------------------------- report contents


def test_report_explains_the_transpose_conflict():
    shared = S.format(1, 1, 16, [1, 0])
    rep = bank_report(COL16, shared, [16, 32], 32)
    a = rep.accesses[READ]
    assert (rep.vector_width, a.phases, a.wavefronts, a.conflicts) == (1, 1, 2, 1)
    w = a.worst
    assert w.distinct_words == 2 and w.banks_at_max == 16
    # the two words of the worst bank: element (r, c) lives at word 32 * r + (c ^ r)
    for x in w.words:
        for (r, c), lane in zip(x.elements, x.lanes):
            assert x.word == 32 * r + (c ^ r)
            assert x.word % 32 == w.bank
            assert lane == r + 16 * (c % 2)            # tpw [16, 2], order [0, 1]
    text = to_text(report.blocks(rep, COL16, shared, "f32"))
    assert text.startswith("bank conflicts: 1 ")
    assert "offset 1 (element (0, 1)) is held by lane 16" in text
    assert "2 per instruction, ideal 1" in text


def test_rich_report_renders():
    rep = bank_report(COL16, S.format(1, 1, 16, [1, 0]), [16, 32], 32)
    out = to_rich(report.blocks(rep, COL16, "shared", "f32"), width=100)
    assert "bank conflicts" in out and "byte addr" in out


# ----------------------------------------------------------------------------------------- CLI


def test_cli_text_and_json():
    args = ["bank", "-r", COL16, "-s", S.format(1, 1, 16, [1, 0]), "-t", "tensor<16x32xf32>"]
    code, out, err = run(args)
    assert code == 0 and err == ""
    assert out.startswith("bank conflicts: 1 ")
    assert "\x1b[" not in out                       # plain text when not a terminal
    code, out, err = run(args + ["--json"])
    assert code == 0
    obj = json.loads(out)
    for key in ("conflicts", "vector_width", "wavefronts", "ideal_wavefronts", "target", "element_bits"):
        assert key in obj
    assert (obj["conflicts"], obj["vector_width"], obj["wavefronts"], obj["ideal_wavefronts"], obj["target"],
            obj["element_bits"]) == (1, 1, 2, 1, "sm90", 32)
    assert obj["read"]["worst_wavefront"]["distinct_words"] == 2
    code, out, _ = run(args + ["--json", "--target", "gfx950"])
    assert json.loads(out)["target"] == "gfx950"
    code, out, _ = run(args + ["--json", "--bitwidth", "16"])
    assert json.loads(out)["element_bits"] == 16


def test_cli_input_file(tmp_path):
    f = tmp_path / "k.ttgir"
    f.write_text(f"#blocked = {COL8}\n#blocked1 = {ROW8}\n#shared = {S.format(8, 1, 8, [1, 0])}\n"
                 "#smem = #ttg.shared_memory\nmodule {\n}\n")
    code, out, err = run(["bank", "-i", str(f), "--alias-names", "blocked,shared", "-t", "tensor<64x64xf16>",
                          "--json"])
    assert code == 0, err
    assert json.loads(out)["conflicts"] == 7
    code, out, err = run(["bank", "-i", str(f), "-r", "#blocked1", "-s", "#shared", "-t", "tensor<64x64xf16>"])
    assert code == 0 and out.startswith("bank conflicts: 0 ")
    code, out, err = run(["bank", "-i", "-", "--alias-names", "blocked,shared", "-t", "tensor<64x64xf16>"],
                         stdin=f.read_text())
    assert code == 0 and out.startswith("bank conflicts: 7 ")
    code, out, err = run(["bank", "-i", str(f), "-t", "tensor<64x64xf16>"])
    assert code == 1 and "2 distributed layouts" in err
    code, out, err = run(["bank", "-i", str(f), "--alias-names", "nope,shared", "-t", "tensor<64x64xf16>"])
    assert code == 1 and "nope" in err


@pytest.mark.parametrize("args,msg", [
    (["bank", "-s", UNSWIZZLED, "-t", "tensor<64x64xf16>"], "missing -r"),
    (["bank", "-r", ROW8, "-s", UNSWIZZLED], "missing -t"),
    (["bank", "-r", ROW8, "-s", UNSWIZZLED, "-t", "tensor<64x64xf16>", "--target", "volta"], "unknown target"),
    (["bank", "-r", ROW8, "-s", UNSWIZZLED, "-t", "tensor<64x48xf16>"], "power of two"),
    (["bank", "-r", ROW8, "-s", ROW8, "-t", "tensor<64x64xf16>"], "shared"),
    (["bank", "-r", B.format([4], [32], [4], [0]), "-s", S.format(1, 1, 1, [0]), "-t", "tensor<64xi8>"],
     "too small"),
    (["bank", "-r", ROW8, "-s", UNSWIZZLED, "-t", "tensor<64x64xf16>", "--bitwidth", "3"], "power of two"),
])
def test_cli_errors(args, msg):
    code, out, err = run(args)
    assert code == 1 and out == ""
    assert err.startswith("ttlayout: error: ") and msg in err and err.count("\n") == 1


def test_rich_not_imported_when_piped():
    code = ("import sys\nfrom linlayout_cli.cli import run\n"
            f"c, o, e = run(['bank', '-r', {COL16!r}, '-s', {UNSWIZZLED!r}, '-t', 'tensor<16x32xf32>'])\n"
            "assert c == 0, e\nprint('rich' in sys.modules)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"


def test_analyze_on_prebuilt_layouts():
    reg_ll, smem_ll = layouts(COL16, S.format(1, 1, 16, [1, 0]), [16, 32])
    assert analyze_bank(reg_ll, smem_ll, 32, get_target("sm90")).conflicts == 1
    assert bank.conflicts_of_layouts(reg_ll, smem_ll, 32) == 1


# ----------------------------------------------------------------------------------------- hardware


def test_h100_wavefronts_measured_by_nsight_compute():
    """tests/data/ncu_h100_bank.csv: Nsight Compute on an H100 (Triton 3.6 Gluon kernels, one store to and one
    load from shared memory per case, scripts/ncu_bank_check.py). Every ld/st.shared instruction takes the
    wavefronts ttlayout predicts, except where the hardware ran something the model does not describe: Triton
    lowered the copy to stmatrix/ldmatrix, or LLVM forwarded part of a load from the thread's own store."""
    result = ncu_bank_check().compare(DATA / "ncu_h100_bank.csv")
    assert result["cases"] == 48
    for row in result["rows"]:
        if row["matrix_instructions"]:
            continue
        assert row["st"]["measured"] == row["st"]["predicted"], row
        load_inst, load_wavefronts = row["ld"]["measured"]
        if load_inst == row["ld"]["predicted"][0]:
            assert load_wavefronts == row["ld"]["predicted"][1], row
    assert result["wavefronts_per_instruction_agree"] == 43
    assert sum(bool(r["matrix_instructions"]) for r in result["rows"]) == 4
