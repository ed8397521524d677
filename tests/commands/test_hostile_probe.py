"""The second hostile probe (issue 32, part B), one test per class of input: a file of the wrong kind, output that
could be lost or clobbered, completion, the Python API and misleading messages. Each class is tried on every
member the probe found and on generated ones (Hypothesis where the class is open-ended)."""
from __future__ import annotations

import os
import shutil

import pytest
from golden_cases import DATA, load_suite

from linlayout_cli.cli import run

CACHE_ENTRY = DATA / "cache" / "2HFOXRNAP2OZVNPB3R4FVRZPGPQN6H4FSJVZUQF7SURL53CKHIFQ"


# ----------------------------------------------------------------------------------------- B.1 wrong kind of file

PROSE = ("hello, this is not a kernel\n", "", "   \n\n", "#blocked = #ttg.blocked<{sizePerThread = [1], "
         "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n", "// -----\nnotes about module layouts\n",
         "modules are great\n tt.funcs too\n")


@pytest.fixture
def cache_entry(tmp_path):
    for f in CACHE_ENTRY.iterdir():
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


@pytest.mark.parametrize("command", ["audit", "advise"])
def test_every_file_triton_writes_beside_a_kernel_is_refused_by_audit_and_advise(cache_entry, command):
    others = [p for p in sorted(os.listdir(cache_entry)) if not p.endswith(".ttgir")]
    (cache_entry / "kernel.py").write_text("import triton\n@triton.jit\ndef k(x):\n    pass\n")
    assert len(others) >= 5
    for name in others + ["kernel.py"]:
        code, out, err = run([command, str(cache_entry / name)])
        assert code == 1 and out == "" and err.count("\n") == 1, (name, out[:200], err)
        assert ", not TTGIR;" in err and "0 candidates" not in err, (name, err)
    code, out, err = run([command, str(cache_entry / "fp8_matmul.ttgir")])
    assert code == 0, err


@pytest.mark.parametrize("command", ["audit", "advise"])
@pytest.mark.parametrize("text", PROSE)
def test_a_text_holding_no_module_is_refused_whatever_its_name(tmp_path, command, text):
    for name in ("x.ttgir", "x.mlir", "x.txt"):
        path = tmp_path / name
        path.write_text(text)
        for argv, stdin in (([command, str(path)], None), ([command, "-"], text)):
            code, out, err = run(argv, stdin=stdin)
            assert code == 1 and out == "" and err.startswith("ttlayout: error: "), (argv, out[:200], err)
            assert "not TTGIR" in err and err.count("\n") == 1, err


def test_a_cache_directory_does_not_rank_prose_as_a_kernel(cache_entry):
    (cache_entry / "notes.ttgir").write_text("hello\n")
    code, out, err = run(["audit", str(cache_entry), "--json"])
    import json
    report = json.loads(out)
    assert [k["kernel"] for k in report["kernels"]] == ["fp8_matmul"], report["kernels"]
    assert [f["name"].split("@")[0] for f in report["failures"]] == ["notes"], report["failures"]


# ----------------------------------------------------------------------------------------- B.2 lost or clobbered output

BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
SHARED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
KERNEL = str(CACHE_ENTRY / "fp8_matmul.ttgir")
WITH_OUTPUT = (["-l", BLOCKED, "-t", "tensor<16x16xf16>"], ["info", "-l", BLOCKED, "-t", "tensor<16x16xf16>"],
               ["lookup", "-l", BLOCKED, "-t", "tensor<16x16xf16>", "--thread", "3"],
               ["bank", "-r", BLOCKED, "-s", SHARED, "-t", "tensor<16x16xf16>"],
               ["swizzle", "-r", BLOCKED, "-t", "tensor<16x16xf16>"], ["audit", KERNEL], ["advise", KERNEL])


@pytest.mark.parametrize("argv", WITH_OUTPUT, ids=lambda a: a[0])
def test_an_empty_output_name_and_a_file_named_as_a_directory_are_refused(tmp_path, argv):
    code, out, err = run(argv + ["-o", ""])
    assert code == 1 and out == "" and "empty" in err and err.count("\n") == 1, (out[:200], err)
    existing = tmp_path / "FILE"
    existing.write_text("kept\n")
    for name in (f"{existing}/", f"{existing}/.", f"{tmp_path}/new/"):
        code, out, err = run(argv + ["-o", name])
        assert code == 1 and out == "" and "ends with '/'" in err, (name, err)
    assert existing.read_text() == "kept\n" and sorted(os.listdir(tmp_path)) == ["FILE"]


def test_advise_write_and_output_naming_one_file_are_refused_before_anything_is_written(tmp_path):
    target = tmp_path / "P"
    (tmp_path / "link").symlink_to(target)
    for write, output in ((target, target), (target, tmp_path / "link"), (tmp_path / "link", target),
                          (tmp_path / "." / "P", target)):
        code, out, err = run(["advise", KERNEL, "--write", str(write), "-o", str(output)])
        assert code == 1 and out == "" and "name the same file" in err, (write, output, err)
        assert not target.exists()
    target.write_text("old\n")
    os.link(target, tmp_path / "hard")
    code, out, err = run(["advise", KERNEL, "--write", str(target), "-o", str(tmp_path / "hard")])
    assert code == 1 and "name the same file" in err and target.read_text() == "old\n"
    for flag in ("--write", "--write-dir"):
        code, out, err = run(["advise", KERNEL, flag, ""])
        assert code == 1 and out == "" and f"{flag} is empty" in err


