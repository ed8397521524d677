#!/usr/bin/env python3
"""Generate the golden files of ttlayout from Triton 3.9.0 (the oracle).

Usage (from the repository root)::

    python3 scripts/make_golden.py                 # all suites
    python3 scripts/make_golden.py --suite core    # one suite (repeatable: --suite core --suite files)
    python3 scripts/make_golden.py --list          # case counts per suite/kind, without running Triton

It runs with any Python 3.10+ and shells out to the oracle interpreter
(``/opt/oracle/venv/bin/python scripts/triton_oracle.py --serve``; override with ``ORACLE_PYTHON``),
which has Triton 3.9.0 installed.  Triton is never a dependency of ttlayout; only this script and
``scripts/triton_oracle.py`` use it.  Running it with the oracle interpreter itself also works.

Every suite is generated from a fixed seed (``random.Random("<suite>-v1")``), so re-running
regenerates byte-identical files.  A suite's directory ``golden/<suite>/`` is wiped and rewritten:

* ``cases.jsonl`` - one JSON object per line::

      {"id", "args": [argv for ttlayout], "exit": Triton's exit code,
       "stdout": "<id>.out" | null, "kind": main layout kind, "note": "...",
       ["stderr_first_line": first line of Triton's stderr, for error cases]}

  Exit codes: 0 success; 1 handled error; 134 SIGABRT (assertion / LLVM ERROR); 136 SIGFPE.
* ``<id>.out`` - Triton's exact stdout bytes (success cases only);
* ``inputs/*.mlir`` - ``-i`` inputs, referenced from ``args`` relative to the repo root.

The ``bank`` suite writes ``golden/bank/cases.jsonl`` with
``{"id", "reg", "shared", "shape", "bitwidth", "conflicts", "exit"}`` where ``conflicts`` is the
number from ``GluonOpBuilder.get_shared_bank_conflicts`` (null when Triton aborted; ``exit`` is then
the abort's exit code).

Suites (generated in this order):

* ``core``   - blocked, slice (of blocked / linear / slice), linear, generic_linear, swizzled_shared,
  amd_rotating_shared, shared_linear: ranks 1-4, every ``order`` permutation, tensors smaller / equal /
  larger than the layout tile, multi-CTA ``CGALayout`` (with broadcast bases), 1..128 lanes, both
  views; spec section 6.7's examples, CHECK-BLOCKED of ``test/Tools/tensor_layout_print.mlir``,
  parser syntax variations and LLVM option spellings (``-l=X``, ``--t``, ``-use-hw-view=false``).
* ``files``  - ``-i`` files: several aliases, nested aliases, ``-alias-names`` subsets / duplicates /
  order / repetition, comments, a realistic TTGIR dump with ``#loc`` aliases.
* ``errors`` - Triton's failing inputs (exit 1, aborts 134, SIGFPE 136) plus a few rank-mismatch
  inputs that Triton 3.9 unexpectedly prints (noted as such).
* ``mma``    - nvidia_mma v2/v3, dot_op (blocked / nvidia_mma / amd_mfma / amd_wmma parents), slices of
  them, amd_mfma v0-4, amd_wmma v1-3, nvmma_shared; the four RUN lines of
  ``test/Tools/tensor_layout_print.mlir`` and the header example of ``bin/triton-tensor-layout.cpp``.
* ``bank``   - register x shared layout pairs for ``get_shared_bank_conflicts`` (spec section 7 too).

Deliberate differences (a case's ``"ttlayout"`` field; Triton's own result is still recorded):

* ``{"same_as": "<id>"}`` - a legacy spelling Triton rejects (``#triton_gpu.*``, ``CTAsPerCGA``...) that
  ttlayout accepts: its stdout must equal Triton's stdout for case <id>, the canonical spelling;
* ``{"error": why}`` - Triton prints something meaningless (a tensor of higher rank than a linear
  layout: it silently drops dimensions); ttlayout must fail with one clean line;
* ``{"prints": why}`` - Triton aborts although the layout is well defined (a generic_linear register
  basis with a non-power-of-two component, a TTGIR dump with ``#loc`` aliases and no -alias-names);
  ttlayout must print it (exit 0, a ``Print layout attribute:`` header).

Size policy: a ``-l`` case whose output exceeds ``MAX_OUT`` (100 kB) has its tensor halved (largest
dim) until it fits; a layout still too large for a 2x2.. tensor (heavy broadcasting) is dropped.
Both steps depend only on Triton's (deterministic) output, so regeneration stays identical.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from random import Random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "golden")
ORACLE = os.path.join(ROOT, "scripts", "triton_oracle.py")
ORACLE_PYTHON = os.environ.get("ORACLE_PYTHON", "/opt/oracle/venv/bin/python")
SUITE_ORDER = ["core", "files", "errors", "mma", "bank"]


# ====================================================================== text helpers
def L(xs):
    return "[" + ", ".join(str(x) for x in xs) + "]"


def LL(bs):
    return "[" + ", ".join(L(b) for b in bs) + "]"


def T(shape, dtype="f16"):
    if not shape:
        return "tensor<%s>" % dtype
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + dtype + ">"


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def log2(x):
    return x.bit_length() - 1


def next_pow2(x):  # smallest power of two strictly greater than x
    return 1 << x.bit_length()


def cga_text(cga):
    return (", CGALayout = " + LL(cga)) if cga else ""


# ====================================================================== layout text builders
def blocked(spt, tpw, wpc, order, cga=None):
    return "#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s%s}>" % (
        L(spt), L(tpw), L(wpc), L(order), cga_text(cga))


def slice_(dim, parent):
    return "#ttg.slice<{dim = %d, parent = %s}>" % (dim, parent)


def linear(reg, lane, warp, block, kind="linear"):
    return "#ttg.%s<{register = %s, lane = %s, warp = %s, block = %s}>" % (kind, LL(reg), LL(lane), LL(warp), LL(block))


def swizzled(vec, pp, mp, order, cga=None, kind="swizzled_shared"):
    return "#ttg.%s<{vec = %d, perPhase = %d, maxPhase = %d, order = %s%s}>" % (kind, vec, pp, mp, L(order), cga_text(cga))


def shared_linear(offset, block, alignment):
    b = (", block = " + LL(block)) if block is not None else ""
    return "#ttg.shared_linear<{offset = %s%s}, alignment = %d>" % (LL(offset), b, alignment)


def nvidia_mma(vmaj, vmin, wpc, instr, cga=None):
    return "#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = %s%s, instrShape = %s}>" % (
        vmaj, vmin, L(wpc), cga_text(cga), L(instr))


def amd_mfma(version, wpc, instr, transposed, cga=None, tiles=None, ebw=None):
    s = "#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %s%s" % (
        version, L(wpc), L(instr), "true" if transposed else "false", cga_text(cga))
    if tiles is not None:
        s += ", tilesPerWarp = " + L(tiles)
    if ebw is not None:
        s += ", elementBitWidth = %d" % ebw
    return s + "}>"


def amd_wmma(version, transpose, reg, warp, cga=None, instr=None, rank=None):
    parts = []
    if reg is not None:
        parts.append("register = " + LL(reg))
    parts.append("warp = " + LL(warp))
    s = "#ttg.amd_wmma<{version = %d, isTranspose = %s, " % (version, "true" if transpose else "false")
    if rank is not None:
        s += "rank = %d, " % rank
    s += "ctaLayout = {" + ", ".join(parts) + "}" + cga_text(cga)
    if instr is not None:
        s += ", instrShape = " + L(instr)
    return s + "}>"


def dot_op(op_idx, parent, kwidth=0):
    k = (", kWidth = %d" % kwidth) if kwidth else ""
    return "#ttg.dot_op<{opIdx = %d, parent = %s%s}>" % (op_idx, parent, k)


def nvmma_shared(swz, transposed, ebw, fp4=False, cga=None, rank=None):
    s = "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d" % (
        swz, "true" if transposed else "false", ebw)
    if fp4:
        s += ", fp4Padded = true"
    if rank is not None:
        s += ", rank = %d" % rank
    return s + cga_text(cga) + "}>"


# ====================================================================== random pieces
def split_bits(rng, nbits, rank, caps=None):
    """Distribute nbits among rank dims (random); returns per-dim bit counts."""
    out = [0] * rank
    for _ in range(nbits):
        choices = [d for d in range(rank) if caps is None or out[d] < caps[d]]
        if not choices:
            break
        out[rng.choice(choices)] += 1
    return out


def gen_cga(rng, rank, max_bases=2, p_zero=0.3, allow_dims=None):
    """Random CGALayout: a permutation matrix plus optional zero (broadcast) bases."""
    k = rng.randint(1, max_bases)
    dims = allow_dims if allow_dims is not None else list(range(rank))
    slots = []
    for _ in range(k):
        if rng.random() < p_zero or not dims:
            slots.append(None)
        else:
            slots.append(rng.choice(dims))
    per_dim = {}
    for s in slots:
        if s is not None:
            per_dim[s] = per_dim.get(s, 0) + 1
    vals = {d: [1 << j for j in range(n)] for d, n in per_dim.items()}
    for d in vals:
        rng.shuffle(vals[d])
    bases = []
    for s in slots:
        b = [0] * rank
        if s is not None:
            b[s] = vals[s].pop()
        bases.append(b)
    return bases


def cga_split(cga, rank):
    split = [1] * rank
    for b in cga or []:
        for d, v in enumerate(b):
            if v:
                split[d] *= 2
                break
    return split


def shape_around(rng, tile, cap=4096, mode=None):
    """A power-of-two shape near `tile`: smaller / equal / larger / mixed."""
    r = len(tile)
    if mode is None:
        mode = rng.choice(["smaller", "equal", "larger", "mixed", "mixed", "larger"])
    if mode == "equal":
        e = [0] * r
    elif mode == "smaller":
        e = [rng.choice([-2, -1, -1, 0]) for _ in range(r)]
        if all(x == 0 for x in e) and any(t > 1 for t in tile):
            d = rng.choice([d for d in range(r) if tile[d] > 1])
            e[d] = -1
    elif mode == "larger":
        e = [rng.choice([0, 1, 1, 2]) for _ in range(r)]
        if all(x == 0 for x in e):
            e[rng.randrange(r)] = 1
    else:
        e = [rng.choice([-2, -1, 0, 1, 2]) for _ in range(r)]
    shape = []
    for t, x in zip(tile, e):
        v = t << x if x >= 0 else t >> (-x)
        shape.append(max(1, v))
    while prod(shape) > cap:
        d = max(range(r), key=lambda i: shape[i])
        shape[d] //= 2
    return shape, mode


def pick_cap(rng):
    x = rng.random()
    if x < 0.03:
        return 65536
    if x < 0.12:
        return 16384
    return 4096


def gf2_rank(vectors):
    rows = [v for v in vectors if v]
    rank = 0
    pivots = []
    for v in rows:
        for p in pivots:
            v = min(v, v ^ p)
        if v:
            pivots.append(v)
            rank += 1
    return rank


def flatten_basis(b, sizes):
    v, sh = 0, 0
    for c, s in zip(b, sizes):
        v |= c << sh
        sh += log2(s)
    return v


def inferred_sizes(all_bases, rank):
    sizes = [1] * rank
    for b in all_bases:
        for d in range(rank):
            sizes[d] = max(sizes[d], next_pow2(b[d]) if b[d] else 1)
    return sizes


def surjective(all_bases, rank):
    sizes = inferred_sizes(all_bases, rank)
    return gf2_rank([flatten_basis(b, sizes) for b in all_bases]) == sum(log2(s) for s in sizes)


def unit(rank, d, j):
    b = [0] * rank
    b[d] = 1 << j
    return b


# ====================================================================== case container
class Suite:
    def __init__(self, name):
        self.name = name
        self.cases = []
        self.inputs = {}  # file name -> text
        self.counters = Counter()
        self.ids = set()

    def new_id(self, prefix):
        self.counters[prefix] += 1
        cid = "%s-%03d" % (prefix, self.counters[prefix])
        assert cid not in self.ids
        self.ids.add(cid)
        return cid

    def add(self, prefix, args, kind, note="", cid=None, ttlayout=None):
        """`ttlayout` marks a deliberate difference from Triton (see DEVIATIONS)."""
        cid = cid or self.new_id(prefix)
        if cid not in self.ids:
            self.ids.add(cid)
        self.cases.append({"id": cid, "args": list(args), "kind": kind, "note": note})
        if ttlayout:
            self.cases[-1]["ttlayout"] = ttlayout
        return cid

    def layout(self, prefix, attr, shape, kind, note="", hw=False, dtype="f16"):
        args = ["-l", attr, "-t", T(shape, dtype)]
        if hw:
            args.append("-use-hw-view")
        cid = self.add(prefix, args, kind, note + (" hw" if hw else ""))
        self.cases[-1]["_layout"] = (attr, list(shape), hw, dtype)
        return cid

    def input_file(self, name, text):
        self.inputs[name] = text
        return "golden/%s/inputs/%s" % (self.name, name)


# ====================================================================== core suite
SPEC_EXAMPLES = [
    (blocked([2], [4], [2], [0]), [8], "spec 6.7 rank-1"),
    (blocked([1, 2], [2, 2], [1, 1], [1, 0], [[1, 0]]), [4, 4], "spec 6.7 two CTAs"),
    (blocked([1, 1, 1], [2, 2, 2], [1, 1, 1], [2, 1, 0]), [2, 2, 2], "spec 6.7 rank 3"),
    (blocked([1, 1], [8, 4], [2, 2], [1, 0]), [4, 8], "spec 6.7 128-thread padding"),
    (swizzled(1, 1, 4, [1, 0]), [4, 4], "spec 6.7 swizzled"),
    (nvmma_shared(0, False, 16), [8, 16], "spec 6.7 nvmma padding"),
    (swizzled(1, 1, 2, [1, 0], [[0, 0]]), [2, 4], "spec 6.7 broadcast CTA"),
    (blocked([1, 1], [8, 4], [32, 1], [1, 0]), [1, 1], "spec 8: 1x1 with many threads"),
]


def gen_blocked_params(rng, rank, order=None):
    spt_bits = split_bits(rng, rng.choice([0, 0, 1, 1, 2, 3, 4]), rank, caps=[2] * rank)
    lanes_log = rng.choice([5, 5, 5, 6, 6, 0, 1, 2, 3, 4, 7])
    tpw_bits = split_bits(rng, lanes_log, rank)
    warps_log = rng.choice([0, 1, 2, 2, 3])
    wpc_bits = split_bits(rng, warps_log, rank)
    if order is None:
        order = list(range(rank))
        rng.shuffle(order)
    cga = gen_cga(rng, rank) if rng.random() < 0.3 else None
    spt = [1 << b for b in spt_bits]
    tpw = [1 << b for b in tpw_bits]
    wpc = [1 << b for b in wpc_bits]
    return spt, tpw, wpc, order, cga


def blocked_tile(spt, tpw, wpc, cga):
    split = cga_split(cga, len(spt))
    return [a * b * c * s for a, b, c, s in zip(spt, tpw, wpc, split)]


def gen_core(s: Suite, rng: Random):
    for attr, shape, note in SPEC_EXAMPLES:
        kind = attr.split("<")[0][5:]
        s.layout("spec", attr, shape, kind, note)
        s.layout("spec", attr, shape, kind, note, hw=True)
    # CHECK-BLOCKED of test/Tools/tensor_layout_print.mlir, as a -l case
    tb = blocked([1, 4], [4, 8], [4, 1], [1, 0])
    s.layout("tlp", tb, [16, 16], "blocked", "tensor_layout_print.mlir CHECK-BLOCKED")
    s.layout("tlp", tb, [16, 16], "blocked", "tensor_layout_print.mlir CHECK-BLOCKED", hw=True)

    # ---- blocked: every order permutation of ranks 1-4
    for rank in range(1, 5):
        for order in itertools.permutations(range(rank)):
            spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank, list(order))
            shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga), cap=pick_cap(rng) if rank < 4 else 4096)
            s.layout("blocked", blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                     "rank %d order %s, tensor %s tile" % (rank, order, mode), hw=rng.random() < 0.4)
    # ---- blocked: random
    for _ in range(60):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        if rng.random() < 0.15:  # force multi-CTA with broadcast
            cga = gen_cga(rng, rank, max_bases=3, p_zero=0.5)
        shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga), cap=pick_cap(rng))
        lanes = prod(tpw)
        s.layout("blocked", blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                 "rank %d, %d lanes, %s, tensor %s tile" % (rank, lanes, "CGA" if cga else "1 CTA", mode),
                 hw=rng.random() < 0.45)
    # blocked with 64 lanes and with odd lane counts, explicit
    for lanes_log in [6, 6, 0, 1, 3, 4, 7]:
        rank = rng.choice([1, 2, 3])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        tpw = [1 << b for b in split_bits(rng, lanes_log, rank)]
        shape, mode = shape_around(rng, blocked_tile(spt, tpw, wpc, cga))
        s.layout("blocked", blocked(spt, tpw, wpc, order, cga), shape, "blocked",
                 "%d lanes, tensor %s tile" % (1 << lanes_log, mode), hw=rng.random() < 0.5)

    # ---- slices
    for _ in range(14):  # of blocked
        rank = rng.choice([2, 2, 3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        dim = rng.randrange(rank)
        tile = blocked_tile(spt, tpw, wpc, cga)
        tile = tile[:dim] + tile[dim + 1:]
        shape, mode = shape_around(rng, tile)
        s.layout("slice", slice_(dim, blocked(spt, tpw, wpc, order, cga)), shape, "slice",
                 "slice dim %d of rank-%d blocked, tensor %s tile" % (dim, rank, mode), hw=rng.random() < 0.4)
    for _ in range(9):  # of linear
        rank = rng.choice([2, 2, 3])
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        dim = rng.randrange(rank)
        tile = sizes[:dim] + sizes[dim + 1:]
        shape, mode = shape_around(rng, tile)
        s.layout("slice", slice_(dim, linear(reg, lane, warp, block)), shape, "slice",
                 "slice dim %d of rank-%d linear, tensor %s tile" % (dim, rank, mode), hw=rng.random() < 0.4)
    for _ in range(9):  # of slice (nested)
        rank = rng.choice([3, 3, 4])
        spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
        d1 = rng.randrange(rank)
        d2 = rng.randrange(rank - 1)
        tile = blocked_tile(spt, tpw, wpc, cga)
        tile = tile[:d1] + tile[d1 + 1:]
        tile = tile[:d2] + tile[d2 + 1:]
        shape, mode = shape_around(rng, tile)
        s.layout("slice", slice_(d2, slice_(d1, blocked(spt, tpw, wpc, order, cga))), shape, "slice",
                 "slice dim %d of slice dim %d of rank-%d blocked, tensor %s tile" % (d2, d1, rank, mode),
                 hw=rng.random() < 0.4)
    for _ in range(3):  # slice of slice of linear
        rank = 3
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        d1, d2 = rng.randrange(3), rng.randrange(2)
        tile = sizes[:d1] + sizes[d1 + 1:]
        tile = tile[:d2] + tile[d2 + 1:]
        shape, mode = shape_around(rng, tile)
        s.layout("slice", slice_(d2, slice_(d1, linear(reg, lane, warp, block))), shape, "slice",
                 "slice of slice of linear, tensor %s tile" % mode, hw=rng.random() < 0.4)

    # ---- linear
    for _ in range(36):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        shape, mode = shape_around(rng, sizes, cap=pick_cap(rng))
        s.layout("linear", linear(reg, lane, warp, block), shape, "linear",
                 "rank %d, tensor %s layout" % (rank, mode), hw=rng.random() < 0.45)
    # ---- generic_linear
    for _ in range(26):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        reg, lane, warp, block, sizes = gen_generic_linear_bases(rng, rank)
        shape, mode = shape_around(rng, sizes)
        s.layout("generic_linear", linear(reg, lane, warp, block, kind="generic_linear"), shape, "generic_linear",
                 "rank %d, tensor %s layout" % (rank, mode), hw=rng.random() < 0.45)

    # ---- swizzled_shared / amd_rotating_shared
    for kind, n in (("swizzled_shared", 34), ("amd_rotating_shared", 22)):
        for i in range(n):
            rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
            vec = rng.choice([1, 1, 2, 4, 8])
            pp = rng.choice([1, 1, 2, 4])
            mp = rng.choice([1, 2, 4, 8, 8, 16])
            if i == 0:
                vec = 3  # non-power-of-two vec parses
            order = list(range(rank))
            rng.shuffle(order)
            cga = gen_cga(rng, rank) if rng.random() < 0.3 else None
            shape = [1 << rng.choice([0, 1, 2, 3, 3, 4, 5]) for _ in range(rank)]
            if rank >= 2:
                shape[order[0]] = max(shape[order[0]], 1 << rng.choice([2, 3, 4, 5]))
                shape[order[1]] = max(shape[order[1]], 1 << rng.choice([1, 2, 3, 4]))
            split = cga_split(cga, rank)
            shape = [max(a, b) for a, b in zip(shape, split)] if rng.random() < 0.8 else shape
            while prod(shape) > 4096:
                d = max(range(rank), key=lambda j: shape[j])
                shape[d] //= 2
            s.layout(kind.split("_")[0] if kind == "swizzled_shared" else "rotating",
                     swizzled(vec, pp, mp, order, cga, kind=kind), shape, kind,
                     "rank %d vec %d perPhase %d maxPhase %d%s" % (rank, vec, pp, mp, " CGA" if cga else ""),
                     hw=rng.random() < 0.4)

    # ---- shared_linear
    for _ in range(26):
        rank = rng.choice([1, 2, 2, 2, 3, 3, 4])
        offset, block, sizes = gen_shared_linear_bases(rng, rank)
        alignment = rng.choice([1, 4, 16, 128, 1024])
        if not block and rng.random() < 0.5:
            blk = None
        else:
            blk = block
        s.layout("shared_linear", shared_linear(offset, blk, alignment), sizes, "shared_linear",
                 "rank %d, %d offset bases, %d block bases" % (rank, len(offset), len(block)), hw=rng.random() < 0.45)

    # ---- syntax variations the parser must accept (canonical print differs from the input)
    syn = [
        ("#ttg.blocked<{order = [1, 0], warpsPerCTA = [2, 2], threadsPerWarp = [8, 4], sizePerThread = [2, 2]}>", [32, 16], "blocked", "keys out of order"),
        ("#ttg.blocked<{ sizePerThread=[1,1] , threadsPerWarp=[4,8], warpsPerCTA=[1,1], order=[0,1] }>", [8, 8], "blocked", "no spaces / extra spaces"),
        ("#ttg.blocked<{sizePerThread = [0x2, 1], threadsPerWarp = [0x10, 2], warpsPerCTA = [1, 1], order = [1, 0]}>", [32, 4], "blocked", "hex integers"),
        ("#ttg.blocked<{sizePerThread = [1 : i32, 2 : i32], threadsPerWarp = [8 : i64, 4], warpsPerCTA = [1, 1 : i16], order = [1, 0]}>", [8, 8], "blocked", "typed integers"),
        ("#ttg.blocked<{\"sizePerThread\" = [1, 2], \"threadsPerWarp\" = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", [8, 8], "blocked", "quoted keys"),
        ("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>  // trailing comment", [8, 8], "blocked", "trailing comment"),
        ("#ttg.blocked<{sizePerThread = [4294967297, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>", [8, 8], "blocked", "integer truncated to 32 bits"),
        ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CGALayout = []}>", [8, 8], "blocked", "empty CGALayout not printed"),
        ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CGALayout = [[0, 0]]}>", [8, 8], "blocked", "broadcast-only CGALayout printed"),
        ("#ttg.linear<{block = [], warp = [[0, 4]], lane = [[0, 1], [0, 2], [1, 0], [2, 0]], register = [[4, 0]]}>", [8, 8], "linear", "linear keys out of order"),
        ("#ttg.linear<{register = [[1]], lane = [[2], [4]], warp = [], block = [], extra = 1}>", [8], "linear", "linear extra key ignored"),
        ("#ttg.swizzled_shared<{order = [0, 1], maxPhase = 2, perPhase = 1, vec = 2}>", [8, 8], "swizzled_shared", "swizzled keys out of order"),
        ("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [1, 0], CGALayout = [[0, 1], [1, 0]]}>", [16, 16], "swizzled_shared", "swizzled 4 CTAs"),
        ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 1], [2, 2]]}, alignment = 16>", [4, 4], "shared_linear", "shared_linear without block key"),
        ("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]], block = []}, alignment = 16>", [2, 4], "shared_linear", "shared_linear empty block printed without block"),
        ("#ttg.slice<{parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [0, 1]}>, dim = 1}>", [16], "slice", "slice keys out of order"),
        ("#ttg.amd_rotating_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0], CGALayout = [[0, 1]]}>", [8, 4], "amd_rotating_shared", "spec 4.9 rotating split CGA"),
    ]
    for attr, shape, kind, note in syn:
        s.layout("syntax", attr, shape, kind, note)
    # explicit option spellings (same output as -l/-t)
    a = blocked([1, 2], [4, 8], [2, 1], [1, 0])
    s.add("options", ["-l=" + a, "-t=" + T([16, 16])], "blocked", "-l=X -t=X")
    s.add("options", ["--l", a, "--t", T([16, 16]), "--use-hw-view"], "blocked", "--l --t --use-hw-view")
    s.add("options", ["-t", T([16, 16]), "-use-hw-view=false", "-l", a], "blocked", "-use-hw-view=false, -t first")
    s.add("options", ["-t", T([16, 16], "i8"), "-l", a, "-use-hw-view=true"], "blocked", "-use-hw-view=true, i8 element type")
    s.add("options", ["-t", "tensor<16x16xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>>", "-l", a], "blocked", "encoding inside -t ignored")
    s.add("options", ["-t", T([16, 16])], "none", "no -l and no -i: empty output")


def gen_linear_bases(rng, rank, max_bits=12):
    nbits = split_bits(rng, rng.randint(max(1, rank - 1), max_bits - rng.choice([0, 2, 4, 5])), rank, caps=[6] * rank)
    units = [unit(rank, d, j) for d in range(rank) for j in range(nbits[d])]
    total = len(units)
    # ordering: mostly "register low bits first" style, sometimes fully random
    if rng.random() < 0.5:
        rng.shuffle(units)
    else:
        units.sort(key=lambda b: (rng.random() < 0.3, [rng.random() for _ in b]))
    nblock = rng.choice([0, 0, 0, 1, 2]) if total > 2 else 0
    nwarp = rng.choice([0, 1, 2, 2, 3]) if total > 3 else rng.choice([0, 1])
    nlane = min(rng.choice([2, 3, 4, 5, 5, 6]), max(0, total - nblock - nwarp))
    nreg = max(0, total - nblock - nwarp - nlane)
    reg, lane, warp, block = units[:nreg], units[nreg:nreg + nlane], units[nreg + nlane:nreg + nlane + nwarp], \
        units[nreg + nlane + nwarp:]

    def add_zeros(lst, maxz):
        for _ in range(rng.choice([0, 0, 0, 1, maxz])):
            lst.insert(rng.randint(0, len(lst)), [0] * rank)

    add_zeros(reg, 1)
    add_zeros(lane, 2)
    add_zeros(warp, 1)
    add_zeros(block, 1)
    if not (reg or lane or warp or block):
        lane.append([0] * rank)
    sizes = [1 << n for n in nbits]
    return reg, lane, warp, block, sizes


def gen_generic_linear_bases(rng, rank):
    for _ in range(200):
        reg, lane, warp, block, sizes = gen_linear_bases(rng, rank)
        allb = reg + lane + warp + block
        nz = [b for b in allb if any(b)]
        # swizzle warp bases (may move in several dims), duplicate some bases
        warp = [list(b) for b in warp]
        for i, b in enumerate(warp):
            if nz and rng.random() < 0.6:
                o = rng.choice(nz)
                warp[i] = [x ^ y for x, y in zip(b, o)]
        if nz and rng.random() < 0.5:
            lst = rng.choice([reg, lane])
            lst.insert(rng.randint(0, len(lst)), list(rng.choice([b for b in nz if sum(1 for x in b if x) == 1] or [[0] * rank])))
        if nz and rng.random() < 0.3:  # single-component but non-power-of-two value (lanes only:
            lst = lane                   # in register bases Triton 3.9 aborts, see the errors suite)
            if lst:
                i = rng.randrange(len(lst))
                b = lst[i]
                ds = [d for d in range(rank) if b[d] > 1]
                if ds:
                    d = ds[0]
                    b = list(b)
                    b[d] = b[d] | (b[d] >> 1)
                    lst[i] = b
        allb = reg + lane + warp + block
        if allb and surjective(allb, rank):
            return reg, lane, warp, block, inferred_sizes(allb, rank)
    raise RuntimeError("no surjective generic layout")


def gen_shared_linear_bases(rng, rank):
    nbits = split_bits(rng, rng.randint(max(1, rank), 11), rank, caps=[6] * rank)
    units = [unit(rank, d, j) for d in range(rank) for j in range(nbits[d])]
    if rng.random() < 0.5:
        rng.shuffle(units)
    nblock = rng.choice([0, 0, 0, 1, 2]) if len(units) > 3 else 0
    # elementary XOR mixing keeps the set invertible (swizzled offset bases)
    for i in range(len(units)):
        if rng.random() < 0.35 and len(units) > 1:
            j = rng.choice([k for k in range(len(units)) if k != i])
            units[i] = [a ^ b for a, b in zip(units[i], units[j])]
    offset = units[:len(units) - nblock]
    block = units[len(units) - nblock:]
    if rng.random() < 0.15:
        offset.insert(rng.randint(0, len(offset)), [0] * rank)
    if rng.random() < 0.2:
        block.append([0] * rank)
    if not offset:
        offset.append([0] * rank)
    sizes = inferred_sizes(offset + block, rank)
    return offset, block, sizes


# ====================================================================== files suite
def gen_files(s: Suite, rng: Random):
    b1 = blocked([1, 4], [4, 8], [4, 1], [1, 0])
    b2 = blocked([2, 2], [8, 4], [1, 2], [0, 1])
    sh = swizzled(2, 1, 4, [1, 0])
    two = s.input_file("two_aliases.mlir", "#blocked = %s\n#shared = %s\n" % (b1, sh))
    s.add("files", ["-i", two, "-t", T([16, 16])], "blocked", "all aliases (no -alias-names)")
    s.add("files", ["-i", two, "-t", T([16, 16]), "-use-hw-view"], "blocked", "all aliases, hw view")
    s.add("files", ["-i", two, "-t", T([16, 16]), "-alias-names=shared,blocked"], "swizzled_shared", "alias subset in reverse order")
    s.add("files", ["-i", two, "-t", T([8, 8]), "-alias-names=blocked,blocked"], "blocked", "duplicate alias name")
    s.add("files", ["-i", two, "-t", T([16, 16]), "-alias-names=shared", "-alias-names=blocked", "-use-hw-view"], "swizzled_shared", "-alias-names repeated (accumulates)")
    s.add("files", ["-i", two, "-t", T([16, 16]), "-alias-names", "blocked,shared"], "blocked", "-alias-names VALUE as separate argument")
    s.add("files", ["-i", two, "-t", T([16, 16]), "-alias-names=blocked", "-l", b2], "blocked", "-i and -l together: file output first")
    s.add("files", ["-l", b2, "-t", T([16, 16]), "-alias-names=blocked"], "blocked", "-alias-names without -i is ignored")

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
    s.add("files", ["-i", nested, "-t", T([32]), "-alias-names=slice0,slice1,ss"], "slice", "nested aliases")
    s.add("files", ["-i", nested, "-t", T([32]), "-alias-names=ss", "-use-hw-view"], "slice", "slice of slice via aliases, hw")
    s.add("files", ["-i", nested, "-t", T([16, 32]), "-alias-names=dot,blocked"], "dot_op", "dot_op with aliased blocked parent")
    s.add("files", ["-i", nested, "-t", T([16, 32]), "-alias-names=blocked,slice0"], "blocked", "alias then nested alias (rank mismatch abort on slice0)")

    mixed = s.input_file("kinds.mlir", "\n".join([
        "#lin = %s" % linear([[1, 0]], [[0, 1], [0, 2], [2, 0]], [[4, 0]], []),
        "#glin = %s" % linear([[0, 1]], [[1, 0], [2, 0]], [[3, 2]], [], kind="generic_linear"),
        "#sw = %s" % swizzled(1, 2, 4, [0, 1]),
        "#rot = %s" % swizzled(1, 1, 2, [1, 0], kind="amd_rotating_shared"),
        "#sl = %s" % shared_linear([[0, 1], [0, 2], [1, 1], [2, 0], [4, 0]], [], 16),
        "#nv = %s" % nvmma_shared(0, False, 16),
        "",
    ]))
    s.add("files", ["-i", mixed, "-t", T([8, 4])], "linear", "every alias, several kinds")
    s.add("files", ["-i", mixed, "-t", T([8, 4]), "-use-hw-view"], "linear", "every alias, several kinds, hw view")
    s.add("files", ["-i", mixed, "-t", T([8, 4]), "-alias-names=sl,lin,glin"], "shared_linear", "subset incl. shared_linear")
    s.add("files", ["-i", mixed, "-t", T([8, 16]), "-alias-names=nv,rot,sw", "-use-hw-view"], "nvmma_shared", "shared kinds, hw view")
    s.add("files", ["-i", mixed, "-t", T([4, 4]), "-alias-names=sw,sl"], "swizzled_shared", "second alias aborts (shared_linear shape): no stdout")

    empty = s.input_file("empty.mlir", "// nothing but a comment\n")
    s.add("files", ["-i", empty, "-t", T([4, 4])], "none", "file without aliases: empty output")
    types_only = s.input_file("type_aliases.mlir", "!ptr = !tt.ptr<f16>\n#blocked = %s\n!t = tensor<4x4xf32>\n" % b1)
    s.add("files", ["-i", types_only, "-t", T([4, 4])], "blocked", "type aliases are not attribute aliases")

    rank3 = s.input_file("rank3.mlir", "#b3 = %s\n#s3 = %s\n" % (
        blocked([1, 1, 2], [2, 4, 4], [2, 1, 1], [2, 0, 1], [[1, 0, 0]]),
        swizzled(2, 1, 2, [2, 1, 0], [[0, 0, 0]])))
    s.add("files", ["-i", rank3, "-t", T([4, 4, 8])], "blocked", "rank 3 aliases with CGA")
    s.add("files", ["-i", rank3, "-t", T([4, 4, 8]), "-alias-names=s3,b3", "-use-hw-view"], "swizzled_shared", "rank 3 aliases, hw view")

    notlayout = s.input_file("not_layout_last.mlir", "#blocked = %s\n#one = 1 : i32\n" % b1)
    s.add("files", ["-i", notlayout, "-t", T([16, 16])], "blocked", "non-layout alias after a layout: exit 1, no stdout", ttlayout={"prints": "non-layout aliases are skipped"})
    s.add("files", ["-i", notlayout, "-t", T([16, 16]), "-alias-names=blocked"], "blocked", "selecting only the layout alias works")

    ttgir = s.input_file("ttgir_dump.mlir", TTGIR_DUMP)
    s.add("files", ["-i", ttgir, "-t", T([64, 64]), "-alias-names=blocked,blocked1,mma,shared"], "blocked", "realistic TTGIR dump")
    s.add("files", ["-i", ttgir, "-t", T([64, 64]), "-alias-names=mma", "-use-hw-view"], "nvidia_mma", "realistic TTGIR dump, mma hw view")
    s.add("files", ["-i", ttgir, "-t", T([64, 32]), "-alias-names=dotA,shared1"], "dot_op", "TTGIR dump, dot operand + shared")
    s.add("files", ["-i", ttgir, "-t", T([64, 64])], "blocked", "TTGIR dump without -alias-names: #loc aliases are unsupported", ttlayout={"prints": "non-layout aliases are skipped"})
    s.add("files", ["-i", ttgir, "-t", T([64, 64]), "-alias-names=loc"], "none", "TTGIR dump, a #loc alias selected")


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


# ====================================================================== errors suite
def gen_errors(s: Suite, rng: Random):
    b2 = blocked([1, 2], [8, 4], [2, 2], [1, 0])
    E = lambda name, args, kind, note, ttlayout=None: s.add("err-" + name, args, kind, note, ttlayout=ttlayout)
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
    # blocked verification
    E("blocked", ["-l", blocked([3, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "sizePerThread not power of two")
    E("blocked", ["-l", blocked([1, 1], [8, 3], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "threadsPerWarp not power of two")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [0, 1], [1, 0]), "-t", T([8, 8])], "blocked", "warpsPerCTA 0")
    E("blocked", ["-l", blocked([1, 1, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "rank mismatch between arrays")
    E("blocked", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 1]), "-t", T([8, 8])], "blocked", "order not a permutation")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], foo = 1}>", "-t", T([8, 8])], "blocked", "unexpected key")
    twin = s.add("canon", ["-l", blocked([1, 1], [8, 4], [1, 1], [1, 0]), "-t", T([8, 8])], "blocked", "canonical twin of the legacy CTA-keys case")
    E("blocked", ["-l", "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0]}>", "-t", T([8, 8])], "blocked", "legacy CTA keys rejected", ttlayout={"same_as": twin})
    twin = s.add("canon", ["-l", blocked([1, 1], [8, 4], [2, 2], [1, 0], [[0, 1], [1, 0]]), "-t", T([64, 64])], "blocked", "canonical twin of a split legacy CTA layout")
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
    twin = s.add("canon", ["-l", nvidia_mma(2, 0, [2, 2], [16, 8], [[1, 0]]), "-t", T([32, 32])], "nvidia_mma", "canonical twin of nvidia_mma with legacy CTA keys")
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
    E("shared", ["-l", "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 16]}>", "-t", T([16, 16])], "padded_shared", "padded_shared: LLVM ERROR")
    E("shared", ["-l", "#ttg.padded_shared<[2:+2, 4:+1] {offset = [[0, 1], [0, 2], [1, 0]], block = []}>", "-t", T([2, 4])], "padded_shared", "padded_shared offset form")
    E("shared", ["-l", "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>", "-t", T([16, 16])], "partitioned_shared", "partitioned_shared: LLVM ERROR")
    # non-layout attributes, parse errors
    E("attr", ["-l", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "-t", T([128, 64])], "tensor_memory_encoding", "tmem encoding unsupported")
    E("attr", ["-l", "#ttng.tensor_memory_scales_encoding<>", "-t", T([128, 4])], "tensor_memory_scales_encoding", "tmem scales encoding unsupported")
    E("attr", ["-l", "#ttg.shared_memory", "-t", T([4, 4])], "shared_memory", "#ttg.shared_memory unsupported")
    E("attr", ["-l", "1 : i32", "-t", T([4, 4])], "builtin", "builtin attribute unsupported")
    E("attr", ["-l", "#ttg.foo<{}>", "-t", T([4, 4])], "unknown", "unknown attribute kind")
    twin = s.add("canon", ["-l", blocked([1], [32], [1], [0]), "-t", T([32])], "blocked", "canonical twin of the old dialect name")
    E("attr", ["-l", "#triton_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>", "-t", T([32])], "unknown", "old dialect name", ttlayout={"same_as": twin})
    twin = s.add("canon", ["-l", swizzled(8, 1, 8, [1, 0]), "-t", T([32, 64])], "swizzled_shared", "canonical twin of the old shared form")
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
    E("file", ["-i", good, "-t", T([16, 16]), "-alias-names=#blocked"], "blocked", "alias name given with #")
    E("file", ["-i", good, "-t", T([16, 16]), "-alias-names=blocked,nope"], "blocked", "second alias missing: nothing printed")
    E("file", ["-i", "golden/errors/inputs/does_not_exist.mlir", "-t", T([16, 16])], "none", "missing input file")
    E("file", ["-i", bad, "-t", T([16, 16])], "blocked", "verifier error inside file")
    E("file", ["-i", locs, "-t", T([16, 16])], "blocked", "#loc alias in all-aliases mode", ttlayout={"prints": "non-layout aliases are skipped"})
    E("file", ["-i", undefined, "-t", T([16])], "slice", "undefined alias inside file")
    E("file", ["-i", good, "-t", T([16, 16, 2])], "blocked", "file alias rank mismatch")
    E("file", ["-i", good, "-alias-names=blocked"], "blocked", "file mode without -t")


# ====================================================================== mma suite
def gen_nvidia_params(rng, rank, version):
    wlog = rng.choice([0, 1, 2, 2, 3])
    if version == 3:
        # Hopper: warps come in warpgroups of 4 along dim rank-2
        wpc = [1] * rank
        wpc[rank - 2] = 4
        extra = rng.choice([1, 1, 2])
        wpc[rng.choice([rank - 2, rank - 1])] *= extra
        n = rng.choice([8, 16, 32, 64, 128, 256])
        k = rng.choice([8, 16, 32])
        instr = [16, n, k]
    else:
        wpc = [1 << b for b in split_bits(rng, wlog, rank)]
        instr = [16, 8] if rank == 2 else [1, 16, 8]
    cga = gen_cga(rng, rank) if rng.random() < 0.25 else None
    return wpc, instr, cga


def mma_shape(rng, tile, cap=4096):
    return shape_around(rng, tile, cap=cap)


def gen_mma(s: Suite, rng: Random):
    # header-comment example of bin/triton-tensor-layout.cpp
    ex = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 256, 32]}>"
    s.add("header", ["-l", ex, "-t", T([128, 256])], "nvidia_mma", "bin/triton-tensor-layout.cpp header example")
    s.add("header", ["-l", ex, "-t", T([128, 256]), "-use-hw-view"], "nvidia_mma", "header example, hw view")
    # test/Tools/tensor_layout_print.mlir: its four RUN lines (input file generated here)
    tlp_mfma_old = "#ttg.amd_mfma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 16], isTransposed = true, transA = false, transB = false}>"
    tlp = s.input_file("tensor_layout_print.mlir", "\n".join([
        "#blocked = %s" % blocked([1, 4], [4, 8], [4, 1], [1, 0]),
        "#mfma = %s" % tlp_mfma_old,
        "tt.func @print(%A : !tt.ptr<f16>) {",
        "  %cst0 = arith.constant dense<0.000000e+00> : tensor<16x16xf16, #blocked>",
        "  %cst1 = arith.constant dense<0.00e+00> : tensor<16x16xf16, #mfma>",
        "  tt.return",
        "}",
        ""]))
    s.add("tlp", ["-i", tlp, "-alias-names=blocked", "-t", T([16, 16])], "blocked", "RUN 1 (CHECK-BLOCKED)")
    s.add("tlp", ["-i", tlp, "-alias-names=mfma", "-t", T([16, 16])], "amd_mfma", "RUN 2 (CHECK-MFMA)")
    s.add("tlp", ["-l", tlp_mfma_old, "-t", T([16, 16])], "amd_mfma", "RUN 3 (CHECK-MFMA via -l; legacy keys ignored)")
    s.add("tlp", ["-i", tlp, "-alias-names=mfma", "-t", T([16, 16]), "-use-hw-view"], "amd_mfma", "RUN 4 (CHECK-HW)")
    s.add("tlp", ["-l", amd_mfma(2, [4, 1], [16, 16], True), "-t", T([16, 16]), "-use-hw-view"], "amd_mfma", "CHECK-HW layout via -l")

    # ---- nvidia_mma v2 / v3
    for _ in range(46):
        version = rng.choice([2, 2, 3])
        rank = rng.choice([2, 2, 3]) if version == 2 else (3 if rng.random() < 0.05 else 2)
        wpc, instr, cga = gen_nvidia_params(rng, rank, version)
        split = cga_split(cga, rank)
        if version == 2:
            tile = [1] * (rank - 2) + [16 * wpc[-2], 8 * wpc[-1]]
            if rank == 3:
                tile[0] = wpc[0]
        else:
            tile = [1] * (rank - 2) + [16 * wpc[-2], instr[1] * wpc[-1]]
            if rank == 3:
                tile[0] = wpc[0]
        tile = [t * sp for t, sp in zip(tile, split)]
        shape, mode = mma_shape(rng, tile, cap=pick_cap(rng))
        s.layout("nvmma", nvidia_mma(version, rng.choice([0, 0, 1]), wpc, instr, cga), shape, "nvidia_mma",
                 "v%d rank %d, tensor %s tile" % (version, rank, mode), hw=rng.random() < 0.45)

    # ---- amd_mfma
    shapes_mn = [(32, 32), (16, 16), (64, 4), (4, 64)]
    for _ in range(48):
        version = rng.randint(0, 4)
        m, n = rng.choice(shapes_mn)
        rank = rng.choice([2, 2, 3])
        kdim = {(32, 32): [8, 16], (16, 16): [16, 32], (64, 4): [4], (4, 64): [4]}[(m, n)]
        instr = [m, n] if rng.random() < 0.5 else [m, n, rng.choice(kdim)]
        transposed = True if (m, n) == (64, 4) else rng.random() < 0.5
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
        tile = [1] * (rank - 2) + [m * wpc[-2], n * wpc[-1]]
        if rank == 3:
            tile[0] = wpc[0]
        tile = [t * sp for t, sp in zip(tile, cga_split(cga, rank))]
        shape, mode = mma_shape(rng, tile)
        s.layout("mfma", amd_mfma(version, wpc, instr, transposed, cga, tiles, ebw), shape, "amd_mfma",
                 "v%d %dx%d rank %d%s, tensor %s tile" % (version, m, n, rank, " transposed" if transposed else "", mode),
                 hw=rng.random() < 0.45)

    # ---- amd_wmma
    instr_by_v = {1: [None, [16, 16, 16]], 2: [None, [16, 16, 16], [16, 16, 32]],
                  3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]]}
    for _ in range(40):
        version = rng.randint(1, 3)
        rank = rng.choice([2, 2, 3])
        instr = rng.choice(instr_by_v[version])
        transpose = rng.random() < 0.5
        reg, warp = gen_wmma_cta(rng, rank)
        cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
        m = instr[0] if instr else 16
        tile = [1] * (rank - 2) + [m, 16]
        wsz = inferred_sizes((warp or []) + (reg or []), rank)
        tile = [t * w for t, w in zip(tile, wsz)]
        tile = [t * sp for t, sp in zip(tile, cga_split(cga, rank))]
        shape, mode = mma_shape(rng, tile)
        s.layout("wmma", amd_wmma(version, transpose, reg, warp, cga, instr, rank=wmma_rank(rng, rank)),
                 shape, "amd_wmma", "v%d rank %d%s, tensor %s tile" % (version, rank, " transposed" if transpose else "", mode),
                 hw=rng.random() < 0.45)

    # ---- dot_op with every parent
    for _ in range(124):
        pk = rng.choice(["blocked", "blocked", "v2", "v2", "v2", "v3", "v3", "mfma", "mfma", "mfma", "wmma", "wmma", "wmma"])
        rank = rng.choice([2, 2, 3])
        op_idx = rng.choice([0, 1])
        kw = 0
        if pk == "blocked":
            spt, tpw, wpc, order, cga = gen_blocked_params(rng, rank)
            parent = blocked(spt, tpw, wpc, order, cga)
            ptile = blocked_tile(spt, tpw, wpc, cga)
        elif pk in ("v2", "v3"):
            version = 2 if pk == "v2" else 3
            if version == 3:
                op_idx = 0
                rank = 2 if rng.random() < 0.8 else 3
            wpc, instr, cga = gen_nvidia_params(rng, rank, version)
            parent = nvidia_mma(version, 0, wpc, instr, cga)
            kw = rng.choice([1, 2, 2, 4, 8]) if version == 2 else rng.choice([1, 2, 2, 4])
            ptile = [1] * (rank - 2) + [16 * wpc[-2], (8 if version == 2 else instr[1]) * wpc[-1]]
            if rank == 3:
                ptile[0] = wpc[0]
            ptile = [t * sp for t, sp in zip(ptile, cga_split(cga, rank))]
        elif pk == "mfma":
            m, n = rng.choice(shapes_mn)
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
        else:
            version = rng.randint(1, 3)
            instr = rng.choice(instr_by_v[version])
            reg, warp = gen_wmma_cta(rng, rank)
            cga = gen_cga(rng, rank) if rng.random() < 0.2 else None
            parent = amd_wmma(version, rng.random() < 0.5, reg, warp, cga, instr, rank=wmma_rank(rng, rank))
            kw = {1: rng.choice([8, 16]), 2: rng.choice([4, 8, 16]), 3: rng.choice([2, 4, 8, 16])}[version]
            wsz = inferred_sizes((warp or []) + (reg or []), rank)
            ptile = [t * w for t, w in zip([1] * (rank - 2) + [instr[0] if instr else 16, 16], wsz)]
        # operand tile: opIdx 0 -> [.., M, K]; opIdx 1 -> [.., K, N]
        kdim = rank - 1 if op_idx == 0 else rank - 2
        tile = list(ptile)
        tile[kdim] = rng.choice([8, 16, 32, 64]) * max(1, kw)
        shape, mode = mma_shape(rng, tile)
        s.layout("dot", dot_op(op_idx, parent, kw), shape, "dot_op",
                 "parent %s rank %d opIdx %d kWidth %d, tensor %s tile" % (pk, rank, op_idx, kw, mode),
                 hw=rng.random() < 0.45)

    # ---- slices of mma / dot_op layouts
    for _ in range(30):
        pk = rng.choice(["v2", "v3", "mfma", "wmma", "dot"])
        rank = rng.choice([2, 2, 3]) if pk != "v3" else 2
        if pk in ("v2", "v3"):
            version = 2 if pk == "v2" else 3
            wpc, instr, cga = gen_nvidia_params(rng, rank, version)
            parent = nvidia_mma(version, 0, wpc, instr, cga)
            ptile = [1] * (rank - 2) + [16 * wpc[-2], (8 if version == 2 else instr[1]) * wpc[-1]]
        elif pk == "mfma":
            m, n = rng.choice(shapes_mn)
            instr = [m, n] if rank == 2 else [m, n, 8]
            wpc = [1 << b for b in split_bits(rng, 2, rank)]
            parent = amd_mfma(rng.randint(0, 4), wpc, instr, True if (m, n) == (64, 4) else rng.random() < 0.5,
                              None, [1] * rank if rank == 3 else None)
            ptile = [1] * (rank - 2) + [m * wpc[-2], n * wpc[-1]]
        elif pk == "wmma":
            version = rng.randint(1, 3)
            reg, warp = gen_wmma_cta(rng, rank)
            parent = amd_wmma(version, rng.random() < 0.5, reg, warp, None, rng.choice(instr_by_v[version]), rank=wmma_rank(rng, rank))
            ptile = [t * w for t, w in zip([1] * (rank - 2) + [16, 16], inferred_sizes(warp + (reg or []), rank))]
        else:
            wpc, instr, cga = gen_nvidia_params(rng, rank, 2)
            op_idx = rng.choice([0, 1])
            parent = dot_op(op_idx, nvidia_mma(2, 0, wpc, instr, cga), 2)
            ptile = [1] * (rank - 2) + [16 * wpc[-2], 16 * wpc[-1]]
        dim = rng.randrange(rank)
        tile = ptile[:dim] + ptile[dim + 1:]
        shape, mode = mma_shape(rng, [max(1, t) for t in tile])
        s.layout("slice", slice_(dim, parent), shape, "slice", "slice dim %d of %s rank %d, tensor %s tile" % (dim, pk, rank, mode),
                 hw=rng.random() < 0.45)

    # ---- nvmma_shared: every swizzle x element width, transposed, fp4Padded, rank 2-3, multi-CTA
    for swz in (0, 32, 64, 128):
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
                    d = rng.choice(others)
                    shape[d] *= 2
                shape = [x * (split[d] if d != c else 1) for d, x in enumerate(shape)]
                while prod(shape) > 4096:
                    d = max(others, key=lambda j: shape[j])
                    if shape[d] == 1:
                        break
                    shape[d] //= 2
                mode = "box-sized" if shape[c] == inner * split[c] else ("smaller" if shape[c] < inner * split[c] else "larger")
                s.layout("nvmma_shared", nvmma_shared(swz, transposed, ebw, fp4, cga, explicit_rank), shape, "nvmma_shared",
                         "swizzle %d ebw %d rank %d%s%s, tensor %s box" % (swz, ebw, rank, " transposed" if transposed else "",
                                                                          " fp4Padded" if fp4 else "", mode),
                         hw=rng.random() < 0.4)
    # explicit edge cases of nvmma_shared (some abort in Triton)
    for swz, tr, ebw, fp4, shape in [(128, False, 16, False, [8, 32]), (128, False, 16, False, [4, 64]), (64, True, 16, False, [32, 8]),
                                     (32, False, 8, True, [8, 16]), (128, False, 8, True, [16, 64]), (0, True, 32, False, [4, 4]),
                                     (128, False, 16, False, [512, 64]), (0, False, 16, False, [512, 8]), (64, False, 16, False, [1, 32])]:
        s.layout("nvmma_shared", nvmma_shared(swz, tr, ebw, fp4), shape, "nvmma_shared", "edge: box vs tensor", hw=False)


def wmma_rank(rng, rank):
    """amd_wmma's `rank` key defaults to 2: rank-3 layouts must say so (one in 12 omits it: abort)."""
    if rank == 3:
        return None if rng.random() < 1 / 12 else 3
    return 2 if rng.random() < 0.2 else None


