"""Issue 32 A.8: every command that answers for one layout takes every kind the print command takes.

Tensor memory against Triton 3.9 itself (golden/memory, written by scripts/golden/memory.py from the oracle):
`info` shows Triton's toLinearLayout bases and getTmemAllocSizes; `lookup --element` names the places the print
command's tensor memory view shows for that element; `diff` says equal exactly when Triton's bases are equal.
Then the matrix: each kind of the golden suites x info, lookup, diff and the json / svg (both views) / html / cute
formats (what the pictures of the memory views hold: test_memory_pictures.py)."""
from __future__ import annotations

import json
import re

import pytest
from golden_cases import load_suite

from linlayout_cli.cli import run

TMEM_CASES = [c for c in load_suite("memory") if c["kind"].startswith("tensor_memory") and c["exit"] == 0
              and c.get("alloc") is not None]


def _type(case) -> str:
    return f"tensor<{'x'.join(map(str, case['shape']))}x{case['dtype']}>"


def _ids(cases):
    return [c["id"] for c in cases]


@pytest.mark.parametrize("case", TMEM_CASES, ids=_ids(TMEM_CASES))
def test_info_gives_tritons_bases_and_allocation(case):
    code, out, err = run(["info", "-l", case["attr"], "-t", _type(case), "--json"])
    assert code == 0, err
    got = json.loads(out)
    assert got["category"] == "tensor memory"
    assert {d: got["bases"].get(d, []) for d in case["bases"]} == case["bases"]
    assert got["out_dims"] == case["out_dims"]
    assert got["tensor_memory"]["alloc"] == case["alloc"]             # Triton's getTmemAllocSizes
    code, text, err = run(["info", "-l", case["attr"], "-t", _type(case)])
    assert code == 0, err
    rows, cols = case["alloc"]
    assert f"{rows} rows x {cols} 32-bit column" in text


_CELL = re.compile(r"(?:B\d+:)?R\d+:C\d+(?:\.\d+)?")


def _view_cells(case) -> list[list[str]]:
    """The print command's tensor memory view, cell by cell (each cell's holder names)."""
    code, out, err = run(["-l", case["attr"], "-t", _type(case)])
    assert code == 0, err
    rows = [line for line in out.splitlines()[1:] if line.strip()]
    return [[_CELL.findall(cell) for cell in re.split(r",\s(?=\s*(?:B\d+:)?R)", row)] for row in rows]


@pytest.mark.parametrize("case", TMEM_CASES[::4], ids=_ids(TMEM_CASES[::4]))
def test_lookup_element_names_the_places_the_view_shows(case):
    cells = _view_cells(case)
    n0, n1 = case["shape"]
    assert len(cells) == n0 and all(len(r) == n1 for r in cells)
    for i, j in {(0, 0), (n0 - 1, n1 - 1), (n0 // 2, n1 // 3), (n0 // 3 + 1, n1 - 1), (1, 1 % n1)}:
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), "--element", f"{i},{j}", "--json"])
        assert code == 0, err
        assert [p["name"] for p in json.loads(out)["places"]] == cells[i][j], (i, j)


def test_lookup_thread_and_offset_on_tensor_memory_say_what_it_has():
    case = TMEM_CASES[0]
    for option in (["--thread", "3"], ["--offset", "3"]):
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), *option])
        assert code == 1 and not out
        assert err.count("\n") == 1 and "tensor memory layout has rows and columns" in err


def test_diff_of_tensor_memory_layouts_is_equal_exactly_when_tritons_bases_are():
    by_shape: dict = {}
    for c in TMEM_CASES:
        by_shape.setdefault((_type(c), c["dtype"]), []).append(c)
    pairs = [(a, b) for group in by_shape.values() for a in group[:4] for b in group[:4] if a is not b]
    assert len(pairs) >= 6
    for a, b in pairs:
        code, out, err = run(["diff", a["attr"], b["attr"], "-t", _type(a), "--exit-code"])
        assert code == (0 if a["bases"] == b["bases"] else 1), (a["id"], b["id"], err)
        assert out.startswith("equal:" if a["bases"] == b["bases"] else "different:")


def test_diff_of_tensor_memory_and_a_register_layout_names_both_kinds():
    case = TMEM_CASES[0]
    blocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    code, out, err = run(["diff", case["attr"], blocked, "-t", _type(case)])
    assert code == 0, err
    assert "A is a tensor memory layout, B a distributed one" in out


# ----------------------------------------------------------------------------------------- padded and partitioned

SHARED_MEMORY_CASES = [c for c in load_suite("memory") if c["kind"] in ("padded_shared", "partitioned_shared")
                       and c["exit"] == 0]


