"""The `info` report (one layout at one shape, on one screen, with the same layout as a paste-ready
`#ttg.linear` / `#ttg.shared_linear`, as Gluon code and in CuTe notation) and the `lookup` answers; blocks and
JSON."""
from __future__ import annotations

from ..analysis.cute import cute_input
from ..analysis.info import HARDWARE, LayoutInfo, Spread, alignment_of, bases_of
from ..analysis.lookup import Held, Holder, MemoryPlace, TmemPlace, bank_of
from ..attributes import encodings as enc
from ..records import frozen
from . import gluon
from .blocks import BLANK, Fields, Table, line
from .common import coord, more_count, plural

MAX_LISTED = 16                    # row starts, holders and elements shown in text; JSON has them all


def linear_attr(info: LayoutInfo) -> str | None:
    """The layout as `#ttg.linear<{…}>` (distributed) or `#ttg.shared_linear<{…}, alignment = N>` (shared),
    printed as Triton prints it. Where Triton refuses `#ttg.linear` (its bases, broadcast ones aside, are not a
    permutation of unit vectors) the same bases are a `#ttg.generic_linear`; None where Triton takes neither."""
    from ..attributes.verify import verify_linear_encoding
    from ..errors import TTLayoutError
    ll = info.linear
    b = {d: tuple(tuple(x) for x in ll.get_in_dim_bases(d)) if ll.has_in_dim(d) else () for d in HARDWARE + ("offset",)}
    candidates: list
    if ll.has_in_dim("offset"):
        candidates = [enc.SharedLinearEncoding(b["offset"], b["block"], alignment_of(info.encoding))]
    else:
        candidates = [cls(b["register"], b["lane"], b["warp"], b["block"])
                      for cls in (enc.LinearEncoding, enc.GenericLinearEncoding)]
    for candidate in candidates:
        try:
            verify_linear_encoding(candidate)         # Triton's checks, on the record itself
        except TTLayoutError:
            continue
        return str(candidate)
    return None


@frozen
class Paste:
    """The layout as text to paste: `linear_attr` (None: Triton takes no linear attribute with these bases),
    `gluon` (the Gluon class constructor, or the linear one where there is no class) and `gluon_linear` (None:
    Gluon holds these bases in no linear layout, as Triton)."""
    linear_attr: str | None
    gluon: str | None
    gluon_linear: str | None


def paste(info: LayoutInfo) -> Paste:
    if info.tensor_memory is not None or (info.shared and (info.shared.padding or info.shared.partitions > 1)):
        return Paste(None, gluon.class_text(info.encoding), None)
    text = linear_attr(info)
    shared = info.category == "shared"
    lin_gluon = (gluon.linear_text(bases_of(info.linear), info.shape, alignment_of(info.encoding) if shared else None)
                 if text else None)
    return Paste(text, gluon.class_text(info.encoding) or lin_gluon, lin_gluon)


def cute_line(info: LayoutInfo) -> str:
    """The layout in CuTe notation as it reads back (`cute_input`: prefixed where the text alone could be read
    another way or spans several CTAs), or `none: <why>` (one line)."""
    form = info.cute
    return str(cute_input(form, info.shape)) if form.layout is not None else f"none: {form.reason}"


def _mask_bits(mask: int) -> list[int]:
    return [1 << i for i in range(mask.bit_length()) if mask >> i & 1]


def _replication(info: LayoutInfo) -> list[tuple[str, str]]:
    d = info.distributed
    assert d is not None                       # a distributed layout's
    copies = d.slots // d.distinct if d.distinct else 0
    if copies <= 1:
        return [("replication", f"none: {d.distinct} distinct elements in {d.slots} slots")]
    rows = [("replication", f"{copies} copies of each element ({d.distinct} distinct elements in {d.slots} slots):")]
    for hw, (what, var) in (("register", ("register", "r")), ("lane", ("lane", "l")), ("warp", ("warp", "w")),
                            ("block", ("CTA", "b"))):
        steps = _mask_bits(d.free[hw])
        if steps:
            others = ", ".join(f"{var} ^ {s}" for s in steps)
            many = len(steps) > 1
            rows.append(("", f"{what} {var} holds what {what}{'s' if many else ''} {others} hold{'' if many else 's'}"))
    return rows


