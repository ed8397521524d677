"""Suite ``mma``: nvidia_mma v2/v3, dot_op (blocked / nvidia_mma / amd_mfma / amd_wmma parents), slices of them,
amd_mfma v0-4, amd_wmma v1-3, nvmma_shared.

Hand-written: the four RUN lines of ``test/Tools/tensor_layout_print.mlir``, the header example of
``bin/triton-tensor-layout.cpp`` and edge cases of nvmma_shared; every other section is random."""
from __future__ import annotations

from .pieces import (
    blocked_tile,
    cga_split,
    gen_blocked_params,
    gen_cga,
    gen_nvidia_params,
    gen_wmma_cta,
    inferred_sizes,
    nvidia_tile,
    pick_cap,
    prod,
    shape_around,
    split_bits,
    wmma_rank,
)
from .text import T, amd_mfma, amd_wmma, blocked, dot_op, nvidia_mma, nvmma_shared, slice_

SHAPES_MN = [(32, 32), (16, 16), (64, 4), (4, 64)]
WMMA_INSTR = {1: [None, [16, 16, 16]], 2: [None, [16, 16, 16], [16, 16, 32]],
              3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]]}
DOT_PARENTS = {"blocked": 24, "v2": 30, "v3": 18, "mfma": 35, "wmma": 17}   # cases per parent kind
SLICE_PARENTS = ("v2", "v3", "mfma", "wmma", "dot")

# (swizzlingByteWidth, transposed, elementBitWidth, fp4Padded, shape): box vs tensor, some abort in Triton
NVMMA_SHARED_EDGES = [
    (128, False, 16, False, [8, 32]), (128, False, 16, False, [4, 64]), (64, True, 16, False, [32, 8]),
    (32, False, 8, True, [8, 16]), (128, False, 8, True, [16, 64]), (0, True, 32, False, [4, 4]),
    (128, False, 16, False, [512, 64]), (0, False, 16, False, [512, 8]), (64, False, 16, False, [1, 32]),
]


def generate(s):
    fixed_examples(s)
    for version, n in ((2, 30), (3, 16)):
        nvidia_mma_layouts(s.section("nvmma-v%d" % version), version, n)
    mfma_layouts(s.section("mfma"), 48)
    wmma_layouts(s.section("wmma"), 40)
    for parent, n in DOT_PARENTS.items():
        dot_operands(s.section("dot-" + parent), parent, n)
    for parent in SLICE_PARENTS:
        slices(s.section("slice-" + parent), parent, 6)
    for swz in (0, 32, 64, 128):
        nvmma_shared_layouts(s.section("nvmma_shared-%d" % swz), swz)
    edges = s.section("nvmma_shared-edge")
    for swz, tr, ebw, fp4, shape in NVMMA_SHARED_EDGES:
        edges.layout(nvmma_shared(swz, tr, ebw, fp4), shape, "nvmma_shared", "edge: box vs tensor", hw=False)
    mfma_defaults(s.section("mfma-default"))


def mfma_defaults(sec):
    """amd_mfma without `isTransposed` (or with the amd_wmma spelling `isTranspose`, an unknown key Triton
    skips): Triton 3.9 leaves the flag unset and prints `isTransposed = false`."""
    plain = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16]}>"
    typo = "#ttg.amd_mfma<{version = 2, warpsPerCTA = [1, 1], instrShape = [32, 32], isTranspose = true}>"
    sec.layout(plain, [32, 32], "amd_mfma", "isTransposed left out")
    sec.layout(plain, [32, 32], "amd_mfma", "isTransposed left out", hw=True)
    sec.layout(typo, [64, 64], "amd_mfma", "isTranspose = true (typo): prints isTransposed = false")
    sec.layout(dot_op(0, plain, 4), [32, 32], "dot_op", "dot_op parent without isTransposed")
    sec.layout(slice_(1, plain), [32], "slice", "slice parent without isTransposed")


