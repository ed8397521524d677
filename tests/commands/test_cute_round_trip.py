"""Issue 32 A.9: every CuTe form ttlayout writes reads back as the same layout, blocks and the lane / warp split
included; the CuTe text after the prefix is what an independent implementation (tensor-layouts) evaluates to
Triton's bases; text that reads two ways, written by someone else, is an error naming both readings."""
from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from golden_cases import cases_with_bases, option_values
from helpers import expected_offsets, expected_thread_value, library_layout, random_blocked

from linlayout_cli.cli import run

PREFIX = re.compile(r"cute-(tv|shared)(?:\[(.*?)\])?: ")


def _info(attr: str, ty: str) -> dict:
    code, out, err = run(["info", "-l", attr, "-t", ty, "--json"])
    assert code == 0, err
    return json.loads(out)


def _shape(ty: str) -> list[int]:
    return [int(x) for x in ty[len("tensor<"):].split("x")[:-1]]


def _round_trip(attr: str, ty: str) -> bool:
    """ttlayout's CuTe text of `attr` read back through -l: the very same linear layout. False: no CuTe form."""
    d = _info(attr, ty)
    text = d["cute_input"]
    if text is None:
        return False
    code, out, err = run(["-l", attr, "-t", ty, "--format", "cute"])
    assert code == 0 and out == text + "\n", err
    back = _info(text, ty)
    assert back["bases"] == {k: v for k, v in d["bases"].items()}, (attr, text, back["attr"])
    m = PREFIX.match(text)
    pure = text[m.end():] if m else text
    assert pure == d["cute"]
    if m:                                            # the prefix says only what the text alone cannot
        assert "ctas" in (m.group(2) or "") or "lanes" in (m.group(2) or "") or len(_shape(ty)) == 2
    shape = _shape(ty)
    lib = library_layout(pure)                       # an independent CuTe evaluates the same text to Triton's bases
    case = {"bases": {"register": [], "lane": [], "warp": [], "block": [], **d["bases"]}}
    if "offset" in d["bases"]:
        want = expected_offsets(case, shape)
        coords = list(np.ndindex(*shape))
        got = [lib(c[0] if len(shape) == 1 else tuple(c)) for c in coords[:: max(1, len(coords) // 256)]]
        assert got == want[:: max(1, len(coords) // 256)].tolist(), text
    else:
        want = expected_thread_value(case, shape)
        threads, values = want.shape
        for t in sorted({0, 1, threads // 2, threads - 1}):
            assert [lib(t, v) for v in range(values)] == want[t].tolist(), text
    return True


GOLDEN = [c for c in cases_with_bases(("core", "mma"))
          if re.fullmatch(r"tensor<(\d+x)+\w+>", option_values(c["args"]).get("t", ""))
          and option_values(c["args"]).get("l", "").startswith("#")][::3]


@pytest.mark.parametrize("case", GOLDEN, ids=[c["id"] for c in GOLDEN])
def test_every_golden_kind_reads_back_as_itself(case):
    values = option_values(case["args"])
    _round_trip(values["l"], values["t"])


def test_random_layouts_with_blocks_and_any_lanes_read_back_as_themselves():
    rng = random.Random(32)
    done = 0
    for i in range(60):
        shape = rng.choice([[64], [32, 32], [16, 64], [128, 64], [8, 8, 16]])
        lanes = rng.choice([8, 16, 32, 32, 64])
        attr = random_blocked(rng, shape, lanes=lanes)
        if i % 2:                                    # several CTAs: a CGA layout splitting some dims
            ctas = []
            for _ in range(rng.choice([1, 2])):
                basis = [0] * len(shape)
                basis[rng.randrange(len(shape))] = 1
                ctas.append(basis)
            attr = attr[:-2] + f", CGALayout = {ctas}" + "}>"
        ty = "tensor<" + "x".join(map(str, shape)) + "xf16>"
        code, _, _ = run(["-l", attr, "-t", ty])
        if code:
            continue                                 # a CGA split the shape cannot take
        done += _round_trip(attr, ty)
    assert done >= 40


@pytest.mark.parametrize("attr", [
    "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[1, 0]]}>",
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>",
    "#ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>",
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], "
    "CGALayout = [[1, 0]]}>",
])
def test_the_two_reported_cases_and_shared_blocks_read_back(attr):
    """128 threads x 64 values on 128x64 read back as a shared layout, and a multi-CTA layout as one CTA."""
    assert _round_trip(attr, "tensor<128x64xf16>")


def test_text_that_reads_two_ways_is_an_error_naming_both():
    code, out, err = run(["-l", "((_32,_4),_64):((_64,_2048),_1)", "-t", "tensor<128x64xf16>"])
    assert code == 1 and not out and err.count("\n") == 1
    assert "reads two ways" in err and "'cute-shared: ...' or 'cute-tv: ...'" in err
    assert "shared #ttg." in err and "thread-value #ttg." in err
    for prefix, kind in (("cute-shared: ", "shared"), ("cute-tv: ", "distributed")):
        assert _info(prefix + "((_32,_4),_64):((_64,_2048),_1)", "tensor<128x64xf16>")["category"] == kind


def test_a_bad_prefix_parameter_is_one_error_line():
    code, out, err = run(["-l", "cute-tv[warps=2]: (_32,_4):(_4,_1)", "-t", "tensor<32x4xf16>"])
    assert code == 1 and not out and err.count("\n") == 1 and "'ctas=N' or 'lanes=N'" in err
