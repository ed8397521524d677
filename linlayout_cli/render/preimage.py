"""Inverting a flat GF(2) map: one preimage per output bit plus a basis of the kernel.

Every element reached by a layout is reached by exactly the coset x0 ^ span(kernel), which is what a tensor-view
cell lists; Python ints suffice since layouts have at most 64 bits.
"""
from __future__ import annotations


def solve(flat_bases, out_bits: int):
    """Return (preimage of each out bit or None, kernel basis) of x -> XOR of flat_bases[j] for set bits j of x."""
    rows: dict[int, tuple[int, int]] = {}      # leading bit -> (value, input combination)
    kernel = []
    for i, v in enumerate(int(b) for b in flat_bases):
        combo = 1 << i
        while v:
            lead = v.bit_length() - 1
            if lead not in rows:
                rows[lead] = (v, combo)
                break
            rv, rc = rows[lead]
            v ^= rv
            combo ^= rc
        else:
            kernel.append(combo)
    leads = sorted(rows, reverse=True)
    pre = []
    for j in range(out_bits):
        t, c = 1 << j, 0
        for lead in leads:
            if t >> lead & 1:
                rv, rc = rows[lead]
                t ^= rv
                c ^= rc
        pre.append(c if t == 0 else None)
    return pre, kernel
