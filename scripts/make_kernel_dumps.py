#!/opt/oracle/venv/bin/python
"""Compile the kernels in tests/data/kernels/src/ with Triton 3.9 and write their TTGIR dumps and numbers.

Run with the oracle interpreter (Triton 3.9.0 installed), from anywhere:

    /opt/oracle/venv/bin/python scripts/make_kernel_dumps.py [--only KERNEL[,KERNEL]] [--targets sm90,...]

For every kernel x target (sm80, sm90, sm100, gfx942) one child process runs
``triton.compile(ASTSource(fn, signature, constexprs, attrs), target=GPUTarget(...))`` CPU-only and writes
``tests/data/kernels/<kernel>.<target>.ttgir`` (``k.asm["ttgir"]``, source locations kept).
``tests/data/kernels/numbers.json`` gets, per dump: the compile options, the compiler's ``metadata.shared``
(and ``tmem_size``, ``global_scratch_size``), the count of every operation in the dump as Triton's own
parser sees it (``ir.parse_mlir_module`` + ``walk`` of the written file), the size of the dump, and the
shared-memory / tensor-core instructions of the PTX or AMDGCN, by mnemonic. Failed compiles are recorded
under ``failures`` with the last line of the child's error. ttlayout never imports Triton; tests read only
the dumps and numbers.json.

Stable paths: kernels are imported from the repository-relative path ``tests/data/kernels/src/NAME.py`` with
the repository root as working directory, so Python's ``co_filename`` (which Triton writes into every
``loc("file":line:col)``) is already repository-relative. Locations inside Triton's own library
(``tl.sum``, ``tl.cumsum`` combine functions) carry the wheel's absolute path; the site-packages prefix is
cut, leaving ``triton/language/standard.py``-style paths.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import types
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC_DIR = Path("tests/data/kernels/src")
OUT_DIR = Path("tests/data/kernels")
CHILD_TIMEOUT_S = 300

TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "sm100": ("cuda", 100, 32),
    "gfx942": ("hip", "gfx942", 64),
}

# Ops whose count every dump records, present or not (the full histogram is recorded too).
KEY_OPS = (
    "ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store", "ttg.local_dealloc",
    "ttg.memdesc_index", "ttg.memdesc_trans", "ttg.async_copy_global_to_local", "ttg.async_commit_group",
    "ttg.async_wait", "ttng.async_tma_copy_global_to_local", "ttng.async_tma_copy_local_to_global",
    "ttng.tensormap_create", "tt.descriptor_load", "tt.descriptor_store", "amdg.buffer_load",
    "amdg.buffer_store", "amdg.buffer_load_to_local", "tt.load", "tt.store", "tt.reduce", "tt.scan",
    "tt.dot", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "ttng.tmem_alloc", "ttng.tmem_load",
    "ttng.tmem_store", "ttg.warp_specialize", "scf.for",
)


def _ptrs(dtype, *names):
    return {n: f"*{dtype}" for n in names}


def _ints(*names):
    return {n: "i32" for n in names}


# name -> (signature, constexprs, {target: options}); options may override "signature" and "constexprs" entries.
# Every pointer and integer argument is marked divisible by 16, as Triton's launcher does for such values, except
# the arguments an option "unaligned" names (a runtime value such as a start row, which the launcher would see odd).
def kernel_cases():
    """The compile configurations: realistic block sizes, warps and stages per target."""
    cuda = ("sm80", "sm90", "sm100")
    every = cuda + ("gfx942",)

    def per_target(num_warps, stages_cuda, stages_hip, targets=every, **extra):
        return {t: {"num_warps": num_warps, "num_stages": stages_hip if t == "gfx942" else stages_cuda, **extra}
                for t in targets}

    mm_sig = {**_ptrs("fp16", "a_ptr", "b_ptr", "c_ptr"), **_ints("M", "N", "K", "stride_am", "stride_bk", "stride_cm")}
    mm_blocks = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}
    red_sig = {**_ptrs("fp32", "x_ptr", "out_ptr"), **_ints("n_rows", "n_cols", "row_stride")}
    cases = {
        "vector_add": (
            {**_ptrs("fp32", "x_ptr", "y_ptr", "out_ptr"), **_ints("n")},
            {"BLOCK": 1024}, per_target(4, 3, 2)),
        "softmax": (
            {**_ptrs("fp16", "out_ptr", "in_ptr"), **_ints("in_row_stride", "out_row_stride", "n_rows", "n_cols")},
            {"BLOCK_M": 4, "BLOCK_N": 1024}, per_target(4, 3, 2)),
        "layer_norm": (
            {**_ptrs("fp16", "x_ptr", "y_ptr", "w_ptr", "b_ptr"), **_ptrs("fp32", "mean_ptr", "rstd_ptr"),
             **_ints("row_stride", "n_cols"), "eps": "fp32"},
            {"BLOCK_N": 2048}, per_target(8, 3, 2)),
        "matmul": (mm_sig, {**mm_blocks, "GROUP_M": 8}, per_target(8, 1, 1)),
        "matmul_pipelined": (
            mm_sig, mm_blocks,
            {"sm80": {"num_warps": 8, "num_stages": 3, "constexprs": {"NUM_STAGES": 3}},
             "sm90": {"num_warps": 8, "num_stages": 4, "constexprs": {"NUM_STAGES": 4}},
             "sm100": {"num_warps": 8, "num_stages": 4, "constexprs": {"NUM_STAGES": 4}},
             "gfx942": {"num_warps": 8, "num_stages": 2, "constexprs": {"NUM_STAGES": 2}}}),
        "matmul_epilogue_transpose": (
            {**_ptrs("fp16", "a_ptr", "b_ptr", "bias_ptr", "ct_ptr"),
             **_ints("M", "N", "K", "stride_am", "stride_bk", "stride_ctn")},
            mm_blocks, per_target(8, 3, 2)),
        "column_reduction": (
            {**_ptrs("fp32", "x_ptr", "out_ptr"), **_ints("n_rows", "n_cols", "row_stride")},
            {"BLOCK_M": 64, "BLOCK_N": 128}, per_target(4, 3, 2)),
        "transpose_copy": (
            {**_ptrs("fp32", "in_ptr", "out_ptr"), **_ints("n_rows", "n_cols", "in_stride", "out_stride")},
            {"BLOCK": 64}, per_target(4, 3, 2)),
        "flash_attention": (
            {**_ptrs("fp16", "q_ptr", "k_ptr", "v_ptr", "o_ptr"), **_ints("seq_len", "stride_tok", "stride_head"),
             "sm_scale": "fp32"},
            {"BLOCK_M": 128, "BLOCK_N": 64, "HEAD_DIM": 64}, per_target(4, 3, 2)),
        "fp8_matmul": (
            {**_ptrs("fp8e4nv", "a_ptr", "b_ptr"), **_ptrs("fp16", "c_ptr"),
             **_ints("M", "N", "K", "stride_am", "stride_bn", "stride_cm")},
            {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128},
            {"sm80": {"num_warps": 8, "num_stages": 3, "constexprs": {"NUM_STAGES": 3},
                      "signature": _ptrs("fp8e5", "a_ptr", "b_ptr")},
             "sm90": {"num_warps": 8, "num_stages": 3, "constexprs": {"NUM_STAGES": 3}},
             "sm100": {"num_warps": 8, "num_stages": 3, "constexprs": {"NUM_STAGES": 3}},
             "gfx942": {"num_warps": 8, "num_stages": 2, "constexprs": {"NUM_STAGES": 2},
                        "signature": _ptrs("fp8e4b8", "a_ptr", "b_ptr")}}),
        "cumsum": (
            {**_ptrs("fp32", "x_ptr", "out_ptr"), **_ints("n_rows", "n_cols", "row_stride")},
            {"BLOCK_M": 16, "BLOCK_N": 256}, per_target(4, 3, 2)),
        # issue 23: reductions along each axis with warps along the reduced axis, across it, or both
        "reduce_sum_axis0": (red_sig, {"BLOCK_M": 64, "BLOCK_N": 64}, per_target(4, 3, 2)),
        "reduce_sum_axis0_colmajor": (
            {**_ptrs("fp32", "x_ptr", "out_ptr"), **_ints("row_start", "n_rows", "n_cols", "col_stride")},
            {"BLOCK_M": 64, "BLOCK_N": 64}, per_target(4, 3, 2, unaligned=["row_start"])),
        "reduce_max_axis1": (red_sig, {"BLOCK_M": 64, "BLOCK_N": 64}, per_target(4, 3, 2)),
        "reduce_sum_axis1_wide": (red_sig, {"BLOCK_M": 16, "BLOCK_N": 256}, per_target(8, 3, 2)),
        "reduce_max_axis0_wide": (red_sig, {"BLOCK_M": 16, "BLOCK_N": 512}, per_target(4, 3, 2)),
        "reduce_argmax_axis1": (
            {**_ptrs("fp16", "x_ptr"), **_ptrs("i32", "out_ptr"), **_ints("n_rows", "n_cols", "col_stride")},
            {"BLOCK_M": 64, "BLOCK_N": 64}, per_target(4, 3, 2)),
        "matmul_tma": (
            {**_ptrs("fp16", "a_ptr", "b_ptr", "c_ptr"), **_ints("M", "N", "K")},
            {**mm_blocks},
            {t: {"num_warps": 4, "num_stages": 3,
                 "constexprs": {"NUM_STAGES": 3, "WARP_SPECIALIZE": t in ("sm90", "sm100")}} for t in every}),
        # issue 30: the global-access classes (loops over columns, pointers carried by a loop, a store whose
        # contiguous dim is not the loaded tile's, a 3-D load, gathers and an atomic, AMD buffer ops)
        "layer_norm_loop": (
            {**_ptrs("fp16", "x_ptr", "y_ptr", "w_ptr", "b_ptr"), **_ints("row_stride", "n_cols"), "eps": "fp32"},
            {"BLOCK_N": 1024}, per_target(4, 3, 2)),
        "online_softmax": (
            {**_ptrs("fp16", "out_ptr", "in_ptr"), **_ints("row_stride", "n_cols")},
            {"BLOCK_N": 1024}, per_target(4, 3, 2)),
        "matmul_kloop": (mm_sig, {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, per_target(4, 1, 1)),
        "store_transposed": (
            {**_ptrs("fp32", "in_ptr", "out_ptr"), **_ints("in_stride", "out_stride")},
            {"BLOCK": 64}, per_target(4, 3, 2)),
        "load_3d": (
            {**_ptrs("fp16", "x_ptr", "out_ptr"), **_ints("batch_stride", "row_stride")},
            {"BLOCK_B": 4, "BLOCK_M": 16, "BLOCK_N": 64}, per_target(4, 3, 2)),
        "gather_rows": (
            {**_ptrs("fp32", "table_ptr", "out_ptr", "hist_ptr"), **_ptrs("i32", "idx_ptr"), **_ints("row_stride")},
            {"BLOCK_R": 16, "BLOCK_N": 128}, per_target(4, 3, 2)),
        "buffer_copy": (
            {**_ptrs("fp16", "x_ptr", "out_ptr"), **_ints("n")},
            {"BLOCK": 2048}, per_target(4, 3, 2)),
    }
    return cases


# Kernels that scripts/make_kernel_cache.py leaves out of tests/data/cache (issue 30's global-access kernels: their
# assembly's global instructions per Python line are in tests/data/kernels/global_lines.json; the cache's PTX and
# AMDGCN would add about 4.6 MB).
NOT_CACHED = ("buffer_copy", "gather_rows", "layer_norm_loop", "load_3d", "matmul_kloop", "online_softmax",
              "store_transposed")


# Where each file of tests/data/triton_lit/ comes from (repository triton-lang/triton, MIT licence).
LIT_SOURCES = {
    # file name -> path in triton-lang/triton, commit (where the search index named one), the index's id
    # (where the file was found by a text search, which names no commit), and how much of the file is kept.
    "amd-block-pingpong.mlir": {
        "source": "test/TritonGPU/amd/amd-block-pingpong.mlir", "commit": None, "index_id": "1449155725",
        "extent": "first 2 modules of 163790 characters"},
    "automatic-warp-specialization.mlir": {
        "source": "test/TritonGPU/automatic-warp-specialization.mlir",
        "commit": "002578c4a3cc48c0f1be2349d504ea1be36c337a", "extent": "first module of 20991 characters"},
    "coalesce.mlir": {
        "source": "test/TritonGPU/coalesce.mlir", "commit": "03184de8b535bb24fb1f49cc1f5e008bcbaa73ef",
        "extent": "whole file (pre-3.2 triton_gpu dialect syntax)"},
    "combine.mlir": {
        "source": "test/TritonGPU/combine.mlir", "commit": None, "index_id": "326241281",
        "extent": "first module of 261261 characters"},
    "fuse_tmem_load_reduce.mlir": {
        "source": "test/TritonNvidiaGPU/fuse_tmem_load_reduce.mlir",
        "commit": "b8ad40cc02c3de206e88f3bc7638f91789e49cee", "extent": "first 3 of 9 modules"},
    "global_scratch_alloc.mlir": {
        "source": "test/TritonNvidiaGPU/global_scratch_alloc.mlir",
        "commit": "3e3e60bbd7b058ddb231c641d97810842220a24a",
        "extent": "whole file (triton_gpu syntax; its '// ----' is no split marker)"},
    "optimize_epilogue.mlir": {
        "source": "test/TritonGPU/optimize_epilogue.mlir", "commit": "00f404aa480f5abca6c10503046674b94cafdd61",
        "extent": "whole file (pre-3.2 triton_gpu dialect syntax)"},
    "reduce-data-duplication.mlir": {
        "source": "test/TritonGPU/reduce-data-duplication.mlir", "commit": None, "index_id": "855308039",
        "extent": "whole file"},
    "tensor_layout_print.mlir": {
        "source": "test/Tools/tensor_layout_print.mlir", "commit": "107fac878baaa1ef4efd7d1c4d49141a74a77d0e",
        "extent": "whole file"},
    "test-allocation-partitioned.mlir": {
        "source": "test/Analysis/test-allocation-partitioned.mlir",
        "commit": "0b3ee4d37c1b82763c59a67b320b965b330be19b", "extent": "whole file"},
}

# Compiles expected to fail, kept to record Triton's reason: name -> (kernel, target, overrides, why).
PROBES = {
    "fp8_matmul.sm80.fp8e4nv": (
        "fp8_matmul", "sm80", {"signature": _ptrs("fp8e4nv", "a_ptr", "b_ptr")},
        "float8e4nv needs compute capability >= 89; the sm80 dump uses fp8e5 instead"),
}


# ----------------------------------------------------------------------------- child: one compile

def stable_paths(text: str, site_packages: str) -> str:
    """Cut the wheel's install prefix from Triton-library locations: '/x/site-packages/triton/a.py' -> 'triton/a.py'."""
    return text.replace(site_packages.rstrip("/") + "/", "")


