"""The `swizzle` report: the layout to paste and how it compares with the unswizzled one; blocks and JSON."""
from __future__ import annotations

from ..analysis.swizzle import GpuComparison, GpuCost, Score, Suggestion
from ..attributes import TRITON
from .blocks import BLANK, Fields, Table, line
from .common import models, shape_text


def _score_json(s: Score, threads_read: bool = True) -> dict:
    """`threads_read` False: the TMA engine or wgmma reads the tile, so "read" is null."""
    return {
        "conflicts": s.conflicts,
        "write": {"vector_width": s.write_vec, "conflicts": s.write_conflicts,
                  "instructions_per_warp": s.write_instructions, "wavefronts_per_warp": s.write_wavefronts},
        "read": {"vector_width": s.read_vec, "conflicts": s.read_conflicts,
                 "instructions_per_warp": s.read_instructions, "wavefronts_per_warp": s.read_wavefronts}
        if threads_read else None,
    }


READERS = {"tma": "the TMA engine (a TMA store)", "wgmma": "wgmma's operand fetch"}


def json_text(s: Suggestion, write_text: str, read_text: str, element: str | None) -> str:
    import json

    from .gluon import of_text
    obj = {
        "suggestion": s.attr_text,
        "gluon": of_text(s.attr_text),
        "kind": s.kind,
        "exact": s.exact,
        "source": s.source,
        "shared_linear": s.shared_linear_text,
        "conflicts": s.score.conflicts,
        "unswizzled_conflicts": s.baseline.conflicts,
        "target": s.target.name,
        "triton": TRITON,
        "element_bits": s.bitwidth,
        "element_type": element,
        "shape": list(s.shape),
        "write_layout": write_text,
        "read_layout": read_text if s.reader == "threads" else None,
        "reader": s.reader,
        "suggested": _score_json(s.score, s.reader == "threads"),
        "unswizzled": dict(layout=s.baseline_text, **_score_json(s.baseline, s.reader == "threads")),
        "generic_swizzling": {"vector": list(s.result.vector), "bank": list(s.result.bank),
                              "segment": list(s.result.segment), "reps": list(s.result.reps)},
        "notes": list(s.notes),
    }
    if s.gpu is not None:
        obj["on_the_gpu"] = _gpu_json(s.gpu)
    return json.dumps(obj, indent=2) + "\n"


def _gpu_json(g: GpuComparison) -> dict:
    """`on_the_gpu`: each layout's write and read as `bank --json` gives them, with the CTA's totals."""
    from .bank import direction_json

    def cost(c: GpuCost | None):
        if c is None:
            return None
        out: dict[str, object] = {"layout": c.layout, "write": direction_json(c.write), "read": direction_json(c.read),
               "wavefronts_total": c.wavefronts_total, "ideal_wavefronts_total": c.ideal_wavefronts_total,
               "instructions_per_cta": c.instructions_per_cta}
        if c.padding is not None:
            out["padding"] = [[i, p] for i, p in zip(c.padding.intervals, c.padding.paddings)]
        return out
    return {"unswizzled": cost(g.unswizzled), "suggested": cost(g.suggested), "best_padding": cost(g.padding),
            "paddings_priced": g.padded, "note": g.note}


def _score_row(name: str, s: Score, bw: int, reader: str = "threads") -> tuple[str, ...]:
    read = (f"{s.read_vec} x {bw}-bit, {s.read_conflicts} conflict(s)" if reader == "threads" else
            f"n/a ({reader.upper()} reads)")
    return (name, f"{s.write_vec} x {bw}-bit, {s.write_conflicts} conflict(s)", read, str(s.conflicts),
            str(s.write_wavefronts + s.read_wavefronts))


def _reader_text(s: Suggestion, read_text: str) -> str:
    """What reads the tile back: the read layout, or the engine that reads it in the layout's own order."""
    if s.reader == "threads":
        return read_text
    return (f"{READERS[s.reader]}: it reads the tile in the nvmma_shared layout's own order, no thread layout, so "
            "no read conflicts are counted (give -d READ_ATTR when threads read it back)")


def blocks(s: Suggestion, write_text: str, read_text: str, element: str | None) -> list:
    """The `swizzle` report: the layout to paste, then how it compares with the unswizzled one."""
    bw = s.bitwidth
    elem = f" ({element})" if element else ""
    from .gluon import of_text
    gluon = of_text(s.attr_text)
    blocks = [line(s.attr_text, "bold green"), *([line(gluon, "green")] if gluon else []), BLANK,
              line(f"target {s.target.name}, tensor {shape_text(s.shape)}, {bw}-bit elements{elem}; {models()}"),
              Fields((("write", write_text), ("read", _reader_text(s, read_text))), label_width=8), BLANK,
              Table(("", "write (vector, conflicts)", "read (vector, conflicts)", "total conflicts", "wavefronts/warp"),
                    (_score_row("unswizzled", s.baseline, bw, s.reader), _score_row("suggested", s.score, bw, s.reader))),
              BLANK, line(f"unswizzled = {s.baseline_text}"), line(f"found by   {s.source}")]
    if s.kind != "shared_linear" and not s.exact:
        blocks.append(line(f"exact generic-swizzling layout: {s.shared_linear_text}"))
    return blocks + [line(f"note: {n}") for n in s.notes] + _gpu_blocks(s.gpu)


def _gpu_cell(d) -> str:
    waves = "wavefronts not modelled" if d.wavefronts_total is None else f"{d.wavefronts_total} wavefronts"
    return f"{d.instructions_per_cta} x {d.instruction}, {waves}"


def _gpu_blocks(g: GpuComparison | None) -> list:
    """The same layouts on the GPU (the instructions Triton emits and their wavefronts, per CTA), with the best
    padding as an alternative row."""
    if g is None:
        return []
    rows = [(c.label, _gpu_cell(c.write), _gpu_cell(c.read), str(c.wavefronts_total) if c.priced else "-",
             str(c.ideal_wavefronts_total) if c.priced else "-")
            for c in (g.unswizzled, g.suggested, g.padding) if c is not None]
    out = [BLANK, Table(("on the GPU, per CTA", "write", "read", "wavefronts", "ideal"), tuple(rows))]
    if g.padding is not None:
        out += [BLANK, line(f"best padding = {g.padding.layout}")]
    elif g.padded or g.note:
        out += [BLANK]
    if g.note:
        out.append(line(f"note: {g.note}"))
    return out
