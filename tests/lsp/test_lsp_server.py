"""`ttlayout lsp` as an editor meets it: pytest-lsp starts the server as a subprocess and speaks the protocol. The
expected texts are the command line's own (`ttlayout info`, `audit --json`, `advise --write`): the editor shows
what the terminal prints."""
from __future__ import annotations

import asyncio
import json
import re
import shutil

import pytest
from golden_cases import DATA

from linlayout_cli.cli import run

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")
from lsprotocol import types as t  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402

KERNELS = DATA / "kernels"
TRANSPOSE = KERNELS / "matmul_epilogue_transpose.sm80.ttgir"


def _uri(path) -> str:
    return path.resolve().as_uri()


def _position(text: str, needle: str, nth: int = 0, offset: int = 1) -> t.Position:
    """The position `offset` characters into the nth occurrence of `needle` (ASCII text)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return t.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


async def _open(client, path, text: str | None = None, timeout: float = 60.0):
    """Open a file in the client and wait for its first diagnostics (the client's timeout bounds the wait)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    uri = _uri(path)
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=text)))
    await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout)
    return uri, text


async def _hover(client, uri: str, position: t.Position) -> str:
    result = await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=position))
    assert result is not None and result.contents.kind == t.MarkupKind.Markdown
    return result.contents.value


def _cli_json(*argv) -> dict:
    code, out, err = run(list(argv))
    assert code == 0, err
    return json.loads(out)


def _info_rows(attr: str, type_text: str) -> list[str]:
    """`ttlayout info`'s summary lines (label and value) for a layout at a type."""
    code, out, err = run(["info", "-l", attr, "-t", type_text])
    assert code == 0, err
    lines = out.splitlines()
    end = lines.index("linear layout (Triton's LinearLayout::toString):")
    return [x for x in lines[2:end] if x.strip()]


@pytest.mark.asyncio
async def test_hover_on_an_alias_shows_info_at_its_first_use(client):
    uri, text = await _open(client, TRANSPOSE)
    value = await _hover(client, uri, _position(text, "#blocked1 = "))
    attr = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>"
    first_use = re.search(r"tensor<[0-9x]+x\w+, #blocked1>", text).group()
    assert "**#blocked1**" in value and f"#blocked1 = {attr}" in value
    for row in _info_rows(attr, first_use.replace(", #blocked1", "")):
        assert row in value
    assert "gluon" in value and "cute" in value and "lane = " in value
    # on a use inside a type, the layout is shown at that type's shape
    use = await _hover(client, uri, _position(text, "#blocked1>", 0, 2))
    assert use.startswith(f"`{first_use}` — **#blocked1**, defined at line 2")


@pytest.mark.asyncio
async def test_hover_on_an_inline_layout(client, tmp_path):
    """The value of an alias definition answers as the alias does; an inline layout elsewhere (an op's
    attribute) is printed as Triton prints it, and one that does not parse says why with the CLI's text."""
    uri, text = await _open(client, TRANSPOSE)
    value = await _hover(client, uri, _position(text, "#ttg.nvidia_mma<", 0, 3))
    assert value.startswith("**#mma** — defined at line 5")
    path = tmp_path / "inline.mlir"
    path.write_text('module {\n  "x.op"() {layout = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], '
                    'warpsPerCTA = [1, 1], order = [1, 0]}>, bad = #ttg.blocked<{sizePerThread = [1]}>} : () -> ()\n'
                    '}\n', encoding="utf-8")
    uri, text = await _open(client, path)
    value = await _hover(client, uri, _position(text, "#ttg.blocked<", 0, 3))
    assert "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>" \
        in value
    value = await _hover(client, uri, _position(text, "#ttg.blocked<", 1, 3))
    code, _, err = run(["info", "-l", "#ttg.blocked<{sizePerThread = [1]}>", "-t", "tensor<4x4xf16>"])
    assert value.startswith("**does not parse:** ") and code == 1
    # the CLI's words, less the pointer into its -l argument (the hover points at the text itself)
    assert err.removeprefix("ttlayout: error: ").split(" (in -l: ")[0].strip() in value


