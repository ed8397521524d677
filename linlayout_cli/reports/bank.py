"""The `bank` report: built once as blocks (text or rich) from a `BankReport`, and as JSON."""
from __future__ import annotations

from ..analysis import bank as bank_model
from ..analysis.bank import Access, BankReport, PaddedBankReport
from ..analysis.targets import READ, WRITE
from ..attributes import TRITON
from .blocks import Fields, Line, Table, line
from .common import coord, lane_ranges, models, more_count, plural, shape_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..analysis.shared_access import Direction, RoundTrip


def vector_reason(report: BankReport) -> str:
    """Why the vector is not wider, in one line (`analysis.bank.vector_reason` finds it)."""
    r = bank_model.vector_reason(report)
    if r.code == bank_model.WIDEST:
        return "the widest shared-memory access (128 bits per lane)"
    if r.code == bank_model.FEW_OFFSETS:
        return f"the shared layout has only {r.offsets} offsets"
    if r.code == bank_model.HELD_ELSEWHERE:
        return (f"offset {r.offset} (element {coord(r.element)}) is held by {r.dim} {r.index}, "
                "not by a register of the same thread")
    if r.code == bank_model.NO_REGISTER_STEP:
        return f"no register step reaches offset {r.offset} (element {coord(r.element)})"
    if r.code == bank_model.SPLITS:
        return f"{r.dim} {r.index} lands at offset {r.offset}, which would split a {r.elements}-element vector"
    return f"a {r.elements}-element vector would not be contiguous in shared memory"


def _primary(report: BankReport) -> Access:
    acc = report.accesses
    return max((acc[WRITE], acc[READ]), key=lambda a: (a.conflicts, a.wavefronts, a.op == READ))


# ----------------------------------------------------------------------------------------- bank: JSON


def direction_json(d: Direction) -> dict:
    """One direction of the shared-access model (analysis/shared_access.py): what the GPU does."""
    return {
        "instruction": d.instruction,
        "kind": d.kind,
        "vector_bits": d.vector_bits,
        "instructions_per_warp": d.instructions_per_warp,
        "instructions_per_cta": d.instructions_per_cta,
        "wavefronts": d.wavefronts_max,
        "wavefronts_mean": d.wavefronts_mean,
        "wavefronts_total": d.wavefronts_total,
        "ideal_wavefronts_total": d.ideal_wavefronts_total,
        "conflicts": d.conflicts,
        "why": d.why,
    }


def _access_json(a, gpu: Direction | None = None) -> dict:
    """Triton's model of one access (the old fields); with the GPU's figures, `instruction` and `wavefronts` are
    the GPU's, Triton's own kept as `triton_instruction` and `simulated_wavefronts`."""
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
    if gpu is not None:
        d["triton_instruction"], d["simulated_wavefronts"] = a.instruction, a.wavefronts
        d.update(direction_json(gpu))
    return d


