"""The language server's one adapter to ttlayout's analyses: every call into `parsing`, `analysis`, `reports`,
`inputs` and `sources` the server makes goes through here, so a change of those APIs (the audit's rows becoming
typed records, say) is absorbed in this module alone. Nothing here knows about the protocol: it takes text and
gives records and report text."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from .. import inputs, sources
from ..errors import TTLayoutError

HELP_AUDIT = "ttlayout help audit-model"
_LINE_COLUMN = re.compile(r"^line (\d+), column (\d+): ")


# ----------------------------------------------------------------------------------------- sections and modules


def sections(text: str) -> list:
    """The file's sections (`parsing.sections.Section`: a lit file's `// -----` modules, a dump's passes), each
    its own alias scope; the text's newlines must already be LF."""
    from ..parsing.sections import sections as found
    return found(text)


def is_dump(found: list) -> bool:
    from ..parsing.sections import is_dump as dump
    return dump(found)


def is_ttgir(chunk: str) -> bool:
    from ..parsing.sections import is_ttgir as ttgir
    return ttgir(chunk)


def last_ttgir(text: str, found: list):
    from ..parsing.sections import last_ttgir as last
    return last(text, found)


def normalise_newlines(text: str) -> str:
    from ..parsing.mlir_file import normalise_newlines as normal
    return normal(text)


def read_module(text: str, section):
    """The `parsing.module.Module` of one section (aliases that fail to read kept as their errors); a
    TTLayoutError for a section that cannot be read at all (an unbalanced bracket, a NUL, too large)."""
    from ..parsing.module import read_module as read
    return read(text[section.start:section.end], section.first_line, section)


@dataclass(frozen=True)
class Problem:
    """A parse error to show where it is: 1-based line and column in the file, and the CLI's message."""
    line: int
    column: int
    message: str


def problem_of(error: Exception, default_line: int) -> Problem:
    """Where an error of the readers points (its `line N, column M:` prefix, which the CLI prints too)."""
    message = str(error)
    m = _LINE_COLUMN.match(message)
    if m:
        return Problem(int(m.group(1)), int(m.group(2)), message)
    return Problem(getattr(error, "line", default_line) or default_line, getattr(error, "column", 1) or 1, message)


def broken_aliases(module) -> list[tuple[str, Problem]]:
    """The alias definitions of a module that failed to parse, with where and why (the CLI's text)."""
    broken = getattr(module.aliases, "broken", {})
    return [(name, problem_of(e, module.first_line)) for name, e in broken.items()]


def read_aliases(text: str, section):
    """A section's alias definitions alone (no op read), name -> attribute or its error, as the audit reads
    them (`parsing.module.tolerant_aliases`); a TTLayoutError when the section cannot be scanned."""
    from ..parsing.module import tolerant_aliases
    return tolerant_aliases(text[section.start:section.end], section.first_line)


def alias_value(aliases, name: str):
    """The attribute an alias names (None if not defined; the error itself if it failed)."""
    if name not in aliases:
        return None
    return aliases[name]


def value_type(aliases, type_text: str):
    """A `tensor<...>` / `!ttg.memdesc<...>` written in a section, read as the audit reads it (`ValueType`)."""
    from ..parsing.module import parse_type
    return parse_type(type_text, aliases)


def parse_inline(aliases, text: str):
    """An attribute written inline in a section (`#ttg.blocked<{...}>`), its `#name`s resolved there."""
    from ..parsing.attribute import parse_attribute
    return parse_attribute(text, aliases.attributes)


def is_layout(attr) -> bool:
    return getattr(attr, "kind", None) in ("distributed", "shared")


# ----------------------------------------------------------------------------------------- one layout: info


@dataclass(frozen=True)
class LayoutText:
    """`info`'s summary of a layout at a shape as plain text (summary rows, bases, paste, Gluon, CuTe), and the
    linear layout, for the grid."""
    summary: str
    linear: object
    category: str


def layout_text(attr, shape, element: str) -> LayoutText:
    """`ttlayout info` of `attr` at `shape` x `element`: its summary block (the linear layout's dump left out)."""
    from ..analysis.info import analyze_info
    from ..reports import info as report
    from ..reports.blocks import Fields, to_text
    bits = inputs.element_bitwidth(element)
    ll = inputs.linear_layout(attr, list(shape))
    result = analyze_info(attr, ll, tuple(shape), element, bits)
    blocks = report.blocks(result)
    cut = next((k for k, b in enumerate(blocks) if isinstance(b, Fields)), len(blocks) - 1) + 1
    return LayoutText(to_text(blocks[1:cut]), ll, result.category)