PTX_SHARED = re.compile(r"\.shared|^ldmatrix|^stmatrix|^cp\.async|^wgmma|^tcgen05|^mbarrier|^bar\.|^barrier")
GCN_SHARED = re.compile(r"^ds_|^s_barrier|^v_mfma|^buffer_load.*lds|^global_load_lds")


def ptx_instruction_mnemonics(ptx: str):
    """Opcode of each PTX instruction (predicate guard dropped); directives, labels and comments skipped."""
    for line in ptx.splitlines():
        s = line.strip()
        if not s or s.startswith(("//", ".", "}", "{", ")", "(")) or s.endswith(":"):
            continue
        if s.startswith("@"):
            s = s.split(None, 1)[1] if " " in s else ""
        op = s.split(None, 1)[0].rstrip(";") if s else ""
        if op and re.match(r"^[a-z]", op):
            yield op


def gcn_instruction_mnemonics(asm: str):
    """Opcode of each AMDGCN instruction, with an ' lds' modifier kept as '+lds' (buffer_load ... lds)."""
    for line in asm.splitlines():
        s = line.split(";", 1)[0].strip()
        if not s or s.startswith((".", "#")) or s.endswith(":"):
            continue
        parts = s.split()
        if not re.match(r"^[a-z_][a-z0-9_]*$", parts[0]):
            continue
        yield parts[0] + ("+lds" if parts[0].startswith(("buffer_load", "global_load")) and " lds" in s else "")


