#!/opt/oracle/venv/bin/python
"""Write tests/data/cache/, a real Triton 3.9 cache of the kernels in tests/data/kernels/src, and count its assembly.

Run with the oracle interpreter (Triton 3.9.0, CPU only), from anywhere:

    /opt/oracle/venv/bin/python scripts/make_kernel_cache.py

Every kernel of scripts/make_kernel_dumps.py (same sources, signatures, constexprs, options and ``tt.divisibility``
attributes) is compiled for sm80, sm90, sm100 and gfx942 with
``triton.compile(ASTSource(...), target=GPUTarget(...))``, each compile in its own child process, with
``TRITON_CACHE_DIR=tests/data/cache`` (a relative path, from the repository root) and no other ``TRITON_*``
variable set, so the cache is what a user's run writes: one ``<base32 hash>/`` directory per compile holding
``NAME.source``, ``NAME.ttir``, ``NAME.ttgir``, ``NAME.llir``, ``NAME.ptx`` or ``NAME.amdgcn``, ``NAME.json`` (the
metadata) and ``__grp__NAME.json`` (the group: the paths of those files, relative because the cache directory
is). ``VARIANTS`` adds compiles of one kernel with other constexprs and warps, so that one kernel name has two
versions in the cache.

Then, as the compiler wrote them except:
- the binaries (``NAME.cubin``, ``NAME.hsaco``) are deleted to keep the data small; ``__grp__NAME.json`` still
  names them (so Triton itself would take these entries for misses and compile again);
- in the text files the install prefix of Triton's own library (``.../site-packages/``) is cut, as
  scripts/make_kernel_dumps.py does: ``triton/language/standard.py``,
  ``triton/backends/nvidia/lib/libdevice.10.bc``. The hash directories are the compiler's own (the hash is of
  the source, options and Triton, not of these paths). The kernels' own paths need no change: they are imported
  from ``tests/data/kernels/src/NAME.py`` with the repository root as working directory.

Before the binary goes, each child checks scripts/asm_counts.py's reading of the AMDGCN text's DWARF (the inlined
call sites and their ranges) against the hsaco's own DWARF, read with pyelftools (``pip install pyelftools`` into
the oracle venv), and its attribution of every instruction against LLVM's ``@[ file:line ]`` comments.

Outputs besides the cache:
- ``tests/data/cache_counts.json``: per cache entry (``<hash dir>/<name>``), scripts/asm_counts.py's counts per
  Python line of the kernel's source, the unattributed ones and the kernel's totals;
- ``tests/data/cache/compiled_kernel_shape.json``: what a Triton 3.9 ``CompiledKernel`` looks like (attributes,
  ``asm`` keys, ``metadata`` fields and types, ``metadata.target``), from a CUDA and a HIP compile, for a
  duck-typed stand-in in tests that run without Triton.
The output is deterministic: a second run rewrites the same bytes.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = Path("tests/data/cache")
COUNTS = Path("tests/data/cache_counts.json")
SHAPE = CACHE / "compiled_kernel_shape.json"
BINARY_SUFFIXES = (".cubin", ".hsaco")
CHILD_TIMEOUT_S = 300

# Extra versions of one kernel: name -> (kernel, target, option overrides as in make_kernel_dumps' cases).
VARIANTS = {
    "softmax.sm90.wide": ("softmax", "sm90", {"num_warps": 8, "constexprs": {"BLOCK_M": 2, "BLOCK_N": 2048}}),
}
# The compiles whose CompiledKernel is described in compiled_kernel_shape.json.
SHAPE_FROM = (("softmax", "sm90"), ("softmax", "gfx942"))


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


dumps = load_script("make_kernel_dumps")
asm_counts = load_script("asm_counts")


# ----------------------------------------------------------------------------- child: one compile

def jsonable(value):
    """A JSON value for a metadata field (tuples as lists, objects by their repr)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return repr(value)


def kernel_shape(k, site_packages: str) -> dict:
    """The attributes of a CompiledKernel that a duck-typed stand-in needs, with their types and this compile's values
    (Triton's install prefix cut). Only the instance's own attributes are read: nothing touches a driver."""
    md = k.metadata
    target = md.target
    cut = lambda v: json.loads(dumps.stable_paths(json.dumps(jsonable(v)), site_packages))  # noqa: E731
    return {
        "class": f"{type(k).__module__}.{type(k).__qualname__}",
        "attributes": {name: type(value).__name__ for name, value in sorted(vars(k).items())},
        "name": k.name,
        "hash": k.hash,
        "asm_type": type(k.asm).__name__,
        "asm": {key: type(value).__name__ for key, value in sorted(k.asm.items())},
        "metadata_type": type(md).__name__,
        "metadata_is_namedtuple": isinstance(md, tuple) and hasattr(md, "_fields"),
        "metadata_fields": list(md._fields),
        "metadata": {f: {"type": type(getattr(md, f)).__name__, "value": cut(getattr(md, f))} for f in md._fields},
        "target": {"type": f"{type(target).__module__}.{type(target).__qualname__}", "repr": repr(target),
                   "backend": target.backend, "arch": target.arch, "warp_size": target.warp_size},
        "metadata_group": sorted(k.metadata_group),
    }