def gen_wmma_cta(rng, rank):
    """Random ctaLayout for amd_wmma: warp bases (maybe swizzled / zero) and optional register bases."""
    wbits = split_bits(rng, rng.choice([0, 1, 2, 2, 3]), rank)
    warp = [unit(rank, d, j) for d in range(rank) for j in range(wbits[d])]
    rng.shuffle(warp)
    if rng.random() < 0.15:
        warp.append([0] * rank)
    reg = None
    if rng.random() < 0.35:
        rbits = split_bits(rng, rng.choice([1, 1, 2]), rank)
        # register bases live above the warp bases in each dim
        reg = [unit(rank, d, wbits[d] + j) for d in range(rank) for j in range(rbits[d])]
        rng.shuffle(reg)
    if len(warp) >= 2 and rng.random() < 0.15:
        warp[1] = [a ^ b for a, b in zip(warp[0], warp[1])]
    return reg, warp


# ====================================================================== bank suite
def gen_bank(s: Suite, rng: Random):
    cases = []

    def add(reg, shared, shape, bw, note=""):
        cid = s.new_id("bank")
        cases.append({"id": cid, "reg": reg, "shared": shared, "shape": list(shape), "bitwidth": bw, "note": note})

    # spec section 7 examples
    col = blocked([8, 1], [8, 4], [1, 4], [0, 1])
    rowm = blocked([1, 1], [32, 1], [4, 1], [0, 1])
    row = blocked([1, 8], [4, 8], [4, 1], [1, 0])
    sw111 = swizzled(1, 1, 1, [1, 0])
    sw818 = swizzled(8, 1, 8, [1, 0])
    sw1132 = swizzled(1, 1, 32, [1, 0])
    nv = nvmma_shared(128, False, 16)
    for reg in (col, rowm):
        for sh in (sw111, sw818, sw1132, nv):
            for bw in (8, 16, 32, 64):
                add(reg, sh, [64, 64], bw, "spec 7")
    for sh in (sw111, sw818, nv):
        add(row, sh, [64, 64], 16, "spec 7 row access")
    c64a = blocked([8, 1], [8, 8], [1, 4], [0, 1])
    c64b = blocked([1, 8], [8, 8], [4, 1], [1, 0])
    for reg in (c64a, c64b):
        for sh in (sw111, sw818, swizzled(4, 1, 16, [1, 0])):
            for bw in (16, 32):
                add(reg, sh, [64, 64], bw, "spec 7 64-lane")

    def rand_shared(shape):
        rank = len(shape)
        k = rng.choice(["swizzled", "swizzled", "rotating", "nvmma", "nvmma", "shared_linear"])
        if k == "nvmma" and rank < 2:
            k = "swizzled"
        if k in ("swizzled", "rotating"):
            order = list(range(rank))
            rng.shuffle(order)
            return swizzled(rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4]), rng.choice([1, 2, 4, 8, 16]), order,
                            kind="swizzled_shared" if k == "swizzled" else "amd_rotating_shared"), k
        if k == "nvmma" and rank >= 2:
            ebw = rng.choice([8, 16, 16, 32])
            tr = rng.random() < 0.3
            c = 0 if tr else rank - 1
            rows = prod(shape) // shape[c]
            ok = [0] + [w for w in (32, 64, 128) if 8 * w // ebw <= shape[c] and rows >= 8]
            swz = rng.choice(ok + ok[1:])
            if rng.random() < 0.03:
                swz = 128  # sometimes a box too small for the swizzle (Triton aborts)
            return nvmma_shared(swz, tr, ebw, rank=rank if rank != 2 else None), k
        if k == "nvmma":
            k = "swizzled"
        # shared_linear with out sizes == shape
        units = [unit(rank, d, j) for d in range(rank) for j in range(log2(shape[d]))]
        rng.shuffle(units)
        for i in range(len(units)):
            if rng.random() < 0.3 and len(units) > 1:
                j = rng.choice([x for x in range(len(units)) if x != i])
                units[i] = [a ^ b for a, b in zip(units[i], units[j])]
        return shared_linear(units, [], 16), k

    def rand_reg(shape):
        rank = len(shape)
        k = rng.choice(["blocked", "blocked", "blocked", "slice", "linear", "generic_linear", "nvidia_mma", "dot_op", "amd_mfma", "amd_wmma"])
        if k == "blocked" or (k in ("nvidia_mma", "dot_op", "amd_mfma", "amd_wmma") and rank != 2):
            spt, tpw, wpc, order, _ = gen_blocked_params(rng, rank)
            tpw = [1 << b for b in split_bits(rng, rng.choice([5, 5, 5, 6]), rank)]
            return blocked(spt, tpw, wpc, order), "blocked"
        if k == "slice":
            spt, tpw, wpc, order, _ = gen_blocked_params(rng, rank + 1)
            tpw = [1 << b for b in split_bits(rng, 5, rank + 1)]
            return slice_(rng.randrange(rank + 1), blocked(spt, tpw, wpc, order)), k
        if k in ("linear", "generic_linear"):
            units = [unit(rank, d, j) for d in range(rank) for j in range(log2(shape[d]))]
            rng.shuffle(units)
            nl = min(5, len(units))
            lane = units[:nl]
            while len(lane) < 5:
                lane.append([0] * rank)
            rest = units[nl:]
            nw = min(2, len(rest))
            warp = rest[:nw]
            reg = rest[nw:]
            if k == "generic_linear" and len(warp) >= 1 and lane and any(lane[0]):
                warp[0] = [a ^ b for a, b in zip(warp[0], lane[0])]
            return linear(reg, lane, warp, [], kind=k), k
        if k == "nvidia_mma":
            return nvidia_mma(2, 0, [rng.choice([1, 2, 4]), rng.choice([1, 2])], [16, 8]), k
        if k == "dot_op":
            return dot_op(rng.choice([0, 1]), nvidia_mma(2, 0, [2, 2], [16, 8]), rng.choice([1, 2, 4])), k
        if k == "amd_mfma":
            m, n = rng.choice([(32, 32), (16, 16)])
            return amd_mfma(rng.randint(2, 4), [2, 2], [m, n], rng.random() < 0.5), k
        reg, warp = gen_wmma_cta(rng, 2)
        v = rng.randint(1, 3)
        return amd_wmma(v, rng.random() < 0.5, reg, warp, instr=[16, 16, 32] if v == 3 else None), k

    n = 0
    while len(cases) < 240:
        n += 1
        rank = rng.choice([2, 2, 2, 2, 3, 1])
        if rank == 1:
            shape = [1 << rng.choice([6, 7, 8, 9, 10])]
        else:
            shape = [1 << rng.choice([3, 4, 5, 6, 7]) for _ in range(rank)]
            while prod(shape) > 16384:
                shape[max(range(rank), key=lambda i: shape[i])] //= 2
        reg, rk = rand_reg(shape)
        if rank == 1 and rng.random() < 0.5:
            sh, sk = swizzled(1, 1, 1, [0]), "swizzled"
        else:
            sh, sk = rand_shared(shape)
        add(reg, sh, shape, rng.choice([8, 16, 32, 64]), "%s vs %s" % (rk, sk))
    s.cases = cases


GENERATORS = {"core": gen_core, "files": gen_files, "errors": gen_errors, "mma": gen_mma, "bank": gen_bank}


def build_suite(name):
    s = Suite(name)
    GENERATORS[name](s, Random("%s-v1" % name))
    return s


# ====================================================================== oracle driver
class OraclePool:
    def __init__(self, n):
        self.procs = []
        for _ in range(n):
            cmd = [ORACLE_PYTHON, ORACLE, "--serve"]
            log = tempfile.TemporaryFile()
            p = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=log, text=True, bufsize=1)
            p.log = log
            self.procs.append(p)

    def run_all(self, requests):
        results = [None] * len(requests)
        q = queue.Queue()
        for i, r in enumerate(requests):
            q.put(i)

        def worker(p):
            while True:
                try:
                    i = q.get_nowait()
                except queue.Empty:
                    return
                p.stdin.write(json.dumps(requests[i]) + "\n")
                p.stdin.flush()
                line = p.stdout.readline()
                if not line:
                    p.log.seek(0)
                    sys.stderr.write(p.log.read().decode("utf-8", "replace")[-4000:])
                    raise RuntimeError("oracle worker died")
                results[i] = json.loads(line)

        ts = [threading.Thread(target=worker, args=(p,)) for p in self.procs]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        if any(r is None for r in results):
            raise RuntimeError("oracle failed on some requests")
        return results

    def close(self):
        for p in self.procs:
            p.stdin.close()
            p.wait()