@pytest.mark.asyncio
async def test_hover_on_a_type_shows_info_and_warp_zero_grid(client):
    uri, text = await _open(client, TRANSPOSE)
    type_text = "tensor<128x64xi32, #blocked>"
    value = await _hover(client, uri, _position(text, type_text, 0, 3))
    attr = "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>"
    for row in _info_rows(attr, "tensor<128x64xi32>"):
        assert row in value
    assert "warp 0's lanes in the top-left 16x16 of the 128x64 tensor" in value
    grid = value.split("('.': another warp)*\n\n```text\n")[1].split("\n```")[0].splitlines()
    # blocked [1, 8] x [4, 8] x [8, 1]: lane l holds row l // 8, columns 8 (l % 8) .. 8 (l % 8) + 7; rows 4.. are
    # other warps' (warp w starts at row 4 w)
    assert grid[0].split() == ["0"] * 8 + ["1"] * 8
    assert grid[3].split() == ["24"] * 8 + ["25"] * 8
    assert grid[4].split() == ["."] * 16
    assert len(grid) == 16


@pytest.mark.asyncio
async def test_hover_on_a_small_tensor_shows_every_thread(client, tmp_path):
    path = tmp_path / "small.ttgir"
    path.write_text('#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], '
                    'order = [1, 0]}>\nmodule attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : '
                    'i32} {\n  tt.func @k(%x: tensor<4x8xf32, #b>) {\n    tt.return\n  }\n}\n', encoding="utf-8")
    uri, text = await _open(client, path)
    value = await _hover(client, uri, _position(text, "tensor<4x8xf32"))
    grid = value.split("(first holder)*\n\n```text\n")[1].split("\n```")[0].splitlines()
    assert [row.split() for row in grid] == [[f"T{8 * i + j}" for j in range(8)] for i in range(4)]


@pytest.mark.asyncio
async def test_hover_on_an_op_shows_its_audit_row(client):
    uri, text = await _open(client, TRANSPOSE)
    ops = {o["line"]: o for o in _cli_json("audit", str(TRANSPOSE), "--json")["ops"]}
    line = text.splitlines().index(next(x for x in text.splitlines() if "ttg.convert_layout" in x)) + 1
    value = await _hover(client, uri, t.Position(line=line - 1, character=8))
    row = ops[line]
    assert value.startswith(f"**ttg.convert_layout** — waste {row['waste']:.0f}, cost {row['cost']:.0f}")
    assert row["verdict"] in value
    assert "ttlayout help audit-model" in value


@pytest.mark.asyncio
async def test_hover_on_an_op_has_the_assembly_counts_beside_the_file(client, tmp_path):
    src = DATA / "cache" / "2HFOXRNAP2OZVNPB3R4FVRZPGPQN6H4FSJVZUQF7SURL53CKHIFQ"
    for name in ("fp8_matmul.ttgir", "fp8_matmul.ptx"):
        shutil.copy(src / name, tmp_path / name)
    path = tmp_path / "fp8_matmul.ttgir"
    uri, text = await _open(client, path)
    code, out, err = run(["audit", str(path), "--json"])
    assert code == 0, err
    ops = [o for o in json.loads(out)["ops"] if o.get("asm")]
    assert ops, "audit finds the PTX beside the TTGIR"
    op = ops[0]
    value = await _hover(client, uri, t.Position(line=op["line"] - 1, character=6))
    assert "**assembly**" in value
    code, table, _ = run(["audit", str(path), "--wide", "--top", "1000"])
    assert any(str(op["line"]) in x and value.split("**assembly** (model/assembly on its Python line): `")[1]
               .split("`")[0] in x for x in table.splitlines())


@pytest.mark.asyncio
async def test_diagnostics_are_the_audits_wasteful_ops(client):
    uri, _ = await _open(client, TRANSPOSE)
    ops = _cli_json("audit", str(TRANSPOSE), "--json")["ops"]
    diagnostics = client.diagnostics[uri]
    warned = sorted(d.range.start.line + 1 for d in diagnostics if d.severity == t.DiagnosticSeverity.Warning)
    assert warned == sorted(o["line"] for o in ops if o["waste"] > 0) and warned
    convert = next(d for d in diagnostics if "convert_layout" in d.message)
    row = next(o for o in ops if o["op"] == "ttg.convert_layout")
    assert row["verdict"] in convert.message
    assert convert.code == "ttlayout help audit-model"
    assert convert.code_description.href.endswith("audit_model.md")


