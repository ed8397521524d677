"""Sanity of the real Triton cache in tests/data/cache, its assembly counts and the MLIR_ENABLE_DUMP capture.

The data comes from Triton 3.9 (scripts/make_kernel_cache.py, scripts/asm_counts.py, scripts/make_mlir_dump.py).
These tests need no Triton: they check that the cache is laid out as the compiler writes it, that it agrees with
the TTGIR dumps of tests/data/kernels, and that tests/data/cache_counts.json agrees with plain regex counts over the
stored assembly, so that the counts the `audit` assembly column will be compared with cannot drift from the files.
"""
from __future__ import annotations

import collections
import doctest
import hashlib
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT

CACHE = DATA / "cache"
COUNTS = json.loads((DATA / "cache_counts.json").read_text())
ENTRIES = COUNTS["entries"]
NUMBERS = {d["file"]: d for d in json.loads((DATA / "kernels/numbers.json").read_text())["dumps"]}
TARGETS = ("sm80", "sm90", "sm100", "gfx942")
CACHE_DIRS = sorted(p for p in CACHE.iterdir() if p.is_dir())


def metadata(directory: Path) -> dict:
    (meta,) = [p for p in directory.glob("*.json") if not p.name.startswith("__grp__")]
    return json.loads(meta.read_text())


def target_of(meta: dict) -> str:
    t = meta["target"]
    return f"sm{t['arch']}" if t["backend"] == "cuda" else t["arch"]


# ----------------------------------------------------------------------------- the cache as Triton wrote it

@pytest.mark.parametrize("directory", CACHE_DIRS, ids=lambda p: p.name[:12])
def test_cache_entry_has_the_files_triton_writes(directory):
    meta = metadata(directory)
    name = meta["name"]
    asm = "ptx" if meta["target"]["backend"] == "cuda" else "amdgcn"
    binary = "cubin" if asm == "ptx" else "hsaco"
    files = {p.name for p in directory.iterdir()}
    kept = {f"{name}.{ext}" for ext in ("source", "ttir", "ttgir", "llir", asm, "json")}
    assert files == kept | {f"__grp__{name}.json"}
    assert re.fullmatch(r"[A-Z2-7]{52}", directory.name)  # base32 of a sha256, as Triton names it
    group = json.loads((directory / f"__grp__{name}.json").read_text())["child_paths"]
    # the group still names the dropped binary; its paths are relative because TRITON_CACHE_DIR was
    assert set(group) == kept | {f"{name}.{binary}"}
    assert all(path == f"tests/data/cache/{directory.name}/{child}" for child, path in group.items())
    assert meta["hash"] and meta["triton_version"] == "3.9.0" and meta["num_warps"] >= 1


def test_every_kernel_and_target_is_cached_and_one_kernel_has_two_versions():
    # issue 30's global-access kernels are not cached (scripts/make_kernel_dumps.py NOT_CACHED)
    not_cached = {"buffer_copy", "gather_rows", "layer_norm_loop", "load_3d", "matmul_kloop", "online_softmax",
                  "store_transposed"}
    sources = sorted(p.stem for p in (DATA / "kernels/src").glob("*.py") if p.stem not in not_cached)
    seen = collections.Counter((metadata(d)["name"], target_of(metadata(d))) for d in CACHE_DIRS)
    assert {k for k, _ in seen} == set(sources)
    assert all(seen[(k, t)] >= 1 for k in sources for t in TARGETS)
    assert [key for key, n in seen.items() if n > 1] == [("softmax", "sm90")]
    assert len(CACHE_DIRS) == len(ENTRIES) == len(sources) * len(TARGETS) + 1


def cached_dumps():
    """(cache directory, tests/data/kernels dump name) of every entry compiled with the dumps' own configuration."""
    out = []
    for key, entry in sorted(ENTRIES.items()):
        if entry["variant"] is None:
            out.append((CACHE / key.split("/")[0], f"{entry['kernel']}.{entry['target']}.ttgir"))
    return out


@pytest.mark.parametrize("directory, dump", cached_dumps(), ids=lambda x: x if isinstance(x, str) else "")
def test_cached_ttgir_and_shared_bytes_are_the_dumps(directory, dump):
    meta = metadata(directory)
    assert (directory / f"{meta['name']}.ttgir").read_bytes() == (DATA / "kernels" / dump).read_bytes()
    assert meta["shared"] == NUMBERS[dump]["shared"]
    assert target_of(meta) == NUMBERS[dump]["target"]


