"""CuTe layout + tensor shape -> LinearLayout, and the Triton attribute that is the same layout.

Two readings, as TLX's `tlx.dump_layout` writes them (docs/cute.md):

* thread-value (distributed): `(THREAD, VALUE):(...)`, two top-level modes. The layout maps (thread, value) to the
  *row-major* index of the element (the last tensor dim fastest), thread = lane + lanes x (warp + warps x block),
  value = register. `lanes` (32 unless given; fewer when the thread mode is smaller than a warp) and `blocks`
  (1 unless given) split the thread mode.
* shared: `[Swizzle<B,M,S> o] SHAPE:STRIDE`, element -> offset. Its top-level modes are the tensor dims (dim0
  first, each of the dim's size; a 1-D tensor may take the whole layout), or one mode over the row-major element
  index. The offsets must be a bijection onto 0..N-1 (N elements); with `blocks` > 1 the top offset bits pick
  the block.

A CuTe layout is a Triton (GF(2)-linear) layout exactly when every mode size is a power of two and the binary
digits its strides can set never overlap: then the integer sum of the strides is their XOR. Anything else is one
line naming the mode. `cute_kind` says which reading text takes when the caller does not know.
"""
from __future__ import annotations

from ..attributes.cute import CuteLayout, int_tuple_text, leaves, top_modes, tuple_size
from ..engine import LinearLayout, gf2
from ..engine.bits import is_pow2, log2
from ..errors import ShapeError
from .common import standard_out_dims
from .named import linear_attribute, named_attribute

DISTRIBUTED, SHARED = "distributed", "shared"


