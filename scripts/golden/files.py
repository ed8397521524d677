"""Suite ``files``: ``-i`` inputs.

Several aliases, nested aliases, ``-alias-names`` subsets / duplicates / order / repetition, comments, type
aliases, a realistic TTGIR dump with ``#loc`` aliases.  Hand-written, one section."""
from __future__ import annotations

from .text import T, blocked, linear, nvmma_shared, shared_linear, swizzled


def generate(s):
    sec = s.section("files")
    b1 = blocked([1, 4], [4, 8], [4, 1], [1, 0])
    b2 = blocked([2, 2], [8, 4], [1, 2], [0, 1])
    sh = swizzled(2, 1, 4, [1, 0])
    two = s.input_file("two_aliases.mlir", "#blocked = %s\n#shared = %s\n" % (b1, sh))
    sec.add(["-i", two, "-t", T([16, 16])], "blocked", "all aliases (no -alias-names)")
    sec.add(["-i", two, "-t", T([16, 16]), "-use-hw-view"], "blocked", "all aliases, hw view")
    sec.add(["-i", two, "-t", T([16, 16]), "-alias-names=shared,blocked"], "swizzled_shared", "alias subset in reverse order")
    sec.add(["-i", two, "-t", T([8, 8]), "-alias-names=blocked,blocked"], "blocked", "duplicate alias name")
    sec.add(["-i", two, "-t", T([16, 16]), "-alias-names=shared", "-alias-names=blocked", "-use-hw-view"], "swizzled_shared", "-alias-names repeated (accumulates)")
    sec.add(["-i", two, "-t", T([16, 16]), "-alias-names", "blocked,shared"], "blocked", "-alias-names VALUE as separate argument")
    sec.add(["-i", two, "-t", T([16, 16]), "-alias-names=blocked", "-l", b2], "blocked", "-i and -l together: file output first")
    sec.add(["-l", b2, "-t", T([16, 16]), "-alias-names=blocked"], "blocked", "-alias-names without -i is ignored",
            ttlayout={"error": "Triton ignores -alias-names without -i; ttlayout says the option has nothing to pick"})

    nested = s.input_file("nested.mlir", "\n".join([
        "// aliases nested in other aliases are printed expanded",
        "#blocked = %s" % b2,
        "#slice0 = #ttg.slice<{dim = 0, parent = #blocked}>",
        "",
        "#slice1 = #ttg.slice<{dim = 1, parent = #blocked}>  // trailing comment",
        "#blocked3 = %s" % blocked([1, 2, 1], [2, 4, 4], [1, 2, 2], [2, 1, 0]),
        "#ss = #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked3}>}>",
        "#dot = #ttg.dot_op<{opIdx = 0, parent = #blocked}>",
        "",
    ]))
    sec.add(["-i", nested, "-t", T([32]), "-alias-names=slice0,slice1,ss"], "slice", "nested aliases")
    sec.add(["-i", nested, "-t", T([32]), "-alias-names=ss", "-use-hw-view"], "slice", "slice of slice via aliases, hw")
    sec.add(["-i", nested, "-t", T([16, 32]), "-alias-names=dot,blocked"], "dot_op", "dot_op with aliased blocked parent")
    sec.add(["-i", nested, "-t", T([16, 32]), "-alias-names=blocked,slice0"], "blocked", "alias then nested alias (rank mismatch abort on slice0)")

    mixed = s.input_file("kinds.mlir", "\n".join([
        "#lin = %s" % linear([[1, 0]], [[0, 1], [0, 2], [2, 0]], [[4, 0]], []),
        "#glin = %s" % linear([[0, 1]], [[1, 0], [2, 0]], [[3, 2]], [], kind="generic_linear"),
        "#sw = %s" % swizzled(1, 2, 4, [0, 1]),
        "#rot = %s" % swizzled(1, 1, 2, [1, 0], kind="amd_rotating_shared"),
        "#sl = %s" % shared_linear([[0, 1], [0, 2], [1, 1], [2, 0], [4, 0]], [], 16),
        "#nv = %s" % nvmma_shared(0, False, 16),
        "",
    ]))
    sec.add(["-i", mixed, "-t", T([8, 4])], "linear", "every alias, several kinds")
    sec.add(["-i", mixed, "-t", T([8, 4]), "-use-hw-view"], "linear", "every alias, several kinds, hw view")
    sec.add(["-i", mixed, "-t", T([8, 4]), "-alias-names=sl,lin,glin"], "shared_linear", "subset incl. shared_linear")
    sec.add(["-i", mixed, "-t", T([8, 16]), "-alias-names=nv,rot,sw", "-use-hw-view"], "nvmma_shared", "shared kinds, hw view")
    sec.add(["-i", mixed, "-t", T([4, 4]), "-alias-names=sw,sl"], "swizzled_shared", "second alias aborts (shared_linear shape): no stdout")

    empty = s.input_file("empty.mlir", "// nothing but a comment\n")
    sec.add(["-i", empty, "-t", T([4, 4])], "none", "file without aliases: empty output")
    types_only = s.input_file("type_aliases.mlir", "!ptr = !tt.ptr<f16>\n#blocked = %s\n!t = tensor<4x4xf32>\n" % b1)
    sec.add(["-i", types_only, "-t", T([4, 4])], "blocked", "type aliases are not attribute aliases")

    rank3 = s.input_file("rank3.mlir", "#b3 = %s\n#s3 = %s\n" % (
        blocked([1, 1, 2], [2, 4, 4], [2, 1, 1], [2, 0, 1], [[1, 0, 0]]),
        swizzled(2, 1, 2, [2, 1, 0], [[0, 0, 0]])))
    sec.add(["-i", rank3, "-t", T([4, 4, 8])], "blocked", "rank 3 aliases with CGA")
    sec.add(["-i", rank3, "-t", T([4, 4, 8]), "-alias-names=s3,b3", "-use-hw-view"], "swizzled_shared", "rank 3 aliases, hw view")

    notlayout = s.input_file("not_layout_last.mlir", "#blocked = %s\n#one = 1 : i32\n" % b1)
    sec.add(["-i", notlayout, "-t", T([16, 16])], "blocked", "non-layout alias after a layout: exit 1, no stdout", ttlayout={"prints": "non-layout aliases are skipped"})
    sec.add(["-i", notlayout, "-t", T([16, 16]), "-alias-names=blocked"], "blocked", "selecting only the layout alias works")

    ttgir = s.input_file("ttgir_dump.mlir", TTGIR_DUMP)
    sec.add(["-i", ttgir, "-t", T([64, 64]), "-alias-names=blocked,blocked1,mma,shared"], "blocked", "realistic TTGIR dump")
    sec.add(["-i", ttgir, "-t", T([64, 64]), "-alias-names=mma", "-use-hw-view"], "nvidia_mma", "realistic TTGIR dump, mma hw view")
    sec.add(["-i", ttgir, "-t", T([64, 32]), "-alias-names=dotA,shared1"], "dot_op", "TTGIR dump, dot operand + shared")
    sec.add(["-i", ttgir, "-t", T([64, 64])], "blocked", "TTGIR dump without -alias-names: #loc aliases are unsupported", ttlayout={"prints": "non-layout aliases are skipped"})
    sec.add(["-i", ttgir, "-t", T([64, 64]), "-alias-names=loc"], "none", "TTGIR dump, a #loc alias selected")

    twin = sec.add(["-i", ttgir, "-t", T([64, 64]), "-alias-names=mma,blocked"], "nvidia_mma", "canonical twin of the next case")
    sec.add(["-i", ttgir, "-t", T([64, 64]), "-alias-names=#mma,blocked"], "nvidia_mma", "alias names with and without '#'",
            ttlayout={"same_as": twin, "why": "ttlayout accepts alias names with or without '#'"})
    definitions_sharing_lines(s)
    mfma_without_is_transposed(s)