def thread_grid(ll, rows: int = 16, cols: int = 16) -> tuple[str, str] | None:
    """A small picture of a 2-D distributed layout: (title, grid). At most `rows` x `cols` elements: each cell
    the thread that holds it (the first holder, Tn, as `lookup` orders them); for a larger tensor, the top-left
    window, each cell the lane of warp 0 (block 0) that holds it, '.' where another warp does. None for a layout
    that is not 2-D distributed, or too large to enumerate.

    Every hardware index is mapped at once (`apply_all`), the lowest index winning a cell: with register, lane,
    warp, block as in dims, that is the first holder."""
    import numpy as np
    dims = ll.get_out_dims()
    if len(dims) != 2 or ll.has_in_dim("offset"):
        return None
    (_, m), (_, n) = dims
    small = m <= rows and n <= cols
    r, c = min(m, rows), min(n, cols)
    try:
        images = ll.apply_all()
    except (TTLayoutError, ValueError, MemoryError):
        return None
    x = np.arange(images.shape[1], dtype=np.int64)
    index, shift = {}, 0
    for name in ll.in_dims:
        bits = ll.get_in_dim_size_log2(name)
        index[name] = (x >> shift) & ((1 << bits) - 1)
        shift += bits
    zero = np.zeros_like(x)
    lane, warp, block = (index.get(k, zero) for k in ("lane", "warp", "block"))
    lanes = ll.get_in_dim_size("lane") if ll.has_in_dim("lane") else 1
    keep = (images[0] < r) & (images[1] < c)
    if small:
        value = lane + warp * lanes
    else:
        keep &= (warp == 0) & (block == 0)
        value = lane
    grid = np.full((r, c), -1, dtype=np.int64)
    chosen = np.nonzero(keep)[0][::-1]                 # the lowest index written last: it wins its cell
    grid[images[0][chosen], images[1][chosen]] = value[chosen]
    cells = [[("-" if v < 0 else f"T{v}") if small else ("." if v < 0 else str(v)) for v in row]
             for row in grid.tolist()]
    width = max(len(v) for row in cells for v in row)
    text = "\n".join(" ".join(v.rjust(width) for v in row) for row in cells)
    if small:
        title = f"threads holding each element of the {m}x{n} tensor (first holder)"
    else:
        title = f"warp 0's lanes in the top-left {r}x{c} of the {m}x{n} tensor ('.': another warp)"
    return title, text


# ----------------------------------------------------------------------------------------- a module: audit


def audit(module, several: bool = True):
    """`analyze_audit` of one module (its own `ttg.target`, else the default)."""
    from ..analysis.audit import analyze_audit
    return analyze_audit([module], None, several)[0]


def rows(module_audit) -> tuple:
    """The audit's rows (findings) of a module."""
    return tuple(module_audit.findings)


def target_name(module_audit) -> str:
    return module_audit.target.name


@dataclass(frozen=True)
class Row:
    """One audit row as the server shows it: where, what op, its waste and cost, its verdict (long and short)."""
    line: int
    op: str
    waste: float
    cost: float
    verdict: str
    short: str
    category: str
    path: str                    # a convert's lowering path ('shared_memory', 'warp_shuffle', ...), else ''
    finding: Any                 # the analysis' own row record, handed back to the reports


def row_of(f) -> Row:
    from ..reports import audit as report
    path = f.conversion.path if getattr(f, "conversion", None) is not None else ""
    return Row(f.line, f.op, f.waste, f.cost, report.verdict(f), report.short_verdict(f), f.category, path, f)


def row_text(row: Row, title: str) -> str:
    """`audit --line N`'s facts of a row, as plain text."""
    from ..reports import audit as report
    from ..reports.blocks import to_text
    return to_text(report.facts_blocks(row.finding, title))


def where(row: Row) -> str:
    from ..reports import audit as report
    return report.where(row.finding)


def number(x: float) -> str:
    """A cost as the audit table prints it."""
    return f"{x:.0f}" if x == int(x) or x >= 100 else f"{x:.1f}"


def assembly_column(path: str | None, module_audit):
    """The assembly column of an audited module when NAME.ptx / NAME.amdgcn sits beside the file (the way
    `ttlayout audit` finds it), else None; an assembly that cannot be read is None too."""
    if not path or not os.path.isfile(path):
        return None
    listing, _why = sources.kernel_assembly(path, False)
    if listing is None:
        return None
    columns = sources.asm_columns([module_audit], listing)
    return columns[0] if columns else None


def assembly_cell(row: Row, column) -> str:
    """`audit`'s assembly cell of a row: model / assembly counts per class for its Python line."""
    from ..reports import audit as report
    return report.asm_cell(row.finding, column)


# ----------------------------------------------------------------------------------------- a module: advise


@dataclass(frozen=True)
class Fix:
    """One `advise` change, for a code action: the section's module index, each alias's new value, the title's
    words (counts before -> after) and the kernel's cost before and after."""
    module_index: int
    aliases: tuple[tuple[str, str], ...]
    gains: str
    cost_before: float
    cost_after: float


def advise(module, module_index: int) -> list[Fix]:
    """`analyze_advise` of one module: its changes, best first."""
    from ..analysis.advise import COUNT_WORDS, analyze_advise
    found = analyze_advise([module])
    fixes = []
    for a in found:
        for c in a.changes:
            words = [f"{COUNT_WORDS.get(k, k.replace('_', ' '))} {c.totals_before[k]} → {c.totals_after[k]}"
                     for k in c.totals_before if k in c.totals_after and c.totals_before[k] != c.totals_after[k]]
            fixes.append(Fix(module_index, tuple((x.alias, x.after) for x in c.aliases),
                             ", ".join(words) or f"cost {number(c.cost_before)} → {number(c.cost_after)}",
                             c.cost_before, c.cost_after))
    return fixes


def apply_fix(text: str, fix: Fix) -> str:
    """The file with the change applied exactly as `ttlayout advise --write` writes it."""
    return inputs.replace_aliases(text, {fix.module_index: dict(fix.aliases)})


__all__ = ["TTLayoutError", "HELP_AUDIT"]