def dwarf_inlined_from_binary(hsaco: bytes) -> list:
    """(depth, (call file, line, column), number of ranges) of each DW_TAG_inlined_subroutine in the hsaco's DWARF."""
    from elftools.elf.elffile import ELFFile
    elf = ELFFile(io.BytesIO(hsaco))
    if not elf.has_dwarf_info():
        return []
    dwarf = elf.get_dwarf_info()
    ranges = dwarf.range_lists()
    out = []
    for cu in dwarf.iter_CUs():
        for die in cu.iter_DIEs():
            if die.tag != "DW_TAG_inlined_subroutine":
                continue
            depth, parent = 0, die.get_parent()
            while parent is not None and parent.tag == "DW_TAG_inlined_subroutine":
                depth, parent = depth + 1, parent.get_parent()
            at = die.attributes
            if "DW_AT_ranges" in at:
                n = sum(1 for r in ranges.get_range_list_at_offset(at["DW_AT_ranges"].value)
                        if type(r).__name__ == "RangeEntry")
            else:
                n = 1
            call = tuple(at[a].value for a in ("DW_AT_call_file", "DW_AT_call_line", "DW_AT_call_column"))
            out.append((depth, call, n))
    return out


def check_amdgcn_inlining(amdgcn: str, hsaco: bytes) -> dict:
    """asm_counts' text DWARF against the binary's, and its per-instruction call sites against LLVM's comments."""
    text_dies = [(d["depth"], d["call"], len(d["ranges"])) for d in asm_counts.inlined_subroutines(amdgcn)]
    binary_dies = dwarf_inlined_from_binary(hsaco)
    if text_dies != binary_dies:
        raise AssertionError(f"DWARF of the text {text_dies} != DWARF of the hsaco {binary_dies}")
    files = asm_counts.file_table(amdgcn)
    own = asm_counts.kernel_file(amdgcn, "amdgcn")
    own_name = os.path.basename(files[own])
    located = list(asm_counts.located_instructions(amdgcn, "amdgcn"))
    comments = asm_counts.gcn_comment_chains(amdgcn)
    if len(located) != len(comments):
        raise AssertionError(f"{len(located)} instructions located, {len(comments)} seen by the comment reader")
    for i, ((mnemonic, _, chain), comment) in enumerate(zip(located, comments)):
        by_dwarf = next((c[1] for c in reversed(chain) if c[0] == own and c[1] > 0), None)
        by_comment = next((line for name, line in reversed(comment) if name == own_name and line > 0), None)
        if by_dwarf != by_comment:
            raise AssertionError(f"instruction {i} ({mnemonic}): DWARF line {by_dwarf}, LLVM comment line {by_comment}")
    return {"inlined_subroutines": len(text_dies), "instructions_checked": len(located)}


def compile_one(kernel: str, target: str, variant: str | None) -> dict:
    """Compile into the cache (cwd: the repository root); return where it went and the binary-dependent checks."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    os.chdir(REPO)
    fn = getattr(dumps.load_relative_module(dumps.SRC_DIR / f"{kernel}.py"), kernel)
    overrides = VARIANTS[variant][2] if variant else {}
    signature, constexprs, opts, unaligned = dumps.compile_config(kernel, target, overrides)
    full_sig = {name: ("constexpr" if name in constexprs else signature[name]) for name in fn.arg_names}
    attrs = dumps.divisibility_attrs(fn.arg_names, signature, unaligned)
    backend, arch, warp = dumps.TARGETS[target]
    k = triton.compile(ASTSource(fn, full_sig, constexprs, attrs), target=GPUTarget(backend, arch, warp),
                       options=opts)
    site_packages = str(Path(triton.__file__).resolve().parent.parent)
    directory = Path(k.metadata_group[f"{k.name}.json"]).parent
    # Triton names the directory base32(sha256 of the cache key) without padding; k.hash is that sha256 in hex
    assert directory.name == base64.b32encode(bytes.fromhex(k.hash)).decode().rstrip("="), directory
    result = {"kernel": kernel, "target": target, "variant": variant, "dir": directory.name, "name": k.name,
              "site_packages": site_packages, "shared": k.metadata.shared, "num_warps": k.metadata.num_warps,
              "constexprs": constexprs, "options": opts}
    if backend == "hip":
        result["dwarf_check"] = check_amdgcn_inlining(k.asm["amdgcn"], k.asm["hsaco"])
    if (kernel, target) in SHAPE_FROM and not variant:
        result["shape"] = kernel_shape(k, site_packages)
    return result


# ----------------------------------------------------------------------------- parent

def child_env() -> dict:
    """This environment without any TRITON_* variable, plus the (relative) cache directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRITON_")}
    env["TRITON_CACHE_DIR"] = str(CACHE)
    env["PYTHONWARNINGS"] = "ignore"  # Triton 3.9 warns that TRITON_DEFAULT_FP_FUSION is unset
    return env