def definitions_sharing_lines(s):
    """Several alias definitions on one line, as MLIR allows: the lines of Triton's own
    test/TritonGPU/amd/amd-block-pingpong.mlir (module `pingpong_medium_epilogue`), where `#shared` follows
    `#mma` with nothing between them, and variants with a space, three on a line, and one after an operation."""
    sec = s.section("shared-lines")
    pingpong = s.input_file("amd_block_pingpong.mlir", PINGPONG)
    sec.add(["-i", pingpong, "-alias-names=mma", "-t", T([1, 1], "f32")], "amd_mfma", "two definitions on a line (Triton's test file)")
    sec.add(["-i", pingpong, "-alias-names=shared,mma", "-t", T([32, 32])], "swizzled_shared", "the second definition of the line, then the first")
    sec.add(["-i", pingpong, "-t", T([64, 64])], "blocked", "every alias of the file")
    spaced = s.input_file("shared_lines.mlir", "\n".join([
        "#mma = %s #shared = %s" % (AMD_MFMA_V3, PINGPONG_SHARED),
        '#loc = loc("k.py":1:0) #blocked = %s #loc1 = loc(#loc)' % blocked([1, 8], [8, 8], [8, 1], [1, 0]),
        "module {",
        "} #blocked1 = %s" % blocked([8, 1], [8, 8], [1, 8], [0, 1]),
        ""]))
    sec.add(["-i", spaced, "-alias-names=mma,shared", "-t", T([32, 32])], "amd_mfma", "two definitions on a line, a space between them")
    sec.add(["-i", spaced, "-alias-names=blocked,blocked1", "-t", T([64, 64])], "blocked", "three definitions on a line; one after an operation")


