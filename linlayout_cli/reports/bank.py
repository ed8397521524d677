"""The `bank` report: built once as blocks (text or rich) from a `BankReport`, and as JSON."""
from __future__ import annotations

from ..analysis.bank import Access, BankReport
from ..analysis.targets import READ, WRITE
from .blocks import Fields, Line, Table, line
from .common import coord, lane_ranges, more_count, plural, shape_text


def vector_reason(report: BankReport) -> str:
    """Why the vector is not wider (one line)."""
    bw, v, prep = report.bitwidth, report.vector_width, report.prep
    if v * bw >= 128:
        return "the widest shared-memory access (128 bits per lane)"
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
                return (f"offset {want} (element {coord(prep.element_at(want))}) is held by {dim} {1 << j}, "
                        "not by a register of the same thread")
    regs = cvt.get_in_dim_bases("register")
    if not any(b[oi] == want and (bi is None or b[bi] == 0) for b in regs):
        return f"no register step reaches offset {want} (element {coord(prep.element_at(want))})"
    mask = 2 * v - 1
    for dim in cvt.in_dims:
        for j, b in enumerate(cvt.get_in_dim_bases(dim)):
            if dim == "register" and b[oi] == want:
                continue
            if b[oi] & mask and b[oi] & (v - 1) == 0:
                return (f"{dim} {1 << j} lands at offset {b[oi]}, which would split a {2 * v}-element vector")
    return f"a {2 * v}-element vector would not be contiguous in shared memory"


def _primary(report: BankReport) -> Access:
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
            "instruction": w.instruction,
            "lanes": list(w.lanes),
            "bank": w.bank,
            "distinct_words": w.distinct_words,
            "banks_with_that_many_words": w.banks_at_max,
            "words": [{"word": x.word, "byte_address": x.byte_address, "lanes": list(x.lanes),
                       "elements": [list(e) for e in x.elements]} for x in w.words],
        }
    return d


def json_text(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> str:
    import json
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
        "shape": list(report.shape),
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


# ----------------------------------------------------------------------------------------- bank: blocks


def _worst_blocks(a: Access, indent: str) -> list:
    w = a.worst
    if w.distinct_words <= 1:
        return [line("conflict-free: in every wavefront each bank serves at most one 32-bit word", indent=indent)]
    head = (f"worst wavefront: instruction {w.instruction}, lanes {lane_ranges(w.lanes)}: "
            f"bank {w.bank} serves {plural(w.distinct_words, 'distinct 32-bit word')}")
    if w.banks_at_max > 1:
        head += f" ({w.banks_at_max} banks do)"
    rows = []
    for x in w.words:
        elems = ", ".join(coord(e) for e in x.elements[:4]) + more_count(len(x.elements), 4, ", ... and {} more")
        rows.append((str(x.word), f"0x{x.byte_address:04x}", lane_ranges(x.lanes), elems))
    return [line(head, "bold", indent), Table(("word", "byte addr", "lanes", "elements"), tuple(rows), indent + "  ")]


def _access_blocks(a: Access, indent: str = "") -> list:
    rows = [("wavefronts", f"{a.wavefronts} per instruction, ideal {a.phases} "
                           f"({plural(a.phases, 'phase')} of {a.lanes_per_phase} lanes); "
                           f"{a.conflicts} conflict(s), 2^{a.k} - 1")]
    if a.sim_conflicts != a.conflicts:
        rows.append(("", f"lane-by-lane simulation: {a.sim_conflicts} conflict(s); Triton's linear model cannot "
                         "see lanes that share a bank at different bytes of different words"))
    blocks = [Fields(tuple(rows), indent=indent)]
    return blocks + (_worst_blocks(a, indent) if a.worst else [])


def blocks(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> list:
    """The `bank` report: the count, what was analysed, the vector width and why, and the worst wavefront."""
    t = report.target
    v, bw = report.vector_width, report.bitwidth
    ref = "Triton 3.9's get_shared_bank_conflicts" if t.triton_checked else "Triton's linear model on this target"
    color = "green" if report.conflicts == 0 else ("yellow" if report.conflicts < 3 else "red")
    headline = Line((("bank conflicts: ", "bold"), (str(report.conflicts), f"bold {color}"),
                     (f"  (extra wavefronts per wavefront, 2^k - 1; {ref})", "")))
    elem = f" ({element})" if element else ""
    rows = [("target", f"{t.name}: {t.arch}, {t.num_banks} banks x {t.bank_bytes} bytes, "
                       f"{t.warp_size}-lane {'warps' if t.vendor == 'nvidia' else 'wavefronts'}"),
            ("tensor", f"{shape_text(report.shape)}, {bw}-bit elements{elem}"),
            ("register", reg_text),
            ("shared", shared_text)]
    if report.lanes != t.warp_size:
        rows.append(("note", f"the register layout has {report.lanes} lanes per warp, the target {t.warp_size}"))
    write, read = report.accesses[WRITE], report.accesses[READ]
    instr = write.instruction if write.instruction == read.instruction else f"{write.instruction} / {read.instruction}"
    rows.append(("vector width", f"{plural(v, 'element')} = {v * bw} bits per lane ({instr}); "
                                 f"{plural(report.instructions_per_warp, 'instruction')} per warp"))
    reason = vector_reason(report)
    if reason:
        rows.append(("", f"limited by: {reason}"))
    blocks = [headline, Fields(tuple(rows))]
    if not report.ops_differ:
        return blocks + _access_blocks(read)
    for a in (write, read):
        blocks.append(line(f"{a.op} ({a.instruction}): {a.conflicts} conflict(s)", "bold"))
        blocks += _access_blocks(a, "  ")
    return blocks