@pytest.mark.asyncio
@pytest.mark.lsp_options({"wasteThreshold": 10})
async def test_the_waste_threshold_is_configurable(client):
    uri, _ = await _open(client, TRANSPOSE)
    ops = _cli_json("audit", str(TRANSPOSE), "--json")["ops"]
    warned = sorted(d.range.start.line + 1 for d in client.diagnostics[uri])
    assert warned == sorted(o["line"] for o in ops if o["waste"] > 10)
    assert len(warned) < len([o for o in ops if o["waste"] > 0])


@pytest.mark.asyncio
async def test_the_code_action_is_advise_write_and_lowers_the_audit(client, tmp_path):
    uri, text = await _open(client, TRANSPOSE)
    written = tmp_path / "patched.ttgir"
    code, out, err = run(["advise", str(TRANSPOSE), "--write", str(written), "--json"])
    assert code == 0, err
    best = json.loads(out)["modules"][0]["changes"][0]
    alias = best["aliases"][0]["alias"]
    line = _position(text, f"{alias} = ").line
    actions = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=line, character=0), end=t.Position(line=line, character=0)),
        context=t.CodeActionContext(diagnostics=[])))
    assert actions, "advise's change is offered on its alias line"
    action = actions[0]
    assert action.title.startswith(f"redefine {alias} as ") and "→" in action.title
    edits = action.edit.changes[uri]
    assert [e.range.start.line for e in edits] == [line] and edits[0].range.start.character == 0
    lines = text.splitlines(keepends=True)
    lines[line] = edits[0].new_text + "\n"
    patched = "".join(lines)
    assert patched == written.read_text(encoding="utf-8")
    # applied in the editor: the file is audited again, and what the CLI finds in the patched file is what is shown
    before = {d.range.start.line + 1: d.message for d in client.diagnostics[uri]}
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangePartial(range=edits[0].range, text=edits[0].new_text)]))
    await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    after = {d.range.start.line + 1: d.message for d in client.diagnostics[uri]}
    ops = _cli_json("audit", str(written), "--json")["ops"]
    assert sorted(after) == sorted(o["line"] for o in ops if o["waste"] > 0)
    assert all(o["verdict"] in after[o["line"]] for o in ops if o["waste"] > 0)
    assert after != before


@pytest.mark.asyncio
async def test_go_to_definition_references_and_symbols(client):
    uri, text = await _open(client, TRANSPOSE)
    use = _position(text, "#mma>", 0, 2)
    found = await client.text_document_definition_async(t.DefinitionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=use))
    assert [(x.range.start.line, x.range.start.character) for x in found] == [(_position(text, "#mma = ", 0, 0).line,
                                                                               0)]
    refs = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=use,
        context=t.ReferenceContext(include_declaration=False)))
    assert len(refs) == len(re.findall(r"#mma(?![\w.$-])", text)) - 1
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    names = [s.name for s in symbols]
    assert "@matmul_epilogue_transpose" in names and "#blocked1" in names and "#mma" in names
    assert not any(n.startswith("#loc") for n in names)


@pytest.mark.asyncio
async def test_each_section_is_its_own_alias_scope(client, tmp_path):
    one = KERNELS / "matmul.sm80.ttgir"
    two = TRANSPOSE
    path = tmp_path / "two.mlir"
    text = one.read_text(encoding="utf-8") + "\n// -----\n" + two.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    uri, _ = await _open(client, path)
    second = _position(text, "#blocked>", 1000 if False else len(re.findall("#blocked>", one.read_text())), 2)
    found = await client.text_document_definition_async(t.DefinitionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=second))
    assert [x.range.start.line for x in found] == [text.count("\n", 0, text.index("// -----")) + 1]
    symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    assert [s.name for s in symbols] == ["1: section 1", "2: section 2"]
    assert "#blocked" in [c.name for c in symbols[1].children]