def test_one_run_never_writes_one_file_twice(tmp_path):
    from linlayout_cli.errors import TTLayoutError
    from linlayout_cli.outfile import Sink
    sink = Sink(lambda data: None)           # the process's -o sink (cli.execute makes one per run)
    with sink(str(tmp_path / "a")) as put:
        put(b"first\n")
    os.symlink(tmp_path / "a", tmp_path / "b")
    with pytest.raises(TTLayoutError, match="just written"):
        with sink(str(tmp_path / "b")) as put:
            put(b"second\n")
    assert (tmp_path / "a").read_text() == "first\n"


# ----------------------------------------------------------------------------------------- B.3 memory bounded by input

def _peak(action) -> int:
    import tracemalloc
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("shape", ["[{}]", "[[],[]]", '{"a": [[], {}], "num_warps": 4}', "[1, [2, [3]]]"])
def test_a_file_kind_is_sniffed_from_a_bounded_prefix(shape):
    from linlayout_cli import inputs
    body = ",".join([shape] * (4_000_000 // len(shape)))
    for text in ("[" + body + "]", '{"hash": "x", "num_warps": 4, "pad": [' + body + "]}"):
        kind: list = []
        peak = _peak(lambda text=text, kind=kind: kind.append(inputs.file_kind("big.json", text)))
        assert kind[0] is not None and peak < 3 << 20, (shape, peak)       # 4 MB of text, < 3 MiB allocated
    assert "metadata" in kind[0].what


def test_a_metadata_file_is_read_with_a_size_limit(cache_entry):
    meta = cache_entry / "fp8_matmul.json"
    meta.write_text(meta.read_text()[:-1] + ', "pad": [' + ",".join(["[]"] * 600_000) + "]}")
    code, out, err = run(["audit", str(cache_entry), "--json"])
    import json
    failures = json.loads(out)["failures"]
    assert len(failures) == 1 and failures[0]["reason"].startswith("input file "), failures
    assert failures[0]["reason"].endswith("fp8_matmul.json is too large (the limit is 1 MiB)"), failures


def test_advise_prices_a_bounded_number_of_candidates_and_says_when_it_stopped(monkeypatch):
    from linlayout_cli.analysis import advise
    monkeypatch.setattr(advise, "MAX_PRICED", 6)
    text = _chain(12)
    tried = []
    real = advise.Pricer.price

    def price(self, candidates):
        tried.append(candidates)
        return real(self, candidates)
    monkeypatch.setattr(advise.Pricer, "price", price)
    code, out, err = run(["advise", "-"], stdin=text)
    assert code == 0, err
    assert len(tried) <= 6 + advise.MAX_PAIRS and "search cut short: " in out, out
    monkeypatch.setattr(advise, "MAX_PRICED", 1000)
    tried.clear()
    code, out, err = run(["advise", "-"], stdin=text)
    assert len(tried) > 6 + advise.MAX_PAIRS and "search cut short" not in out


def _chain(n: int) -> str:
    """A module of n aliases, each the result of a convert of the one before."""
    layouts = [f"#ttg.blocked<{{sizePerThread = [1, {s}], threadsPerWarp = [{t}, {32 // t}], warpsPerCTA = [4, 1], "
               f"order = [1, 0]}}>" for s in (1, 2, 4) for t in (1, 2, 4, 8)]
    lines = [f"#b{i} = {layouts[i % len(layouts)]}" for i in range(n)]
    lines += ['module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, '
              'ttg.target = "cuda:90"} {', "  tt.func public @k() {",
              "    %0 = arith.constant dense<0.0> : tensor<64x64xf16, #b0>"]
    lines += [f"    %{i} = ttg.convert_layout %{i - 1} : tensor<64x64xf16, #b{i - 1}> -> tensor<64x64xf16, #b{i}>"
              for i in range(1, n)]
    return "\n".join(lines + ["    tt.return", "  }", "}", ""])


# ----------------------------------------------------------------------------------------- B.6 completion

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_WORDS = st.sampled_from(["source", "bash_source", "zsh_source", "fish_source", "bash_complete", "zsh_complete",
                          "fish_complete", "bash", "_complete", "", "x_y", "bash_complete_extra"])


@settings(max_examples=60, deadline=None)
@given(instruction=st.one_of(_WORDS, st.text(max_size=12)),
       words=st.one_of(st.none(), st.sampled_from(["", "ttlayout", "ttlayout au", "ttlayout audit --t", "'"])),
       cword=st.one_of(st.none(), st.sampled_from(["0", "1", "2", "abc", "", "-1", "99", " 1"])))
def test_completion_never_raises_whatever_the_environment(instruction, words, cword):
    import io

    from linlayout_cli.cli import complete
    saved = {k: os.environ.get(k) for k in ("COMP_WORDS", "COMP_CWORD")}
    for key, value in (("COMP_WORDS", words), ("COMP_CWORD", cword)):
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    try:
        out, err = [], io.StringIO()
        code = complete(instruction, out.append, err)    # any exception fails the test
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    assert code in (0, 1) and err.getvalue().count("\n") <= 1, err.getvalue()
    if code == 1 and instruction.partition("_")[0] not in ("bash", "zsh", "fish"):
        assert "is not a completion instruction" in err.getvalue()


# ----------------------------------------------------------------------------------------- B.7 the Python API

_WRONG = (3, 2.5, None, b"bytes", ["x"], {"a": 1}, object(), True, "text", -1)
_KERNEL_TEXT = (CACHE_ENTRY / "fp8_matmul.ttgir").read_text()


def _api_calls():
    """(argument name, call with a value for that argument): every argument of the API's functions and methods."""
    from linlayout_cli import notebook as nb
    t = "tensor<16x16xf16>"
    one = nb.layout(BLOCKED, t)
    yield "lanes", lambda v: nb.layout(BLOCKED, t, lanes=v)
    yield "max_elements", lambda v: nb.layout(BLOCKED, t, max_elements=v)
    yield "tensor_type", lambda v: nb.layout(BLOCKED, v)
    yield "attr", lambda v: nb.layout(v, t)
    yield "shape", lambda v: nb.linear_layout(BLOCKED, v)
    yield "kind", lambda v: nb.linear_layout(BLOCKED, [16, 16], kind=v)
    yield "role", lambda v: nb.linear_layout(BLOCKED, [16, 16], "distributed", role=v)
    yield "bitwidth", lambda v: nb.bank_conflicts(BLOCKED, SHARED, [64, 64], v)
    yield "shape", lambda v: nb.bank_conflicts(BLOCKED, SHARED, v, 16)
    yield "hardware", lambda v: one.text(hardware=v)
    yield "hardware", lambda v: one.svg(hardware=v)
    yield "file", lambda v: one.write(v)
    yield "target", lambda v: nb.audit(_KERNEL_TEXT, target=v)
    yield "jobs", lambda v: nb.audit(str(CACHE_ENTRY), jobs=v)
    yield "x", lambda v: nb.audit(v)
    yield "target", lambda v: nb.advise(_KERNEL_TEXT, target=v)
    yield "source", lambda v: nb.advise(v)


def test_wrong_argument_types_raise_ttlayout_error_naming_the_argument():
    from linlayout_cli.errors import TTLayoutError
    for name, call in _api_calls():
        for value in _WRONG:
            try:
                call(value)
            except TTLayoutError as e:
                text = str(e)
                assert name in text or "missing -t" in text or "not a layout" in text or "tensor" in text \
                    or "target" in text or "cannot read" in text or "not TTGIR" in text \
                    or "must be" in text, (name, value, text)
            except Exception as e:                                   # a bare TypeError, KeyError, ...
                pytest.fail(f"{name}={value!r}: {type(e).__name__}: {e}")


def test_patched_refuses_a_change_number_below_one():
    from linlayout_cli import advise
    from linlayout_cli.errors import TTLayoutError
    result = advise(_KERNEL_TEXT)
    assert result.changes and result.patched(1) != _KERNEL_TEXT
    assert result.patched(len(result.changes) + 1) == _KERNEL_TEXT       # no module has that many: the input
    for bad in (0, -1, -len(result.changes), 1.0, "1", True):
        with pytest.raises(TTLayoutError, match="change must be"):
            result.patched(bad)


# ----------------------------------------------------------------------------------------- B.8 messages that mislead

@settings(max_examples=40, deadline=None)
@given(dims=st.lists(st.integers(1, 4096), min_size=1, max_size=4))
def test_a_shape_error_names_the_index_and_the_size_of_the_dimension(dims):
    bad = [k for k, d in enumerate(dims) if d & (d - 1)]
    ttype = f"tensor<{'x'.join(map(str, dims))}xf16>"
    code, out, err = run(["info", "-l", BLOCKED if len(dims) == 2 else
                          "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
                          "-t", ttype])
    if bad:
        assert code == 1 and f"dimension {bad[0]} of {ttype} has size {dims[bad[0]]}, not a power of two" in err, err


@pytest.mark.parametrize("given_name", [" a-b", "a-b ", " #a-b", "a-b,", " c , a-b"])
def test_alias_names_with_spaces_are_found_and_a_hint_never_suggests_the_name_given(tmp_path, given_name):
    path = tmp_path / "al.mlir"
    path.write_text(f"#a-b = {BLOCKED}\n#c = {BLOCKED}\n")
    code, out, err = run(["-i", str(path), "--alias-names", given_name, "-t", "tensor<16x16xf16>"])
    assert code == 0 and "#a-b = " in out, err
    from linlayout_cli import inputs
    from linlayout_cli.parsing.mlir_file import parse_alias_table
    table = parse_alias_table(path.read_text())
    for name in ("a-b", "c", "a-c", "zz"):
        hint = inputs.aliases_hint(table, name)
        assert f"did you mean #{name}?" not in hint, hint


def test_a_section_without_aliases_is_named_not_the_whole_file(tmp_path):
    path = tmp_path / "sec.mlir"
    path.write_text(f"#a = {BLOCKED}\nmodule {{}}\n// -----\nmodule {{}}\n")
    code, out, err = run(["-i", str(path), "--section", "2", "-t", "tensor<16x16xf16>"])
    assert code == 1 and "section 2 (line 4) of " in err and "holds no layout alias" in err, err
    for argv in (["-i", str(path), "--section", "2", "--alias-names", "a", "-t", "tensor<16x16xf16>"],
                 ["info", "-i", str(path), "--section", "2", "--alias-names", "a", "-t", "tensor<16x16xf16>"]):
        code, out, err = run(argv)
        assert code == 1 and "section 2 (line 4) has no layout alias" in err and "the file" not in err, err


@pytest.mark.parametrize("name", ["/etc/fp8_matmul", "../fp8_matmul", "x/../../fp8_matmul", "..", "a\\b"])
def test_a_metadata_name_holding_a_path_is_refused(cache_entry, name):
    import json
    meta = cache_entry / "fp8_matmul.json"
    data = json.loads(meta.read_text())
    data["name"] = name
    meta.write_text(json.dumps(data))
    code, out, err = run(["audit", str(cache_entry), "--json"])
    failures = json.loads(out)["failures"]
    assert len(failures) == 1 and "not a kernel's name" in failures[0]["reason"], failures
    from linlayout_cli import inputs
    (cache_entry / "fp8_matmul.ttgir").unlink()
    kind = inputs.path_kind(str(meta))
    assert kind is not None and ".ttgir" not in kind.ttgir and name not in kind.ttgir, kind


def test_the_assembly_of_another_kernel_is_refused(cache_entry):
    other = DATA / "cache" / "3JVNNKGQCYATXRRO6QAWJ7CS6JAYCMD46W55KWVY4EORLOND54JA" / "reduce_sum_axis0.ptx"
    code, out, err = run(["audit", str(cache_entry / "fp8_matmul.ttgir"), "--asm", str(other)])
    assert code == 1 and out == "" and "the assembly of kernel 'reduce_sum_axis0', not of kernel 'fp8_matmul'" in err
    shutil.copy(other, cache_entry / "fp8_matmul.ptx")                 # beside it, it is left out, not compared
    code, out, err = run(["audit", str(cache_entry / "fp8_matmul.ttgir"), "--json"])
    import json
    assert code == 0 and json.loads(out).get("asm") is None, err
    code, out, err = run(["audit", str(cache_entry / "fp8_matmul.ttgir"), "--asm", str(CACHE_ENTRY / "fp8_matmul.ptx"),
                          "--json"])
    assert code == 0 and json.loads(out)["asm"], err


# ----------------------------------------------------------------------------------------- B.4 searches polynomial in rank

def _rank_blocked(rank: int) -> str:
    ones = ", ".join(["1"] * rank)
    lanes = ", ".join(["2"] * 5 + ["1"] * (rank - 5))
    warps = ", ".join(["2"] * 2 + ["1"] * (rank - 2))
    order = ", ".join(map(str, range(rank - 1, -1, -1)))
    return (f"#ttg.blocked<{{sizePerThread = [{ones}], threadsPerWarp = [{lanes}], warpsPerCTA = [{warps}], "
            f"order = [{order}]}}>")


@pytest.mark.parametrize("rank", range(1, 13))
def test_the_swizzle_search_tries_polynomially_many_orders(rank):
    import itertools

    from linlayout_cli.analysis.swizzle import EXHAUSTIVE_RANK, search_orders
    orders = search_orders(rank)
    assert all(sorted(o) == list(range(rank)) for o in orders) and len({tuple(o) for o in orders}) == len(orders)
    assert len(orders) <= max(120, rank * rank)                     # 5! up to rank 5, rank^2 above
    if rank <= EXHAUSTIVE_RANK:
        assert {tuple(o) for o in orders} == set(itertools.permutations(range(rank)))
    else:                                     # every pair of fastest dims is tried
        assert {tuple(o[:2]) for o in orders} == set(itertools.permutations(range(rank), 2))


def test_a_rank_8_swizzle_says_the_search_was_bounded(monkeypatch):
    from linlayout_cli.analysis import swizzle
    tried = []
    real = swizzle.swizzled_offsets

    def counted(*args):
        tried.append(1)
        return real(*args)
    monkeypatch.setattr(swizzle, "swizzled_offsets", counted)
    code, out, err = run(["swizzle", "-r", _rank_blocked(8), "-t", "tensor<" + "x".join(["4"] * 8) + "xf16>"])
    assert code == 0 and "rank 8: the swizzled_shared search tried each pair of fastest dims" in out, (out, err)
    assert len(tried) < 56 * 27 + 10                  # 56 orders x (vec, perPhase, maxPhase) choices, not 8!


# ----------------------------------------------------------------------------------------- B.5 views at full speed

_MEMORY_VIEWS = ("#ttg.padded_shared<[32:+4, 64:+2] {order = [1, 0], shape = [64, 128]}>",
                 "#ttg.padded_shared<[4:+4] {order = [0, 1], shape = [64, 128]}>",
                 "#ttg.partitioned_shared<{numPartitions = 4, numGroups = 2, partitionDim = 0, partitionLayout = "
                 "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>",
                 "#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 1, partitionLayout = "
                 "#ttg.padded_shared<[8:+1] {order = [1, 0], shape = [64, 64]}>}>")


@pytest.mark.parametrize("attr", _MEMORY_VIEWS)
def test_padded_and_partitioned_tensor_views_take_the_vectorised_path_byte_for_byte(monkeypatch, attr):
    from linlayout_cli import render
    from linlayout_cli.render import memory
    argv = ["-l", attr, "-t", "tensor<64x128xf16>"]
    code, small, err = run(argv)
    assert code == 0, err
    calls = []
    real = memory._coords
    monkeypatch.setattr(memory, "_coords", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)                    # the path big views take
    code, big, err = run(argv)
    assert code == 0 and big == small
    assert not calls                                                  # no element formatted one by one


def _per_cell_spy(monkeypatch) -> list:
    """Records every call of the per-line / per-cell helpers of the shared memory views (formatting one
    coordinate, one memory position, one offset's padding). The big views call them a bounded number of times
    whatever the size (the command's size check asks for the padded size once), never once per cell or line."""
    from linlayout_cli.conversions import padded_shared
    from linlayout_cli.render import memory
    calls: list = []
    for owner, name in ((memory, "_coords"), (padded_shared.Padding, "padded_offset"),
                        (padded_shared.Padding, "pads_before")):
        real = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda *a, real=real, name=name: calls.append(name) or real(*a))
    return calls


def _both_paths(monkeypatch, argv) -> tuple:
    """(exit code, text) of the plain-Python path and of the path big views take (SMALL_LIMIT 0), with the
    per-cell calls the second one made."""
    from linlayout_cli import render
    code, small, err = run(argv)
    calls = _per_cell_spy(monkeypatch)
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)
    big_code, big, big_err = run(argv)
    monkeypatch.undo()
    return (code, small, err), (big_code, big, big_err), calls


