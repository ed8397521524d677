"""LinearLayout -> its CuTe form (`attributes.cute.CuteLayout`) in TLX's conventions, or the one-line reason there
is none.

* Distributed layouts are a thread-value layout `(THREAD, VALUE):(...)` onto the row-major element index:
  thread = lane + lanes x (warp + warps x block), value = register. Each input bit is a mode of size 2 whose
  stride is the element index its basis reaches; the bits of one hardware level (lane, warp, block, register) are
  merged where CuTe's coalesce would (strides s, 2s, 4s, ..., or a run of zeros), never across levels, as
  `tlx.dump_layout` does. A CuTe form exists exactly when no two bases set the same bit of the element index:
  then CuTe's integer sum of the strides is the layout's XOR.
* Shared layouts are `[Swizzle<B,M,S> o] SHAPE:STRIDE`, element -> offset (with blocks: offset + offsets per
  block x block), one top-level mode per tensor dim (dim0 first). The smallest swizzle that explains the XORs is
  found from the layout itself; without XORs there is none.

>>> from linlayout_cli.engine import LinearLayout
>>> tv = LinearLayout({"register": [], "lane": [[1], [2], [4], [8], [16]], "warp": [[32], [0]], "block": []}, ["dim0"])
>>> cute_form(tv).text
'((_32,_2,_2),_1):((_1,_32,_0),_0)'
>>> xor = LinearLayout({"register": [[1, 1]], "lane": [[0, 1]]}, ["dim0", "dim1"])
>>> print(cute_form(xor).reason)
an XOR in a distributed layout: register bit 0 -> (1, 1) and lane bit 0 -> (0, 1) both move dim1 bit 0; CuTe's strides add, they cannot XOR
"""
from __future__ import annotations

from ..attributes.cute import CuteLayout, Swizzle
from ..conversions.cute import (
    DEFAULT_LANES,
    cute_kind,
    element_bit_name,
    row_major_index,
    row_major_shifts,
    two_readings,
)
from ..engine import LinearLayout, gf2
from ..engine.bits import log2, popcount
from ..errors import UnsupportedError
from ..records import frozen

HARDWARE = ("register", "lane", "warp", "block")
XOR, SWIZZLE, BLOCK_COPIES, OFFSET_COPIES = ("XOR in a distributed layout", "swizzle beyond Swizzle<B,M,S>",
                                            "blocks hold copies", "offsets hold copies")
CATEGORIES = (XOR, SWIZZLE, BLOCK_COPIES, OFFSET_COPIES)


@frozen
class CuteForm:
    kind: str                       # "distributed" or "shared"
    layout: CuteLayout | None       # None: no CuTe form
    reason: str | None              # why there is none (one line), else None
    lanes: int                      # lanes per warp: how the thread mode splits (0 for shared layouts)
    blocks: int                     # blocks (CTAs) in the thread mode / above the offsets
    category: str | None = None     # the reason's kind: one of CATEGORIES

    @property
    def text(self) -> str | None:
        return None if self.layout is None else str(self.layout)


def _shape(ll: LinearLayout) -> list[int]:
    return [ll.get_out_dim_size(f"dim{d}") for d in range(ll.num_out_dims)]


def _bases(ll: LinearLayout, dim: str):
    """Bases of an in dim with the out dims in order dim0, dim1, ..."""
    if not ll.has_in_dim(dim):
        return []
    return [tuple(ll.get_basis(dim, k, f"dim{d}") for d in range(ll.num_out_dims))
            for k in range(ll.get_in_dim_size_log2(dim))]


def _basis_text(basis) -> str:
    return "(" + ", ".join(map(str, basis)) + ")"


