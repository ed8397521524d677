"""The shared-memory instruction model against Triton 3.9's PTX for two classes of layouts (issue 32 D):

* packed 8/16-bit elements: f16, bf16, i8 and fp8 tensors whose threads own 2-16 contiguous elements, where
  LLVM spells the access either as a vector of elements (``st.shared.v2.b16``, ``.v4.b16``, ``.v2.b8``) or as
  packed words (``st.shared.b32``, ``.v2.b32``, ``.b16``, ``.v2.b16`` of i8 pairs);
* reads into layouts whose lanes, warps or registers broadcast along a dim.

Every case of ``tests/data/packed_shared.jsonl`` (written from Triton by ``scripts/make_packed_shared_reference.py``)
must have the compiled instruction names and counts per thread, in both directions, exactly."""
from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache

import pytest
from golden_cases import DATA

from linlayout_cli import inputs
from linlayout_cli.analysis import shared_access as sa
from linlayout_cli.analysis.convert import analyze_convert
from linlayout_cli.analysis.targets import READ, WRITE, get_target

CASES = [json.loads(line) for line in (DATA / "packed_shared.jsonl").read_text().splitlines()]
# found by this class, outside it: sm100 moves some 8-bit tiles with its .b8 matrix forms, which the model lacks
KNOWN_GAPS = {"packed-030": "sm100 stmatrix.m16n8.x2.trans.shared.b8 / ldmatrix.m16n16.x1.trans.shared.b8 "
                            "(8-bit transposed matrix forms) are not modelled: the model names st/ld.shared.b8"}


@lru_cache(maxsize=None)
def _ll(text: str, shape: tuple):
    return inputs.linear_layout(inputs.attribute(text), list(shape))


def model(case: dict) -> dict[str, dict[str, int]]:
    """{direction: {instruction: per thread}} as the model names them ({} where no shared memory is used)."""
    shape = tuple(case["shape"])
    w, r = _ll(case["write"], shape), _ll(case["read"], shape)
    if case["kind"] == "local":
        smem = _ll(case["shared"], shape)
        dirs = [sa.local_access(w, smem, case["bitwidth"], WRITE, get_target(case["target"])),
                sa.local_access(r, smem, case["bitwidth"], READ, get_target(case["target"]))]
    else:
        report = analyze_convert(w, r, case["bitwidth"], get_target(case["target"]), case["num_warps"])
        if report.path != "shared_memory":
            return {WRITE: {}, READ: {}}
        rt = sa.convert_access(w, r, case["bitwidth"], get_target(case["target"]), warp_sync=report.barrier == "warp")
        dirs = [rt.write, rt.read]
    return {d.op: {d.instruction: d.instructions_per_warp} for d in dirs}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=KNOWN_GAPS[c["id"]], strict=True))
                                  if c["id"] in KNOWN_GAPS else c for c in CASES], ids=[c["id"] for c in CASES])
def test_instructions_equal_the_compiled_ptx(case):
    got = model(case)
    assert got[WRITE] == case["write_ops"], ("write", got[WRITE], case["write_ops"])
    assert got[READ] == case["read_ops"], ("read", got[READ], case["read_ops"])


def test_the_reference_covers_both_spellings():
    """The class is the one the issue names: each packed spelling and each vector-of-elements spelling occurs
    (a model naming only one of them fails here and in the cases above), on sm80, sm90 and sm100, for local
    memory and converts; and replicated reads (broadcast lanes) are in it."""
    forms: Counter = Counter()
    for c in CASES:
        for ops in (c["write_ops"], c["read_ops"]):
            forms.update(k.split(".", 2)[2] for k in ops if k.startswith(("st.shared", "ld.shared")))
    for form in ("v2.b16", "v4.b16", "b32", "v2.b32", "v2.b8", "b16"):
        assert forms[form] >= 2, (form, forms)
    assert {c["target"] for c in CASES} == {"sm80", "sm90", "sm100"}
    assert {(c["class"], c["kind"]) for c in CASES} == {(k, x) for k in ("packed", "replicated")
                                                        for x in ("local", "convert")}
    assert any("f8E4M3FN" == c["elem"] for c in CASES) and any("bf16" == c["elem"] for c in CASES)
    broadcast = [c for c in CASES if c["class"] == "replicated"
                 and any(not any(b) for b in _ll(c["read"], tuple(c["shape"])).get_in_dim_bases("lane"))]
    assert len(broadcast) >= 10
