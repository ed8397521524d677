"""Issue 24, items 1, 2 and 6: `audit` and `-i` read every dump Triton writes (an MLIR_ENABLE_DUMP capture, lit files
with `// -----` sections), name the files that are not TTGIR, say what limits each global access, rank by waste,
keep a row on one line at 100 columns, and report one op in full (`--line`). Expected values come from Triton's
own files (the capture's manifest, the PTX widths of tests/data/limits, the cache's file names) or from hand
arithmetic stated beside them."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli import inputs
from linlayout_cli.analysis.audit import analyze_audit, module_cost, rank_by_waste
from linlayout_cli.cli import run
from linlayout_cli.parsing.module import read_modules
from linlayout_cli.reports.audit import verdict

DUMP = DATA / "dumps" / "softmax.sm90.mlir_dump.txt"
MANIFEST = json.loads((DATA / "dumps" / "manifest.json").read_text())["files"][DUMP.name]
LIT = DATA / "triton_lit" / "reduce-data-duplication.mlir"
LIMITS = json.loads((DATA / "limits" / "limits.json").read_text())["cases"]
KERNELS = DATA / "kernels"
README = (ROOT / "README.md").read_text()
MMA = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8]}>"


def audit_file(path: Path):
    return analyze_audit(read_modules(path.read_text()))


def one_error(argv, stdin=None) -> str:
    code, out, err = run(argv, stdin)
    assert code == 1 and out == "" and err.startswith("ttlayout: error: ") and err.count("\n") == 1, (out, err)
    return err[len("ttlayout: error: "):-1]


# ----------------------------------------------------------------------------------------- MLIR_ENABLE_DUMP


@pytest.fixture(scope="module")
def dump_sections():
    return inputs.file_sections(DUMP.read_text())


def test_every_header_of_the_capture_is_a_module_break(dump_sections):
    """83 'IR Dump Before' headers and 2 pipeliner ones: 85 modules, each named as the manifest records it."""
    assert len(MANIFEST["headers"]) == len(dump_sections) == 85
    for header, s in zip(MANIFEST["headers"], dump_sections):
        assert s.pass_name == header.get("pass", header.get("text", "").rsplit(": ", 1)[-1]), (header, s)
    assert [s.title() for s in dump_sections if s.operation == "SoftwarePipeliner"] == [
        "SoftwarePipeliner IR Dump After LowerLoops", "SoftwarePipeliner IR Dump After ExpandLoops"]


def test_the_default_module_is_the_input_of_the_lowering_to_llvm(dump_sections):
    """The module printed before ConvertTritonGPUToLLVM is the last TTGIR one (the next ones hold llvm.func)."""
    want = next(i for i, h in enumerate(MANIFEST["headers"]) if h.get("pass") == "ConvertTritonGPUToLLVM") + 1
    assert inputs.last_ttgir(DUMP.read_text(), dump_sections).number == want == 74
    code, out, err = run(["audit", str(DUMP)])
    assert code == 0 and not err
    assert out.splitlines()[0].startswith(f"ttlayout audit {DUMP}, IR Dump Before ConvertTritonGPUToLLVM (line 8757): "
                                          "sm90, NVIDIA Hopper (H100/H200), 4 warps x 32 threads")
    assert "the last TTGIR module of the 85 in the dump" in out.splitlines()[1]
    # the kernel as compiled: the same rows as the final TTGIR of tests/data/kernels
    rows = [line.split()[3] for line in out.splitlines()[5:9]]
    assert sorted(rows) == ["tt.load", "tt.reduce", "tt.reduce", "tt.store"]


def test_every_module_of_the_capture_audits():
    """Each pass is a module with its own aliases (the '#loc' and '#blocked' names repeat): no redefinition."""
    audits = analyze_audit(inputs.modules(DUMP.read_text()), several=True)
    assert len(audits) == 85


@pytest.mark.parametrize("name,number", [("Coalesce", 17), ("coalesceasynccopy", 46), ("LowerLoops", 40),
                                         ("ConvertTritonGPUToLLVM", 74), ("74", 74)])
def test_pass_picks_one_module(name, number, dump_sections):
    code, out, err = run(["audit", str(DUMP), "--pass", name, "--json"])
    assert code == 0 and not err
    d = json.loads(out)
    assert d["section"] == number and d["dump"] == dump_sections[number - 1].title()
    assert len(d["passes"]) == 85


def test_an_ambiguous_or_unknown_pass_lists_the_choices():
    message = one_error(["audit", str(DUMP), "--pass", "RemoveLayout"])
    assert message.startswith("--pass 'RemoveLayout' matches 4 dumps: 20 IR Dump Before "
                              "TritonGPURemoveLayoutConversions (line 2833), ")
    assert message.endswith("; give the number (--pass 20)")
    message = one_error(["audit", str(DUMP), "--pass", "Coalese"])
    assert message.startswith("--pass 'Coalese' names no pass of the dump (did you mean TritonGPUCoalesce?); its "
                              "passes: InlinerPass, CanonicalizerPass, ")
    assert one_error(["audit", str(DUMP), "--pass", "86"]) == "--pass 86: the file has 85 section(s), numbered 1 to 85"


def test_a_module_before_the_layouts_says_it_is_not_ttgir():
    code, out, _ = run(["audit", str(DUMP), "--pass", "1"])
    assert code == 0 and out.splitlines()[1].startswith("  not TTGIR: a module before ConvertTritonToTritonGPU")


def test_i_reads_the_dumps_last_ttgir_module_and_says_so():
    code, out, err = run(["-i", str(DUMP), "--alias-names", "blocked", "-t", "tensor<4x1024xf16>"])
    assert code == 0
    assert out.startswith("Print layout attribute: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = "
                          "[1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>\n")
    assert err.startswith("ttlayout: note: ") and "module 74, IR Dump Before ConvertTritonGPUToLLVM (line 8757)" in err


# ----------------------------------------------------------------------------------------- lit files


def test_lit_sections_are_alias_scopes_and_a_parent_only_alias_prints():
    """The issue's command: '#blocked' is defined in all 8 sections, '#mma' only in the first, used there only
    as a dot_op parent. It prints as `-l` prints the same attribute (Triton's golden-checked view)."""
    code, out, err = run(["-i", str(LIT), "--alias-names", "mma", "-t", "tensor<16x256xf16>"])
    code_l, out_l, _ = run(["-l", MMA, "-t", "tensor<16x256xf16>"])
    assert code == code_l == 0 and not err
    assert out == out_l.replace("Print layout attribute: ", "Print layout attribute: #mma = ", 1) + "\n"


def test_a_name_several_sections_define_is_read_from_the_first_with_a_note():
    code, out, err = run(["-i", str(LIT), "--alias-names", "blocked", "-t", "tensor<16x256xf16>"])
    assert code == 0 and "threadsPerWarp = [16, 2], warpsPerCTA = [1, 4]" in out.splitlines()[0]
    assert err == (f"ttlayout: note: #blocked is defined in sections 1, 2, 3, 4, 5, 6, 7, 8 of {LIT}; this reads "
                   "section 1 (line 1): --section N picks another\n")
    code, out, err = run(["-i", str(LIT), "--section", "3", "--alias-names", "blocked", "-t", "tensor<64x64xf16>"])
    assert code == 0 and not err
    assert "sizePerThread = [1, 64], threadsPerWarp = [32, 2], warpsPerCTA = [2, 2]" in out.splitlines()[0]
    assert one_error(["-i", str(LIT), "--section", "9", "-t", "tensor<16x16xf16>"]) == \
        "--section 9: the file has 8 section(s), numbered 1 to 8"


def test_without_t_a_parent_prints_at_its_users_shape_and_is_named_when_skipped():
    code, out, err = run(["-i", str(LIT), "--alias-names", "mma"])
    assert code == 0 and not err
    assert out.splitlines()[0] == f"Print layout attribute: #mma = {MMA} at tensor<16x256xf16> (line 11)"
    code, out, err = run(["-i", str(LIT)])
    assert code == 0 and "#mma" not in out
    assert err.startswith("ttlayout: note: #mma (section 1), #blocked1 (section 7), #blocked1 (section 8) are used "
                          "only inside other layouts (as a dot_op or slice parent) and not printed; print them with "
                          "--alias-names mma,blocked1")


def test_every_section_prints_with_t():
    code, out, err = run(["-i", str(LIT), "-t", "tensor<16x256xf16>"])
    headers = [line for line in out.splitlines() if line.startswith("Print layout attribute: ")]
    assert code == 0 and not err
    assert len(headers) == len(re.findall(r"^#\w+ = #ttg\.", LIT.read_text(), re.M)) == 11


def test_the_other_commands_take_a_section_too():
    code, out, err = run(["info", "-i", str(LIT), "--alias-names", "mma", "-t", "tensor<16x256xf16>"])
    assert code == 0 and not err and out.startswith(MMA)


# ----------------------------------------------------------------------------------------- not TTGIR

CACHED = next(p.parent for p in sorted((DATA / "cache").glob("*/softmax.ptx")))
AMD = next(p.parent for p in sorted((DATA / "cache").glob("*/softmax.amdgcn")))


@pytest.mark.parametrize("path,what", [
    (CACHED / "softmax.json", "Triton's metadata"), (CACHED / "__grp__softmax.json", "Triton's cache group file"),
    (CACHED / "softmax.ptx", "PTX assembly"), (AMD / "softmax.amdgcn", "AMDGCN assembly"),
    (CACHED / "softmax.llir", "LLVM IR"), (CACHED / "softmax.ttir", "Triton's TTIR (its tensors have no layouts yet)"),
    (CACHED / "softmax.source", "Triton's TTIR (its tensors have no layouts yet)")], ids=lambda x: str(x)[-20:])
def test_a_file_triton_writes_beside_the_ttgir_is_named(path, what):
    kind = inputs.file_kind(str(path), path.read_text())
    assert kind.what == what and kind.ttgir == "the TTGIR is softmax.ttgir beside it"
    for argv in (["audit", str(path)], ["-i", str(path), "-t", "tensor<16x16xf16>"]):
        assert one_error(argv).endswith(f"{path.name} is {what}, not TTGIR; the TTGIR is softmax.ttgir beside it")


def test_python_source_and_stdin_say_how_to_get_ttgir():
    src = DATA / "kernels" / "src" / "softmax.py"
    assert one_error(["audit", str(src)]) == (f"{src} is Python source, not TTGIR; run the kernel with "
                                              "MLIR_ENABLE_DUMP=1 or TRITON_KERNEL_DUMP=1 to get its TTGIR")
    assert one_error(["audit", "-"], (CACHED / "softmax.json").read_text()).startswith(
        "standard input is Triton's metadata, not TTGIR; run the kernel with MLIR_ENABLE_DUMP=1")


def test_ttgir_and_plain_mlir_are_never_refused():
    for path in [*sorted(KERNELS.glob("*.ttgir"))[:4], *sorted((DATA / "triton_lit").glob("*.mlir")), DUMP]:
        assert inputs.file_kind(str(path), path.read_text()) is None, path


# ----------------------------------------------------------------------------------------- what limits a vector


@pytest.mark.parametrize("case", LIMITS, ids=lambda c: c["case"])
def test_the_limit_and_the_width_are_the_compilers(case):
    """Triton 3.9 compiled these with one argument unaligned; the PTX's global widths are the vectors' bits."""
    (m,) = audit_file(DATA / "limits" / case["file"])
    widths: dict[str, int] = {}
    for f in m.findings:
        if f.category == "global":
            key = f"{'load' if f.op.endswith('load') else 'store'} {f.facts.vector_bits}"
            widths[key] = widths.get(key, 0) + f.facts.instructions_per_thread
    assert widths == case["ptx_global_access"]


def test_the_softmax_row_names_the_mask():
    """f32 softmax with an odd n_cols: the layout holds 4 contiguous registers ([1, 4]), the pointers are 16-byte
    divisible (16 / 4 bytes = 4), the 128-bit cap is 4 f32; the mask cols < n_cols, n_cols of divisibility 1,
    changes at every element: 1. Sectors: the 32 lanes of a warp read 32 x 4 bytes spread over 32 x 16 bytes,
    16 sectors where 128 bytes fill 4."""
    (m,) = audit_file(DATA / "limits" / "softmax_f32_odd_cols.sm90.ttgir")
    load = next(f for f in m.findings if f.op == "tt.load")
    assert load.facts.limited_by == "mask" and load.facts.bound_by == ("mask",)
    assert load.facts.limits == {"128-bit cap": 4, "layout": 4, "pointer contiguity": 1024,
                                     "pointer divisibility": 4, "mask": 1}
    assert (load.facts.sectors_per_warp_access, load.facts.ideal_sectors) == (16, 4)
    assert load.facts.mask == "%mask_12"
    assert "limited by the mask" in verdict(load)
    code, out, _ = run(["audit", str(DATA / "limits" / "softmax_f32_odd_cols.sm90.ttgir")])
    assert "1x32b x32, mask; sectors 16/4" in out


def test_pointer_divisibility_limits_only_the_unaligned_pointer():
    (m,) = audit_file(DATA / "limits" / "vector_add_odd_x.sm90.ttgir")
    loads = [f for f in m.findings if f.op == "tt.load"]
    assert [f.facts.limited_by for f in loads] == ["pointer divisibility", "128-bit cap"]
    assert [f.facts.vector_bits for f in loads] == [32, 128]


def test_the_final_softmax_is_at_the_cap_and_coalesced():
    """f16 [1, 8] per thread: 8 x 16 bits = the 128-bit cap; a warp's 32 lanes read 32 x 16 contiguous bytes =
    512 bytes = 16 sectors, the fewest possible: nothing wasted."""
    (m,) = audit_file(KERNELS / "softmax.sm90.ttgir")
    load = next(f for f in m.findings if f.op == "tt.load")
    assert load.facts.limited_by == "128-bit cap" and load.facts.limits["mask"] == 16
    assert (load.facts.sectors_per_warp_access, load.facts.ideal_sectors) == (16, 16)
    assert load.facts.lines_per_warp_access == 4        # 512 bytes: four 128-byte lines
    assert load.waste == 0 and load.ideal == load.cost == 4 * (1 + 4)     # 4 instructions x (1 + 4 lines)


def test_shared_rows_name_their_limit():
    (m,) = audit_file(KERNELS / "matmul.sm90.ttgir")
    stores = [f for f in m.findings if f.category == "shared"]
    assert stores and all(f.facts.limited_by == "128-bit cap" for f in stores)    # st.shared.v4.b32


# ----------------------------------------------------------------------------------------- waste


def test_ideal_copies_waste_nothing_and_rank_last():
    """matmul_pipelined: 128-bit cp.async with no conflict wastes nothing; the conversion through shared memory is
    all waste (its ideal is no conversion), so it ranks first, where the old 'costliest' put the copies."""
    (m,) = audit_file(KERNELS / "matmul_pipelined.sm90.ttgir")
    copies = [f for f in m.findings if f.op == "ttg.async_copy_global_to_local"]
    assert copies and all(f.waste == 0 and f.facts.bank_conflicts == 0 for f in copies)
    ranked = rank_by_waste(m.findings)
    assert ranked[0].op == "ttg.convert_layout" and ranked[0].waste == ranked[0].cost > 0
    first_zero = next(k for k, f in enumerate(ranked) if f.waste == 0)
    assert all(f.waste == 0 for f in ranked[first_zero:])
    total = module_cost(m)
    assert total.waste == pytest.approx(total.cost - total.ideal) and total.rows == len(m.findings)


def test_the_header_states_the_unit_and_help_prints_the_model():
    code, out, _ = run(["audit", str(KERNELS / "matmul.sm90.ttgir")])
    assert out.splitlines()[1] == ("  cost: weighted cost per thread (wavefront 1, shuffle 1, global instruction 1, "
                                   "sector 2, load line 1, barrier 8; x8 in loops), the unit audit and advise share")
    assert out.splitlines()[2] == "  waste: cost above the op's ideal; 'ttlayout help audit-model'"
    assert out.splitlines()[3].split() == ["waste", "cost", "line", "op", "python", "layouts", "verdict"]
    code, doc, err = run(["help", "audit-model"])
    path = ROOT / "docs" / "audit_model.md"
    assert code == 0 and not err and doc == path.read_text()


# ----------------------------------------------------------------------------------------- one line per row


def rich_lines(path: Path, width: int = 100) -> tuple[list[str], int]:
    from linlayout_cli.reports import audit as report
    from linlayout_cli.reports.blocks import to_rich
    audits = audit_file(path)
    text = re.sub(r"\x1b\[[0-9;]*m", "", to_rich(report.blocks(audits, str(path)), width))
    return text.splitlines(), sum(len(m.findings) for m in audits)


@pytest.mark.parametrize("name", ["flash_attention.sm90.ttgir", "matmul_epilogue_transpose.sm80.ttgir",
                                  "matmul_tma.sm100.ttgir", "reduce_sum_axis0_colmajor.sm90.ttgir",
                                  "fp8_matmul.sm90.ttgir", "matmul_pipelined.sm100.ttgir"])
def test_each_row_stays_on_one_line_at_100_columns(name):
    lines, n = rich_lines(KERNELS / name)
    start = next(k for k, line in enumerate(lines) if line.startswith("waste"))
    rows = lines[start + 1:start + 1 + n]
    assert len(rows) == n and all(len(r) <= 100 and "…" not in r for r in rows), rows
    assert lines[start + 1 + n].strip() == ""                   # nothing wrapped onto another line


def test_layouts_are_folded_into_aliases_and_never_cut():
    """The issue's '#ttg.slice<{dim = 0, pare...': an inline layout gets a label, its text is in the legend, whole,
    in plain text (which cuts nothing) and in --wide."""
    path = str(KERNELS / "matmul_epilogue_transpose.sm90.ttgir")
    code, out, _ = run(["audit", path])
    assert code == 0 and "..." not in out and "…" not in out
    assert re.search(r"^\s+L1 = #ttg\.slice<\{dim = 0, parent = #mma\}>$", out, re.M)
    assert re.search(r"  tt\.load .*  L1  ", out)
    code, out, _ = run(["audit", path, "--wide"])
    assert "#ttg.slice<{dim = 0, parent = #mma}>" in out and "layouts       #" not in out
    assert "load 2 x 16-bit per thread (16 instruction(s)), limited by the layout" in out


# ----------------------------------------------------------------------------------------- one op


def test_line_gives_the_convert_report_of_the_op():
    """matmul.sm90 line 119 converts #mma to #blocked at tensor<128x128xf16>: the same report as ttlayout convert."""
    mma = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>"
    blocked = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>"
    code, out, err = run(["audit", str(KERNELS / "matmul.sm90.ttgir"), "--line", "119"])
    _, want, _ = run(["convert", "-r", mma, "-d", blocked, "-t", "tensor<128x128xf16>", "--target", "sm90"])
    assert code == 0 and not err
    title, rest = out.split("\n", 1)
    assert title == f"ttlayout audit {KERNELS / 'matmul.sm90.ttgir'} --line 119: ttg.convert_layout at matmul.py:33, sm90"
    assert rest == want


def test_line_gives_the_bank_report_of_a_shared_access():
    blocked1 = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
    shared = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"
    code, out, _ = run(["audit", str(KERNELS / "matmul.sm90.ttgir"), "--line", "89"])
    _, want, _ = run(["bank", "-r", blocked1, "-s", shared, "-t", "tensor<128x64xf16>", "--target", "sm90"])
    assert code == 0 and out.split("\n", 1)[1] == want


def test_op_names_a_value_and_other_rows_give_their_facts():
    path = str(DATA / "limits" / "softmax_f32_odd_cols.sm90.ttgir")
    code, out, _ = run(["audit", path, "--op", "%x_19"])
    assert code == 0 and out.splitlines()[0] == f"ttlayout audit {path} --line 43: tt.load at softmax.py:12, sm90"
    assert re.search(r"^limited by +mask$", out, re.M) and re.search(r"^mask +%mask_12$", out, re.M)
    code, out2, _ = run(["audit", path, "--line", "43"])
    assert out2 == out
    code, out, _ = run(["audit", path, "--op", "1", "--json"])
    assert json.loads(out)["line"] == 43


def test_line_in_a_dump_picks_its_module_and_a_line_without_a_row_is_named():
    code, out, _ = run(["audit", str(DUMP), "--line", "2466"])                 # before coalescing: a convert
    assert code == 0 and out.startswith(f"ttlayout audit {DUMP} --line 2466: ttg.convert_layout at softmax.py:12")
    message = one_error(["audit", str(KERNELS / "matmul.sm90.ttgir"), "--line", "90"])
    assert message.startswith("line 90 holds ") and "rows at lines 88, 89, 93," in message
    assert one_error(["audit", str(LIT), "--op", "%0", "--target", "sm80"]).startswith(
        f"{LIT} holds 8 modules; --op looks in one")


# ----------------------------------------------------------------------------------------- the README


def test_the_readme_audit_example_is_the_real_output():
    block = README.split("$ ttlayout audit tests/data/kernels/matmul.sm90.ttgir\n", 1)[1].split("```", 1)[0]
    code, out, _ = run(["audit", "tests/data/kernels/matmul.sm90.ttgir"])
    assert code == 0 and out == block
