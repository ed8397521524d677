"""Report builders that more than one command uses: `ttlayout convert` and `audit --line N` on a convert_layout give
the same convert report, and `ttlayout bank` and `audit --line N` on a shared-memory access give the same bank
report. Each returns (blocks(), json_text()), built lazily, so that the command chooses text or JSON."""
from __future__ import annotations

from ..errors import TTLayoutError

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: nothing here loads at import time
    from collections.abc import Callable, Sequence

    from ..analysis.convert import ConvertReport
    from ..analysis.shared_access import BankReport, PaddedBankReport
    from ..analysis.targets import Target
    from ..engine import LinearLayout

    Builders = tuple[Callable[[], list], Callable[[], str]]     # blocks() (reports.blocks' lines), json_text()
    Pair = tuple[LinearLayout, LinearLayout]


def convert_report(lls: Pair, texts: tuple[str, str], shape: Sequence[int], element: str, bits: int,
                   tgt: Target, attrs: Sequence[object], result: ConvertReport | None = None,
                   given_as_gluon: Sequence[bool] = (False, False)) -> Builders:
    """(blocks(), json_text()) of the convert report of source and destination layouts `lls` (their attributes
    `attrs`, written as `texts`) at `shape`. `given_as_gluon`: which endpoints the reader gave as Gluon
    constructors (the text report leaves their Gluon line out: the reader has it already)."""
    from ..analysis.convert import analyze_convert
    from . import convert as report
    done = result if result is not None else analyze_convert(lls[0], lls[1], bits, tgt)
    gluon = _gluon(done, attrs, lls, given_as_gluon)
    return (lambda: report.blocks(done, texts[0], texts[1], shape, element, _scratch_banks(done, lls, bits, tgt),
                                  gluon[1]),
            lambda: report.json_text(done, texts[0], texts[1], shape, element, gluon[0]))


def bank_report(lls: Pair, texts: tuple[str, str], element: str, bits: int, tgt: Target,
                result: BankReport | PaddedBankReport | None = None) -> Builders:
    """(blocks(), json_text()) of the bank report of a register and a shared layout (`lls`, their attribute
    texts `texts`)."""
    from ..analysis.shared_access import BankReport, analyze_shared_access
    from . import bank as report
    done = result if result is not None else analyze_shared_access(lls[0], lls[1], bits, tgt)
    assert isinstance(done, BankReport)                 # no padding given: the unpadded report
    return (lambda: report.blocks(done, texts[0], texts[1], element),
            lambda: report.json_text(done, texts[0], texts[1], element))


def _gluon(result: ConvertReport, attrs: Sequence[object], lls: Pair,
           given_as_gluon: Sequence[bool]) -> tuple[dict, dict]:
    """(every Gluon constructor, those the text report shows): the source's, the destination's and the scratch
    layout's; the text leaves out an endpoint given as a Gluon constructor."""
    from .gluon import of_layout, of_text
    every = {"source": of_layout(attrs[0], lls[0]), "destination": of_layout(attrs[1], lls[1]),
             "scratch": of_text(result.shared_layout) if result.shared_layout else None}
    shown = dict(every)
    for role, gluon in zip(("source", "destination"), given_as_gluon):
        if gluon:
            shown[role] = None
    return every, shown


def _scratch_banks(result: ConvertReport, lls: Pair, bits: int, target: Target) -> list | None:
    """Bank reports of the scratch layout for each direction the GPU runs as the plain ld/st.shared (ds_read /
    ds_write) that Triton's model describes: their worst wavefront explains a conflict (None for the other paths,
    for ldmatrix / stmatrix and where the bank model does not cover the target)."""
    trip = result.shared_access
    if result.path != "shared_memory" or not result.shared_layout or target.bank_gap or trip is None:
        return None
    from ..analysis.bank import analyze_bank
    from ..analysis.targets import READ, WRITE
    from ..conversions import analysable_layout
    from ..parsing import parse_pasted_attribute
    # the scratch layout is the analysis' own swizzled_shared text, at the tensor's shape (already within limits)
    smem = analysable_layout(parse_pasted_attribute(result.shared_layout), [s for _, s in lls[0].get_out_dims()])
    out = []
    for ll, d, op in ((lls[0], trip.write, WRITE), (lls[1], trip.read, READ)):
        try:
            rep = analyze_bank(ll, smem, bits, target) if d.kind == "ld/st.shared" else None
        except TTLayoutError:
            rep = None
        out.append(rep if rep is not None and rep.accesses[op].instruction == d.instruction else None)
    return out
