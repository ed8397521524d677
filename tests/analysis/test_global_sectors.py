"""Sectors per warp access from the address pattern (analysis/global_sectors.py). Expected values are worked out
by hand from each layout's lanes (said in each case) and, for the calibration kernels, measured on an H200
(tests/data/calibration: the TTGIR of /work/shared/calibration/h200-layout-changes.md's rows)."""
from __future__ import annotations

import pytest
from golden_cases import DATA

from linlayout_cli.analysis.axis import Axes
from linlayout_cli.analysis.global_sectors import (
    REASON_ALIGNMENT,
    REASON_RUNS,
    REASON_STRIDED,
    unit_bytes,
    warp_access,
)
from linlayout_cli.analysis.info import contig_per_thread, layout_order
from linlayout_cli.conversions import analysable_layout
from linlayout_cli.parsing import parse_attribute
from linlayout_cli.parsing.module import read_modules


def ll(text: str, shape):
    return analysable_layout(parse_attribute(text), list(shape))


ROW_MAJOR = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>"


@pytest.mark.parametrize("layout,shape,bits,vec,contiguity,constancy,sectors,ideal", [
    # 4 lanes x 4 f32 = 64 contiguous bytes per row (2 sectors), 8 rows a runtime stride apart: 16; ideal 512 B / 32
    (ROW_MAJOR, (64, 64), 32, 4, (1, 64), (1, 1), 16, 16),
    # column-major blocked (order [0, 1]) with pointers contiguous along dim 0: 16 lanes x 4 f32 = 256 bytes
    # (8 sectors) down each of 2 columns: 16
    ("#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>",
     (64, 64), 32, 4, (64, 1), (1, 1), 16, 16),
    # the same pointers stored from a row-major layout, one f32 per instruction: lanes on 16 columns (a stride
    # apart), each pair of rows 8 adjacent bytes: 16 sectors for 128 bytes (ideal 4)
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>",
     (64, 64), 32, 1, (64, 1), (1, 1), 16, 4),
    # 3-D [4, 16, 64] f16, 8 lanes x 8 f16 = 128 bytes (4 sectors) per row, 4 rows: 16
    ("#ttg.blocked<{sizePerThread = [1, 1, 8], threadsPerWarp = [1, 4, 8], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>",
     (4, 16, 64), 16, 8, (1, 1, 64), (1, 1, 1), 16, 16),
    # a slice: the parent's 4 lanes along dim 0 are broadcast, 8 distinct lanes x 16 bytes = 128 bytes: 4
    ("#ttg.slice<{dim = 0, parent = " + ROW_MAJOR.replace("[8, 4]", "[4, 8]") + "}>", (128,), 32, 4, (128,), (1,), 4, 4),
    # mma v2 accumulator, f16 pairs: 4 lanes x 4 bytes = 16 bytes on each of 8 rows: 8 sectors for 128 bytes
    ("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>",
     (128, 64), 16, 2, (1, 64), (1, 1), 8, 4),
    # the row-major layout with pointers equal down the rows (constancy 64 along dim 0, a broadcast row):
    # the 8 rows share their addresses: 2 sectors
    (ROW_MAJOR, (64, 64), 32, 4, (1, 64), (64, 1), 2, 16),
])
def test_sectors_per_warp_access_by_hand(layout, shape, bits, vec, contiguity, constancy, sectors, ideal):
    w = warp_access(ll(layout, shape), bits, vec, contiguity, constancy, 16)
    assert (w.sectors, w.ideal) == (sectors, ideal)
    assert len(set(w.per_instruction)) == 1


def test_dot_operand_and_linear_layouts_are_priced_from_their_bases():
    # a dot operand (opIdx 0 of an mma v2, kWidth 2): each lane holds 2 consecutive f16 along k (dim 1); 4 lanes
    # along k (16 bytes) on 8 rows: 8 sectors per access
    dot = ("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
           "warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>")
    assert warp_access(ll(dot, (64, 32)), 16, 2, (1, 32), (1, 1)).sectors == 8
    # a #linear whose lanes run 8 along dim 1 then 4 along dim 0: 8 x 2 bytes on 4 rows: 4 sectors
    lin = ("#ttg.linear<{register = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0], [0, 64]], lane = [[2, 0], [4, 0], "
           "[0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32]], block = []}>")
    assert warp_access(ll(lin, (64, 128)), 16, 1, (1, 128), (1, 1)).sectors == 4


def test_assumptions_are_named_and_amd_counts_128_byte_lines():
    w = warp_access(ll(ROW_MAJOR, (64, 64)), 32, 4, (1, 64), (1, 1), divisibility_bytes=16)
    assert w.reasons == (REASON_ALIGNMENT, REASON_STRIDED)
    # a contiguity of 8 along a 64-wide dim: runs of 8 taken as far apart
    assert REASON_RUNS in warp_access(ll(ROW_MAJOR, (64, 64)), 32, 4, (1, 8), (1, 1), 32).reasons
    assert unit_bytes("amd") == 128 and unit_bytes("nvidia") == 32
    # the row-major f32 tile on 128-byte lines: 64 bytes per row, 8 rows: 8 lines
    assert warp_access(ll(ROW_MAJOR, (64, 64)), 32, 4, (1, 64), (1, 1), 16, unit=128).sectors == 8


def calibration_store(name: str):
    module = read_modules((DATA / "calibration" / name).read_text())[0]
    axes = Axes(module, module.value_type)
    (store,) = [op for op in module.ops if op.name == "tt.store"]
    vt = module.value_type(store.operand_types[0])
    layout = analysable_layout(vt.encoding, list(vt.shape))
    ptr, mask = axes.operand(store, 0, len(vt.shape)), axes.operand(store, 2, len(vt.shape))
    dim = layout_order(layout)[0]
    bits = vt.pointee_bits
    vec = min(128 // bits, contig_per_thread(layout)[dim], ptr.contiguity[dim],
              max(1, ptr.divisibility[dim] // (bits // 8)), mask.constancy[dim])
    return vec, warp_access(layout, bits, vec, ptr.contiguity, ptr.constancy, ptr.divisibility[dim])


@pytest.mark.parametrize("name,vec,sectors", [
    # the H200: st.global.b16 before and after; ncu 8.4 M -> 2.1 M store sectors over 524,288 warp stores
    ("mte_blocked2.base.ttgir", 1, 16), ("mte_blocked2.prop.ttgir", 1, 4),
    # the compiled PTX: st.global.v4.b32 -> st.global.b32 (bf16 pairs)
    ("fp8_blocked.base.ttgir", 8, 16), ("fp8_blocked.prop.ttgir", 2, 8),
    # st.global.v4.b32 -> st.global.b32
    ("transpose_blocked1.base.ttgir", 4, 16), ("transpose_blocked1.prop.ttgir", 1, 16),
])
def test_the_calibration_stores(name, vec, sectors):
    got_vec, w = calibration_store(name)
    assert (got_vec, w.sectors) == (vec, sectors)
