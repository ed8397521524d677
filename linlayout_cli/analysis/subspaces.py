"""Subspaces of GF(2)^dim over flattened vectors (one int per basis vector, dim0 least significant): the
building blocks of Triton's generic swizzling (lib/Tools/GenericSwizzling.cpp), shared by `swizzle` and the
scratch layouts of `convert`.

Example: in GF(2)^3, span{0b011, 0b100} ∩ span{0b001, 0b010} = span{0b011}."""
from __future__ import annotations

from ..engine.bits import is_pow2
from ..engine.gf2 import rref


def nullspace_basis(vectors: list[int], dim: int) -> list[int]:
    """Basis of {x : <v, x> = 0 for every v}, one vector per free column, ascending (Triton's nullspaceBasis)."""
    rows, pivots = rref(vectors, dim)
    basis = []
    for free in range(dim):
        if free in pivots:
            continue
        vec = 1 << free
        for r, p in zip(rows, pivots):
            if r >> free & 1:
                vec ^= 1 << p
        basis.append(vec)
    return basis


def intersection_basis(b1: list[int], b2: list[int], dim: int) -> list[int]:
    """Triton's ``intersectionBasis``: a basis of span(b1) ∩ span(b2), in Triton's order."""
    if all(is_pow2(x) for x in b1) and all(is_pow2(x) for x in b2):
        s2 = set(b2)
        return [b for b in b1 if b != 0 and b in s2]
    return nullspace_basis(nullspace_basis(b1, dim) + nullspace_basis(b2, dim), dim)


def complement_basis(basis: list[int], dim: int) -> list[int]:
    """Unit vectors completing ``basis`` to the whole space (the non-pivot columns, ascending)."""
    pivots = set(rref(basis, dim)[1])
    return [1 << i for i in range(dim) if i not in pivots]


def compute_segment(bank_src: list[int], bank_dst: list[int], dim: int, length: int) -> list[int]:
    """Triton's ``computeSegment``."""
    set_src = set(bank_src) - {0}
    set_dst = set(bank_dst) - {0}
    segment = [1 << b for b in range(dim) if (1 << b) not in set_src and (1 << b) not in set_dst]
    if len(segment) >= length:
        return segment[:length]
    a = sorted(set_src - set_dst)
    b = sorted(set_dst - set_src)
    if len(a) > len(b):
        a, b = b, a
    log_conflicts = min(max(0, length - len(a) - len(segment)), len(a))
    for i in range(log_conflicts, len(a)):
        segment.append(a[i] ^ b[i])
    segment += a[:log_conflicts]
    segment += b[:log_conflicts]
    return segment[:length]