def fixed_examples(s):
    header = s.section("header")  # header comment of bin/triton-tensor-layout.cpp
    ex = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 256, 32]}>"
    header.add(["-l", ex, "-t", T([128, 256])], "nvidia_mma", "bin/triton-tensor-layout.cpp header example")
    header.add(["-l", ex, "-t", T([128, 256]), "-use-hw-view"], "nvidia_mma", "header example, hw view")
    tlp = s.section("tlp")  # test/Tools/tensor_layout_print.mlir: its four RUN lines (input file written here)
    tlp_mfma_old = "#ttg.amd_mfma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16], isTransposed = true, transA = false, transB = false}>"
    path = s.input_file("tensor_layout_print.mlir", "\n".join([
        "#blocked = %s" % blocked([1, 4], [4, 8], [4, 1], [1, 0]),
        "#mfma = %s" % tlp_mfma_old,
        "tt.func @print(%A : !tt.ptr<f16>) {",
        "  %cst0 = arith.constant dense<0.000000e+00> : tensor<16x16xf16, #blocked>",
        "  %cst1 = arith.constant dense<0.00e+00> : tensor<16x16xf16, #mfma>",
        "  tt.return",
        "}",
        ""]))
    tlp.add(["-i", path, "-alias-names=blocked", "-t", T([16, 16])], "blocked", "RUN 1 (CHECK-BLOCKED)")
    tlp.add(["-i", path, "-alias-names=mfma", "-t", T([16, 16])], "amd_mfma", "RUN 2 (CHECK-MFMA)")
    tlp.add(["-l", tlp_mfma_old, "-t", T([16, 16])], "amd_mfma", "RUN 3 (CHECK-MFMA via -l; legacy keys ignored)")
    tlp.add(["-i", path, "-alias-names=mfma", "-t", T([16, 16]), "-use-hw-view"], "amd_mfma", "RUN 4 (CHECK-HW)")
    tlp.add(["-l", amd_mfma(2, [4, 1], [16, 16], True), "-t", T([16, 16]), "-use-hw-view"], "amd_mfma", "CHECK-HW layout via -l")


def nvidia_mma_layouts(sec, version, n):
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([2, 2, 3]) if version == 2 else (3 if rng.random() < 0.05 else 2)
        wpc, instr, cga = gen_nvidia_params(rng, rank, version)
        shape, mode = shape_around(rng, nvidia_tile(version, wpc, instr, cga), cap=pick_cap(rng))
        sec.layout(nvidia_mma(version, rng.choice([0, 0, 1]), wpc, instr, cga), shape, "nvidia_mma",
                   "v%d rank %d, tensor %s tile" % (version, rank, mode), hw=rng.random() < 0.45)


def mfma_layouts(sec, n):
    rng = sec.rng
    for _ in range(n):
        version = rng.randint(0, 4)
        m, n_ = rng.choice(SHAPES_MN)
        rank = rng.choice([2, 2, 3])
        kdim = {(32, 32): [8, 16], (16, 16): [16, 32], (64, 4): [4], (4, 64): [4]}[(m, n_)]
        instr = [m, n_] if rng.random() < 0.5 else [m, n_, rng.choice(kdim)]
        transposed = True if (m, n_) == (64, 4) else rng.random() < 0.5
        wpc = [1 << b for b in split_bits(rng, rng.choice([0, 1, 2, 2, 3]), rank)]
        tiles = None
        if rank == 3 or rng.random() < 0.3:
            tiles = [1] * rank
            if rng.random() < 0.6:
                tiles[rng.randrange(rank - 2, rank)] = rng.choice([2, 4])
        if rank == 3 and len(instr) == 3 and rng.random() < 0.3:
            tiles = None  # default tilesPerWarp then has 3 entries
        ebw = rng.choice([None, None, 64, 32])
        cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
        tile = [1] * (rank - 2) + [m * wpc[-2], n_ * wpc[-1]]
        if rank == 3:
            tile[0] = wpc[0]
        tile = [t * sp for t, sp in zip(tile, cga_split(cga, rank))]
        shape, mode = shape_around(rng, tile)
        sec.layout(amd_mfma(version, wpc, instr, transposed, cga, tiles, ebw), shape, "amd_mfma",
                   "v%d %dx%d rank %d%s, tensor %s tile" % (version, m, n_, rank, " transposed" if transposed else "", mode),
                   hw=rng.random() < 0.45)


