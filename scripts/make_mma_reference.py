#!/opt/oracle/venv/bin/python
"""Build tests/data/mma_reference.jsonl: Triton 3.9's own linear layouts for random tensor-core layouts.

Run with the oracle interpreter (Triton 3.9.0 installed):

    /opt/oracle/venv/bin/python scripts/make_mma_reference.py [--seed N] [--out PATH] [--count-per-kind N]

Covers #ttg.nvidia_mma (v2/v3), #ttg.dot_op (parents blocked, nvidia_mma, amd_mfma, amd_wmma),
#ttg.amd_mfma, #ttg.amd_wmma and #ttg.nvmma_shared, ranks 1-4, tensors smaller and larger than one
instruction tile, multi-CTA CGALayout, plus inputs on which Triton aborts.

Every case is described by the ttlayout dataclass fields (`params`, with a `kind` key naming the class),
rendered to MLIR text, parsed by `mlir::parseAttribute` in the Python binding's MLIRContext and converted with
`mlir::triton::gpu::toLinearLayout` (through ctypes) — the attribute exactly as written, as the CLI does.
Each case runs in a forked child, so an abort loses only that case. One JSON line per case:
{"id", "kind", "params", "attr", "shape", "result"} with result
  {"status": "ok", "text": LinearLayout::toString() of Triton's result}
  {"status": "abort", "signal": n, "message": last stderr line}
  {"status": "invalid", "message": ...}   (the attribute does not parse/verify; not a conversion case)
ttlayout itself never imports Triton; tests read only the JSON file.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import signal
import sys
import tempfile

CASE_TIMEOUT_S = 30

# ----------------------------------------------------------------------------- text rendering

def _arr(xs):
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def _bases(bs):
    return "[" + ", ".join(_arr(b) for b in bs) + "]"


def _bool(b):
    return "true" if b else "false"


def _cga(cga):
    return f", CGALayout = {_bases(cga)}" if cga else ""


def render(p) -> str:
    """MLIR text of a case's attribute (same key spelling as Triton's printer; wmma also gets `rank`)."""
    k = p["kind"]
    if k == "BlockedEncoding":
        return (f"#ttg.blocked<{{sizePerThread = {_arr(p['size_per_thread'])}, threadsPerWarp = "
                f"{_arr(p['threads_per_warp'])}, warpsPerCTA = {_arr(p['warps_per_cta'])}, order = "
                f"{_arr(p['order'])}{_cga(p['cga'])}}}>")
    if k == "NvidiaMmaEncoding":
        return (f"#ttg.nvidia_mma<{{versionMajor = {p['version_major']}, versionMinor = {p['version_minor']}, "
                f"warpsPerCTA = {_arr(p['warps_per_cta'])}{_cga(p['cga'])}, instrShape = {_arr(p['instr_shape'])}}}>")
    if k == "AMDMfmaEncoding":
        tpw = f", tilesPerWarp = {_arr(p['tiles_per_warp'])}" if p["tiles_per_warp"] else ""
        ebw = f", elementBitWidth = {p['element_bit_width']}" if p["element_bit_width"] != 32 else ""
        return (f"#ttg.amd_mfma<{{version = {p['version']}, warpsPerCTA = {_arr(p['warps_per_cta'])}, "
                f"instrShape = {_arr(p['instr_shape'])}, isTransposed = {_bool(p['is_transposed'])}"
                f"{_cga(p['cga'])}{tpw}{ebw}}}>")
    if k == "AMDWmmaEncoding":
        cta = []
        if p["cta_register"]:
            cta.append(f"register = {_bases(p['cta_register'])}")
        cta.append(f"warp = {_bases(p['cta_warp'])}")
        return (f"#ttg.amd_wmma<{{version = {p['version']}, isTranspose = {_bool(p['is_transpose'])}, "
                f"ctaLayout = {{{', '.join(cta)}}}{_cga(p['cga'])}, instrShape = {_arr(p['instr_shape'])}, "
                f"rank = {p['rank']}}}>")
    if k == "DotOperandEncoding":
        kw = f", kWidth = {p['k_width']}" if p["k_width"] else ""
        return f"#ttg.dot_op<{{opIdx = {p['op_idx']}, parent = {render(p['parent'])}{kw}}}>"
    if k == "NVMMASharedEncoding":
        fp4 = ", fp4Padded = true" if p["fp4_padded"] else ""
        tail = _cga(p["cga"]) if p["cga"] else f", rank = {p['rank']}"
        return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {p['swizzling_byte_width']}, transposed = "
                f"{_bool(p['transposed'])}, elementBitWidth = {p['element_bit_width']}{fp4}{tail}}}>")
    raise ValueError(k)


# ----------------------------------------------------------------------------- random cases

def pow2(rng, lo, hi):
    """A random power of two in [2^lo, 2^hi]."""
    return 1 << rng.randint(lo, hi)


def rand_cga(rng, rank, max_bases=3):
    """Random CGALayout: unit bases (a permutation after removing zeros), sometimes a zero basis."""
    if rng.random() < 0.55:
        return []
    n = rng.randint(1, max_bases)
    seen = [0] * rank
    bases = []
    for _ in range(n):
        if rng.random() < 0.12:
            bases.append([0] * rank)
            continue
        d = rng.randrange(rank)
        b = [0] * rank
        b[d] = 1 << seen[d]
        seen[d] += 1
        bases.append(b)
    return bases


def rand_warps(rng, rank, max_log=3):
    """warpsPerCTA with a product of at most 2^max_log."""
    w = [1] * rank
    for _ in range(rng.randint(0, max_log)):
        w[rng.randrange(rank)] *= 2
    return w


def rand_shape(rng, rank, lo=0, hi=8, max_log_total=14):
    lo = min(lo, max_log_total // max(rank, 1))
    while True:
        s = [pow2(rng, lo, hi) for _ in range(rank)]
        if sum(x.bit_length() - 1 for x in s) <= max_log_total:
            return s


def nvidia_mma(rng, version=None, rank=None, sane=True):
    v = version or rng.choice([2, 3])
    if rank is None:
        rank = rng.choice([2, 2, 3]) if v == 2 else 2
    if v == 2:
        mn = rng.choice([[16, 8], [16, 8], [16, 8], [8, 8], [16, 16], [32, 8], [16, 32]])
        instr = ([rng.choice([1, 1, 2]), *mn] if rank == 3 else mn)
    else:
        instr = [rng.choice([16, 16, 16, 64]), rng.choice([8, 16, 32, 64, 128, 256]), rng.choice([16, 8, 32])]
    warps = rand_warps(rng, rank)
    if v == 3 and rank == 2:
        warps = [rng.choice([4, 4, 8, 16]) if rng.random() < 0.8 else 1, rng.choice([1, 1, 2])]
    if not sane:
        choice = rng.randrange(4)
        if choice == 0:
            instr = instr[:-1] if len(instr) > 2 else instr + [8]
        elif choice == 1:
            instr = [16, 4] if rank == 2 else [1, 16, 4]
        elif choice == 2:
            rank = 3
            warps = rand_warps(rng, 3)
        else:
            instr = []
    return dict(kind="NvidiaMmaEncoding", version_major=v, version_minor=rng.choice([0, 0, 1]),
                warps_per_cta=warps, instr_shape=instr, cga=rand_cga(rng, rank))


def amd_mfma(rng, rank=None, sane=True):
    rank = rank or rng.choice([2, 2, 3])
    mn = rng.choice([(32, 32), (16, 16), (64, 4), (4, 64)])
    instr = list(mn) + ([rng.choice([8, 16, 4, 2])] if rng.random() < 0.5 or rank == 3 else [])
    transposed = rng.random() < 0.5 or mn == (64, 4)
    tpw = []
    if rng.random() < 0.5:
        tpw = [1] * rank
        for d in range(rank - 2, rank):
            tpw[d] = rng.choice([1, 1, 2, 4])
    ebw = 64 if rng.random() < 0.25 else 32
    if not sane:
        choice = rng.randrange(3)
        if choice == 0:
            instr, transposed = [64, 4], False
        elif choice == 1:
            rank, instr, tpw = 3, list(mn), []
        else:
            rank, tpw = 3, [1, 2]
            instr = list(mn) + [8]
    return dict(kind="AMDMfmaEncoding", version=rng.randint(0, 4), warps_per_cta=rand_warps(rng, rank),
                instr_shape=instr, is_transposed=transposed, cga=rand_cga(rng, rank),
                tiles_per_warp=tpw, element_bit_width=ebw)


WMMA_SHAPES = {1: [[16, 16, 16]], 2: [[16, 16, 16], [16, 16, 32]],
               3: [[16, 16, 4], [16, 16, 32], [16, 16, 64], [16, 16, 128], [32, 16, 64], [32, 16, 128]]}


def rand_unit_bases(rng, rank, n, dims, start=None):
    """n bases, each a power of two along one of `dims` (continuing per-dim counters), some zero."""
    seen = dict(start or {})
    out = []
    for _ in range(n):
        if rng.random() < 0.1:
            out.append([0] * rank)
            continue
        d = rng.choice(dims)
        b = [0] * rank
        b[d] = 1 << seen.get(d, 0)
        seen[d] = seen.get(d, 0) + 1
        out.append(b)
    return out, seen


def amd_wmma(rng, rank=None):
    rank = rank or rng.choice([2, 2, 3])
    v = rng.randint(1, 3)
    dims = list(range(rank))
    warp, seen = rand_unit_bases(rng, rank, rng.randint(0, 3), dims)
    reg = []
    if rng.random() < 0.5:
        reg, _ = rand_unit_bases(rng, rank, rng.randint(1, 2), dims, seen)
        if rng.random() < 0.5:  # ctaLayout repeats registers before warps in Triton's own layouts
            reg, seen2 = rand_unit_bases(rng, rank, rng.randint(1, 2), dims)
            warp, _ = rand_unit_bases(rng, rank, rng.randint(0, 3), dims, seen2)
    if rng.random() < 0.1 and len(warp) >= 2 and rank >= 2:  # a swizzled warp basis
        a, b = warp[0], warp[1]
        if any(a) and any(b) and a != b:
            warp[1] = [x | y for x, y in zip(a, b)]
    return dict(kind="AMDWmmaEncoding", version=v, is_transpose=rng.random() < 0.5, cta_register=reg,
                cta_warp=warp, cga=rand_cga(rng, rank), instr_shape=rng.choice(WMMA_SHAPES[v]), rank=rank)


def blocked(rng, rank):
    order = list(range(rank))
    rng.shuffle(order)
    tpw = [1] * rank
    for _ in range(5):
        tpw[rng.randrange(rank)] *= 2
    return dict(kind="BlockedEncoding", size_per_thread=[pow2(rng, 0, 2) for _ in range(rank)],
                threads_per_warp=tpw, warps_per_cta=rand_warps(rng, rank), order=order,
                cga=rand_cga(rng, rank))


def dot_operand(rng, sane=True):
    which = rng.choice(["nv2", "nv2", "nv3", "blocked", "mfma", "mfma", "wmma", "wmma"])
    op_idx = rng.randint(0, 1)
    if which == "nv2":
        parent = nvidia_mma(rng, 2)
        kw = rng.choice([1, 2, 4, 8, 16])
    elif which == "nv3":
        parent = nvidia_mma(rng, 3)
        op_idx = 0
        kw = rng.choice([1, 2, 4, 8])
    elif which == "blocked":
        parent = blocked(rng, rng.choice([2, 2, 3]))
        kw = 0
    elif which == "mfma":
        parent = amd_mfma(rng)
        kw = rng.choice([1, 2, 4, 8, 16, 32])
    else:
        parent = amd_wmma(rng)
        kw = rng.choice({1: [8, 16], 2: [4, 8, 16], 3: [1, 2, 4, 8, 16, 32]}[parent["version"]])
    if not sane:
        kw = rng.choice([3, 6]) if which != "blocked" else kw
    return dict(kind="DotOperandEncoding", op_idx=op_idx, parent=parent, k_width=kw)


def nvmma_shared(rng, sane=True):
    rank = rng.choice([1, 2, 2, 2, 3, 3, 4]) if not sane else rng.choice([2, 2, 2, 3, 3, 4, 1])
    s = rng.choice([0, 32, 64, 128, 128])
    e = rng.choice([8, 16, 16, 32, 64, 4])
    fp4 = rng.random() < 0.15
    if fp4 and rng.random() < 0.8:
        e = 8
    cga = rand_cga(rng, rank)
    return dict(kind="NVMMASharedEncoding", swizzling_byte_width=s, transposed=rng.random() < 0.3,
                element_bit_width=e, fp4_padded=fp4, cga=cga, rank=rank)


def rank_of(p):
    k = p["kind"]
    if k == "DotOperandEncoding":
        return rank_of(p["parent"])
    if k in ("AMDWmmaEncoding", "NVMMASharedEncoding"):
        return p["rank"]
    if k == "BlockedEncoding":
        return len(p["order"])
    return len(p["warps_per_cta"])


def shape_for(rng, p):
    """A tensor shape for the layout: usually its rank, sometimes tiny or large dims."""
    rank = rank_of(p)
    if rng.random() < 0.03:
        rank = rank + rng.choice([-1, 1]) or 1
    mode = rng.random()
    if p["kind"] == "NVMMASharedEncoding" and mode < 0.7:
        return rand_shape(rng, rank, 3, 9, 16)
    if mode < 0.2:
        return rand_shape(rng, rank, 0, 3)
    if mode < 0.35:
        return rand_shape(rng, rank, 6, 9, 16)
    return rand_shape(rng, rank, 0, 8)


GENERATORS = {
    "nvidia_mma": lambda rng: nvidia_mma(rng, sane=rng.random() > 0.08),
    "dot_op": lambda rng: dot_operand(rng, sane=rng.random() > 0.04),
    "amd_mfma": lambda rng: amd_mfma(rng, sane=rng.random() > 0.08),
    "amd_wmma": amd_wmma,
    "nvmma_shared": lambda rng: nvmma_shared(rng),
}


# ----------------------------------------------------------------------------- Triton side

def _nb_ptr(obj) -> int:
    """Address of the C++ object held by a nanobind instance (inline or by pointer, per its flags)."""
    base = id(obj)
    off = ctypes.c_int32.from_address(base + 16).value
    flags = ctypes.c_uint32.from_address(base + 20).value
    return base + off if (flags >> 2) & 1 else ctypes.c_void_p.from_address(base + off).value


class Triton:
    """Parse attribute text in the Python binding's MLIRContext and convert it with Triton's own
    `mlir::triton::gpu::toLinearLayout(shape, attr)`, printed by `LinearLayout::toString()` — the two calls
    triton-tensor-layout makes (Gluon's `to_linear_layout` would add a LinearEncodingAttr verification that
    the CLI does not do)."""

    def __init__(self):
        from triton._C import libtriton
        from triton._C.libtriton import ir
        lib = ctypes.CDLL(libtriton.__file__)
        vp, sz = ctypes.c_void_p, ctypes.c_size_t
        self.parse = self._fn(lib, "_ZN4mlir14parseAttributeEN4llvm9StringRefEPNS_11MLIRContextENS_4TypeEPmb",
                              vp, vp, sz, vp, vp, vp, ctypes.c_bool)
        # LinearLayout toLinearLayout(ArrayRef<int64_t>, Attribute): the result is returned through a hidden
        # first pointer (sret); ArrayRef travels as (data, size)
        self.to_ll = self._fn(lib, "_ZN4mlir6triton3gpu14toLinearLayoutEN4llvm8ArrayRefIlEENS_9AttributeE",
                              vp, vp, vp, sz, vp)
        # std::string LinearLayout::toString() const: sret, then `this`
        self.to_string = self._fn(lib, "_ZNK4mlir6triton12LinearLayout8toStringB5cxx11Ev", vp, vp, vp)
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.ctx_ptr = _nb_ptr(self.ctx)
        if not self._parse("7 : i32"):
            raise RuntimeError("cannot parse attributes in the Python MLIRContext")

    @staticmethod
    def _fn(lib, name, res, *args):
        f = getattr(lib, name)
        f.restype, f.argtypes = res, list(args)
        return f

    def _parse(self, text: str):
        buf = ctypes.create_string_buffer(text.encode())
        self._keep = buf
        return self.parse(ctypes.addressof(buf), len(text), self.ctx_ptr, None, None, False)

    def convert(self, text: str, shape):
        """Runs in a forked child: leaked C++ objects die with it."""
        attr = self._parse(text)
        if not attr:
            return {"status": "invalid", "message": "attribute does not parse or verify"}
        dims = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        ll = ctypes.create_string_buffer(4096)
        self.to_ll(ctypes.addressof(ll), ctypes.addressof(dims), len(shape), attr)
        sbuf = ctypes.create_string_buffer(64)
        self.to_string(ctypes.addressof(sbuf), ctypes.addressof(ll))
        data = ctypes.c_void_p.from_address(ctypes.addressof(sbuf)).value
        size = ctypes.c_size_t.from_address(ctypes.addressof(sbuf) + 8).value
        return {"status": "ok", "text": ctypes.string_at(data, size).decode()}


def run_forked(fn):
    """fn() -> dict, in a child process; an abort becomes {"status": "abort", ...}."""
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            signal.alarm(CASE_TIMEOUT_S)
            os.dup2(err.fileno(), 2)
            out.write(json.dumps(fn()).encode())
            out.flush()
        except BaseException as exc:  # a Python-level failure is reported, not hidden
            os.write(2, f"PYTHON-ERROR: {exc!r}\n".encode())
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    out.seek(0)
    err.seek(0)
    lines = [ln for ln in err.read().decode(errors="replace").splitlines()
             if ln.strip() and "leak" not in ln and not ln.startswith(" - ")]
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return json.loads(out.read().decode())
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else -os.WEXITSTATUS(status)
    msg = next((ln for ln in lines if "LLVM ERROR" in ln or "Assertion" in ln or "PYTHON-ERROR" in ln),
               lines[-1] if lines else "")
    if sig == signal.SIGALRM:
        return {"status": "hang", "message": f"no answer within {CASE_TIMEOUT_S} s"}
    return {"status": "abort", "signal": sig, "message": msg[-400:]}


def cases(seed: int, per_kind: int):
    rng = random.Random(seed)
    n = 0
    for kind, gen in GENERATORS.items():
        # nvmma_shared rejects many small random shapes (TMA box rules) and dot_op spreads over 4 parents
        # and 2 operands, so they get twice the cases
        for _ in range(per_kind * (2 if kind in ("nvmma_shared", "dot_op") else 1)):
            p = gen(rng)
            yield {"id": n, "kind": kind, "params": p, "attr": render(p), "shape": shape_for(rng, p)}
            n += 1
    for p, shape in fixed_cases():
        yield {"id": n, "kind": "fixed", "params": p, "attr": render(p), "shape": shape}
        n += 1


def fixed_cases():
    """Hand-picked inputs: spec examples and the documented abort cases."""
    mma = lambda v, w, i, cga=(): dict(kind="NvidiaMmaEncoding", version_major=v, version_minor=0,  # noqa: E731
                                       warps_per_cta=w, instr_shape=i, cga=list(cga))
    mfma = lambda i, t, w=(1, 1), tpw=(), ebw=32: dict(  # noqa: E731
        kind="AMDMfmaEncoding", version=3, warps_per_cta=list(w), instr_shape=list(i), is_transposed=t,
        cga=[], tiles_per_warp=list(tpw), element_bit_width=ebw)
    nv = lambda s, t, e, r=2, fp4=False, cga=(): dict(  # noqa: E731
        kind="NVMMASharedEncoding", swizzling_byte_width=s, transposed=t, element_bit_width=e,
        fp4_padded=fp4, cga=list(cga), rank=r)
    yield mma(2, [1, 1], [16, 8]), [16, 8]
    yield mma(2, [1, 1], [16, 8]), [1, 1]
    yield mma(2, [1, 1, 1], [16, 8]), [2, 16, 8]       # instrShape length != rank
    yield mma(3, [4, 1], [64, 64, 16]), [128, 128]
    yield mma(3, [4, 1, 1], [64, 64, 16]), [2, 128, 128]
    yield mma(2, [2, 2], []), [32, 32]
    yield mfma([32, 32], False), [32, 32]
    yield mfma([64, 4], False), [64, 4]                  # 64x4 must be transposed
    yield mfma([64, 4], True), [64, 64]
    yield mfma([32, 32], False, (1, 1, 8)), [4, 64, 64]  # rank 3 with 2-entry tilesPerWarp
    yield mfma([32, 32, 8], False, (1, 1, 8)), [4, 64, 64]
    yield mfma([16, 16], True, (2, 2), (2, 2), 64), [128, 128]
    yield nv(128, False, 16), [8, 64]
    yield nv(128, False, 16), [8, 16]                    # box too small for the swizzle
    yield nv(128, False, 16), [4, 64]                    # collapsed box smaller than the core matrix
    yield nv(128, False, 16, r=1), [64]                  # rank 1 with swizzle
    yield nv(0, False, 16, r=1), [64]
    yield nv(0, True, 16, r=3), [2, 4, 8]
    yield nv(128, True, 8, fp4=True), [128, 64]
    yield nv(64, False, 16, cga=[[1, 0], [0, 1]]), [32, 64]
    yield nv(32, True, 32, r=3), [4, 16, 32]
    # edge inputs: zero-size tile entries, non-powers of two, odd element widths, rank 4, padding
    yield mma(2, [0, 1], [16, 8]), [16, 8]
    yield mma(2, [3, 1], [16, 8]), [16, 8]
    yield mma(2, [1, 1], [0, 8]), [16, 8]
    yield mma(2, [1, 1], [24, 8]), [16, 8]
    yield mma(2, [1], [16]), [16]
    yield mma(2, [1, 1, 1, 1], [1, 1, 16, 8]), [2, 2, 16, 8]
    yield mma(3, [4, 2], [16]), [128, 256]
    yield nv(128, False, 16), [2, 8, 64]                 # tensor rank != layout rank
    yield nv(128, False, 24), [64, 64]                   # box row 42: not a power of two
    yield nv(0, False, 24), [64, 64]
    yield nv(32, False, 256), [64, 64]
    yield nv(0, True, 16), [512, 1024]
    yield nv(128, True, 16, r=3), [512, 4, 8]
    yield nv(128, False, 8, fp4=True), [8, 64]
    yield nv(32, False, 8, fp4=True), [8, 16]
    yield nv(0, True, 16, r=1), [1024]
    yield nv(128, False, 16, cga=[[0, 1], [0, 0]]), [16, 128]
    yield mfma([32, 32], False, (1, 1, 1, 1)), [2, 2, 32, 32]
    yield mfma([32, 32], False, (2, 3)), [64, 64]
    dot = lambda op, parent, kw: dict(kind="DotOperandEncoding", op_idx=op, parent=parent, k_width=kw)  # noqa: E731
    yield dot(0, mfma([32, 32, 8, 8], False, (1, 1, 1, 1)), 4), [2, 2, 32, 32]
    yield dot(0, mfma([32, 32], False, (1, 1, 1, 1)), 4), [2, 2, 32, 32]
    yield dot(0, mfma([32, 32], False, (1, 2, 2)), 8), [2, 64, 64]    # only tilesPerWarp[1] is read
    yield dot(1, mfma([32, 32], False, (1, 2, 2)), 8), [2, 64, 64]    # tilesPerWarp[2] does not exist
    yield mfma([32, 32, 8], False, (1, 1, 1), tpw=(1, 1)), [2, 32, 32]  # explicit 2-entry tilesPerWarp
    yield mfma([32, 32], False, (1, 1), tpw=(1, 1, 1)), [32, 32]
    yield dot(0, mma(2, [2, 2], [8, 8]), 1), [64, 64]
    yield dot(1, mma(2, [2, 2], [8, 8]), 1), [64, 64]
    yield dot(0, mma(2, [2, 2, 2], [8]), 2), [4, 64, 64]
    yield dot(0, mma(3, [4, 1], [64, 64, 16]), 2), [128, 64]
    wmma = lambda reg, warp, instr, t=False, v=3, r=2: dict(  # noqa: E731
        kind="AMDWmmaEncoding", version=v, is_transpose=t, cta_register=reg, cta_warp=warp, cga=[],
        instr_shape=instr, rank=r)
    yield wmma([], [[0, 1]], [16, 16, 16], v=2), [1, 8]
    yield wmma([], [], [16, 16, 16], v=2), [4, 64]
    yield wmma([], [[0, 0, 0, 1]], [16, 16, 16], v=2, r=4), [4, 4, 4, 64]
    yield dot(1, wmma([[1, 0]], [[0, 1], [2, 0]], [32, 16, 64], t=True), 8), [64, 64]
    yield dot(0, wmma([[1, 0]], [[0, 1], [2, 0]], [32, 16, 64], t=True), 8), [64, 64]
    yield dot(0, wmma([[1, 0]], [[0, 1], [2, 0]], [16, 16, 4]), 8), [64, 64]
    yield dot(0, wmma([[1, 0]], [[0, 1], [2, 0]], [16, 16, 4]), 3), [64, 64]
    blk = lambda spt, tpw, wpc, order, cga=(): dict(  # noqa: E731
        kind="BlockedEncoding", size_per_thread=spt, threads_per_warp=tpw, warps_per_cta=wpc, order=order,
        cga=list(cga))
    yield dot(1, blk([2, 1, 4], [2, 4, 4], [2, 1, 2], [0, 2, 1], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]), 0), [4, 8, 16]
    yield dot(0, blk([1], [32], [1], [0]), 0), [64]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--count-per-kind", type=int, default=240)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests", "data",
                                                  "mma_reference.jsonl"))
    args = ap.parse_args(argv)
    triton = Triton()
    counts = {}
    with open(args.out, "w") as f:
        for case in cases(args.seed, args.count_per_kind):
            case["result"] = run_forked(lambda case=case: triton.convert(case["attr"], case["shape"]))
            key = (case["kind"], case["result"]["status"])
            counts[key] = counts.get(key, 0) + 1
            f.write(json.dumps(case, separators=(",", ":")) + "\n")
    for key in sorted(counts):
        print(*key, counts[key])


if __name__ == "__main__":
    main()