def _apply(bases: dict, inputs: dict, sizes) -> tuple[int, ...]:
    """Triton's bases applied to one input (XOR of the bases of its set bits)."""
    out = [0] * len(sizes)
    for dim, value in inputs.items():
        for k, b in enumerate(bases.get(dim, [])):
            if value >> k & 1:
                out = [x ^ y for x, y in zip(out, b)]
    return tuple(out)


@pytest.mark.parametrize("case", SHARED_MEMORY_CASES, ids=_ids(SHARED_MEMORY_CASES))
def test_padded_and_partitioned_info_and_lookup_agree_with_triton(case):
    printed, _, print_err = run(["-l", case["attr"], "-t", _type(case)])
    code, out, err = run(["info", "-l", case["attr"], "-t", _type(case), "--json"])
    if printed:                                    # the print command refuses it: info says the same
        assert code == printed and err == print_err
        return
    assert code == 0, err
    got = json.loads(out)
    assert {d: got["bases"].get(d, []) for d in case["bases"]} == case["bases"]
    positions = case.get("padded_offsets")                            # Triton's applyPadding of each offset
    if positions:                                                     # one buffer: its last offset's position + 1
        assert got["shared"]["padded_size"] == positions[-1] + 1
    if "padded_size" in case and not case["bases"]["block"]:          # Triton's getPaddedSize of a one-CTA tensor
        assert got["shared"]["padded_size"] == case["padded_size"]
    sizes = list(case["out_dims"].values())
    offsets = 1 << len(case["bases"]["offset"])
    parts = 1 << len(case["bases"].get("partition", []))
    for o in sorted({0, 1, offsets // 3, offsets // 2 + 1, offsets - 1} & set(range(offsets))):
        elements = [_apply(case["bases"], {"offset": o, "partition": q}, sizes) for q in range(parts)]
        position = positions[o] if positions else o
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), "--offset", str(position),
                              "--json"])
        assert code == 0, err
        at = json.loads(out)
        assert at["linear_offset"] == o and [tuple(e["element"]) for e in at["elements"]] == elements
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), "--element",
                              ",".join(map(str, elements[-1])), "--json"])
        assert code == 0, err
        places = json.loads(out)["places"]
        assert {"block": 0, "partition": parts - 1, "offset": o, "position": position} in [
            {k: p[k] for k in ("block", "partition", "offset", "position")} for p in places]
    if positions and positions[-1] + 1 < len(positions) + sum(1 for a, b in zip(positions, positions[1:]) if b > a + 1):
        gap = next(a + 1 for a, b in zip(positions, positions[1:]) if b > a + 1)
        code, out, err = run(["lookup", "-l", case["attr"], "-t", _type(case), "--offset", str(gap), "--json"])
        assert code == 0 and json.loads(out)["padding"] is True, err


def test_diff_of_padded_layouts_compares_their_padding():
    a = "#ttg.padded_shared<[4:+4] {order = [1, 0], shape = [16, 16]}>"
    b = "#ttg.padded_shared<[8:+4] {order = [1, 0], shape = [16, 16]}>"
    plain = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    for x, y, equal in ((a, a, True), (a, b, False), (a, plain, False)):
        code, out, err = run(["diff", x, y, "-t", "tensor<16x16xf16>", "--exit-code"])
        assert code == (0 if equal else 1), err
        assert out.startswith("equal:" if equal else "different: the same offsets of the same elements, padded")


# ----------------------------------------------------------------------------------------- every kind x command

def _kinds() -> dict[str, tuple[str, str]]:
    """One printable example (attribute, tensor type) of every layout kind the golden suites hold."""
    found: dict[str, tuple[str, str]] = {}
    for suite in ("core", "mma"):
        for c in load_suite(suite):
            args = c.get("args", [])
            if c.get("exit") != 0 or "-l" not in args or "-t" not in args or "-i" in args:
                continue
            attr, ty = args[args.index("-l") + 1], args[args.index("-t") + 1]
            kind = attr.split("<", 1)[0]
            if kind == "#ttg.slice" or kind == "#ttg.dot_op":
                kind += "/" + attr.split("parent = ", 1)[1].split("<", 1)[0]
            found.setdefault(kind, (attr, ty))
    for c in load_suite("memory"):
        if c["exit"] == 0:
            found.setdefault(c["attr"].split("<", 1)[0] + ("/padded" if "padded_shared<[" in c["attr"]
                                                          and c["kind"] == "partitioned_shared" else ""),
                             (c["attr"], _type(c)))
    return found


KINDS = _kinds()
MEMORY_KINDS = [k for k in KINDS if k.split("/")[0] in ("#ttg.padded_shared", "#ttg.partitioned_shared",
                                                        "#ttng.tensor_memory_encoding",
                                                        "#ttng.tensor_memory_scales_encoding")]
