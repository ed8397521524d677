"""Helpers shared by several test modules (not tests themselves)."""
from __future__ import annotations

import random

BLOCKED = "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>"


def random_blocked(rng: random.Random, shape, lanes=32, warps=None) -> str:
    """A random valid #ttg.blocked for `shape`: up to 8 elements per thread, `lanes` lanes, 1-4 warps."""
    rank = len(shape)
    order = list(range(rank))
    rng.shuffle(order)

    def split(total):
        parts = [1] * rank
        while total > 1:
            d = rng.randrange(rank)
            parts[d] *= 2
            total //= 2
        return parts
    spt = [min(s, x) for s, x in zip(shape, split(rng.choice([1, 2, 4, 8])))]
    return BLOCKED.format(spt, split(lanes), split(warps or rng.choice([1, 2, 4])), order)


def warm_up(run) -> None:
    """Run every converter and both renderers once, so that no Hypothesis example pays an import (deadline)."""
    for attr in ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>",
                 "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>",
                 "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"):
        for ttype in ("tensor<16x16xf16>", "tensor<128x128xf16>"):      # plain-Python and numpy renderers
            for hw in ([], ["--use-hw-view"]):
                run(["-l", attr, "-t", ttype] + hw)
