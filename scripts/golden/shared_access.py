"""Suite ``shared_access``: what Triton 3.9 emits to move a tensor between registers and shared memory.

Run from the repository root with any Python 3.10+ (each kernel is compiled by the oracle interpreter,
``ORACLE_PYTHON``, default ``/opt/oracle/venv/bin/python``, in its own subprocess: Triton aborts the process on
some inputs)::

    python -m scripts.golden.shared_access [-j N] [--only SECTION] [--list]
    python -m scripts.golden.shared_access --kernel CASE_ID      # print a case's TTGIR

Each case is a one-CTA TTGIR kernel written directly:

* ``local``: pointers built in WRITE, ``tt.load`` -> ``ttg.local_alloc`` (SHARED) -> ``ttg.local_load`` into READ
  -> ``tt.store`` (pointers built in READ: every loaded value is stored, so none is dead);
* ``convert``: ``tt.load`` in WRITE -> ``ttg.convert_layout`` -> READ -> ``tt.store``.

compiled with ``triton.compile(path, target=GPUTarget(...))`` for sm90 (and sm80, sm100, gfx942, gfx950,
gfx1200 for the forms).  The record (``golden/shared_access/cases.jsonl``, one JSON object per line, in
section order; ids ``<section>-NNN`` from ``suite.Section``: adding cases or sections never renumbers others)::

    {"id", "section", "kind": "local" | "convert", "target", "num_warps", "shape", "elem", "bitwidth",
     "write", "read": register layouts, "shared": shared layout (local) or null, "note",
     "refused": Triton refused the kernel, ["error": its first error line],
     "shared_bytes": metadata.shared,
     "write_ops" / "read_ops": {mnemonic: static count} of the stores to / loads from shared memory
         (st.shared* / stmatrix* / ds_write*; ld.shared* / ldmatrix* / ds_read*; AMD's two-address forms and
         d16 variants as the assembly has them),
     "barriers": {mnemonic: count} (bar.sync, bar.warp.sync, s_barrier, ...),
     "backward_branches": must be 0 (no loop: static counts are per-thread dynamic counts),
     ["misaligned": [{"direction", "instruction", "alignment", "first_offset", "first_byte"}, ...]]}

``misaligned`` (padded layouts only; ``--rederive`` recomputes it from the recorded forms without compiling):
each compiled vector access (of a direction with one access width) whose natural alignment the
padding breaks, found from the compiled form's width and the padding alone: the first element offset that is a
multiple of the vector and whose padded byte address is not a multiple of the vector's bytes.  Such a kernel
faults at run time on NVIDIA ("misaligned" in compute-sanitizer).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from . import convert as cvt
from . import kernel as kern
from .oracle import ORACLE_PYTHON, ROOT
from .suite import Suite
from .text import blocked, dot_op, nvidia_mma, nvmma_shared, shared_linear, slice_, swizzled

OUT_DIR = os.path.join(ROOT, "golden", "shared_access")
COMPILE_TIMEOUT_S = 300
ELEMS = {8: "i8", 16: "f16", 32: "f32", 64: "f64"}
WARP_SIZE = {"sm80": 32, "sm90": 32, "sm100": 32, "gfx942": 64, "gfx950": 64, "gfx1200": 32}

# ----------------------------------------------------------------------------------------- kernels


def kernel_text(case: dict) -> str:
    backend, arch, ws = kern.TARGETS[case["target"]]
    target = f"cuda:{arch}" if backend == "cuda" else f"hip:{arch}"
    shape, elem = case["shape"], case["elem"]
    ten = kern._tensor
    lines = [f"#w = {case['write']}", f"#r = {case['read']}"]
    if case["kind"] == "local":
        lines += [f"#s = {case['shared']}", "#smem = #ttg.shared_memory"]
    lines += [f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {case["num_warps"]} : i32, '
              f'"ttg.threads-per-warp" = {ws} : i32, ttg.target = "{target}"}} {{',
              f"  tt.func public @k(%in: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}, "
              f"%out: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}) attributes {{noinline = false}} {{"]
    src = kern._pointer_block(lines, "a", "#w", shape, "%in", elem)
    lines.append(f"    %v = tt.load {src} : {ten(shape, '!tt.ptr<' + elem + '>', '#w')}")
    if case["kind"] == "local":
        md = f"!ttg.memdesc<{'x'.join(map(str, shape))}x{elem}, #s, #smem>"
        lines.append(f"    %m = ttg.local_alloc %v : ({ten(shape, elem, '#w')}) -> {md}")
        lines.append(f"    %x = ttg.local_load %m : {md} -> {ten(shape, elem, '#r')}")
    else:
        lines.append(f"    %x = ttg.convert_layout %v : {ten(shape, elem, '#w')} -> {ten(shape, elem, '#r')}")
    dst = kern._pointer_block(lines, "b", "#r", shape, "%out", elem)
    lines.append(f"    tt.store {dst}, %x : {ten(shape, '!tt.ptr<' + elem + '>', '#r')}")
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


WRITE_OPS = ("st.shared", "stmatrix", "ds_write", "ds_store")
READ_OPS = ("ld.shared", "ldmatrix", "ds_read", "ds_load")
BARRIERS = ("bar.sync", "bar.warp.sync", "barrier", "s_barrier")


def compile_one(case: dict) -> dict:
    """Compile one kernel in this process (the oracle interpreter) and classify its shared-memory instructions."""
    import triton
    from triton.backends.compiler import GPUTarget
    backend, arch, ws = kern.TARGETS[case["target"]]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ttgir")
        with open(path, "w") as f:
            f.write(kernel_text(case))
        k = triton.compile(path, target=GPUTarget(backend, arch, ws))
    asm = k.asm["ptx"] if backend == "cuda" else k.asm["amdgcn"]
    hist = kern.count_ptx(asm) if backend == "cuda" else kern.count_amdgcn(asm)
    out = {"shared_bytes": int(k.metadata.shared), "write_ops": {}, "read_ops": {}, "barriers": {},
           "backward_branches": kern.backward_branches(asm)}
    for mnem, n in sorted(hist.items()):
        for key, prefixes in (("write_ops", WRITE_OPS), ("read_ops", READ_OPS), ("barriers", BARRIERS)):
            if mnem.startswith(prefixes) and "::cluster" not in mnem:
                out[key][mnem] = n
    return out


def run_job(case: dict) -> dict:
    env = dict(os.environ, TRITON_DEFAULT_FP_FUSION="1")
    env.setdefault("TRITON_CACHE_DIR", os.path.join(tempfile.gettempdir(), "ttlayout-shared-access-cache"))
    job = {k: case[k] for k in ("kind", "target", "num_warps", "shape", "elem", "write", "read", "shared")}
    try:
        p = subprocess.run([ORACLE_PYTHON, "-m", "scripts.golden.shared_access", "--compile", json.dumps(job)],
                           cwd=ROOT, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    if p.returncode == 0:
        return json.loads(p.stdout.strip().splitlines()[-1])
    err = [ln for ln in p.stderr.splitlines() if ln.strip() and "Warning" not in ln and "warn_once" not in ln]
    first = next((ln for ln in err if "error" in ln.lower() or "assert" in ln.lower()), err[-1] if err else "")
    return {"error": f"exit {p.returncode}: {first.strip()[:300]}"}


# ----------------------------------------------------------------------------------------- misalignment


def padding_pairs(attr: str) -> list[tuple[int, int]]:
    """``#ttg.padded_shared<[64:+2, 512:+8] {...}>`` -> [(64, 2), (512, 8)]."""
    m = re.match(r"#ttg\.padded_shared<\[([^\]]*)\]", attr)
    return [(int(i), int(p)) for i, p in re.findall(r"(\d+):\+(\d+)", m.group(1))] if m else []


