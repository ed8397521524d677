#!/opt/oracle/venv/bin/python
"""Capture Triton 3.9's MLIR_ENABLE_DUMP=1 output of one real compile into tests/data/dumps/ (test data, issue 24).

Run with the oracle interpreter (Triton 3.9.0, CPU only), from anywhere:

    /opt/oracle/venv/bin/python scripts/make_mlir_dump.py

The softmax kernel of tests/data/kernels/src is compiled for sm90 with its scripts/make_kernel_dumps.py
configuration (same signature, constexprs, options and ``tt.divisibility``), in a child process whose environment
has ``MLIR_ENABLE_DUMP=1``, ``TRITON_ALWAYS_COMPILE=1`` and a fresh temporary ``TRITON_CACHE_DIR`` (so the passes
really run) and no other ``TRITON_*`` or ``MLIR_*`` variable. MLIR prints the module before every pass to stderr
under a header ``// -----// IR Dump Before PASS ... ('OP' operation[: @SYMBOL]) //----- //`` (Triton's software
pipeliner adds its own ``// -----// SoftwarePipeliner internal IR Dump After: STEP``); the child's stderr is the dump, written as ``softmax.sm90.mlir_dump.txt``. One change, as in scripts/make_kernel_dumps.py: the install
prefix of Triton's own library (``.../site-packages/``) is cut from locations, leaving ``triton/language/...``.
The kernel's own locations are repository-relative already (it is imported from tests/data/kernels/src with the
repository root as working directory). Python warnings are silenced in the child so that stderr holds only the
dump. ``manifest.json`` records the size, hash and every header (pass, options, operation, symbol) in order.
The output is deterministic.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = Path("tests/data/dumps")
KERNEL, TARGET = "softmax", "sm90"
DUMP_NAME = f"{KERNEL}.{TARGET}.mlir_dump.txt"
HEADER = re.compile(r"^// -----// IR Dump Before (\w+):? (.*?) ?\('([\w.]+)' operation(?:: @(\S+?))?\) //----- //$", re.M)


def describe_header(line: str) -> dict:
    """{'pass', 'options', 'op', 'symbol'} of an MLIR 'IR Dump Before' header; {'text'} of any other '// -----//'
    header (Triton's software pipeliner prints '// -----// SoftwarePipeliner internal IR Dump After: LowerLoops')."""
    m = HEADER.match(line)
    if not m:
        return {"text": line}
    name, options, op, symbol = m.groups()
    return {"pass": name, "options": options, "op": op, **({"symbol": symbol} if symbol else {})}


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def compile_in_child() -> None:
    """The child: compile the kernel once (MLIR prints the dump on stderr); print Triton's install prefix."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    dumps = load_script("make_kernel_dumps")
    os.chdir(REPO)
    fn = getattr(dumps.load_relative_module(dumps.SRC_DIR / f"{KERNEL}.py"), KERNEL)
    signature, constexprs, opts, unaligned = dumps.compile_config(KERNEL, TARGET, {})
    full_sig = {name: ("constexpr" if name in constexprs else signature[name]) for name in fn.arg_names}
    attrs = dumps.divisibility_attrs(fn.arg_names, signature, unaligned)
    backend, arch, warp = dumps.TARGETS[TARGET]
    triton.compile(ASTSource(fn, full_sig, constexprs, attrs), target=GPUTarget(backend, arch, warp), options=opts)
    print(json.dumps({"site_packages": str(Path(triton.__file__).resolve().parent.parent),
                      "triton_version": triton.__version__, "constexprs": constexprs, "options": opts}))


def main(argv=None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv == ["--child"]:
        compile_in_child()
        return 0
    with tempfile.TemporaryDirectory(prefix="triton-cache-") as cache:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TRITON_", "MLIR_", "LLVM_"))}
        env.update(MLIR_ENABLE_DUMP="1", TRITON_ALWAYS_COMPILE="1", TRITON_CACHE_DIR=cache, PYTHONWARNINGS="ignore")
        proc = subprocess.run([sys.executable, __file__, "--child"], cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=600)
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
        return 1
    info = json.loads(proc.stdout.strip().splitlines()[-1])
    stable = load_script("make_kernel_dumps").stable_paths
    text = stable(proc.stderr, info["site_packages"])
    lines = text.splitlines()
    headers = [describe_header(line) for line in lines if line.startswith("// -----//")]
    assert sum(1 for h in headers if "pass" in h) > 0
    out = REPO / OUT_DIR
    out.mkdir(parents=True, exist_ok=True)
    (out / DUMP_NAME).write_text(text)
    manifest = {
        "triton_version": info["triton_version"], "generator": "scripts/make_mlir_dump.py",
        "files": {DUMP_NAME: {
            "kernel": KERNEL, "source": f"tests/data/kernels/src/{KERNEL}.py", "target": TARGET,
            "constexprs": info["constexprs"], "options": info["options"],
            "bytes": len(text.encode()), "sha256": hashlib.sha256(text.encode()).hexdigest(), "lines": len(lines),
            "dumps": len(headers), "passes": sum(1 for h in headers if "pass" in h),
            "headers": headers,
        }},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{DUMP_NAME}: {len(headers)} dumps ({manifest['files'][DUMP_NAME]['passes']} before a pass), "
          f"{len(text.encode())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
