"""Text, rich and JSON renderings of ``bank`` and ``swizzle`` results.

Plain text is the default (pipes, files, tests); ``rich`` is imported only when the output is a terminal."""
from __future__ import annotations

import json

from .bank import BankReport, _Prepared
from .swizzle import Score, Suggestion
from .targets import READ, WRITE

# ----------------------------------------------------------------------------------------- small helpers


def lane_ranges(lanes) -> str:
    lanes = sorted(int(x) for x in lanes)
    parts, i = [], 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        parts.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ", ".join(parts)


def _coord(c) -> str:
    return "(" + ", ".join(str(x) for x in c) + ")"


def _shape(shape) -> str:
    return "x".join(str(s) for s in shape)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def vector_reason(report: BankReport, prep: _Prepared | None) -> str:
    """Why the vector is not wider (one line)."""
    bw, v = report.bitwidth, report.vector_width
    if v * bw >= 128:
        return "the widest shared-memory access (128 bits per lane)"
    if prep is None:
        return ""
    cvt = prep.cvt
    oi = cvt.out_dims.index("offset")
    bi = cvt.out_dims.index("block") if "block" in cvt.out_dims else None
    want = v                                   # the element offset the next vector bit would need
    if want >= prep.offset_size:
        return f"the shared layout has only {prep.offset_size} offsets"
    for dim in cvt.in_dims:
        for j, b in enumerate(cvt.get_in_dim_bases(dim)):
            if b[oi] == want and (bi is None or b[bi] == 0):
                if dim == "register":
                    continue
                return (f"offset {want} (element {_coord(_elem(prep, want))}) is held by {dim} {1 << j}, "
                        "not by a register of the same thread")
    regs = cvt.get_in_dim_bases("register")
    if not any(b[oi] == want and (bi is None or b[bi] == 0) for b in regs):
        return f"no register step reaches offset {want} (element {_coord(_elem(prep, want))})"
    mask = 2 * v - 1
    for dim in cvt.in_dims:
        for j, b in enumerate(cvt.get_in_dim_bases(dim)):
            if dim == "register" and b[oi] == want:
                continue
            if b[oi] & mask and b[oi] & (v - 1) == 0:
                return (f"{dim} {1 << j} lands at offset {b[oi]}, which would split a {2 * v}-element vector")
    return f"a {2 * v}-element vector would not be contiguous in shared memory"


def _elem(prep: _Prepared, address: int):
    from .bank import _element_of
    return _element_of(prep, address)


def _primary(report: BankReport):
    acc = report.accesses
    return max((acc[WRITE], acc[READ]), key=lambda a: (a.conflicts, a.wavefronts, a.op == READ))


# ----------------------------------------------------------------------------------------- bank: JSON


def _access_json(a) -> dict:
    d = {
        "instruction": a.instruction,
        "access_bits": a.access_bits,
        "conflicts": a.conflicts,
        "k": a.k,
        "wavefronts": a.wavefronts,
        "ideal_wavefronts": a.phases,
        "phases": a.phases,
        "lanes_per_phase": a.lanes_per_phase,
        "phase_lane_masks": list(a.phase_masks),
        "simulated_conflicts": a.sim_conflicts,
        "simulated_instructions": a.simulated_instructions,
    }
    if a.worst:
        w = a.worst
        d["worst_wavefront"] = {
            "instruction": w["instruction"],
            "lanes": w["phase_lanes"],
            "bank": w["bank"],
            "distinct_words": w["distinct_words"],
            "banks_with_that_many_words": w["banks_at_max"],
            "words": [{"word": x["word"], "byte_address": x["byte_address"], "lanes": x["lanes"],
                       "elements": x["elements"]} for x in w["words"]],
        }
    return d


