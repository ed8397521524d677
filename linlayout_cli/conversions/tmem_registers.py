"""The register layout a `tmem_load` / `tmem_store` gives (Triton's getDistributedLayoutForTmemLdSt).

A tcgen05.ld/st message moves a fixed tile between TMEM and one warp (32x32b: lane i <-> row i; 16xNb: 16 rows,
N bits per row, spread over lanes and registers); warps 0-3 of a warpgroup own rows 0-31, 32-63, ... Sub-32-bit
elements are packed along columns first; the layout is the message tile, repeated, composed with the TMEM layout.
"""
from __future__ import annotations

from ..engine import LinearLayout
from ..engine.bits import is_pow2
from ..errors import ShapeError, UnsupportedError
from .tmem import DIMS

ATOMS = ("32x32b", "16x64b", "16x128b", "16x256b")
_ROW, _COL, _REG, _LANE, _WARP = "row", "col", "register", "lane", "warp"


def divide_left(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """C with a == b * c (Triton's divideLeft), or None: b's bases lead a's, the rest shift down by b's sizes."""
    shift = {o: b.get_out_dim_size_log2(o) for o in b.out_dims}
    shifts = [shift.get(o, 0) for o in a.out_dims]
    bases = {}
    for d, vecs in a.get_bases().items():
        lead = b.get_in_dim_bases(d) if b.has_in_dim(d) else ()
        want = [tuple(v[b.out_dims.index(o)] if o in b.out_dims else 0 for o in a.out_dims) for v in lead]
        if list(vecs[:len(want)]) != want:
            return None
        rest = vecs[len(want):]
        if any(c & ((1 << s) - 1) for v in rest for c, s in zip(v, shifts)):
            return None
        bases[d] = [tuple(c >> s for c, s in zip(v, shifts)) for v in rest]
    outs = [(o, a.get_out_dim_size(o) >> s) for o, s in zip(a.out_dims, shifts)]
    return LinearLayout(bases, outs, require_surjective=False)


def message_tile(atom: str) -> LinearLayout:
    """One message of one warp: register, lane -> TMEM row, col (32-bit columns)."""
    tile = LinearLayout({_REG: [], _LANE: []}, [(_ROW, 1), (_COL, 1)])
    if atom == "32x32b":
        return tile * LinearLayout.identity1D(32, _LANE, _ROW)
    if atom == "16x64b":
        return tile * LinearLayout({_LANE: [(8, 0), (0, 1), (1, 0), (2, 0), (4, 0)]}, [_ROW, _COL])
    cols = LinearLayout.identity1D(2, _REG, _COL) if atom == "16x256b" else LinearLayout.empty()
    return (tile * cols * LinearLayout.identity1D(4, _LANE, _COL) * LinearLayout.identity1D(8, _LANE, _ROW)
            * LinearLayout.identity1D(2, _REG, _ROW))


def _pack(tmem: LinearLayout, atom: str, warps: int, bits: int):
    """Sub-32-bit elements: contiguous column pairs/quads share a register, else one element per 32 bits."""
    quot, best, contig = tmem, 1, 2
    while bits * contig <= 32:
        q = divide_left(tmem, LinearLayout.identity1D(contig, _COL, DIMS[1]))
        if q is None:
            break
        quot, best, contig = q, contig, contig * 2
    if best > 1:
        inner = _layout(quot, atom, warps, bits * best)
        return inner and LinearLayout.identity1D(best, _REG, DIMS[1]) * inner
    spread = LinearLayout.zeros1D(32 // bits, _COL, DIMS[1])
    unpacked = divide_left(tmem, spread * LinearLayout.identity1D(2, _COL, DIMS[1]))
    if bits == 16 and unpacked is not None:
        inner = _layout(unpacked, atom, warps, 32)
        return inner and LinearLayout.identity1D(2, _REG, DIMS[1]) * inner
    padded = divide_left(tmem, spread)
    if padded is not None:
        return _layout(padded, atom, warps, 32)
    if tmem.get_in_dim_size(_COL) == 1:
        return _layout(tmem, atom, warps, 32)
    raise UnsupportedError(f"{bits}-bit elements are neither packed nor unpacked in this tensor memory layout")


def _layout(tmem: LinearLayout, atom: str, warps: int, bits: int) -> LinearLayout | None:
    if bits != 32:
        return _pack(tmem, atom, warps, bits)
    tile = message_tile(atom)
    missing = tmem.get_in_dim_size(_COL) // tile.get_out_dim_size(_COL)
    if missing == 0:
        return None
    rows32, rows16 = atom == "32x32b", tmem.get_basis(_ROW, 4) == (0, 0)
    reach = tile.compose(tmem).sublayout([_REG, _LANE], DIMS)
    if rows32:
        reach = reach.resize_in_dim(_LANE, 16)      # lane 16 may go to a 16x32bx2 message
    if not reach.is_injective():
        return None
    row16 = None if rows32 or rows16 else (_WARP if warps > 4 else _REG)
    tiled = warps // (8 if row16 == _WARP else 4)
    broadcast = tiled // min(missing, tiled)
    tiled //= broadcast
    missing //= tiled
    if missing > 1 and rows32 and rows16:           # lane 16 loads the second half of the columns instead
        left = divide_left(tile, LinearLayout.identity1D(2, _LANE, _ROW))
        assert left is not None                 # rows16: the tile's lanes step rows, so it divides
        tile = (left * LinearLayout.identity1D(missing // 2, _REG, _COL)
                * LinearLayout.identity1D(2, _LANE, _COL))
    elif missing > 1:
        tile = tile * LinearLayout.identity1D(missing, _REG, _COL)
    bases = {d: list(v) for d, v in tile.get_bases().items()}
    bases[_WARP] = [(32, 0), (64, 0)]
    if row16:
        bases[row16].append((16, 0))
    tile = LinearLayout(bases, [(_ROW, 128), (_COL, tile.get_out_dim_size(_COL))], require_surjective=False)
    tile = tile * LinearLayout.identity1D(tiled, _WARP, _COL) * LinearLayout.zeros1D(broadcast, _WARP, _COL)
    return tile.compose(tmem)


def register_layout(tmem: LinearLayout, atom: str, warps: int, bits: int) -> LinearLayout:
    """tmem_load's register layout (register, lane, warp, block -> tensor) for `warps` warps and message `atom`."""
    if warps < 4 or not is_pow2(warps):
        raise ShapeError(f"tmem_load's warps must be a power of two and at least 4, got {warps}")
    cta = LinearLayout(tmem.sublayout([_ROW, _COL], DIMS).get_bases(), DIMS)   # sizes: the per-CTA shape
    layout = _layout(cta, atom, warps, bits)
    if layout is None:
        raise UnsupportedError(f"Triton has no {atom} tmem_load register layout for this tensor memory layout "
                               f"with {warps} warps")
    bases = layout.transpose_outs(DIMS).get_bases()
    bases["block"] = tmem.get_in_dim_bases("block")            # whole-tensor coordinates already
    return LinearLayout({d: bases[d] for d in (_REG, _LANE, _WARP, "block")}, tmem.get_out_dims(),
                        require_surjective=False)