MAX_OUT = 100_000  # bytes of stdout per case; larger ones get their tensor halved until they fit


def shrink_large(s: Suite, results, pool: OraclePool):
    """Deterministically halve the tensor of -l cases whose output is too large, and re-run them.

    A layout whose output stays too large even for a tiny tensor (heavy broadcasting) is dropped."""
    drop = set()
    for _ in range(12):
        todo = [i for i, (c, r) in enumerate(zip(s.cases, results))
                if r["exit"] == 0 and r["stdout"] is not None and len(r["stdout"]) > MAX_OUT and i not in drop
                and "_layout" in c]  # cases built with Suite.add (fixed examples, -i files) are kept as they are
        if not todo:
            break
        run = []
        for i in todo:
            c = s.cases[i]
            attr, shape, hw, dtype = c["_layout"]
            if max(shape) <= 2:
                drop.add(i)
                continue
            d = max(range(len(shape)), key=lambda j: (shape[j], j))
            shape[d] //= 2
            c["_layout"] = (attr, shape, hw, dtype)
            c["args"][3] = T(shape, dtype)
            if "(shrunk)" not in c["note"]:
                c["note"] += " (shrunk)"
            run.append(i)
        new = pool.run_all([{"op": "cli", "args": s.cases[i]["args"]} for i in run])
        for i, r in zip(run, new):
            results[i] = r
    if drop:
        keep = [i for i in range(len(s.cases)) if i not in drop]
        s.cases[:] = [s.cases[i] for i in keep]
        results[:] = [results[i] for i in keep]