def vector_bytes(mnem: str) -> int:
    """Bytes one lane moves: st.shared.v4.b32 -> 16, ld.shared.b16 -> 2, st.shared.v2.b64 -> 16, ds_write_b128 ->
    16, ds_read_u16 -> 2, ds_write2_b64 -> 8 (each of the two accesses)."""
    m = re.search(r"\.v(\d+)\.b(\d+)$", mnem)
    if m:
        return int(m.group(1)) * int(m.group(2)) // 8
    m = re.search(r"[._](?:b|u|i)(\d+)(?:_d16(?:_hi)?)?$", mnem)
    return int(m.group(1)) // 8 if m else 0


def first_misaligned(pairs, count: int, elem_bytes: int, vec_bytes: int) -> tuple[int, int] | None:
    """(element offset, byte address) of the first vector start the padding moves off its alignment."""
    vec = max(1, vec_bytes // elem_bytes)
    for off in range(0, count, vec):
        pos = off + sum((off // i) * p for i, p in pairs)
        if (pos * elem_bytes) % vec_bytes:
            return off, pos * elem_bytes
    return None


def misalignment(case: dict, result: dict) -> list[dict]:
    """Per direction whose compiled vector access the padding moves off its natural alignment."""
    pairs = padding_pairs(case.get("shared") or "")
    if not pairs:
        return []
    count = 1
    for s in case["shape"]:
        count *= s
    out = []
    for direction in ("write", "read"):
        ops = result[direction + "_ops"]
        if len({vector_bytes(m) for m in ops}) > 1:
            continue                    # LLVM merged only some accesses (the aligned ones): nothing to attribute
        for mnem in sorted(ops):
            vb = vector_bytes(mnem)
            if vb <= case["bitwidth"] // 8:
                continue
            hit = first_misaligned(pairs, count, case["bitwidth"] // 8, vb)
            if hit:
                out.append({"direction": direction, "instruction": mnem, "alignment": vb, "first_offset": hit[0],
                            "first_byte": hit[1]})
    return out


# ----------------------------------------------------------------------------------------- layouts


def padded(pairs, order, shape) -> str:
    return ("#ttg.padded_shared<[%s] {order = [%s], shape = [%s]}>"
            % (", ".join("%d:+%d" % p for p in pairs), ", ".join(map(str, order)), ", ".join(map(str, shape))))


def rand_swizzled(rng, rank) -> str:
    order = list(range(rank))
    rng.shuffle(order)
    return swizzled(rng.choice([1, 2, 4, 8, 16]), rng.choice([1, 2, 4]), rng.choice([1, 1, 2, 4, 8, 16]), order)


def rand_shared_linear(rng, shape) -> str:
    """A bijective offset -> tensor map: unit bases in random order, some XORed with an earlier basis."""
    rank = len(shape)
    units = [unit_vector(rank, d, j) for d in range(rank) for j in range(shape[d].bit_length() - 1)]
    rng.shuffle(units)
    out = [list(u) for u in units]
    for i in range(1, len(out)):
        if rng.random() < 0.35:
            j = rng.randrange(i)
            out[i] = [a ^ b for a, b in zip(out[i], units[j])]
    return shared_linear(out, None, 16)


def unit_vector(rank, d, j):
    v = [0] * rank
    v[d] = 1 << j
    return v


def rand_nvmma(rng, shape, bits) -> str:
    rows = shape[0]
    transposed = rng.random() < 0.3
    contig = shape[0] if transposed else shape[1]
    ok = [0] + [w for w in (32, 64, 128) if w * 8 // bits <= contig and (shape[1] if transposed else rows) >= 8]
    return nvmma_shared(rng.choice(ok + ok[1:]), transposed, bits)


def rand_linear_layout(rng, shape, warps, ws) -> str:
    """cvt.rand_linear (bijective or lane/warp-broadcast), sometimes with a broadcast register too."""
    text = cvt.rand_linear(rng, shape, warps, ws)
    if rng.random() < 0.3:
        m = re.match(r"#ttg\.linear<\{register = \[(.*?)\], lane", text)
        zero = "[" + ", ".join("0" for _ in shape) + "]"
        regs = m.group(1)
        new = (zero + (", " + regs if regs else "")) if rng.random() < 0.5 else ((regs + ", " if regs else "") + zero)
        text = text.replace(f"register = [{regs}]", f"register = [{new}]", 1)
    return text


def rand_blocked(rng, rank, warps, ws) -> str:
    return cvt.rand_blocked(rng, rank, warps, ws)


def shape_for(rng, rank, lo=6, hi=12):
    return cvt.rand_shape(rng, rank, lo, hi)


# ----------------------------------------------------------------------------------------- sections


def add(sec, kind, target, warps, shape, bits, write, read, shared, note):
    sec.record(kind=kind, target=target, num_warps=warps, shape=list(shape), elem=ELEMS[bits], bitwidth=bits,
               write=write, read=read, shared=shared, note=note)


def section_blocked(s, target="sm90", n=60, name="blocked"):
    sec = s.section(name)
    rng, ws = sec.rng, WARP_SIZE[target]
    for i in range(n):
        rank = [1, 2, 2, 2, 3][i % 5]
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 16, 32, 32, 64])
        shape = shape_for(rng, rank)
        w = rand_blocked(rng, rank, warps, ws)
        r = w if rng.random() < 0.4 else rand_blocked(rng, rank, warps, ws)
        add(sec, "local", target, warps, shape, bits, w, r, rand_swizzled(rng, rank), "random blocked")


def section_linear(s, target="sm90", n=40, name="linear"):
    sec = s.section(name)
    rng, ws = sec.rng, WARP_SIZE[target]
    for i in range(n):
        rank = [1, 2, 2, 3][i % 4]
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 32, 64])
        shape = shape_for(rng, rank, 5, 11)
        w = rand_linear_layout(rng, shape, warps, ws)
        r = w if rng.random() < 0.5 else rand_blocked(rng, rank, warps, ws)
        sh = rand_shared_linear(rng, shape) if rng.random() < 0.4 else rand_swizzled(rng, rank)
        add(sec, "local", target, warps, shape, bits, w, r, sh, "random linear (broadcast bases sometimes)")


def section_slice(s, target="sm90", n=20):
    sec = s.section("slice")
    rng, ws = sec.rng, WARP_SIZE[target]
    for i in range(n):
        rank = rng.choice([1, 1, 2])
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 32, 64])
        shape = shape_for(rng, rank, 5, 10)
        w = slice_(rng.randrange(rank + 1), rand_blocked(rng, rank + 1, warps, ws))
        r = w if i % 2 else rand_blocked(rng, rank, warps, ws)
        add(sec, "local", target, warps, shape, bits, w, r, rand_swizzled(rng, rank), "slice")