def spread_label(s: Spread) -> str:
    """'dim0 128': the label of one tensor dim's spread row."""
    return f"dim{s.dim} {s.size}"


def spread_text(s: Spread) -> str:
    """How one tensor dim is spread, bits from low to high: 'lane 8 · register 2 · warp 4' (8 = three lane bits
    step the dim by 1, 2, 4; then one register bit by 8; ...), with the bases that also move another dim."""
    cover = " · ".join(f"{f.hardware} {f.size}" for f in s.factors) or "(not spread)"
    if s.mixed:
        cover += f"; mixed with another dim: {', '.join(s.mixed)}"
    return cover


def spread_json(s: Spread) -> dict:
    return {"dim": s.dim, "size": s.size, "factors": [[f.hardware, f.size] for f in s.factors], "mixed": list(s.mixed)}


def _distributed_rows(info: LayoutInfo) -> list[tuple[str, str]]:
    d = info.distributed
    assert d is not None                       # a distributed layout's
    threads = d.threads_per_warp * d.warps
    rows = [("threads", f"{d.threads_per_warp} lanes x {plural(d.warps, 'warp')} = {threads} threads"
                        + (f" per CTA, {d.ctas} CTAs" if d.ctas > 1 else "")),
            ("registers", f"{d.elements_per_thread} elements per thread")]
    for s in d.spread:
        rows.append((spread_label(s), spread_text(s)))
    rows += _replication(info)
    contig = ", ".join(map(str, d.contig_per_thread))
    rows.append(("contiguity", f"[{contig}] elements per thread along each dim; dim{d.order[0]} is fastest "
                               f"(order [{', '.join(map(str, d.order))}])"))
    rows.append(("vector", f"{d.vector_elems} x {info.element} = {d.vector_bits} bits per global load/store "
                           "(aligned pointers)"))
    rows.append(("mapping", ("injective" if d.injective else "not injective (copies)") + ", "
                 + ("surjective" if d.surjective else "not surjective (some elements held by nobody)")))
    return rows


def _shared_rows(info: LayoutInfo) -> list[tuple[str, str]]:
    s = info.shared
    assert s is not None                       # a shared layout's
    rows = [("memory", f"{s.offsets} offsets x {info.element_bits} bits = {s.offsets * info.element_bits // 8} bytes"
                       + (f" per CTA, {s.blocks} CTAs" if s.blocks > 1 else "")
                       + (f" per partition, {s.partitions} partitions (separate buffers)" if s.partitions > 1 else "")
                       + (f"; alignment {s.alignment} bytes" if s.alignment is not None else ""))]
    if s.padding:
        size = s.padded_size or 0
        rows.append(("padding", ", ".join(f"{i}:+{q}" for i, q in s.padding) + f" (after every interval offsets, "
                                f"that many unused): {size} positions = {size * info.element_bits // 8} bytes"
                                + (" per buffer" if s.blocks > 1 or s.partitions > 1 else "")))
    rows.append(("swizzle", s.swizzle))
    if s.mixed:
        rows.append(("mixed bits", ", ".join(f"offset {1 << i} -> {coord(s.offset_bases[i])}" for i in s.mixed[:8])
                     + more_count(len(s.mixed), 8, ", ... and {} more")))
    if s.row_dim is not None:
        for banks in (32, 64):
            starts = s.row_banks[banks]
            shown = " ".join(map(str, starts[:MAX_LISTED])) + more_count(info.shape[s.row_dim], MAX_LISTED)
            rows.append((f"row starts/{banks}", f"banks {shown}  (first element of dim{s.row_dim} index 0, 1, ...)"))
    rows.append(("mapping", ("injective" if s.injective else "not injective") + ", "
                 + ("surjective" if s.surjective else "not surjective")))
    return rows


