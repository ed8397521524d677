"""Inputs as a new user gives them, copied from a real dump: the whole alias line or a trailing `loc(...)` in `-l`,
alias names written with '#', a `!ttg.memdesc` or a tensor type with its encoding in `-t`, typos in the tensor type,
files whose definitions share a line. Triton 3.9 refuses most of these (golden/errors section `paste` records what it
says); ttlayout reads them, and prints exactly what Triton prints for the canonical spelling."""
from __future__ import annotations

import re

import pytest

from linlayout_cli.cli import run

B = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>"
B2 = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>"
SW = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 4, order = [1, 0]}>"
MFMA = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16], isTransposed = true}>"
T16 = "tensor<16x16xf16>"


def printed(argv, stdin=None) -> str:
    code, out, err = run(argv, stdin=stdin)
    assert code == 0 and not err, err
    return out


def error(argv, stdin=None) -> str:
    code, out, err = run(argv, stdin=stdin)
    assert code == 1 and out == "" and err.count("\n") == 1, (code, out[:200], err)
    line = err.rstrip("\n")
    assert line.startswith("ttlayout: error: ") and len(line) <= 300 and line.isprintable(), line
    return line[len("ttlayout: error: "):]


@pytest.fixture
def dump(tmp_path):
    """A small dump: two definitions on one line (as in Triton's amd-block-pingpong test), #loc aliases."""
    path = tmp_path / "dump.ttgir"
    path.write_text(f"#blocked = {B}\n#mma = {MFMA}#shared = {SW}\n#loc = loc(\"k.py\":1:0)\n"
                    f"#loc1 = loc(\"k.py\":2:4)\n#smem = #ttg.shared_memory\n")
    return str(path)


# ----------------------------------------------------------------------------------------- -l


@pytest.mark.parametrize("pasted", [
    f"#blocked = {B}",
    f"  #blocked={B}  ",
    f"{B} loc(#loc3)",
    f'#blocked = {B} loc("kernel.py":12:8)',
    f"#blocked = {B} loc(callsite(#loc1 at #loc2))",
])
def test_l_takes_a_whole_alias_line_and_a_trailing_location(pasted):
    assert printed(["-l", pasted, "-t", T16]) == printed(["-l", B, "-t", T16])


def test_pasted_l_errors_keep_their_columns_and_quote_the_text():
    message = error(["-l", f"#blocked = {B[:-2]}]}}> loc(#loc3)", "-t", T16])
    assert message == ("column 111: expected one of '}' or ',' but found ']' "
                       "(in -l: '... = [2, 2], order = [1, 0][HERE]]}> loc(#loc3)')")
    assert error(["-l", "#blocked = ", "-t", T16]) == ("column 12: expected an attribute value but found end of input "
                                                       "(in -l: '#blocked = [HERE]')")


def test_l_error_quotes_about_40_characters_around_the_column():
    message = error(["-l", f"{B} extra", "-t", T16])
    quote = re.search(r"\(in -l: '(.*)'\)$", message).group(1)
    assert quote == "...[2, 2], order = [1, 0]}> [HERE]extra"
    assert len(quote.replace("[HERE]", "").replace("...", "")) <= 40


# ----------------------------------------------------------------------------------------- --alias-names


def test_alias_names_with_or_without_hash(dump):
    plain = printed(["-i", dump, "-t", T16, "--alias-names", "mma,blocked"])
    assert plain.startswith(f"Print layout attribute: #mma = {MFMA}\n")
    assert printed(["-i", dump, "-t", T16, "--alias-names", "#mma,#blocked"]) == plain
    assert printed(["-i", dump, "-t", T16, "-alias-names=#mma,blocked"]) == plain


def test_unknown_alias_name_lists_the_file_s_layout_aliases(dump):
    assert error(["-i", dump, "-t", T16, "--alias-names", "mmma"]) == (
        "Can't find the layout attribute: mmma (did you mean #mma?); the file's layout aliases are #blocked, "
        "#mma, #shared (and 3 other aliases)")
    assert error(["-i", dump, "-t", T16, "--alias-names", "#nope"]) == (
        "Can't find the layout attribute: #nope; the file's layout aliases are #blocked, #mma, #shared "
        "(and 3 other aliases)")
    assert error(["-i", "-", "-t", T16, "--alias-names", "x"], stdin="#loc = loc(unknown)\n") == (
        "Can't find the layout attribute: x; the file has no layout alias (and 1 other alias)")