def section_mma(s, n=36):
    """mma v2 / v3 accumulators stored to swizzled / nvmma shared memory (stmatrix on sm90) and read back."""
    sec = s.section("mma")
    rng = sec.rng
    for i in range(n):
        target = ["sm90", "sm90", "sm80"][i % 3]
        warps = rng.choice([4, 8])
        version = 3 if target == "sm90" and rng.random() < 0.4 else 2
        bits = rng.choice([16, 16, 32, 8])
        if version == 3:
            wpc = [4, 1] if warps == 4 else rng.choice([[8, 1], [4, 2]])
            nn = rng.choice([16, 32, 64, 128])
            mma = nvidia_mma(3, 0, wpc, [16, nn, 16])
            shape = [16 * wpc[0] * rng.choice([1, 2]), nn * wpc[1] * rng.choice([1, 2])]
        else:
            wpc = [1 << b for b in cvt._split_bits(rng, warps.bit_length() - 1, 2)]
            mma = nvidia_mma(2, 0, wpc, [16, 8])
            shape = [16 * wpc[0] * rng.choice([1, 2, 4]), 8 * wpc[1] * rng.choice([2, 4, 8])]
        shared = rand_nvmma(rng, shape, bits) if bits <= 32 and rng.random() < 0.5 else rand_swizzled(rng, 2)
        vec = 128 // bits
        read = rng.choice([mma, blocked([1, vec], [8, 4], [warps, 1], [1, 0]),
                           blocked([vec, 1], [4, 8], [1, warps], [0, 1])])
        add(sec, "local", target, warps, shape, bits, mma, read, shared, f"mma v{version} accumulator")