def _tmem_rows(info: LayoutInfo) -> list[tuple[str, str]]:
    m = info.tensor_memory
    assert m is not None                       # a tensor memory layout's
    rows = [("tensor memory", f"{m.rows} rows x {plural(m.columns, '32-bit column')} allocated"
                              + (" per CTA, " + plural(m.blocks, "CTA") if m.blocks > 1 else "")
                              + " (Triton's getTmemAllocSizes)"),
            ("columns", f"{m.slots} element slots per row, {m.per_column} x {info.element_bits} bits per 32-bit "
                        "column" + (f"; {m.unused} of {m.row_span * m.slots} (row, slot) places unused"
                                    if m.unused else ""))]
    if m.warp_copies:
        rows.append(("copies", f"each element is also held {'once' if m.warp_copies == 1 else f'{m.warp_copies} times'}"
                               " more, rows 32 or 64 apart, for the other warps of the warpgroup"))
    for sp in m.spread:
        rows.append((spread_label(sp), spread_text(sp)))
    rows.append(("mapping", ("injective" if m.injective else "not injective (copies or unused slots)") + ", "
                 + ("surjective" if m.surjective else "not surjective")))
    return rows


def blocks(info: LayoutInfo) -> list:
    ll = info.linear
    head = [line(info.attr, "bold"),
            line(f"{info.kind} ({info.category}) at tensor<{'x'.join(map(str, info.shape))}x{info.element}>")]
    rows = (_distributed_rows(info) if info.distributed else _shared_rows(info) if info.shared
            else _tmem_rows(info))
    basis_rows = [("bases" if i == 0 else "", f"{d} = {enc.int_lists(ll.get_in_dim_bases(d))}")
                  for i, d in enumerate(ll.in_dims)]
    p = paste(info)
    tail = [("paste", p.linear_attr or ("none: Triton 3.9 has no linear attribute for tensor memory"
                                         if info.tensor_memory else
                                         "none: a #ttg.shared_linear holds no padding or partitions"
                                         if info.shared and (info.shared.padding or info.shared.partitions > 1) else
                                         "none: Triton accepts no linear attribute with these bases")),
            ("gluon", p.gluon or "none: Gluon builds no layout with these bases")]
    if p.gluon_linear is not None and p.gluon != p.gluon_linear:
        tail.append(("", p.gluon_linear))
    tail.append(("cute", cute_line(info)))
    return head + [Fields(tuple(rows + basis_rows + tail)), BLANK,
                   line("linear layout (Triton's LinearLayout::toString):", "bold")] + \
        [line(text) for text in str(ll).strip("\n").split("\n")]


def _distributed_json(info: LayoutInfo) -> dict:
    d = info.distributed
    assert d is not None                       # a distributed layout's
    return {
        "threads_per_warp": d.threads_per_warp, "warps": d.warps, "ctas": d.ctas,
        "spread": [spread_json(s) for s in d.spread],
        "order": list(d.order), "contig_per_thread": list(d.contig_per_thread),
        "vector_bits": d.vector_bits, "injective": d.injective, "surjective": d.surjective,
    }


def _shared_json(info: LayoutInfo) -> dict:
    s = info.shared
    assert s is not None                       # a shared layout's
    return {
        "offsets": s.offsets, "blocks": s.blocks, "alignment": s.alignment, "swizzle": s.swizzle,
        "vec": s.vec, "per_phase": s.per_phase, "max_phase": s.max_phase, "mixed_offset_bits": list(s.mixed),
        "row_dim": s.row_dim, "row_banks": {str(n): list(v) for n, v in s.row_banks.items()},
        "injective": s.injective, "surjective": s.surjective, "partitions": s.partitions,
        "padding": [list(x) for x in s.padding], "padded_size": s.padded_size,
    }


