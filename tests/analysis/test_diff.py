"""`ttlayout diff A B`: equal or not, the bits that map differently, convert's verdict for distributed pairs, the
offsets that hold another element and the bank conflicts of shared pairs. Expected values: Triton's bases and
counts from the golden convert and bank suites, and hand-checked swizzle arithmetic."""
from __future__ import annotations

import collections
import json

import pytest
from golden_cases import load_suite

from linlayout_cli.analysis.diff import moved_count
from linlayout_cli.cli import run

ROWS = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
COLS = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
PLAIN = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
SWZ8 = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
HW = ("register", "lane", "warp", "block")


def diff_json(*argv, stdin=None) -> dict:
    code, out, err = run(["diff", *argv, "--json"], stdin=stdin)
    assert code == 0, err
    return json.loads(out)


def text(*argv) -> str:
    code, out, err = run(["diff", *argv])
    assert code == 0, err
    return out


def error(*argv, stdin=None) -> str:
    code, out, err = run(["diff", *argv], stdin=stdin)
    assert code == 1 and out == "" and err.startswith("ttlayout: error: ") and err.count("\n") == 1, (code, err)
    return err[len("ttlayout: error: "):-1]


# ----------------------------------------------------------------------------------------- distributed pairs

CONVERT = [c for c in load_suite("convert") if c["target"] in ("sm80", "sm90", "sm100")][::9]


@pytest.mark.parametrize("case", CONVERT, ids=lambda c: c["id"])
def test_distributed_pairs_against_triton_s_bases_and_scratch(case):
    """The bits that change are those where Triton's bases of the two layouts differ; equal exactly when all
    agree; convert's verdict carries the scratch Triton allocated for the pair."""
    t = "tensor<" + "x".join(map(str, case["shape"])) + "x" + case["elem"] + ">"
    d = diff_json(case["src"], case["dst"], "-t", t, "--target", case["target"])
    src, dst = case["src_ll"], case["dst_ll"]
    want = [(dim, i, src[dim][i] if i < len(src[dim]) else None, dst[dim][i] if i < len(dst[dim]) else None)
            for dim in HW for i in range(max(len(src[dim]), len(dst[dim])))
            if (src[dim][i:i + 1] or [None]) != (dst[dim][i:i + 1] or [None])]
    assert [(c["dim"], c["bit"], c["a"], c["b"]) for c in d["changes"]] == want
    assert d["equal"] == (src == dst) and d["bits_compared"] == sum(max(len(src[k]), len(dst[k])) for k in HW)
    assert d["convert"]["scratch_bytes"] == case["scratch_bytes"] and d["convert_error"] is None
    assert d["offsets"] is None and d["banks"] is None


def test_the_transpose_in_info_s_notation():
    """Hand-checked: ROWS steps dim0 with its lane bits 3-4 (1, 2), warp bits (4, 8), register bits 3-4
    (16, 32); COLS is its transpose. All 12 bits differ; Triton lowers it through 16384 bytes of shared memory
    (golden/convert classic-001)."""
    out = text(ROWS, COLS, "-t", "tensor<64x64xf32>")
    assert out.startswith("different: 12 of 12 hardware bits map to other elements\n")
    assert "dim0 64       A     lane 4 · warp 4 · register 4\n              B     register 4 · lane 8 · register 2\n" \
        in out
    assert "dim1 64       A     register 4 · lane 8 · register 2\n              B     lane 4 · warp 4 · register 4\n" \
        in out
    assert "              register 1: (0, 1) -> (1, 0)\n              register 2: (0, 2) -> (2, 0)\n" \
        "              register 4: (0, 32) -> (32, 0)\n" in out
    assert "              ... and 4 more (--json lists them all)\n" in out          # 8 of 12 listed
    assert "convert       A -> B on sm90: shared memory: 16384 bytes scratch" in out


