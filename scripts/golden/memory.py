"""Suite ``memory``: Triton's own facts about the layouts triton-tensor-layout cannot print, for ttlayout's
padded / partitioned shared memory and tensor memory views (``tests/commands/test_memory_views.py``).

Triton has no text for these, so the suite records facts instead of output: ``golden/memory/cases.jsonl``, one
object per line::

    {"id", "kind", "attr", "shape", "dtype", "note", "exit", ["stderr_first_line"],
     "bases": {in dim: [[..], ..]}, "out_dims": {dim: size}      Triton's layout (see below), exit 0 only;
     padded:      "shifts": getPaddedSharedShifts(attr, 16, false), "padded_offsets": [applyPadding(o) for every
                  linear offset o], ["padded_size": getPaddedSize(shape), bare padded_shared only];
     tmem:        "alloc": getTmemAllocSizes [rows, 32-bit columns] per CTA of the memdesc with that dtype (null
                  where Triton's verifier rejects it),
                  "gluon": Gluon's to_linear_layout rows/cols (a cross-check; null where Gluon fails),
                  "registers": [{"warps", "instr", "exit", "bases" | null, "error"}] from Gluon's
                  _compute_tmem_reg_layout (what tensor_memory_descriptor_type.get_reg_layout calls)}

Triton's layout: ``paddedLinearLayout(memdesc)`` for padded_shared (and partitioned_shared around a padded
layout), ``toLinearLayout(shape, attr)`` for the others; a memdesc ``!ttg.memdesc<SHAPExf16, ATTR, ...>`` that
Triton's verifier rejects gives exit 1.  Sections: hand-written ``*-spec`` (Gluon's PaddedSharedLayout docstring
examples, the MI350 / lit layouts, every TMEM parameter) and seeded ``*-random`` ones.
"""
from __future__ import annotations

from .text import LL, L, swizzled

DTYPES_BY_STRIDE = {1: ("f32", "f16", "i8"), 2: ("f16",), 4: ("i8",)}
WARPS = (4, 8, 16)
INSTRS = ("32x32b", "16x64b", "16x128b", "16x256b")


def padded(pairs, offset=None, block=None, order=None, shape=None):
    head = "#ttg.padded_shared<[%s] " % ", ".join("%d:+%d" % p for p in pairs)
    if order is not None:
        return head + "{order = %s, shape = %s}>" % (L(order), L(shape))
    return head + "{offset = %s, block = %s}>" % (LL(offset), LL(block or []))


def partitioned(parts, groups, dim, inner):
    return ("#ttg.partitioned_shared<{numPartitions = %d, numGroups = %d, partitionDim = %d, partitionLayout = %s}>"
            % (parts, groups, dim, inner))


def tmem(block_m, block_n, col_stride, cga=(), two_ctas=False, fp4=False):
    s = "#ttng.tensor_memory_encoding<blockM = %d, blockN = %d, colStride = %d" % (block_m, block_n, col_stride)
    s += (", CGALayout = " + LL(cga)) if cga else ""
    s += ", twoCTAs = true" if two_ctas else ""
    s += ", fp4Padded = true" if fp4 else ""
    return s + ">", {"kind": "tmem", "block_m": block_m, "block_n": block_n, "col_stride": col_stride,
                     "cga": [list(b) for b in cga], "two_ctas": two_ctas, "fp4_padded": fp4}


def scales(cga=(), order=None):
    parts = (["CGALayout = " + LL(cga)] if cga else []) + (["blockRepOrder = " + order] if order else [])
    return "#ttng.tensor_memory_scales_encoding<%s>" % ", ".join(parts), {"kind": "scales",
                                                                          "cga": [list(b) for b in cga]}


def shared_case(sec, attr, shape, note, inner=None, padded_=True):
    kind = "partitioned_shared" if attr.startswith("#ttg.partitioned") else "padded_shared"
    sec.record(kind=kind, attr=attr, shape=list(shape), dtype="f16", note=note,
               _req={"what": "shared", "attr": attr, "inner": inner, "shape": list(shape), "padded": padded_})


def tmem_case(sec, attr_params, shape, dtype, note, registers=True):
    attr, params = attr_params
    kind = "tensor_memory_scales" if params["kind"] == "scales" else "tensor_memory"
    sec.record(kind=kind, attr=attr, shape=list(shape), dtype=dtype, note=note,
               _req={"what": "tmem", "attr": attr, "shape": list(shape), "dtype": dtype},
               _regs=registers and "blockRepOrder" not in attr, _params=params)


