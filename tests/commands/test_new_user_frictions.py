"""Issue 32 part A: the frictions a new user met, each tested as a class (JSON documents, ranks in a lit file,
exit statuses, click's messages, passes, hardware mismatches, TMEM in every command)."""
from __future__ import annotations

import json

import pytest

from linlayout_cli.cli import run

B2 = "#ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [{}], warpsPerCTA = [1, 1], order = [1, 0]}}>"
B1 = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>"
B3 = ("#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 1], "
      "order = [2, 1, 0]}>")


def _file(tmp_path, aliases: dict) -> str:
    f = tmp_path / "lit.mlir"
    f.write_text("".join(f"#{name} = {attr}\n" for name, attr in aliases.items()))
    return str(f)


# ----------------------------------------------------------------------------------------- A.1 one JSON document

@pytest.mark.parametrize("count", [1, 2, 5])
@pytest.mark.parametrize("hw", [False, True])
def test_json_of_a_files_aliases_is_one_document(tmp_path, count, hw):
    """-i FILE --json: one JSON document, {"layouts": [...]}, however many aliases the file holds (one included)."""
    names = [f"b{i}" for i in range(count)]
    path = _file(tmp_path, {n: B2.format("4, 8" if i % 2 else "8, 4") for i, n in enumerate(names)})
    code, out, err = run(["-i", path, "-t", "tensor<4x4xf16>", "--json"] + (["--use-hw-view"] if hw else []))
    assert code == 0 and not err
    doc = json.loads(out)                                # one document: json.loads refuses two
    assert [layout["alias"] for layout in doc["layouts"]] == names


def test_json_of_one_named_layout_is_the_grid_object(tmp_path):
    """One layout named on the command line (-l, one --alias-names entry, a -t encoding) keeps the plain object."""
    path = _file(tmp_path, {"a": B2.format("4, 8"), "b": B2.format("8, 4")})
    for argv in (["-l", B2.format("4, 8")], ["-i", path, "--alias-names", "b"]):
        doc = json.loads(run([*argv, "-t", "tensor<4x4xf16>", "--json"])[1])
        assert "elements" in doc and "layouts" not in doc
    both = json.loads(run(["-i", path, "--alias-names", "a,b", "-t", "tensor<4x4xf16>", "--json"])[1])
    assert [x["alias"] for x in both["layouts"]] == ["a", "b"]


def test_json_without_t_is_one_document():
    from golden_cases import DATA
    code, out, err = run(["-i", str(DATA / "triton_lit" / "optimize_epilogue.mlir"), "--json"])
    assert code == 0
    assert len(json.loads(out)["layouts"]) >= 2


# ----------------------------------------------------------------------------------------- A.2 ranks in a lit file

def test_aliases_of_other_ranks_are_named_and_skipped(tmp_path):
    path = _file(tmp_path, {"one": B1, "two": B2.format("4, 8"), "three": B3, "two_b": B2.format("8, 4")})
    code, out, err = run(["-i", path, "-t", "tensor<4x4xf16>"])
    assert code == 0
    heads = [line for line in out.splitlines() if line.startswith("Print layout attribute:")]
    assert [h.split(" = ")[0].split(": ")[1] for h in heads] == ["#two", "#two_b"]
    assert err.splitlines() == ["ttlayout: note: #one skipped: its rank is 1, -t's is 2",
                                "ttlayout: note: #three skipped: its rank is 3, -t's is 2"]
    same = run(["-i", path, "-t", "tensor<4x4xf16>", "--alias-names", "two,two_b"])[1]
    assert out == same.replace("\n\n", "\n")             # the fitting aliases as --alias-names prints them


def test_no_alias_of_the_rank_is_an_error_naming_each(tmp_path):
    path = _file(tmp_path, {"one": B1, "three": B3})
    code, out, err = run(["-i", path, "-t", "tensor<4x4xf16>"])
    assert code == 1 and not out
    assert err == "ttlayout: error: no layout alias of the -i file has the rank 2 of -t: #one (rank 1), #three (rank 3)\n"