def test_the_second_version_differs_in_warps_and_shared_bytes():
    versions = [metadata(d) for d in CACHE_DIRS if metadata(d)["name"] == "softmax" and target_of(metadata(d)) == "sm90"]
    assert sorted(m["num_warps"] for m in versions) == [4, 8]
    ttgirs = {(CACHE / m_dir.name / "softmax.ttgir").read_text()
              for m_dir in CACHE_DIRS if metadata(m_dir)["name"] == "softmax" and target_of(metadata(m_dir)) == "sm90"}
    assert any("tensor<2x2048xf32" in t for t in ttgirs) and any("tensor<4x1024xf32" in t for t in ttgirs)


def test_no_machine_paths_in_the_cache():
    for path in CACHE.rglob("*"):
        if path.is_file() and path.name != "README.md":
            text = path.read_text()
            for prefix in ("site-packages", "/opt/", "/tmp/", "/work/", "/home/", "/root/"):
                assert prefix not in text, (path, prefix)


def test_cache_stays_small():
    """About 11 MB on disk (1.4 MB compressed), more than half of it the .llir files, which are kept as written."""
    total = sum(p.stat().st_size for p in CACHE.rglob("*") if p.is_file())
    assert total < 12_000_000


# ----------------------------------------------------------------------------- assembly counts

# Plain regex counts over the whole text, written independently of scripts/asm_counts.py: an instruction starts a
# line (after an optional PTX predicate); AMDGCN instructions sit before the first `.section` of the file's end.
PTX_PATTERNS = {
    "shared_loads": r"(?:ld\.shared|ldmatrix)[\w.:]*",
    "shared_stores": r"(?:st\.shared|stmatrix)[\w.:]*",
    "shuffles": r"shfl\.sync[\w.]*",
    "barriers": r"(?:bar\.sync|barrier\.sync[\w.]*)",
    "global_loads": r"(?:ld\.global|cp\.async\.bulk\.tensor\.\dd\.shared)[\w.:]*",          # TMA: global -> shared
    "global_stores": r"(?:st\.global|cp\.async\.bulk\.tensor\.\dd\.global|cp\.reduce\.async\.bulk\.tensor)[\w.:]*",
}
GCN_PATTERNS = {
    "shared_loads": r"ds_read\w*",
    "shared_stores": r"ds_write\w*",
    "shuffles": r"(?:ds_bpermute\w*|ds_swizzle\w*|v_permlane\w*|v_\w+_dpp|\w+(?=\s[^\n;]*(?:quad_perm|row_s[hr][lr]|"
                r"row_ror|row_mirror|row_half_mirror|row_bcast|wave_s[hr][lr]|wave_ro[lr])))",
    "barriers": r"s_barrier(?=\s|$)",
    "global_loads": r"(?:global|buffer)_load\w*",
    "global_stores": r"(?:global|buffer)_store\w*",
}


def regex_totals(text: str, kind: str) -> dict:
    if kind == "ptx":
        pre = r"^[ \t]*(?:@!?%\w+[ \t]+)?"
        return {c: len(re.findall(pre + rf"{p}(?=[\s;])", text, re.M)) for c, p in PTX_PATTERNS.items()}
    code = text.split("\n\t.section\t.AMDGPU", 1)[0]
    return {c: len(re.findall(rf"^[ \t]*{p}", code, re.M)) for c, p in GCN_PATTERNS.items()}


def flat(counts: dict) -> dict:
    return {c: sum(v.values()) if isinstance(v, dict) else v for c, v in counts.items()}


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_counts_equal_a_plain_regex_count_of_the_stored_assembly(key):
    entry = ENTRIES[key]
    path = CACHE / key.split("/")[0] / entry["asm"]
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == entry["asm_sha256"]
    kind = "ptx" if path.suffix == ".ptx" else "amdgcn"
    assert flat(entry["total"]) == regex_totals(data.decode(), kind)
    summed = collections.Counter(flat(entry["unattributed"]))
    for counts in entry["lines"].values():
        summed.update(flat(counts))
    assert {c: summed[c] for c in COUNTS["classes"]} == flat(entry["total"])