_SHARED_GOLDEN = [c for c in load_suite("memory")
                  if c["kind"] in ("padded_shared", "partitioned_shared") and c["exit"] == 0]


@pytest.mark.parametrize("use_hw_view", [False, True], ids=["tensor", "hardware"])
@pytest.mark.parametrize("case", _SHARED_GOLDEN, ids=[c["id"] for c in _SHARED_GOLDEN])
def test_every_padded_and_partitioned_golden_view_is_the_same_on_the_fast_path(monkeypatch, case, use_hw_view):
    """Both views of every padded / partitioned case of golden/memory, byte for byte, on the path big views take,
    which formats no line or cell one by one (the hardware view did: 2048^2 took minutes)."""
    argv = ["-l", case["attr"], "-t", "tensor<%sx%s>" % ("x".join(map(str, case["shape"])), case["dtype"])]
    argv += ["--use-hw-view"] if use_hw_view else []
    small, big, calls = _both_paths(monkeypatch, argv)
    assert big == small
    if small[0] == 0:
        assert len(calls) <= 2, calls


_POW2 = st.integers(0, 6).map(lambda k: 1 << k)


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(_POW2, _POW2), min_size=1, max_size=3, unique_by=lambda p: p[0]),
       dims=st.lists(st.integers(0, 4).map(lambda k: 1 << k), min_size=1, max_size=3),
       reverse=st.booleans(), use_hw_view=st.booleans(), partitions=st.sampled_from([0, 2, 4]))