def section_dot(s, n=30):
    """local_load into dot operands of mma v2 (sm80 / sm90) and of mma v3 (A operand, sm90): ldmatrix."""
    sec = s.section("dot")
    rng = sec.rng
    for i in range(n):
        target = ["sm90", "sm80"][i % 2]
        warps = rng.choice([4, 8])
        bits = rng.choice([16, 16, 8, 32])
        k_width = 32 // bits * rng.choice([1, 1, 2])
        if target == "sm90" and rng.random() < 0.3:
            wpc = [4, 1] if warps == 4 else [8, 1]
            parent = nvidia_mma(3, 0, wpc, [16, 64, 16])
            op = 0
            shape = [16 * wpc[0], rng.choice([32, 64, 128])]
            k_width = 32 // bits
        else:
            wpc = [1 << b for b in cvt._split_bits(rng, warps.bit_length() - 1, 2)]
            parent = nvidia_mma(2, 0, wpc, [16, 8])
            op = rng.randrange(2)
            shape = [rng.choice([32, 64, 128]), rng.choice([32, 64, 128])]
        order = rng.choice([[1, 0], [0, 1]])
        shared = swizzled(rng.choice([1, 8, 128 // bits]), rng.choice([1, 2]), rng.choice([1, 4, 8]), order)
        vec = 128 // bits
        write = blocked([1, vec], [8, 4], [warps, 1], [1, 0]) if order == [1, 0] else \
            blocked([vec, 1], [4, 8], [1, warps], [0, 1])
        add(sec, "local", target, warps, shape, bits, write, dot_op(op, parent, k_width), shared,
            f"dot_op {op} of mma v{'3' if 'versionMajor = 3' in parent else '2'}")


def section_nvmma(s, n=24):
    sec = s.section("nvmma")
    rng = sec.rng
    for _ in range(n):
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 32])
        shape = [1 << rng.randint(4, 7), 1 << rng.randint(4, 7)]
        w = rand_blocked(rng, 2, warps, 32)
        r = w if rng.random() < 0.5 else rand_blocked(rng, 2, warps, 32)
        add(sec, "local", "sm90", warps, shape, bits, w, r, rand_nvmma(rng, shape, bits), "nvmma_shared")


def section_shared_linear(s, n=24):
    sec = s.section("shared-linear")
    rng = sec.rng
    for i in range(n):
        rank = [1, 2, 2, 3][i % 4]
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 32, 64])
        shape = shape_for(rng, rank, 6, 11)
        w = rand_blocked(rng, rank, warps, 32)
        r = rand_linear_layout(rng, shape, warps, 32) if i % 3 == 0 else w
        add(sec, "local", "sm90", warps, shape, bits, w, r, rand_shared_linear(rng, shape), "shared_linear")