def coalesce_bits(strides) -> list[tuple[int, int]]:
    """(size, stride) modes of consecutive input bits with strides s, 2s, 4s, ... (zeros: 0, 0, ...), as TLX's
    `collapseModes`.

    >>> coalesce_bits([1, 2, 4, 64, 128, 0, 0])
    [(8, 1), (4, 64), (4, 0)]
    """
    modes = []
    i = 0
    while i < len(strides):
        s, size = strides[i], 2
        j = i + 1
        while j < len(strides) and strides[j] == s * size:
            size *= 2
            j += 1
        modes.append((size, s))
        i = j
    return modes


def _group(modes):
    """A list of (size, stride) as one CuTe mode: `_1:_0` when empty, the mode itself when alone, else a tuple."""
    if not modes:
        return 1, 0
    if len(modes) == 1:
        return modes[0]
    return tuple(m[0] for m in modes), tuple(m[1] for m in modes)


# ----------------------------------------------------------------------------------------- distributed


def _distributed(ll: LinearLayout) -> CuteForm:
    shape = _shape(ll)
    lanes = ll.get_in_dim_size("lane") if ll.has_in_dim("lane") else 1
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    owner: dict[int, str] = {}
    strides: dict[str, list[int]] = {}
    for dim in HARDWARE:
        strides[dim] = []
        for k, basis in enumerate(_bases(ll, dim)):
            x = row_major_index(basis, shape)
            name = f"{dim} bit {k} -> {_basis_text(basis)}"
            for b in range(x.bit_length()):
                if x >> b & 1:
                    if b in owner:
                        reason = (f"an XOR in a distributed layout: {owner[b]} and {name} both move "
                                  f"{element_bit_name(b, shape)}; CuTe's strides add, they cannot XOR")
                        return CuteForm("distributed", None, reason, lanes, blocks, XOR)
                    owner[b] = name
            strides[dim].append(x)
    thread = coalesce_bits(strides["lane"]) + coalesce_bits(strides["warp"]) + coalesce_bits(strides["block"])
    value = coalesce_bits(strides["register"])
    (t_shape, t_stride), (v_shape, v_stride) = _group(thread), _group(value)
    layout = CuteLayout((t_shape, v_shape), (t_stride, v_stride))
    return CuteForm("distributed", layout, None, lanes, blocks)


# ----------------------------------------------------------------------------------------- shared


def _find_swizzle(offsets: list[int], names: list[str]) -> tuple[Swizzle | None, str | None]:
    """The smallest Swizzle<B,M,S> with `Swizzle(base) == offset` and every base one bit, for the offsets of the
    element bits; (None, None) when no XOR is needed, (None, reason) when no swizzle does it."""
    mixed = [(e, o) for e, o in enumerate(offsets) if popcount(o) > 1]
    if not mixed:
        return None, None
    for e, o in mixed:
        if popcount(o) > 2:
            bits = [b for b in range(o.bit_length()) if o >> b & 1]
            return None, (f"{names[e]} lands on offset bits {', '.join(map(str, bits))} at once; "
                          "Swizzle<B,M,S> XORs each bit into one other")
    pairs = sorted((o.bit_length() - 1, (o & -o).bit_length() - 1) for _, o in mixed)    # (high, low) bits
    for (h1, l1), (h2, l2) in zip(pairs, pairs[1:]):
        if l1 == l2:
            return None, (f"offset bit {l1} is XORed with both bit {h1} and bit {h2}; Swizzle<B,M,S> XORs each bit "
                          "with one other")
        if h1 - l1 != h2 - l2:
            return None, (f"offset bits {h1} and {l1} are XORed, and so are {h2} and {l2}: Swizzle<B,M,S> XORs "
                          "bits one distance apart")
    distance = pairs[0][0] - pairs[0][1]
    reasons = []
    for positive in (True, False):
        sources = [hi if positive else lo for hi, lo in pairs]
        targets = [lo if positive else hi for hi, lo in pairs]
        if sources != list(range(sources[0], sources[0] + len(sources))):
            reasons.append(f"the XORed offset bits {', '.join(map(str, sources))} are not one run; Swizzle<B,M,S> "
                           "XORs a contiguous field")
            continue
        width = len(sources)
        if distance < width:
            reasons.append(f"offset bits {sources[0]}-{sources[-1]} are XORed into bits {min(targets)}-"
                           f"{max(targets)}, which overlap them (CuTe's Swizzle<B,M,S> needs |S| >= B)")
            continue
        sw = Swizzle(width, min(targets), distance if positive else -distance)
        bad = next((e for e, o in enumerate(offsets) if popcount(sw.apply(o)) != 1), None)
        if bad is None:
            return sw, None
        o = offsets[bad]
        reasons.append(f"{names[bad]} is at offset {o}, but under {sw} (what the XORed bits call for) its stride "
                       f"would be {sw.apply(o)}, not a power of two")
    return None, reasons[0]