def test_a_named_alias_of_another_rank_stays_an_error(tmp_path):
    path = _file(tmp_path, {"one": B1, "two": B2.format("4, 8")})
    code, out, err = run(["-i", path, "-t", "tensor<4x4xf16>", "--alias-names", "one"])
    assert code == 1 and "rank" in err and not out


# ----------------------------------------------------------------------------------------- A.10 diff --exit-code

A = B2.format("4, 8")
B = B2.format("8, 4")


@pytest.mark.parametrize("argv,status", [
    ([A, A], 0), ([A, B], 1), ([A, "#ttg.nope<{}>"], 2), ([A], 2), ([A, A, "--bogus"], 2), ([A, A, "--target", "x"], 2),
    ([A, B, "--json"], 1), (["#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
                             "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>"], 1),
])
def test_diff_exit_code_is_gits(argv, status):
    code, out, err = run(["diff", *argv, "-t", "tensor<16x16xf16>", "--exit-code"])
    assert code == status, err
    assert bool(out) == (status != 2) and bool(err) == (status == 2)


def test_diff_without_exit_code_keeps_0_and_1():
    assert run(["diff", A, B, "-t", "tensor<16x16xf16>"])[0] == 0
    assert run(["diff", A, "#ttg.nope<{}>", "-t", "tensor<16x16xf16>"])[0] == 1


# ----------------------------------------------------------------------------------------- A.5 click in our voice

CLICK_WORDS = ("Got unexpected", "requires an argument", "No such option", "Invalid value", "Missing argument",
               "Did you mean", "valid integer", "'text', 'json'", "x>=")


def _one_error_line(argv):
    code, out, err = run(argv)
    assert code == 1 and not out, (argv, code)
    assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("ttlayout: error: "), (argv, err)
    assert not any(w in err for w in CLICK_WORDS), (argv, err)
    return err


def _every_option():
    from linlayout_cli.commands import COMMANDS, PRINT, load
    for name in COMMANDS:
        for opt in load(name).OPTIONS:
            yield pytest.param([] if name == PRINT else [name], opt, id=f"{name}{opt.decls[0]}")


@pytest.mark.parametrize("prefix,opt", list(_every_option()))
def test_every_option_without_its_value_or_with_a_bad_one(prefix, opt):
    """Each command x each option: no value, a bad choice or number, an unknown option, a word too many."""
    decl = opt.decls[0]
    if opt.kind != "flag":
        err = _one_error_line([*prefix, decl])
        assert f"{decl} needs a value" in err
        if isinstance(opt.type, tuple):
            err = _one_error_line([*prefix, decl, "nonsense"])
            assert f"invalid {decl}: 'nonsense' is not one of {', '.join(opt.type)}" in err
        elif opt.type is int:
            err = _one_error_line([*prefix, decl, "x"])
            assert f"invalid {decl}: 'x' is not an integer" in err
    unknown = "--" + decl.lstrip("-") + "zz"              # (-tzz would be -t zz)
    err = _one_error_line([*prefix, unknown] + ([] if opt.kind == "flag" else ["1"]))
    assert f"unknown option '{unknown}'" in err


