"""`ttlayout info` and `ttlayout lookup` against Triton 3.9 (golden bases, paste-ready attributes, printed grids)
and against hand-worked layouts."""
from __future__ import annotations

import json
import math
import re

import pytest
from golden_cases import case_id, expected_stdout, load_suite, without_encoding

from linlayout_cli.cli import run

LINEAR_CASES = [c for s in ("core", "mma") for c in load_suite(s) if "bases" in c]
HW_FLAGS = ("-use-hw-view", "--use-hw-view", "-use-hw-view=true")
MMA3 = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 256, 16]}>"
NVMMA128 = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


def layout_args(case) -> list[str]:
    """The case's -l/-t arguments in the spelling every subcommand takes (an encoding written in -t, which
    Triton ignores beside -l, left out)."""
    found, it = {}, iter(case["args"])
    for a in it:
        m = re.fullmatch(r"--?(l|t)(?:=(.*))?", a, re.S)
        if m:
            found[m.group(1)] = m.group(2) if m.group(2) is not None else next(it)
    return ["-l", found["l"], "-t", without_encoding(found["t"])]


def is_hw(case) -> bool:
    return any(a in HW_FLAGS for a in case["args"])


def info_json(args):
    code, out, err = run(["info", *args, "--json"])
    assert code == 0 and not err, err
    return json.loads(out)


# ----------------------------------------------------------------------------------------- against Triton


@pytest.mark.parametrize("case", LINEAR_CASES, ids=case_id)
def test_info_bases_and_linear_attr_are_tritons(case):
    d = info_json(layout_args(case))
    assert d["bases"] == case["bases"]
    assert d["out_dims"] == case["out_dims"]
    assert d["linear_attr"] == case["linear_attr"]


SAME_VIEW = [c for c in LINEAR_CASES if c.get("linear_same_view")]


@pytest.mark.parametrize("case", SAME_VIEW, ids=case_id)
def test_paste_ready_attribute_prints_the_same_grid(case):
    """Triton prints the same view from `linear_attr` (recorded by the generator); so must ttlayout."""
    args = layout_args(case)
    d = info_json(args)
    argv = ["-l", d["linear_attr"], "-t", args[3]] + (["--use-hw-view"] if is_hw(case) else [])
    code, out, err = run(argv)
    assert code == 0, err
    assert out.split("\n", 1)[1] == expected_stdout(case).split("\n", 1)[1]


# ----------------------------------------------------------------------------------------- against the grid


def tensor_cells(text: str, shared: bool) -> list[str]:
    """The cells of a printed tensor view, in row-major order (empty cells kept)."""
    sep = "," if shared else ", "
    cells = []
    for row in text.split("\n")[1:]:
        if row:
            cells += [c.strip() for c in row.lstrip("[").rstrip("]").split(sep)]
    return cells


def unflat(i: int, shape) -> tuple[int, ...]:
    out = []
    for s in reversed(shape):
        out.append(i % s)
        i //= s
    return tuple(reversed(out))