def shared_instruction_counts(asm: str, is_ptx: bool) -> dict:
    mnems = ptx_instruction_mnemonics(asm) if is_ptx else gcn_instruction_mnemonics(asm)
    pattern = PTX_SHARED if is_ptx else GCN_SHARED
    counts = collections.Counter(m for m in mnems if pattern.search(m))
    return dict(sorted(counts.items()))


def op_histogram(path: Path, backend_name: str) -> dict:
    """Every operation in the dump, counted by walking Triton's own parse of the file."""
    from triton._C.libtriton import amd, ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    (nvidia if backend_name == "cuda" else amd).load_dialects(ctx)
    mod = ir.parse_mlir_module(str(path), ctx)
    names = []
    mod.walk(lambda op: names.append(op.get_name()))
    return dict(sorted(collections.Counter(names).items()))


def load_relative_module(rel_path: Path) -> types.ModuleType:
    """Import a file so that its code objects carry the relative path (importlib would make it absolute)."""
    module = types.ModuleType(f"kernel_src_{rel_path.stem}")
    module.__file__ = str(rel_path)
    sys.modules[module.__name__] = module
    exec(compile(rel_path.read_text(), str(rel_path), "exec"), module.__dict__)
    return module


def compile_config(kernel: str, target: str, overrides: dict) -> tuple:
    """(signature, constexprs, compile options, arguments left without tt.divisibility) for one compile."""
    signature, constexprs, per_target = kernel_cases()[kernel]
    opts = {**per_target[target], **overrides}
    signature = {**signature, **opts.pop("signature", {})}
    constexprs = {**constexprs, **opts.pop("constexprs", {})}
    unaligned = opts.pop("unaligned", [])
    return signature, constexprs, opts, unaligned