@pytest.mark.parametrize("argv,words", [
    (["lookup", "-l", A, "-t", "tensor<8x8xf16>", "--element", "5", "7"], "--element 5,7"),
    (["lookup", "-l", A, "-t", "tensor<8x8xf16>", "--element", "1", "2", "3"], "--element 1,2,3"),
    (["-i", "-", "-t", "tensor<8x8xf16>", "--alias-names", "a", "b"], "--alias-names a,b"),
    (["-l", A, "-t", "tensor<8x8xf16>", "extra"], "'ttlayout' takes no positional argument"),
    (["info", "-l", A, "-t", "tensor<8x8xf16>", "extra"], "'ttlayout info' takes no positional argument"),
    (["diff", A, A, A, "-t", "tensor<8x8xf16>"], "'ttlayout diff' takes A B"),
    (["-l", "#ttg.blocked<{sizePerThread", "=", "[1]}>", "-t", "x"], "quote a layout"),
    (["-l", A, "-t", "tensor<8x8xf16>", "--colour", "never"], "unknown option '--colour' (did you mean '--color'?)"),
    (["help", "a", "b"], "'ttlayout help' takes one COMMAND or TOPIC"),
    (["-l", A, "-t", "tensor<8x8xf16>", "--max-elements", "0"], "invalid --max-elements: 0 is below the minimum 1"),
])
def test_click_mistakes_get_a_hint(argv, words):
    assert words in _one_error_line(argv)


def test_the_help_named_is_the_commands_own():
    assert _one_error_line(["audit", "--top"]).endswith("(see 'ttlayout audit --help')\n")
    assert _one_error_line(["-l"]).endswith("(see 'ttlayout --help')\n")


# ----------------------------------------------------------------------------------------- A.7 terminal tables

ANSI = __import__("re").compile(r"\x1b\[[0-9;]*m")


def _columns_back(text: str, table) -> list[tuple[str, ...]]:
    """The cells of a rich-drawn table read back from the terminal text: each line cut at the column starts (the
    header's '┃' / '│' for a boxed table, the header names for a `fit` one); a line whose first column is not empty
    starts a row, the others continue it (the wrapped part of a cell)."""
    lines = [ANSI.sub("", line) for line in text.splitlines()]
    boxed = not table.fit
    rows: list[list[str]] = []
    if boxed:                                            # the body starts below the header's ━━━ rule
        head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("━"))
        body = [line for line in lines[head + 1:] if "│" in line]
        pieces = [[p.strip() for p in line.split("│")] for line in body]
    else:
        head = next(i for i, line in enumerate(lines) if all(w in line for w in table.columns[-1].split()))
        starts, at = [], 0
        for col in table.columns:
            at = lines[head].index(col, at)
            starts.append(at)
        pieces = [[line[a:b].strip() for a, b in zip(starts, starts[1:] + [None])] for line in lines[head + 1:] if line]
    for cells in pieces:
        if cells[0]:
            rows.append(list(cells))
        else:
            for i, c in enumerate(cells):
                rows[-1][i] = (rows[-1][i] + " " + c) if c else rows[-1][i]
    return [tuple(c.replace(" ", "") for c in row) for row in rows]


_WORD = __import__("hypothesis").strategies.from_regex(r"[a-z_]{1,12}(@[A-Z0-9]{8})?(\.py:[0-9]{1,3})?", fullmatch=True)


@__import__("hypothesis").settings(max_examples=30)
@__import__("hypothesis").given(data=__import__("hypothesis").strategies.data())
def test_rich_tables_never_drop_a_column_nor_cut_a_word(data):
    """Random tables (identifiers with @hashes, phrases) at terminal widths 60-160: every cell reads back whole
    from the drawn table, and no '…'."""
    from hypothesis import strategies as st

    from linlayout_cli.reports.blocks import Table, to_rich
    ncols = data.draw(st.integers(2, 9), label="columns")
    columns = tuple(f"c{i}" + data.draw(st.sampled_from(["", " bytes", "olumn"])) for i in range(ncols))
    cell = st.lists(_WORD, min_size=1, max_size=3).map(" ".join)
    rows = tuple((str(n + 1),) + tuple(data.draw(cell) for _ in columns[1:])     # a row number first, as audit's
                 for n in range(data.draw(st.integers(1, 4))))
    fit = data.draw(st.booleans(), label="fit")
    if fit:
        columns = tuple(c.split()[0] for c in columns[:-2]) + ("layouts", "verdict")
    table = Table(columns, rows, fit=fit)
    width = data.draw(st.integers(60, 160), label="width")
    text = to_rich([table], width)
    assert "…" not in text
    assert _columns_back(text, table) == [tuple(c.replace(" ", "") for c in row) for row in rows]


