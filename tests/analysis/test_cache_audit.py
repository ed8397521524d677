"""`ttlayout audit` where kernels live (issue 20): directories and Triton's cache (tests/data/cache, written by
Triton 3.9 itself), one report over many kernels (text, JSON; the page is tested in test_browser.py), failures
listed with their reason, files Triton writes beside a kernel named for what they are, the Python API on a
CompiledKernel-shaped object and on Gluon layout objects (shapes recorded from Triton 3.9 by scripts/), and Ctrl-C
during a parallel audit. The compiler's figures come from the cache's own NAME.json, read here."""
from __future__ import annotations

import base64
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import sources
from linlayout_cli.analysis.kernels import KernelAudit, KernelFailure, compiled_from
from linlayout_cli.cli import run
from linlayout_cli.errors import abbreviate_path

CACHE = DATA / "cache"
ENTRIES = sorted(p for p in CACHE.iterdir() if p.is_dir())
SHAPE = json.loads((CACHE / "compiled_kernel_shape.json").read_text())
GLUON = json.loads((DATA / "gluon_layout_fields.json").read_text())


def metadata(entry: Path) -> dict:
    (meta,) = [p for p in entry.glob("*.json") if not p.name.startswith("__grp__")]
    return json.loads(meta.read_text())


@pytest.fixture(scope="module")
def cache_json():
    code, out, err = run(["audit", "--cache", str(CACHE), "--json", "-j", "2"])
    assert code == 0 and err == "", err
    return json.loads(out)


def test_the_cache_reports_every_kernel(cache_json):
    """73 entries, 73 kernels, none failed; each named by its kernel and its directory's hash."""
    names = {k["name"]: k for k in cache_json["kernels"]}
    assert len(names) == len(ENTRIES) == 73 and cache_json["failures"] == []
    for entry in ENTRIES:
        meta = metadata(entry)
        k = names[f"{meta['name']}@{entry.name[:8]}"]
        assert k["kernel"] == meta["name"] and Path(k["path"]).parent.name == entry.name
        assert k["num_warps"] == meta["num_warps"] and k["num_ctas"] == meta["num_ctas"]
        assert k["threads_per_warp"] == meta["target"]["warp_size"] and k["target_from"] == "metadata"
    # the second softmax version (8 warps, other constexprs) is a row of its own
    softmax = [k for k in cache_json["kernels"] if k["kernel"] == "softmax"]
    assert len(softmax) == 5 and sorted(k["num_warps"] for k in softmax) == [4, 4, 4, 4, 8]


def test_shared_bytes_are_the_compilers_or_explained(cache_json):
    """Done when of issue 20: the model's shared bytes equal NAME.json's `shared`, or the row says why with a
    reason docs/audit_model.md knows (the two warp-specialized TMA matmuls: +128 and +1 bytes)."""
    by_path = {Path(k["path"]).parent.name: k for k in cache_json["kernels"]}
    differ = {}
    for entry in ENTRIES:
        k, meta = by_path[entry.name], metadata(entry)
        assert k["compiler_shared_bytes"] == meta["shared"]
        if k["shared_bytes"] != meta["shared"]:
            assert k["shared_note"], k["name"]
            differ[(meta["name"], meta["target"]["arch"])] = meta["shared"] - k["shared_bytes"]
        else:
            assert k["shared_note"] is None
    assert differ == {("matmul_tma", 90): 128, ("matmul_tma", 100): 1}
    s = cache_json["summary"]
    assert (s["shared_equal"], s["shared_explained"], s["shared_unexplained"]) == (71, 2, [])
    notes = {k["name"].split("@")[0] + str(k["target"]): k["shared_note"] for k in cache_json["kernels"]
             if k["shared_note"]}
    assert "tensormap_create" in notes["matmul_tmasm90"] and "warp group" in notes["matmul_tmasm100"]