def mfma_without_is_transposed(s):
    """amd_mfma without `isTransposed`: Triton 3.9 leaves the flag unset and prints `isTransposed = false`; the
    `isTranspose = false` spelling of the older optimize_epilogue test is an unknown key it skips. A file with
    such an alias still prints its other aliases."""
    sec = s.section("mfma-default")
    path = s.input_file("mfma_default.mlir", "\n".join([
        "#mma = #ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [32, 32], isTranspose = false}>",
        "#blocked = %s" % blocked([4, 4], [4, 16], [1, 1], [1, 0]),
        "#mma1 = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16]}>",
        ""]))
    sec.add(["-i", path, "-alias-names=blocked", "-t", T([64, 64])], "blocked", "another alias of a file with an mfma lacking isTransposed")
    sec.add(["-i", path, "-alias-names=mma", "-t", T([64, 64])], "amd_mfma", "isTranspose (typo) instead of isTransposed")
    sec.add(["-i", path, "-alias-names=mma1", "-t", T([32, 32]), "-use-hw-view"], "amd_mfma", "isTransposed left out, hw view")
    sec.add(["-i", path, "-t", T([64, 64])], "amd_mfma", "every alias")


AMD_MFMA_V3 = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16], isTransposed = true}>"
PINGPONG_SHARED = "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>"
PINGPONG = """\
// From Triton's test/TritonGPU/amd/amd-block-pingpong.mlir (module pingpong_medium_epilogue): two
// definitions share the third line.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 8], order = [0, 1]}>
#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16], isTransposed = true}>#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx942", "ttg.threads-per-warp" = 64 : i32} {
  tt.func public @pingpong_medium_epilogue(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}) {
    %cst = arith.constant dense<0.000000e+00> : tensor<256x128xf32, #mma>
    %21 = ttg.local_alloc : () -> !ttg.memdesc<1x256x64xf16, #shared, #ttg.shared_memory, mutable>
    tt.return
  }
}
"""


TTGIR_DUMP = """\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#loc = loc("/tmp/matmul.py":12:0)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("/tmp/matmul.py":12:0), %arg1: i32 loc("/tmp/matmul.py":12:0)) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma> loc(#loc1)
    %0 = tt.get_program_id x : i32 loc(#loc2)
    %1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc3)
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked> loc(#loc3)
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc4)
    %4 = tt.load %3 : tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc4)
    %5 = ttg.local_alloc %4 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem> loc(#loc5)
    %6 = ttg.local_load %5 : !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #dotA> loc(#loc5)
    %7 = ttg.convert_layout %cst : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1> loc(#loc6)
    tt.return loc(#loc7)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/tmp/matmul.py":14:24)
#loc3 = loc("/tmp/matmul.py":15:27)
#loc4 = loc("/tmp/matmul.py":16:20)
#loc5 = loc("/tmp/matmul.py":17:16)
#loc6 = loc("/tmp/matmul.py":18:8)
#loc7 = loc("/tmp/matmul.py":19:4)
"""