def generate(s):
    spec = s.section("padded-spec")
    shared_case(spec, padded([(2, 1), (4, 2)], order=[1, 0], shape=[2, 4]), [2, 4], "Gluon docstring [[2, 1], [4, 2]]")
    shared_case(spec, padded([(8, 1)], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]]), [8, 4], "Gluon docstring [[8, 1]]")
    shared_case(spec, padded([(4, 4)], order=[1, 0], shape=[16, 16]), [16, 16], "errors suite err-shared-016")
    shared_case(spec, padded([(2, 2), (4, 1)], [[0, 1], [0, 2], [1, 0]]), [2, 4], "errors suite err-shared-017")
    shared_case(spec, padded([(256, 8)], order=[1, 0], shape=[16, 32]), [16, 32], "lit test-allocation-partitioned")
    shared_case(spec, padded([(512, 16)], order=[1, 0], shape=[64, 64]), [64, 64], "MI350-style 512:+16")
    shared_case(spec, padded([(64, 4), (512, 8)], order=[0, 1], shape=[32, 64]), [32, 64], "two intervals, order [0, 1]")
    shared_case(spec, padded([(2, 2)], order=[0, 1, 2], shape=[4, 8, 2]), [4, 8, 2], "rank 3")
    shared_case(spec, padded([(4, 1)], order=[0], shape=[16]), [16], "rank 1")
    shared_case(spec, padded([(16, 4)], order=[1, 0], shape=[4, 4]), [4, 4], "interval = whole buffer: no padding")
    shared_case(spec, padded([(1, 1)], order=[1, 0], shape=[2, 4]), [2, 4], "interval 1")
    shared_case(spec, padded([(4, 2)], [[0, 1], [1, 0]], [[2, 0]]), [4, 2], "block bases (two CTAs)")
    shared_case(spec, padded([(4, 2)], [[0, 1], [1, 0], [0, 2]], [[0, 0]]), [2, 4], "broadcast block basis")
    shared_case(spec, padded([(4, 4)], order=[1, 0], shape=[16, 16]), [32, 16], "tensor larger than the layout")
    shared_case(spec, padded([(4, 4)], order=[1, 0], shape=[16, 16]), [8, 16], "tensor smaller than the layout")
    rnd = s.section("padded-random")
    for _ in range(40):
        attr, shape = random_padded(rnd.rng)
        shared_case(rnd, attr, shape, "random")
    part = s.section("partitioned-spec")
    a_shared = swizzled(2, 2, 4, [1, 0])
    lit_padded = padded([(256, 8)], order=[1, 0], shape=[16, 32])
    for parts, groups, inner in ((2, 2, lit_padded), (4, 1, lit_padded), (2, 4, a_shared), (4, 2, a_shared)):
        is_padded = inner is lit_padded
        shared_case(part, partitioned(parts, groups, 0, inner), [64, 32], "lit test-allocation-partitioned",
                    inner if is_padded else None, is_padded)
    for attr, shape, note in (
            (partitioned(2, 1, 0, swizzled(1, 1, 1, [1, 0])), [16, 16], "errors suite err-shared-018"),
            (partitioned(2, 2, 1, swizzled(4, 2, 4, [1, 0])), [8, 64], "partitionDim 1"),
            (partitioned(2, 1, 0, "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = 16>"),
             [4, 4], "shared_linear inner"),
            (partitioned(2, 1, 0, "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, "
                                  "elementBitWidth = 16}>"), [16, 32], "nvmma_shared inner"),
            (partitioned(2, 1, 0, swizzled(1, 1, 1, [1, 0], cga=[[1, 0]])), [32, 8], "inner with two CTAs"),
            (partitioned(4, 4, 0, swizzled(1, 1, 1, [1, 0])), [8, 8], "fewer rows than pieces")):
        shared_case(part, attr, shape, note, padded_=False)
    shared_case(part, partitioned(2, 2, 0, lit_padded), [128, 32], "piece shape differs from the padded layout's",
                lit_padded, True)
    shared_case(part, partitioned(2, 1, 1, padded([(8, 1)], order=[1, 0], shape=[4, 8])), [4, 16],
                "padded inner along dim 1", padded([(8, 1)], order=[1, 0], shape=[4, 8]), True)
    tspec = s.section("tmem-spec")
    for params, shape, dtype, note in (
            ((128, 64, 1), [128, 64], "f32", "128x64 packed"), ((128, 64, 1), [128, 64], "f16", "f16 packed"),
            ((128, 64, 2), [128, 64], "f16", "f16 unpacked"), ((128, 64, 4), [128, 64], "i8", "8-bit, colStride 4"),
            ((128, 64, 1), [128, 64], "i8", "8-bit packed"), ((128, 256, 1), [128, 256], "f32", "blockN 256"),
            ((128, 64, 1), [256, 256], "f32", "repeated along M and N"), ((128, 128, 1), [128, 32], "f32",
                                                                          "tensor narrower than blockN"),
            ((64, 64, 1), [64, 64], "f32", "blockM 64, one block"), ((64, 64, 1), [128, 64], "f32",
                                                                     "blockM 64, two M blocks"),
            ((64, 64, 1), [64, 128], "f32", "blockM 64, two N blocks"), ((64, 32, 2), [64, 128], "f16",
                                                                         "blockM 64 unpacked"),
            ((64, 64, 1), [256, 256], "f32", "blockM 64 repeated"), ((128, 64, 1), [64, 64], "f32",
                                                                     "tensor shorter than blockM")):
        tmem_case(tspec, tmem(*params), shape, dtype, note)
    tmem_case(tspec, tmem(128, 64, 1, fp4=True), [128, 64], "i8", "fp4Padded")
    tmem_case(tspec, tmem(128, 64, 1, [[1, 0]]), [256, 64], "f32", "two CTAs along M")
    tmem_case(tspec, tmem(128, 64, 1, [[0, 1]]), [128, 128], "f32", "two CTAs along N")
    tmem_case(tspec, tmem(128, 64, 1, [[1, 0], [0, 0]]), [256, 64], "f32", "CTA broadcast")
    tmem_case(tspec, tmem(128, 64, 1, [[1, 0]], two_ctas=True), [256, 64], "f32", "twoCTAs")
    tmem_case(tspec, tmem(64, 64, 1, [[1, 0]], two_ctas=True), [128, 64], "f32", "twoCTAs blockM 64")
    tmem_case(tspec, tmem(64, 64, 2, [[1, 0]], two_ctas=True), [128, 64], "f16", "twoCTAs blockM 64 unpacked")
    trnd = s.section("tmem-random")
    for _ in range(30):
        params, shape, dtype = random_tmem(trnd.rng)
        tmem_case(trnd, tmem(*params), shape, dtype, "random")
    sspec = s.section("scales-spec")
    for cga, order, shape in (((), None, [128, 4]), ((), None, [128, 8]), ((), None, [64, 2]), ((), None, [256, 16]),
                              ((), None, [32, 8]), ((), "kThenMn", [256, 16]), ((), "kThenMn", [512, 8]),
                              ((), "kThenMn", [32, 8]), (((1, 0),), None, [256, 4]), (((0, 1),), None, [128, 8])):
        tmem_case(sspec, scales(cga, order), shape, "i8", "scales")