def test_random_padded_and_partitioned_views_are_the_same_on_the_fast_path(pairs, dims, reverse, use_hw_view,
                                                                          partitions):
    """Random intervals and paddings, shapes, orders, partitions: the fast path's text is the plain path's."""
    order = list(range(len(dims)))
    order = order if reverse else order[::-1]
    pads = ", ".join(f"{i}:+{p}" for i, p in pairs)
    shape = list(dims)
    attr = f"#ttg.padded_shared<[{pads}] {{order = {order}, shape = {shape}}}>"
    if partitions and len(dims) >= 2 and shape[0] % partitions == 0:
        piece = [shape[0] // partitions] + shape[1:]
        attr = (f"#ttg.partitioned_shared<{{numPartitions = {partitions}, numGroups = 1, partitionDim = 0, "
                f"partitionLayout = #ttg.padded_shared<[{pads}] {{order = {order}, shape = {piece}}}>}}>")
    argv = ["-l", attr, "-t", "tensor<%sxf16>" % "x".join(map(str, shape))] + (["--use-hw-view"] if use_hw_view
                                                                              else [])
    with pytest.MonkeyPatch.context() as monkeypatch:
        small, big, calls = _both_paths(monkeypatch, argv)
    assert big == small
    assert small[0] != 0 or len(calls) <= 2


@pytest.mark.parametrize("attr", _MEMORY_VIEWS)
def test_padded_and_partitioned_hardware_views_take_the_vectorised_path(monkeypatch, attr):
    """8192 offsets, hardware view: a bounded number of per-line calls (the plain path makes one per offset)."""
    small, big, calls = _both_paths(monkeypatch, ["-l", attr, "-t", "tensor<64x128xf16>", "--use-hw-view"])
    assert small[0] == 0 and big == small and small[1].count("Offset: ") >= 8192
    assert len(calls) <= 2, len(calls)


def test_ragged_lines_keep_each_items_own_text():
    import numpy as np

    from linlayout_cli.render.chars import Ragged, coord_cells
    lines = Ragged(3)
    lines.text(b"x")
    lines.number([5, 10], np.array([True, True, False]))
    lines.choice([b"ab", b"c"], [1, -1, 0])
    lines.cells(coord_cells(np.array([[1, 2, 3], [4, 5, 6]]), [4, 8], ":"))
    lines.text(b";\n")
    assert lines.bytes() == b"x5c(1:4);\nx10(2:5);\nxab(3:6);\n"


# ----------------------------------------------------------------------------------------- B.3 output that streams

# Spawns its one child and writes that child's ru_maxrss (KB) and exit code. A child started straight from the
# test process starts its ru_maxrss at the pytest worker's own peak (Linux carries it across vfork + exec), so the
# figures would be that peak, whatever the command used; the launcher's fresh, small address space is all its
# child inherits.
_LAUNCH = ("import os, sys\n"
           "pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)\n"
           "_, status, usage = os.wait4(pid, 0)\n"
           "with open(sys.argv[1], 'w') as f:\n"
           "    f.write(f'{usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}')\n")


def _child_peak_mb(argv, tmp_path) -> float:
    """Peak RSS (MB) of `ttlayout ARGV` run as its own process (ru_maxrss of that child, from wait4, through
    _LAUNCH): memory, never time."""
    import subprocess
    import sys
    from pathlib import Path
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    report = tmp_path / ".peak"
    child = subprocess.run([sys.executable, "-c", _LAUNCH, str(report), sys.executable, "-m", "linlayout_cli",
                            *argv], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    maxrss, code = map(int, report.read_text().split())
    assert child.returncode == 0 and code == 0, child.stderr.decode()
    return maxrss / 1024


def test_a_child_peak_counts_the_child_not_the_test_process(tmp_path):
    """The measure above must see a child's own pages only: after this process touched 300 MB, a 16x16 print still
    measures under 100 MB (a child started straight from here would report over 300 MB)."""
    hog = bytearray(300 << 20)
    hog[::4096] = b"x" * len(hog[::4096])
    del hog
    assert _child_peak_mb(["-l", BLOCKED, "-t", "tensor<16x16xf16>"], tmp_path) < 100


BLOCKED_8_WARPS = ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
                   "order = [1, 0]}>")


def test_lookup_thread_json_streams_its_elements(tmp_path):
    """A thread of a 4096x4096 tensor holds 65,536 elements: their JSON is written as it is made (it took ~120 MB
    held whole, ~450 MB at 8192x8192), so the process needs no more than for a 16x16 tensor plus a margin."""
    import json
    small = _child_peak_mb(["lookup", "-l", BLOCKED_8_WARPS, "-t", "tensor<16x16xf16>", "--thread", "5", "--json",
                            "-o", "small.json"], tmp_path)
    big = _child_peak_mb(["lookup", "-l", BLOCKED_8_WARPS, "-t", "tensor<4096x4096xf16>", "--thread", "5",
                          "--json", "-o", "big.json"], tmp_path)
    report = json.loads((tmp_path / "big.json").read_text())
    assert report["thread"] == 5 and len(report["elements"]) == 4096 * 4096 // 256
    assert report["elements"][0] == {"block": 0, "register": 0, "element": [0, 40]}
    assert big < small + 40, (small, big)


@pytest.mark.parametrize("attr, shape, block", [
    (BLOCKED_8_WARPS, [64, 64], None),
    ("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], "
     "CGALayout = [[1]]}>", [1024], None),
    ("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], "
     "CGALayout = [[1]]}>", [1024], 1),
    ("#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [1, 1, 4], "
     "order = [2, 1, 0]}>", [1, 2, 2], None),
])
def test_streamed_thread_json_is_json_dumps_byte_for_byte(attr, shape, block):
    import json

    from linlayout_cli.analysis import lookup
    from linlayout_cli.conversions import to_linear_layout
    from linlayout_cli.parsing import parse_attribute
    from linlayout_cli.reports import info
    ll = to_linear_layout(parse_attribute(attr), shape)
    for thread in (0, 37):
        held = lookup.thread_elements(ll, thread, block)
        expected = json.dumps({"thread": thread, "elements": [{"block": h.block, "register": h.register,
                                                                "element": list(h.element)} for h in held]},
                              indent=2) + "\n"
        pieces: list[str] = []
        info.write_thread_json(thread, iter(held), pieces.append, chunk=3)
        assert "".join(pieces) == expected == info.thread_json(thread, held)
    assert info.thread_json(3, []) == json.dumps({"thread": 3, "elements": []}, indent=2) + "\n"


REPLICATED = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [32, 1], "
              "order = [1, 0]}>")