def divisibility_attrs(arg_names: list, signature: dict, unaligned: list) -> dict:
    """`tt.divisibility = 16` on every pointer and i32 argument but the unaligned ones, keyed as ASTSource wants."""
    return {(arg_names.index(n),): [["tt.divisibility", 16]]
            for n, ty in signature.items() if (ty.startswith("*") or ty == "i32") and n not in unaligned}


def compile_one(kernel: str, target: str, probe: str | None = None) -> dict:
    """Compile one kernel for one target; write its dump (not for a probe) and return its numbers."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    os.chdir(REPO)
    fn = getattr(load_relative_module(SRC_DIR / f"{kernel}.py"), kernel)
    signature, constexprs, opts, unaligned = compile_config(kernel, target, PROBES[probe][2] if probe else {})
    full_sig = {name: ("constexpr" if name in constexprs else signature[name]) for name in fn.arg_names}
    attrs = divisibility_attrs(fn.arg_names, signature, unaligned)
    backend, arch, warp = TARGETS[target]
    k = triton.compile(ASTSource(fn, full_sig, constexprs, attrs), target=GPUTarget(backend, arch, warp),
                       options=opts)
    if probe:
        return {"probe": probe, "kernel": kernel, "target": target, "compiled": True}

    site_packages = str(Path(triton.__file__).resolve().parent.parent)
    ttgir = stable_paths(k.asm["ttgir"], site_packages)
    out = OUT_DIR / f"{kernel}.{target}.ttgir"
    out.write_text(ttgir)
    md = k.metadata
    is_ptx = backend == "cuda"
    asm = k.asm["ptx" if is_ptx else "amdgcn"]
    lines = ttgir.splitlines()
    return {
        "kernel": kernel, "target": target, "file": out.name, "source": str(SRC_DIR / f"{kernel}.py"),
        "gpu_target": [backend, arch, warp],
        "signature": {n: full_sig[n] for n in fn.arg_names if full_sig[n] != "constexpr"},
        "constexprs": constexprs,
        "options": opts,
        **({"unaligned": unaligned} if unaligned else {}),
        "num_warps": md.num_warps, "threads_per_warp": md.warp_size, "num_stages": md.num_stages,
        "num_ctas": md.num_ctas,
        "shared": md.shared, "tmem_size": getattr(md, "tmem_size", 0),
        "global_scratch_size": md.global_scratch_size,
        "bytes": len(ttgir.encode()), "sha256": hashlib.sha256(ttgir.encode()).hexdigest(), "lines": len(lines),
        "loc_alias_lines": sum(1 for l in lines if re.match(r"^#loc\d* = loc\(", l)),
        "ops": op_histogram(out, backend),
        "asm_kind": "ptx" if is_ptx else "amdgcn",
        "asm_shared_instructions": shared_instruction_counts(asm, is_ptx),
    }


# ----------------------------------------------------------------------------- Triton lit files

LIT_DIR = Path("tests/data/triton_lit")


def split_modules(text: str) -> list[str]:
    """The chunks of a lit file as `triton-opt -split-input-file` cuts it: at lines starting '// -----'."""
    chunks, current = [], []
    for line in text.splitlines(keepends=True):
        if line.startswith("// -----"):
            chunks.append("".join(current))
            current = []
        else:
            current.append(line)
    chunks.append("".join(current))
    return chunks


def parse_status(chunk: str, ctx, ir) -> dict:
    """Parse (and verify) one chunk with Triton's MLIR parser in a forked child; its diagnostic if it fails."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(chunk)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        os.dup2(write_fd, 2)
        try:
            ir.parse_mlir_module(f.name, ctx)
            os._exit(0)
        except Exception:
            os._exit(1)
    os.close(write_fd)
    with os.fdopen(read_fd) as r:
        err = r.read()
    _, status = os.waitpid(pid, 0)
    os.unlink(f.name)
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return {"parses": True}
    lines = [l for l in err.splitlines() if "error:" in l] or err.splitlines() or ["(no diagnostic)"]
    message = re.sub(r'^loc\("[^"]*":', 'loc(', lines[0].strip())
    return {"parses": False, "diagnostic": message[:300]}


