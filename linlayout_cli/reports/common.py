"""Small text helpers every report uses: lane ranges, coordinates, shapes, plurals."""
from __future__ import annotations


def models() -> str:
    """What the compiler-model reports (convert, bank, swizzle, audit, advise) say they follow: 'models Triton 3.9'
    (their JSON's "triton" key is `attributes.TRITON`)."""
    from ..attributes import TRITON
    return f"models Triton {TRITON}"


def lane_ranges(lanes) -> str:
    """[0, 1, 2, 3, 20] -> '0-3, 20'."""
    lanes = sorted(int(x) for x in lanes)
    parts, i = [], 0
    while i < len(lanes):
        j = i
        while j + 1 < len(lanes) and lanes[j + 1] == lanes[j] + 1:
            j += 1
        parts.append(str(lanes[i]) if i == j else f"{lanes[i]}-{lanes[j]}")
        i = j + 1
    return ", ".join(parts)


def coord(c) -> str:
    return "(" + ", ".join(str(x) for x in c) + ")"


def shape_text(shape) -> str:
    return "x".join(str(s) for s in shape)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def more_count(total: int, shown: int, form: str = " ... and {} more") -> str:
    """What a list that stops at `shown` of `total` items adds to say how many it left out ("" if none).

    >>> more_count(8, 4), more_count(3, 4), more_count(5, 2, "+{}")
    (' ... and 4 more', '', '+3')
    """
    return form.format(total - shown) if total > shown else ""


# The one cost unit of `audit` and `advise` (analysis/kernel/weights.py, docs/advise_model.md "The weighting"),
# named the same way in both reports and both JSONs.
COST_UNIT = "weighted cost per thread"


def cost_weights_text() -> str:
    """The weights in words: 'wavefront 1, shuffle 1, global instruction 1, sector 2, load line 1, barrier 8'."""
    from ..analysis.kernel.weights import WEIGHTS as w
    return ", ".join(f"{name} {value:g}" for name, value in (
        ("wavefront", w.wavefront), ("shuffle", w.shuffle), ("global instruction", w.global_instruction),
        ("sector", w.sector), ("load line", w.load_line), ("barrier", w.barrier)))


def cost_line() -> str:
    """The line both reports print under their title: what `cost` counts."""
    return f"cost: {COST_UNIT} ({cost_weights_text()}; x8 in loops), the unit audit and advise share"