def test_color_of_a_heavily_replicated_layout_is_painted_in_bounded_pieces(tmp_path):
    """1,024 threads over 16 rows: every cell lists 64 holders and a line of tensor<16x1024xf16> is 6 MB once
    coloured. Each line was painted whole (numpy arrays of ~20 bytes per byte); it is painted in 64 KiB pieces,
    and the pieces put together are the whole line's painting."""
    small = _child_peak_mb(["-l", REPLICATED, "-t", "tensor<16x16xf16>", "--color", "always", "-o", "s.txt"],
                           tmp_path)
    big = _child_peak_mb(["-l", REPLICATED, "-t", "tensor<16x1024xf16>", "--color", "always", "-o", "b.txt"],
                         tmp_path)
    assert big < small + 30, (small, big)


def test_a_long_line_cut_at_safe_bytes_is_painted_as_the_whole_line():
    from linlayout_cli.conversions import to_linear_layout
    from linlayout_cli.parsing import parse_attribute
    from linlayout_cli.render import render_layout
    from linlayout_cli.render.color import LineBuffer, Styles, color_system, painter
    ll = to_linear_layout(parse_attribute(REPLICATED), [4, 256])
    plain: list[bytes] = []
    render_layout(ll, False, plain.append)
    text = b"".join(plain)
    paint = painter(ll, False, 16, Styles(color_system(True)))
    assert getattr(paint, "safe_cuts", ())
    whole = b"".join(paint(line) for line in text.splitlines(keepends=True))
    out: list[bytes] = []
    buffer = LineBuffer(paint, out.append)
    buffer.LONG_LINE = 300
    for k in range(0, len(text), 1000):
        buffer(text[k:k + 1000])
    buffer.close()
    assert len(out) > text.count(b"\n") and b"".join(out) == whole


