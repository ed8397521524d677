"""Tensor-core layouts and nvmma_shared -> LinearLayout, checked against Triton 3.9's own results.

tests/data/mma_reference.jsonl was produced by scripts/make_mma_reference.py with Triton 3.9.0 (seeded random
cases of every kind plus hand-picked ones). For each case whose attribute Triton accepts, ttlayout must give
exactly the same `LinearLayout::toString()` text, or, where Triton aborts, a clean TTLayoutError.
"""
from __future__ import annotations

import json

import pytest
from golden_cases import DATA

from linlayout_cli.attributes import encodings as enc
from linlayout_cli.conversions import to_linear_layout
from linlayout_cli.errors import TTLayoutError

REFERENCE = DATA / "mma_reference.jsonl"
CASES = [json.loads(line) for line in REFERENCE.read_text().splitlines() if line.strip()]
CHECKED = [c for c in CASES if c["result"]["status"] in ("ok", "abort")]


def build(params):
    """The ttlayout dataclass described by a case's params (lists -> tuples, parent built recursively)."""
    fields = {}
    for key, value in params.items():
        if key == "kind":
            continue
        if key == "parent":
            value = build(value)
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        fields[key] = value
    return getattr(enc, params["kind"])(**fields)


def _case_id(case):
    return f"{case['id']}-{case['kind']}"


@pytest.mark.parametrize("case", CHECKED, ids=_case_id)
def test_matches_triton(case):
    attr = build(case["params"])
    result = case["result"]
    if result["status"] == "abort":
        with pytest.raises(TTLayoutError) as info:
            to_linear_layout(attr, case["shape"])
        assert "\n" not in str(info.value)
        return
    got = to_linear_layout(attr, case["shape"])
    assert str(got) == result["text"], f"{case['attr']} shape {case['shape']}"


def test_reference_covers_every_kind():
    kinds = {}
    for c in CHECKED:
        p = c["params"]
        key = p["kind"] if p["kind"] != "DotOperandEncoding" else "dot/" + p["parent"]["kind"]
        kinds.setdefault(key, [0, 0])[c["result"]["status"] == "ok"] += 1
    for key in ("NvidiaMmaEncoding", "AMDMfmaEncoding", "AMDWmmaEncoding", "NVMMASharedEncoding",
                "dot/BlockedEncoding", "dot/NvidiaMmaEncoding", "dot/AMDMfmaEncoding", "dot/AMDWmmaEncoding"):
        assert kinds.get(key, [0, 0])[1] >= 20, (key, kinds.get(key))
    assert sum(ok for _, ok in kinds.values()) >= 300


def test_one_instruction_tiles():
    """One instruction tile each, bases as Triton 3.9 gives them: mma.sync m16n8 (lanes in 8 row groups of 4,
    2 adjacent columns per register pair, registers 2-3 eight rows down), MFMA 32x32 (lanes along N, lanes
    32-63 four rows down, 4-row register groups 8 rows apart), 128-byte swizzled 16-bit NVMMA shared (row r's
    16-byte chunks XORed with r)."""
    mma = enc.NvidiaMmaEncoding(2, 0, (1, 1), (16, 8))
    ll = to_linear_layout(mma, [16, 8])
    assert ll.get_in_dim_bases("register") == ((0, 1), (8, 0))
    assert ll.get_in_dim_bases("lane") == ((0, 2), (0, 4), (1, 0), (2, 0), (4, 0))
    mfma = enc.AMDMfmaEncoding(3, (1, 1), (32, 32), False)
    ll = to_linear_layout(mfma, [32, 32])
    assert ll.get_in_dim_bases("register") == ((1, 0), (2, 0), (8, 0), (16, 0))
    assert ll.get_in_dim_bases("lane") == ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (4, 0))
    nvmma = enc.NVMMASharedEncoding(128, False, 16)
    ll = to_linear_layout(nvmma, [8, 64])
    assert ll.get_in_dim_bases("offset") == ((0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (0, 32),
                                             (1, 8), (2, 16), (4, 32))


@pytest.mark.parametrize("attr, shape, needle", [
    (enc.AMDMfmaEncoding(3, (1, 1), (64, 4), False), [64, 4], "64x4"),
    (enc.AMDMfmaEncoding(3, (1, 1, 8), (32, 32), False), [4, 64, 64], "tilesPerWarp"),
    (enc.NvidiaMmaEncoding(2, 0, (1, 1, 1), (16, 8)), [2, 16, 8], "instrShape"),
    (enc.NvidiaMmaEncoding(2, 0, (2, 2), ()), [32, 32], "instrShape"),
    (enc.NVMMASharedEncoding(128, False, 16), [8, 16], "getTMABlockShape"),
    (enc.NVMMASharedEncoding(128, False, 16), [4, 64], "collapsed"),
    (enc.NVMMASharedEncoding(128, False, 16, rank=1), [64], "rank"),
    (enc.NvidiaMmaEncoding(2, 0, (2, 2), (16, 8)), [16, 8, 8], "rank"),
    (enc.DotOperandEncoding(1, enc.NvidiaMmaEncoding(3, 0, (4, 1), (16, 64, 16)), 2), [64, 64], "Hopper"),
    (enc.DotOperandEncoding(0, enc.AMDMfmaEncoding(3, (1, 1), (32, 32), False), 0), [32, 32], "kWidth"),
])
def test_clean_errors(attr, shape, needle):
    with pytest.raises(TTLayoutError) as info:
        to_linear_layout(attr, shape)
    message = str(info.value)
    assert needle in message and "\n" not in message


def test_parser_agrees_with_reference_params():
    """When the attribute parser is available, it must build exactly the dataclasses used here."""
    from linlayout_cli.parsing import parse_attribute
    for case in CHECKED[::7]:
        want = _default_tiles(build(case["params"]))
        assert _default_tiles(parse_attribute(case["attr"])) == want, case["attr"]


def _default_tiles(attr):
    """All-ones tilesPerWarp compared as "not given" (the parser drops them; only their length could
    matter, for rank-3 layouts, see the reference's explicit `tilesPerWarp = [1, 1]` case)."""
    if isinstance(attr, enc.DotOperandEncoding):
        return enc.DotOperandEncoding(attr.op_idx, _default_tiles(attr.parent), attr.k_width)
    if isinstance(attr, enc.AMDMfmaEncoding) and set(attr.tiles_per_warp) <= {1}:
        return enc.replace(attr, tiles_per_warp=())
    return attr