def lit_manifest() -> dict:
    """Per lit file: size, module count, and which modules Triton 3.9's parser (with verifier) accepts."""
    from triton._C.libtriton import amd, ir, nvidia
    ctx = ir.context()
    ir.load_dialects(ctx)
    nvidia.load_dialects(ctx)
    amd.load_dialects(ctx)
    files = {}
    for path in sorted((REPO / LIT_DIR).glob("*.mlir")):
        text = path.read_text()
        statuses = [parse_status(c, ctx, ir) for c in split_modules(text)]
        files[path.name] = {
            **LIT_SOURCES.get(path.name, {}),
            "bytes": len(text.encode()), "sha256": hashlib.sha256(text.encode()).hexdigest(),
            "modules": len(statuses),
            "modules_parsed_by_triton": sum(s["parses"] for s in statuses),
            "module_status": statuses,
        }
        print(f"{path.name:45s} {files[path.name]['modules_parsed_by_triton']}/{len(statuses)}", flush=True)
    return files


# ----------------------------------------------------------------------------- parent

def run_child(kernel: str, target: str, cache_dir: str, probe: str | None = None) -> dict:
    """Run compile_one in a fresh interpreter (Triton may abort the process); failures become records."""
    env = dict(os.environ, TRITON_CACHE_DIR=cache_dir, TRITON_DEFAULT_FP_FUSION="1")
    cmd = [sys.executable, __file__, "--child", kernel, target] + (["--probe", probe] if probe else [])
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    if proc.returncode == 0:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    err = [l.strip() for l in proc.stderr.splitlines() if l.strip()]
    reason = next((l for l in reversed(err) if re.match(r"^[\w.]*(Error|Exception)\b", l)), err[-1] if err else "")
    return {"kernel": kernel, "target": target, "failed": True, "returncode": proc.returncode,
            "reason": reason[:500], **({"probe": probe} if probe else {})}