def test_audit_of_many_kernels_on_a_100_column_terminal(monkeypatch, tmp_path):
    """The ranked table of kernels of the test cache at 100 columns: the cost column is there and every kernel
    name (with its @hash) reads back whole."""
    import shutil

    from golden_cases import DATA

    from linlayout_cli.commands import output
    from linlayout_cli.reports.blocks import Table
    kernels = sorted((DATA / "cache").glob("*/flash_attention.ttgir"))[:2] + sorted(
        (DATA / "cache").glob("*/matmul_epilogue_transpose.ttgir"))[:1]
    for k in kernels:
        shutil.copytree(k.parent, tmp_path / k.parent.name)
    names = sorted(f"{k.stem}@{k.parent.name[:8]}" for k in kernels)
    monkeypatch.setattr(output, "on_terminal", lambda: True)
    monkeypatch.setattr(output, "width", lambda: 100)
    code, text, _ = run(["audit", str(tmp_path)])
    text = text.split("\n\n")[0]                        # the ranked table (the costliest ops follow)
    lines = [ANSI.sub("", line) for line in text.splitlines()]
    assert code == 0 and "…" not in text
    header = next(line for line in lines if "kernel" in line and "┃" in line)
    columns = tuple(c.strip() for c in header.split("┃"))
    assert "cost" in columns
    back = sorted(row[columns.index("kernel")] for row in _columns_back(text, Table(columns, (), fit=False)))
    assert back == names


# ----------------------------------------------------------------------------------------- A.6 passes

def test_pass_list_names_every_module_without_json():
    from golden_cases import DATA
    dump = str(DATA / "dumps" / "softmax.sm90.mlir_dump.txt")
    code, out, err = run(["audit", dump, "--pass", "list"])
    assert code == 0 and not err
    rows = [line.split() for line in out.splitlines()[2:]]
    full = json.loads(run(["audit", dump, "--json"])[1])["passes"]
    assert [int(r[0]) for r in rows] == [p["number"] for p in full]
    assert [int(r[1]) for r in rows] == [p["line"] for p in full]
    assert [" ".join(r[3:]).replace("  (audited by default)", "").replace(" (audited by default)", "") for r in rows] \
        == [p["dump"] for p in full]
    default = [r for r in rows if "default)" in " ".join(r)]
    assert len(default) == 1 and default[0][2] == "TTGIR" and "ConvertTritonGPUToLLVM" in " ".join(default[0])
    listed = json.loads(run(["audit", dump, "--pass", "list", "--json"])[1])["passes"]
    assert [p["number"] for p in listed if p["default"]] == [int(default[0][0])]
    assert [p["dump"] for p in listed] == [p["dump"] for p in full]


def test_line_header_names_the_pass():
    from golden_cases import DATA
    dump = str(DATA / "dumps" / "softmax.sm90.mlir_dump.txt")
    head = run(["audit", dump, "--line", "8801"])[1].splitlines()[0]
    assert head.endswith(", in IR Dump Before ConvertTritonGPUToLLVM")
    number = next(p["number"] for p in json.loads(run(["audit", dump, "--pass", "list", "--json"])[1])["passes"]
                  if p["dump"] == "IR Dump Before TritonGPURemoveLayoutConversions")
    code, out, err = run(["audit", dump, "--pass", str(number), "--json"])
    line = json.loads(out)["ops"][0]["line"]
    head = run(["audit", dump, "--pass", str(number), "--line", str(line)])[1].splitlines()[0]
    assert head.endswith(", in IR Dump Before TritonGPURemoveLayoutConversions"), head


# ----------------------------------------------------------------------------------------- A.11 the quick subset

