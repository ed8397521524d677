"""Helpers shared by several test modules (not tests themselves): random layouts, the hostile-string corpus, the
H100 measurement reader of scripts/, and the independent reading of CuTe text through `tensor-layouts`."""
from __future__ import annotations

import ast
import collections
import importlib.util
import random
import re

import numpy as np
from golden_cases import ROOT, cases_with_bases

from linlayout_cli.analysis.cute import CATEGORIES, cute_form
from linlayout_cli.engine import LinearLayout

BLOCKED = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"


def random_blocked(rng: random.Random, shape, lanes=32, warps=None) -> str:
    """A random valid #ttg.blocked for `shape`: up to 8 elements per thread, `lanes` lanes, 1-4 warps."""
    rank = len(shape)
    order = list(range(rank))
    rng.shuffle(order)

    def split(total):
        parts = [1] * rank
        while total > 1:
            d = rng.randrange(rank)
            parts[d] *= 2
            total //= 2
        return parts
    spt = [min(s, x) for s, x in zip(shape, split(rng.choice([1, 2, 4, 8])))]
    return BLOCKED.format(spt, split(lanes), split(warps or rng.choice([1, 2, 4])), order)


def warm_up(run) -> None:
    """Run every converter and both renderers once, so that no Hypothesis example pays an import (deadline)."""
    for attr in ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>",
                 "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>",
                 "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"):
        for ttype in ("tensor<16x16xf16>", "tensor<128x128xf16>"):      # plain-Python and numpy renderers
            for hw in ([], ["--use-hw-view"]):
                run(["-l", attr, "-t", ttype] + hw)


def ncu_bank_check():
    """scripts/ncu_bank_check.py as a module (scripts/ is no installed package): `read_ncu`, `compare`."""
    spec = importlib.util.spec_from_file_location("ncu_bank_check", ROOT / "scripts" / "ncu_bank_check.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------------------- hostile strings

HOSTILE_BLOCKED = ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                   "order = [1, 0]}>")
# strings a dump may carry in a string literal (no '"', no newline): terminal escapes (CSI, OSC, C1 CSI), bidi
# overrides and isolates, markup that would end or comment out the page's script, rich markup, XML-illegal
# controls (NUL is refused by the reader, see test_files_io.py), a replacement character, format characters
HOSTILE = ["\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "\x9b31m", "\x9d0;x\x9c",
           "\u202eevil\u202c", "\u2066\u2069", "<!--<script>", "</script><script>alert(1)</script>", "]]>&amp;<x>",
           "[bold red]x[/]", "[/]", "\x01\x08\x0b\x0c\x7f", "\ufeff\u200b\u2028\u2029", "\ufffd", "%s%n%x"]


def dump(hostile: str) -> str:
    """A dump whose op types and locations carry `hostile` (in a dialect type's string and a file name)."""
    return (f"#b = {HOSTILE_BLOCKED}\n#loc1 = loc(\"{hostile}kernel.py\":3:4)\n"
            'module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {\n'
            f'  %c = arith.constant : tensor<16x16x!x.y<"{hostile}">, #b> loc(#loc1)\n'
            f"  %d = ttg.convert_layout %c : tensor<16x16x!x.y<\"{hostile}\">, #b> -> tensor<16x16x!x.y<\"{hostile}\">, "
            f"#ttg.slice<{{dim = 0, parent = #ttg.blocked<{{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], "
            f"warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}}>}}>> loc(\"{hostile}x.py\":1:1)\n"
            "}\n")


# ----------------------------------------------------------------------------------------- CuTe, read independently
# ttlayout's CuTe text evaluated by facebookresearch's `tensor-layouts` (the `test` extra, imported where used, so
# that the other users of this module do not need it), and what Triton's bases of a golden case give at the same
# points (test_cute.py, test_cute_cli.py)

EVERY_POINT = 2048


def triton_layout(case) -> LinearLayout:
    """Triton's linear layout of a golden case, out dims in order dim0, dim1, ..."""
    outs = list(case["out_dims"].items())
    ll = LinearLayout(case["bases"], outs, require_surjective=False)
    return ll.transpose_outs([f"dim{d}" for d in range(len(outs))])


def library_layout(text: str):
    """ttlayout's CuTe text -> a tensor_layouts layout, read here independently of ttlayout's parser."""
    import tensor_layouts as tl
    swizzle = None
    if " o " in text:
        head, text = text.split(" o ", 1)
        swizzle = tl.Swizzle(*map(int, re.findall(r"-?\d+", head)))
    shape, stride = (ast.literal_eval(part.replace("_", "").replace(")", ",)")) for part in text.split(":"))
    layout = tl.Layout(shape, stride)
    return layout if swizzle is None else tl.compose(swizzle, layout)