@pytest.mark.asyncio
async def test_a_rejected_layout_is_an_error_at_its_column_with_the_cli_text(client, tmp_path):
    bad = TRANSPOSE.read_text(encoding="utf-8").replace("order = [1, 0]}>\n#blocked1", "ordr = [1, 0]}>\n#blocked1", 1)
    path = tmp_path / "bad.ttgir"
    path.write_text(bad, encoding="utf-8")
    uri, _ = await _open(client, path)
    errors = [d for d in client.diagnostics[uri] if d.severity == t.DiagnosticSeverity.Error]
    code, _, err = run(["audit", str(path), "--line", "1"])
    assert len(errors) == 1
    message = errors[0].message
    assert message.startswith("line 1, column 97: unexpected key: ordr")
    assert (errors[0].range.start.line, errors[0].range.start.character) == (0, 96)
    assert bad.splitlines()[0][96:100] == "ordr"
    code, out, err = run(["info", "-i", str(path), "--alias-names", "blocked", "-t", "tensor<128x64xf16>"])
    assert code == 1 and message in err


@pytest.mark.asyncio
async def test_malformed_and_binary_files_are_answered(client, tmp_path):
    cases = {
        "unbalanced.ttgir": "#a = #ttg.blocked<{sizePerThread = [1\nmodule {\n  tt.func @k( {\n",
        "binary.ttgir": "\x00\x01\x02\ufffd\ufffd#blocked = \x7f\x00 tensor<4x4xf16, #blocked>\n" * 50,
        "empty.mlir": "",
        "stray.mlir": "}}}}>>>> tensor<<<< #ttg.blocked<{ \n// -----\n\n// -----\n#x = #x\n",
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        uri, _ = await _open(client, path, text)
        for line in range(min(3, text.count("\n") + 1)):
            for character in (0, 5, 20):
                await client.text_document_hover_async(t.HoverParams(
                    text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character)))
        await client.text_document_document_symbol_async(t.DocumentSymbolParams(
            text_document=t.TextDocumentIdentifier(uri=uri)))
    # the server still works on a real file afterwards
    uri, text = await _open(client, TRANSPOSE)
    assert "**#mma**" in await _hover(client, uri, _position(text, "#mma = "))


@pytest.mark.asyncio
@pytest.mark.lsp_options({"inlayHints": True})
async def test_inlay_hints_give_the_convert_path(client):
    uri, text = await _open(client, TRANSPOSE)
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=0, character=0), end=t.Position(line=text.count("\n"), character=0))))
    lines = [i for i, x in enumerate(text.splitlines()) if "ttg.convert_layout" in x]
    assert [h.position.line for h in hints] == lines
    assert all(h.label.strip().startswith("⇢ smem") for h in hints)


@pytest.mark.asyncio
async def test_inlay_hints_are_off_by_default(client):
    uri, text = await _open(client, TRANSPOSE)
    hints = await client.text_document_inlay_hint_async(t.InlayHintParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(line=0, character=0), end=t.Position(line=text.count("\n"), character=0))))
    assert not hints


@pytest.mark.asyncio
@pytest.mark.lsp_options({"budgetSeconds": 1.0})
async def test_a_50_mb_file_is_answered_and_says_what_it_skipped(client, tmp_path):
    """Some 1,800 kernels in `// -----` sections: the diagnostics come within the client's generous timeout, the
    sections past the budget are named, and hover still answers (no timed assertion: the wait's timeout is the
    bound)."""
    piece = TRANSPOSE.read_text(encoding="utf-8")
    copies = 50 * 1024 * 1024 // len(piece) + 1
    text = "\n// -----\n".join([piece] * copies)
    assert len(text) > 50 * 1024 * 1024
    path = tmp_path / "huge.mlir"
    path.write_text(text, encoding="utf-8")
    uri, _ = await _open(client, path, text, timeout=240)
    notes = [d for d in client.diagnostics[uri] if d.code == "skipped"]
    assert len(notes) == 1 and "past the 1 s budget" in notes[0].message
    assert any("not audited here" in m.message for m in client.log_messages)
    last = text.count("\n")
    value = await asyncio.wait_for(_hover(client, uri, _position(text, "#mma = ", copies - 1, 0)), 120)
    assert "**#mma**" in value and last > 0


