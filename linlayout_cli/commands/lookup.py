"""`ttlayout lookup`: who holds element (i, j), what thread T holds, what sits at shared offset N."""
from __future__ import annotations

from ..errors import TTLayoutError
from ..records import frozen
from . import layouts
from .layouts import LayoutRequest, Role
from .options import JSON, OUTPUT, Opt
from .output import Streamed, write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context


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


ROLES = (Role("layout", None, ("-l",), "layout", "name", "The layout attribute (or a Gluon constructor).", memory=True),)
OPTIONS = (
    *layouts.options(ROLES, "tensor<128x256xf16>"),
    Opt(("--element",), "element", metavar="I,J,...", help="Every (block, warp, lane, register) holding this "
        "element (shared layouts: its offsets and banks)."),
    Opt(("--thread",), "thread", type=int, metavar="T", help="Every element thread T holds, register by register."),
    Opt(("--block",), "block", type=int, metavar="B", help="With --thread or --offset: only this CTA."),
    Opt(("--offset",), "offset", type=int, metavar="N", help="Shared layouts: the element stored at offset N."),
    JSON, OUTPUT,
)


@frozen
class Request(LayoutRequest):
    """One `ttlayout lookup` command line."""
    layout: str | None = None
    element: str | None = None
    thread: int | None = None
    block: int | None = None
    offset: int | None = None
    as_json: bool = False
    output: str | None = None


def run(ctx: Context, given: Request) -> None:
    """Point questions about one layout.

    \b
    ttlayout lookup -l '#ttg.nvidia_mma<{...}>' -t 'tensor<128x256xf16>' --element 3,5
    ttlayout lookup -l '#ttg.nvidia_mma<{...}>' -t 'tensor<128x256xf16>' --thread 37
    ttlayout lookup -l '#ttg.nvmma_shared<{...}>' -t 'tensor<64x64xf16>' --offset 100 --json
    """
    element, thread, block, offset = given.element, given.thread, given.block, given.offset
    asked = [name for name, value in (("--element", element), ("--thread", thread), ("--offset", offset))
             if value is not None]
    if len(asked) != 1:
        raise TTLayoutError("give exactly one of --element I,J, --thread T or --offset N"
                            + (f" (got {' and '.join(asked)})" if asked else ""))
    p = layouts.pick(ctx, "lookup", ROLES, given)
    ll, padding = p.layouts[0], p.paddings[0] if p.paddings else None
    memory = padding is not None or ll.has_in_dim("partition")       # padded or partitioned shared memory
    if element is not None:
        index = parse_index(element, "--element")
        blocks, json_text = _memory_element(ll, index, p.tensor, padding) if memory else _element(ll, index, p.tensor)
    elif thread is not None:
        blocks, json_text = _thread(ll, thread, block)
    else:
        assert offset is not None                  # exactly one of the three was asked
        blocks, json_text = (_memory_offset(ll, offset, block or 0, p.tensor, padding) if memory
                             else _offset(ll, offset, block or 0, p.tensor))
    write_report(ctx, given.output, blocks, json_text, as_json=given.as_json)


def _element(ll, index, t):
    """(blocks, JSON) of who holds one element (shared layouts: its offsets and banks)."""
    from ..analysis import lookup
    from ..reports import info as report
    if ll.has_in_dim("row"):
        places = lookup.tmem_places(ll, index, t.element_bits)
        return lambda: report.tmem_places_blocks(index, places), lambda: report.tmem_places_json(index, places)
    if ll.has_in_dim("offset"):
        found = lookup.shared_offsets(ll, index)
        return (lambda: report.offsets_blocks(index, found, t.element_bits),
                lambda: report.offsets_json(index, found, t.element_bits))
    found = lookup.holders(ll, index)
    total = lookup.copies(ll) if found else 0
    return lambda: report.holders_blocks(index, found, total), lambda: report.holders_json(index, found, total)


def _thread(ll, thread: int, block):
    """(blocks, JSON) of every element one thread holds."""
    from ..analysis import lookup
    from ..reports import info as report
    if ll.has_in_dim("row"):
        raise TTLayoutError("--thread needs a distributed layout; a tensor memory layout has rows and columns (use "
                            "--element I,J; print it with --tmem-warps N for the registers tmem_load gives)")
    if ll.has_in_dim("offset"):
        raise TTLayoutError("--thread needs a distributed layout; a shared layout has offsets (use --offset N)")
    lookup.iter_thread_elements(ll, thread, block)          # a thread or block out of range: refused now
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    return (lambda: report.thread_blocks(thread, lookup.thread_elements(ll, thread, block), blocks),
            Streamed(lambda write: report.write_thread_json(
                thread, lookup.iter_thread_elements(ll, thread, block), lambda s: write(s.encode("utf-8")))))


def _offset(ll, offset: int, block: int, t):
    """(blocks, JSON) of the element stored at one shared offset."""
    from ..analysis import lookup
    from ..reports import info as report
    if ll.has_in_dim("row"):
        raise TTLayoutError("--offset needs a shared layout; a tensor memory layout has rows and columns (use "
                            "--element I,J)")
    if not ll.has_in_dim("offset"):
        raise TTLayoutError("--offset needs a shared layout; for a distributed layout use --thread T")
    found = lookup.element_at(ll, offset, block)
    return (lambda: report.at_offset_blocks(offset, block, found, t.element_bits),
            lambda: report.at_offset_json(offset, block, found, t.element_bits))


def _memory_element(ll, index, t, padding):
    """(blocks, JSON) of where a padded or partitioned shared layout stores one element."""
    from ..analysis import lookup
    from ..reports import info as report
    lookup.check_element(ll, index)
    found = lookup.memory_places(ll, index, padding)
    parts = ll.get_in_dim_size("partition") if ll.has_in_dim("partition") else 1
    return (lambda: report.memory_places_blocks(index, found, parts, t.element_bits),
            lambda: report.memory_places_json(index, found, t.element_bits))


def _memory_offset(ll, position: int, block: int, t, padding):
    """(blocks, JSON) of what a padded or partitioned shared layout stores at one memory position (each
    partition's element; none where the position is padding)."""
    from ..analysis import lookup
    from ..reports import info as report
    offset, found = lookup.elements_at_position(ll, position, block, padding)
    return (lambda: report.at_position_blocks(position, block, offset, found, t.element_bits),
            lambda: report.at_position_json(position, block, offset, found, t.element_bits))
