"""What the audit returns: one `Finding` per op that makes a layout decision, the instructions at ops that are
no row (`Extra`), the kernel's shared memory (`SharedUse`) and the module's audit (`ModuleAudit`)."""
from __future__ import annotations

from ...records import frozen, frozen_slots
from ..kinds import Category, Status
from ..targets import READ, Target
from .facts import AsyncCopy, BufferInfo, Convert, Facts, GlobalAccess, SharedAccess, Tma

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: convert loads when a dump has a convert_layout
    from ...parsing.sections import Section
    from ..convert import ConvertReport

LOOP_WEIGHT = 8                  # an op inside a loop weighs this much (a dump does not tell the trip count)
GLOBAL_COUNTED = ("tt.load", "tt.store", "amdg.buffer_load", "amdg.buffer_store",
                  "amdg.buffer_load_to_local")   # atomics are not counted


@frozen_slots
class Finding:
    """One op's row: what it is, where it comes from, and what its layouts cost. Slotted: a one-function dump of
    450,000 ops keeps 450,000 rows, about 200 bytes each instead of a dict's 1 KB."""
    op: str
    line: int                        # line of the dump
    loc: str | None                  # Python file:line:col
    loops: int
    category: Category
    layouts: tuple[str, ...]         # as the dump names them (#blocked, #mma, or the attribute text)
    attrs: tuple[str, ...]           # the same layouts printed canonically
    shape: tuple[int, ...]
    element: str
    status: Status                   # ANALYSED, or why not (reports/audit.py words every row from its facts)
    cost: float
    facts: Facts | None = None       # what the op's model found (None: not analysed)
    scratch_bytes: int = 0
    problem: str = ""                # why the op is not analysed / not modelled (then `status` says which)
    conversion: ConvertReport | None = None  # of a convert_layout
    instructions: dict | None = None  # counts the op's analysis computed (reductions, scans), in COUNT_CLASSES
    frames: tuple = ()               # the op's source frames, innermost first ((file, line, col), ...)
    membar: int = 0                  # barriers Triton's Membar pass puts at this op (analysis/membar.py)
    ideal: float = 0.0               # the op's cost at its best (`ideal_cost`), in the same unit, loops weighed
    buffer: BufferInfo | None = None  # of a local_alloc: the buffer it makes

    @property
    def waste(self) -> float:
        """Cost above the op's ideal (0 for an op that is as cheap as it can be)."""
        return max(0.0, self.cost - self.ideal)

    @property
    def counts(self) -> dict | None:
        """The op's static instruction counts per thread in the assembly's classes (`COUNT_CLASSES`: what the
        compiled code of this op holds, once, loops not unrolled), or None where the model does not count this op.

        A convert counts its lowering (`convert` model); a register <-> shared access its ld/st.shared (ldmatrix,
        stmatrix; ds_read / ds_write) instructions; a global access its load or store instructions, a TMA copy its
        `cp.async.bulk.tensor` (global loads or stores; `analysis/kernel/tma.py`); a reduction or
        scan its shuffles and its rounds through shared memory (analysis/reduction.py); dots issue
        none of these classes themselves (a warp_group_dot of two warp groups: one warp-index shuffle). Every op
        also counts the barriers Triton's Membar pass inserts at it (`membar`). docs/audit_model.md states each
        rule; `ModuleAudit.extras` holds what the compiled code has at ops that are no row."""
        base = self._own_counts()
        if base is not None and self.membar:
            base["barriers"] += self.membar
        return base

    def _own_counts(self) -> dict | None:
        """`counts` without Membar's barriers."""
        if self.problem:
            return None
        zero = dict.fromkeys(COUNT_CLASSES, 0)
        if self.instructions is not None:
            return zero | self.instructions
        facts = self.facts
        if isinstance(facts, Convert):
            from ..convert import assembly_counts
            p = assembly_counts(self.conversion) if self.conversion is not None else facts.per_thread
            return zero | {"shared_loads": p["shared_loads"], "shared_stores": p["shared_stores"],
                           "shuffles": p["shuffles"], "barriers": p["barriers"]}
        if isinstance(facts, AsyncCopy):     # AMD's direct-to-LDS loads are global loads; NVIDIA's cp.async is not
            return zero | ({"global_loads": facts.instructions_per_thread}
                           if facts.instruction.startswith("global_load_lds") else {})
        if isinstance(facts, SharedAccess):
            key = "shared_loads" if facts.access == READ else "shared_stores"
            return zero | {key: facts.issued if facts.issued is not None else facts.instructions_per_thread}
        if isinstance(facts, GlobalAccess) and self.op in GLOBAL_COUNTED:
            key = "global_stores" if self.op.endswith("store") else "global_loads"
            return zero | {key: facts.instructions_per_thread}
        if isinstance(facts, Tma) and facts.instructions_per_thread is not None:
            key = "global_loads" if self.op == "ttng.async_tma_copy_global_to_local" else "global_stores"
            return zero | {key: facts.instructions_per_thread}
        if self.category in (Category.TMA, Category.DOT, Category.BUFFER):
            return zero
        return None