def wmma_layouts(sec, n):
    rng = sec.rng
    for _ in range(n):
        version = rng.randint(1, 3)
        rank = rng.choice([2, 2, 3])
        instr = rng.choice(WMMA_INSTR[version])
        transpose = rng.random() < 0.5
        reg, warp = gen_wmma_cta(rng, rank)
        cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
        m = instr[0] if instr else 16
        tile = [1] * (rank - 2) + [m, 16]
        wsz = inferred_sizes((warp or []) + (reg or []), rank)
        tile = [t * w for t, w in zip(tile, wsz)]
        tile = [t * sp for t, sp in zip(tile, cga_split(cga, rank))]
        shape, mode = shape_around(rng, tile)
        sec.layout(amd_wmma(version, transpose, reg, warp, cga, instr, rank=wmma_rank(rng, rank)),
                   shape, "amd_wmma", "v%d rank %d%s, tensor %s tile" % (version, rank, " transposed" if transpose else "", mode),
                   hw=rng.random() < 0.45)


def dot_parent(rng, pk, rank, op_idx):
    """A random parent of kind pk for a dot operand: (parent text, kWidth, parent tile, rank, opIdx)."""
    kw = 0
    if pk == "blocked":
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        return blocked(spt, tpw, wpc, order, cga), kw, blocked_tile(spt, tpw, wpc, cga), rank, op_idx
    if pk in ("v2", "v3"):
        version = 2 if pk == "v2" else 3
        if version == 3:  # Hopper operands: only A can live in registers
            op_idx = 0
            rank = 2 if rng.random() < 0.8 else 3
        wpc, instr, cga = gen_nvidia_params(rng, rank, version)
        kw = rng.choice([1, 2, 2, 4, 8]) if version == 2 else rng.choice([1, 2, 2, 4])
        return nvidia_mma(version, 0, wpc, instr, cga), kw, nvidia_tile(version, wpc, instr, cga), rank, op_idx
    if pk == "mfma":
        m, n = rng.choice(SHAPES_MN)
        instr = [m, n] if rank == 2 else [m, n, rng.choice([4, 8, 16])]
        if rng.random() < 0.3:
            instr = [m, n, {(32, 32): 8, (16, 16): 16}.get((m, n), 4)]
        transposed = True if (m, n) == (64, 4) else rng.random() < 0.5
        wpc = [1 << b for b in split_bits(rng, rng.choice([0, 1, 2, 2]), rank)]
        tiles = None
        if rank == 3:
            tiles = [1] * 3 if len(instr) != 3 or rng.random() < 0.5 else None
        elif rng.random() < 0.25:
            tiles = [1, 1]
            tiles[rng.randrange(2)] = 2
        cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
        parent = amd_mfma(rng.randint(0, 4), wpc, instr, transposed, cga, tiles, rng.choice([None, None, 64]))
        kw = rng.choice([1, 2, 4, 4, 8, 8, 16])
        ptile = [1] * (rank - 2) + [m * wpc[-2], n * wpc[-1]]
        if rank == 3:
            ptile[0] = wpc[0]
        return parent, kw, ptile, rank, op_idx
    version = rng.randint(1, 3)
    instr = rng.choice(WMMA_INSTR[version])
    reg, warp = gen_wmma_cta(rng, rank)
    cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
    parent = amd_wmma(version, rng.random() < 0.5, reg, warp, cga, instr, rank=wmma_rank(rng, rank))
    kw = {1: rng.choice([8, 16]), 2: rng.choice([4, 8, 16]), 3: rng.choice([2, 4, 8, 16])}[version]
    wsz = inferred_sizes((warp or []) + (reg or []), rank)
    ptile = [t * w for t, w in zip([1] * (rank - 2) + [instr[0] if instr else 16, 16], wsz)]
    return parent, kw, ptile, rank, op_idx


def dot_operands(sec, pk, n):
    rng = sec.rng
    for _ in range(n):
        parent, kw, ptile, rank, op_idx = dot_parent(rng, pk, rng.choice([2, 2, 3]), rng.choice([0, 1]))
        # operand tile: opIdx 0 -> [.., M, K]; opIdx 1 -> [.., K, N]
        kdim = rank - 1 if op_idx == 0 else rank - 2
        tile = list(ptile)
        tile[kdim] = rng.choice([8, 16, 32, 64]) * max(1, kw)
        shape, mode = shape_around(rng, tile)
        sec.layout(dot_op(op_idx, parent, kw), shape, "dot_op",
                   "parent %s rank %d opIdx %d kWidth %d, tensor %s tile" % (pk, rank, op_idx, kw, mode),
                   hw=rng.random() < 0.45)