def test_many_layout_aliases_are_listed_within_one_line():
    text = "".join(f"#blocked{k} = {B}\n" for k in range(40))
    message = error(["-i", "-", "-t", T16, "--alias-names", "x"], stdin=text)
    assert "#blocked0, #blocked1" in message and message.count("#") <= 13


# ----------------------------------------------------------------------------------------- -t


def test_t_takes_a_memdesc(dump):
    by_name = printed(["-i", dump, "-t", T16, "--alias-names", "shared"])
    for memdesc in ("!ttg.memdesc<16x16xf16, #shared, #smem, mutable>", "!ttg.memdesc<16x16xf16, #shared, #smem>",
                    "!ttg.memdesc<16x16xf16, #shared, #ttg.shared_memory, mutable, 2x16x16>"):
        assert printed(["-i", dump, "-t", memdesc]) == by_name, memdesc
    assert printed(["-t", f"!ttg.memdesc<16x16xf16, {SW}, #ttg.shared_memory, mutable>"]) == \
        printed(["-l", SW, "-t", T16])
    # with -l the memdesc gives the shape; an alias the command line cannot resolve does not matter
    assert printed(["-l", B, "-t", "!ttg.memdesc<16x16xf16, #shared, #smem, mutable>"]) == printed(["-l", B, "-t", T16])


@pytest.mark.parametrize("memdesc,words", [
    ("!ttg.memdesc<16x16xf16, #shared, #smem, mutable>", "names the alias #shared; give -i FILE"),
    ("!ttg.memdesc<16x16xf16>", "column 23: expected ',' and the encoding of the memdesc"),
    ("!ttg.memdesc<16x16xf16, #shared, #smem, immutable>", "expected 'mutable' or an alloc shape"),
    ("!ttg.memdesc<*xf16, #shared, #smem>", "a memdesc needs a ranked shape"),
    ("!ttg.memdesc<16x16xf16, #ttg.bogus<{}>, #smem>", "column 30: unknown attribute 'bogus' in dialect 'ttg'"),
])
def test_bad_memdesc_types(memdesc, words):
    assert words in error(["-t", memdesc])


def test_t_encoding_is_the_layout_without_l(dump):
    assert printed(["-t", f"tensor<16x16xf16, {B}>"]) == printed(["-l", B, "-t", T16])
    assert printed(["-i", dump, "-t", "tensor<16x16xf16, #blocked>"]) == \
        printed(["-i", dump, "-t", T16, "--alias-names", "blocked"])
    assert printed(["-i", dump, "-t", "tensor<16xf16, #ttg.slice<{dim = 0, parent = #blocked}>>"]).startswith(
        "Print layout attribute: #ttg.slice<{dim = 0, parent = #ttg.blocked<")
    # --alias-names chooses; the encoding in -t then only gives nothing more than the shape
    assert printed(["-i", dump, "-t", "tensor<16x16xf16, #blocked>", "--alias-names", "mma"]) == \
        printed(["-i", dump, "-t", T16, "--alias-names", "mma"])


def test_l_and_a_different_t_encoding_conflict(dump):
    assert printed(["-l", B, "-t", f"tensor<16x16xf16, {B}>"]) == printed(["-l", B, "-t", T16])
    assert error(["-l", B2, "-t", f"tensor<16x16xf16, {B}>"]) == (
        "-l and the encoding in -t are different layouts: -l has '#ttg.blocked<{sizePerThread = [1, 4], "
        "threadsPerWarp = [8...' where -t has '#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8...'; give "
        "the layout once")
    assert "different layouts" in error(["-i", dump, "-l", "#mma", "-t", "tensor<16x16xf16, #blocked>"])
    printed(["-i", dump, "-l", "#blocked", "-t", f"tensor<16x16xf16, {B}>"])


def test_t_alias_missing_from_the_file(dump):
    assert error(["-i", dump, "-t", "tensor<16x16xf16, #blocked9>"]) == (
        "the encoding in -t names the alias #blocked9, which the -i file does not define (did you mean #blocked?); "
        "the file's layout aliases are #blocked, #mma, #shared (and 3 other aliases)")