def test_a_rank_24_view_stays_within_a_constant(tmp_path):
    """A rank-24 blocked layout over 2^18 elements, its last dimensions of size 1: the view streams like a rank-2
    one (the probe saw 370 MB). Each row is one cell there, and the row templates (render/templates.py) listed
    one Python int a cell before handing such a view to numpy: 69 MB more at 2^18 elements, 290 MB at 2^20."""
    rank = 24
    attr = (f"#ttg.blocked<{{sizePerThread = {[1] * rank}, threadsPerWarp = {[2] * 5 + [1] * (rank - 5)}, "
            f"warpsPerCTA = {[2, 2] + [1] * (rank - 2)}, order = {list(range(rank - 1, -1, -1))}}}>")
    shared = f"#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = {list(range(rank - 1, -1, -1))}}}>"
    shape = "tensor<" + "x".join(["2"] * 18 + ["1"] * (rank - 18)) + "xf16>"
    small = _child_peak_mb(["-l", BLOCKED_8_WARPS, "-t", "tensor<16x16xf16>", "-o", "s.txt"], tmp_path)
    for layout, extra in ((attr, []), (attr, ["--use-hw-view"]), (attr, ["--format", "json"]), (shared, [])):
        assert _child_peak_mb(["-l", layout, "-t", shape, *extra, "-o", "r.txt"], tmp_path) < small + 40, extra