def with_key_ops(entry: dict) -> dict:
    entry["key_ops"] = {op: entry["ops"].get(op, 0) for op in KEY_OPS}
    return entry


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=2, metavar=("KERNEL", "TARGET"), help=argparse.SUPPRESS)
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    ap.add_argument("--only", help="comma-separated kernels (default: all); merges into numbers.json")
    ap.add_argument("--targets", default=",".join(TARGETS), help="comma-separated targets")
    ap.add_argument("--lit", action="store_true", help="only rewrite tests/data/triton_lit/manifest.json")
    args = ap.parse_args(argv)
    if args.lit:
        import triton
        manifest = {"triton_version": triton.__version__, "files": lit_manifest()}
        (REPO / LIT_DIR / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        return 0
    if args.child:
        print(json.dumps(compile_one(*args.child, probe=args.probe)))
        return 0

    kernels = args.only.split(",") if args.only else sorted(kernel_cases())
    targets = args.targets.split(",")
    numbers_path = REPO / OUT_DIR / "numbers.json"
    numbers = json.loads(numbers_path.read_text()) if args.only and numbers_path.exists() else {}
    dumps = {d["file"]: d for d in numbers.get("dumps", [])}
    failures = {(f["kernel"], f["target"], f.get("probe", "")): f for f in numbers.get("failures", [])}
    with tempfile.TemporaryDirectory(prefix="triton-cache-") as cache:
        for kernel in kernels:
            for target in targets:
                res = run_child(kernel, target, cache)
                name = f"{kernel}.{target}.ttgir"
                if res.get("failed"):
                    failures[(kernel, target, "")] = res
                    dumps.pop(name, None)
                    (REPO / OUT_DIR / name).unlink(missing_ok=True)
                    print(f"FAIL {kernel:28s} {target:7s} {res['reason'][:150]}", flush=True)
                else:
                    failures.pop((kernel, target, ""), None)
                    dumps[name] = with_key_ops(res)
                    print(f"ok   {kernel:28s} {target:7s} {res['bytes']:7d} B shared={res['shared']}", flush=True)
        for probe, (kernel, target, _, why) in PROBES.items():
            if kernel in kernels and target in targets:
                res = {**run_child(kernel, target, cache, probe), "why": why}
                failures[(kernel, target, probe)] = res
                print(f"probe {probe}: {res.get('reason', 'compiled')[:150]}", flush=True)
    import triton
    numbers = {
        "triton_version": triton.__version__,
        "generator": "scripts/make_kernel_dumps.py",
        "key_ops": list(KEY_OPS),
        "dumps": [dumps[k] for k in sorted(dumps)],
        "failures": [failures[k] for k in sorted(failures)],
    }
    numbers_path.write_text(json.dumps(numbers, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
