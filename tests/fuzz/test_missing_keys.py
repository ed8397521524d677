"""Issue 32 A.3: leaving out a key a layout cannot do without says `missing key '<key>'`, for every kind and every
required key, never a symptom (a rank mismatch, a range error on a defaulted zero). Random valid attributes of
every kind (test_properties' strategies) lose one top-level key at a time."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import KINDS, _top_level_entries

from linlayout_cli.cli import run
from linlayout_cli.errors import TTLayoutError
from linlayout_cli.parsing import parse_attribute

# the keys without which no layout of the kind is valid (Triton defaults each to an empty list or a zero that its
# verifier, or the tensor's rank, then rejects); the other keys have defaults that can be valid
REQUIRED = {
    "blocked": {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"},
    "slice": {"dim", "parent"},
    "dot_op": {"opIdx", "parent"},
    "nvidia_mma": {"versionMajor", "warpsPerCTA", "instrShape"},
    "amd_mfma": {"warpsPerCTA", "instrShape"},
    "amd_wmma": {"version", "ctaLayout"},
    "linear": {"register", "lane", "warp", "block"},
    "generic_linear": {"register", "lane", "warp", "block"},
    "swizzled_shared": {"order"},
    "amd_rotating_shared": {"order"},
    "nvmma_shared": {"swizzlingByteWidth", "elementBitWidth"},
    "partitioned_shared": {"numPartitions", "numGroups", "partitionLayout"},
}
_DICT = re.compile(r"^(#ttg\.\w+<)\{(.*)\}(>)$", re.S)
_SYMPTOMS = ("same rank", "rank 0", "got 0", "Expected basis", "struct is missing", "expected ','")


def _without(text: str, key: str) -> str:
    m = _DICT.match(text)
    entries = [e for e in _top_level_entries(m.group(2)) if e.split("=")[0].strip() != key]
    return m.group(1) + "{" + ", ".join(entries) + "}" + m.group(3)


@pytest.mark.parametrize("kind", sorted(REQUIRED))
@settings(max_examples=40)
@given(data=st.data())
def test_every_required_key_left_out_is_named(kind, data, fuzz_counter):
    text = data.draw(KINDS[kind], label="attribute")
    keys = [e.split("=")[0].strip() for e in _top_level_entries(_DICT.match(text).group(2))]
    assert REQUIRED[kind] <= set(keys) | ({"instrShape"} if kind == "amd_mfma" else set()), keys
    for key in sorted(REQUIRED[kind] & set(keys)):
        with pytest.raises(TTLayoutError) as info:
            parse_attribute(_without(text, key))
        assert f"missing key '{key}' in #ttg.{kind}" in str(info.value), (text, key, str(info.value))
    for key in sorted(set(keys) - REQUIRED[kind]):           # an optional key: defaulted, or a real problem
        try:
            parse_attribute(_without(text, key))
        except TTLayoutError as e:
            assert not any(s in str(e) for s in _SYMPTOMS), (text, key, str(e))
    fuzz_counter["property"] += 1


@pytest.mark.parametrize("text,key", [
    ("#ttng.tensor_memory_encoding<blockN = 64, colStride = 1>", "blockM"),
    ("#ttng.tensor_memory_encoding<blockM = 128, colStride = 1>", "blockN"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64>", "colStride"),
    ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}>", "alignment"),
    ("#ttg.shared_linear<{block = []}, alignment = 16>", "offset"),
    ("#ttg.padded_shared<[2:+2] {shape = [4, 8]}>", "order"),
    ("#ttg.padded_shared<[2:+2] {order = [1, 0]}>", "shape"),
    ("#ttg.padded_shared<[2:+2] {offset = [[0, 1]]}>", "block"),
    ("#ttg.mfma<{version = 3, warpsPerCTA = [2, 2], isTransposed = false}>", "instrShape"),
    ("#ttg.mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1]}>", "instrShape"),
    ("#ttg.shared<{vec = 8, perPhase = 1, maxPhase = 8}>", "order"),
])
def test_struct_and_special_bodies_name_the_missing_key(text, key):
    with pytest.raises(TTLayoutError) as info:
        parse_attribute(text)
    assert f"missing key '{key}'" in str(info.value)


def test_legacy_spellings_that_imply_the_key_still_read():
    """`#ttg.mma` version 2 without instrShape is Ampere's [16, 8]; the old mfma `nonKDim` gives instrShape."""
    assert parse_attribute("#ttg.mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2]}>").instr_shape == (16, 8)
    assert parse_attribute("#ttg.mfma<{nonKDim = 32, warpsPerCTA = [2, 2], isTransposed = false}>").instr_shape == \
        (32, 32)


def test_the_command_line_says_missing_key_not_a_rank_message():
    code, out, err = run(["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1]}>",
                          "-t", "tensor<8x8xf16>"])
    assert code == 1 and not out
    assert "missing key 'order' in #ttg.blocked" in err and "rank" not in err