def test_an_attribute_equals_its_own_gluon_and_linear_spellings():
    linear = ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 32], [16, 0], [32, 0]], lane = [[0, 4], [0, 8], "
              "[0, 16], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>")           # golden classic-001 src_ll
    gluon = "ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])"
    for other in (linear, gluon):
        d = diff_json(ROWS, other, "-t", "tensor<64x64xf32>")
        assert d["equal"] and d["changes"] == [] and d["convert"]["path"] == "noop"
    out = text(ROWS, gluon, "-t", "tensor<64x64xf32>")
    assert out.startswith("equal: the same linear layout at 64x64")
    assert "dim0 64       A, B  lane 4 · warp 4 · register 4\n" in out


# ----------------------------------------------------------------------------------------- shared pairs


def test_the_128_byte_swizzle_of_f16_is_swizzled_shared_vec_8():
    """Hand-checked: 128-byte rows of f16 are 64 elements; the 128-byte swizzle XORs 16-byte chunks (8
    elements) with row % 8, which is swizzled_shared vec 8, perPhase 1, maxPhase 8."""
    d = diff_json(SWZ8, NVMMA128, "-t", "tensor<64x64xf16>")
    assert d["equal"] and d["changes"] == [] and d["offsets"] == {"total": 4096, "moved": 0, "examples": []}
    assert d["banks"]["note"].startswith("no register layout")


def test_unswizzled_against_the_128_byte_swizzle():
    """Hand-checked: the swizzle flips column bits 3-5 (8, 16, 32) with row bits 0-2, i.e. offset bits 6-8; the
    difference has rank 3, so every row but those with row % 8 == 0 moves: 4096 - 4096 / 8 = 3584 offsets.
    The first: offset 64 = (1, 0) unswizzled, (1, 0 ^ 8) swizzled."""
    d = diff_json(PLAIN, NVMMA128, "-t", "tensor<64x64xf16>")
    assert not d["equal"]
    assert [(c["dim"], c["bit"], c["a"], c["b"]) for c in d["changes"]] == [
        ("offset", 6, [1, 0], [1, 8]), ("offset", 7, [2, 0], [2, 16]), ("offset", 8, [4, 0], [4, 32])]
    assert d["offsets"]["total"] == 4096 and d["offsets"]["moved"] == 3584
    assert d["offsets"]["examples"][:2] == [{"block": 0, "offset": 64, "a": [1, 0], "b": [1, 8]},
                                            {"block": 0, "offset": 65, "a": [1, 1], "b": [1, 9]}]
    out = text(PLAIN, NVMMA128, "-t", "tensor<64x64xf16>")
    assert "offsets       3584 of 4096 offsets hold another element in B than in A (512 the same)\n" in out
    assert "              offset 64: (1, 0) in A, (1, 8) in B\n" in out
    assert "              ... and 3576 more\n" in out                                  # 8 examples listed


def test_moved_count_is_the_inputs_off_the_kernel():
    assert moved_count([1, 2, 4], [1, 2, 4]) == 0
    assert moved_count([1, 2, 4], [2, 1, 4]) == 4          # x with bit0 == bit1 map alike (0, 3, 4, 7), 4 move
    assert moved_count([1, 2], [1, 3]) == 2                # bit 1 flips bit 0 too: 2 and 3 move


def _bank_groups():
    """(register, shape, bit width, [(shared, Triton's conflicts)]) of golden/bank with two or more shared
    layouts for the same register layout."""
    groups = collections.defaultdict(list)
    for c in load_suite("bank"):
        if c.get("exit") == 0:
            groups[c["reg"], tuple(c["shape"]), c["bitwidth"]].append((c["shared"], c["conflicts"]))
    return [(*k, v) for k, v in groups.items() if len(v) > 1]


