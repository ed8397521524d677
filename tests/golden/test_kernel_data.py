"""Sanity of the real-kernel test data: the TTGIR dumps, the compiler's numbers, the Triton lit files, the big-dump generator.

The numbers in tests/data/kernels/numbers.json come from Triton 3.9 (scripts/make_kernel_dumps.py): metadata.shared,
and an op histogram from walking Triton's own parse of each dump. These tests need no Triton: they check the
files against those numbers with plain text counts, so the data the `audit` tests will rely on is consistent.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys

import pytest
from golden_cases import DATA, ROOT

KERNELS = DATA / "kernels"
LIT = DATA / "triton_lit"
NUMBERS = json.loads((KERNELS / "numbers.json").read_text())
DUMPS = NUMBERS["dumps"]
DUMP_IDS = [d["file"] for d in DUMPS]

FILE_LOC = re.compile(r'^(#loc\d*) = loc\("([^"]+)":(\d+):(\d+)\)$', re.M)
LOC_DEF = re.compile(r"^(#loc\d*) = loc\(", re.M)
LOC_REF = re.compile(r"#loc\d*(?![\w.])")

# Ops that Triton's walk sees but the printer does not spell out: the module is printed as `module`, a
# warp_specialize's partitions op as its `partitionN(...)` regions, and an empty scf.yield is elided.
IMPLICIT_OPS = {"builtin.module", "ttg.warp_specialize.partitions", "scf.yield"}


def load_script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def text_count(text: str, op: str) -> int:
    """Occurrences of an op name as a whole token (not inside `tt.reduce.return`, `#ttg.dot_op`, types)."""
    return len(re.findall(rf"(?<![\w.#!]){re.escape(op)}(?![\w.])", text))


def dump_text(entry: dict) -> str:
    return (KERNELS / entry["file"]).read_text()


def test_every_kernel_and_target_has_a_dump_or_a_recorded_failure():
    sources = sorted(p.stem for p in (KERNELS / "src").glob("*.py"))
    compiled = {(d["kernel"], d["target"]) for d in DUMPS}
    failed = {(f["kernel"], f["target"]) for f in NUMBERS["failures"] if "probe" not in f}
    for kernel in sources:
        for target in ("sm80", "sm90", "sm100", "gfx942"):
            assert (kernel, target) in compiled | failed, (kernel, target)


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_dump_file_is_the_one_recorded(entry):
    data = (KERNELS / entry["file"]).read_bytes()
    assert len(data) == entry["bytes"]
    assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert data.decode().count("\n") == entry["lines"]


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_op_counts_match_the_text(entry):
    text = dump_text(entry)
    for op, count in entry["ops"].items():
        if op not in IMPLICIT_OPS:
            assert text_count(text, op) == count, op
    for op, count in entry["key_ops"].items():
        assert count == entry["ops"].get(op, 0) == text_count(text, op), op
    assert len(re.findall(r"^module attributes", text, re.M)) == entry["ops"]["builtin.module"] == 1
    assert text_count(text, "scf.yield") <= entry["ops"].get("scf.yield", 0)
    partitions = entry["ops"].get("ttg.warp_specialize.partitions", 0)
    assert partitions == entry["ops"].get("ttg.warp_specialize", 0)
    assert ("partition0(" in text) == (partitions > 0)


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_module_attributes_match_the_compile(entry):
    text = dump_text(entry)
    backend, arch, warp_size = entry["gpu_target"]
    assert f'ttg.target = "{backend}:{arch}"' in text
    assert f'"ttg.num-warps" = {entry["options"]["num_warps"]} : i32' in text
    assert f'"ttg.threads-per-warp" = {warp_size} : i32' in text
    assert entry["threads_per_warp"] == warp_size
    # metadata.num_warps counts the extra warps of warp-specialized partitions as well
    assert entry["num_warps"] >= entry["options"]["num_warps"]
    assert (entry["num_warps"] > entry["options"]["num_warps"]) == (entry["key_ops"]["ttg.warp_specialize"] > 0)


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_loc_aliases_point_into_the_kernel_sources(entry):
    text = dump_text(entry)
    own_source = entry["source"]
    own_hits = 0
    for _, path, line, col in FILE_LOC.findall(text):
        if path.startswith("triton/"):
            continue  # Triton's own library (tl.sum, tl.cumsum): site-packages prefix cut by the generator
        assert path.startswith("tests/data/kernels/src/"), path
        source_lines = (ROOT / path).read_text().splitlines()
        line, col = int(line), int(col)
        assert 1 <= line <= len(source_lines), (path, line)
        assert source_lines[line - 1].strip(), (path, line)
        assert 1 <= col <= len(source_lines[line - 1]) + 1, (path, line, col)
        own_hits += path == own_source
    assert own_hits > 0
    def_line = int(re.search(r'^#loc = loc\("[^"]+":(\d+):1\)$', text, re.M).group(1))
    assert (ROOT / own_source).read_text().splitlines()[def_line - 1].startswith(f"def {entry['kernel']}(")


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_loc_aliases_are_defined_once_and_cover_every_reference(entry):
    text = dump_text(entry)
    defined = LOC_DEF.findall(text)
    assert len(defined) == len(set(defined)) == entry["loc_alias_lines"]
    assert set(LOC_REF.findall(text)) == set(defined)


@pytest.mark.parametrize("entry", DUMPS, ids=DUMP_IDS)
def test_assembly_agrees_with_the_ops(entry):
    """The PTX/AMDGCN shared-memory instructions must follow from the TTGIR ops they lower."""
    ops, asm = entry["key_ops"], entry["asm_shared_instructions"]
    def has(prefix):
        return any(m.startswith(prefix) for m in asm)
    if entry["asm_kind"] == "ptx":
        assert has("cp.async.cg.shared.global") == (ops["ttg.async_copy_global_to_local"] > 0)
        assert has("wgmma.mma_async") == (ops["ttng.warp_group_dot"] > 0)
        assert has("tcgen05.mma") == (ops["ttng.tc_gen5_mma"] > 0)
        assert has("cp.async.bulk.tensor") == (ops["ttng.async_tma_copy_global_to_local"] > 0)
    else:
        assert has("v_mfma") == (ops["tt.dot"] > 0)
        if ops["ttg.local_load"]:
            assert has("ds_read")
    # ds_bpermute/ds_permute/ds_swizzle exchange lanes through the LDS crossbar without storing to LDS
    lane_exchange = ("ds_bpermute", "ds_permute", "ds_swizzle")
    if entry["shared"] == 0:
        assert not any(".shared" in m or (m.startswith("ds_") and not m.startswith(lane_exchange)) for m in asm)


def test_fp8_e4nv_on_sm80_is_recorded_as_unsupported():
    probe = next(f for f in NUMBERS["failures"] if f.get("probe") == "fp8_matmul.sm80.fp8e4nv")
    assert "fp8e4nv not supported" in probe["reason"]
    sm80 = next(d for d in DUMPS if d["file"] == "fp8_matmul.sm80.ttgir")
    assert sm80["signature"]["a_ptr"] == "*fp8e5"
    assert "f8E5M2" in dump_text(sm80)


def test_kernel_data_stays_small():
    total = sum(p.stat().st_size for p in KERNELS.rglob("*") if p.is_file())
    assert total < 3_000_000


# ----------------------------------------------------------------------------- Triton lit files

LIT_MANIFEST = json.loads((LIT / "manifest.json").read_text())["files"]


def test_lit_manifest_lists_exactly_the_files_and_the_readme_names_them():
    assert sorted(LIT_MANIFEST) == sorted(p.name for p in LIT.glob("*.mlir"))
    readme = (LIT / "README.md").read_text()
    assert "MIT" in readme
    for name, entry in LIT_MANIFEST.items():
        assert f"`{name}`" in readme
        assert entry["source"].startswith("test/")


@pytest.mark.parametrize("name", sorted(LIT_MANIFEST))
def test_lit_file_is_the_one_recorded(name):
    entry = LIT_MANIFEST[name]
    split = load_script("make_kernel_dumps").split_modules
    data = (LIT / name).read_bytes()
    assert len(data) == entry["bytes"]
    assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert len(split(data.decode())) == entry["modules"] == len(entry["module_status"])
    assert entry["modules_parsed_by_triton"] == sum(s["parses"] for s in entry["module_status"])


# ----------------------------------------------------------------------------- big dump generator

@pytest.fixture(scope="module")
def big_dump():
    return load_script("make_big_dump")


def test_big_dump_has_the_budget_shape(big_dump):
    text = big_dump.build_big_dump(big_dump.DEFAULT_SOURCE.read_text())
    defined = LOC_DEF.findall(text)
    assert len(defined) == 80_000 == len(set(defined))
    assert abs(len(text.encode()) - 4_000_000) < 40_000
    assert set(LOC_REF.findall(text)) == set(defined)
    names = re.findall(r"tt\.func public @(\w+)", text)
    assert len(names) == len(set(names)) > 1
    assert len(re.findall(r"^module attributes", text, re.M)) == 1


def test_big_dump_is_deterministic_and_copies_the_source_body(big_dump):
    source = (KERNELS / "softmax.sm90.ttgir").read_text()
    first = big_dump.build_big_dump(source, target_bytes=60_000, loc_lines=2_000)
    assert first == big_dump.build_big_dump(source, target_bytes=60_000, loc_lines=2_000)
    assert len(LOC_DEF.findall(first)) == 2_000
    body = re.compile(r"^(    .*?) loc\(#loc\d*\)$", re.M)
    copies = len(re.findall(r"tt\.func public @softmax_c\d+\(", first))
    assert sorted(body.findall(first)) == sorted(body.findall(source) * copies)


def test_big_dump_rejects_a_file_without_a_module(big_dump, tmp_path):
    with pytest.raises(ValueError, match="no top-level module"):
        big_dump.build_big_dump("#loc = loc(unknown)\n")
    out = tmp_path / "big.ttgir"
    bad = tmp_path / "bad.ttgir"
    bad.write_text("tt.func @f() {\n}\n")
    assert big_dump.main([str(out), "--source", str(bad)]) == 1
    assert not out.exists()