def sample(n: int, k: int = 24) -> list[int]:
    return sorted(set(range(0, n, max(1, n // k))) | {n - 1})


TENSOR_VIEWS = [c for c in LINEAR_CASES if not is_hw(c)]


@pytest.mark.parametrize("case", TENSOR_VIEWS, ids=case_id)
def test_lookups_agree_with_the_printed_grid(case):
    args = layout_args(case)
    shape = [case["out_dims"][f"dim{i}"] for i in range(len(case["out_dims"]))]
    shared = "offset" in case["bases"]
    cells = tensor_cells(expected_stdout(case), shared)
    assert len(cells) == math.prod(shape)
    blocks = 1 << len(case["bases"]["block"])
    per_block = len(cells) // blocks if blocks <= len(cells) else 0
    threads_seen: dict[str, str] = {}
    for i in sample(len(cells)):
        element = unflat(i, shape)
        if shared:
            if not per_block:
                continue
            printed = tuple(int(x) for x in cells[i].strip("()").split(":"))
            block, offset = divmod(i, per_block)
            code, out, _ = run(["lookup", *args, "--offset", str(offset), "--block", str(block), "--json"])
            assert code == 0 and tuple(json.loads(out)["element"]) == printed
            code, out, _ = run(["lookup", *args, "--element", ",".join(map(str, printed)), "--json"])
            assert {"block": block, "offset": offset} in [
                {"block": o["block"], "offset": o["offset"]} for o in json.loads(out)["offsets"]]
        else:
            printed = [c.strip() for c in cells[i].split("|") if c.strip()]
            code, out, err = run(["lookup", *args, "--element", ",".join(map(str, element)), "--json"])
            assert code == 0, err
            d = json.loads(out)
            names = [h["name"] for h in d["holders"]]
            assert names == printed if d["copies"] <= len(d["holders"]) else names == printed[:len(names)]
            for name in printed[:2]:
                threads_seen.setdefault(name, ",".join(map(str, element)))
    for name, element in list(threads_seen.items())[:4]:
        parts = name.split(":")
        block = int(parts[0][1:]) if len(parts) == 3 else 0
        thread, register = int(parts[-2][1:]), int(parts[-1])
        code, out, err = run(["lookup", *args, "--thread", str(thread), "--block", str(block), "--json"])
        assert code == 0, err
        held = {e["register"]: e["element"] for e in json.loads(out)["elements"]}
        assert ",".join(map(str, held[register])) == element


# ----------------------------------------------------------------------------------------- hand-worked


def test_hopper_accumulator_summary():
    d = info_json(["-l", MMA3, "-t", "tensor<128x256xf16>"])
    assert d["kind"] == "nvidia_mma" and d["elements_per_thread"] == 256
    # wgmma m64nNk16 accumulator: a thread holds 2 adjacent columns, so a 32-bit vector of f16
    assert d["vector_width"] == 2 and d["distributed"]["contig_per_thread"] == [1, 2]
    assert d["replication"]["copies"] == 1
    assert d["gluon"] == "ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 256, 16])"
    spread = {s["dim"]: s["factors"] for s in d["distributed"]["spread"]}
    assert spread[0] == [["lane", 8], ["register", 2], ["warp", 4], ["register", 2]]
    assert spread[1] == [["register", 2], ["lane", 4], ["register", 32]]


def test_blocked_vector_width_follows_size_per_thread():
    d = info_json(["-l", BLOCKED, "-t", "tensor<64x64xf16>"])
    assert d["vector_width"] == 4 and d["distributed"]["vector_bits"] == 64
    d = info_json(["-l", BLOCKED.replace("[1, 4]", "[1, 16]"), "-t", "tensor<64x64xf16>"])
    assert d["vector_width"] == 8                       # capped at 128 bits
    d = info_json(["-l", BLOCKED, "-t", "tensor<64x64xf64>"])
    assert d["vector_width"] == 2


def test_replication_of_a_small_tensor():
    # The layout's tile is 16x32 (4 lanes x 4 warps of rows; 4 registers x 8 lanes of columns). At 8x8, lanes 2
    # and 4 would step columns 8 and 16 and warp 2 row 8, all outside the tensor, so they repeat:
    # 4 registers x 32 lanes x 4 warps = 512 slots for 64 elements, 8 copies each.
    d = info_json(["-l", BLOCKED, "-t", "tensor<8x8xf32>"])
    r = d["replication"]
    assert (r["distinct_elements"], r["slots"], r["copies"]) == (64, 512, 8)
    assert r["free_masks"] == {"register": 0, "lane": 0b110, "warp": 0b10, "block": 0}


def test_nvmma_shared_row_banks():
    # 128-byte swizzle, 64x64 f16: row r starts at offset 64 r with its first 16-byte chunk XORed by r % 8,
    # i.e. offset 64 r + 8 (r % 8): bank (32 r + 4 (r % 8)) % 32 = 4 (r % 8)
    d = info_json(["-l", NVMMA128, "-t", "tensor<64x64xf16>"])
    s = d["shared"]
    assert s["alignment"] == 1024 and (s["vec"], s["per_phase"], s["max_phase"]) == (8, 1, 8)
    assert s["row_banks"]["32"][:16] == [4 * (r % 8) for r in range(16)]
    assert d["gluon"] == ("ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, "
                          "transposed=False)")


def test_info_text_fits_one_screen():
    for args in (["-l", MMA3, "-t", "tensor<128x256xf16>"], ["-l", NVMMA128, "-t", "tensor<64x64xf16>"]):
        code, out, err = run(["info", *args])
        assert code == 0 and len(out.splitlines()) <= 50
        assert "paste" in out and "gluon" in out and "linear layout" in out


def test_lookup_element_and_thread():
    code, out, _ = run(["lookup", "-l", MMA3, "-t", "tensor<128x256xf16>", "--element", "3,5"])
    assert code == 0 and "T14:1" in out
    code, out, _ = run(["lookup", "-l", MMA3, "-t", "tensor<128x256xf16>", "--thread", "37", "--json"])
    d = json.loads(out)
    assert d["thread"] == 37 and len(d["elements"]) == 256
    # lane 5 = 0b00101: lane bases (0, 2) and (1, 0) -> (1, 2); warp 1 adds 16 rows
    assert d["elements"][0] == {"block": 0, "register": 0, "element": [17, 2]}


@pytest.mark.parametrize("extra,words", [
    (["--element", "128,0"], "index 128 of dim 0 is out of range: valid 0..127"),
    (["--element", "1"], "needs 2 indices"),
    (["--element", "a,b"], "expects comma-separated integers"),
    (["--thread", "128"], "valid 0..127"),
    (["--thread", "1", "--element", "1,1"], "exactly one of"),
    ([], "exactly one of"),
    (["--offset", "3"], "needs a shared layout"),
])
def test_lookup_errors(extra, words):
    code, out, err = run(["lookup", "-l", MMA3, "-t", "tensor<128x256xf16>", *extra])
    assert code == 1 and out == "" and words in err and err.count("\n") == 1


def test_shared_lookup_errors():
    code, out, err = run(["lookup", "-l", NVMMA128, "-t", "tensor<64x64xf16>", "--offset", "4096"])
    assert code == 1 and "valid 0..4095" in err
    code, out, err = run(["lookup", "-l", NVMMA128, "-t", "tensor<64x64xf16>", "--thread", "0"])
    assert code == 1 and "needs a distributed layout" in err