def random_padded(rng):
    """A padded_shared layout with permuted identity offset bases, 1-3 intervals, sometimes a block basis."""
    rank = rng.choice((1, 2, 2, 2, 3))
    shape = [rng.choice((1, 2, 4, 8, 16, 32)) for _ in range(rank)]
    bases = [[(1 << k) if i == d else 0 for i in range(rank)] for d in range(rank)
             for k in range(shape[d].bit_length() - 1)]
    block = []
    if bases and rng.random() < 0.25:
        block.append(bases.pop())
    rng.shuffle(bases)
    n = 1 << len(bases)
    intervals = rng.sample([1 << k for k in range(max(1, (2 * n).bit_length()))], rng.choice((1, 1, 2, 3)))
    pairs = [(i, rng.choice((1, 2, 4, 8, 16))) for i in intervals]
    return padded(pairs, bases, block), shape


def random_tmem(rng):
    block_m = rng.choice((64, 128))
    block_n = rng.choice((8, 16, 32, 64, 128, 256))
    stride = rng.choice((1, 1, 2, 4))
    dtype = rng.choice(DTYPES_BY_STRIDE[stride])
    shape = [block_m * rng.choice((1, 1, 2)), min(128, block_n * rng.choice((1, 2, 4)) // rng.choice((1, 2)))]
    return (block_m, block_n, stride), shape, dtype


def run(s, pool):
    """Records of every case: the Triton facts above, plus a register layout per (warps, instr) of tmem cases."""
    results = pool.run_all([{"op": "memory", **c["_req"]} for c in s.cases])
    reg_jobs = [(k, w, i) for k, c in enumerate(s.cases) if c.get("_regs") and results[k]["exit"] == 0
                for w in WARPS for i in INSTRS]
    regs = pool.run_all([{"op": "memory", "what": "tmem_reg", "params": s.cases[k]["_params"],
                          "shape": s.cases[k]["shape"], "warps": w, "instr": i, "dtype": s.cases[k]["dtype"]}
                         for k, w, i in reg_jobs])
    by_case = {}
    for (k, w, i), r in zip(reg_jobs, regs):
        entry = {"warps": w, "instr": i, "exit": r["exit"], "bases": r["facts"]}
        if r["exit"] != 0:
            entry["error"] = last_line(r["stderr"])
        by_case.setdefault(k, []).append(entry)
    records = []
    for k, (c, r) in enumerate(zip(s.cases, results)):
        if "ORACLE-INTERNAL-ERROR" in r["stderr"] or r["exit"] == 99:
            raise RuntimeError("oracle internal failure on %s: %s" % (c["id"], r["stderr"]))
        rec = {key: c[key] for key in ("id", "kind", "attr", "shape", "dtype", "note")}
        rec["exit"] = r["exit"]
        if r["exit"] == 0:
            rec.update(r["facts"])
        else:
            rec["stderr_first_line"] = first_error(r["stderr"])
        if k in by_case:
            rec["registers"] = by_case[k]
        records.append(rec)
    return records


def first_error(stderr):
    for line in stderr.splitlines():
        if "error" in line.lower() or "Assertion" in line or "LLVM ERROR" in line:
            return line.strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else ""


def last_line(stderr):
    lines = [x for x in stderr.splitlines() if x.strip() and "leak" not in x and "nanobind" not in x
             and not x.startswith(" - ")]
    return lines[-1].strip() if lines else ""