def _not_one_to_one(columns: list[int], names: list[str], total: int) -> tuple[str, str] | None:
    """(category, reason) when the offsets (and blocks) are not one per element: a broadcast basis, two offsets
    holding one element, or too few offsets; else None."""
    for x, name in zip(columns, names):
        if x == 0:
            if name.startswith("block"):
                return BLOCK_COPIES, (f"{name} is a broadcast: blocks hold copies of the tensor, so no element -> "
                                      "offset map exists")
            return OFFSET_COPIES, (f"{name} is a broadcast: two offsets hold each element (padding or a broadcast), "
                                   "so no element -> offset map exists")
    kernel = gf2.null_space(columns)
    if kernel:
        combo = kernel[0]           # offset bits (then block bits) whose bases XOR to zero
        bits = ", ".join(names[i].split(" ->")[0] for i in range(len(columns)) if combo >> i & 1)
        return OFFSET_COPIES, (f"offsets 0 and {combo} hold the same element ({bits} cancel out), so no element -> "
                               "offset map exists")
    if len(columns) < total:
        return OFFSET_COPIES, f"{1 << len(columns)} offsets cannot hold the {1 << total} elements one per offset"
    return None


def _shared(ll: LinearLayout, kind_name: str) -> CuteForm:
    shape = _shape(ll)
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    total = sum(log2(s) for s in shape)
    columns, names = [], []
    for dim in ("offset", "block"):
        for k, basis in enumerate(_bases(ll, dim)):
            columns.append(row_major_index(basis, shape))
            names.append(f"{dim} bit {k} -> {_basis_text(basis)}")
    found = _not_one_to_one(columns, names, total)
    if found is None:
        # element bit e (row-major) -> the offset whose bases XOR to it
        solved = gf2.solve(columns, [1 << e for e in range(total)])
        offsets = [o for o in solved if o is not None]       # all solved: the map is one-to-one and onto
        elem_names = [f"element {element_bit_name(e, shape)}" for e in range(total)]
        sw, reason = _find_swizzle(offsets, elem_names)
        if reason is not None:
            found = SWIZZLE, f"a swizzle CuTe's functor cannot express: {reason}"
    if found is not None:
        category, reason = found
        if kind_name == "nvmma_shared":
            reason = f"an nvmma_shared variant that cannot be written: {reason}"
        return CuteForm("shared", None, reason, 0, blocks, category)
    base = [sw.apply(o) if sw else o for o in offsets]
    dims = []
    shifts = row_major_shifts(shape)
    for d, n in enumerate(shape):
        strides = [base[shifts[d] + k] for k in range(log2(n))]
        dims.append(_group(coalesce_bits(strides)))
    if len(shape) == 1:
        d_shape, d_stride = dims[0]
        layout = (CuteLayout(d_shape, d_stride, sw) if isinstance(d_shape, int)
                  else CuteLayout((d_shape,), (d_stride,), sw))
    else:
        layout = CuteLayout(tuple(m[0] for m in dims), tuple(m[1] for m in dims), sw)
    return CuteForm("shared", layout, None, 0, blocks)


# ----------------------------------------------------------------------------------------- public


