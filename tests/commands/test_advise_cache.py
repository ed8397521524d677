"""`advise` takes what `audit` takes (issue 30, item 4): directories, `--cache [DIR]`, `NAME@HASH` labels as
`audit --cache` prints them, `--top N` (the N kernels audit ranks costliest); `audit`'s text ends with the
`ttlayout advise` line for its worst kernel; and the two commands share one cost unit."""
from __future__ import annotations

import json
import shlex
import shutil

import pytest
from golden_cases import DATA

from linlayout_cli.cli import run
from linlayout_cli.errors import abbreviate_path

CACHE = DATA / "cache"
KERNELS = DATA / "kernels"
# three kernels of the test cache: (label, its cache directory); reduce_sum_axis0@3JVNNKGQ costs most of them
PICK = {"vector_add@ZABXXM26": "ZABXXM263Q", "reduce_sum_axis1_wide@G4VVTIUO": "G4VVTIUOCG",
        "reduce_sum_axis0@3JVNNKGQ": "3JVNNKGQCY"}


def one_error(argv) -> str:
    code, out, err = run(argv)
    assert code != 0 and out == "" and err.startswith("ttlayout: error: ") and err.count("\n") == 1, (code, err)
    assert "Traceback" not in err
    return err[len("ttlayout: error: "):].strip()


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A small Triton cache: three directories of tests/data/cache, as Triton wrote them."""
    root = tmp_path_factory.mktemp("cache")
    for prefix in PICK.values():
        (src,) = [p for p in CACHE.iterdir() if p.name.startswith(prefix)]
        shutil.copytree(src, root / src.name)
    return root


def _audit_ranking(cache) -> list[str]:
    code, out, _ = run(["audit", "--cache", str(cache), "--json", "-j", "1"])
    assert code == 0
    return [k["name"] for k in json.loads(out)["kernels"]]


def test_top_advises_on_the_kernels_audit_ranks_costliest(cache):
    ranking = _audit_ranking(cache)
    assert sorted(ranking) == sorted(PICK) and ranking[0] == "reduce_sum_axis0@3JVNNKGQ"
    code, out, _ = run(["advise", "--cache", str(cache), "--top", "2", "--json", "-j", "1"])
    doc = json.loads(out)
    assert code == 0 and [k["label"] for k in doc["kernels"]] == ranking[:2]
    assert doc["kernels_ranked"] == 3 and doc["ranked_by"] == "ttlayout audit cost"
    code, out, _ = run(["advise", "--cache", str(cache), "-j", "1"])          # default: the costliest
    assert code == 0 and out.startswith(f"ttlayout advise {cache}: the costliest of 3 kernels as 'ttlayout audit' "
                                        "ranks them")
    assert out.count("\nttlayout advise ") == 1 and "(reduce_sum_axis0@3JVNNKGQ): reduce_sum_axis0" in out


def test_a_label_as_audit_prints_it_picks_the_kernel(cache):
    code, out, _ = run(["advise", "--cache", str(cache), "vector_add@ZABXXM26", "reduce_sum_axis1_wide@G4VVTIUO",
                        "--json"])
    doc = json.loads(out)
    assert code == 0 and [k["label"] for k in doc["kernels"]] == ["vector_add@ZABXXM26",
                                                                   "reduce_sum_axis1_wide@G4VVTIUO"]
    assert doc["ranked_by"] is None and doc["kernels"][0]["target"] == "gfx942"


def test_a_directory_of_kernels_is_advised_like_the_cache(tmp_path):
    for name in ("vector_add.sm90", "reduce_sum_axis0.sm90"):
        shutil.copy(KERNELS / f"{name}.ttgir", tmp_path / f"{name}.ttgir")
    (tmp_path / "out").mkdir()
    code, out, _ = run(["advise", str(tmp_path), "--top", "2", "--write-dir", str(tmp_path / "out"), "--json"])
    doc = json.loads(out)
    assert code == 0 and len(doc["kernels"]) == 2
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(f"{k['label']}.ttgir" for k in doc["kernels"] if k["written"])


def test_audit_ends_with_the_advise_line_that_works(cache, tmp_path):
    path = str(KERNELS / "reduce_sum_axis0.sm90.ttgir")
    code, out, _ = run(["audit", path])
    last = out.rstrip("\n").splitlines()[-1]
    assert code == 0 and last == f"advise        ttlayout advise {path}"
    code, advice, _ = run(shlex.split(last.split(None, 1)[1])[1:])
    assert code == 0 and advice.startswith(f"ttlayout advise {path}: reduce_sum_axis0")
    code, out, _ = run(["audit", "--cache", str(cache), "-j", "1"])
    last = out.rstrip("\n").splitlines()[-1]
    assert last == f"advise        ttlayout advise --cache {cache} reduce_sum_axis0@3JVNNKGQ"
    code, advice, _ = run(shlex.split(last.split(None, 1)[1])[1:])
    assert code == 0 and "(reduce_sum_axis0@3JVNNKGQ): reduce_sum_axis0, sm90" in advice.splitlines()[0]
    spaced = tmp_path / "my kernel.ttgir"
    shutil.copy(path, spaced)
    code, out, _ = run(["audit", str(spaced), "--target", "sm80"])
    assert out.rstrip("\n").splitlines()[-1] == f"advise        ttlayout advise '{spaced}' --target sm80"
    code, out, _ = run(["audit", path, "--json"])
    assert json.loads(out)["advise_command"] == f"ttlayout advise {path}"
    code, out, _ = run(["audit", "-"], open(path).read())
    assert "ttlayout advise" not in out                       # standard input: no command to copy


def test_hostile_options(cache, tmp_path, monkeypatch):
    assert one_error(["advise", "--cache", str(cache), "--top", "0"]).startswith("invalid --top: 0 is below")
    assert one_error(["advise", "--cache", str(cache), "--top", "-1"]).startswith("invalid --top: -1 is below")
    assert one_error(["advise", "--cache", str(cache), "--top", "abc"]).startswith("invalid --top: 'abc' is not")
    assert one_error(["advise", "--cache", str(cache), "softmax@AAAAAAAA"]) == (
        f"no kernel softmax@AAAAAAAA in {cache} (3 kernels; 'ttlayout audit --cache' lists them as NAME@HASH)")
    assert "vector_add is there as vector_add@ZABXXM26" in one_error(["advise", "--cache", str(cache),
                                                                      "vector_add@ZZZZ"])
    empty = tmp_path / "empty"
    empty.mkdir()
    # (a path over 60 characters, as xdist's temporary directories can be, is shown shortened, as every error does)
    assert one_error(["advise", "--cache", str(empty)]) == (
        f"no kernel in {abbreviate_path(str(empty), 60)}: no *.ttgir file below it")
    a_file = tmp_path / "cache.txt"
    a_file.write_text("not a cache\n")
    assert one_error(["advise", "--cache", str(a_file)]).startswith(f"--cache takes directories: {abbreviate_path(str(a_file))} is a file")
    assert "give --cache [DIR]" in one_error(["advise", "vector_add@ZABXXM26"])
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "none"))
    assert one_error(["advise", "--cache"]).startswith(f"no Triton cache at {tmp_path / 'none'}")
    assert one_error(["advise", str(KERNELS / "vector_add.sm90.ttgir"), "--top", "2"]).startswith("--top ranks")
    assert one_error(["advise", "--cache", str(cache), "--top", "2", "--write", str(tmp_path / "x.ttgir")]) == (
        "--write takes one kernel and 2 are advised on: give --write-dir DIR")
    assert not (tmp_path / "x.ttgir").exists()


# ----------------------------------------------------------------------------------------- one cost unit


@pytest.mark.parametrize("name", ["matmul.sm90", "reduce_sum_axis0.sm90", "flash_attention.gfx942",
                                  "gather_rows.sm90"])
def test_audit_and_advise_price_a_kernel_with_one_number(name):
    path = str(KERNELS / f"{name}.ttgir")
    _, audit_out, _ = run(["audit", path, "--json"])
    _, advise_out, _ = run(["advise", path, "--json"])
    audit, advise = json.loads(audit_out), json.loads(advise_out)
    assert audit["cost_unit"] == advise["cost_unit"] == "weighted cost per thread"
    assert audit["cost"] == pytest.approx(advise["cost"])
    assert sum(op["cost"] for op in audit["ops"]) == pytest.approx(advise["cost"])


def test_a_rows_cost_is_its_weighted_counts():
    """reduce_sum_axis0.sm90's store: one st.global.b32 per thread at 4 sectors per warp access: 1 x (1 + 2 x 4)
    = 9; its load: 8 x 128-bit per thread at 4 lines per warp access: 8 x (1 + 4) = 40 (docs/advise_model.md)."""
    _, out, _ = run(["audit", str(KERNELS / "reduce_sum_axis0.sm90.ttgir"), "--json"])
    ops = {o["op"]: o for o in json.loads(out)["ops"]}
    store = ops["tt.store"]
    assert (store["instructions_per_thread"], store["sectors_per_warp_access"]) == (1, 4)
    assert store["cost"] == 1 * (1 + 2 * 4) and store["waste"] == 0
    load = ops["tt.load"]
    assert (load["instructions_per_thread"], load["lines_per_warp_access"], load["cost"]) == (8, 4, 8 * (1 + 4))
    _, text, _ = run(["audit", str(KERNELS / "reduce_sum_axis0.sm90.ttgir")])
    _, advice, _ = run(["advise", str(KERNELS / "reduce_sum_axis0.sm90.ttgir")])
    unit = ("cost: weighted cost per thread (wavefront 1, shuffle 1, global instruction 1, sector 2, load line 1, "
            "barrier 8; x8 in loops), the unit audit and advise share")
    assert text.splitlines()[1].strip() == unit == advice.splitlines()[1].strip()