@pytest.mark.asyncio
async def test_a_64_mib_module_is_answered(client, tmp_path):
    """One module of 64 MiB (a kernel whose body is repeated): the server skips its audit and says so, and still
    answers hover on its aliases and ops."""
    piece = TRANSPOSE.read_text(encoding="utf-8")
    head, body = piece.split("  tt.func public", 1)
    body_lines = body.split("\n", 1)[1]
    filler = "    %x = arith.constant dense<0> : tensor<128x64xi32, #blocked> loc(#loc1)\n"
    text = head + "  tt.func public" + body.split("\n", 1)[0] + "\n" + filler * ((64 * 1024 * 1024 - len(piece)) // len(filler)) \
        + body_lines
    assert 63.9 * 1024 * 1024 < len(text) <= 64 * 1024 * 1024     # the largest file ttlayout reads
    path = tmp_path / "big.ttgir"
    path.write_text(text, encoding="utf-8")
    uri, _ = await _open(client, path, text, timeout=240)
    notes = [d for d in client.diagnostics[uri] if d.code == "skipped"]
    assert len(notes) == 1 and "over 2,097,152 characters" in notes[0].message
    value = await asyncio.wait_for(_hover(client, uri, _position(text, "#mma = ")), 240)
    assert "**#mma**" in value
    position = _position(text, "ttg.convert_layout")
    value = await asyncio.wait_for(_hover(client, uri, position), 60)
    assert "more than the 2,097,152 audited in the editor" in value
    # the server goes on answering
    assert "**#mma**" in await asyncio.wait_for(_hover(client, uri, _position(text, "#mma = ")), 240)


def _padded_kernel(chars: int) -> str:
    """The transpose kernel with its function body padded to about `chars` characters by constants."""
    piece = TRANSPOSE.read_text(encoding="utf-8")
    head, body = piece.split("  tt.func public", 1)
    first, rest = body.split("\n", 1)
    filler = "    %x = arith.constant dense<0> : tensor<128x64xi32, #blocked> loc(#loc1)\n"
    return head + "  tt.func public" + first + "\n" + filler * max(chars // len(filler), 1) + rest


@pytest.mark.asyncio
@pytest.mark.lsp_options({"maxSectionChars": 8 * 1024 * 1024})
async def test_a_cancelled_request_is_answered_as_cancelled(client, tmp_path):
    """A hover on an op of a 6 MB module needs its audit (seconds); the client cancels it at once and hears
    RequestCancelled, and the server answers what comes next."""
    small_uri, small = await _open(client, TRANSPOSE)
    text = _padded_kernel(6 * 1024 * 1024)
    path = tmp_path / "slow.ttgir"
    path.write_text(text, encoding="utf-8")
    uri = _uri(path)
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=text)))
    future = asyncio.ensure_future(client.protocol.send_request_async(t.TEXT_DOCUMENT_HOVER, t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=_position(text, "ttg.convert_layout")),
        msg_id="hover-to-cancel"))
    # a quick request answered after it: the server has the hover in hand (requests are taken in order)
    await client.text_document_definition_async(t.DefinitionParams(
        text_document=t.TextDocumentIdentifier(uri=small_uri), position=_position(small, "#mma>", 0, 2)))
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id="hover-to-cancel"))
    with pytest.raises(JsonRpcException) as cancelled:
        await asyncio.wait_for(future, 240)
    assert cancelled.value.code == -32800                 # RequestCancelled
    assert "**#mma**" in await asyncio.wait_for(_hover(client, uri, _position(text, "#mma = ")), 240)


def test_the_analyses_kept_per_file_are_bounded():
    """As one types, each version of a section is a new key; the oldest analyses go past KEPT."""
    from linlayout_cli.lsp.server import KEPT, remember
    cache: dict = {}
    for i in range(KEPT + 10):
        remember(cache, str(i), i)
    assert list(cache) == [str(i) for i in range(10, KEPT + 10)]
