"""Shared building blocks of the layout -> LinearLayout conversions (Triton's LayoutUtils / LinearLayoutConversions helpers).

Out dims are named dim0..dim{r-1}; distributed layouts have in dims register, lane, warp, block and shared layouts
offset, block. "order" lists tensor dims from fastest to slowest.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import attributes
from ..engine import LinearLayout
from ..engine.bits import is_pow2
from ..errors import LayoutError, ShapeError


def keeps_broadcast_registers() -> bool:
    """Whether the release modelled (`attributes.active_release`, set by --triton) keeps a blocked layout's
    broadcast register bases (3.2 - 3.8), listing every register of a thread that holds an element several times;
    3.9 drops them."""
    release = attributes.active_release
    return release is not None and release.keeps_broadcast_registers


def swizzles_whole_tensor() -> bool:
    """Whether the release modelled (--triton) lays a swizzled_shared or nvmma_shared out over the whole tensor and
    then cuts it to one CTA's part (3.2, 3.3), rather than over one CTA's part."""
    release = attributes.active_release
    return release is not None and release.swizzle_whole_tensor


def wmma_dot_keeps_k_ctas() -> bool:
    """Whether the release modelled (--triton) gives an amd_wmma dot operand its parent's CGA unchanged, CTAs along K
    included (3.6, 3.7), rather than replicating the CTAs along K."""
    release = attributes.active_release
    return release is not None and release.wmma_dot_parent_cga


def standard_out_dims(rank: int) -> list[str]:
    return [f"dim{i}" for i in range(rank)]


def identity_nd(in_dim: str, sizes: Sequence[int], order: Sequence[int]) -> LinearLayout:
    """Identity over several tensor dims, fastest dim (order[0]) in the lowest in bits; out dims in `order` sequence."""
    dims = list(order)
    if dims and len(set(dims)) == len(dims) and all(type(d) is int and type(sizes[d]) is int and is_pow2(sizes[d])
                                                    for d in dims):
        # the product below, built in one step (a conversion builds several of these): dim order[k] is out dim k,
        # its bits follow those of the dims before it
        n, vecs = len(dims), []
        for k, d in enumerate(dims):
            for b in range(sizes[d].bit_length() - 1):
                vecs.append(tuple(1 << b if j == k else 0 for j in range(n)))
        return LinearLayout({in_dim: vecs}, [(f"dim{d}", sizes[d]) for d in dims], require_surjective=False)
    layout = LinearLayout.empty()
    for d in order:
        layout = layout * LinearLayout.identity1D(sizes[d], in_dim, f"dim{d}")
    return layout


def matrix_order(rank: int, row_major: bool) -> list[int]:
    order = list(range(rank - 1, -1, -1))
    if rank >= 2 and not row_major:
        order[0], order[1] = order[1], order[0]
    return order


def dot_order(op_idx: int, rank: int) -> list[int]:
    return matrix_order(rank, row_major=(op_idx == 0))


def ensure_not_smaller(layout: LinearLayout, shape: Mapping[str, int]) -> LinearLayout:
    """Repeat the layout along each out dim (in the layout's out-dim order) until it covers `shape`, using its first in dim."""
    first_in = layout.in_dims[0]
    for out in layout.out_dims:
        size, want = layout.get_out_dim_size(out), shape[out]
        if size < want:
            layout = layout * LinearLayout.identity1D(want // size, first_in, out)
    return layout


def ensure_not_larger(layout: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool = True) -> LinearLayout:
    """Clamp each out dim to `shape`: components that fall outside become 0 (replication).

    With broadcast_registers=False, register bases that this clamping turns into all-zero bases are dropped
    (so a tensor smaller than sizePerThread has fewer registers, as in Triton's blocked/linear conversion).
    """
    release = attributes.active_release
    if release is not None and release.shrink != "mask":
        return _zero_largest(layout, shape, broadcast_registers, release)
    new_sizes = {}
    for out in layout.out_dims:
        want = shape[out]
        if not is_pow2(want):
            raise ShapeError(f"tensor dimension {out[3:]} has size {want}; layouts need a positive power of two")
        new_sizes[out] = min(layout.get_out_dim_size(out), want)
    clamped_layout = layout
    for out, size in new_sizes.items():          # resize_out_dim clamps the same way, without re-checking
        if size < clamped_layout.get_out_dim_size(out):
            clamped_layout = clamped_layout.resize_out_dim(out, size)
    if broadcast_registers or not layout.has_in_dim("register") or not any(
            any(b) and not any(c) for b, c in zip(layout.get_in_dim_bases("register"),
                                                  clamped_layout.get_in_dim_bases("register"))):
        return clamped_layout                    # no register basis to drop
    outs = layout.out_dims
    bases = {}
    for in_dim, in_bases in layout.get_bases().items():
        kept = []
        for basis in in_bases:
            clamped = tuple(c if c < new_sizes[o] else 0 for c, o in zip(basis, outs))
            if (not broadcast_registers and in_dim == "register" and any(basis) and not any(clamped)):
                continue
            kept.append(clamped)
        bases[in_dim] = kept
    return LinearLayout(bases, [(o, new_sizes[o]) for o in outs], require_surjective=False)


def _zero_largest(layout: LinearLayout, shape: Mapping[str, int], broadcast_registers: bool, release) -> LinearLayout:
    """ensure_not_larger as Triton 3.2 - 3.7 did it: per out dim, zero the largest components first (the order of
    the in dims and bases breaks ties), one per halving, until the size fits; a register basis chosen when
    `broadcast_registers` is False is dropped. 3.2 - 3.4 then infer the out sizes and require a surjective layout,
    3.5 - 3.7 give the sizes and require every component below them: a swizzled basis that keeps a large component
    aborts the release (`release.shrink`: "largest" or "largest_sized").

    E.g. a swizzled_shared laid out over a whole 32-row tensor, shrunk to a CTA's 16 rows: offsets 16 -> (0, 16)
    and 64 -> (2, 16) both reach 16; only the first is zeroed, so dim1 keeps 32 rows and the release aborts.
    """
    outs = layout.out_dims
    bases = {name: [list(b) for b in vecs] for name, vecs in layout.get_bases().items()}
    dropped: set[int] = set()
    sizes = {}
    for i, out in enumerate(outs):
        actual, want = layout.get_out_dim_size(out), shape[out]
        if not is_pow2(want):
            raise ShapeError(f"tensor dimension {out[3:]} has size {want}; layouts need a positive power of two")
        sizes[out] = min(actual, want)
        if actual <= want:
            continue
        found = [(name, k, b[i]) for name, vecs in bases.items() for k, b in enumerate(vecs) if b[i]]
        if not all(is_pow2(v) for _, _, v in found):
            raise _release_abort(release, "Assertion 'isPowerOf2_32(outValue)' failed in ensureLayoutNotLargerThan")
        found.sort(key=lambda t: -t[2])          # stable, as the insertion sort of these short lists is
        for name, k, _ in found:
            if actual <= want:
                break
            if not broadcast_registers and name == "register":
                dropped.add(k)
            else:
                bases[name][k][i] = 0
            actual >>= 1
    if dropped:
        bases["register"] = [b for k, b in enumerate(bases["register"]) if k not in dropped]
    try:
        if release.shrink == "largest":
            result = LinearLayout(bases, outs)
            if any(result.get_out_dim_size(o) != sizes[o] for o in outs):
                raise _release_abort(release, "an out dimension larger than the tensor: 'ret.getOutDimSize(dim) == "
                                              "labeledShape[dim]'")
            return result
        return LinearLayout(bases, [(o, sizes[o]) for o in outs], require_surjective=False)
    except LayoutError as e:
        raise _release_abort(release, "LLVM ERROR: " + str(e).split(":", 1)[0].split(".  ")[0]) from None


def _release_abort(release, why: str):
    from ..attributes.releases import aborts
    return aborts(release, why)


def cga_layout(cga: Sequence[Sequence[int]], rank: int) -> LinearLayout:
    """CGALayout bases as a layout block -> dim0..dim{r-1}, in units of whole CTA tiles (sizes inferred)."""
    return LinearLayout({"block": [tuple(b) for b in cga]}, standard_out_dims(rank))


def cta_split_num(cga: Sequence[Sequence[int]], rank: int) -> list[int]:
    split = [1] * rank
    for basis in cga:
        for d, c in enumerate(basis):
            if c:
                split[d] *= 2
                break
    return split


def shape_per_cta(cga: Sequence[Sequence[int]], shape: Sequence[int]) -> list[int]:
    return [s // min(s, n) for s, n in zip(shape, cta_split_num(cga, len(shape)))]


def combine(cta: LinearLayout, cga: LinearLayout, shape: Sequence[int], broadcast_registers: bool = True) -> LinearLayout:
    """Triton's combineCtaCgaWithShape: fit the per-CTA layout to shape/CTAs, then append the CTA (block) bases."""
    rank = len(shape)
    if cta.num_out_dims != rank:
        raise ShapeError(f"tensor rank {rank} does not match the layout rank {cta.num_out_dims}")
    named = dict(zip(standard_out_dims(rank), shape))
    cga = ensure_not_larger(cga, named).transpose_outs(cta.out_dims)
    cta_shape = {d: max(1, named[d] // cga.get_out_dim_size(d)) for d in cta.out_dims}
    cta = ensure_not_smaller(cta, cta_shape)
    cta = ensure_not_larger(cta, cta_shape, broadcast_registers)
    return (cta * cga).transpose_outs(standard_out_dims(rank))


def check_rank(attr_rank: int, shape: Sequence[int], what: str) -> None:
    if attr_rank != len(shape):
        raise ShapeError(f"tensor rank {len(shape)} does not match the rank {attr_rank} of the {what} layout")