def run_child(kernel: str, target: str, variant: str | None = None) -> dict:
    cmd = [sys.executable, __file__, "--child", kernel, target] + (["--variant", variant] if variant else [])
    proc = subprocess.run(cmd, cwd=REPO, env=child_env(), capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    if proc.returncode == 0:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    err = [line.strip() for line in proc.stderr.splitlines() if line.strip()]
    return {"kernel": kernel, "target": target, "variant": variant, "failed": True, "returncode": proc.returncode,
            "reason": (err[-1] if err else "")[:500]}


def finish_entry(directory: Path, site_packages: str) -> None:
    """Drop the binaries and cut Triton's install prefix from the text files of one cache directory."""
    for path in sorted(directory.iterdir()):
        if path.suffix in BINARY_SUFFIXES:
            path.unlink()
            continue
        text = path.read_text()
        cut = dumps.stable_paths(text, site_packages)
        if cut != text:
            path.write_text(cut)


def target_name(meta: dict) -> str:
    """'sm90' / 'gfx942' from a NAME.json's target."""
    t = meta["target"]
    return f"sm{t['arch']}" if t["backend"] == "cuda" else str(t["arch"])


def cache_counts(entries: list) -> dict:
    """asm_counts over every entry's PTX/AMDGCN as stored in the cache."""
    out = {}
    for e in sorted(entries, key=lambda e: (e["kernel"], e["target"], e["variant"] or "", e["dir"])):
        directory = REPO / CACHE / e["dir"]
        asm = next(p for p in (directory / f"{e['name']}.ptx", directory / f"{e['name']}.amdgcn") if p.exists())
        counts = asm_counts.count_file(asm)
        out[f"{e['dir']}/{e['name']}"] = {
            "kernel": e["kernel"], "target": e["target"], "variant": e["variant"], "asm": asm.name,
            "asm_sha256": hashlib.sha256(asm.read_bytes()).hexdigest(), **counts}
    return out


def tree_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=2, metavar=("KERNEL", "TARGET"), help=argparse.SUPPRESS)
    ap.add_argument("--variant", help=argparse.SUPPRESS)
    ap.add_argument("--recount", action="store_true",
                    help="compile nothing: count the stored assembly again into tests/data/cache_counts.json")
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(compile_one(*args.child, args.variant)))
        return 0
    if args.recount:
        old = json.loads((REPO / COUNTS).read_text())
        entries = [{"dir": key.split("/")[0], "name": key.split("/")[1], "kernel": e["kernel"], "target": e["target"],
                    "variant": e["variant"]} for key, e in old["entries"].items()]
        old["entries"] = cache_counts(entries)
        (REPO / COUNTS).write_text(json.dumps(old, indent=1) + "\n")
        return 0

    start = time.monotonic()
    cache = REPO / CACHE
    cache.mkdir(parents=True, exist_ok=True)
    for path in cache.iterdir():  # a fresh cache; the README stays
        if path.is_dir():
            shutil.rmtree(path)
        elif path.name != "README.md":
            path.unlink()
    jobs = [(k, t, None) for k in sorted(dumps.kernel_cases()) if k not in dumps.NOT_CACHED for t in dumps.TARGETS]
    jobs += [(k, t, v) for v, (k, t, _) in sorted(VARIANTS.items())]
    entries, failures, shapes = [], [], {}
    for kernel, target, variant in jobs:
        res = run_child(kernel, target, variant)
        label = f"{kernel:28s} {target:7s} {variant or ''}"
        if res.get("failed"):
            failures.append(res)
            print(f"FAIL {label} {res['reason'][:150]}", flush=True)
            continue
        finish_entry(cache / res["dir"], res.pop("site_packages"))
        if "shape" in res:
            shapes[f"{kernel}.{target}"] = res.pop("shape")
        entries.append(res)
        print(f"ok   {label} {res['dir'][:12]}.. shared={res['shared']} {res.get('dwarf_check', '')}", flush=True)
    import triton
    (REPO / SHAPE).write_text(json.dumps({"triton_version": triton.__version__, "generator": "scripts/make_kernel_cache.py",
                                      "compiled_kernels": shapes}, indent=1) + "\n")
    counts = {"triton_version": triton.__version__, "generator": "scripts/make_kernel_cache.py (scripts/asm_counts.py)",
              "classes": list(asm_counts.CLASSES), "failures": failures, "entries": cache_counts(entries)}
    (REPO / COUNTS).write_text(json.dumps(counts, indent=1) + "\n")
    dirs = [p for p in cache.iterdir() if p.is_dir()]
    assert len(dirs) == len(entries), "two compiles shared one hash directory"
    print(f"{len(entries)} cache entries, {len(failures)} failures, cache {tree_bytes(cache)} bytes, "
          f"counts {(REPO / COUNTS).stat().st_size} bytes, {time.monotonic() - start:.0f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