TMEM_REASON = "tensor memory rows and columns are neither CuTe threads and values nor shared-memory offsets"
PADDED_REASON = "ttlayout writes no CuTe text for padded shared memory (its padding is not modelled in CuTe notation)"
PARTITIONS_REASON = "the partitions of a partitioned_shared layout are separate buffers, not one CuTe offset space"


def cute_form(ll: LinearLayout, kind_name: str | None = None, padded: bool = False) -> CuteForm:
    """The CuTe form of a layout (distributed: in dims register/lane/warp/block; shared: offset/block), or why
    there is none (tensor memory: row/col/block; `padded` shared memory; partitions). `kind_name` (the attribute's
    mnemonic, e.g. 'nvmma_shared') only words the reason."""
    blocks = ll.get_in_dim_size("block") if ll.has_in_dim("block") else 1
    for why, reason, kind in ((ll.has_in_dim("row"), TMEM_REASON, "tensor memory"),
                              (padded, PADDED_REASON, "shared"),
                              (ll.has_in_dim("partition"), PARTITIONS_REASON, "shared")):
        if why:
            return CuteForm(kind, None, reason, 0, blocks)
    if ll.has_in_dim("offset"):
        return _shared(ll, kind_name or "")
    return _distributed(ll)


def reads_back_as_shared(form: CuteForm, shape) -> bool:
    """Whether a thread-value text would be read as a shared layout where nothing says which (`cute_kind`): its
    two top-level modes have the sizes of a 2-D tensor's dims. Such text is given back as `cute-tv: ...`.

    >>> tv = LinearLayout({"register": [[0, 1]], "lane": [[1, 0]], "warp": [], "block": []}, ["dim0", "dim1"])
    >>> reads_back_as_shared(cute_form(tv), [2, 2])
    True
    """
    return form.kind == "distributed" and form.layout is not None and cute_kind(form.layout, shape) == "shared"


def cute_input(form: CuteForm, shape) -> str | None:
    """The text ttlayout writes and reads back as this very layout: the CuTe text, its prefix saying what the
    text alone cannot: `cute-tv:` / `cute-shared:` where it could be read both ways (`two_readings`), and
    `[ctas=N]` where the layout spans N > 1 CTAs (blocks: the outermost threads, or the top offsets); None where
    there is no CuTe form.

    >>> tv = LinearLayout({"register": [[0, 1]], "lane": [[1, 0]], "warp": [], "block": [[2, 0]]}, ["dim0", "dim1"])
    >>> cute_input(cute_form(tv), [4, 2])
    'cute-tv[ctas=2]: ((_2,_2),_2):((_2,_4),_1)'
    """
    if form.layout is None:
        return None
    word = "tv" if form.kind == "distributed" else "shared"
    params = [f"ctas={form.blocks}"] if form.blocks > 1 else []
    if form.kind == "distributed":
        threads = _thread_count(form.layout) // form.blocks
        if form.lanes != min(DEFAULT_LANES, threads):   # what a reader takes without being told
            params.append(f"lanes={form.lanes}")
    if params:
        return f"cute-{word}[{', '.join(params)}]: {form.text}"
    return f"cute-{word}: {form.text}" if two_readings(form.layout, shape) else form.text


def _thread_count(layout: CuteLayout) -> int:
    from ..attributes.cute import top_modes, tuple_size
    return tuple_size(top_modes(layout.shape)[0])


def cute_text(ll: LinearLayout, kind_name: str | None = None, padded: bool = False) -> str:
    """The CuTe text of a layout; UnsupportedError('no CuTe form: <reason>') where there is none."""
    form = cute_form(ll, kind_name, padded)
    if form.layout is None:
        raise UnsupportedError(f"no CuTe form: {form.reason}")
    return str(form.layout)


__all__ = ["CuteForm", "cute_form", "cute_text", "cute_input", "reads_back_as_shared", "coalesce_bits", "CATEGORIES"]