def DEVIATIONS(case, result):
    """Deliberate differences found from Triton's result itself (see the module docstring)."""
    if result["exit"] != 0 and "orderPerDim cannot determine dimension order" in result["stderr"]:
        return {"prints": "well-defined layout Triton cannot order"}
    if (result["exit"] != 0 and "Serialized rank and rank deduced from LL" in result["stderr"]
            and case["kind"] == "amd_wmma" and "rank =" not in case["args"][1]
            and case["args"][3].count("x") == 3):
        return {"prints": "rank-3 amd_wmma without `rank = 3`: ttlayout takes the rank from the bases"}
    if result["exit"] == 0 and "tensor rank >" in case["note"]:
        return {"error": "Triton drops the extra tensor dimensions"}
    return None


def first_line(err: str) -> str:
    for ln in err.splitlines():
        if ln.strip() and not ln.startswith("nanobind: leaked"):
            return ln.strip()
    return ""


def write_suite(s: Suite, pool: OraclePool):
    d = os.path.join(GOLDEN, s.name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    if s.inputs:
        os.makedirs(os.path.join(d, "inputs"))
        for name, text in sorted(s.inputs.items()):
            with open(os.path.join(d, "inputs", name), "w", newline="\n") as f:
                f.write(text)
    if s.name == "bank":
        reqs = [{"op": "bank", "reg": c["reg"], "shared": c["shared"], "shape": c["shape"], "bitwidth": c["bitwidth"]}
                for c in s.cases]
    else:
        reqs = [{"op": "cli", "args": c["args"]} for c in s.cases]
    results = pool.run_all(reqs)
    if s.name != "bank":
        shrink_large(s, results, pool)
    lines = []
    for c, r in zip(s.cases, results):
        if r["exit"] == 99 or "ORACLE-INTERNAL-ERROR" in r["stderr"] or r["exit"] == 142:
            raise RuntimeError("oracle internal failure on %s: %s" % (c["id"], r["stderr"]))
        if s.name == "bank":
            rec = {"id": c["id"], "reg": c["reg"], "shared": c["shared"], "shape": c["shape"], "bitwidth": c["bitwidth"],
                   "conflicts": r["conflicts"], "exit": r["exit"], "note": c["note"]}
            if r["exit"] != 0:
                rec["stderr_first_line"] = first_line(r["stderr"])
        else:
            rec = {"id": c["id"], "args": c["args"], "exit": r["exit"], "stdout": None, "kind": c["kind"], "note": c["note"]}
            deviation = c.get("ttlayout") or DEVIATIONS(c, r)
            if deviation:
                rec["ttlayout"] = deviation
            if r["exit"] == 0:
                rec["stdout"] = c["id"] + ".out"
                with open(os.path.join(d, rec["stdout"]), "wb") as f:
                    f.write(r["stdout"].encode("utf-8", "surrogateescape"))
            else:
                rec["stderr_first_line"] = first_line(r["stderr"])
        lines.append(json.dumps(rec, ensure_ascii=False))
    with open(os.path.join(d, "cases.jsonl"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def summarize(name, lines):
    recs = [json.loads(x) for x in lines]
    ok = sum(1 for r in recs if r["exit"] == 0)
    kinds = Counter(r.get("kind", "bank") for r in recs)
    exits = Counter(r["exit"] for r in recs)
    print("%-7s %4d cases (%d ok) exits=%s" % (name, len(recs), ok, dict(sorted(exits.items()))))
    print("        kinds: " + ", ".join("%s=%d" % kv for kv in sorted(kinds.items())))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", action="append", choices=SUITE_ORDER, help="suite(s) to regenerate (default: all)")
    ap.add_argument("--list", action="store_true", help="only generate the cases and print counts")
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1), help="oracle worker processes")
    a = ap.parse_args(argv)
    suites = a.suite or SUITE_ORDER
    built = [build_suite(n) for n in SUITE_ORDER if n in suites]
    if a.list:
        for s in built:
            kinds = Counter(c.get("kind", "bank") for c in s.cases)
            print("%-7s %4d cases: %s" % (s.name, len(s.cases), dict(sorted(kinds.items()))))
        return 0
    pool = OraclePool(a.jobs)
    try:
        for s in built:
            lines = write_suite(s, pool)
            summarize(s.name, lines)
    finally:
        pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