# ----------------------------------------------------------------------------------------- B.2 advise's own outputs

_NO_CHANGE = next(p for p in (DATA / "cache").glob("*/transpose_copy.ttgir"))     # advise finds nothing to change


@pytest.mark.parametrize("kernel", [KERNEL, str(_NO_CHANGE)], ids=["with a change", "without a change"])
def test_advise_refuses_a_write_target_no_write_could_honour_before_any_analysis(tmp_path, kernel):
    """--write FILE/, --write DIR and --write-dir FILE are refused in one line whether or not a change is found (the
    second hostile probe: without a change they exited 0, 'nothing written')."""
    plain = tmp_path / "plain"
    plain.write_text("kept\n")
    (tmp_path / "dir").mkdir()
    cases = [(["--write", f"{plain}/"], "ends with '/'"), (["--write", f"{plain}/."], "ends with '/'"),
             (["--write", f"{tmp_path}/new/"], "ends with '/'"), (["--write", str(tmp_path / "dir")], "is a directory"),
             (["--write", "a\x00b"], "NUL"), (["--write-dir", str(plain)], "is not a directory")]
    for extra, why in cases:
        code, out, err = run(["advise", kernel, *extra])
        assert code == 1 and out == "" and why in err and err.count("\n") == 1, (extra, out[:200], err)
    assert plain.read_text() == "kept\n" and sorted(os.listdir(tmp_path)) == ["dir", "plain"]
    assert os.listdir(tmp_path / "dir") == []
    code, out, err = run(["advise", kernel, "--write-dir", str(tmp_path / "dir")])   # a real directory: accepted
    assert code == 0, err


# ----------------------------------------------------------------------------------------- C: huge functions

