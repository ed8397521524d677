"""The one-op kernel of a ``convert`` case, compiled by Triton 3.9, and the counts read off its assembly.

``kernel_text`` writes the TTGIR module (pointers built in SRC, ``tt.load``, ``ttg.convert_layout`` SRC -> DST,
pointers built in DST, ``tt.store``; or the baselines ``src`` / ``dst`` without the convert); ``count_ptx`` /
``count_amdgcn`` histogram the mnemonics that move data between threads; ``backward_branches`` finds loops.

``compile_one`` needs the oracle interpreter (Triton 3.9.0); the golden generator runs it in a subprocess per kernel
(Triton aborts the process on some inputs)::

    /opt/oracle/venv/bin/python -m scripts.golden.kernel JOB_JSON      (from the repository root)

prints ``{"shared", "ops", "backward_branches", "convert_in_ttgir"}`` as one JSON line.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile

from .text import slice_

# target name -> (backend, arch, warp size)
TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "sm100": ("cuda", 100, 32),
    "gfx942": ("hip", "gfx942", 64),
    "gfx950": ("hip", "gfx950", 64),
    "gfx1200": ("hip", "gfx1200", 32),      # RDNA4, wave32: the only kind here that runs amd_wmma
}


def _tensor(shape, elem, layout) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{elem}, {layout}>"


def _pointer_block(lines: list[str], tag: str, layout: str, shape: list[int], base: str, elem: str) -> str:
    """Emit the ops building a tensor of pointers ``base + row-major offset`` in ``layout``; returns its name."""
    rank = len(shape)
    ptr = f"!tt.ptr<{elem}>"
    if rank == 1:
        lines.append(f"    %{tag}r0 = tt.make_range {{end = {shape[0]} : i32, start = 0 : i32}} : "
                     f"{_tensor(shape, 'i32', layout)}")
        off = f"%{tag}r0"
    else:
        parts = []
        for d in range(rank):
            stride = 1
            for s in shape[d + 1:]:
                stride *= s
            # chain[0] = layout; slice away every other dim, highest first
            chain, removed = [layout], []
            for k in reversed(range(rank)):
                if k != d:
                    chain.append(slice_(k, chain[-1]))
                    removed.append(k)
            one = chain[-1]
            name = f"%{tag}d{d}"
            lines.append(f"    {name}r = tt.make_range {{end = {shape[d]} : i32, start = 0 : i32}} : "
                         f"{_tensor([shape[d]], 'i32', one)}")
            cur = f"{name}r"
            if stride != 1:
                lines.append(f"    {name}c = arith.constant dense<{stride}> : {_tensor([shape[d]], 'i32', one)}")
                lines.append(f"    {name}m = arith.muli {cur}, {name}c : {_tensor([shape[d]], 'i32', one)}")
                cur = f"{name}m"
            cur_shape = [shape[d]]
            kept = [d]
            for step, k in enumerate(reversed(removed)):
                src_layout = chain[len(chain) - 1 - step]
                dst_layout = chain[len(chain) - 2 - step]
                kept = sorted(kept + [k])
                new_shape = [shape[x] if x == d else 1 for x in kept]
                lines.append(f"    {name}e{step} = tt.expand_dims {cur} {{axis = {k} : i32}} : "
                             f"{_tensor(cur_shape, 'i32', src_layout)} -> {_tensor(new_shape, 'i32', dst_layout)}")
                cur, cur_shape = f"{name}e{step}", new_shape
            lines.append(f"    {name}b = tt.broadcast {cur} : {_tensor(cur_shape, 'i32', layout)} -> "
                         f"{_tensor(shape, 'i32', layout)}")
            parts.append(f"{name}b")
        off = parts[0]
        for i, p in enumerate(parts[1:]):
            lines.append(f"    %{tag}s{i} = arith.addi {off}, {p} : {_tensor(shape, 'i32', layout)}")
            off = f"%{tag}s{i}"
    lines.append(f"    %{tag}p = tt.splat {base} : {ptr} -> {_tensor(shape, ptr, layout)}")
    lines.append(f"    %{tag}q = tt.addptr %{tag}p, {off} : {_tensor(shape, ptr, layout)}, "
                 f"{_tensor(shape, 'i32', layout)}")
    return f"%{tag}q"


def kernel_text(case: dict, variant: str = "cvt") -> str:
    """The TTGIR module of a case: ``cvt`` (load in SRC, convert, store in DST), ``src`` or ``dst`` (load and
    store in one layout, no convert)."""
    backend, arch, warp_size = TARGETS[case["target"]]
    target = f"cuda:{arch}" if backend == "cuda" else f"hip:{arch}"
    shape, elem = case["shape"], case["elem"]
    load_layout = "#dst" if variant == "dst" else "#src"
    store_layout = "#src" if variant == "src" else "#dst"
    lines = [f"#src = {case['src']}", f"#dst = {case['dst']}",
             f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {case["num_warps"]} : i32, '
             f'"ttg.threads-per-warp" = {warp_size} : i32, ttg.target = "{target}"}} {{',
             f"  tt.func public @cvt(%in: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}, "
             f"%out: !tt.ptr<{elem}> {{tt.divisibility = 16 : i32}}) attributes {{noinline = false}} {{"]
    src_ptr = _pointer_block(lines, "a", load_layout, shape, "%in", elem)
    lines.append(f"    %v = tt.load {src_ptr} : {_tensor(shape, '!tt.ptr<' + elem + '>', load_layout)}")
    value = "%v"
    if variant == "cvt":
        lines.append(f"    %w = ttg.convert_layout %v : {_tensor(shape, elem, '#src')} -> {_tensor(shape, elem, '#dst')}")
        value = "%w"
    dst_ptr = _pointer_block(lines, "b", store_layout, shape, "%out", elem)
    lines.append(f"    tt.store {dst_ptr}, {value} : {_tensor(shape, '!tt.ptr<' + elem + '>', store_layout)}")
    lines += ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)



# ----------------------------------------------------------------------------------------- assembly counts

NV_FAMILIES = ("shfl", "st.shared", "ld.shared", "stmatrix", "ldmatrix", "bar.", "barrier", "bra", "prmt",
               "selp", "atom.shared", "red.shared", "mapa", "ld.shared::cluster", "st.shared::cluster")
AMD_FAMILIES = ("ds_", "s_barrier", "v_permlane", "v_perm_b32", "s_cbranch", "s_branch", "v_cndmask",
                "v_readlane", "v_writelane", "v_readfirstlane", "v_mov_b32_dpp", "s_setprio")


def count_ptx(ptx: str) -> dict[str, int]:
    """Histogram of the PTX mnemonics of interest (full mnemonic, predicate stripped)."""
    hist: dict[str, int] = {}
    for raw in ptx.splitlines():
        line = raw.strip()
        if not line or line.startswith(("//", ".", "{", "}", "$")) or line.endswith(":"):
            continue
        line = re.sub(r"^@!?%p\d+\s+", "", line)
        mnem = line.split()[0].rstrip(";")
        if mnem.startswith(NV_FAMILIES):
            hist[mnem] = hist.get(mnem, 0) + 1
    return hist


def count_amdgcn(asm: str) -> dict[str, int]:
    """Histogram of the AMDGCN mnemonics of interest; DPP forms are keyed ``dpp:<mnemonic>``."""
    hist: dict[str, int] = {}
    for raw in asm.splitlines():
        line = raw.split(";")[0].strip()
        if not line or line.startswith((".", "//")) or line.endswith(":"):
            continue
        mnem = line.split()[0]
        if not re.fullmatch(r"[a-z][a-z0-9_]*", mnem):
            continue
        key = None
        if "row_" in line or "quad_perm" in line or "dpp" in mnem or "wave_" in line or "row_bcast" in line:
            key = f"dpp:{mnem}"
        elif mnem.startswith(AMD_FAMILIES):
            key = mnem
        if key:
            hist[key] = hist.get(key, 0) + 1
    return hist


def compile_one(job: dict) -> dict:
    """Compile one kernel of a case (in this process) and return its measurements."""
    import triton
    from triton.backends.compiler import GPUTarget
    backend, arch, warp_size = TARGETS[job["case"]["target"]]
    text = kernel_text(job["case"], job["variant"])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "k.ttgir")
        with open(path, "w") as f:
            f.write(text)
        k = triton.compile(path, target=GPUTarget(backend, arch, warp_size))
    if backend == "cuda":
        hist = count_ptx(k.asm["ptx"])
    else:
        hist = count_amdgcn(k.asm["amdgcn"])
    ttgir = k.asm.get("ttgir", "")
    return {"shared": int(k.metadata.shared), "ops": hist,
            "backward_branches": backward_branches(k.asm["ptx"] if backend == "cuda" else k.asm["amdgcn"]),
            "convert_in_ttgir": sum(1 for ln in ttgir.splitlines() if "ttg.convert_layout" in ln)}


def backward_branches(asm: str) -> int:
    """Branches to a label defined earlier in the text: the only way the kernel could loop."""
    seen, back = set(), 0
    for raw in asm.splitlines():
        line = raw.split("//")[0].split(";")[0].strip()
        m = re.match(r"^([$.\w]+):", line)
        if m:
            seen.add(m.group(1))
            continue
        m = re.search(r"\b(?:bra(?:\.uni)?|s_cbranch_\w+|s_branch)\s+([$.\w]+)", line)
        if m and m.group(1) in seen:
            back += 1
    return back



def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print(json.dumps(compile_one(json.loads(argv[0]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