def json_text(info: LayoutInfo) -> str:
    import json
    p = paste(info)
    obj = {
        "kind": info.kind, "category": info.category, "attr": info.attr, "shape": list(info.shape),
        "element_type": info.element, "element_bits": info.element_bits,
        "bases": info.bases, "out_dims": info.out_dims,
        "linear_layout": str(info.linear).strip("\n"),
        "linear_attr": p.linear_attr, "gluon": p.gluon, "gluon_linear": p.gluon_linear,
        "cute": info.cute.text, "cute_reason": info.cute.reason, "cute_input": cute_input(info.cute, info.shape),
    }
    if info.distributed:
        d = info.distributed
        assert d is not None                       # a distributed layout's
        obj.update(elements_per_thread=d.elements_per_thread, vector_width=d.vector_elems,
                   replication={"copies": d.slots // d.distinct if d.distinct else 0, "distinct_elements": d.distinct,
                                "slots": d.slots, "free_masks": {hw: d.free[hw] for hw in HARDWARE}},
                   distributed=_distributed_json(info))
    elif info.shared:
        obj.update(elements_per_thread=None, vector_width=None, replication=None, shared=_shared_json(info))
    else:
        m = info.tensor_memory
        assert m is not None                       # the third category
        obj.update(elements_per_thread=None, vector_width=None, replication=None, tensor_memory={
            "alloc": [m.rows, m.columns], "rows": m.row_span, "slots": m.slots, "blocks": m.blocks,
            "per_column": m.per_column, "warp_copies": m.warp_copies, "unused": m.unused,
            "spread": [spread_json(sp) for sp in m.spread], "injective": m.injective, "surjective": m.surjective})
    return json.dumps(obj, indent=2) + "\n"


# ----------------------------------------------------------------------------------------- lookup


def holders_blocks(element, found: list[Holder], total: int) -> list:
    head = f"element {coord(element)}: " + (plural(total, "holder") if found else "held by no thread")
    rows = tuple((h.name, str(h.block), str(h.warp), str(h.lane), str(h.register)) for h in found)
    out = [line(head, "bold")]
    if rows:
        out.append(Table(("thread", "block", "warp", "lane", "register"), rows, "  "))
    if total > len(found):
        out.append(line(f"... and {total - len(found)} more copies", indent="  "))
    return out


def holders_json(element, found: list[Holder], total: int) -> str:
    import json
    return json.dumps({"element": list(element), "copies": total,
                       "holders": [{"block": h.block, "warp": h.warp, "lane": h.lane, "register": h.register,
                                    "thread": h.thread, "name": h.name} for h in found]}, indent=2) + "\n"


def thread_blocks(thread: int, held: list[Held], blocks_: int) -> list:
    name = f"thread {thread}" + (f" ({plural(len({h.block for h in held}), 'block')})" if blocks_ > 1 else "")
    rows = tuple(((f"B{h.block}:" if blocks_ > 1 else "") + f"T{thread}:{h.register}", coord(h.element))
                 for h in held)
    return [line(f"{name}: {plural(len(held), 'element')}", "bold"), Table(("register", "element"), rows, "  ")]


def thread_json(thread: int, held) -> str:
    out: list[str] = []
    write_thread_json(thread, held, out.append)
    return "".join(out)


def write_thread_json(thread: int, held, write, chunk: int = 4096) -> None:
    """`{"thread": T, "elements": [{"block", "register", "element"}, ...]}` as json.dumps(..., indent=2) writes
    it, streamed to write(str) `chunk` elements at a time from the iterable `held` (never all in memory)."""
    write(f'{{\n  "thread": {thread},\n  "elements": [')
    first, parts = True, []
    for h in held:
        coords = ",\n".join(f"        {c}" for c in h.element)
        element = f"[\n{coords}\n      ]" if h.element else "[]"
        parts.append(f'{"" if first else ","}\n    {{\n      "block": {h.block},\n      "register": {h.register},'
                     f'\n      "element": {element}\n    }}')
        first = False
        if len(parts) >= chunk:
            write("".join(parts))
            parts = []
    write("".join(parts) + ("]\n}\n" if first else "\n  ]\n}\n"))


