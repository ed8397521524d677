"""The `convert` report: a one-line verdict, then why (which hardware bits move), the per-thread instructions, and
for the shared-memory path the scratch layout Triton picks, with its bank conflicts explained by the `bank`
report. Blocks and JSON."""
from __future__ import annotations

from ..analysis import convert as cv
from ..analysis.convert import ConvertReport
from ..attributes import TRITON
from .blocks import BLANK, Fields, Line, line
from .common import models, plural, shape_text


def _access(name: str | None, bits: int | None, bitwidth: int, conflicts) -> str:
    elems = (bits or bitwidth) // bitwidth
    kind = f" ({name})" if name and ("matrix" in name or name.startswith("ds_")) else ""
    if conflicts is None:
        return f"v{elems}{kind}"
    return f"v{elems}{kind} with {plural(conflicts, 'conflict')}"


def verdict(r: ConvertReport) -> str:
    """The one-line answer: no-op, register permutation, warp shuffle, shared memory or cross-CTA."""
    if r.path == "noop":
        return "no-op (same layout)"
    if r.path == "registers":
        return "register permutation only"
    if r.path == "warp_shuffle":
        return f"warp shuffle: {plural(r.per_thread['shuffles'], 'shuffle')} per thread"
    if r.path == "cross_cta":
        return "cross-CTA (needs distributed shared memory)"
    c = r.bank_conflicts or {}
    store, load = _shown_names(r)
    return (f"shared memory: {r.scratch_bytes} bytes scratch, {plural(max(1, r.reps), 'round')}, "
            f"store {_access(store, r.store_vector_bits, r.bitwidth, c.get('store'))}, "
            f"load {_access(load, r.load_vector_bits, r.bitwidth, c.get('load'))}")


def _amd(r: ConvertReport) -> bool:
    return r.target.startswith("gfx")


def _shown_names(r: ConvertReport) -> tuple[str | None, str | None]:
    """The instructions a verdict names: NVIDIA's generic ones (stmatrix, ldmatrix.trans), AMD's exact ones
    (ds_write_b128, ds_read_u16) from the shared-access model."""
    if _amd(r) and r.shared_access is not None:
        return r.shared_access.write.instruction, r.shared_access.read.instruction
    return r.store_instruction, r.load_instruction


def _barrier_name(name: str | None) -> str | None:
    """RDNA4 splits one barrier into two instructions."""
    return "s_barrier_signal + s_barrier_wait" if name == "s_barrier_signal" else name


def _per_thread(r: ConvertReport) -> str:
    """'0 shuffles, 8 shared stores, 8 shared loads, 1 barrier (block-level)'; AMD names its instructions."""
    p, t = r.per_thread, r.shared_access
    if _amd(r) and t is not None:
        bar = f" ({_barrier_name(t.barrier_instruction)})" if p["barriers"] and t.barrier_instruction else ""
        return (f"{plural(p['shuffles'], 'shuffle')}, {plural(p['shared_stores'], 'shared store')} "
                f"({t.write.instruction}), {plural(p['shared_loads'], 'shared load')} ({t.read.instruction}), "
                f"{plural(p['barriers'], 'barrier')}{bar}")
    return (f"{plural(p['shuffles'], 'shuffle')}, {plural(p['shared_stores'], 'shared store')}, "
            f"{plural(p['shared_loads'], 'shared load')}, {plural(p['barriers'], 'barrier')}"
            + (f" ({r.barrier}-level)" if r.barrier and p["barriers"] else ""))


def _color(r: ConvertReport) -> str:
    return {"noop": "green", "registers": "green", "warp_shuffle": "yellow"}.get(r.path, "red")


def _gluon(gluon, role: str) -> list[tuple[str, str]]:
    """The Gluon constructor of one layout (`gluon`: role -> text) as a row under the layout's own."""
    text = (gluon or {}).get(role)
    return [("", text)] if text else []


def blocks(r: ConvertReport, src_text: str, dst_text: str, shape, element: str | None, banks=None,
           gluon=None) -> list:
    """`banks`: (store, load) bank reports of the scratch layout (analysis.bank.analyze_bank), or None;
    `gluon`: the Gluon constructors to show under the layouts ("source", "destination", "scratch")."""
    elem = f" ({element})" if element else ""
    rows = [("target", f"{r.target}; {models()}"),
            ("tensor", f"{shape_text(shape)}, {r.bitwidth}-bit elements{elem}"),
            ("source", src_text), *_gluon(gluon, "source"), ("destination", dst_text), *_gluon(gluon, "destination")]
    rows += [("why" if i == 0 else "", m) for i, m in enumerate(r.moves or ("nothing moves",))]
    rows.append(("per thread", _per_thread(r)))
    if r.shuffle_method:
        rows.append(("shuffles", f"{r.shuffle_method} method"))
    if r.shared_layout:
        rows.append(("scratch", r.shared_layout))
        rows += _gluon(gluon, "scratch")
        rows += _scratch_rows(r)
    out = [Line((("convert: ", "bold"), (verdict(r), f"bold {_color(r)}"))), Fields(tuple(rows))]
    out += _worst_wavefronts(banks)
    for n in notes(r):
        out.append(line(f"note: {n}"))
    return out