def test_audit_of_a_one_function_dump_stays_within_ten_times_its_input(tmp_path):
    """Issue 32 C: `audit` of one function of 60,000 converts (6.9 MB, benchmarks/huge_dump.py's dump) needs at most
    ten times its input above what a one-convert function needs, as text and as JSON (it took about 2.1 KB an op,
    18 times the input, before rows were placed from one analysis per distinct op and the reports streamed)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import huge_dump
    huge_dump.write(str(tmp_path / "one.ttgir"), 1)
    huge_dump.write(str(tmp_path / "huge.ttgir"), 60_000)
    size = (tmp_path / "huge.ttgir").stat().st_size / 2 ** 20
    small = _child_peak_mb(["audit", "one.ttgir", "-o", "one.txt"], tmp_path)
    for extra in (["--json"], []):
        big = _child_peak_mb(["audit", "huge.ttgir", *extra, "-o", "huge.out"], tmp_path)
        assert big < small + 10 * size, (extra, small, big, size)
    import re
    rows = re.findall(r"^ +\d+ +\d+ +\d+ +ttg\.convert_layout ", (tmp_path / "huge.out").read_text(), re.M)
    assert len(rows) == 60_000                       # every op a row of the table


# -i over a file of many aliases: each alias's view is written (and handed to the reader) as soon as it is made,
# none is held (the probe: 100,000 aliases took 243 MB and wrote nothing before all were done)

ALIAS_KINDS = (
    "#ttg.blocked<{{sizePerThread = [1, {a}], threadsPerWarp = [4, 8], warpsPerCTA = [{w}, 1], order = [1, 0]}}>",
    "#ttg.nvidia_mma<{{versionMajor = 2, versionMinor = 0, warpsPerCTA = [{w}, 1], instrShape = [16, 8]}}>",
    "#ttg.swizzled_shared<{{vec = {a}, perPhase = 1, maxPhase = 8, order = [1, 0]}}>",
)
SIXTEEN_LANES = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 8], warpsPerCTA = [1, 1], "
                 "order = [1, 0]}>")
TMA_128B = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"


def _alias_file(path, count: int, last: str | None = None):
    """`count` aliases #a0.. of a few kinds, then `last` (if given) as #last."""
    lines = [f"#a{i} = " + ALIAS_KINDS[i % 3].format(a=(1, 2, 4, 8)[i // 3 % 4], w=(1, 2)[i // 12 % 2])
             for i in range(count)]
    lines += [f"#last = {last}"] if last else []
    path.write_text("\n".join(lines) + "\n")
    return path


def _child(argv, tmp_path, **kwargs):
    import subprocess
    import sys
    from pathlib import Path
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    return subprocess.Popen([sys.executable, "-m", "linlayout_cli", *argv], cwd=tmp_path, env=env, **kwargs)


def test_the_first_alias_reaches_a_pipe_before_the_last_one_is_made(tmp_path):
    """1,500 aliases print 2 MB, more than a pipe holds: the reader takes the first alias's view and stops
    reading. The child, writing as it goes, blocks on the full pipe long before the last alias, so the note that
    alias gets (16 lanes per warp) is not said yet when it is killed. Held whole, every alias (and its note) was
    made before the first byte was written. No timing: the full pipe is what stops it."""
    import subprocess
    path = _alias_file(tmp_path / "many.mlir", 1500, SIXTEEN_LANES)
    code, first, _ = run(["-l", ALIAS_KINDS[0].format(a=1, w=1), "-t", "tensor<16x16xf16>"])
    assert code == 0
    code, _, err = run(["-i", str(_alias_file(tmp_path / "few.mlir", 2, SIXTEEN_LANES)), "-t", "tensor<16x16xf16>"])
    assert code == 0 and "#last: 16 lanes per warp match no target" in err    # the note the last alias gets
    child = _child(["-i", "many.mlir", "-t", "tensor<16x16xf16>"], tmp_path, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE)
    try:
        got = b""
        while b"Print layout attribute: #a1 " not in got:
            piece = child.stdout.read1(1 << 16)
            assert piece, (got[-300:], child.stderr.read())       # ended without printing #a1
            got += piece
    finally:
        child.kill()
        child.wait()
        err = child.stderr.read().decode()
        child.stdout.close()
        child.stderr.close()
    assert got.decode().split("Print layout attribute: #a1 ")[0] == first.replace("Print layout attribute: ",
                                                                                 "Print layout attribute: #a0 = ")
    assert "#last" not in err and path.stat().st_size > 0


@pytest.mark.parametrize("extra", [[], ["--json"], ["--format", "cute"]])
def test_an_alias_that_fails_at_the_given_shape_stops_the_run_before_anything_is_written(tmp_path, extra):
    """-i FILE -t TYPE whose last alias cannot be laid out at TYPE (a 128-byte swizzle on 16 columns): one error
    line, status 1 and nothing on standard output nor in an -o file, as for any bad input. The aliases are
    checked at TYPE before the first is written (then made again one by one as they are written, none held)."""
    _alias_file(tmp_path / "f.mlir", 3, TMA_128B)
    code, out, err = run(["-i", str(tmp_path / "f.mlir"), "-t", "tensor<16x16xf16>", *extra])
    assert code == 1 and err.count("\n") == 1 and "getTMABlockShape failed" in err and out == "", (out, err)
    code, out, err = run(["-i", str(tmp_path / "f.mlir"), "-t", "tensor<16x16xf16>", *extra, "-o",
                          str(tmp_path / "out")])
    assert code == 1 and out == "" and "getTMABlockShape failed" in err and not (tmp_path / "out").exists()
    code, out, err = run(["-i", str(_alias_file(tmp_path / "g.mlir", 3)), "-t", "tensor<16x16xf16>", *extra])
    import json
    assert code == 0, err
    assert len(json.loads(out)["layouts"]) == 3 if extra == ["--json"] else out.count("#a") == 3


@pytest.mark.parametrize("argv", [[], ["--json"], ["-o", "out.txt"], ["--json", "-o", "out.json"],
                                  ["--format", "cute"]])
def test_a_file_of_many_aliases_is_printed_in_constant_memory(tmp_path, argv):
    """5,000 aliases at tensor<2x2xf16>: the process needs what one alias needs plus the file's alias table (a few
    hundred bytes an alias); every view was held until the end (+11 MB here, 243 MB for the probe's 100,000)."""
    _alias_file(tmp_path / "one.mlir", 1)
    _alias_file(tmp_path / "many.mlir", 5000)
    small = _child_peak_mb(["-i", "one.mlir", "-t", "tensor<2x2xf16>", *argv], tmp_path)
    big = _child_peak_mb(["-i", "many.mlir", "-t", "tensor<2x2xf16>", *argv], tmp_path)
    assert big < small + 6, (small, big)