def slices(sec, pk, n):
    """Slices of mma / dot_op layouts."""
    rng = sec.rng
    for _ in range(n):
        rank = rng.choice([2, 2, 3]) if pk != "v3" else 2
        if pk in ("v2", "v3"):
            version = 2 if pk == "v2" else 3
            wpc, instr, cga = gen_nvidia_params(rng, rank, version)
            parent = nvidia_mma(version, 0, wpc, instr, cga)
            ptile = nvidia_tile(version, wpc, instr, cga)
        elif pk == "mfma":
            m, n_ = rng.choice(SHAPES_MN)
            instr = [m, n_] if rank == 2 else [m, n_, 8]
            wpc = [1 << b for b in split_bits(rng, 2, rank)]
            parent = amd_mfma(rng.randint(0, 4), wpc, instr, True if (m, n_) == (64, 4) else rng.random() < 0.5,
                              None, [1] * rank if rank == 3 else None)
            ptile = [1] * (rank - 2) + [m * wpc[-2], n_ * wpc[-1]]
        elif pk == "wmma":
            version = rng.randint(1, 3)
            reg, warp = gen_wmma_cta(rng, rank)
            parent = amd_wmma(version, rng.random() < 0.5, reg, warp, None, rng.choice(WMMA_INSTR[version]), rank=wmma_rank(rng, rank))
            ptile = [t * w for t, w in zip([1] * (rank - 2) + [16, 16], inferred_sizes(warp + (reg or []), rank))]
        else:
            wpc, instr, cga = gen_nvidia_params(rng, rank, 2)
            op_idx = rng.choice([0, 1])
            parent = dot_op(op_idx, nvidia_mma(2, 0, wpc, instr, cga), 2)
            ptile = [1] * (rank - 2) + [16 * wpc[-2], 16 * wpc[-1]]
        dim = rng.randrange(rank)
        tile = ptile[:dim] + ptile[dim + 1:]
        shape, mode = shape_around(rng, [max(1, t) for t in tile])
        sec.layout(slice_(dim, parent), shape, "slice", "slice dim %d of %s rank %d, tensor %s tile" % (dim, pk, rank, mode),
                   hw=rng.random() < 0.45)


def nvmma_shared_layouts(sec, swz):
    """Every element width x 3 for one swizzle width: transposed, fp4Padded, rank 2-3, multi-CTA."""
    rng = sec.rng
    for ebw in (8, 16, 32, 64):
        for _ in range(3):
            rank = rng.choice([2, 2, 2, 3])
            transposed = rng.random() < 0.4
            fp4 = ebw == 8 and rng.random() < 0.4
            cga = gen_cga(rng, rank) if rng.random() < 0.25 else None
            explicit_rank = rank if (cga is None and rank != 2) else None
            # box: the contiguous dim c needs >= 8*swizzle/ebw elements, the others >= 8 rows together
            inner = max(1, (8 * max(swz, 16) // ebw)) if swz else rng.choice([4, 8, 16])
            c = 0 if transposed else rank - 1
            split = cga_split(cga, rank)
            shape = [1] * rank
            shape[c] = inner * split[c] * (1 << rng.choice([0, 0, 1, 2]))
            if swz == 0 and rng.random() < 0.3:
                shape[c] = max(1, shape[c] // 4)
            others = [d for d in range(rank) if d != c]
            rows_log = rng.choice([3, 3, 4, 5, 6]) if rng.random() > 0.08 else rng.choice([1, 2])
            for _ in range(rows_log):
                shape[rng.choice(others)] *= 2
            shape = [x * (split[d] if d != c else 1) for d, x in enumerate(shape)]
            while prod(shape) > 4096:
                d = max(others, key=lambda j: shape[j])
                if shape[d] == 1:
                    break
                shape[d] //= 2
            mode = "box-sized" if shape[c] == inner * split[c] else ("smaller" if shape[c] < inner * split[c] else "larger")
            sec.layout(nvmma_shared(swz, transposed, ebw, fp4, cga, explicit_rank), shape, "nvmma_shared",
                       "swizzle %d ebw %d rank %d%s%s, tensor %s box" % (swz, ebw, rank, " transposed" if transposed else "",
                                                                        " fp4Padded" if fp4 else "", mode),
                       hw=rng.random() < 0.4)