@pytest.mark.parametrize("ttype,message", [
    ("tensor<128x64>", "column 14: expected 'x' in dimension list; missing element type, e.g. tensor<128x64xf16> "
                       "(in -t: 'tensor<128x64[HERE]>')"),
    ("tensor<128x64xfp16>", "column 15: expected non-function type; 'fp16' is not an MLIR element type, did you "
                            "mean f16? (in -t: 'tensor<128x64x[HERE]fp16>')"),
    ("tensor<128x64xfloat32>", "column 15: expected non-function type; 'float32' is not an MLIR element type, did "
                               "you mean f32? (in -t: 'tensor<128x64x[HERE]float32>')"),
    (f"tensor<16x16xf16, {B[:-3]}>", "column 118: expected '>' in tensor type "
                                     "(in -t: '... = [2, 2], order = [1, 0>[HERE]')"),
])
def test_tensor_type_typos_get_a_hint_and_a_quote(ttype, message):
    assert error(["-l", B, "-t", ttype]) == message


# ----------------------------------------------------------------------------------------- -i


def test_definitions_sharing_a_line_print_like_triton(dump):
    out = printed(["-i", dump, "-t", T16])
    assert [line for line in out.splitlines() if line.startswith("Print")] == [
        f"Print layout attribute: #blocked = {B}", f"Print layout attribute: #mma = {MFMA}",
        f"Print layout attribute: #shared = {SW}"]


def test_file_errors_quote_the_line(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text(f"#a = loc(unknown)\n#blocked = {B[:-2]}]}}>\n")
    assert error(["-i", str(path), "-t", T16]) == (
        "line 2, column 111: expected one of '}' or ',' but found ']' (in -i: '... = [2, 2], order = [1, "
        "0][HERE]]}>')")
    path.write_text("module {\n} // -----\n#a = 1\n#a = 2\n")
    assert error(["-i", str(path), "-t", T16]) == (
        "line 4, column 1: redefinition of attribute alias id 'a' (in -i: '[HERE]#a = 2')")


def test_amd_mfma_without_is_transposed_prints_false():
    out = printed(["-l", "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16]}>", "-t", T16])
    assert out.startswith("Print layout attribute: #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
                          "instrShape = [16, 16], isTransposed = false}>\n")


# ----------------------------------------------------------------------------------------- -t in the analysis commands


def test_analysis_commands_take_the_layout_from_t(dump):
    """The encoding written in -t fills the role of its kind that no option gave: the one layout of info and
    lookup, the register or shared layout of bank, the source of convert, the writer of swizzle."""
    tb, mem = f"tensor<16x16xf16, {B}>", f"!ttg.memdesc<16x16xf16, {SW}, #ttg.shared_memory, mutable>"
    assert printed(["info", "-t", tb]) == printed(["info", "-l", B, "-t", T16])
    assert printed(["lookup", "-t", tb, "--thread", "3"]) == printed(["lookup", "-l", B, "-t", T16, "--thread", "3"])
    assert printed(["info", "-i", dump, "-t", "tensor<16x16xf16, #mma>"]) == \
        printed(["info", "-i", dump, "--alias-names", "mma", "-t", T16])
    bank = printed(["bank", "-r", B, "-s", SW, "-t", T16])
    assert printed(["bank", "-s", SW, "-t", tb]) == bank
    assert printed(["bank", "-r", B, "-t", mem]) == bank
    assert printed(["bank", "-i", dump, "-t", "tensor<16x16xf16, #blocked>"]) == bank     # the file's only shared
    assert printed(["convert", "-d", B2, "-t", tb]) == printed(["convert", "-s", B, "-d", B2, "-t", T16])
    assert printed(["swizzle", "-t", tb]) == printed(["swizzle", "-r", B, "-t", T16])


def test_analysis_commands_refuse_a_t_encoding_that_disagrees(dump):
    tb = f"tensor<16x16xf16, {B}>"
    assert error(["info", "-l", B2, "-t", tb]).startswith("-l and the encoding in -t are different layouts")
    assert error(["bank", "-r", B2, "-s", SW, "-t", tb]).startswith("-r and the encoding in -t are different layouts")
    assert error(["bank", "-i", dump, "--alias-names", "mma,shared", "-t", "tensor<16x16xf16, #blocked>"]).startswith(
        "--alias-names and the encoding in -t are different layouts")
    assert error(["convert", "-d", B2, "-t", f"!ttg.memdesc<16x16xf16, {SW}, #ttg.shared_memory>"]) == (
        f"the encoding in -t is a shared layout ({SW}); ttlayout convert takes a distributed layout as the source "
        "and a distributed layout as the destination")
    assert "names the alias #blocked; give -i FILE" in error(["info", "-t", "tensor<16x16xf16, #blocked>"])