def test_metadata_warps_that_count_partitions_are_said(cache_json):
    """Triton's num_warps counts warp_specialize partitions (4 + 4 + 4 on sm90; 4 + 1 + 2 rounded to 8 on
    sm100): the row says so instead of calling it a disagreement."""
    tma = {k["target"]: k for k in cache_json["kernels"] if k["kernel"] == "matmul_tma"}
    assert tma["sm90"]["num_warps"] == 12 and tma["sm90"]["notes"] == [
        "12 warps in matmul_tma.json: ttg.num-warps 4 + 8 in warp_specialize partitions"]
    assert tma["sm100"]["num_warps"] == 8 and "rounded up to 4" in tma["sm100"]["notes"][0]
    assert all(not k["notes"] for k in cache_json["kernels"] if k["kernel"] != "matmul_tma")


def test_ops_are_the_single_file_ops(cache_json):
    """Each kernel's ops are exactly what `ttlayout audit FILE --json` gives for that file."""
    k = next(k for k in cache_json["kernels"] if k["kernel"] == "matmul" and k["target"] == "sm90")
    code, out, _ = run(["audit", k["path"], "--json"])
    single = json.loads(out)
    assert code == 0 and single["ops"] == k["ops"] and k["asm"] == single["asm"]
    assert k["asm"]["lines_agreeing"] == k["asm"]["lines_compared"] == 4     # its PTX beside it, counted
    ranked = [k["cost"] for k in cache_json["kernels"]]
    assert ranked == sorted(ranked, reverse=True)


@pytest.fixture(scope="module")
def cache_text():
    """`ttlayout audit --cache tests/data/cache --top 5`, run from the repository root as the README shows it."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        code, out, err = run(["audit", "--cache", "tests/data/cache", "--top", "5", "-j", "2"])
    finally:
        os.chdir(here)
    assert code == 0 and err == ""
    return out


def test_text_report(cache_text):
    out, lines = cache_text, cache_text.splitlines()
    assert lines[0] == ("ttlayout audit tests/data/cache: 73 kernels, ranked by layout cost (the sum of the cost "
                        "of each kernel's ops)")
    for entry in ENTRIES:
        assert f"{metadata(entry)['name']}@{entry.name[:8]}" in out
    assert "131544 / 131672 [1]" in out and "98523 / 98524 [3]" in out
    top = lines[lines.index("the 5 costliest ops across the kernels (--top N)") + 2:][:6]
    assert len([x for x in top if x.strip()]) == 5
    assert "shared bytes  71 equal to the compiler's; 2 differ for a known reason (notes)" in out


def _copy(entries, target: Path) -> list[Path]:
    out = []
    for entry in entries:
        shutil.copytree(entry, target / entry.name)
        out.append(target / entry.name)
    return out


def test_metadata_wins_and_a_disagreement_is_said(tmp_path):
    """NAME.json's target is audited (the module says cuda:90, the metadata cuda:80), and the row says so."""
    (entry,) = _copy([e for e in ENTRIES if metadata(e)["name"] == "transpose_copy"
                      and metadata(e)["target"]["arch"] == 90], tmp_path)
    meta = metadata(entry)
    meta["target"]["arch"] = 80
    meta["num_ctas"] = 2
    (entry / "transpose_copy.json").write_text(json.dumps(meta))
    code, out, _ = run(["audit", str(tmp_path), "--json", "-j", "1"])
    (k,) = json.loads(out)["kernels"]
    assert code == 0 and k["target"] == "sm80" and k["target_from"] == "metadata" and k["num_ctas"] == 2
    assert k["notes"] == ["transpose_copy.json says target cuda:80, the module's ttg.target cuda:90; audited for "
                          "cuda:80", "transpose_copy.json says 2 CTAs, the module's ttg.num-ctas 1"]
    code, out, _ = run(["audit", str(tmp_path), "--json", "-j", "1", "--target", "gfx942"])
    assert json.loads(out)["kernels"][0]["target"] == "gfx942"       # an explicit --target wins