def _type_text(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + ">"


def row_major_shifts(shape) -> list[int]:
    """Bit position of each dim in the row-major element index (last dim lowest), TLX's flattening.

    >>> row_major_shifts([4, 8, 2])
    [4, 1, 0]
    """
    shifts, s = [0] * len(shape), 0
    for d in range(len(shape) - 1, -1, -1):
        shifts[d] = s
        s += log2(shape[d])
    return shifts


def element_bit_name(bit: int, shape) -> str:
    """'dim1 bit 2' for a bit of the row-major element index."""
    shifts = row_major_shifts(shape)
    for d in range(len(shape)):
        if shifts[d] <= bit < shifts[d] + log2(shape[d]):
            return f"dim{d} bit {bit - shifts[d]}"
    return f"element index bit {bit}"


def row_major_index(coords, shape) -> int:
    """Coordinates (dim0 first) -> row-major element index: TLX's flattening of a basis into one stride.

    >>> row_major_index((1, 2), [4, 8])
    10
    """
    return sum(c << s for c, s in zip(coords, row_major_shifts(shape)))


def row_major_coords(index: int, shape) -> tuple[int, ...]:
    """Row-major element index -> coordinates (dim0 first)."""
    return tuple((index >> s) & (n - 1) for s, n in zip(row_major_shifts(shape), shape))


# ----------------------------------------------------------------------------------------- modes -> bits


def _named_leaves(shape, stride, label: str) -> list[tuple[str, int, int]]:
    """(name, size, stride) of each leaf mode, named for messages: 'thread mode 2 (_2:_0)'."""
    out = []
    for k, (n, s) in enumerate(zip(leaves(shape), leaves(stride))):
        out.append((f"{label} mode {k} ({int_tuple_text(n)}:{int_tuple_text(s)})", n, s))
    return out


def _bit_strides(named) -> list[tuple[str, int]]:
    """(mode name, stride) for every binary digit of the modes' coordinates, low digits first: a mode of size
    2^k and stride s gives s, 2s, ..., 2^(k-1) s."""
    bits = []
    for name, n, s in named:
        if not is_pow2(n):
            raise ShapeError(f"{name} has size {n}: a Triton layout needs every CuTe mode size to be a power of two")
        if s < 0:
            raise ShapeError(f"{name} has a negative stride: a Triton layout's strides are non-negative")
        bits += [(name, s << i) for i in range(log2(n))]
    return bits


def _check_no_carry(bits, limit_bits: int, what: str) -> None:
    """The strides' binary digits must not overlap (then their sum is their XOR) and stay below 2^limit_bits."""
    owner: dict[int, tuple[str, int]] = {}
    for name, s in bits:
        if s >> limit_bits:
            raise ShapeError(f"{name} reaches {what} {s}, beyond the {1 << limit_bits} of the tensor")
        for b in range(s.bit_length()):
            if s >> b & 1:
                if b in owner:
                    other, t = owner[b]
                    raise ShapeError(f"{other} and {name} overlap: strides {t} and {s} both set bit {b} of the "
                                     f"{what}, so CuTe's sum carries where a Triton layout XORs")
                owner[b] = (name, s)


def _check_onto(bits, limit_bits: int, shape, what: str) -> None:
    reached = 0
    for _, s in bits:
        reached |= s
    for b in range(limit_bits):
        if not reached >> b & 1:
            where = f" ({element_bit_name(b, shape)})" if what == "element index" else ""
            raise ShapeError(f"no mode reaches bit {b} of the {what}{where}: the layout does not cover the "
                             f"{1 << limit_bits} {'elements' if what == 'element index' else 'offsets'} of "
                             f"{_type_text(shape)} one to one")


# ----------------------------------------------------------------------------------------- which reading


def _dims_match(layout: CuteLayout, shape) -> bool:
    modes = top_modes(layout.shape)
    return len(modes) == len(shape) and all(tuple_size(m) == s for m, s in zip(modes, shape))


DEFAULT_LANES = 32          # lanes per warp a thread mode splits into when nothing says otherwise


def two_readings(layout: CuteLayout, shape) -> bool:
    """Whether CuTe text reads both ways at `shape`: no swizzle, and two top-level modes that have the sizes of a
    2-D tensor's dims (a shared layout's one mode per dim, or a thread-value layout's (thread, value))."""
    return layout.swizzle is None and len(shape) == 2 and _dims_match(layout, shape)


def cute_kind(layout: CuteLayout, shape) -> str:
    """'shared' or 'distributed': a swizzle, or top-level modes that are the tensor's dims (or one mode over all
    its elements), read as element -> offset; two top-level modes otherwise read as (thread, value)."""
    n = 1
    for s in shape:
        n *= s
    modes = top_modes(layout.shape)
    if layout.swizzle is not None or _dims_match(layout, shape) or (len(modes) == 1 and layout.size == n):
        return SHARED
    if len(modes) == 2:
        return DISTRIBUTED
    raise ShapeError(f"{layout} fits {_type_text(shape)} neither as a thread-value layout (two top-level modes, "
                     f"(thread, value)) nor as a shared layout (one top-level mode per tensor dim, of its size)")


# ----------------------------------------------------------------------------------------- thread-value


def _coords(flats, shape) -> list[tuple[int, ...]]:
    return [row_major_coords(x, shape) for x in flats]


def _thread_value_ll(layout: CuteLayout, shape, lanes: int, blocks: int) -> LinearLayout:
    modes = layout.modes()
    if layout.swizzle is not None:
        raise ShapeError(f"a swizzle composes a shared layout, not a thread-value layout: {layout}")
    if len(modes) != 2:
        raise ShapeError(f"a thread-value layout has two top-level modes, (thread, value); {layout} has {len(modes)}")
    (t_shape, t_stride), (v_shape, v_stride) = modes
    threads = _bit_strides(_named_leaves(t_shape, t_stride, "thread"))
    values = _bit_strides(_named_leaves(v_shape, v_stride, "value"))
    total = sum(log2(s) for s in shape)
    _check_no_carry(threads + values, total, "element index")
    _check_onto(threads + values, total, shape, "element index")
    n_threads = 1 << len(threads)
    if not (is_pow2(blocks) and blocks <= n_threads):
        raise ShapeError(f"{blocks} blocks do not divide the thread mode's {n_threads} threads")
    if not is_pow2(lanes):
        raise ShapeError(f"{lanes} lanes per warp is not a power of two")
    lane_bits = log2(min(lanes, n_threads // blocks))
    block_bits = log2(blocks)
    warp_bits = len(threads) - lane_bits - block_bits
    flat_t = [s for _, s in threads]
    bases = {"register": _coords([s for _, s in values], shape),
             "lane": _coords(flat_t[:lane_bits], shape),
             "warp": _coords(flat_t[lane_bits:lane_bits + warp_bits], shape),
             "block": _coords(flat_t[lane_bits + warp_bits:], shape)}
    return LinearLayout(bases, list(zip(standard_out_dims(len(shape)), shape)))


# ----------------------------------------------------------------------------------------- shared


def _element_bits(layout: CuteLayout, shape) -> list[tuple[str, int]]:
    """(mode name, base offset) for each bit of the row-major element index, lowest first."""
    shifts = row_major_shifts(shape)
    total = sum(log2(s) for s in shape)
    per_bit: list = [None] * total
    if _dims_match(layout, shape):
        for d, (m_shape, m_stride) in enumerate(layout.modes()):
            bits = _bit_strides(_named_leaves(m_shape, m_stride, f"dim{d}"))
            for k, item in enumerate(bits):
                per_bit[shifts[d] + k] = item
        return per_bit
    if len(shape) == 1 and layout.size == shape[0]:
        return _bit_strides(_named_leaves(layout.shape, layout.stride, "dim0"))
    if len(top_modes(layout.shape)) == 1 and layout.size == 1 << total:
        return _bit_strides(_named_leaves(layout.shape, layout.stride, "element-index"))
    raise ShapeError(f"the shared layout {layout} has shape {int_tuple_text(layout.shape)}, which is not "
                     f"{_type_text(shape)}: it needs one top-level mode per tensor dim, of the dim's size "
                     "(or one mode over all the elements, row-major)")


def _shared_ll(layout: CuteLayout, shape, blocks: int) -> LinearLayout:
    bits = _element_bits(layout, shape)
    total = len(bits)
    for name, s in bits:
        if s == 0:
            raise ShapeError(f"{name} has stride 0: it puts several elements at one offset, and a shared layout "
                             "needs one offset per element")
    _check_no_carry(bits, total, "offset")
    _check_onto(bits, total, shape, "offset")
    offsets = [s for _, s in bits]
    sw = layout.swizzle
    if sw is not None:
        swizzled = [sw.apply(s) for s in offsets]
        for (name, _), o in zip(bits, swizzled):
            if o >> total:
                raise ShapeError(f"{sw} moves {name} to offset {o}, beyond the {1 << total} offsets of the tensor")
        offsets = swizzled
        if gf2.rank(offsets) != total:
            raise ShapeError(f"{sw} maps two elements to one offset")
    if not (is_pow2(blocks) and blocks <= 1 << total):
        raise ShapeError(f"{blocks} blocks do not divide the {1 << total} offsets")
    # element bit e -> offset offsets[e]; invert: offset bit j -> the element bits whose offsets XOR to 2^j
    combos = [c for c in gf2.solve(offsets, [1 << j for j in range(total)]) if c is not None]
    assert len(combos) == total                  # the offsets are independent: every offset bit is reached
    elements = [row_major_coords(combo, shape) for combo in combos]     # element bit e is index bit e
    n_offset = total - log2(blocks)
    return LinearLayout({"offset": elements[:n_offset], "block": elements[n_offset:]},
                        list(zip(standard_out_dims(len(shape)), shape)))


# ----------------------------------------------------------------------------------------- public


def cute_to_linear(layout: CuteLayout, shape, *, kind: str | None = None, lanes: int = 32,
                   blocks: int = 1) -> LinearLayout:
    """The LinearLayout of a CuTe layout on a tensor of `shape`: in dims register, lane, warp, block (thread-value)
    or offset, block (shared); out dims dim0.. in order. `kind` forces a reading ('distributed' or 'shared').

    >>> ll = cute_to_linear(CuteLayout(((32, 2, 2), 1), ((1, 32, 0), 0)), [64], lanes=32)
    >>> ll.get_in_dim_bases("warp")
    ((32,), (0,))
    """
    shape = list(shape)
    for s in shape:
        if not is_pow2(s):
            raise ShapeError(f"tensor dimension of size {s} is not supported: every dimension must be a positive "
                             "power of two")
    kind = kind or cute_kind(layout, shape)
    if kind == DISTRIBUTED:
        return _thread_value_ll(layout, shape, lanes, blocks)
    if kind == SHARED:
        return _shared_ll(layout, shape, blocks)
    raise ValueError(f"kind must be {DISTRIBUTED!r} or {SHARED!r}, not {kind!r}")


def cute_to_attribute(layout: CuteLayout, shape, *, kind: str | None = None, lanes: int = 32, blocks: int = 1):
    """The Triton attribute a CuTe layout is on `shape`: the named kind where one gives exactly these bases
    (#ttg.blocked, #ttg.swizzled_shared), else #ttg.linear / #ttg.shared_linear.

    >>> str(cute_to_attribute(CuteLayout(((32, 2, 2), 1), ((1, 32, 0), 0)), [64]))
    '#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>'
    """
    ll = cute_to_linear(layout, shape, kind=kind, lanes=lanes, blocks=blocks)
    return named_attribute(ll, list(shape)) or linear_attribute(ll)


__all__ = ["cute_to_linear", "cute_to_attribute", "cute_kind", "row_major_shifts",
           "row_major_coords", "row_major_index", "element_bit_name", "DISTRIBUTED", "SHARED"]