COMMANDS = {
    "info": lambda attr, ty: ["info", "-l", attr, "-t", ty],
    "lookup": lambda attr, ty: ["lookup", "-l", attr, "-t", ty, "--element", ",".join(["0"] * ty.count("x"))],
    "diff": lambda attr, ty: ["diff", attr, attr, "-t", ty],
    "json": lambda attr, ty: ["-l", attr, "-t", ty, "--format", "json"],
    "svg": lambda attr, ty: ["-l", attr, "-t", ty, "--format", "svg"],
    "svg-hw": lambda attr, ty: ["-l", attr, "-t", ty, "--format", "svg", "--use-hw-view"],
    "html": lambda attr, ty: ["-l", attr, "-t", ty, "--format", "html"],
    "cute": lambda attr, ty: ["-l", attr, "-t", ty, "--format", "cute"],
}


def test_the_golden_suites_hold_every_kind_the_grammar_names():
    assert len(KINDS) >= 18 and len(MEMORY_KINDS) >= 4, sorted(KINDS)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_command_takes_every_kind_the_print_command_takes(kind, command):
    attr, ty = KINDS[kind]
    code, out, err = run(COMMANDS[command](attr, ty))
    if command == "cute" and code == 1:
        assert err.startswith("ttlayout: error: no CuTe form: ") and err.count("\n") == 1, err
        return
    assert code == 0, err
    assert out


# ----------------------------------------------------------------------------------------- the memory views as JSON

@pytest.mark.parametrize("case", TMEM_CASES[1::5], ids=_ids(TMEM_CASES[1::5]))
def test_tensor_memory_json_views_hold_what_the_text_view_and_triton_say(case):
    code, out, err = run(["-l", case["attr"], "-t", _type(case), "--json"])
    assert code == 0, err
    got = json.loads(out)
    assert got["kind"] == "tensor_memory" and got["holder"] == ["block", "row", "column", "slot"]
    cells = _view_cells(case)
    per_column = got["per_column"]
    for i, row in enumerate(got["elements"]):
        for j, places in enumerate(row):
            names = [(f"B{b}:" if len(case["bases"]["block"]) else "") + f"R{r}:C{c}" for b, r, c, _ in places]
            assert [n.split(".")[0] for n in cells[i][j]] == names, (i, j)
            assert all(c * per_column + s < 1 << len(case["bases"]["col"]) for _, _, c, s in places)
    code, out, err = run(["-l", case["attr"], "-t", _type(case), "--json", "--use-hw-view"])
    assert code == 0, err
    hw = json.loads(out)["hardware"]
    sizes = list(case["out_dims"].values())
    rows, cols = 1 << len(case["bases"]["row"]), 1 << len(case["bases"]["col"])
    assert len(hw) == 1 << len(case["bases"]["block"]) and len(hw[0]) == rows and len(hw[0][0]) == cols
    # a zero basis is an unused slot, except at rows 32 and 64: copies for the other warps (Triton's "Zeros in TMEM")
    row_unused = sum(1 << k for k, v in enumerate(case["bases"]["row"]) if not any(v) and k not in (5, 6))
    col_unused = sum(1 << k for k, v in enumerate(case["bases"]["col"]) if not any(v))
    for b, r, c in {(0, 0, 0), (0, rows - 1, cols - 1), (len(hw) - 1, rows // 3, cols // 2), (0, 33, 1), (0, 16, 3)}:
        r, c = r % rows, c % cols
        cell = hw[b][r][c]
        if r & row_unused or c & col_unused:
            assert cell is None
        else:
            assert tuple(cell) == _apply(case["bases"], {"row": r, "col": c, "block": b}, sizes)


@pytest.mark.parametrize("case", SHARED_MEMORY_CASES[::3], ids=_ids(SHARED_MEMORY_CASES[::3]))
def test_padded_and_partitioned_json_views_follow_tritons_padding(case):
    code, out, err = run(["-l", case["attr"], "-t", _type(case), "--json", "--use-hw-view"])
    if code:
        return                                     # the print command refuses it (see the test above)
    hw = json.loads(out)["hardware"]
    sizes = list(case["out_dims"].values())
    positions = case.get("padded_offsets") or list(range(1 << len(case["bases"]["offset"])))
    parts = 1 << len(case["bases"].get("partition", []))
    assert len(hw) == 1 << len(case["bases"]["block"]) and len(hw[0]) == parts
    for p in range(parts):
        memory = hw[-1][p]
        assert len(memory) == positions[-1] + 1
        assert sum(cell is None for cell in memory) == len(memory) - len(positions)
        for o, position in enumerate(positions):
            assert tuple(memory[position]) == _apply(case["bases"], {"offset": o, "partition": p,
                                                                     "block": len(hw) - 1}, sizes)
    code, out, err = run(["-l", case["attr"], "-t", _type(case), "--json"])
    assert code == 0, err
    elements = json.loads(out)["elements"]
    first = elements
    for _ in sizes:
        first = first[0]
    assert first and all(place[3] == positions[place[2]] for place in first)
