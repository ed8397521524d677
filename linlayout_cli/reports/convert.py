"""The `convert` report: a one-line verdict, then why (which hardware bits move), the per-thread instructions, and
for the shared-memory path the scratch layout Triton picks, with its bank conflicts explained by the `bank`
report. Blocks and JSON."""
from __future__ import annotations

from ..analysis.convert import ConvertReport
from .blocks import BLANK, Fields, Line, line
from .common import plural, shape_text


def _access(name: str | None, bits: int | None, bitwidth: int, conflicts) -> str:
    elems = (bits or bitwidth) // bitwidth
    kind = f" ({name})" if name and "matrix" in name else ""
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
    return (f"shared memory: {r.scratch_bytes} bytes scratch, {plural(max(1, r.reps), 'round')}, "
            f"store {_access(r.store_instruction, r.store_vector_bits, r.bitwidth, c.get('store'))}, "
            f"load {_access(r.load_instruction, r.load_vector_bits, r.bitwidth, c.get('load'))}")


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
    p = r.per_thread
    rows = [("target", r.target),
            ("tensor", f"{shape_text(shape)}, {r.bitwidth}-bit elements{elem}"),
            ("source", src_text), *_gluon(gluon, "source"), ("destination", dst_text), *_gluon(gluon, "destination")]
    rows += [("why" if i == 0 else "", m) for i, m in enumerate(r.moves or ("nothing moves",))]
    rows.append(("per thread", f"{plural(p['shuffles'], 'shuffle')}, {plural(p['shared_stores'], 'shared store')}, "
                               f"{plural(p['shared_loads'], 'shared load')}, {plural(p['barriers'], 'barrier')}"
                               + (f" ({r.barrier}-level)" if r.barrier and p["barriers"] else "")))
    if r.shuffle_method:
        rows.append(("shuffles", f"{r.shuffle_method} method"))
    if r.shared_layout:
        rows.append(("scratch", r.shared_layout))
        rows += _gluon(gluon, "scratch")
        rows.append(("", f"{r.scratch_bytes} bytes, {plural(max(1, r.reps), 'round')} "
                         f"(store {r.store_instruction}, load {r.load_instruction})"))
    out = [Line((("convert: ", "bold"), (verdict(r), f"bold {_color(r)}"))), Fields(tuple(rows))]
    if banks:
        from ..analysis.targets import READ, WRITE
        from .bank import _access_blocks
        for label, report, op in (("store", banks[0], WRITE), ("load", banks[1], READ)):
            if report is None:
                continue
            a = report.accesses[op]
            out.append(line(f"{label} ({a.instruction}) on the scratch layout: {plural(a.conflicts, 'conflict')}",
                            "bold"))
            out += _access_blocks(a, "  ")
    for n in r.notes:
        out.append(line(f"note: {n}"))
    return out


def as_dict(r: ConvertReport) -> dict:
    return {"verdict": verdict(r), "path": r.path, "scratch_bytes": r.scratch_bytes, "per_thread": dict(r.per_thread),
            "store_vector_bits": r.store_vector_bits, "load_vector_bits": r.load_vector_bits,
            "store_instruction": r.store_instruction, "load_instruction": r.load_instruction,
            "bank_conflicts": r.bank_conflicts, "uses_stmatrix": r.uses_stmatrix, "uses_ldmatrix": r.uses_ldmatrix,
            "rounds": r.reps, "barrier": r.barrier, "shuffle_method": r.shuffle_method,
            "shared_layout": r.shared_layout, "moves": list(r.moves), "target": r.target, "element_bits": r.bitwidth,
            "minimal_conversion": str(r.minimal_conversion).strip("\n"), "notes": list(r.notes)}


def json_text(r: ConvertReport, src_text: str, dst_text: str, shape, element: str | None, gluon=None) -> str:
    """`gluon`: the Gluon constructors of the source, the destination and the scratch layout."""
    import json
    return json.dumps(dict(as_dict(r), source=src_text, destination=dst_text, shape=list(shape),
                           element_type=element, gluon=gluon), indent=2) + "\n"


__all__ = ["verdict", "blocks", "json_text", "as_dict", "BLANK"]