def offsets_blocks(element, found, element_bits: int) -> list:
    rows = tuple((str(b), str(o), str(bank_of(o, element_bits)), str(bank_of(o, element_bits, 64))) for b, o in found)
    head = f"element {coord(element)}: " + (plural(len(found), "offset") if found else "stored nowhere")
    return [line(head, "bold")] + ([Table(("block", "offset", "bank/32", "bank/64"), rows, "  ")] if rows else [])


def offsets_json(element, found, element_bits: int) -> str:
    import json
    return json.dumps({"element": list(element),
                       "offsets": [{"block": b, "offset": o, "bank": bank_of(o, element_bits),
                                    "bank64": bank_of(o, element_bits, 64)} for b, o in found]}, indent=2) + "\n"


def at_offset_blocks(offset: int, block: int, element, element_bits: int) -> list:
    return [Fields((("offset", f"{offset} (block {block})"), ("element", coord(element)),
                    ("bank", f"{bank_of(offset, element_bits)} of 32, {bank_of(offset, element_bits, 64)} of 64")))]


def at_offset_json(offset: int, block: int, element, element_bits: int) -> str:
    import json
    return json.dumps({"offset": offset, "block": block, "element": list(element),
                       "bank": bank_of(offset, element_bits), "bank64": bank_of(offset, element_bits, 64)},
                      indent=2) + "\n"


def tmem_places_blocks(element, found: list[TmemPlace]) -> list:
    head = f"element {coord(element)}: " + (plural(len(found), "tensor memory place") if found else "stored nowhere")
    rows = tuple((p.name, str(p.block), str(p.row), str(p.column), str(p.slot)) for p in found)
    return [line(head, "bold")] + ([Table(("place", "block", "row", "column", "slot"), rows, "  ")] if rows else [])


def tmem_places_json(element, found: list[TmemPlace]) -> str:
    import json
    return json.dumps({"element": list(element),
                       "places": [{"block": p.block, "row": p.row, "column": p.column, "slot": p.slot,
                                   "name": p.name} for p in found]}, indent=2) + "\n"


def memory_places_blocks(element, found: list[MemoryPlace], partitions: int, element_bits: int) -> list:
    """A padded or partitioned shared layout's places of one element: the memory position (offset plus padding)
    is the one the hardware view prints and the one banks are counted on."""
    head = f"element {coord(element)}: " + (plural(len(found), "place") if found else "stored nowhere")
    names = ("block",) + (("partition",) if partitions > 1 else ()) + ("offset", "position", "bank/32", "bank/64")
    rows = tuple((str(p.block),) + ((str(p.partition),) if partitions > 1 else ())
                 + (str(p.offset), str(p.position), str(bank_of(p.position, element_bits)),
                    str(bank_of(p.position, element_bits, 64))) for p in found)
    return [line(head, "bold")] + ([Table(names, rows, "  ")] if rows else [])


def memory_places_json(element, found: list[MemoryPlace], element_bits: int) -> str:
    import json
    return json.dumps({"element": list(element),
                       "places": [{"block": p.block, "partition": p.partition, "offset": p.offset,
                                   "position": p.position, "bank": bank_of(p.position, element_bits),
                                   "bank64": bank_of(p.position, element_bits, 64)} for p in found]},
                      indent=2) + "\n"


def at_position_blocks(position: int, block: int, offset, found, element_bits: int) -> list:
    where = f"{position} (block {block})"
    if offset is None:
        return [Fields((("offset", where), ("element", "none: padding")))]
    rows = [("offset", where + (f", linear offset {offset}" if offset != position else ""))]
    rows += [("element" if len(found) == 1 else f"partition {part}", coord(e)) for part, e in found]
    rows.append(("bank", f"{bank_of(position, element_bits)} of 32, {bank_of(position, element_bits, 64)} of 64"))
    return [Fields(tuple(rows))]


def at_position_json(position: int, block: int, offset, found, element_bits: int) -> str:
    import json
    return json.dumps({"offset": position, "block": block, "linear_offset": offset, "padding": offset is None,
                       "elements": [{"partition": part, "element": list(e)} for part, e in found],
                       "bank": bank_of(position, element_bits), "bank64": bank_of(position, element_bits, 64)},
                      indent=2) + "\n"