def bank_json(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> str:
    p = _primary(report)
    t = report.target
    obj = {
        "conflicts": report.conflicts,
        "vector_width": report.vector_width,
        "vector_bits": report.vector_width * report.bitwidth,
        "wavefronts": p.wavefronts,
        "ideal_wavefronts": p.phases,
        "simulated_conflicts": max(a.sim_conflicts for a in report.accesses.values()),
        "target": t.name,
        "vendor": t.vendor,
        "num_banks": t.num_banks,
        "bank_bytes": t.bank_bytes,
        "triton_reference": t.triton_checked,
        "element_bits": report.bitwidth,
        "element_type": element,
        "shape": report.shape,
        "lanes_per_warp": report.lanes,
        "warps": report.warps,
        "instructions_per_warp": report.instructions_per_warp,
        "segment_bits": report.segment_bits,
        "register_layout": reg_text,
        "shared_layout": shared_text,
        "write": _access_json(report.accesses[WRITE]),
        "read": _access_json(report.accesses[READ]),
    }
    return json.dumps(obj, indent=2) + "\n"


# ----------------------------------------------------------------------------------------- bank: text


def _access_lines(a, report: BankReport, indent: str = "") -> list[str]:
    lines = []
    lanes = f"{_plural(a.phases, 'phase')} of {a.lanes_per_phase} lanes"
    lines.append(f"{indent}wavefronts    {a.wavefronts} per instruction, ideal {a.phases} ({lanes}); "
                 f"{a.conflicts} conflict(s), 2^{a.k} - 1")
    if a.sim_conflicts != a.conflicts:
        lines.append(f"{indent}              lane-by-lane simulation: {a.sim_conflicts} conflict(s); Triton's linear "
                     "model cannot see lanes that share a bank at different bytes of different words")
    if a.worst:
        lines += _worst_lines(a, report, indent)
    return lines


def _worst_lines(a, report: BankReport, indent: str) -> list[str]:
    w = a.worst
    out = []
    if w["distinct_words"] <= 1:
        return [f"{indent}conflict-free: in every wavefront each bank serves at most one 32-bit word"]
    head = (f"{indent}worst wavefront: instruction {w['instruction']}, lanes {lane_ranges(w['phase_lanes'])}: "
            f"bank {w['bank']} serves {_plural(w['distinct_words'], 'distinct 32-bit word')}")
    if w["banks_at_max"] > 1:
        head += f" ({w['banks_at_max']} banks do)"
    out.append(head)
    rows = [("word", "byte addr", "lanes", "elements")]
    for x in w["words"]:
        elems = ", ".join(_coord(e) for e in x["elements"][:4]) + (", ..." if len(x["elements"]) > 4 else "")
        rows.append((str(x["word"]), f"0x{x['byte_address']:04x}", lane_ranges(x["lanes"]), elems))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        out.append(indent + "  " + "  ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip())
    return out


def bank_text(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> str:
    t = report.target
    v, bw = report.vector_width, report.bitwidth
    out = []
    ref = "Triton 3.9's get_shared_bank_conflicts" if t.triton_checked else "Triton's linear model on this target"
    out.append(f"bank conflicts: {report.conflicts}  (extra wavefronts per wavefront, 2^k - 1; {ref})")
    out.append(f"target        {t.name}: {t.arch}, {t.num_banks} banks x {t.bank_bytes} bytes, "
               f"{t.warp_size}-lane {'warps' if t.vendor == 'nvidia' else 'wavefronts'}")
    elem = f" ({element})" if element else ""
    out.append(f"tensor        {_shape(report.shape)}, {bw}-bit elements{elem}")
    out.append(f"register      {reg_text}")
    out.append(f"shared        {shared_text}")
    if report.lanes != t.warp_size:
        out.append(f"note          the register layout has {report.lanes} lanes per warp, the target {t.warp_size}")
    write, read = report.accesses[WRITE], report.accesses[READ]
    instr = write.instruction if write.instruction == read.instruction else f"{write.instruction} / {read.instruction}"
    out.append(f"vector width  {_plural(v, 'element')} = {v * bw} bits per lane ({instr}); "
               f"{_plural(report.instructions_per_warp, 'instruction')} per warp")
    reason = vector_reason(report, report.prep)
    if reason:
        out.append(f"              limited by: {reason}")
    if not report.ops_differ:
        out += _access_lines(read, report)
    else:
        for a in (write, read):
            out.append(f"{a.op} ({a.instruction}): {a.conflicts} conflict(s)")
            out += _access_lines(a, report, "  ")
    return "\n".join(out) + "\n"


def bank_rich(report: BankReport, reg_text: str, shared_text: str, element: str | None,
              width: int | None = None) -> str:
    import io

    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    t = report.target
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=width or 120, highlight=False)
    color = "green" if report.conflicts == 0 else ("yellow" if report.conflicts < 3 else "red")
    ref = "Triton 3.9" if t.triton_checked else "linear model"
    console.print(Text.assemble(("bank conflicts: ", "bold"), (str(report.conflicts), f"bold {color}"),
                                f"  (extra wavefronts per wavefront, 2^k - 1; {ref})"))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan")
    grid.add_column(overflow="fold")
    grid.add_row("target", f"{t.name}: {t.arch}, {t.num_banks} banks x {t.bank_bytes} bytes, {t.warp_size} lanes")
    elem = f" ({element})" if element else ""
    grid.add_row("tensor", f"{_shape(report.shape)}, {report.bitwidth}-bit elements{elem}")
    grid.add_row("register", reg_text)
    grid.add_row("shared", shared_text)
    write, read = report.accesses[WRITE], report.accesses[READ]
    instr = write.instruction if write.instruction == read.instruction else f"{write.instruction} / {read.instruction}"
    v, bw = report.vector_width, report.bitwidth
    grid.add_row("vector width", f"{_plural(v, 'element')} = {v * bw} bits per lane ({instr}); "
                                 f"{_plural(report.instructions_per_warp, 'instruction')} per warp")
    reason = vector_reason(report, report.prep)
    if reason:
        grid.add_row("", f"limited by: {reason}")
    accesses = [read] if not report.ops_differ else [write, read]
    for a in accesses:
        label = "wavefronts" if len(accesses) == 1 else f"{a.op} wavefronts"
        grid.add_row(label, f"{a.wavefronts} per instruction, ideal {a.phases} ({_plural(a.phases, 'phase')} of "
                            f"{a.lanes_per_phase} lanes); {a.conflicts} conflict(s)")
        if a.sim_conflicts != a.conflicts:
            grid.add_row("", f"simulation: {a.sim_conflicts} conflict(s) (sub-word accesses)")
    console.print(grid)
    for a in accesses:
        w = a.worst
        if not w:
            continue
        if w["distinct_words"] <= 1:
            console.print("conflict-free: in every wavefront each bank serves at most one 32-bit word")
            continue
        title = (f"{'' if len(accesses) == 1 else a.op + ': '}worst wavefront - instruction {w['instruction']}, "
                 f"lanes {lane_ranges(w['phase_lanes'])}, bank {w['bank']}: "
                 f"{_plural(w['distinct_words'], 'distinct word')}")
        console.print(title, style="bold", markup=False)
        table = Table(show_edge=False, header_style="bold")
        for col in ("word", "byte addr", "lanes", "elements"):
            table.add_column(col)
        for x in w["words"]:
            elems = ", ".join(_coord(e) for e in x["elements"][:4]) + (", ..." if len(x["elements"]) > 4 else "")
            table.add_row(str(x["word"]), f"0x{x['byte_address']:04x}", lane_ranges(x["lanes"]), elems)
        console.print(table)
    return buf.getvalue()


# ----------------------------------------------------------------------------------------- swizzle


def _score_json(s: Score) -> dict:
    return {
        "conflicts": s.conflicts,
        "write": {"vector_width": s.write_vec, "conflicts": s.write_conflicts,
                  "instructions_per_warp": s.write_instructions, "wavefronts_per_warp": s.write_wavefronts},
        "read": {"vector_width": s.read_vec, "conflicts": s.read_conflicts,
                 "instructions_per_warp": s.read_instructions, "wavefronts_per_warp": s.read_wavefronts},
    }


def swizzle_json(s: Suggestion, write_text: str, read_text: str, element: str | None) -> str:
    obj = {
        "suggestion": s.attr_text,
        "kind": s.kind,
        "exact": s.exact,
        "source": s.source,
        "shared_linear": s.shared_linear_text,
        "conflicts": s.score.conflicts,
        "unswizzled_conflicts": s.baseline.conflicts,
        "target": s.target.name,
        "element_bits": s.bitwidth,
        "element_type": element,
        "shape": s.shape,
        "write_layout": write_text,
        "read_layout": read_text,
        "suggested": _score_json(s.score),
        "unswizzled": dict(layout=s.baseline_text, **_score_json(s.baseline)),
        "generic_swizzling": {"vector": s.result.vector, "bank": s.result.bank, "segment": s.result.segment,
                              "reps": s.result.reps},
        "notes": s.notes,
    }
    return json.dumps(obj, indent=2) + "\n"


def _score_cells(s: Score) -> tuple[str, str, str]:
    w = f"{s.write_vec} x {{bw}}-bit, {s.write_conflicts} conflict(s)"
    r = f"{s.read_vec} x {{bw}}-bit, {s.read_conflicts} conflict(s)"
    return w, r, str(s.conflicts)


def swizzle_text(s: Suggestion, write_text: str, read_text: str, element: str | None) -> str:
    bw = s.bitwidth
    elem = f" ({element})" if element else ""
    out = [s.attr_text, ""]
    out.append(f"target {s.target.name}, tensor {_shape(s.shape)}, {bw}-bit elements{elem}")
    out.append(f"write   {write_text}")
    out.append(f"read    {read_text}")
    rows = [("", "write (vector, conflicts)", "read (vector, conflicts)", "total conflicts", "wavefronts/warp")]
    for name, sc in (("unswizzled", s.baseline), ("suggested", s.score)):
        w, r, c = _score_cells(sc)
        rows.append((name, w.format(bw=bw), r.format(bw=bw), c, str(sc.write_wavefronts + sc.read_wavefronts)))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    out.append("")
    for r in rows:
        out.append("  ".join(c.ljust(wd) for c, wd in zip(r, widths)).rstrip())
    out.append("")
    out.append(f"unswizzled = {s.baseline_text}")
    out.append(f"found by   {s.source}")
    if s.kind != "shared_linear" and not s.exact:
        out.append(f"exact generic-swizzling layout: {s.shared_linear_text}")
    for n in s.notes:
        out.append(f"note: {n}")
    return "\n".join(out) + "\n"


def swizzle_rich(s: Suggestion, write_text: str, read_text: str, element: str | None, width: int | None = None) -> str:
    import io

    from rich.console import Console
    from rich.table import Table

    bw = s.bitwidth
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=width or 120, highlight=False, soft_wrap=True)
    console.print(s.attr_text, style="bold green", markup=False)
    elem = f" ({element})" if element else ""
    console.print(f"target {s.target.name}, tensor {_shape(s.shape)}, {bw}-bit elements{elem}", markup=False)
    table = Table(show_edge=False, header_style="bold")
    for col in ("", "write (vector, conflicts)", "read (vector, conflicts)", "total conflicts", "wavefronts/warp"):
        table.add_column(col)
    for name, sc in (("unswizzled", s.baseline), ("suggested", s.score)):
        w, r, c = _score_cells(sc)
        table.add_row(name, w.format(bw=bw), r.format(bw=bw), c, str(sc.write_wavefronts + sc.read_wavefronts))
    console.print(table)
    console.print(f"unswizzled = {s.baseline_text}", markup=False)
    console.print(f"found by {s.source}", markup=False)
    if s.kind != "shared_linear" and not s.exact:
        console.print(f"exact generic-swizzling layout: {s.shared_linear_text}", markup=False)
    for n in s.notes:
        console.print(f"note: {n}", markup=False)
    return buf.getvalue()