def notes(r: ConvertReport) -> list[str]:
    """The conversion's notes (`analysis.convert.ConvertNote`), in words."""
    out = []
    for n in r.notes:
        if n.code == cv.SHUFFLES:
            perm = "identity" if n.permutation is None else str(list(n.permutation))
            out.append(f"{n.count} register-lane transposition(s), lane permutation {perm}, "
                       f"{n.elements} element(s) per 32-bit register")
        elif n.code == cv.COPIES_MOVED:
            out.append("the source already holds copies along lane bits the destination reads from registers; "
                       "Triton 3.9 moves the data anyway (it reuses copies held along warps only)")
        elif n.code == cv.ROUNDS:
            out.append(f"the scratch buffer holds 1/{n.count} of the tensor: {n.count} store/load rounds "
                       "separated by barriers")
        else:
            out.append("no data crosses warps: the compiled code separates the stores and loads with a wave-level "
                       "wait only, no s_barrier")
    return out


def _scratch_rows(r: ConvertReport) -> list[tuple[str, str]]:
    """The scratch round trip on the GPU (analysis/shared_access.py): the instructions Triton emits, per warp and
    per CTA over every round, their wavefronts, and Triton's own conflict count beside them."""
    t = r.shared_access
    if t is None:
        return [("", f"{r.scratch_bytes} bytes, {plural(max(1, r.reps), 'round')} "
                     f"(store {r.store_instruction}, load {r.load_instruction})")]
    from .bank import direction_rows
    bars = f"{plural(t.barriers, 'barrier')}" + (f" ({_barrier_name(t.barrier_instruction)})" if t.barriers else "")
    return ([("", f"{r.scratch_bytes} bytes, {plural(max(1, r.reps), 'round')} "
                  f"(store {t.write.instruction}, load {t.read.instruction}), {bars}")]
            + direction_rows("store", t.write) + direction_rows("load", t.read))


def _worst_wavefronts(banks) -> list:
    """The worst wavefront of a conflicted plain access, from the `bank` report of the scratch layout."""
    if not banks:
        return []
    from ..analysis.targets import READ, WRITE
    from .bank import worst_blocks
    out = []
    for label, report, op in (("store", banks[0], WRITE), ("load", banks[1], READ)):
        if report is None or report.accesses[op].worst is None or report.accesses[op].worst.distinct_words <= 1:
            continue
        out.append(line(f"{label} ({report.accesses[op].instruction}) on the scratch layout:", "bold"))
        out += worst_blocks(report.accesses[op], "  ")
    return out


def as_dict(r: ConvertReport) -> dict:
    return {"verdict": verdict(r), "path": r.path, "scratch_bytes": r.scratch_bytes, "per_thread": dict(r.per_thread),
            "store_vector_bits": r.store_vector_bits, "load_vector_bits": r.load_vector_bits,
            "store_instruction": r.store_instruction, "load_instruction": r.load_instruction,
            "bank_conflicts": r.bank_conflicts, "uses_stmatrix": r.uses_stmatrix, "uses_ldmatrix": r.uses_ldmatrix,
            "rounds": r.reps, "barrier": r.barrier, "shuffle_method": r.shuffle_method,
            "shared_layout": r.shared_layout, "moves": list(r.moves), "target": r.target, "triton": TRITON, "element_bits": r.bitwidth,
            "minimal_conversion": str(r.minimal_conversion).strip("\n"), "notes": notes(r),
            "shared_access": _shared_access_json(r)}


def _shared_access_json(r: ConvertReport) -> dict | None:
    """`shared_access`: the scratch round trip's write and read as the shared-access model prices them (the
    `bank --json` fields), with its rounds and barriers; null off the shared-memory path."""
    t = r.shared_access
    if t is None:
        return None
    from .bank import direction_json
    return {"write": direction_json(t.write), "read": direction_json(t.read), "rounds": t.rounds,
            "barriers": t.barriers, "barrier_instruction": t.barrier_instruction}


def json_text(r: ConvertReport, src_text: str, dst_text: str, shape, element: str | None, gluon=None) -> str:
    """`gluon`: the Gluon constructors of the source, the destination and the scratch layout."""
    import json
    return json.dumps(dict(as_dict(r), source=src_text, destination=dst_text, shape=list(shape),
                           element_type=element, gluon=gluon), indent=2) + "\n"


__all__ = ["verdict", "notes", "blocks", "json_text", "as_dict", "BLANK"]
