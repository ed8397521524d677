"""`ttlayout convert`: what a `ttg.convert_layout` costs, as Triton 3.9's compiler lowers it: no-op, register
permutation, warp shuffles or a round trip through shared memory, with the instructions per thread."""
from __future__ import annotations

from ..errors import TTLayoutError
from . import layouts
from .hardware import TARGET, select
from .layouts import Role
from .options import JSON, OUTPUT, format_option
from .output import write_report

TO_BANK = ("a convert_layout goes between distributed layouts (for register <-> shared memory costs use "
           "'ttlayout bank')")
ROLES = (Role("source", "distributed", ("-r", "--src"), "src", "src", "Source (distributed) layout, or #alias of -i.",
              legacy=("-s",), wrong_kind=TO_BANK),
         Role("destination", "distributed", ("-d", "--dst"), "dst", "dst",
              "Destination (distributed) layout, or #alias of -i.", wrong_kind=TO_BANK))
EXAMPLE = "tensor<128x256xf16>"

OPTIONS = (*layouts.options(ROLES, EXAMPLE, bits=True), TARGET, JSON,
           format_option("svg: both layouts and what moves"), OUTPUT)


def run(obj, target, as_json, fmt, output, **given):
    """The cost of converting a tensor from one distributed layout to another, as Triton 3.9 lowers
    ttg.convert_layout: which hardware bits move, and whether that takes no instruction, register moves, warp
    shuffles or a round trip through shared memory (scratch bytes, stores, loads, barriers, bank conflicts).

    \b
    ttlayout convert -r '#ttg.blocked<{...}>' -d '#ttg.blocked<{...}>' -t 'tensor<64x64xf32>'
    ttlayout convert -i kernel.ttgir --alias-names mma,blocked -t 'tensor<128x128xf16>' --json
    """
    from ..analysis.convert import analyze_convert
    from ..reports import convert as report
    p = layouts.pick(obj, "convert", ROLES, given, EXAMPLE, target=target)
    tgt = select(target, p.targets, obj=obj)
    result = analyze_convert(*p.layouts, p.bits, tgt.name)
    texts = (str(p.attrs[0]), str(p.attrs[1]))

    def svg(write):
        from ..render.convert_svg import render_convert_svg
        render_convert_svg(*p.layouts, *texts, report.verdict(result), result.moves, p.bits, write)
    blocks, json_text = convert_report(p.layouts, texts, p.tensor.shape, p.tensor.element, p.bits, tgt, result,
                                       p.attrs, (given["src"], given["dst"]))
    write_report(obj, output, blocks, json_text, fmt, as_json, {"svg": svg})


def convert_report(lls, texts, shape, element: str, bits: int, tgt, result=None, attrs=None, given_texts=(None, None)):
    """(blocks(), json_text()) of the convert report of source and destination layouts `lls` (their attribute
    texts `texts`) at `shape`: what `ttlayout convert` prints, and what `audit --line N` prints for a
    convert_layout of a dump."""
    from ..analysis.convert import analyze_convert
    from ..reports import convert as report
    result = result if result is not None else analyze_convert(*lls, bits, tgt.name)
    gluon = _gluon(result, attrs if attrs is not None else _attributes(texts), lls, given_texts)
    return (lambda: report.blocks(result, *texts, shape, element, _scratch_banks(result, lls, bits, tgt), gluon[1]),
            lambda: report.json_text(result, *texts, shape, element, gluon[0]))


def _attributes(texts):
    from .. import inputs
    return tuple(inputs.attribute(t) for t in texts)


def _gluon(result, attrs, lls, given_texts):
    """(every Gluon constructor, those the text report shows): the source's, the destination's and the scratch
    layout's; the text leaves out an endpoint given as a Gluon constructor (its reader has it already)."""
    from ..inputs import looks_like_gluon
    from ..reports.gluon import of_layout, of_text
    every = {"source": of_layout(attrs[0], lls[0]), "destination": of_layout(attrs[1], lls[1]),
             "scratch": of_text(result.shared_layout) if result.shared_layout else None}
    shown = dict(every)
    for role, text in zip(("source", "destination"), given_texts):
        if text is not None and looks_like_gluon(text):
            shown[role] = None
    return every, shown


def _scratch_banks(result, lls, bits, target):
    """Bank reports of the scratch layout for each direction the GPU runs as the plain ld/st.shared (ds_read /
    ds_write) that Triton's model describes: their worst wavefront explains a conflict (None for the other paths,
    for ldmatrix / stmatrix and where the bank model does not cover the target)."""
    trip = result.shared_access
    if result.path != "shared_memory" or not result.shared_layout or target.bank_gap or trip is None:
        return None
    from .. import inputs
    from ..analysis.bank import analyze_bank
    from ..analysis.targets import READ, WRITE
    smem = inputs.linear_layout(inputs.attribute(result.shared_layout), [s for _, s in lls[0].get_out_dims()])
    out = []
    for ll, d, op in ((lls[0], trip.write, WRITE), (lls[1], trip.read, READ)):
        try:
            rep = analyze_bank(ll, smem, bits, target) if d.kind == "ld/st.shared" else None
        except TTLayoutError:
            rep = None
        out.append(rep if rep is not None and rep.accesses[op].instruction == d.instruction else None)
    return out