@pytest.mark.parametrize("key", sorted(ENTRIES))
def test_every_counted_line_is_a_line_of_the_kernels_source(key):
    entry = ENTRIES[key]
    assert entry["source"] == f"tests/data/kernels/src/{entry['kernel']}.py"
    source = (ROOT / entry["source"]).read_text().splitlines()
    for where in entry["lines"]:
        path, line = where.rsplit(":", 1)
        assert path == entry["source"]
        assert 1 <= int(line) <= len(source) and source[int(line) - 1].strip(), where


def test_global_widths_are_those_of_the_dumps_own_assembly():
    """The global loads and stores by width equal tests/data/kernels/global_access.json (scripts/kernel_global_access.py
    compiled each TTGIR dump again and counted its assembly its own way)."""
    dumps = json.loads((DATA / "kernels/global_access.json").read_text())["dumps"]
    for entry in ENTRIES.values():
        if entry["variant"] is None:
            total = entry["total"]
            ours = {f"{kind} {bits}": n for kind, cls in (("load", "global_loads"), ("store", "global_stores"))
                    for bits, n in total[cls].items()}
            assert ours == dumps[f"{entry['kernel']}.{entry['target']}.ttgir"], entry["kernel"]


def test_reductions_land_on_the_kernels_reduce_line():
    """tl.sum's shuffles and shared accesses carry a .loc in Triton's standard.py; the counter puts them on the
    kernel line that calls tl.sum (line 13 of reduce_sum_axis0.py), on NVIDIA and AMD alike."""
    source = (ROOT / "tests/data/kernels/src/reduce_sum_axis0.py").read_text().splitlines()
    assert "tl.sum(x, axis=0)" in source[12]
    for entry in ENTRIES.values():
        if entry["kernel"] == "reduce_sum_axis0":
            line = entry["lines"]["tests/data/kernels/src/reduce_sum_axis0.py:13"]
            assert line["shuffles"] > 0 and line["barriers"] > 0 and line["shared_stores"] > 0, entry["target"]
            assert flat(entry["unattributed"]) == dict.fromkeys(COUNTS["classes"], 0)


def test_asm_counts_doctests_pass_without_triton():
    spec = importlib.util.spec_from_file_location("asm_counts", ROOT / "scripts/asm_counts.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["asm_counts"] = module
    spec.loader.exec_module(module)
    assert not re.search(r"^\s*(import|from)\s+(linlayout_cli|triton)\b", (ROOT / "scripts/asm_counts.py").read_text(),
                         re.M)
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


# ----------------------------------------------------------------------------- CompiledKernel shape

def test_compiled_kernel_shape_was_recorded_from_triton():
    shapes = json.loads((CACHE / "compiled_kernel_shape.json").read_text())
    assert shapes["triton_version"] == "3.9.0"
    for key, shape in shapes["compiled_kernels"].items():
        backend = "hip" if key.endswith("gfx942") else "cuda"
        assert shape["class"] == "triton.compiler.compiler.CompiledKernel"
        assert {"asm", "metadata", "name", "hash"} <= set(shape["attributes"])
        assert {"ttgir", "ttir", "llir", "ptx" if backend == "cuda" else "amdgcn"} <= set(shape["asm"])
        assert shape["metadata_is_namedtuple"]
        assert {"target", "num_warps", "num_ctas", "shared", "name"} <= set(shape["metadata_fields"])
        assert shape["target"]["backend"] == backend and shape["target"]["warp_size"] == (64 if backend == "hip" else 32)
        assert shape["metadata"]["name"]["value"] == shape["name"] == "softmax"


# ----------------------------------------------------------------------------- MLIR_ENABLE_DUMP capture

DUMPS_DIR = DATA / "dumps"
HEADER = re.compile(r"^// -----// IR Dump Before (\w+):? (.*?) ?\('([\w.]+)' operation(?:: @(\S+?))?\) //----- //$", re.M)


def test_mlir_dump_is_the_one_recorded():
    manifest = json.loads((DUMPS_DIR / "manifest.json").read_text())["files"]
    for name, entry in manifest.items():
        data = (DUMPS_DIR / name).read_bytes()
        assert len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"]
        text = data.decode()
        headers = HEADER.findall(text)
        assert len(headers) == entry["passes"] == text.count("// -----// IR Dump Before")
        assert text.count("\n// -----//") + text.startswith("// -----//") == entry["dumps"] == len(entry["headers"])
        assert [h["pass"] for h in entry["headers"] if "pass" in h] == [h[0] for h in headers]
        assert "site-packages" not in text
        assert f'loc("tests/data/kernels/src/{entry["kernel"]}.py"' in text