def test_unreadable_kernels_are_listed_and_the_others_report(tmp_path):
    good, bad_json, bad_ttgir = _copy(ENTRIES[:3], tmp_path)
    (next(bad_json.glob("*.ttgir")).with_suffix(".json")).write_text("{not json")
    ttgir = next(bad_ttgir.glob("*.ttgir"))
    ttgir.write_text(ttgir.read_text().replace('"ttg.num-warps" = ', '"ttg.num-warps" = 3').replace(
        "ttg.target", "ttg.target_x"))
    (tmp_path / "empty.ttgir").write_bytes(b"\xff\xfe")
    code, out, err = run(["audit", str(tmp_path), "-j", "1"])
    assert code == 1 and err == ""
    assert "ttlayout audit" in out and "(3 not audited)" in out and "not audited" in out
    assert f"{bad_json.name[:8]}" in out and "is not JSON" in out and "is not UTF-8 text" in out
    code, out, _ = run(["audit", str(tmp_path), "--json", "-j", "1"])
    d = json.loads(out)
    assert code == 1 and len(d["kernels"]) == 1 and len(d["failures"]) == 3 and d["summary"]["failed"] == 3
    assert all("\n" not in f["reason"] for f in d["failures"])


@pytest.mark.parametrize("suffix,what", [(".json", "Triton's metadata"), (".ptx", "PTX assembly"),
                                         (".llir", "LLVM IR"),
                                         (".ttir", "Triton's TTIR (its tensors have no layouts yet)"),
                                         (".source", "Triton's TTIR (its tensors have no layouts yet)"),
                                         (".cubin", "the binary of a kernel (a cubin)")])
def test_a_file_beside_the_ttgir_is_named(suffix, what, tmp_path):
    """`audit softmax.ptx` (issue 24 too), given alone or among others: the error names what the file is and the
    TTGIR beside it."""
    entry = next(e for e in ENTRIES if (e / f"softmax{suffix}").exists() or
                 suffix == ".cubin" and (e / "softmax.ttgir").exists())
    path = entry / f"softmax{suffix}"
    if suffix == ".cubin":                   # the binaries were dropped from tests/data/cache: a copy with one
        source, entry = entry, tmp_path
        for p in source.iterdir():
            if p.name.startswith("softmax.") or p.name.startswith("__grp__"):
                (tmp_path / p.name).write_bytes(p.read_bytes())
        path = tmp_path / "softmax.cubin"
        path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    expected = f"{abbreviate_path(str(path))} is {what}, not TTGIR; the TTGIR is softmax.ttgir beside it"
    code, out, err = run(["audit", str(path)])
    assert (code, out, err) == (1, "", f"ttlayout: error: {expected}\n")
    code, out, _ = run(["audit", str(path), str(entry / "softmax.ttgir"), "--json", "-j", "1"])
    d = json.loads(out)
    assert code == 1 and [f["reason"] for f in d["failures"]] == [expected] and len(d["kernels"]) == 1


def test_other_files_are_named(tmp_path):
    grp = next(p.name for p in ENTRIES[0].iterdir() if p.name.startswith("__grp__"))
    code, _, err = run(["audit", str(CACHE / ENTRIES[0].name / grp)])
    assert code == 1 and "is Triton's cache group file, not TTGIR; the TTGIR is" in err
    (tmp_path / "kern.py").write_text("import triton\n")
    code, _, err = run(["audit", str(tmp_path / "kern.py")])
    assert code == 1 and "is Python source, not TTGIR; run the kernel with MLIR_ENABLE_DUMP=1" in err
    (tmp_path / "k.amdgcn").write_text("")
    code, _, err = run(["audit", str(tmp_path / "k.amdgcn")])
    assert code == 1 and "k.amdgcn is AMDGCN assembly, not TTGIR; run the kernel with" in err