def rand_padding(rng, total, rows_of):
    """One or several [interval:+pad] pairs (increasing intervals), intervals within the buffer."""
    k = rng.choice([1, 1, 1, 2, 2, 3])
    choices = sorted({rows_of, rows_of * 2, rows_of // 2 if rows_of > 1 else 1, 16, 32, 64, 128, 256, 512})
    choices = [c for c in choices if 1 <= c < total]
    intervals = sorted(rng.sample(choices, min(k, len(choices))))
    return [(i, rng.choice([1, 2, 4, 8, 16])) for i in intervals]


def section_padded(s, n=48):
    """#ttg.padded_shared with one and several pairs: sm90 mostly, gfx942 / gfx950 some."""
    sec = s.section("padded")
    rng = sec.rng
    for i in range(n):
        target = ["sm90", "sm90", "sm90", "gfx942", "gfx950", "sm80"][i % 6]
        ws = WARP_SIZE[target]
        rank = [2, 2, 2, 1, 3][i % 5]
        warps = rng.choice([4, 8])
        bits = rng.choice([8, 16, 16, 32, 32, 64])
        shape = shape_for(rng, rank, 7, 12)
        order = list(range(rank))
        rng.shuffle(order)
        total = 1
        for x in shape:
            total *= x
        pairs = rand_padding(rng, total, shape[order[0]])
        w = rand_blocked(rng, rank, warps, ws)
        r = w if rng.random() < 0.4 else rand_blocked(rng, rank, warps, ws)
        add(sec, "local", target, warps, shape, bits, w, r, padded(pairs, order, shape),
            f"padded {len(pairs)} pair(s)")


def section_issue(s):
    """The issue's hand-worked cases: the classic row-plus-one fix, a transposed read with two paddings, and
    the paddings Triton 3.9 compiles into misaligned (faulting) vector accesses."""
    sec = s.section("issue")
    row32 = blocked([1, 1], [1, 32], [4, 1], [1, 0])              # a warp reads one row of 32 f32
    col32 = blocked([1, 1], [32, 1], [1, 4], [0, 1])              # a warp reads one column
    for shared, note in ((swizzled(1, 1, 1, [1, 0]), "32x32 f32 column read, unpadded"),
                         (padded([(32, 1)], [1, 0], [32, 32]), "32x32 f32 column read, [32:+1]")):
        add(sec, "local", "sm90", 4, [32, 32], 32, row32, col32, shared, note)
    rows = blocked([1, 8], [8, 4], [4, 1], [1, 0])
    cols = blocked([8, 1], [4, 8], [1, 4], [0, 1])
    cols1 = blocked([1, 1], [32, 1], [1, 4], [0, 1])
    for pairs in ([], [(64, 8)], [(64, 2)], [(64, 1)], [(64, 4)]):
        sh = padded(pairs, [1, 0], [64, 64]) if pairs else swizzled(1, 1, 1, [1, 0])
        add(sec, "local", "sm90", 4, [64, 64], 16, rows, cols1, sh, f"64x64 f16 transposed read {pairs}")
        add(sec, "local", "sm90", 4, [64, 64], 16, rows, cols, sh, f"64x64 f16 transposed 8-wide {pairs}")
    # faulting: [64:+2] on f16 with st.shared.v4, [64:+1] on f32 with st.shared.v2
    add(sec, "local", "sm90", 4, [64, 64], 16, rows, rows, padded([(64, 2)], [1, 0], [64, 64]),
        "faulting: [64:+2] f16 with st.shared.v4")
    rows2 = blocked([1, 2], [4, 8], [4, 1], [1, 0])
    add(sec, "local", "sm90", 4, [64, 64], 32, rows2, rows2, padded([(64, 1)], [1, 0], [64, 64]),
        "faulting: [64:+1] f32 with st.shared.v2")
    add(sec, "local", "sm90", 4, [64, 64], 32, rows2, rows2, padded([(64, 2)], [1, 0], [64, 64]),
        "[64:+2] f32 with st.shared.v2: aligned")
    add(sec, "local", "sm90", 4, [64, 64], 16, rows, rows, padded([(64, 8)], [1, 0], [64, 64]),
        "[64:+8] f16 with st.shared.v4: aligned")
    for target in ("gfx942", "gfx950"):
        add(sec, "local", target, 4, [64, 64], 16, blocked([1, 8], [8, 8], [4, 1], [1, 0]),
            blocked([1, 8], [8, 8], [4, 1], [1, 0]), padded([(64, 2)], [1, 0], [64, 64]),
            "[64:+2] f16 with ds_write_b128")


def section_targets(s, n=24):
    """Forms on sm80 / sm100 / gfx942 / gfx950: blocked, linear, slice; MFMA accumulators and operands."""
    for target in ("sm80", "sm100", "gfx942", "gfx950"):
        section_blocked(s, target, n // 2, f"blocked-{target}")
        section_linear(s, target, n // 3, f"linear-{target}")
    for target, version in (("gfx942", 3), ("gfx950", 4)):
        sec = s.section(f"mfma-{target}")
        rng = sec.rng
        for i in range(16):
            warps = rng.choice([4, 8])
            mfma = cvt.rand_amd_mfma(rng, version, warps)
            shape = [1 << rng.randint(5, 7), 1 << rng.randint(5, 7)]
            bits = rng.choice([8, 16, 16, 32])
            if i % 2 == 0:
                add(sec, "local", target, warps, shape, bits, mfma, mfma, rand_swizzled(rng, 2), "mfma accumulator")
            else:
                k_width = rng.choice([4, 8, 16]) if bits <= 16 else 4
                order = rng.choice([[1, 0], [0, 1]])
                vec = min(8, 128 // bits)
                write = blocked([1, vec], [8, 8], [warps, 1], [1, 0]) if order == [1, 0] else \
                    blocked([vec, 1], [8, 8], [1, warps], [0, 1])
                add(sec, "local", target, warps, shape, bits, write, dot_op(i // 2 % 2, mfma, k_width),
                    swizzled(1, 1, 1, order), "dot_op of mfma")


def section_convert(s, n=12):
    """convert_layout kernels: the scratch round trip's forms and counts (NVIDIA and AMD), including in-warp
    exchanges through shared memory (no s_barrier on AMD)."""
    for target in ("sm90", "sm80", "gfx942", "gfx950"):
        sec = s.section(f"convert-{target}")
        rng, ws = sec.rng, WARP_SIZE[target]
        for i in range(n):
            rank = [2, 2, 1, 3][i % 4]
            warps = rng.choice([4, 8])
            bits = rng.choice([8, 16, 16, 32, 64])
            shape = shape_for(rng, rank, 6, 11)
            add(sec, "convert", target, warps, shape, bits, rand_blocked(rng, rank, warps, ws),
                rand_blocked(rng, rank, warps, ws), None, "random blocked pair")
        if target.startswith("sm"):
            for i in range(6):
                warps = rng.choice([4, 8])
                mma = nvidia_mma(2, 0, [warps, 1], [16, 8])
                bits = rng.choice([16, 16, 32, 8])
                vec = 128 // bits
                other = rng.choice([blocked([1, vec], [8, 4], [warps, 1], [1, 0]),
                                    blocked([vec, 1], [4, 8], [1, warps], [0, 1])])
                pair = (mma, other) if i % 2 == 0 else (other, mma)
                add(sec, "convert", target, warps, [16 * warps * 2, 64], bits, *pair, None, "mma <-> blocked")
        # in-warp: every warp keeps its rows, data moves between its lanes through shared memory
        a = blocked([1, 4], [ws // 4, 4], [4, 1], [1, 0])
        b = blocked([4, 1], [4, ws // 4], [4, 1], [0, 1])
        add(sec, "convert", target, 4, [4 * (ws // 4), 16], 32, a, b, None, "in-warp transpose")
        add(sec, "convert", target, 4, [4 * (ws // 4), 16], 16, a, b, None, "in-warp transpose")


def section_ncu(s):
    """The 48 (blocked, swizzled_shared) pairs measured on an H100 (tests/data/ncu_h100_bank.csv), compiled by
    Triton 3.9 as local_alloc + local_load of the same layout (the measured kernels were Triton 3.6 Gluon)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import ncu_bank_check
    sec = s.section("ncu-h100")
    for case in ncu_bank_check.cases():
        (spt, tpw, wpc, order), (vec, pp, mp, sorder), shape, bits = case
        reg = blocked(spt, tpw, wpc, order)
        add(sec, "local", "sm90", 4, shape, bits, reg, reg, swizzled(vec, pp, mp, sorder), "measured on H100")


def build_suite() -> Suite:
    s = Suite("shared_access")
    section_blocked(s)
    section_linear(s)
    section_slice(s)
    section_mma(s)
    section_dot(s)
    section_nvmma(s)
    section_shared_linear(s)
    section_padded(s)
    section_issue(s)
    section_targets(s)
    section_convert(s)
    section_ncu(s)
    for c in s.cases:
        c["section"] = c["id"].rsplit("-", 1)[0]
    return s


# ----------------------------------------------------------------------------------------- driver


def record(case: dict, result: dict) -> dict:
    rec = {k: case[k] for k in ("id", "section", "kind", "target", "num_warps", "shape", "elem", "bitwidth",
                                "write", "read", "shared", "note")}
    if "error" in result:
        rec.update(refused=True, error=result["error"])
        return rec
    rec["refused"] = False
    rec.update(result)
    mis = misalignment(case, result)
    if mis:
        rec["misaligned"] = mis
    return rec


def rederive() -> int:
    """Recompute the fields derived from the recorded compilations (misaligned) without compiling again."""
    path = os.path.join(OUT_DIR, "cases.jsonl")
    with open(path) as f:
        records = [json.loads(line) for line in f]
    for rec in records:
        rec.pop("misaligned", None)
        if not rec["refused"]:
            mis = misalignment(rec, rec)
            if mis:
                rec["misaligned"] = mis
    with open(path, "w", newline="\n") as f:
        for rec in records:
            f.write(json.dumps(rec, sort_keys=True) + "\n")
    return 0


def generate(jobs: int, only: str | None) -> int:
    s = build_suite()
    cases = [c for c in s.cases if only is None or c["section"] == only]
    t0 = time.monotonic()
    results = [None] * len(cases)
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = {pool.submit(run_job, c): i for i, c in enumerate(cases)}
        for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            results[futs[fut]] = fut.result()
            if n % 50 == 0:
                print(f"  {n}/{len(cases)} ({time.monotonic() - t0:.0f} s)", file=sys.stderr, flush=True)
    records = [record(c, r) for c, r in zip(cases, results)]
    os.makedirs(OUT_DIR, exist_ok=True)
    name = "cases.jsonl" if only is None else f"cases-{only}.jsonl"
    with open(os.path.join(OUT_DIR, name), "w", newline="\n") as f:
        for rec in records:
            f.write(json.dumps(rec, sort_keys=True) + "\n")
    refused = sum(r["refused"] for r in records)
    print(f"shared_access {len(records)} cases ({refused} refused by Triton), {time.monotonic() - t0:.0f} s",
          file=sys.stderr)
    return 0


def listing() -> list[str]:
    """Case counts per kind and per section (``python -m scripts.golden --list``), in the other suites' format."""
    from collections import Counter
    s = build_suite()
    kinds = Counter(c["kind"] for c in s.cases)
    return ["%-7s %4d cases: %s" % ("shared_access", len(s.cases), dict(sorted(kinds.items()))),
            "        sections: " + ", ".join("%s=%d" % (n, sec.count) for n, sec in s.sections.items())]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scripts.golden.shared_access", description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1))
    ap.add_argument("--only", help="one section (writes cases-SECTION.jsonl)")
    ap.add_argument("--list", action="store_true", help="print case counts per section, compile nothing")
    ap.add_argument("--kernel", metavar="CASE_ID")
    ap.add_argument("--rederive", action="store_true", help="recompute derived fields of cases.jsonl, no compiling")
    ap.add_argument("--compile", metavar="JSON", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.compile:
        print(json.dumps(compile_one(json.loads(a.compile))))
        return 0
    if a.list:
        s = build_suite()
        print(f"shared_access {len(s.cases)} cases: "
              + ", ".join(f"{n}={sec.count}" for n, sec in s.sections.items()))
        return 0
    if a.rederive:
        return rederive()
    if a.kernel:
        case = next(c for c in build_suite().cases if c["id"] == a.kernel)
        sys.stdout.write(kernel_text(case))
        return 0
    return generate(a.jobs, a.only)


if __name__ == "__main__":
    sys.exit(main())
