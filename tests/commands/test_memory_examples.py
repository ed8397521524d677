"""Hand-worked examples of the padded / partitioned shared memory and tensor memory views (README, "Layouts
Triton 3.9 cannot print"), and the options and refusals around them.  Every expected text below is worked out by
hand from the hardware rule quoted with it; test_memory_views.py checks the same views against Triton's facts."""
from __future__ import annotations

import json

import pytest

from linlayout_cli.cli import run
from linlayout_cli.conversions.tmem_registers import divide_left
from linlayout_cli.engine import LinearLayout

SW1 = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"


def out_of(*argv):
    code, out, err = run(list(argv))
    assert code == 0 and not err, err
    return out.splitlines()


def error_of(*argv):
    code, out, err = run(list(argv))
    assert code == 1 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


# ----------------------------------------------------------------------------------------- padded_shared


def test_gluon_docstring_two_intervals_hardware_view():
    # Gluon's PaddedSharedLayout docstring, pairs [[2, 1], [4, 2]], identity: e0 e1 p0 e2 e3 p1 p2 p3 e4 ...;
    # after e3 both intervals divide the position 4, so 1 + 2 pads; nothing follows the last element
    lines = out_of("-l", "#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [2, 4]}>",
                   "-t", "tensor<2x4xf16>", "--use-hw-view")
    assert lines[1:] == ["Block: 0:",
                         "Offset: 0 -> (0,0)", "Offset: 1 -> (0,1)", "Offset: 2 -> padding (2:+1)",
                         "Offset: 3 -> (0,2)", "Offset: 4 -> (0,3)", "Offset: 5..7 -> padding (2:+1, 4:+2)",
                         "Offset: 8 -> (1,0)", "Offset: 9 -> (1,1)", "Offset: 10 -> padding (2:+1)",
                         "Offset: 11 -> (1,2)", "Offset: 12 -> (1,3)"]


def test_gluon_docstring_row_permutation_tensor_view():
    # docstring: shape [8, 4], [[8, 1]], offset bases [[0,1],[0,2],[2,0],[4,0],[1,0]]: rows x0 x2 p x4 x6 p x1 x3 p
    # x5 x7 in memory; the tensor view lays memory over the 8x4 shape, a '-' cell per padding slot
    lines = out_of("-l", "#ttg.padded_shared<[8:+1] {offset = [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], block = []}>",
                   "-t", "tensor<8x4xf16>")
    assert lines[1:] == ["[[(0:0),(0:1),(0:2),(0:3)]",
                         "[ (2:0),(2:1),(2:2),(2:3),(-:-)]",
                         "[ (4:0),(4:1),(4:2),(4:3)]",
                         "[ (6:0),(6:1),(6:2),(6:3),(-:-)]",
                         "[ (1:0),(1:1),(1:2),(1:3)]",
                         "[ (3:0),(3:1),(3:2),(3:3),(-:-)]",
                         "[ (5:0),(5:1),(5:2),(5:3)]",
                         "[ (7:0),(7:1),(7:2),(7:3)]]"]


def test_interval_of_the_whole_buffer_pads_nothing():
    lines = out_of("-l", "#ttg.padded_shared<[16:+4] {order = [1, 0], shape = [4, 4]}>", "-t", "tensor<4x4xf16>",
                   "--use-hw-view")
    assert lines[-1] == "Offset: 15 -> (3,3)" and not any("padding" in x for x in lines)


def test_padded_shape_must_be_the_layouts():
    assert "16x16" in error_of("-l", "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 16]}>",
                               "-t", "tensor<16x32xf16>")


# ----------------------------------------------------------------------------------------- partitioned_shared


def test_partitioned_pieces_alternate_between_partitions():
    # 8 rows in 2 x 2 pieces of 2 rows: piece k goes to partition k % 2, the pieces of one partition in order
    # (Triton: "Partition 0: [P0|P2|...]"), so partition 0 holds rows 0, 1, 4, 5 and partition 1 rows 2, 3, 6, 7
    attr = ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = %s}>"
            % SW1)
    lines = out_of("-l", attr, "-t", "tensor<8x2xf16>", "--use-hw-view")
    rows = {0: [0, 0, 1, 1, 4, 4, 5, 5], 1: [2, 2, 3, 3, 6, 6, 7, 7]}
    want = ["Block: 0:"]
    for p in (0, 1):
        want.append(f"Partition: {p}:")
        want += [f"Offset: {o} -> ({r},{o % 2})" for o, r in enumerate(rows[p])]
    assert lines[1:] == want
    assert out_of("-l", attr, "-t", "tensor<8x2xf16>")[1:3] == ["[[(0:0),(0:1)]", "[ (1:0),(1:1)]"]