def test_default_cache_and_a_missing_one(tmp_path, monkeypatch):
    _copy(ENTRIES[:2], tmp_path / "c")
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "c"))
    code, out, _ = run(["audit", "--cache", "--json", "-j", "1"])
    assert code == 0 and len(json.loads(out)["kernels"]) == 2
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "none"))
    code, out, err = run(["audit", "--cache"])
    assert code == 1 and out == "" and err.startswith(f"ttlayout: error: no Triton cache at {tmp_path / 'none'}")
    monkeypatch.delenv("TRITON_CACHE_DIR")
    monkeypatch.setenv("TRITON_HOME", str(tmp_path))
    assert sources.default_cache() == str(tmp_path / ".triton" / "cache")
    code, _, err = run(["audit"])
    assert code == 1 and "give a TTGIR file" in err
    code, _, err = run(["audit", str(tmp_path / "nothing-here")])
    assert code == 1 and "No such file or directory" in err
    code, out, err = run(["audit", "--cache", str(tmp_path / "nothing-here")])      # one error line, no report
    assert (code, out) == (1, "") and err == (f"ttlayout: error: cannot read "
                                              f"{abbreviate_path(str(tmp_path / 'nothing-here'))}: "
                                              "No such file or directory\n")
    (tmp_path / "d").mkdir()
    code, _, err = run(["audit", str(tmp_path / "d")])
    assert code == 1 and "no *.ttgir file below it" in err


def test_symbolic_link_loops_end_and_the_file_limit_holds(tmp_path):
    (entry,) = _copy(ENTRIES[:1], tmp_path / "a")
    os.symlink(tmp_path, tmp_path / "a" / "loop")                   # a -> .. -> a -> ...
    os.symlink(entry, tmp_path / "again")                            # the same kernel twice
    kernels, failures = sources.find_kernels([str(tmp_path), str(tmp_path)])
    assert len(kernels) == 1 and failures == []
    _copy(ENTRIES[1:3], tmp_path / "b")
    with pytest.raises(Exception, match=r"more than 2 \.ttgir files under .*; audit a part of it"):
        sources.find_kernels([str(tmp_path)], limit=2)


