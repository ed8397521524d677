"""The bank report as a picture: the worst wavefront of the store and of the load, one grid each.

Columns are the banks, rows the 128-byte lines of shared memory the wavefront touches; a cell is one 32-bit word,
labelled with the lanes that access it and filled in their colours. A bank that must serve several distinct words
(a conflict: one extra wavefront per extra word) has its column header and its words outlined in red, and so do
the lanes that access it in the lane strip below the grid.
"""
from __future__ import annotations

from ..analysis.bank import BankReport, worst_wavefront_lanes
from ..analysis.targets import READ, WRITE
from ..reports.common import coord, lane_ranges, more_count, plural
from . import palette
from .svg import Panel, document, esc, stack, text_lines

CELL_W, CELL_H, LEFT, HEAD = 44, 30, 92, 18
LANE_W = 30
MAX_WORDS = 4                   # words of the worst bank listed below the grid (the text report lists them all)
MAX_ELEMENTS = 3                # elements listed per word


def _lane_class(lane: int, lanes: int, styles: dict) -> str:
    name = f"l{lane}"
    styles[name] = "fill:" + palette.css(palette.thread_hsl(0, lane, lanes))
    return name


def _words_by_cell(accesses, banks: int):
    """(line, bank) -> {word: lanes} for the words a wavefront touches."""
    cells: dict = {}
    for a in accesses:
        for w in a.words:
            cells.setdefault((w // banks, w % banks), {}).setdefault(w, []).append(a.lane)
    return cells


def access_panel(report: BankReport, op: str) -> Panel:
    """One access (store or load): its headline, the bank grid of its worst wavefront and the lane strip."""
    a = report.accesses[op]
    worst = a.worst
    banks = report.target.num_banks
    lanes_per_warp = report.lanes
    accesses = worst_wavefront_lanes(report, op)
    cells = _words_by_cell(accesses, banks)
    words_per_bank: dict = {}
    for (_line, b), words in cells.items():
        words_per_bank.setdefault(b, set()).update(words)
    hot = {b for b, ws in words_per_bank.items() if len(ws) > 1}
    hot_lanes = {x.lane for x in accesses if any(w % banks in hot for w in x.words)}
    name = "store (write)" if op == WRITE else "load (read)"
    head = [f"{name}: {a.instruction}, {a.conflicts} conflict(s); "
            f"{a.wavefronts} wavefronts per instruction, ideal {a.phases}"]
    if worst.distinct_words > 1:
        head.append(f"worst wavefront: instruction {worst.instruction}, lanes {lane_ranges(worst.lanes)}: bank "
                    f"{worst.bank} serves {plural(worst.distinct_words, 'distinct 32-bit word')}"
                    + (f" ({worst.banks_at_max} banks do)" if worst.banks_at_max > 1 else "")
                    + f", so the wavefront takes {worst.distinct_words} passes instead of 1")
    else:
        head.append(f"conflict-free: instruction {worst.instruction}, lanes {lane_ranges(worst.lanes)} touch each "
                    "bank at one 32-bit word at most")
    title = text_lines(head, width_chars=130)
    styles: dict = {}
    lines = sorted({line for line, _ in cells})
    parts = []
    y0 = HEAD
    for b in range(banks):
        cls = ' class="hotx"' if b in hot else ""
        parts.append(f'<text{cls} x="{LEFT + b * CELL_W + CELL_W // 2}" y="{HEAD - 5}" text-anchor="middle">'
                     f'{b}</text>')
    parts.append(f'<text class="n" x="0" y="{HEAD - 5}">bank</text>')
    for i, line in enumerate(lines):
        y = y0 + i * CELL_H
        parts.append(f'<text class="ax" x="{LEFT - 6}" y="{y + CELL_H // 2 + 3}" text-anchor="end">'
                     f'word {line * banks} @0x{line * banks * 4:x}</text>')
        for b in range(banks):
            x: float = LEFT + b * CELL_W
            words = cells.get((line, b))
            if not words:
                parts.append(f'<rect x="{x}" y="{y}" width="{CELL_W}" height="{CELL_H}" fill="#f3f3f3" '
                             'stroke="#fff"/>')
                continue
            lanes = sorted({ln for ls in words.values() for ln in ls})
            step = CELL_W / len(lanes[:8])
            for j, ln in enumerate(lanes[:8]):
                parts.append(f'<rect class="{_lane_class(ln, lanes_per_warp, styles)}" x="{x + j * step:.4g}" '
                             f'y="{y}" width="{step:.4g}" height="{CELL_H}"/>')
            label = "L" + lane_ranges(lanes).replace(", ", ",")
            if len(label) > 7:
                label = f"L{lanes[0]}+{len(lanes) - 1}"
            parts.append(f'<text x="{x + CELL_W // 2}" y="{y + 13}" text-anchor="middle">{esc(label)}</text>')
            if b in hot:
                parts.append(f'<rect class="hot" x="{x + 1}" y="{y + 1}" width="{CELL_W - 2}" height="{CELL_H - 2}"/>')
    grid_h = HEAD + len(lines) * CELL_H
    # the lane strip: each lane, the bank(s) it touches, outlined red when it takes part in a conflict
    strip_y = grid_h + 26
    parts.append(f'<text class="n" x="0" y="{strip_y - 8}">lanes of the wavefront (lane / bank); red: the lane\'s '
                 'bank serves several words</text>')
    per_row = 32
    for i, acc in enumerate(accesses):
        x = LEFT + (i % per_row) * LANE_W * 1.4
        y = strip_y + (i // per_row) * 34
        parts.append(f'<rect class="{_lane_class(acc.lane, lanes_per_warp, styles)}" x="{x:.4g}" y="{y}" '
                     f'width="{LANE_W * 1.4 - 2:.4g}" height="30"/>')
        bank_text = ",".join(str(w % banks) for w in acc.words[:2]) + more_count(len(acc.words), 2, "+{}")
        parts.append(f'<text x="{x + LANE_W * 0.7:.4g}" y="{y + 12}" text-anchor="middle">L{acc.lane}</text>'
                     f'<text class="ax" x="{x + LANE_W * 0.7:.4g}" y="{y + 25}" text-anchor="middle">'
                     f'b{bank_text}</text>')
        if acc.lane in hot_lanes:
            parts.append(f'<rect class="hot" x="{x + 1:.4g}" y="{y + 1}" width="{LANE_W * 1.4 - 4:.4g}" height="28"/>')
    strip_h = ((len(accesses) + per_row - 1) // per_row) * 34
    grid = Panel(LEFT + banks * CELL_W, strip_y + strip_h, "".join(parts), tuple(styles.items()))
    elems = []
    for w in worst.words[:MAX_WORDS]:
        elems.append(f"word {w.word} (0x{w.byte_address:04x}): lanes {lane_ranges(w.lanes)}, elements "
                     + ", ".join(coord(e) for e in w.elements[:MAX_ELEMENTS])
                     + more_count(len(w.elements), MAX_ELEMENTS, ", ... and {} more"))
    if len(worst.words) > MAX_WORDS:
        elems.append(f"... and {plural(len(worst.words) - MAX_WORDS, 'more word')} (ttlayout bank lists them all)")
    if worst.distinct_words > 1:
        elems.insert(0, f"bank {worst.bank}'s words:")
    return stack([title, grid] + ([text_lines(elems)] if worst.distinct_words > 1 else []), gap=6)


def bank_panel(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> Panel:
    t = report.target
    v, bw = report.vector_width, report.bitwidth
    head = text_lines([f"bank conflicts: {report.conflicts}"], cls="t")
    info = text_lines([f"target {t.name}: {t.num_banks} banks x {t.bank_bytes} bytes; tensor "
                       f"{'x'.join(map(str, report.shape))}, {bw}-bit elements{f' ({element})' if element else ''}; "
                       f"{plural(v, 'element')} = {v * bw} bits per lane per instruction",
                       f"register: {reg_text}", f"shared:   {shared_text}"], width_chars=150)
    ops = [WRITE, READ]
    if not report.ops_differ and report.accesses[WRITE].worst == report.accesses[READ].worst:
        ops = [READ]
    return stack([head, info] + [access_panel(report, op) for op in ops], gap=14)


def render_bank_svg(report: BankReport, reg_text: str, shared_text: str, element: str | None, write) -> None:
    write(document(bank_panel(report, reg_text, shared_text, element)).encode())