def test_partitioned_around_padded_pads_each_partition_buffer():
    # two pieces of 2x4 per partition buffer; [4:+1] pads after every 4 offsets of the buffer (also between pieces)
    inner = "#ttg.padded_shared<[4:+1] {order = [1, 0], shape = [2, 4]}>"
    attr = ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 2, partitionDim = 0, partitionLayout = %s}>"
            % inner)
    lines = out_of("-l", attr, "-t", "tensor<8x4xf16>", "--use-hw-view")
    first = lines[lines.index("Partition: 0:") + 1:lines.index("Partition: 1:")]
    assert first[3:6] == ["Offset: 3 -> (0,3)", "Offset: 4 -> padding (4:+1)", "Offset: 5 -> (1,0)"]
    assert first[9:11] == ["Offset: 9 -> padding (4:+1)", "Offset: 10 -> (4,0)"]
    assert first[-1] == "Offset: 18 -> (5,3)"


# ----------------------------------------------------------------------------------------- tensor memory


def tmem(block_m, block_n, stride):
    return f"#ttng.tensor_memory_encoding<blockM = {block_m}, blockN = {block_n}, colStride = {stride}>"


def test_tmem_f32_one_element_per_row_and_column():
    # blockM = 128: element (i, j) sits in TMEM row i, 32-bit column j
    lines = out_of("-l", tmem(128, 2, 1), "-t", "tensor<128x2xf32>")
    assert lines[1] == "[[  R0:C0,   R0:C1]" and lines[-1] == "[ R127:C0, R127:C1]]"
    hw = out_of("-l", tmem(128, 2, 1), "-t", "tensor<128x2xf32>", "--use-hw-view")
    assert hw[1:3] == ["Block: 0:", "Row 0: (  0,0), (  0,1)"] and hw[-1] == "Row 127: (127,0), (127,1)"


def test_tmem_f16_packed_two_per_column():
    # colStride 1, 16-bit: elements (i, 2k) and (i, 2k+1) share column k, slots 0 and 1
    lines = out_of("-l", tmem(128, 4, 1), "-t", "tensor<128x4xf16>")
    assert lines[1] == "[[  R0:C0.0,   R0:C0.1,   R0:C1.0,   R0:C1.1]"
    hw = out_of("-l", tmem(128, 4, 1), "-t", "tensor<128x4xf16>", "--use-hw-view")
    assert hw[2] == "Row 0: (  0,0)|(  0,1), (  0,2)|(  0,3)"


def test_tmem_f16_unpacked_leaves_half_of_each_column_unused():
    # colStride 2, 16-bit: one element per 32-bit column, its upper half unused ('-')
    lines = out_of("-l", tmem(128, 2, 2), "-t", "tensor<128x2xf16>")
    assert lines[1] == "[[  R0:C0,   R0:C1]"
    hw = out_of("-l", tmem(128, 2, 2), "-t", "tensor<128x2xf16>", "--use-hw-view")
    assert hw[2] == "Row 0: (  0,0)|      -, (  0,1)|      -"


def test_tmem_block_m_64_uses_16_rows_per_warp():
    # blockM = 64, one block: each warp's 32 rows hold 16 tensor rows; rows 16-31 of every warp stay unused,
    # tensor row 16 is TMEM row 32, row 48 is TMEM row 96
    lines = out_of("-l", tmem(64, 8, 1), "-t", "tensor<64x8xf32>")
    assert lines[17].split(", ")[0].strip("[ ") == "R32:C0" and lines[49].split(", ")[0].strip("[ ") == "R96:C0"
    hw = out_of("-l", tmem(64, 8, 1), "-t", "tensor<64x8xf32>", "--use-hw-view")
    assert hw[2 + 16] == "Row 16: " + ", ".join(["     -"] * 8)