def _span(bases: list[int], n_bits: int) -> np.ndarray:
    """XOR of bases[j] over the set bits j of every index 0..2^n_bits-1."""
    out = np.zeros(1 << n_bits, dtype=np.int64)
    idx = np.arange(1 << n_bits)
    for j, b in enumerate(bases):
        out ^= np.where(idx >> j & 1, b, 0)
    return out


def _row_major(bases, shape) -> list[int]:
    flat = []
    for b in bases:
        x = 0
        for c, n in zip(b, shape):
            x = x * n + c
        flat.append(x)
    return flat


def expected_thread_value(case, shape) -> np.ndarray:
    """[thread, value] -> row-major element index from Triton's bases (thread = lane + lanes x (warp + warps x block))."""
    b = case["bases"]
    thread = _row_major(b["lane"] + b["warp"] + b["block"], shape)
    value = _row_major(b["register"], shape)
    return _span(thread, len(thread))[:, None] ^ _span(value, len(value))[None, :]


def expected_offsets(case, shape) -> np.ndarray:
    """[row-major element] -> offset (offset + offsets per block x block) from Triton's offset -> element bases."""
    b = case["bases"]
    elements = _span(_row_major(b["offset"] + b["block"], shape), len(b["offset"]) + len(b["block"]))
    out = np.full(len(elements), -1, dtype=np.int64)
    out[elements] = np.arange(len(elements))
    return out


def library_thread_value(layout, n_threads: int, n_values: int) -> np.ndarray:
    if n_threads * n_values <= EVERY_POINT:
        return np.array([[layout(t, v) for v in range(n_values)] for t in range(n_threads)], dtype=np.int64)
    threads = np.array([layout(t, 0) for t in range(n_threads)], dtype=np.int64)
    values = np.array([layout(0, v) for v in range(n_values)], dtype=np.int64)
    return threads[:, None] + values[None, :]


def library_offsets(layout, shape) -> np.ndarray:
    """Offset of each row-major element: the layout at the coordinate (c0, c1, ...); an int for a 1-D tensor."""
    import tensor_layouts as tl
    n = int(np.prod(shape))
    coords = list(np.ndindex(*shape))
    point = (lambda c: c[0]) if len(shape) == 1 else tuple
    if n <= EVERY_POINT:
        return np.array([layout(point(c)) for c in coords], dtype=np.int64)
    inner = layout.inner if isinstance(layout, tl.ComposedLayout) else layout
    total = np.zeros(n, dtype=np.int64)
    for d, size in enumerate(shape):
        along = [inner(point(tuple(k if e == d else 0 for e in range(len(shape))))) for k in range(size)]
        index = np.array([c[d] for c in coords])
        total += np.array(along, dtype=np.int64)[index]
    if isinstance(layout, tl.ComposedLayout):
        total = np.array([layout.outer(int(x)) for x in total], dtype=np.int64)
    return total


def cute_table() -> dict[str, collections.Counter]:
    """Per kind: how many golden cases have a CuTe form ('cute'), and the others by the category of their reason."""
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for case in cases_with_bases():
        form = cute_form(triton_layout(case), case["kind"])
        table[case["kind"]]["cute" if form.layout is not None else form.category] += 1
    return table


def table_rows() -> list[str]:
    """docs/cute.md's table: kind, cases, with a CuTe form, then one column per category of reason."""
    rows = []
    for kind, counts in sorted(cute_table().items()):
        cells = [kind, sum(counts.values()), counts["cute"]] + [counts[c] or "" for c in CATEGORIES]
        rows.append("| " + " | ".join(map(str, cells)) + " |")
    return rows


def op_fields(op) -> tuple:
    """Everything a parsed `Op` tells, as one comparable tuple (name, values, types, attributes, place, text,
    region, location, loop arguments, symbol)."""
    return (op.name, op.results, op.operands, op.operand_types, op.result_types, op.attrs, op.loc_text, op.line,
            op.depth, op.loops, op.text, op.region, op.loc, op.iter_args(), op.symbol())


def ops_by_the_general_path(text: str) -> list[tuple]:
    """`op_fields` of the ops of a one-module text read the old way, by the general path only: every statement of
    the module first (no fast scanner, nothing made as it completes), then each made into an op."""
    from linlayout_cli.parsing import module as M
    text = M.normalise_newlines(text)
    aliases = M.tolerant_aliases(text)
    reader = M.OpReader(M.Locations(aliases))
    out, line, pos, regions = [], 1, 0, 0
    for start, end in aliases.table.op_spans:
        line += text.count("\n", pos, start)
        pos = start
        statements, regions = M._statements(text[start:end], line, regions)
        for s in statements:
            if not s["text"].lstrip().startswith("#"):
                op = reader.op(s["text"], s["line"], s["depth"], s["loops"], s["region"])
                if op is not None:
                    out.append(op_fields(op))
    return out