def test_the_quick_marker_is_registered_and_names_real_files():
    """`python -m pytest -m quick` (README): the marker is declared in pyproject (no unknown-marker warning) and
    every file of conftest's QUICK list exists, so the subset never silently shrinks to nothing."""
    import importlib.util

    from golden_cases import ROOT
    # loaded by path: `import conftest` may give tests/lsp/conftest.py in a worker that collected that folder first
    spec = importlib.util.spec_from_file_location("tests_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    assert '\nmarkers = ["quick: ' in (ROOT / "pyproject.toml").read_text()
    assert conftest.QUICK and all((ROOT / "tests" / name).is_file() for name in conftest.QUICK)
    assert not any(name.startswith(("golden/", "fuzz/", "browser/")) for name in conftest.QUICK)


# ----------------------------------------------------------------------------------------- A.4 hardware mismatches

W = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"


def _targets_with(engine):
    from linlayout_cli.analysis.targets import KNOWN
    return [name for name, t in KNOWN.items() if engine in t.engines], [
        name for name, t in KNOWN.items() if engine not in t.engines and not t.bank_gap]


@pytest.mark.parametrize("engine", ["tma", "wgmma"])
def test_swizzle_for_a_unit_the_target_lacks_is_refused(engine):
    having, lacking = _targets_with(engine)
    assert having and "sm80" in lacking
    for target in lacking:
        code, out, err = run(["swizzle", "-r", W, "-t", "tensor<64x64xf16>", "--for", engine, "--target", target])
        assert code == 1 and not out and f"--for {engine}: {target}," in err, (target, err)
    for target in having:
        code, out, err = run(["swizzle", "-r", W, "-t", "tensor<64x64xf16>", "--for", engine, "--target", target])
        assert code == 0 and out.startswith("#ttg.nvmma_shared<") and not err, (target, err)
    assert set(having) == ({"sm90", "sm100"} if engine == "tma" else {"sm90"})


def test_no_tma_hint_where_the_target_has_no_tma():
    out = run(["swizzle", "-r", W, "-d", W.replace("[4, 8]", "[8, 4]"), "-t", "tensor<64x64xf16>", "--target", "sm80"])[1]
    assert "--for tma" not in out


def test_target_overriding_the_dumps_own_is_said_once():
    from golden_cases import DATA
    dump = str(DATA / "kernels" / "matmul.sm90.ttgir")
    for argv in (["audit", dump], ["advise", dump],
                 ["convert", "-i", dump, "--alias-names", "blocked,mma", "-t", "tensor<128x64xf16>"],
                 ["diff", "-i", dump, "--alias-names", "blocked,mma", "-t", "tensor<128x64xf16>"]):
        code, out, err = run([*argv, "--target", "blackwell"])
        assert code == 0 and out
        assert err == "ttlayout: note: --target sm100 overrides the dump's ttg.target cuda:90 (sm90)\n", argv
        same = run([*argv, "--target", "sm90"])
        assert same[0] == 0 and not same[2]                      # naming the dump's own target says nothing
        assert run([*argv, "--target", "blackwell"])[1] == run([*argv, "--target", "sm100"])[1]


@pytest.mark.parametrize("tpw,lanes", [("[2, 8]", 16), ("[1, 2]", 2), ("[4, 8]", 32), ("[8, 8]", 64), ("[16, 8]", 128)])
def test_lanes_per_warp_no_target_has_get_one_note(tpw, lanes):
    attr = f"#ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = {tpw}, warpsPerCTA = [1, 1], order = [1, 0]}}>"
    code, out, err = run(["-l", attr, "-t", "tensor<16x16xf16>"])
    assert code == 0 and out.startswith("Print layout attribute: ")
    if lanes in (32, 64):
        assert not err
    else:
        assert err.count("\n") == 1 and err.startswith(f"ttlayout: note: {lanes} lanes per warp match no target")
    assert out == run(["-l", attr, "-t", "tensor<16x16xf16>", "-o", "-"])[1]