@pytest.mark.parametrize("reg,shape,bits,shared", _bank_groups()[:8])
def test_bank_conflicts_of_both_are_triton_s(reg, shape, bits, shared):
    (a, ca), (b, cb) = shared[0], shared[-1]
    t = "tensor<" + "x".join(map(str, shape)) + "xi" + str(bits) + ">"
    d = diff_json(a, b, "-t", t, "-r", reg)
    assert d["banks"]["register_layout"] == reg and d["banks"]["target"] == "sm90"
    assert (d["banks"]["a"]["conflicts"], d["banks"]["b"]["conflicts"]) == (ca, cb)


# ----------------------------------------------------------------------------------------- -i, mixed pairs, errors

DUMP = f"#blocked = {ROWS}\n#shared = {PLAIN}\n#shared1 = {NVMMA128}\n"


def test_the_register_layout_defaults_to_the_dump_s_only_distributed_one():
    d = diff_json("#shared", "#shared1", "-i", "-", "-t", "tensor<64x64xf16>", stdin=DUMP)
    assert d["banks"]["register_layout"] == "#blocked (the -i file's only distributed layout)"
    named = diff_json("-i", "-", "--alias-names", "shared,shared1", "-r", "#blocked", "-t", "tensor<64x64xf16>",
                      stdin=DUMP)
    given = diff_json(PLAIN, NVMMA128, "-r", ROWS, "-t", "tensor<64x64xf16>")
    assert named["banks"]["a"] == given["banks"]["a"] == d["banks"]["a"]
    two = DUMP + f"#blocked1 = {COLS}\n"
    d = diff_json("#shared", "#shared1", "-i", "-", "-t", "tensor<64x64xf16>", stdin=two)
    assert d["banks"]["a"] is None and d["banks"]["note"].startswith(
        "no register layout: the -i file has 2 distributed layouts (#blocked, #blocked1); -r REG_ATTR")


def test_a_distributed_and_a_shared_layout_are_different_kinds():
    d = diff_json(ROWS, PLAIN, "-t", "tensor<64x64xf16>")
    assert not d["equal"] and (d["category_a"], d["category_b"]) == ("distributed", "shared")
    assert d["convert"] is None and d["offsets"] is None
    assert text(ROWS, PLAIN, "-t", "tensor<64x64xf16>").startswith(
        "different: A is a distributed layout, B a shared one (what storing one into the other costs: ttlayout bank)")


def test_mistakes_are_one_line():
    assert error(ROWS, "-t", "tensor<64x64xf16>").startswith("missing layout B: ttlayout diff A B -t TYPE")
    assert error(ROWS, COLS, "-r", ROWS, "-t", "tensor<64x64xf16>") == (
        "-r prices two shared layouts; A and B are not both shared")
    assert error("-i", "-", "-t", "tensor<64x64xf16>", stdin=DUMP).startswith("the file has 3 layouts")
    assert error(PLAIN, NVMMA128, "-r", PLAIN, "-t", "tensor<64x64xf16>").startswith(
        "the register (-r) layout must be a distributed layout")


def test_help_notation_explains_what_info_swizzle_and_diff_print():
    code, notation, _ = run(["help", "notation"])
    assert code == 0
    assert "  dim0 128      lane 4 · warp 4 · register 8\n" in notation and "from low to high" in notation
    for printed in ("mixed with another dim: lane 4", "lane l holds what lane l ^ 4 holds", "st.shared.v4.b32",
                    "2^k - 1", "dst lane bit 2 <- src warp bit 0", "n/a (TMA reads)", "ttgl.BlockedLayout(...)",
                    "A, B", "register 4: (0, 32) -> (32, 0)", "(no such bit)", "offset 64: (1, 0) in A, (1, 8) in B",
                    "... and 12 more"):
        assert printed in notation, printed
    # each is what the commands print
    out = text(PLAIN, NVMMA128, "-t", "tensor<64x64xf16>")
    assert "offset 64: (1, 0) in A, (1, 8) in B" in out and "dim1 64       A     offset 64\n" in out
    code, info, _ = run(["info", "-l", ROWS.replace("[4, 1]", "[2, 2]"), "-t", "tensor<4x16xf16>"])
    assert "lane l holds what lane l ^ 4 holds" in info