def test_parallel_is_the_same_as_one_process():
    """Workers keep one memo of analyses for all their kernels: the records are those of a fresh audit of each
    kernel alone."""
    from linlayout_cli.analysis.audit import Memo
    kernels, _ = sources.find_kernels([str(CACHE)])
    subset = kernels[::3]
    alone = [r for k in subset for r in sources.audit_kernel(k, memo=Memo())]
    two = sources.audit_kernels(subset, jobs=2)
    key = lambda r: r.path                                          # noqa: E731
    assert sorted(alone, key=key) == sorted(two, key=key) and len(alone) == len(subset)
    seen = []
    sources.audit_kernels(subset, jobs=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (len(subset), len(subset)) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_worker_that_dies_fails_only_its_kernels(monkeypatch):
    """A worker killed while auditing (here: one that exits on every vector_add, as the out-of-memory killer
    would end it) fails those kernels with the reason; the kernels its pool held are tried again and report."""
    real = sources.audit_kernel

    def dies_on_vector_add(kernel, *args, **kwargs):
        if kernel.name == "vector_add":
            os._exit(9)
        return real(kernel, *args, **kwargs)
    monkeypatch.setattr(sources, "audit_kernel", dies_on_vector_add)          # the forked workers inherit it
    kernels, _ = sources.find_kernels([str(CACHE)])
    kernels = [k for k in kernels if k.name in ("vector_add", "softmax", "cumsum")]
    results = sources.audit_kernels(kernels, jobs=2)
    failed = sorted(r.name.split("@")[0] for r in results if isinstance(r, KernelFailure))
    assert failed == ["vector_add"] * 4 and len(results) == len(kernels) == 13
    assert {r.reason for r in results if isinstance(r, KernelFailure)} == {sources.DIED}


def test_progress_bar_only_on_a_terminal():
    """The bar is drawn on a terminal once the run has lasted `delay` seconds, never on a pipe."""
    import io

    from linlayout_cli.commands.output import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    term, pipe = Terminal(), io.StringIO()
    with Progress(term, "auditing", delay=0) as p, Progress(pipe, "auditing", delay=0) as q:
        for i in range(1, 4):
            p(i, 4)
            q(i, 4)
    assert "auditing" in term.getvalue() and pipe.getvalue() == ""
    late = Terminal()
    with Progress(late, "auditing", delay=3600) as p:
        p(1, 4)
    assert late.getvalue() == ""


# ----------------------------------------------------------------------------------------- the Python API


def compiled_kernel(key: str, metadata_as_dict: bool = False):
    """A stand-in for a Triton 3.9 CompiledKernel, shaped as compiled_kernel_shape.json recorded it: `asm` with
    the recorded keys (texts from the kernel's cache entry), `metadata` a namedtuple KernelMetadata of the
    recorded fields whose `target` is a GPUTarget(backend, arch, warp_size)."""
    shape = SHAPE["compiled_kernels"][key]
    gpu_target = collections.namedtuple("GPUTarget", ["backend", "arch", "warp_size"])
    kernel_metadata = collections.namedtuple("KernelMetadata", shape["metadata_fields"])
    t = shape["target"]
    values = {name: gpu_target(t["backend"], t["arch"], t["warp_size"]) if name == "target" else field["value"]
              for name, field in shape["metadata"].items()}
    entry = CACHE / base64.b32encode(bytes.fromhex(shape["hash"])).decode().rstrip("=")

    class CompiledKernel:
        pass
    k = CompiledKernel()
    k.name, k.hash = shape["name"], shape["hash"]
    k.metadata = values if metadata_as_dict else kernel_metadata(**values)
    k.asm = {}
    for file in shape["metadata_group"]:
        kind = file.rsplit(".", 1)[1]
        if kind in shape["asm"] and shape["asm"][kind] == "str":
            k.asm[kind] = (entry / file).read_text()
    assert set(shape["attributes"]) >= {"asm", "metadata", "name", "hash"}
    return k, entry


@pytest.mark.parametrize("key", sorted(SHAPE["compiled_kernels"]))
@pytest.mark.parametrize("as_dict", [False, True])
def test_audit_a_compiled_kernel_without_triton(key, as_dict):
    from linlayout_cli import audit
    kernel, entry = compiled_kernel(key, as_dict)
    meta = metadata(entry)
    result = audit(kernel)
    (k,) = result.kernels
    assert isinstance(k, KernelAudit) and k.name == f"softmax@{entry.name[:8]}"
    assert (k.target_from, k.num_warps, k.compiler_shared_bytes) == ("metadata", meta["num_warps"], meta["shared"])
    assert k.shared_bytes == meta["shared"] and k.target == {"cuda": "sm90", "hip": "gfx942"}[
        meta["target"]["backend"]]
    text = result.text()
    assert text.startswith(f"ttlayout audit softmax@{entry.name[:8]}: {k.target}") and "tt.reduce" in text
    assert f"shared memory {meta['shared']} bytes (equal to the model's)" in text
    d = json.loads(result.json())
    assert d["kernels"][0]["ops"] and d["kernels"][0]["compiler_shared_bytes"] == meta["shared"]
    assert "<table>" in result._repr_html_() and "triton" not in sys.modules
    single = json.loads(run(["audit", str(entry / "softmax.ttgir"), "--json"])[1])  # the assembly of kernel.asm
    assert d["kernels"][0]["asm"] == single["asm"] and single["asm"]["lines_compared"] > 0
    kind = {"cuda": "PTX", "hip": "AMDGCN"}[meta["target"]["backend"]]
    assert f"assembly      {kind}: " in text and text.splitlines()[3].split()[-1] == "asm"


def test_audit_paths_and_text(tmp_path):
    from linlayout_cli import audit
    dump = DATA / "kernels" / "softmax.sm90.ttgir"
    one = audit(dump)
    assert one.text() == run(["audit", str(dump)])[1]
    assert one.json() == run(["audit", str(dump), "--json"])[1]
    assert audit(dump.read_text()).text().startswith("ttlayout audit TTGIR text: sm90")
    _copy(ENTRIES[:3], tmp_path)
    many = audit(tmp_path, jobs=2)
    assert len(many.kernels) == 3 and not many.failed and "<details>" in many._repr_html_()
    assert json.loads(many.json())["summary"]["kernels"] == 3 and many.text().startswith("ttlayout audit ")
    with pytest.raises(Exception, match="is PTX assembly, not TTGIR; the TTGIR is softmax.ttgir beside it"):
        audit(next(ENTRIES[0].parent.glob("*/softmax.ptx")))


def _stand_in(record: dict):
    """An object of the recorded Gluon class name holding the recorded attribute values (nested layouts too)."""
    cls = type(record["class"], (), {})
    obj = cls()
    for name, value in record["attributes"].items():
        setattr(obj, name, _stand_in(value) if isinstance(value, dict) else value)
    return obj


def test_gluon_classes_are_the_ones_ttlayout_reads():
    """parsing/gluon.py's classes and fields are Triton 3.9's (scripts/make_gluon_layout_fields.py); the classes
    ttlayout leaves out have no fields (AutoLayout, CoalescedLayout: no fixed layout)."""
    from linlayout_cli.parsing.gluon import CLASSES
    recorded = GLUON["classes"]
    assert GLUON["triton_version"] == "3.9.0"
    for name, (home, _, fields) in CLASSES.items():
        assert [f for f, _, _ in fields] == recorded[name]["fields"], name
        assert recorded[name]["module"].startswith("triton.experimental.gluon.language" + ("." + home if home else ""))
    assert {n for n, c in recorded.items() if n not in CLASSES} == {"AutoLayout", "CoalescedLayout"}
    assert all(not recorded[n]["fields"] for n in ("AutoLayout", "CoalescedLayout"))


@pytest.mark.parametrize("name", sorted(n for n, c in GLUON["classes"].items() if "example" in c))
def test_gluon_objects_read_like_their_constructor(name):
    """`layout()` takes a Gluon layout object itself (duck-typed by class name and fields): the stand-in built
    from what Triton's object held reads as the same attribute as its constructor text."""
    from linlayout_cli import inputs
    from linlayout_cli.notebook import layout, layout_text
    example = GLUON["classes"][name]["example"]
    obj = _stand_in(example)
    assert inputs.attribute(layout_text(obj)) == inputs.attribute(example["text"])
    kind = inputs.attribute(example["text"]).kind
    if kind in ("distributed", "shared") and name not in ("PaddedSharedLayout", "PartitionedSharedLayout"):
        ttype = f"tensor<{'x'.join(map(str, example['shape']))}xf16>"
        assert layout(obj, ttype) == layout(example["text"], ttype)


def test_a_non_layout_object_is_refused():
    from linlayout_cli.errors import TTLayoutError
    from linlayout_cli.notebook import layout

    class AutoLayout:
        pass
    with pytest.raises(TTLayoutError, match="AutoLayout is not a layout ttlayout reads"):
        layout(AutoLayout(), "tensor<16x16xf16>")


def test_compiled_from_checks_the_fields():
    from linlayout_cli.errors import TTLayoutError
    good = {"target": ["cuda", 90, 32], "num_warps": 4, "num_ctas": 1, "shared": 0}
    assert compiled_from(good).target == "cuda:90"
    for bad, word in ((good | {"num_warps": True}, "num_warps"), (good | {"shared": -1}, "shared"),
                      ({"num_warps": 4}, "target"), (good | {"target": {"backend": "<x>", "arch": 1,
                                                                          "warp_size": 32}}, "backend")):
        with pytest.raises(TTLayoutError, match=word):
            compiled_from(bad)


# ----------------------------------------------------------------------------------------- Ctrl-C


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(x) for x in text.split()}


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_ctrl_c_stops_a_parallel_audit_cleanly(tmp_path):
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) while the workers run: exit 130, no
    traceback from the parent or a worker, no -o file, no worker left."""
    cache = tmp_path / "cache"
    for i in range(5):                                       # 365 kernels: seconds of work for two processes
        for entry in ENTRIES:
            copy = cache / f"{entry.name[:40]}{i:03d}AAAAAAAAAAAA"
            copy.mkdir(parents=True)
            for f in entry.iterdir():
                if f.suffix in (".ttgir", ".json"):
                    os.link(f, copy / f.name)
    out = tmp_path / "out.json"

    def default_signals():
        for signum in range(1, signal.NSIG):
            if signum not in (signal.SIGKILL, signal.SIGSTOP):
                try:
                    signal.signal(signum, signal.SIG_DFL)
                except (OSError, ValueError):
                    pass
    proc = subprocess.Popen([sys.executable, "-m", "linlayout_cli", "audit", "--cache", str(cache), "-j", "2",
                             "--json", "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            preexec_fn=default_signals, start_new_session=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.monotonic() + 60
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    workers = _children(proc.pid)
    assert len(workers) >= 2, "the workers never started"
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stdout, stderr) == (130, b"", b"")
    assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".ttlayout")]
    for pid in workers:
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            status = Path(f"/proc/{pid}/status").read_text() if Path(f"/proc/{pid}/status").exists() else ""
            if "State:\tZ" in status:
                break
            time.sleep(0.05)
        assert not Path(f"/proc/{pid}").exists() or "State:\tZ" in Path(f"/proc/{pid}/status").read_text()


def test_the_readme_shows_real_output(cache_text):
    """Every line of the README's cache audit (trimmed: '  ...' stands for rows left out) is a line of the real
    output, in the same order."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "$ ttlayout audit --cache tests/data/cache --top 5\n"
    shown = readme[readme.index(command) + len(command):].split("\n```", 1)[0].splitlines()
    lines = cache_text.splitlines()
    assert len(shown) > 20
    at = 0
    for line in shown:
        if line == "  ...":
            continue
        at = lines.index(line, at) + 1 if line else at
    assert shown[-1] == lines[-1]


