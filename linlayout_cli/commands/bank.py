"""`ttlayout bank`: the shared-memory bank conflicts of storing a register layout to a shared layout and loading
it back, as Triton 3.9 counts them, with the report that explains the count and what the GPU does with the
instructions Triton emits (analysis/shared_access.py)."""
from __future__ import annotations

from ..records import frozen
from . import layouts
from .hardware import TARGET, select
from .layouts import BitsRequest, Role
from .options import JSON, OUTPUT, format_option
from .output import write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

ROLES = (Role("register", "distributed", ("-r", "--reg"), "reg", "reg",
              "Register (distributed) layout attribute, or #alias of -i."),
         Role("shared", "shared", ("-s", "--shared"), "shared", "shared",
              "Shared layout attribute (#ttg.padded_shared included), or #alias of -i.", padded=True))

OPTIONS = (*layouts.options(ROLES, "tensor<64x64xf16>", bits=True), TARGET, JSON,
           format_option("svg: a picture of the worst wavefront (banks across, the conflicting banks and lanes in red)"),
           OUTPUT)


@frozen
class Request(BitsRequest):
    """One `ttlayout bank` command line."""
    reg: str | None = None
    shared: str | None = None
    target: str | None = None
    as_json: bool = False
    fmt: str = "text"
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """Shared-memory bank conflicts of storing/loading a register layout to/from a shared layout.

    The count is Triton 3.9's get_shared_bank_conflicts (extra wavefronts per wavefront, 2^k - 1); the report
    explains it: vector width, ideal vs actual wavefronts per instruction, and which lanes of the worst
    wavefront hit which bank at which 32-bit words.  Beside it, what the GPU does: the instruction Triton emits in
    each direction (st.shared.v4.b32, stmatrix..., ds_write_b128), how many per warp and per CTA, and the
    wavefronts they take.  #ttg.padded_shared is priced on the GPU only; a padding that leaves the compiled vector
    access misaligned (it would fault) is an error.

    \b
    ttlayout bank -r '#ttg.blocked<{...}>' -s '#ttg.swizzled_shared<{...}>' -t 'tensor<64x64xf16>'
    ttlayout bank -i kernel.ttgir --alias-names blocked,shared -t 'tensor<64x64xf16>' --json
    """
    p = layouts.pick(ctx, "bank", ROLES, given, "tensor<64x64xf16>", target=given.target)
    tgt = select(given.target, p.targets, bank=True, ctx=ctx)
    texts = (str(p.attrs[0]), str(p.attrs[1]), p.tensor.element)
    if p.paddings[1] is not None:
        _padded(ctx, p, tgt, texts, given.as_json, given.fmt, given.output)
        return
    from ..analysis.shared_access import analyze_shared_access
    from ..reports.builders import bank_report
    result = analyze_shared_access(p.layouts[0], p.layouts[1], p.width, tgt)

    def svg(write):
        from ..render.bank_svg import render_bank_svg
        render_bank_svg(result, *texts, write)
    blocks, json_text = bank_report(p.layouts, texts[:2], texts[2], p.width, tgt, result)
    write_report(ctx, given.output, blocks, json_text, given.fmt, given.as_json, {"svg": svg})


def _padded(ctx, p, tgt, texts, as_json, fmt, output):
    """A `#ttg.padded_shared` layout: the GPU's figures (Triton's model does not price padding); a padding that
    leaves the compiled vector access misaligned is the one error line."""
    from ..analysis.shared_access import analyze_shared_access
    from ..errors import UnsupportedError
    from ..reports import bank as report
    if fmt == "svg" and not as_json:
        raise UnsupportedError("the bank picture (--format svg) is drawn for unpadded shared layouts only; "
                               "#ttg.padded_shared is reported as text or JSON")
    result = analyze_shared_access(p.layouts[0], p.layouts[1], p.width, tgt, p.paddings[1])
    write_report(ctx, output, lambda: report.padded_blocks(result, *texts),
                 lambda: report.padded_json_text(result, *texts), fmt, as_json)