def test_tmem_scales_are_copied_into_the_four_warps_rows():
    # scale factors: 32 rows, copied to rows +32, +64, +96 (one copy per warp); 4 one-byte scales per column
    lines = out_of("-l", "#ttng.tensor_memory_scales_encoding<>", "-t", "tensor<32x4xi8>")
    cell = lines[1].strip("[]").split(", ")[3]
    assert [t.strip() for t in cell.split("|")] == ["R0:C0.3", "R32:C0.3", "R64:C0.3", "R96:C0.3"]


def test_tmem_element_wider_than_32_bits_is_refused():
    assert "f64" in error_of("-l", tmem(128, 64, 1), "-t", "tensor<128x64xf64>")


# ----------------------------------------------------------------------------------------- tmem_load registers


LINEAR_4 = ("#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], lane = [[1, 0], [2, 0], "
            "[4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>")


def test_tmem_warps_32x32b_gives_one_row_per_thread():
    # 32x32b: lane t of warp w reads row 32w + t, one register per column
    lines = out_of("-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-warps", "4")
    assert lines[1] == "tmem_load register layout (4 warps, 32x32b): " + LINEAR_4
    assert lines[2:] == out_of("-l", LINEAR_4, "-t", "tensor<128x64xf32>")[1:]


def test_tmem_warps_8_split_the_columns():
    # warps 4-7 take the upper 32 columns (warps w and w + 4 share rows 32(w % 4) ...)
    note = out_of("-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-warps", "8")[1]
    assert "register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]" in note and "warp = [[32, 0], [64, 0], [0, 32]]" in note


def test_tmem_warps_json_is_the_register_layouts():
    code, out, err = run(["-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-warps", "4", "--json"])
    assert code == 0 and not err
    doc = json.loads(out)
    assert doc["tmem_load"] == LINEAR_4 and doc["kind"] == "distributed"


@pytest.mark.parametrize("argv,words", [
    (["-l", SW1, "-t", "tensor<4x4xf16>", "--tmem-warps", "4"], ["tensor memory layouts"]),
    (["-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-instr", "16x64b"], ["--tmem-warps"]),
    (["-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-warps", "2"], ["power of two", "4"]),
    (["-l", tmem(128, 64, 1), "-t", "tensor<128x64xf32>", "--tmem-warps", "4", "--tmem-instr", "16x32bx2"],
     ["16x32bx2"]),
])
def test_option_misuse_is_one_clean_line(argv, words):
    err = error_of(*argv)
    for w in words:
        assert w in err


@pytest.mark.parametrize("command", [["info", "-l"], ["lookup", "--offset", "0", "-l"]])
def test_analysis_commands_take_padded_layouts(command):
    """info and lookup describe padded layouts too, padding included (issue 32 A.8; the values are checked against
    Triton in tests/commands/test_tmem_everywhere.py)."""
    code, out, err = run([*command, "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 16]}>", "-t",
                          "tensor<16x16xf16>"])
    assert code == 0 and ("4:+4" in out or "element       (0, 0)" in out), err


def test_all_aliases_mode_skips_tmem_but_prints_it_by_name(tmp_path):
    f = tmp_path / "k.mlir"
    f.write_text(f"#pad = #ttg.padded_shared<[2:+1] {{order = [1, 0], shape = [2, 2]}}>\n#tmem = {tmem(128, 2, 1)}\n")
    lines = out_of("-i", str(f), "-t", "tensor<2x2xf16>")
    assert lines[0].startswith("Print layout attribute: #pad = ") and not any("#tmem" in x for x in lines)
    named = out_of("-i", str(f), "-t", "tensor<128x2xf32>", "--alias-names", "tmem")
    assert named[1] == "[[  R0:C0,   R0:C1]"


# ----------------------------------------------------------------------------------------- divide_left


def test_divide_left_removes_the_leading_factor():
    # A = B * C with B = col -> dim1 (2 columns) and C = (col -> dim1 stride 1, row -> dim0): A's first col basis
    # is B's, the rest shift down by one dim1 bit
    a = LinearLayout({"col": [(0, 1), (0, 2), (1, 0)], "row": [(2, 0)]}, ["dim0", "dim1"])
    c = divide_left(a, LinearLayout.identity1D(2, "col", "dim1"))
    assert c.get_bases() == {"col": ((0, 1), (1, 0)), "row": ((2, 0),)}
    assert c.get_out_dim_size("dim1") == 2 and LinearLayout.identity1D(2, "col", "dim1") * c == a
    assert divide_left(a, LinearLayout.identity1D(2, "col", "dim0")) is None
