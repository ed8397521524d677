"""Suite ``errors``: Triton's failing inputs (exit 1, aborts 134, SIGFPE 136), plus rank-mismatch inputs that
Triton 3.9 unexpectedly prints and the canonical twins of legacy spellings.  Hand-written; one section per
topic (``err-shape``, ``err-blocked``, ...) and one for the twins (``canon``)."""
from __future__ import annotations

from .text import (
    T,
    amd_mfma,
    amd_wmma,
    blocked,
    dot_op,
    linear,
    nvidia_mma,
    nvmma_shared,
    shared_linear,
    slice_,
    swizzled,
)

# Triton 3.9 cannot print these layouts; ttlayout prints its memory views of them (README, "Layouts Triton 3.9
# cannot print"), checked against Triton's own facts by the memory suite
MEMORY = {"prints": "ttlayout's padded / partitioned / tensor memory view"}


def generate(s):
    b2 = blocked([1, 2], [8, 4], [2, 2], [1, 0])
    sections = {}

    def E(name, args, kind, note, ttlayout=None):
        """A case of section err-<name>."""
        if name not in sections:
            sections[name] = s.section("err-" + name)
        return sections[name].add(args, kind, note, ttlayout=ttlayout)

    canon = s.section("canon")  # canonical twins of legacy spellings (see ``same_as``)
    paste_twins = s.section("paste-twin")  # what the copy-paste spellings of section ``paste`` must print
    # tensor types
    E("shape", ["-l", b2, "-t", T([3, 4])], "blocked", "non-power-of-two dim (distributed)")
    E("shape", ["-l", b2, "-t", T([0, 4])], "blocked", "zero dim")
    E("shape", ["-l", b2, "-t", "tensor<?x4xf16>"], "blocked", "dynamic dim")
    E("shape", ["-l", swizzled(1, 1, 4, [1, 0]), "-t", T([6, 4])], "swizzled_shared", "non-power-of-two dim (shared)")
    E("shape", ["-l", swizzled(1, 1, 4, [1, 0]), "-t", "tensor<4x?xf16>"], "swizzled_shared", "dynamic dim (shared)")
    E("rank", ["-l", b2, "-t", T([4, 4, 4])], "blocked", "tensor rank > layout rank")
    E("rank", ["-l", b2, "-t", T([16])], "blocked", "tensor rank < layout rank")
    E("rank", ["-l", linear([[1, 0]], [[0, 1]], [], []), "-t", T([4])], "linear", "tensor rank < linear rank")
    # Triton 3.9 quirk: a linear layout with a *higher*-rank tensor does not abort; the extra trailing
    # tensor dims are ignored (the layout is printed with its own rank)
    E("rank", ["-l", linear([[1, 0]], [[0, 1]], [], []), "-t", T([2, 2, 2])], "linear", "tensor rank > linear rank: Triton prints (extra dims ignored)")
    E("rank", ["-l", linear([[1, 0]], [[0, 1]], [], []), "-t", T([8, 4, 2])], "linear", "tensor rank > linear rank, larger: Triton prints")
    E("rank", ["-l", linear([[1, 0]], [[0, 1]], [], [], kind="generic_linear"), "-t", T([2, 2, 2]), "-use-hw-view"], "generic_linear", "generic_linear, tensor rank > layout rank: Triton prints")
    E("rank", ["-l", slice_(0, linear([[1, 0]], [[0, 1]], [], [])), "-t", T([2, 2])], "slice", "slice of linear, tensor rank > slice rank: Triton prints")
    E("rank", ["-l", swizzled(1, 1, 1, [0]), "-t", T([])], "swizzled_shared", "rank-0 tensor, shared")
    E("type", ["-l", b2, "-t", "tensor<*xf16>"], "blocked", "unranked tensor")
    E("type", ["-l", b2, "-t", "tensor<f32>"], "blocked", "rank-0 tensor")
    E("type", ["-l", b2, "-t", "memref<4x4xf32>"], "blocked", "memref type")
    E("type", ["-l", b2, "-t", "vector<4x4xf32>"], "blocked", "vector type")
    E("type", ["-l", b2, "-t", "f32"], "blocked", "scalar type")
    E("type", ["-l", b2, "-t", "tensor<4x4"], "blocked", "unparsable type")
    E("type", ["-l", b2], "blocked", "missing -t")
    E("type", ["-l", b2, "-t", ""], "blocked", "empty -t")
    E("type", ["-l", b2, "-t", "tensor<128x64>"], "blocked", "element type left out")
    E("type", ["-l", b2, "-t", "tensor<128x64xfp16>"], "blocked", "element type spelled fp16")
    # blocked verification
    E("blocked", ["-l", blocked([3, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "sizePerThread not power of two")
    E("blocked", ["-l", blocked([1, 1], [8, 3], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "threadsPerWarp not power of two")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [0, 1], [1, 0]), "-t", T([8, 8])], "blocked", "warpsPerCTA 0")
    E("blocked", ["-l", blocked([1, 1, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "rank mismatch between arrays")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 1]), "-t", T([8, 8])], "blocked", "order not a permutation")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], foo = 1}>", "-t", T([8, 8])], "blocked", "unexpected key")
    twin = canon.add(["-l", blocked([1, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "canonical twin of the legacy CTA-keys case")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>", "-t", T([8, 8])], "blocked", "legacy CTA keys rejected", ttlayout={"same_as": twin})
    twin = canon.add(["-l", blocked([1, 1], [8, 4], [2, 2], [1, 0], [[0, 1], [1, 0]]), "-t", T([64, 64])], "blocked", "canonical twin of a split legacy CTA layout")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], CTAOrder = [1, 0]}>", "-t", T([64, 64])], "blocked", "legacy split CTA keys rejected", ttlayout={"same_as": twin})
    E("blocked", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 0], [[1]]), "-t", T([8, 8])], "blocked", "CGALayout entry length")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 0], [[1, 1]]), "-t", T([8, 8])], "blocked", "CGALayout not a permutation matrix")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 0], [[2, 0]]), "-t", T([8, 8])], "blocked", "CGALayout missing bit")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [-1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", "-t", T([8, 8])], "blocked", "negative integer")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", "-t", T([8, 8])], "blocked", "duplicate key")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = 1, threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", "-t", T([8, 8])], "blocked", "not an array")
    # slice / dot_op
    E("slice", ["-l", slice_(2, b2), "-t", T([8])], "slice", "slice dim >= rank")
    E("slice", ["-l", slice_(0, blocked([1], [32], [1], [0])), "-t", T([8])], "slice", "slice of rank-1 parent")
    E("slice", ["-l", slice_(0, swizzled(1, 1, 1, [1, 0])), "-t", T([8])], "slice", "slice of a shared layout")
    E("dot", ["-l", dot_op(2, b2), "-t", T([8, 8])], "dot_op", "opIdx 2")
    E("dot", ["-l", dot_op(0, b2, 2), "-t", T([8, 8])], "dot_op", "blocked parent with kWidth")
    E("dot", ["-l", dot_op(1, nvidia_mma(3, 0, [4, 1], [16, 64, 16]), 2), "-t", T([64, 64])], "dot_op", "Hopper parent opIdx 1")
    E("dot", ["-l", dot_op(0, nvidia_mma(2, 0, [2, 2], [16, 8])), "-t", T([64, 64])], "dot_op", "Ampere parent without kWidth")
    E("dot", ["-l", dot_op(0, linear([[1, 0]], [[0, 1]], [], [])), "-t", T([2, 2])], "dot_op", "linear parent")
    E("dot", ["-l", dot_op(0, amd_mfma(2, [2, 2], [32, 32], False)), "-t", T([64, 64])], "dot_op", "MFMA parent without kWidth")
    E("dot", ["-l", dot_op(0, amd_wmma(1, False, None, [[0, 1]]), 4), "-t", T([64, 64])], "dot_op", "WMMA v1 kWidth 4")
    # mma kinds
    E("mma", ["-l", nvidia_mma(1, 0, [2, 2], [16, 8]), "-t", T([32, 32])], "nvidia_mma", "Volta rejected")
    E("mma", ["-l", nvidia_mma(4, 0, [2, 2], [16, 8]), "-t", T([32, 32])], "nvidia_mma", "versionMajor 4")
    E("mma", ["-l", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2]}>", "-t", T([32, 32])], "nvidia_mma", "missing instrShape")
    E("mma", ["-l", nvidia_mma(2, 0, [2, 2], [1, 16, 8]), "-t", T([32, 32])], "nvidia_mma", "v2 instrShape length != rank")
    E("mma", ["-l", amd_mfma(2, [2, 2], [8, 8], False), "-t", T([32, 32])], "amd_mfma", "invalid mDim/nDim")
    E("mma", ["-l", amd_mfma(5, [2, 2], [32, 32], False), "-t", T([32, 32])], "amd_mfma", "version 5")
    E("mma", ["-l", amd_mfma(3, [2, 2], [32, 32], False, ebw=16), "-t", T([32, 32])], "amd_mfma", "elementBitWidth 16")
    E("mma", ["-l", amd_mfma(3, [2, 2], [64, 4], False), "-t", T([128, 8])], "amd_mfma", "64x4 not transposed")
    E("mma", ["-l", amd_mfma(3, [1, 2, 2], [32, 32], False), "-t", T([2, 64, 64])], "amd_mfma", "rank 3 with default 2-entry tilesPerWarp")
    E("mma", ["-l", "#ttg.amd_wmma<{version = 2, isTranspose = false}>", "-t", T([32, 32])], "amd_wmma", "missing ctaLayout")
    E("mma", ["-l", "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = [1]}>", "-t", T([32, 32])], "amd_wmma", "ctaLayout not a dictionary")
    E("mma", ["-l", "#ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {register = [[0, 1]]}}>", "-t", T([32, 32])], "amd_wmma", "register without warp: abort",
      ttlayout={"prints": "Triton prints a layout without warp bases this way; ttlayout reads its own and Triton's print back"})
    E("mma", ["-l", amd_wmma(2, False, None, [[0, 1, 0]]), "-t", T([32, 32])], "amd_wmma", "basis length != rank: abort")
    E("mma", ["-l", amd_wmma(1, False, None, [[0, 1]], instr=[16, 16, 32]), "-t", T([32, 32])], "amd_wmma", "v1 instrShape")
    E("mma", ["-l", amd_wmma(4, False, None, [[0, 1]]), "-t", T([32, 32])], "amd_wmma", "version 4")
    E("mma", ["-l", amd_wmma(2, False, None, [[0, 2]]), "-t", T([32, 32])], "amd_wmma", "non-surjective warp bases: LLVM ERROR")
    E("mma", ["-l", amd_wmma(2, False, None, [[0, 2], [0, 3]]), "-t", T([64, 32])], "amd_wmma", "warp bases [0, 2], [0, 3]: Triton prints a layout that leaves cells empty")
    E("mma", ["-l", "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2, isTranspose = false, rank = 4, ctaLayout = {warp = []}}>, kWidth = 8}>", "-t", T([1, 1, 16, 16])], "dot_op", "rank-4 dot_op of amd_wmma: Triton prints")
    E("mma", ["-l", "#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [4], instrShape = [32, 32], isTransposed = false}>, kWidth = 4}>", "-t", T([64])], "dot_op", "rank-1 dot_op of amd_mfma: abort")
    E("mma", ["-l", "#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>}>", "-t", T([8])], "dot_op", "rank-1 blocked dot_op, opIdx 1: abort")
    E("mma", ["-l", "#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4], warpsPerCTA = [1], order = [0]}>}>", "-t", T([8])], "dot_op", "rank-1 blocked dot_op, opIdx 0: Triton prints")
    twin = canon.add(["-l", nvidia_mma(2, 0, [2, 2], [16, 8], [[1, 0]]), "-t", T([32, 32])], "nvidia_mma", "canonical twin of nvidia_mma with legacy CTA keys")
    E("mma", ["-l", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>", "-t", T([32, 32])], "nvidia_mma", "legacy CTA keys: Triton ignores them on nvidia_mma (one CTA)", ttlayout={"same_as": twin})
    E("mma", ["-l", "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], CGALayout = [[1, 0]], CTAsPerCGA = [2, 2], instrShape = [16, 8]}>", "-t", T([32, 32])], "nvidia_mma", "CGALayout and legacy CTA keys: CGALayout wins")
    # linear kinds
    E("linear", ["-l", linear([[1, 1]], [[0, 1]], [], []), "-t", T([2, 2])], "linear", "not a permutation matrix")
    E("linear", ["-l", "#ttg.linear<{register = [[1]], lane = [[2]], warp = []}>", "-t", T([4])], "linear", "missing block key")
    E("linear", ["-l", linear([[2]], [], [], []), "-t", T([4])], "linear", "not surjective: LLVM ERROR")
    E("linear", ["-l", linear([], [], [], []), "-t", T([4])], "linear", "empty layout")
    E("linear", ["-l", "#ttg.linear<{register = [1], lane = [], warp = [], block = []}>", "-t", T([2])], "linear", "basis not an array of arrays")
    E("linear", ["-l", linear([[1, 0]], [[0, 1, 0]], [], []), "-t", T([2, 2])], "linear", "mismatched basis lengths")
    E("linear", ["-l", linear([[1, 1]], [[0, 1]], [], [], kind="generic_linear"), "-t", T([2, 2])], "generic_linear", "swizzled register basis")
    E("linear", ["-l", linear([[0, 2]], [[1, 0]], [], [], kind="generic_linear"), "-t", T([2, 4])], "generic_linear", "not surjective")
    E("linear", ["-l", linear([[0, 3], [0, 1]], [[1, 0]], [], [], kind="generic_linear"), "-t", T([2, 4])], "generic_linear", "register basis with a non-power-of-two component: UNREACHABLE in orderPerDim", ttlayout={"prints": "well-defined layout"})
    E("linear", ["-l", linear([[0, 1]], [[1, 0], [0, 3]], [], [], kind="generic_linear"), "-t", T([2, 4])], "generic_linear", "lane basis with a non-power-of-two component: Triton prints")
    E("linear", ["-l", linear([[0, 1]], [[1, 0], [0, 3]], [], [], kind="generic_linear"), "-t", T([4, 8]), "-use-hw-view"], "generic_linear", "lane basis with a non-power-of-two component, larger tensor: Triton prints")
    # shared kinds
    E("shared", ["-l", swizzled(1, 0, 4, [1, 0]), "-t", T([8, 8])], "swizzled_shared", "perPhase 0: SIGFPE")
    E("shared", ["-l", swizzled(1, 1, 0, [1, 0]), "-t", T([8, 8])], "swizzled_shared", "maxPhase 0: SIGFPE")
    E("shared", ["-l", swizzled(1, 1, 0, [1, 0], kind="amd_rotating_shared"), "-t", T([8, 8])], "amd_rotating_shared", "maxPhase 0: SIGFPE")
    E("shared", ["-l", swizzled(1, 1, 1, [0, 0]), "-t", T([8, 8])], "swizzled_shared", "order not a permutation")
    E("shared", ["-l", swizzled(1, 1, 1, [1, 0], [[1]]), "-t", T([8, 8])], "swizzled_shared", "order size vs CGALayout rank")
    E("shared", ["-l", "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], bad = 0}>", "-t", T([8, 8])], "swizzled_shared", "unexpected key")
    E("shared", ["-l", nvmma_shared(48, False, 16), "-t", T([8, 64])], "nvmma_shared", "swizzlingByteWidth 48")
    E("shared", ["-l", nvmma_shared(128, False, 0), "-t", T([8, 64])], "nvmma_shared", "elementBitWidth 0")
    E("shared", ["-l", nvmma_shared(128, False, 16), "-t", T([8, 32])], "nvmma_shared", "box too small for swizzle: LLVM ERROR")
    E("shared", ["-l", nvmma_shared(128, False, 16), "-t", T([4, 64])], "nvmma_shared", "collapsed box smaller than core matrix")
    E("shared", ["-l", nvmma_shared(64, False, 16, rank=1), "-t", T([64])], "nvmma_shared", "rank 1 with swizzle")
    E("shared", ["-l", shared_linear([[0, 1], [1, 0]], [], 16), "-t", T([4, 4])], "shared_linear", "shape != out sizes")
    E("shared", ["-l", shared_linear([[0, 1], [1, 0]], [], 3), "-t", T([2, 2])], "shared_linear", "alignment 3")
    E("shared", ["-l", "#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [], alignment = 16}>", "-t", T([2, 2])], "shared_linear", "alignment inside braces")
    E("shared", ["-l", shared_linear([[0, 1], [0, 1]], [], 16), "-t", T([1, 4])], "shared_linear", "not bijective")
    E("shared", ["-l", "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 16]}>", "-t", T([16, 16])], "padded_shared", "padded_shared: LLVM ERROR", ttlayout=MEMORY)
    E("shared", ["-l", "#ttg.padded_shared<[2:+2, 4:+1] {offset = [[0, 1], [0, 2], [1, 0]], block = []}>", "-t", T([2, 4])], "padded_shared", "padded_shared offset form", ttlayout=MEMORY)
    E("shared", ["-l", "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>", "-t", T([16, 16])], "partitioned_shared", "partitioned_shared: LLVM ERROR", ttlayout=MEMORY)
    # non-layout attributes, parse errors
    E("attr", ["-l", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "-t", T([128, 64])], "tensor_memory_encoding", "tmem encoding unsupported", ttlayout=MEMORY)
    E("attr", ["-l", "#ttng.tensor_memory_scales_encoding<>", "-t", T([128, 4])], "tensor_memory_scales_encoding", "tmem scales encoding unsupported", ttlayout=MEMORY)
    E("attr", ["-l", "#ttg.shared_memory", "-t", T([4, 4])], "shared_memory", "#ttg.shared_memory unsupported")
    E("attr", ["-l", "1 : i32", "-t", T([4, 4])], "builtin", "builtin attribute unsupported")
    E("attr", ["-l", "#ttg.foo<{}>", "-t", T([4, 4])], "unknown", "unknown attribute kind")
    twin = canon.add(["-l", blocked([1], [32], [1], [0]), "-t", T([32])], "blocked", "canonical twin of the old dialect name")
    E("attr", ["-l", "#triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>", "-t", T([32])], "unknown", "old dialect name", ttlayout={"same_as": twin})
    twin = canon.add(["-l", swizzled(8, 1, 8, [1, 0]), "-t", T([32, 64])], "swizzled_shared", "canonical twin of the old shared form")
    E("attr", ["-l", "#triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>", "-t", T([32, 64])], "unknown", "old shared form", ttlayout={"same_as": twin})
    E("attr", ["-l", "garbage", "-t", T([4, 4])], "unknown", "garbage")
    E("attr", ["-l", "#blocked", "-t", T([4, 4])], "unknown", "undefined alias in -l")
    E("attr", ["-l", b2 + " extra", "-t", T([16, 16])], "blocked", "trailing characters")
    E("attr", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4]", "-t", T([16, 16])], "blocked", "truncated attribute")
    E("cli", ["-l", b2, "-t", T([16, 16]), "-x"], "blocked", "unknown option")
    E("cli", ["-l", b2, "-t", T([16, 16]), "extra"], "blocked", "positional argument")
    # file mode errors
    good = s.input_file("good.mlir", "#blocked = %s\n#shared = %s\n" % (b2, swizzled(1, 1, 1, [1, 0])))
    bad = s.input_file("bad_attr.mlir", "#blocked = %s\n#bad = %s\n" % (b2, blocked([1, 1], [8, 3], [1, 1], [1, 0])))
    locs = s.input_file("with_loc.mlir", "#blocked = %s\n#loc = loc(\"x.py\":1:2)\n" % b2)
    undefined = s.input_file("undefined_alias.mlir", "#s = #ttg.slice<{dim = 0, parent = #missing}>\n")
    E("file", ["-i", good, "-t", T([16, 16]), "-alias-names=nope"], "blocked", "alias not found")
    named_blocked = paste_twins.add(["-i", good, "-t", T([16, 16]), "-alias-names=blocked"], "blocked",
                                    "canonical twin of the alias name with '#' and of the tensor type naming an alias")
    E("file", ["-i", good, "-t", T([16, 16]), "-alias-names=#blocked"], "blocked", "alias name given with #",
      ttlayout={"same_as": named_blocked, "why": "ttlayout accepts alias names with or without '#'"})
    E("file", ["-i", good, "-t", T([16, 16]), "-alias-names=blocked,nope"], "blocked", "second alias missing: nothing printed")
    E("file", ["-i", "golden/errors/inputs/does_not_exist.mlir", "-t", T([16, 16])], "none", "missing input file")
    E("file", ["-i", bad, "-t", T([16, 16])], "blocked", "verifier error inside file")
    E("file", ["-i", locs, "-t", T([16, 16])], "blocked", "#loc alias in all-aliases mode", ttlayout={"prints": "non-layout aliases are skipped"})
    E("file", ["-i", undefined, "-t", T([16])], "slice", "undefined alias inside file")
    E("file", ["-i", good, "-t", T([16, 16, 2])], "blocked", "file alias rank mismatch")
    E("file", ["-i", good, "-alias-names=blocked"], "blocked", "file mode without -t")
    pasted(s, paste_twins, b2, good, named_blocked)


def pasted(s, twins, b2, good, named_blocked):
    """Text copied from a dump that Triton 3.9 refuses (or, for -t alone, ignores) and ttlayout reads: the whole
    alias line and a trailing location in -l, the encoding written in -t, a !ttg.memdesc type. Each must print
    what Triton prints for its canonical twin (section ``paste-twin``)."""
    sec = s.section("paste")
    sw = swizzled(1, 1, 4, [1, 0])

    def same(args, kind, twin, note, why):
        sec.add(args, kind, note, ttlayout={"same_as": twin, "why": why})

    twin = twins.add(["-l", b2, "-t", T([16, 16])], "blocked", "canonical twin of the pasted -l lines")
    same(["-l", "#blocked = " + b2, "-t", T([16, 16])], "blocked", twin, "whole alias line in -l",
         "ttlayout reads the attribute of a whole alias line")
    same(["-l", b2 + " loc(#loc3)", "-t", T([16, 16])], "blocked", twin, "trailing loc(#loc3) in -l",
         "ttlayout drops a trailing location")
    same(["-l", '#blocked = %s loc("kernel.py":12:8)' % b2, "-t", T([16, 16])], "blocked", twin,
         "alias line with a file location in -l", "ttlayout reads the attribute of a whole alias line")
    same(["-t", "tensor<16x16xf16, %s>" % b2], "blocked", twin, "encoding written in -t, no -l",
         "the encoding written in -t is the layout when -l is not given")
    twin = twins.add(["-l", sw, "-t", T([16, 16])], "swizzled_shared", "canonical twin of the memdesc types")
    same(["-t", "!ttg.memdesc<16x16xf16, %s, #ttg.shared_memory, mutable>" % sw], "swizzled_shared", twin,
         "memdesc type in -t", "ttlayout reads a memdesc's shape, element type and encoding")
    same(["-l", sw, "-t", "!ttg.memdesc<16x16xf16, %s, #ttg.shared_memory, mutable, 2x16x16>" % sw],
         "swizzled_shared", twin, "memdesc type with an alloc shape, and the same layout in -l",
         "ttlayout reads a memdesc type")
    twin = twins.add(["-i", good, "-t", T([16, 16]), "-alias-names=shared"], "swizzled_shared",
                     "canonical twin of the memdesc naming an alias")
    same(["-i", good, "-t", "!ttg.memdesc<16x16xf16, #shared, #smem, mutable>"], "swizzled_shared", twin,
         "memdesc naming an alias of the -i file", "an alias in the -t encoding names an alias of the -i file")
    same(["-i", good, "-t", "tensor<16x16xf16, #blocked>"], "blocked", named_blocked,
         "tensor type naming an alias of the -i file", "an alias in the -t encoding names an alias of the -i file")