def json_text(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> str:
    import json
    p = _primary(report)
    t = report.target
    gpu = _gpu(report.gpu)
    obj = {
        "conflicts": report.conflicts,
        "vector_width": report.vector_width,
        "vector_bits": report.vector_width * report.bitwidth,
        "wavefronts": p.wavefronts,
        "ideal_wavefronts": p.phases,
        "simulated_conflicts": max(a.sim_conflicts for a in report.accesses.values()),
        "target": t.name,
        "triton": TRITON,
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
        "write": _access_json(report.accesses[WRITE], gpu.write if gpu else None),
        "read": _access_json(report.accesses[READ], gpu.read if gpu else None),
    }
    if report.gpu_note:
        obj["gpu_note"] = report.gpu_note
    return json.dumps(obj, indent=2) + "\n"


def padded_json_text(report: PaddedBankReport, reg_text: str, shared_text: str, element: str | None) -> str:
    """`bank --json` of a padded layout: the same keys; Triton's model's own (conflicts, phases, ...) are null."""
    import json
    t, g, padding = report.target, _gpu(report.gpu), report.padding
    assert g is not None                             # a padded layout is priced on the GPU's model only
    worst = max((g.write, g.read), key=lambda d: (d.wavefronts_max or 0, d.op == READ))

    def side(d):
        return dict({"access_bits": d.vector_bits, "k": None, "ideal_wavefronts": None, "phases": None,
                     "lanes_per_phase": None, "phase_lane_masks": None, "simulated_conflicts": None,
                     "simulated_instructions": None}, **direction_json(d))
    obj = {
        "conflicts": None,
        "vector_width": worst.vector_bits // report.bitwidth,
        "vector_bits": worst.vector_bits,
        "wavefronts": worst.wavefronts_max,
        "ideal_wavefronts": None,
        "simulated_conflicts": None,
        "target": t.name,
        "triton": TRITON,
        "vendor": t.vendor,
        "num_banks": t.num_banks,
        "bank_bytes": t.bank_bytes,
        "triton_reference": False,
        "element_bits": report.bitwidth,
        "element_type": element,
        "shape": list(report.shape),
        "lanes_per_warp": report.lanes,
        "warps": report.warps,
        "instructions_per_warp": worst.instructions_per_warp,
        "segment_bits": None,
        "register_layout": reg_text,
        "shared_layout": shared_text,
        "padding": [[i, p] for i, p in zip(padding.intervals, padding.paddings)],
        "write": side(g.write),
        "read": side(g.read),
    }
    return json.dumps(obj, indent=2) + "\n"


# ----------------------------------------------------------------------------------------- bank: blocks


def worst_blocks(a: Access, indent: str) -> list:
    w = a.worst
    if w is None:                                    # no wavefront to show (callers ask only when there is one)
        return []
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
    return blocks + (worst_blocks(a, indent) if a.worst else [])


def _wavefront_text(d: Direction) -> str:
    """'2 wavefronts each, 32 per CTA (ideal 16)'; 'up to 32 wavefronts each (mean 4.5), ...' when they vary."""
    if d.wavefronts_total is None:
        return "wavefronts not modelled"
    assert d.wavefronts_max is not None              # modelled together with wavefronts_total
    if d.wavefronts_mean == d.wavefronts_max:
        each = f"{plural(d.wavefronts_max, 'wavefront')} each"
    else:
        each = f"up to {plural(d.wavefronts_max, 'wavefront')} each (mean {d.wavefronts_mean:.3g})"
    return f"{each}, {d.wavefronts_total} per CTA (ideal {d.ideal_wavefronts_total})"


def gpu_verdict(d: Direction) -> str:
    """'conflict-free' or '32 wavefronts where 16 would do' (per CTA): the GPU's side of the comparison."""
    if d.wavefronts_total is None:
        return "no wavefront figure"
    if d.wavefronts_total == d.ideal_wavefronts_total:
        return f"conflict-free ({d.wavefronts_total} wavefronts per CTA)"
    return f"{d.wavefronts_total} wavefronts per CTA where {d.ideal_wavefronts_total} would do"


def direction_rows(label: str, d: Direction, triton: bool = True) -> list[tuple[str, str]]:
    """Fields rows for one direction of the shared-access model: the instruction Triton emits and how many, the
    wavefronts they take, both figures side by side ("Triton's model: 1 conflict · on the GPU: ...") and why
    they differ.  `triton`: Triton's model has a count here (not for padded layouts)."""
    rows = [(label, f"{d.instructions_per_warp} x {d.instruction} per warp, {d.instructions_per_cta} per CTA; "
                    f"{_wavefront_text(d)}")]
    if d.conflicts is None and d.wavefronts_total is None:
        return rows + ([("", f"not priced: {d.why}")] if d.why else [])
    gpu = f"on the GPU: {gpu_verdict(d)}"
    if triton:
        tri = "no count" if d.conflicts is None else plural(d.conflicts, "conflict")
        rows.append(("", f"Triton's model: {tri} · {gpu}"))
    else:
        rows.append(("", gpu))
    if d.why and triton:
        rows.append(("", f"why: {d.why}"))
    return rows


def _gpu(gpu: object) -> RoundTrip | None:
    """A report's GPU figures, typed (the bank model keeps them as `object`: analysis/bank.py cannot import
    shared_access, which imports it)."""
    if gpu is None:
        return None
    from ..analysis.shared_access import RoundTrip
    assert isinstance(gpu, RoundTrip)
    return gpu


def _gpu_rows(report: BankReport) -> list[tuple[str, str]]:
    gpu = _gpu(report.gpu)
    if gpu is None:
        return [("on the GPU", f"not modelled: {report.gpu_note}")] if report.gpu_note else []
    return direction_rows("write", gpu.write) + direction_rows("read", gpu.read)


def padded_blocks(report: PaddedBankReport, reg_text: str, shared_text: str, element: str | None) -> list:
    """The `bank` report of a padded layout: the GPU's figures only (Triton's model does not price padding)."""
    from ..analysis.shared_access import padding_text
    t, g, bw = report.target, _gpu(report.gpu), report.bitwidth
    assert g is not None                             # a padded layout is priced on the GPU's model only
    total = sum(d.wavefronts_total or 0 for d in (g.write, g.read))
    ideal = sum(d.ideal_wavefronts_total or 0 for d in (g.write, g.read))
    color = "green" if total == ideal else "red"
    headline = Line((("shared-memory wavefronts: ", "bold"), (f"{total} per CTA, ideal {ideal}", f"bold {color}"),
                     (f"  (write + read on the GPU; #ttg.padded_shared {padding_text(report.padding)}: Triton's "
                      "model has no count for padding)", "")))
    elem = f" ({element})" if element else ""
    rows = [("target", f"{t.name}: {t.arch}, {t.num_banks} banks x {t.bank_bytes} bytes, "
                       f"{t.warp_size}-lane {'warps' if t.vendor == 'nvidia' else 'wavefronts'}; {models()}"),
            ("tensor", f"{shape_text(report.shape)}, {bw}-bit elements{elem}"),
            ("register", reg_text),
            ("shared", shared_text)]
    sides = [(d.op, d) for d in (g.write, g.read) if d.kind == "ld/st.shared"]
    if len(sides) == 2 and g.write.vector_bits == g.read.vector_bits:
        sides = [("", g.write)]
    for i, (op, d) in enumerate(sides):
        rows.append(("vector width" if i == 0 else "", f"{op + ': ' if op else ''}"
                     f"{plural(d.vector_bits // bw, 'element')} = {d.vector_bits} bits per lane; "
                     f"{_padded_vector_limit(d, report)}"))
    rows += direction_rows("write", g.write, triton=False) + direction_rows("read", g.read, triton=False)
    return [headline, Fields(tuple(rows))]


def _padded_vector_limit(d: Direction, report: PaddedBankReport) -> str:
    """Why a padded layout's vector is not wider (Triton 3.9's rule for padded layouts, docs/shared_memory_model.md)."""
    elems = d.vector_bits // report.bitwidth
    if d.vector_bits >= 128:
        return "the widest shared-memory access"
    if elems == min(report.padding.intervals):
        return f"limited by the smallest padding interval ({elems} elements): Triton 3.9 never vectorises across one"
    return (f"limited by the registers: on a padded layout Triton 3.9 vectorises only over a thread's registers "
            f"holding offsets 1, 2, 4, ... in order, and offset {elems} is not in the thread's next register")


def blocks(report: BankReport, reg_text: str, shared_text: str, element: str | None) -> list:
    """The `bank` report: the count, what was analysed, the vector width and why, what the GPU does in each
    direction, and the worst wavefront."""
    t = report.target
    v, bw = report.vector_width, report.bitwidth
    ref = "Triton 3.9's get_shared_bank_conflicts" if t.triton_checked else "Triton's linear model on this target"
    color = "green" if report.conflicts == 0 else ("yellow" if report.conflicts < 3 else "red")
    headline = Line((("bank conflicts: ", "bold"), (str(report.conflicts), f"bold {color}"),
                     (f"  (extra wavefronts per wavefront, 2^k - 1; {ref})", "")))
    elem = f" ({element})" if element else ""
    rows = [("target", f"{t.name}: {t.arch}, {t.num_banks} banks x {t.bank_bytes} bytes, "
                       f"{t.warp_size}-lane {'warps' if t.vendor == 'nvidia' else 'wavefronts'}; {models()}"),
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
    rows += _gpu_rows(report)
    blocks = [headline, Fields(tuple(rows))]
    if not report.ops_differ:
        return blocks + _access_blocks(read)
    for a in (write, read):
        blocks.append(line(f"{a.op} ({a.instruction}): {a.conflicts} conflict(s)", "bold"))
        blocks += _access_blocks(a, "  ")
    return blocks