def test_a_fifo_or_dangling_link_named_ttgir_is_said_never_opened(tmp_path):
    """Opening a FIFO would wait forever: a *.ttgir that is not a regular file is a failure row, the others report."""
    import os
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "softmax.ttgir").write_text((DATA / "kernels" / "softmax.sm90.ttgir").read_text())
    os.mkfifo(tmp_path / "k" / "pipe.ttgir")
    os.symlink(tmp_path / "missing", tmp_path / "k" / "dangling.ttgir")
    code, out, _ = run(["audit", str(tmp_path), "--json", "-j", "1"])
    d = json.loads(out)
    assert code == 1 and [k["kernel"] for k in d["kernels"]] == ["softmax"]
    assert sorted(f["reason"].rsplit("/", 1)[-1] for f in d["failures"]) == [
        "dangling.ttgir is not a regular file", "pipe.ttgir is not a regular file"]


@pytest.mark.parametrize("suffix", [".ttgir", ".json", ".ptx"])
def test_output_onto_a_file_the_workers_read_is_refused(tmp_path, suffix):
    """The kernels are read by worker processes, not by this one: -o onto a kernel's TTGIR, its metadata or its
    assembly is refused all the same, and the file is left as it was."""
    entry = next(e for e in ENTRIES if (e / "softmax.ptx").exists())
    others = [e for e in ENTRIES if e != entry][:2 * sources.CHUNK]     # enough kernels for a pool of workers
    target = _copy([entry] + others, tmp_path)[0] / f"softmax{suffix}"
    before = target.read_bytes()
    code, out, err = run(["audit", "--cache", str(tmp_path), "-j", "2", "-o", str(target)])
    assert (code, out) == (1, "") and err.startswith("ttlayout: error: cannot write output file ")
    assert err.rstrip().endswith("it is a file this command reads (its input); writing it would destroy the "
                                 "input, so write the output elsewhere")
    assert target.read_bytes() == before