# The instruction classes an op is counted in, as the assembly names them (NVIDIA / AMD):
# shared_loads ld.shared*, ldmatrix* / ds_read*; shared_stores st.shared*, stmatrix* / ds_write*;
# shuffles shfl.sync* / ds_bpermute*, ds_swizzle*, v_permlane*, DPP; barriers bar.sync, barrier.sync / s_barrier;
# global_loads ld.global* / global_load*, buffer_load*; global_stores st.global* / global_store*, buffer_store*.
COUNT_CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")


@frozen
class Buffer:
    """One shared-memory allocation: its size and the ops (indices) between which it is live."""
    name: str
    line: int
    bytes: int
    alignment: int
    first: int
    last: int


@frozen
class SharedUse:
    total: int                       # peak of live allocations (aligned) plus the op's scratch
    peak_line: int                   # the dump line where the peak is reached
    allocations: tuple[Buffer, ...]
    largest_scratch: int
    limit: int
    bound: bool = False              # True: too many buffers live together, `total` is their sum (an upper bound)


@frozen
class ModuleAudit:
    index: int
    first_line: int
    target: Target
    num_warps: int | None
    threads_per_warp: int | None
    findings: tuple[Finding, ...]
    shared: SharedUse
    problems: tuple[Finding, ...]    # the rows with a problem, in the order they were found
    target_given: str = "module"     # where the target came from: "module", "option" (--target) or "default"
    section: Section | None = None   # the file's `parsing.sections.Section` the module is (None: read on its own)
    extras: tuple = ()               # Extra: instructions at ops that are no row (Membar's barriers, waits)

    @property
    def counts(self) -> dict:
        """The kernel's static instruction counts in COUNT_CLASSES: every row's `Finding.counts` (rows the model
        does not count add nothing) plus the extras."""
        total = dict.fromkeys(COUNT_CLASSES, 0)
        for c in [f.counts for f in self.findings] + [e.counts for e in self.extras]:
            for k in COUNT_CLASSES:
                total[k] += c[k] if c is not None else 0
        return total

    @property
    def paths(self) -> dict:
        out: dict[str, int] = {}
        for f in self.findings:
            if f.category == Category.CONVERT:
                key = f.facts.path.value if isinstance(f.facts, Convert) else "unknown"
                out[key] = out.get(key, 0) + 1
        return out


@frozen
class ModuleCost:
    """A kernel's rows added up, in the audit's unit (the weighted cost per thread advise shares, loops weighed): what its layout ops
    cost, what they would cost at their best, and the difference."""
    cost: float
    ideal: float
    waste: float
    rows: int


def module_cost(m: ModuleAudit) -> ModuleCost:
    """The totals of one audited module: kernels are ranked by `waste` (the multi-kernel report does)."""
    cost = sum(f.cost for f in m.findings)
    ideal = sum(f.ideal for f in m.findings)
    return ModuleCost(cost, ideal, sum(f.waste for f in m.findings), len(m.findings))


def rank_by_waste(findings) -> list[Finding]:
    """Rows by waste, most first (ties: the costlier first, then dump order): an op that is as cheap as it can be
    (an ideal cp.async, a perfectly coalesced load) ranks below every op that wastes something."""
    by_line = sorted(findings, key=_line)               # (a stable sort keeps this order among equal keys,
    return sorted(by_line, key=_waste_cost, reverse=True)  # reversed or not: two sorts, no tuple of negations)


def _line(f: Finding) -> int:
    return f.line


def _waste_cost(f: Finding) -> tuple[float, float]:
    return f.waste, f.cost

@frozen
class Extra:
    """Instructions of the assembly's classes at an op that is no row of the audit: a barrier Membar puts before
    an mbarrier wait or a fence, or after an async wait; the barrier that ends a `warp_group_dot_wait` of two
    warp groups. Counted like `Finding.counts` (the assembly column adds them to their Python line)."""
    op: str
    line: int                        # line of the dump
    loc: str | None
    frames: tuple
    counts: dict
