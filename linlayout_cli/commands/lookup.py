"""`ttlayout lookup`: who holds element (i, j), what thread T holds, what sits at shared offset N."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from . import common
from .options import Opt


def parse_index(text: str, option: str) -> tuple[int, ...]:
    """'3,5' (or '3 5', '(3, 5)', '[3,5]') -> (3, 5); anything else is an error naming the option."""
    parts = text.strip().strip("()[]").replace(",", " ").split()
    try:
        values = tuple(int(p, 0) for p in parts)
    except ValueError:
        values = ()
    if not values:
        raise TTLayoutError(f"{option} expects comma-separated integers, e.g. {option} 3,5; got '{text}'")
    return values


OPTIONS = (
    Opt(("-l",), "layout", metavar="ATTR", help="The layout attribute."),
    common.ONE_LAYOUT_TENSOR,
    Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file holding the layout as an alias ('-' = stdin)."),
    Opt(("--alias-names",), "alias_names", "multi", metavar="NAME", help="With -i: the alias to use."),
    Opt(("--element",), "element", metavar="I,J,...", help="Every (block, warp, lane, register) holding this "
        "element (shared layouts: its offsets and banks)."),
    Opt(("--thread",), "thread", type=int, metavar="T", help="Every element thread T holds, register by register."),
    Opt(("--block",), "block", type=int, metavar="B", help="With --thread or --offset: only this CTA."),
    Opt(("--offset",), "offset", type=int, metavar="N", help="Shared layouts: the element stored at offset N."),
    Opt(("--json",), "as_json", "flag", help="Print one JSON object."),
)


def run(obj, layout, tensor_type, input_file, alias_names, element, thread, block, offset, as_json):
    """Point questions about one layout.

    \b
    ttlayout lookup -l '#ttg.nvidia_mma<{...}>' -t 'tensor<128x256xf16>' --element 3,5
    ttlayout lookup -l '#ttg.nvidia_mma<{...}>' -t 'tensor<128x256xf16>' --thread 37
    ttlayout lookup -l '#ttg.nvmma_shared<{...}>' -t 'tensor<64x64xf16>' --offset 100 --json
    """
    from ..analysis import lookup
    from ..reports import info as report
    asked = [name for name, value in (("--element", element), ("--thread", thread), ("--offset", offset))
             if value is not None]
    if len(asked) != 1:
        raise TTLayoutError("give exactly one of --element I,J, --thread T or --offset N"
                            + (f" (got {' and '.join(asked)})" if asked else ""))
    t = inputs.tensor(tensor_type)
    attr = common.one_layout(obj, layout, input_file, alias_names, "lookup", t)
    ll = inputs.linear_layout(attr, t.shape)
    shared = ll.has_in_dim("offset")
    if element is not None:
        index = parse_index(element, "--element")
        if shared:
            found = lookup.shared_offsets(ll, index)
            emit(obj, as_json, report.offsets_blocks(index, found, t.element_bits),
                 lambda: report.offsets_json(index, found, t.element_bits))
        else:
            found = lookup.holders(ll, index)
            total = lookup.copies(ll) if found else 0
            emit(obj, as_json, report.holders_blocks(index, found, total), lambda: report.holders_json(index, found, total))
    elif thread is not None:
        if shared:
            raise TTLayoutError("--thread needs a distributed layout; a shared layout has offsets (use --offset N)")
        held = lookup.thread_elements(ll, thread, block)
        blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
        emit(obj, as_json, report.thread_blocks(thread, held, blocks), lambda: report.thread_json(thread, held))
    else:
        if not shared:
            raise TTLayoutError("--offset needs a shared layout; for a distributed layout use --thread T")
        found = lookup.element_at(ll, offset, block or 0)
        emit(obj, as_json, report.at_offset_blocks(offset, block or 0, found, t.element_bits),
             lambda: report.at_offset_json(offset, block or 0, found, t.element_bits))


def emit(obj, as_json: bool, blocks, json_text) -> None:
    common.emit_report(obj, blocks, as_json, json_text)
