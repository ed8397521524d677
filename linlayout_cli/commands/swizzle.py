"""`ttlayout swizzle`: the shared layout to write one register layout with and read another back, by Triton's
generic swizzling plus a search over every swizzled_shared layout."""
from __future__ import annotations

from ..records import frozen
from . import layouts
from .hardware import TARGET, check_engine, select
from .layouts import BitsRequest, Role
from .options import JSON, OUTPUT, Opt
from .output import write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

ROLES = (Role("write", "distributed", ("-r", "--write"), "write", "write",
              "Register layout that writes (stores) the tensor, or #alias of -i."),
         Role("read", "distributed", ("-d", "--read"), "read", "read",
              "Register layout that reads it back (default: the same), or #alias of -i.", default="write"))

OPTIONS = (*layouts.options(ROLES, "tensor<64x64xf16>", bits=True),
           Opt(("--no-search",), "no_search", "flag", help="Skip the search; print Triton 3.9's generic swizzling "
               "result (its convert_layout scratch layout) as it is."),
           Opt(("--for",), "use", type=("tma", "wgmma"),
               help="Only layouts TMA copies or wgmma operands can use: the best #ttg.nvmma_shared. Without -d the "
               "TMA engine (a TMA store) or wgmma's operand fetch reads the tile, not threads: only the write is "
               "priced."),
           TARGET, JSON, OUTPUT)


@frozen
class Request(BitsRequest):
    """One `ttlayout swizzle` command line."""
    write: str | None = None
    read: str | None = None
    no_search: bool = False
    use: str | None = None
    target: str | None = None
    as_json: bool = False
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """The shared layout that maximises vectorisation and then minimises bank conflicts for writing with one
    register layout and reading with another (Triton's generic swizzling, lib/Tools/GenericSwizzling.cpp).

    Prints a ready-to-paste #ttg.swizzled_shared<...> when one is as good, else #ttg.shared_linear<...>, and the
    same layout as Gluon code, with the conflicts of the unswizzled layout and of the suggestion; then both, and
    the best #ttg.padded_shared (an alternative for buffers a kernel allocates, never one the compiled access
    would fault on), priced on the GPU: the instructions Triton emits and their wavefronts per CTA. With --for
    tma or wgmma and no -d, the TMA engine or wgmma's operand fetch reads the tile back, not threads.

    \b
    ttlayout swizzle -r '#ttg.blocked<{...}>' -d '#ttg.blocked<{...}>' -t 'tensor<64x64xf16>'
    """
    from ..reports import swizzle as report
    p = layouts.pick(ctx, "swizzle", ROLES, given, "tensor<64x64xf16>", target=given.target)
    tgt = select(given.target, p.targets, bank=True, ctx=ctx)
    check_engine(given.use, tgt)
    s = _suggestion(p.layouts[0], p.layouts[1], p.width, tgt, given.use, given.no_search, p.given[1])
    s = _on_the_gpu(s, p.layouts[0], p.layouts[1], p.width, tgt, padding=given.use is None and not given.no_search)
    texts = (str(p.attrs[0]), str(p.attrs[1]), p.tensor.element)
    write_report(ctx, given.output, lambda: report.blocks(s, *texts), lambda: report.json_text(s, *texts),
                 as_json=given.as_json)


def _suggestion(w_ll, r_ll, bits: int, tgt, use: str | None, no_search: bool, read_given: bool):
    """The suggestion: the best #ttg.nvmma_shared with --for (where -d gave no reader, the TMA engine or wgmma
    reads it, so only the write is priced); else the search's (or, with --no-search, Triton's own) layout, with a
    note on the best one TMA and wgmma could use where that one is not an nvmma_shared (priced as --for prices
    it)."""
    from ..analysis.swizzle import analyze_swizzle, best_nvmma
    from ..records import replace
    engine_r = r_ll if read_given else None
    if use is not None:
        return analyze_swizzle(w_ll, engine_r, bits, tgt, use=use)
    s = analyze_swizzle(w_ll, r_ll, bits, tgt, search=not no_search)
    alt = best_nvmma(w_ll, engine_r, bits, tgt) if "tma" in tgt.engines and s.kind != "nvmma_shared" else None
    if alt is None:
        return s
    return replace(s, notes=s.notes + (
        f"TMA copies and wgmma operands cannot use this layout (they need #ttg.nvmma_shared); the best one for them "
        f"is {alt[0]} with {alt[1].conflicts} conflict(s) ({alt[1].write_wavefronts + alt[1].read_wavefronts} "
        f"wavefronts per warp): ttlayout swizzle --for tma",))


def _on_the_gpu(s, w_ll, r_ll, bits: int, tgt, padding: bool):
    """The suggestion with its GPU comparison: the unswizzled layout, the suggestion and (`padding`: the plain
    search) the best #ttg.padded_shared, priced by the shared-access model. Where the TMA engine or wgmma reads
    the tile (`s.reader`), no thread layout reads it back, so there is no round trip to price."""
    from ..analysis.swizzle import compare_on_gpu
    from ..records import replace
    if s.reader != "threads":
        return s
    return replace(s, gpu=compare_on_gpu(w_ll, r_ll, bits, tgt, s, padding))
