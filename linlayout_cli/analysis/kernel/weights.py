"""The one cost unit of `audit` and `advise`: each op's weighted cost per thread (docs/advise_model.md, "The
weighting"), and the cost the same op would have at its best (`ideal`) in the same unit.

A row's cost is its static per-thread counts (`Finding.counts`, Membar's barriers included) weighed:
shared-memory wavefronts (instructions x (1 + conflicts)), shuffles, barriers, and for global accesses the
instructions plus the 32-byte sectors a warp store (atomic, cp.async) writes or the 128-byte lines a warp load
touches; x LOOP_WEIGHT inside a loop. `audit` shows it per row and ranks by `cost - ideal`; `advise` sums it over
the kernel (`kernel_cost`), so the two commands price one kernel with one number.

Worked example (the calibration's first store, docs/advise_model.md): 64 `st.global.v4.b32` per thread at 16
sectors per warp access cost 64 x (1 + 2 x 16) = 2112; at 4 sectors, 64 x (1 + 2 x 4) = 576.
"""
from __future__ import annotations

import math

from ...records import frozen, replace
from ..kinds import Category
from .facts import AsyncCopy, Convert, GlobalAccess, SharedAccess
from .findings import LOOP_WEIGHT, Finding


@frozen
class Weights:
    """What one unit of each count costs (docs/advise_model.md gives the sources): a shared-memory wavefront (an
    instruction and each extra wavefront its bank conflicts add), a barrier, a shuffle, a global memory
    instruction, each 32-byte sector a warp's global store (or atomic, cp.async) writes through to L2, and each
    128-byte line a warp's global load touches in L1 (one L1 data-stage cycle, like a wavefront)."""
    wavefront: float = 1.0
    barrier: float = 8.0
    shuffle: float = 1.0
    global_instruction: float = 1.0
    sector: float = 2.0
    load_line: float = 1.0


WEIGHTS = Weights()
LOAD_OPS = ("tt.load", "amdg.buffer_load")
LINE_BYTES = 128


def _global(facts, op: str, w: Weights) -> float:
    """A global access's weighted cost: instructions x (one + its lines (loads) or sectors (the others))."""
    n = facts.instructions_per_thread
    lines = facts.lines_per_warp_access if isinstance(facts, GlobalAccess) else None
    if lines is not None and op in LOAD_OPS:
        return n * (w.global_instruction + w.load_line * lines)
    sectors = facts.sectors_per_warp_access
    return n * (w.global_instruction + w.sector * (sectors if sectors is not None else 1))


def op_cost(f: Finding, w: Weights = WEIGHTS) -> float | None:
    """One op's weighted cost per execution; None where the model does not count the op (a row "not analysed"
    or "not modelled")."""
    facts, counts = f.facts, f.counts
    if counts is None:
        if isinstance(facts, GlobalAccess):                 # an atomic: priced as a store
            return _global(facts, f.op, w) + w.barrier * f.membar
        return None
    conflicts = facts.bank_conflicts if isinstance(facts, (Convert, SharedAccess, AsyncCopy)) else None
    if isinstance(conflicts, dict):
        store, load = conflicts.get("store") or 0, conflicts.get("load") or 0
    else:
        store = load = conflicts or 0
    cost = (w.wavefront * (counts.get("shared_stores", 0) * (1 + store) + counts.get("shared_loads", 0) * (1 + load))
            + w.shuffle * counts.get("shuffles", 0) + w.barrier * counts.get("barriers", 0))
    if isinstance(facts, (AsyncCopy, GlobalAccess)):
        cost += _global(facts, f.op, w)
        if isinstance(facts, AsyncCopy):
            cost += w.wavefront * facts.instructions_per_thread * (1 + facts.bank_conflicts)
    return cost


def ideal_cost(f: Finding, legacy_ideal: float, warp_size: int, w: Weights = WEIGHTS) -> float:
    """The op's weighted cost at its best, per execution: 0 for a convert (the value could have been made in the
    layout it is used in); else Membar's barriers at the op (no layout removes them) plus, by kind: the fewest 128-bit
    instructions, conflict-free, for a shared access; those instructions over the fewest sectors (lines) the
    bytes fill for a global access or cp.async; the shuffle rounds of a reduction within a warp.
    `legacy_ideal` is the kind's ideal count per execution the op's model gave (instructions, or rounds)."""
    facts = f.facts
    if isinstance(facts, Convert):
        return 0.0
    out = w.barrier * f.membar
    if isinstance(facts, SharedAccess):
        return out + w.wavefront * legacy_ideal
    if isinstance(facts, (GlobalAccess, AsyncCopy)):
        n, n_ideal = facts.instructions_per_thread, max(1, round(legacy_ideal))
        per_access = getattr(facts, "ideal_sectors", None)
        unit = getattr(facts, "sector_bytes", None) or 32
        if per_access is None:
            per_access = max(1, math.ceil(warp_size * facts.vector_bits / 8 / unit))
        total_bytes = n * per_access * unit
        if f.op in LOAD_OPS and isinstance(facts, GlobalAccess) and facts.lines_per_warp_access is not None:
            out += n_ideal * w.global_instruction + w.load_line * max(1, math.ceil(total_bytes / LINE_BYTES))
        else:
            out += n_ideal * w.global_instruction + w.sector * max(1, math.ceil(total_bytes / unit))
        if isinstance(facts, AsyncCopy):
            out += w.wavefront * n_ideal
        return out
    if f.category in (Category.REDUCE, Category.SCAN):      # its rounds within a warp, as shuffles
        return out + w.shuffle * legacy_ideal
    return math.inf                                         # a dot, TMA copy, buffer: no layout makes it cheaper


def weighed(f: Finding, warp_size: int, barriers: int = 0, prices: dict | None = None,
            w: Weights = WEIGHTS) -> Finding:
    """The row with Membar's `barriers` at it added to `membar`, and `cost` and `ideal` in the weighted unit (loops
    weighed); a row the model does not count keeps what it has (0 for a problem row). `prices`: (cost, ideal) by
    what they depend on, for the rows of a repeated op (the objects in the key are kept in the value, so their ids
    stay theirs). One copy of the row at most."""
    membar = f.membar + barriers
    if prices is None:
        price = _price(f, membar, warp_size, w)
    else:
        key = (id(f.facts), id(f.conversion), id(f.instructions), f.op, f.category, f.problem, membar, f.ideal,
               bool(f.loops), warp_size, id(w))
        known = prices.get(key)
        if known is None:
            known = prices[key] = (_price(f, membar, warp_size, w), f.facts, f.conversion, f.instructions, w)
        price = known[0]
    changes: dict[str, float] = {}
    if barriers:
        changes["membar"] = membar
    if price is not None:
        changes["cost"], changes["ideal"] = price
    return replace(f, **changes) if changes else f


def _price(f: Finding, membar: int, warp_size: int, w: Weights) -> tuple[float, float] | None:
    """(cost, ideal) of a row with `membar` barriers at it, loops weighed; None where the model does not count it."""
    if membar != f.membar:
        f = replace(f, membar=membar)
    cost = op_cost(f, w)
    if cost is None:
        return None
    weight = LOOP_WEIGHT if f.loops else 1
    ideal = ideal_cost(f, f.ideal / weight, warp_size, w)
    return cost * weight, min(cost, ideal) * weight


def kernel_cost(audit) -> float:
    """The weighted cost of a whole module: its rows' `cost` added up (loops weighed)."""
    return sum(f.cost for f in audit.findings)
