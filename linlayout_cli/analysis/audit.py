"""Every layout decision of a real TTGIR kernel, with its cost and its Python line.

For each op that touches layouts: `ttg.convert_layout` (the `convert` model), shared-memory stores and loads
(`local_alloc` with a value, `local_store`, `local_load`: the shared-access model; `async_copy_global_to_local`: the
`bank` model), TMA copies, global loads, stores and atomics on tensors of pointers (vector width from the layout
and the pointers' AxisInfo, 32-byte sectors per warp access), reductions and scans (within a thread, across lanes,
across warps) and dots (operand and accumulator layouts). Then the kernel's shared memory: its allocations live
from definition to last use (a use inside a loop keeps them live through the loop) and each op's scratch lives at
that op; the peak is what the CTA needs, against the target's limit. Each row also counts its op's instructions
in the assembly's classes (`Finding.counts`, with Triton's Membar barriers: analysis/membar.py).

`cost` is counted in issue slots per thread: the instructions one thread issues for the op (shuffles, shared-memory
and global accesses, 2 per barrier), each taken once per shared-memory wavefront it needs, or scaled by its
32-byte sectors over the fewest its bytes could fill; x 8 inside a loop, whose trip count a dump does not tell.
`ideal` is the cost the same op would have at its best (`ideal_cost`, docs/audit_model.md), and `waste` = cost -
ideal ranks the rows (`rank_by_waste`) and the kernels (`module_cost`). It orders the report; it is no time estimate.

An op whose text cannot be read (a missing type, an alias that failed to parse) is a row "not analysed", an op of a
kind the model leaves out (docs/audit_model.md, "Not modelled") a row "not modelled", a padded buffer the compiled
kernel would fault on a row "error"; any other exception is a bug and ends the audit. Analyses are cached by (op kind, canonical layouts, shapes, element widths, target), across
the modules of a file, so a dump repeating one conversion ten thousand times analyses it once.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import TTLayoutError
from .targets import READ, WRITE, Target, get_target

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: convert loads when a dump has a convert_layout
    from .convert import ConvertReport

LOOP_WEIGHT = 8
SHARED_OPS = ("ttg.local_alloc", "ttg.local_store", "ttg.local_load", "ttg.async_copy_global_to_local")
TMA_OPS = ("ttng.async_tma_copy_global_to_local", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_gather",
           "ttng.async_tma_scatter", "ttng.async_tma_reduce", "tt.descriptor_load", "tt.descriptor_store")
GLOBAL_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")
BUFFER_OPS = ("amdg.buffer_load", "amdg.buffer_store")
DOT_OPS = ("tt.dot", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "tt.dot_scaled", "ttng.tc_gen5_mma_scaled")
VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
            "ttg.memdesc_reinterpret")


@dataclass(frozen=True)
class Finding:
    """One op's row: what it is, where it comes from, and what its layouts cost."""
    op: str
    line: int                        # line of the dump
    loc: str | None                  # Python file:line:col
    loops: int
    category: str                    # convert, shared, tma, global, reduce, scan, dot
    layouts: tuple[str, ...]         # as the dump names them (#blocked, #mma, or the attribute text)
    attrs: tuple[str, ...]           # the same layouts printed canonically
    shape: tuple[int, ...]
    element: str
    verdict: str                     # the answer in words; '' for a conversion (reports/convert words `conversion`)
    cost: float
    fields: dict = field(default_factory=dict)
    scratch_bytes: int = 0
    problem: str = ""                # why the op is not analysed / not modelled (then `verdict` says which)
    conversion: ConvertReport | None = None  # of a convert_layout
    instructions: dict | None = None  # counts the op's analysis computed (reductions, scans), in COUNT_CLASSES
    frames: tuple = ()               # the op's source frames, innermost first ((file, line, col), ...)
    membar: int = 0                  # barriers Triton's Membar pass puts at this op (analysis/membar.py)
    ideal: float = 0.0               # the op's cost at its best (`ideal_cost`), in the same unit, loops weighed

    @property
    def waste(self) -> float:
        """Cost above the op's ideal (0 for an op that is as cheap as it can be)."""
        return max(0.0, self.cost - self.ideal)

    @property
    def counts(self) -> dict | None:
        """The op's static instruction counts per thread in the assembly's classes (`COUNT_CLASSES`: what the
        compiled code of this op holds, once, loops not unrolled), or None where the model does not count this op.

        A convert counts its lowering (`convert` model); a register <-> shared access its ld/st.shared (ldmatrix,
        stmatrix; ds_read / ds_write) instructions; a global access its load or store instructions; a reduction or
        scan its shuffles and its rounds through shared memory (analysis/reduction.py); TMA copies and dots issue
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
        if self.category == "convert":
            from .convert import assembly_counts
            p = assembly_counts(self.conversion) if self.conversion is not None else self.fields["per_thread"]
            return zero | {"shared_loads": p["shared_loads"], "shared_stores": p["shared_stores"],
                           "shuffles": p["shuffles"], "barriers": p["barriers"]}
        if self.category == "shared":
            if self.op == "ttg.async_copy_global_to_local":
                return zero
            key = "shared_loads" if self.fields["access"] == READ else "shared_stores"
            return zero | {key: self.fields.get("issued", self.fields["instructions_per_thread"])}
        if self.category == "global" and self.op in ("tt.load", "tt.store", "amdg.buffer_load", "amdg.buffer_store"):
            key = "global_loads" if self.op.endswith("load") else "global_stores"
            return zero | {key: self.fields["instructions_per_thread"]}
        if self.category in ("tma", "dot", "buffer"):
            return zero
        return None


# The instruction classes an op is counted in, as the assembly names them (NVIDIA / AMD):
# shared_loads ld.shared*, ldmatrix* / ds_read*; shared_stores st.shared*, stmatrix* / ds_write*;
# shuffles shfl.sync* / ds_bpermute*, ds_swizzle*, v_permlane*, DPP; barriers bar.sync, barrier.sync / s_barrier;
# global_loads ld.global* / global_load*, buffer_load*; global_stores st.global* / global_store*, buffer_store*.
COUNT_CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")


@dataclass(frozen=True)
class Buffer:
    """One shared-memory allocation: its size and the ops (indices) between which it is live."""
    name: str
    line: int
    bytes: int
    alignment: int
    first: int
    last: int


@dataclass(frozen=True)
class SharedUse:
    total: int                       # peak of live allocations (aligned) plus the op's scratch
    peak_line: int                   # the dump line where the peak is reached
    allocations: tuple[Buffer, ...]
    largest_scratch: int
    limit: int
    bound: bool = False              # True: too many buffers live together, `total` is their sum (an upper bound)


@dataclass(frozen=True)
class ModuleAudit:
    index: int
    first_line: int
    target: Target
    num_warps: int | None
    threads_per_warp: int | None
    findings: tuple[Finding, ...]
    shared: SharedUse
    problems: tuple[str, ...]
    target_given: str = "module"     # where the target came from: "module", "option" (--target) or "default"
    section: object = None           # the file's `parsing.sections.Section` the module is (None: read on its own)
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
            if f.category == "convert":
                key = f.fields.get("path", "unknown")
                out[key] = out.get(key, 0) + 1
        return out


@dataclass(frozen=True)
class ModuleCost:
    """A kernel's rows added up, in the audit's unit (issue slots per thread, loops weighed): what its layout ops
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
    return sorted(findings, key=lambda f: (-f.waste, -f.cost, f.line))


@dataclass(frozen=True)
class Extra:
    """Instructions of the assembly's classes at an op that is no row of the audit: a barrier Membar puts before
    an mbarrier wait or a fence, or after an async wait; the barrier that ends a `warp_group_dot_wait` of two
    warp groups. Counted like `Finding.counts` (the assembly column adds them to their Python line)."""
    op: str
    line: int                        # line of the dump
    loc: str | None
    frames: tuple
    counts: dict


# ----------------------------------------------------------------------------------------- the walk


class NotModelled(TTLayoutError):
    """An op (or operand) of a kind the audit's model leaves out; docs/audit_model.md lists them."""


class Unreadable(TTLayoutError):
    """An op whose text lacks what its analysis needs (a type, an operand)."""


class Misaligned(TTLayoutError):
    """A padded buffer whose padding leaves the compiler's vector access misaligned: the kernel would fault."""


class Memo:
    """Analyses by (what kind, canonical layouts, shapes, widths, target), shared by the modules of one audit."""

    def __init__(self):
        self.values: dict = {}

    def get(self, key, compute):
        """compute() once per key; a TTLayoutError is cached and raised again, like a value."""
        try:
            value = self.values[key]
        except KeyError:
            try:
                value = compute()
            except TTLayoutError as e:
                value = e
            self.values[key] = value
        if isinstance(value, TTLayoutError):
            raise value
        return value


class _Context:
    """One module being audited: types and defining ops of its values, and the audit's memo (linear layouts and
    analyses by canonical key)."""

    def __init__(self, module, target: Target, memo: Memo | None = None):
        self.module, self.target = module, target
        self.num_warps: int | None = None
        self.memo = memo if memo is not None else Memo()
        self.type_cache: dict = {}
        self.types: dict = {}
        self.canon: dict = {}
        self._parse = module.value_type
        self.defined: dict[str, int] = {}
        self.position: dict[int, int] = {}
        for i, op in enumerate(module.ops):
            self.position[id(op)] = i
            for r in op.results:
                self.defined[r.split(":")[0]] = i
        from .axis import Axes
        self.axes = Axes(module, self.parse_type)
        self._tree = None

    @property
    def tree(self):
        """The region structure of the module's ops (`allocation.OpTree`), built once for every walk that needs it
        (shared memory, Membar, warp-index shuffles)."""
        if self._tree is None:
            from .allocation import OpTree
            self._tree = OpTree(self.module.ops)
        return self._tree

    def parse_type(self, text: str):
        vt = self.types.get(text)
        if vt is None:
            vt = self.types[text] = self._parse(text)
        return vt

    def key(self, vt) -> tuple:
        """What an analysis of a typed value depends on: its layout's canonical text, shape and element."""
        enc = vt.encoding
        text = self.canon.get(id(enc)) if enc is not None else None
        if enc is not None and text is None:
            text = self.canon[id(enc)] = str(enc)
        return (vt.kind, text, vt.shape, vt.element)

    def linear(self, vt):
        """The linear layout of a typed value (tensor or memdesc), cached; TTLayoutError when there is none."""
        if vt.encoding is None:
            raise Unreadable(vt.problem or f"no layout on {vt.kind}<{'x'.join(map(str, vt.shape))}x{vt.element}>")
        return self.memo.get(("linear",) + self.key(vt)[1:3], lambda: _linear_layout(vt))

    def defining(self, name: str):
        i = self.defined.get(name.split("#")[0])
        return None if i is None else self.module.ops[i]


def _linear_layout(vt):
    from ..conversions import PrintOnlyLayout, analysable_layout
    try:
        return analysable_layout(vt.encoding, vt.shape)
    except PrintOnlyLayout as e:
        raise NotModelled(str(e)) from None


def _type(op, which: str, k: int) -> str:
    """The k-th operand or result type of an op (negative k counts from the end), or Unreadable."""
    types = op.operand_types if which == "operand" else op.result_types
    if not -len(types) <= k < len(types):
        raise Unreadable(f"{op.name} has no {which} type {k if k >= 0 else len(types) + k}")
    return types[k]


def _weight(op) -> int:
    return LOOP_WEIGHT if op.loops else 1


def _finding(ctx: _Context, op, category, types, vt, verdict, cost, ideal=0.0, **kw) -> Finding:
    """A row: `types` are the ValueTypes whose layouts the op involves, `vt` the one whose shape is shown; `cost`
    and `ideal` per execution (a loop weighs them)."""
    types = [t for t in types if t is not None and t.encoding is not None]
    return Finding(op.name, op.line, str(op.loc) if op.loc else None, op.loops, category,
                   tuple(t.encoding_text for t in types), tuple(ctx.key(t)[1] for t in types),
                   tuple(vt.shape) if vt else (), vt.element if vt else "", verdict, cost * _weight(op),
                   ideal=min(cost, ideal) * _weight(op), frames=op.loc.frames if op.loc else (), **kw)


def ideal_instructions(elements: int, bits: int) -> int:
    """The fewest memory instructions one thread needs for `elements` of `bits` each: 128 bits per instruction.

    >>> ideal_instructions(32, 16), ideal_instructions(1, 32), ideal_instructions(32, 32)
    (4, 1, 8)
    """
    return max(1, math.ceil(elements * bits / 128))


def _problem(op, category, error: TTLayoutError) -> Finding:
    """The row of an op that is not modelled (NotModelled) or whose text could not be read (any other error)."""
    status = ("not modelled" if isinstance(error, NotModelled) else "error" if isinstance(error, Misaligned)
              else "not analysed")
    return Finding(op.name, op.line, str(op.loc) if op.loc else None, op.loops, category, (), (), (), "",
                   status, 0.0, problem=str(error) or type(error).__name__, frames=op.loc.frames if op.loc else ())


# ----------------------------------------------------------------------------------------- per op


def _convert(ctx: _Context, op) -> Finding:
    src, dst = ctx.parse_type(_type(op, "operand", 0)), ctx.parse_type(_type(op, "result", 0))
    report, cost, fields = ctx.memo.get(("convert", ctx.key(src), ctx.key(dst), ctx.target.name),
                                        lambda: _convert_row(ctx, src, dst))
    return _finding(ctx, op, "convert", (src, dst), src, "", cost, fields=dict(fields),
                    scratch_bytes=fields["scratch_bytes"], conversion=report)


def _convert_row(ctx: _Context, src, dst) -> tuple[object, float, dict]:
    """(report, cost, fields) of a conversion: the `convert` model's report (reports/ words it) in a row."""
    from .convert import analyze_convert
    bits = src.element_bits
    report = analyze_convert(ctx.linear(src), ctx.linear(dst), bits, ctx.target.name)
    p = report.per_thread
    conflicts = {k: v or 0 for k, v in (report.bank_conflicts or {}).items()}
    cost = (p["shuffles"] + p["shared_stores"] * (1 + conflicts.get("store", 0))
            + p["shared_loads"] * (1 + conflicts.get("load", 0)) + 2 * p["barriers"])
    fields = {"path": report.path, "scratch_bytes": report.scratch_bytes, "per_thread": dict(p),
              "store_vector_bits": report.store_vector_bits, "load_vector_bits": report.load_vector_bits,
              "bank_conflicts": report.bank_conflicts, "element_bits": bits}
    return report, cost, fields


def _placed(ctx: _Context, reg_vt, mem_vt):
    """(register layout, shared layout) as the bank model compares them: a view of a larger buffer keeps the
    larger one's layout, and the register layout is placed inside it."""
    from ..engine import LinearLayout
    reg, smem = ctx.linear(reg_vt), ctx.linear(mem_vt)
    if reg.get_out_dims() != smem.get_out_dims():
        if len(reg_vt.shape) != len(mem_vt.shape):
            raise NotModelled(f"a {len(reg_vt.shape)}-d value in a {len(mem_vt.shape)}-d buffer")
        reg = LinearLayout(dict(reg.get_bases()), smem.get_out_dims(), require_surjective=False)
    return reg, smem


def _bank(ctx: _Context, reg_vt, mem_vt, op_kind: str):
    """The bank model for a register layout accessing a shared buffer (`_placed`)."""
    from .bank import analyze_bank

    def compute():
        reg, smem = _placed(ctx, reg_vt, mem_vt)
        return analyze_bank(reg, smem, mem_vt.element_bits, ctx.target, simulate_lanes=False)
    report = ctx.memo.get(("bank", ctx.key(reg_vt), ctx.key(mem_vt), ctx.target.name), compute)
    return report, report.accesses[op_kind]


def _shared_operands(ctx: _Context, op):
    """(register tensor, shared buffer, READ or WRITE) of a register <-> shared-memory op."""
    if op.name == "ttg.local_load":
        mem, reg, kind = ctx.parse_type(_type(op, "operand", 0)), ctx.parse_type(_type(op, "result", 0)), READ
    elif op.name == "ttg.local_alloc":
        reg, mem, kind = ctx.parse_type(_type(op, "operand", 0)), ctx.parse_type(_type(op, "result", 0)), WRITE
    else:                                            # local_store / async copy: value -> buffer
        reg = ctx.parse_type(_type(op, "operand", 0))
        mem = ctx.parse_type(_type(op, "result", 0) if op.result_types else _type(op, "operand", -1))
        kind = WRITE
    mem = _view_of(ctx, op, mem)
    if reg.kind != "tensor" or mem.kind != "memdesc":
        raise Unreadable("no register tensor and shared buffer to compare")
    if mem.memory not in ("#smem", "") and "shared" not in mem.memory:
        raise NotModelled(f"a buffer in {mem.memory}, not in shared memory")
    return reg, mem, kind


def _shared(ctx: _Context, op) -> Finding:
    """A register tensor stored to or loaded from shared memory."""
    reg, mem, kind = _shared_operands(ctx, op)
    if op.name != "ttg.async_copy_global_to_local":
        return _local_access(ctx, op, reg, mem, kind)
    report, access = _bank(ctx, reg, mem, kind)
    vec = report.vector_width
    instruction = access.instruction
    if op.name == "ttg.async_copy_global_to_local":
        contig = _attr_int(op.attrs, "contiguity") or 1
        vec = max(1, min(vec, contig))
        instruction = f"cp.async ({vec * report.bitwidth} bits per lane)" if ctx.target.vendor == "nvidia" else \
            f"buffer_load ... lds ({vec * report.bitwidth} bits per lane)"
    elements = report.instructions_per_warp * report.vector_width
    per_thread = max(1, elements // vec)
    verdict = f"{instruction}, {access.conflicts} bank conflict(s)"
    from .bank import vector_limit
    limit = vector_limit(report) if vec == report.vector_width else "pointer contiguity"
    fields = {"bank_conflicts": access.conflicts, "vector_width": vec, "vector_bits": vec * report.bitwidth,
              "instructions_per_thread": per_thread, "wavefronts": access.wavefronts, "access": kind,
              "shared_bytes": _bytes(mem), "instruction": instruction, "limited_by": limit}
    if op.name == "ttg.async_copy_global_to_local":
        fields["sectors_per_warp_access"] = _copy_sectors(ctx, reg, vec, report.bitwidth)
    return _finding(ctx, op, "shared", (reg, mem), reg, verdict, per_thread * (1 + access.conflicts),
                    ideal_instructions(elements, report.bitwidth), fields=fields)


def _direction(ctx: _Context, reg_vt, mem_vt, kind: str):
    """The shared-access model (analysis/shared_access.py) of a register layout writing or reading a buffer: the
    instruction Triton emits, how many, the wavefronts; a padded buffer priced with its padding. A view of a
    larger buffer keeps the larger one's layout (the register layout is placed inside it)."""
    from ..attributes.encodings import PaddedSharedEncoding
    from ..conversions import PrintOnlyLayout
    from ..engine import LinearLayout
    from .shared_access import local_access, shared_layout_of

    def shared():
        try:
            return shared_layout_of(mem_vt.encoding, mem_vt.shape)
        except PrintOnlyLayout as e:
            raise NotModelled(str(e)) from None

    def compute():
        reg = ctx.linear(reg_vt)
        # the buffer's layout once per audit: the bank rows of the same buffer convert it too (`ctx.linear`)
        if isinstance(mem_vt.encoding, PaddedSharedEncoding):
            smem, padding = ctx.memo.get(("shared layout",) + ctx.key(mem_vt)[1:3], shared)
        else:
            smem, padding = ctx.linear(mem_vt), None
        if reg.get_out_dims() != smem.get_out_dims():
            if len(reg_vt.shape) != len(mem_vt.shape):
                raise NotModelled(f"a {len(reg_vt.shape)}-d value in a {len(mem_vt.shape)}-d buffer")
            reg = LinearLayout(dict(reg.get_bases()), smem.get_out_dims(), require_surjective=False)
        return local_access(reg, smem, _memory_bits(reg_vt), kind, ctx.target, padding)
    if mem_vt.encoding is None:
        raise Unreadable(mem_vt.problem or "no layout on the buffer")
    return ctx.memo.get(("access", ctx.key(reg_vt), ctx.key(mem_vt), kind, ctx.target.name), compute)


def _memory_bits(vt) -> int:
    """Bits of one element in shared memory (i1 is stored as a byte)."""
    return max(8, vt.element_bits)


def _local_access(ctx: _Context, op, reg, mem, kind: str) -> Finding:
    """A local_alloc with a value, local_store or local_load, on the shared-access model; a padding that leaves
    the compiler's vector access misaligned is the error it is (the kernel would fault)."""
    from .shared_access import MisalignedAccess
    try:
        d = _direction(ctx, reg, mem, kind)
    except MisalignedAccess as e:
        raise Misaligned(str(e)) from None
    per_thread = d.instructions_per_warp
    waves = f", {d.wavefronts_max} wavefront(s) each" if d.wavefronts_max is not None else ""
    if d.wavefronts_mean is not None and d.wavefronts_mean != d.wavefronts_max:
        waves = f", {d.wavefronts_mean:.3g} wavefront(s) each (at most {d.wavefronts_max})"
    ideal = ""
    if d.wavefronts_total is not None and d.ideal_wavefronts_total is not None \
            and d.wavefronts_total != d.ideal_wavefronts_total:
        ideal = f", ideal {d.ideal_wavefronts_total / max(1, d.instructions_per_cta):.3g}"
    triton = f"; Triton's model: {d.conflicts} bank conflict(s)" if d.conflicts is not None else ""
    if d.wavefronts_max is None and d.why:           # no wavefronts: say why (a target without a bank model)
        triton = f"; {d.why.rstrip('.')}"
    verdict = f"{per_thread} x {d.instruction} per thread{waves}{ideal}{triton}"
    cost = float(per_thread)                         # instructions x (wavefronts / the ideal), like a convert's
    if d.wavefronts_total and d.ideal_wavefronts_total:
        cost = per_thread * d.wavefronts_total / d.ideal_wavefronts_total
    fields = {"bank_conflicts": d.conflicts, "instruction": d.instruction,
              "vector_width": d.vector_bits // _memory_bits(reg), "vector_bits": d.vector_bits,
              "instructions_per_thread": per_thread, "instructions_per_cta": d.instructions_per_cta,
              "wavefronts": d.wavefronts_max, "wavefronts_mean": d.wavefronts_mean,
              "wavefronts_total": d.wavefronts_total, "ideal_wavefronts_total": d.ideal_wavefronts_total,
              "access": kind, "shared_bytes": _bytes(mem)}
    fields["limited_by"] = _shared_limit(ctx, d, reg, mem, kind)
    if d.why:
        fields["why"] = d.why
    if d.issued is not None and d.issued != per_thread:
        fields["issued"] = d.issued
    elements = per_thread * d.vector_bits // _memory_bits(reg)
    return _finding(ctx, op, "shared", (reg, mem), reg, verdict, cost,
                    ideal_instructions(elements, _memory_bits(reg)), fields=fields)


def _shared_limit(ctx: _Context, d, reg, mem, kind: str) -> str:
    """What keeps a shared access from a wider vector, in the words of `bank.vector_limit` ("128-bit cap",
    "register layout", "shared layout", from the bank model's prepared pair, which needs no target);
    "matrix instruction" for ldmatrix / stmatrix / ds_read_tr, whose width is the instruction's; "layout" where the
    bank model does not place the buffer (a padded one)."""
    if d.vector_bits >= 128:
        return "128-bit cap"
    from .bank import prepare, vector_limit_of
    from .shared_access import DS_READ_TR, MATRIX, MATRIX_TRANS
    if d.kind in (MATRIX, MATRIX_TRANS, DS_READ_TR):
        return "matrix instruction"
    bits = mem.element_bits

    def limit() -> str:
        reg_ll, smem_ll = _placed(ctx, reg, mem)
        prep = prepare(reg_ll, smem_ll, bits)
        return vector_limit_of(prep, prep.v, bits)
    try:
        return ctx.memo.get(("vector-limit", ctx.key(reg), ctx.key(mem)), limit)
    except TTLayoutError:
        return "layout"


def _copy_sectors(ctx: _Context, reg, vec: int, bits: int) -> int:
    """32-byte sectors of global memory warp 0's first asynchronous copy reads (the copy's pointers run along the
    layout's fastest dim, as the recorded `contiguity` says), as `_global` counts a load's."""
    ll = ctx.linear(reg)
    dim = _layout_facts(ctx, reg, ll)[0]
    return ctx.memo.get(("sectors",) + ctx.key(reg)[1:3] + (vec, bits, True, dim),
                        lambda: _sectors(ll, vec, bits, True, dim))[0]


def _view_of(ctx: _Context, op, mem):
    """A memdesc with an allocation shape (`..., mutable, 128x64`) is a view: analyse it in the full buffer."""
    if mem.kind == "memdesc":
        text = next((t for t in op.operand_types + op.result_types if t.startswith(("!ttg.memdesc<", "<"))), "")
        m = re.search(r",\s*(\d+(?:x\d+)+)\s*>$", text)
        if m:
            from dataclasses import replace
            alloc = tuple(int(d) for d in m.group(1).split("x"))
            if len(alloc) == len(mem.shape):
                return replace(mem, shape=alloc)
    return mem


def _bytes(vt) -> int:
    return math.prod(vt.shape) * vt.element_bits // 8 if vt.shape else 0


def _tma(ctx: _Context, op) -> Finding:
    mem = next((ctx.parse_type(t) for t in op.operand_types + op.result_types if t.startswith("!ttg.memdesc<")), None)
    swizzle = ""
    if mem is not None and mem.encoding is not None and hasattr(mem.encoding, "swizzling_byte_width"):
        swizzle = f", {mem.encoding.swizzling_byte_width}-byte swizzle"
    verdict = "TMA bulk copy (no register layout, no bank conflicts)" + swizzle
    return _finding(ctx, op, "tma", (mem,), mem, verdict, 1.0, 1.0,
                    fields={"shared_bytes": _bytes(mem) if mem else 0})


def _scalar_global(ctx: _Context, op) -> Finding:
    """A load or store of one scalar (one instruction of its element's width)."""
    ptr = ctx.parse_type(_type(op, "operand", 0))
    bits = ptr.pointee_bits
    verb = {"tt.load": "load", "tt.store": "store"}.get(op.name, "atomic")
    fields = {"vector_width": 1, "vector_bits": bits, "instructions_per_thread": 1, "scalar": True,
              "limited_by": "scalar pointer"}
    return _finding(ctx, op, "global", (), None, f"scalar {verb} of {bits} bits", 1.0, 1.0, fields=fields)


def _buffer(ctx: _Context, op) -> Finding:
    """AMD buffer loads and stores: a base pointer plus a tensor of offsets, vectorised up to the `contiguity`
    the compiler recorded on the op."""
    vt = ctx.parse_type(_type(op, "result", 0) if op.result_types else _type(op, "operand", 0))
    ll = ctx.linear(vt)
    bits = vt.element_bits
    dim, layout_contig, regs = _layout_facts(ctx, vt, ll)
    contig = _attr_int(op.attrs, "contiguity") or 1
    limits = {"128-bit cap": max(1, 128 // bits), "layout": layout_contig, "pointer contiguity": contig}
    vec = max(1, min(limits.values()))
    instructions = max(1, regs // vec)
    verb = "load" if op.name.endswith("load") else "store"
    bound = binding_limits(limits, vec)
    verdict = f"buffer {verb} {vec} x {bits}-bit per thread ({instructions} instruction(s)), {limit_words(bound)}"
    fields = {"vector_width": vec, "vector_bits": vec * bits, "instructions_per_thread": instructions,
              "contiguity": contig, "limited_by": bound[0], "bound_by": bound, "limits": limits}
    return _finding(ctx, op, "global", (vt,), vt, verdict, float(instructions), ideal_instructions(regs, bits),
                    fields=fields)


def _layout_facts(ctx: _Context, vt, ll) -> tuple[int, int, int]:
    """(the fastest dim, contiguous elements per thread along it, distinct registers) of a layout, cached."""
    from .info import contig_per_thread, layout_order

    def compute():
        dim = layout_order(ll)[0]
        return dim, contig_per_thread(ll)[dim], ll.remove_zero_bases_along_dim("register").get_in_dim_size("register")
    return ctx.memo.get(("facts",) + ctx.key(vt)[1:3], compute)


def _global(ctx: _Context, op) -> Finding:
    ptr = ctx.parse_type(_type(op, "operand", 0))
    if ptr.kind != "tensor":
        return _scalar_global(ctx, op)
    if not ptr.is_pointer:
        raise Unreadable("not a tensor of pointers")
    if not op.operands:
        raise Unreadable(f"{op.name} has no operands")
    ll = ctx.linear(ptr)
    bits = ptr.pointee_bits
    dim, contig, regs = _layout_facts(ctx, ptr, ll)
    rank = len(ptr.shape)
    axes = ctx.axes.get(op.operands[0], rank)
    limits = {"128-bit cap": max(1, 128 // bits), "layout": contig, "pointer contiguity": axes.contiguity[dim],
              "pointer divisibility": max(1, axes.divisibility[dim] // max(1, bits // 8))}
    k = 2 if op.name == "tt.store" else 1
    mask = op.operands[k] if len(op.operands) > k and op.name in ("tt.load", "tt.store") else None
    if mask is not None:
        limits["mask"] = ctx.axes.get(mask, rank).constancy[dim]      # runs of equal mask bits along `dim`
    vec = max(1, min(limits.values()))
    bound = binding_limits(limits, vec)
    instructions = max(1, regs // vec)
    contiguous = axes.contiguity[dim] > 1
    sectors, ideal = ctx.memo.get(("sectors",) + ctx.key(ptr)[1:3] + (vec, bits, contiguous, dim),
                                  lambda: _sectors(ll, vec, bits, contiguous, dim))
    verb = {"tt.load": "load", "tt.store": "store"}.get(op.name, "atomic")
    verdict = (f"{verb} {vec} x {bits}-bit per thread ({instructions} instruction(s)), {limit_words(bound)}; "
               f"{sectors} sector(s) of 32 bytes per warp access (ideal {ideal})")
    fields = {"vector_width": vec, "vector_bits": vec * bits, "instructions_per_thread": instructions,
              "sectors_per_warp_access": sectors, "ideal_sectors": ideal, "contiguity": axes.contiguity[dim],
              "divisibility": axes.divisibility[dim], "limited_by": bound[0], "bound_by": bound, "limits": limits,
              "pointers": op.operands[0], **({"mask": mask} if mask is not None else {})}
    return _finding(ctx, op, "global", (ptr,), ptr, verdict, instructions * sectors / max(1, ideal),
                    ideal_instructions(regs, bits), fields=fields)


# What may limit a global vector, in the order a tie is named: the hardware's cap first (nothing to gain), then the
# facts of the IR a kernel author can change.
LIMITS = ("128-bit cap", "mask", "pointer divisibility", "pointer contiguity", "layout")


def binding_limits(limits: dict, vec: int) -> list[str]:
    """The limits that allow no more than `vec` elements, named in `LIMITS` order (the first is `limited_by`).

    >>> binding_limits({"128-bit cap": 4, "layout": 4, "pointer divisibility": 4, "mask": 1}, 1)
    ['mask']
    >>> binding_limits({"128-bit cap": 8, "layout": 8, "mask": 16}, 8)
    ['128-bit cap', 'layout']
    """
    return [name for name in LIMITS if name in limits and limits[name] <= vec]


def limit_words(bound: list[str]) -> str:
    """'at the 128-bit cap' where the cap binds (nothing more to gain), else 'limited by the mask' (every binding
    limit, joined by 'and')."""
    if bound[0] == "128-bit cap":
        return "at the 128-bit cap"
    return "limited by " + " and ".join(f"the {b}" for b in bound)


def _sectors(ll, vec: int, bits: int, contiguous: bool, dim: int) -> tuple[int, int]:
    """32-byte sectors warp 0's first access touches, and the fewest its bytes could fill. Elements are taken as
    consecutive in memory along `dim` when the pointers are contiguous there, and far apart otherwise."""
    from ..engine import gf2, unflatten
    sizes = [s for _, s in ll.get_out_dims()]
    lanes = gf2.span(ll.flat_in_dim("lane"))        # the element of every lane, in lane order (not the bases alone)
    seen = set()
    for x in lanes:
        coords = unflatten(x, sizes)
        if contiguous:
            key = tuple(c for k, c in enumerate(coords) if k != dim) + (coords[dim] * bits // 8 // 32,)
            last = tuple(c for k, c in enumerate(coords) if k != dim) + (((coords[dim] + vec) * bits // 8 - 1) // 32,)
            seen.update({key, last})
        else:
            seen.add(tuple(coords))
    distinct_lanes = len({tuple(unflatten(x, sizes)) for x in lanes})
    ideal = max(1, math.ceil(distinct_lanes * vec * bits / 8 / 32))
    return len(seen), ideal


def _reduce(ctx: _Context, op) -> Finding:
    src = ctx.parse_type(_type(op, "operand", 0))
    axis = _attr_int(op.attrs, "axis") or 0
    if not 0 <= axis < len(src.shape):
        raise Unreadable(f"axis {axis} of a rank-{len(src.shape)} tensor")
    ll = ctx.linear(src)
    along = {d: sum(1 for b in ll.get_in_dim_bases(d) if b[axis]) if ll.has_in_dim(d) else 0
             for d in ("register", "lane", "warp", "block")}
    widths = tuple(ctx.parse_type(t).element_bits for t in op.operand_types)
    bits = sum(widths)
    warps = 1 << along["warp"]
    lanes = 1 << along["lane"]
    scratch = 0
    if op.name == "tt.reduce" and (along["warp"] or along["block"]):
        from .reduction import reduce_scratch_bytes
        scratch = ctx.memo.get(("reduce",) + ctx.key(src)[1:3] + (axis, widths),
                               lambda: reduce_scratch_bytes(ll, axis, widths))
    if op.name == "tt.scan" and along["warp"]:
        scratch = _scan_scratch(src, axis, ll, bits)
    rounds = along["lane"]
    if along["warp"]:
        verdict = (f"across {warps} warps: {rounds} shuffle round(s), then shared memory "
                   f"({scratch} bytes scratch) and a barrier")
        cost = rounds + 4 + 2
    elif along["lane"]:
        verdict = f"within a warp: {rounds} shuffle round(s) across {lanes} lanes"
        cost = rounds
    else:
        verdict = "within each thread (registers only)"
        cost = 0
    fields = {"axis": axis, "register_bits": along["register"], "lane_bits": along["lane"],
              "warp_bits": along["warp"], "scratch_bytes": scratch}
    try:
        counts = _reduce_instructions(ctx, op, ll, axis, widths)
    except TTLayoutError:                            # the counts are not modelled; the row's verdict stands
        counts = None
    return _finding(ctx, op, "reduce" if op.name == "tt.reduce" else "scan", (src,), src, verdict, cost, rounds,
                    fields=fields, scratch_bytes=scratch, instructions=counts)


def _combiner(ctx: _Context, op) -> str | None:
    """The one arithmetic op of a reduce / scan body (`arith.addf` for tl.sum), or None for a longer body."""
    i = ctx.position.get(id(op))
    if i is None:
        return None
    body = []
    for inner in ctx.module.ops[i + 1:]:
        if inner.depth <= op.depth:
            break
        if inner.name not in ("tt.reduce.return", "tt.scan.return"):
            body.append(inner.name)
            if len(body) > 1:
                return None
    return body[0] if body else None


def _reduce_instructions(ctx: _Context, op, ll, axis: int, widths) -> dict | None:
    """The reduce's or scan's shared loads and stores, shuffles and barriers (analysis/reduction.py); None for
    what that model leaves out (a reversed scan, a result of another rank)."""
    from .reduction import reduce_counts, scan_counts
    target = ctx.target.name
    if op.name == "tt.scan":
        if re.search(r"\breverse\s*=\s*true", op.attrs):
            return None
        return ctx.memo.get(("scan-counts",) + ctx.key(ctx.parse_type(_type(op, "operand", 0)))[1:3]
                            + (axis, widths, target), lambda: scan_counts(ll, axis, widths, target))
    out = ctx.parse_type(op.result_types[0]) if op.result_types else None
    out_ll = ctx.linear(out) if out is not None and out.kind == "tensor" else None
    combiner = _combiner(ctx, op)
    key = ("reduce-counts",) + ctx.key(ctx.parse_type(_type(op, "operand", 0)))[1:3] + (
        axis, widths, target, combiner, ctx.key(out) if out_ll is not None else None)
    return ctx.memo.get(key, lambda: reduce_counts(ll, axis, widths, out_ll, target, combiner))


def _scan_scratch(src, axis: int, ll, bits: int) -> int:
    """Triton's ScanLoweringHelper::getScratchSizeInBytes: one partial per (non-axis element, warp along axis)."""
    warps_along = 1 << sum(1 for b in ll.get_in_dim_bases("warp") if b[axis]) if ll.has_in_dim("warp") else 1
    others = math.prod(s for k, s in enumerate(src.shape) if k != axis)
    non_axis_threads = 1
    for d in ("lane", "warp"):
        if ll.has_in_dim(d):
            non_axis_threads *= 1 << sum(1 for b in ll.get_in_dim_bases(d) if any(b) and not b[axis])
    return max(1, warps_along) * max(others, non_axis_threads) * math.ceil(bits / 8)


def _dot(ctx: _Context, op) -> Finding:
    types = [ctx.parse_type(t) for t in op.operand_types[:3]]
    if len(types) < 2:
        raise Unreadable(f"{op.name} has {len(types)} operand type(s), not 2 or 3")
    acc = ctx.parse_type(op.result_types[0]) if op.result_types else types[-1]
    notes = []
    for name, vt, label in zip(op.operands[:2], types[:2], ("A", "B")):
        where = "shared memory" if vt.kind == "memdesc" else "registers"
        producer = ctx.defining(name)
        if producer is not None and producer.name == "ttg.convert_layout":
            notes.append(f"{label} converted to its operand layout at line {producer.line}")
        elif producer is not None and producer.name == "ttg.local_load":
            notes.append(f"{label} loaded from shared memory at line {producer.line}")
        else:
            notes.append(f"{label} in {where}")
    verdict = "; ".join(notes)
    return _finding(ctx, op, "dot", types[:2] + [acc], acc, verdict, 0.0, fields={"operands": notes},
                    instructions=_dot_instructions(ctx, op))


def _dot_instructions(ctx: _Context, op) -> dict | None:
    """A wgmma of two or more warp groups makes its warp-group index warp-uniform with one shfl.sync.idx."""
    if op.name == "ttng.warp_group_dot" and (ctx.num_warps or 4) > 4:
        return {"shuffles": 1}
    return None


_ATTR_PATTERNS: dict[str, re.Pattern] = {}


def _attr_int(attrs: str, key: str) -> int | None:
    """The integer value of `key = N` in an op's attribute text (None if absent or absurdly long)."""
    pattern = _ATTR_PATTERNS.get(key)
    if pattern is None:
        pattern = _ATTR_PATTERNS[key] = re.compile(rf"\b{re.escape(key)}\s*=\s*(-?\d{{1,18}})(?!\d)")
    m = pattern.search(attrs)
    return int(m.group(1)) if m else None


ANALYSES = {"ttg.convert_layout": ("convert", _convert), **{n: ("shared", _shared) for n in SHARED_OPS},
            **{n: ("tma", _tma) for n in TMA_OPS}, **{n: ("global", _global) for n in GLOBAL_OPS},
            **{n: ("global", _buffer) for n in BUFFER_OPS},
            "tt.reduce": ("reduce", _reduce), "tt.scan": ("scan", _reduce), **{n: ("dot", _dot) for n in DOT_OPS}}


def _applies(op) -> bool:
    if op.name == "ttg.local_alloc":
        return True                                  # a store into the buffer, or the buffer itself (_alloc)
    if op.name in GLOBAL_OPS:
        return bool(op.operand_types) and op.operand_types[0].startswith(("tensor<", "!tt.ptr"))
    return op.name in ANALYSES


# ----------------------------------------------------------------------------------------- buffers

WRITERS = ("ttg.local_alloc", "ttg.local_store", "ttg.async_copy_global_to_local",
           "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "amdg.buffer_load_to_local")
READERS = ("ttg.local_load", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_scatter",
           "ttng.async_tma_reduce") + DOT_OPS


def buffer_roots(ops) -> tuple[dict[str, str], dict[str, int]]:
    """(value -> the local_alloc it is a view of, value -> index of its defining op): memdesc views and loop
    values (`scf.for ... iter_args(%a = %buf)`) stand for the buffer they come from."""
    root: dict[str, str] = {}
    defined_at: dict[str, int] = {}
    for i, op in enumerate(ops):
        for r in op.results:
            defined_at[r.split(":")[0]] = i
        if op.name == "ttg.local_alloc" and op.results:
            name = op.results[0].split(":")[0]
            root[name] = name
        elif op.name in VIEW_OPS and op.results and op.operands:
            source = root.get(op.operands[0].split("#")[0])
            if source:
                root[op.results[0].split(":")[0]] = source
        elif op.name == "scf.for":
            _alias_loop(op, root)
    return root, defined_at


def _stages(ops, root: dict, name: str, mem) -> int:
    """How many copies a multi-buffered allocation holds: its leading dimension when views index into it."""
    if len(mem.shape) < 2:
        return 1
    indexed = any(op.name == "ttg.memdesc_index" and op.operands and root.get(op.operands[0].split("#")[0]) == name
                  for op in ops)
    return mem.shape[0] if indexed else 1


def buffer_users(ctx: _Context, root: dict, findings: dict) -> dict[str, dict]:
    """Per local_alloc: the ops that write and read it (directly or through a view), each with its line and, where
    the bank model applies, its bank conflicts."""
    out: dict[str, dict] = {}
    for i, op in enumerate(ctx.module.ops):
        if op.name in VIEW_OPS or op.name == "scf.for":
            continue
        touched = {root.get(o.split("#")[0]) or root.get(o) for o in op.operands}
        if op.name == "ttg.local_alloc" and op.results and op.operands:
            touched.add(op.results[0].split(":")[0])
        touched.discard(None)
        for name in touched:
            role = "writes" if op.name in WRITERS else "reads" if op.name in READERS else None
            if role is None:
                continue
            f = findings.get(i)
            use = {"op": op.name, "line": op.line}
            if f is not None and f.fields.get("bank_conflicts") is not None and f.category == "shared":
                use["bank_conflicts"] = f.fields["bank_conflicts"]
            assert name is not None                 # touched.discard(None) above
            out.setdefault(name, {"writes": [], "reads": []})[role].append(use)
    return out


def _uses_text(uses: list[dict]) -> str:
    parts = []
    for u in uses[:4]:
        conflicts = f", {u['bank_conflicts']} conflict(s)" if "bank_conflicts" in u else ""
        parts.append(f"{u['op']} (line {u['line']}{conflicts})")
    if len(uses) > 4:
        parts.append(f"{len(uses) - 4} more")
    return ", ".join(parts) if parts else "none"


def _buffer_fields(ctx: _Context, op, root: dict, users: dict) -> dict:
    """What an allocation holds: shape, stages, layout, bytes, and its readers and writers."""
    mem = ctx.parse_type(_type(op, "result", 0))
    name = op.results[0].split(":")[0] if op.results else ""
    used = users.get(name, {"writes": [], "reads": []})
    return {"shape": list(mem.shape), "stages": _stages(ctx.module.ops, root, name, mem), "layout": mem.encoding_text,
            "bytes": _bytes(mem), "element_type": mem.element, "memory": mem.memory,
            "writes": used["writes"], "reads": used["reads"]}


def _alloc(ctx: _Context, op, root: dict, users: dict) -> Finding:
    """A local_alloc without a value: the buffer as a layout decision (its layout, stages and bytes, who uses it)."""
    mem = ctx.parse_type(_type(op, "result", 0))
    info = _buffer_fields(ctx, op, root, users)
    swizzle = ""
    if mem.encoding is not None and hasattr(mem.encoding, "swizzling_byte_width"):
        swizzle = f", {mem.encoding.swizzling_byte_width}-byte swizzle"
    stages = f"{info['stages']} x " if info["stages"] > 1 else ""
    shape = mem.shape[1:] if info["stages"] > 1 else mem.shape
    verdict = (f"buffer {stages}{'x'.join(map(str, shape))}x{mem.element}, {info['bytes']} bytes{swizzle}; "
               f"written by {_uses_text(info['writes'])}; read by {_uses_text(info['reads'])}")
    return _finding(ctx, op, "buffer", (mem,), mem, verdict, 0.0, fields={"buffer": info})


# ----------------------------------------------------------------------------------------- shared memory


def shared_use(ctx: _Context, findings: dict, roots=None, placed: dict | None = None) -> SharedUse:
    """The kernel's shared memory as Triton's allocator lays it out (see `allocation`): explicit allocations with
    their views' liveness, each op's scratch, warp-specialization captures; each function on its own (Triton
    allocates per function), the module needing the most of them."""
    from . import allocation as al
    ops = ctx.module.ops
    tree = ctx.tree
    ids = tree.post
    uses: dict[str, list[int]] = {}
    for i, op in enumerate(ops):
        for o in op.operands:
            uses.setdefault(o.split("#")[0], []).append(i)
            uses.setdefault(o, []).append(i)
    ws_of = _warp_specialize_of(tree, ops)
    func_of = _function_of(tree, ops)
    root, defined_at = roots if roots is not None else buffer_roots(ops)
    buffers: dict[str, al.Buffer] = {}
    where: dict[str, int] = {}
    scratch: list = []
    for i, op in enumerate(ops):
        if op.name == "ttg.local_alloc" and op.results and op.result_types:
            vt = ctx.parse_type(op.result_types[0])
            if vt.kind == "memdesc" and vt.memory in ("#smem", ""):
                name = op.results[0].split(":")[0]
                align = _attr_int(op.attrs, "alignment") or _alignment(vt)
                buffers[name] = al.Buffer(name, _bytes(vt), align, *al.live_interval(tree, i, uses.get(name, [])),
                                          region=op.region, concurrent=ws_of.get(i, -1))
                where[name] = i
        f = findings.get(i)
        size = f.scratch_bytes if f is not None else 0
        if op.name == "ttg.warp_specialize":
            size = _capture_bytes(ctx, op)
        elif op.name == "ttng.tensormap_create":
            size = 128                              # the TMA descriptor is built in shared memory
        elif op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
            size = _atomic_scratch(ctx, op, uses)
        if size:
            b = al.Buffer(f"scratch@{op.line}", size, 8 if op.name == "ttg.warp_specialize" else 128,
                          ids[i], ids[i] + 1, region=op.region, concurrent=ws_of.get(i, -1))
            scratch.append(b)
            where[b.name] = i
    for alias, r in root.items():                     # views and loop values keep their buffer live
        if alias == r or r not in buffers or alias not in defined_at and alias.split("#")[0] not in defined_at:
            continue
        at = defined_at.get(alias, defined_at.get(alias.split("#")[0]))
        assert at is not None                       # the check above: alias or its root is in defined_at
        start, end = al.live_interval(tree, at, uses.get(alias, []))
        b = buffers[r]
        b.start, b.end = min(b.start, start), max(b.end, end)
    groups: dict[int, list] = {}
    for b in list(buffers.values()) + scratch:
        groups.setdefault(func_of[where[b.name]], []).append(b)
    warps = _partition_warps(ops)
    total, bound = 0, False
    for group in groups.values():
        if warps:
            group.append(al.Buffer("warp indices", warps, 4, 0, 1 << 62))
        total = max(total, al.compute_offsets(group))
        bound = bound or al.is_bound(group)
    if not groups and warps:
        total = al.compute_offsets([al.Buffer("warp indices", warps, 4, 0, 1 << 62)])
    if placed is not None:                           # where each buffer and scratch landed (for Membar)
        placed.update({"buffers": {n: (b.offset, b.size) for n, b in buffers.items()},
                       "scratch": {where[b.name]: (b.offset, b.size) for b in scratch}})
    listed = tuple(Buffer(b.name, ops[where[b.name]].line, b.size, b.alignment, b.start, b.end)
                   for b in buffers.values())
    return SharedUse(total, 0, listed, max((b.size for b in scratch), default=0), ctx.target.shared_limit, bound)


def _function_of(tree, ops) -> list[int]:
    """For each op, the index of the function (`tt.func`) holding it (-1 outside any function)."""
    out = [-1] * len(ops)
    for i, op in enumerate(ops):
        if op.name in ("tt.func", "func.func", "llvm.func"):
            out[i:tree.end[i] + 1] = [i] * (tree.end[i] + 1 - i)
    return out


def _atomic_scratch(ctx: _Context, op, uses: dict) -> int:
    """Triton's getRepShapeForAtomic: a used scalar result takes one element, a used tensor result whose layout
    broadcasts (some thread bits hold copies) takes the whole tensor, to give every copy the same value."""
    if not op.results or not uses.get(op.results[0].split(":")[0]) or not op.result_types:
        return 0
    vt = ctx.parse_type(op.result_types[0])
    if vt.kind != "tensor":
        return math.ceil(vt.element_bits / 8)
    try:
        broadcast = any(ctx.linear(vt).get_free_variable_masks().values())
    except TTLayoutError:
        return 0
    return math.prod(vt.shape) * math.ceil(vt.element_bits / 8) if broadcast else 0


def _warp_specialize_of(tree, ops) -> dict[int, int]:
    """Pre-order index of each op inside a warp_specialize's regions -> that warp_specialize's index."""
    out = {}
    for i, op in enumerate(ops):
        if op.name == "ttg.warp_specialize":
            for k in range(i + 1, tree.end[i] + 1):
                out[k] = i
    return out


def _partition_warps(ops) -> int:
    """The most partition warps of any warp_specialize (Triton keeps one byte per such warp for the function)."""
    return max((sum(int(n) for n in re.findall(r"num_warps\((\d+)\)", op.text)) for op in ops
                if op.name == "ttg.warp_specialize"), default=0)


def _capture_bytes(ctx: _Context, op) -> int:
    """WarpSpecializeOp::getCaptureSizeAlign: the explicit captures packed like a struct (ints and floats by
    their bytes, pointers and descriptors 8, a shared-memory descriptor 8 + 4 per dimension)."""
    total = 0
    for t in op.operand_types:
        vt = ctx.parse_type(t)
        if vt.kind == "memdesc":
            total += 8 + 4 * len(vt.shape) if vt.memory in ("#smem", "") else 8
        elif t.startswith(("!tt.ptr", "!tt.tensordesc")):
            total += 8
        else:
            try:                                     # a scalar by its bytes; a type of unknown width 8
                total += math.ceil(vt.element_bits / 8) if vt.kind == "other" else 8
            except TTLayoutError:
                total += 8
    return total


def _alias_loop(op, root: dict) -> None:
    """`scf.for ... iter_args(%a = %buf)`: the loop's block argument and result stand for the same buffer."""
    m = re.search(r"iter_args\((.*?)\)\s*->", op.text)
    if not m:
        return
    for k, pair in enumerate(m.group(1).split(",")):
        arg, _, init = pair.partition("=")
        r = root.get(init.strip().split("#")[0])
        if r is not None:
            root[arg.strip()] = r
            if op.results:
                root[f"{op.results[0].split(':')[0]}#{k}"] = r


def _alignment(vt) -> int:
    from .info import alignment_of
    return alignment_of(vt.encoding) if vt.encoding is not None else 16


# ----------------------------------------------------------------------------------------- modules

MAX_THREADS = 1024               # threads one CTA may have, on every target
LANES = (32, 64)                 # threads per warp (wavefront) of every target


@dataclass(frozen=True)
class _Unit:
    """The ops of one function (SSA names are scoped per function), with the module's aliases and its type
    reader (`Module.value_type`)."""
    ops: list
    aliases: object
    value_type: object


def _units(module) -> list[_Unit]:
    """Each function of a module (its op and everything inside); the whole module when it has no function."""
    from .allocation import OpTree
    tree = OpTree(module.ops)
    out, i = [], 0
    while i < len(module.ops):
        if module.ops[i].name in ("tt.func", "func.func", "llvm.func"):
            out.append(_Unit(module.ops[i:tree.end[i] + 1], module.aliases, module.value_type))
            i = tree.end[i] + 1
        else:
            i += 1
    return out or [_Unit(module.ops, module.aliases, module.value_type)]


def _where(module, several: bool) -> str:
    return f"the module at line {module.first_line}" if several else "the module"


def module_target(module, option: str | None, several: bool = False) -> tuple[Target, str]:
    """The target to audit a module for, and where it came from: `--target` (already checked by the command),
    the module's `ttg.target`, or the default when the module names none. A `ttg.target` that is empty or
    unknown is an error naming it: the audit would otherwise model the wrong hardware."""
    if option is not None:
        return get_target(option), "option"
    name = module.target
    if name is None:
        return get_target(None), "default"
    try:
        if not name.strip():
            raise TTLayoutError("empty")
        return get_target(name), "module"
    except TTLayoutError:
        from .targets import TARGETS
        raise TTLayoutError(f"{_where(module, several)}: ttg.target \"{name}\" is not a target ttlayout knows "
                            f"({', '.join(TARGETS)}); give --target NAME to audit it for one") from None


def check_threads(module, target: Target, several: bool = False) -> None:
    """`ttg.num-warps` and `ttg.threads-per-warp` must be what a GPU can run: a power-of-two number of warps,
    32 or 64 threads per warp, at most 1024 threads per CTA. A value that is not is an error naming it."""
    where = _where(module, several)
    lanes = module.threads_per_warp
    raw_lanes = module.attributes.get("ttg.threads-per-warp")
    if raw_lanes is not None and lanes not in LANES:
        raise TTLayoutError(f"{where}: ttg.threads-per-warp = {raw_lanes} is not a warp size (32 or 64)")
    warps, raw_warps = module.num_warps, module.attributes.get("ttg.num-warps")
    if raw_warps is None:
        return
    per_warp = lanes or target.warp_size
    if warps is None or warps < 1 or warps & (warps - 1) or warps * per_warp > MAX_THREADS:
        raise TTLayoutError(f"{where}: ttg.num-warps = {raw_warps} is not a number of warps a CTA can have (a power "
                            f"of two, at most {MAX_THREADS // per_warp} warps of {per_warp} threads)")


def _audit_module(module, index: int, target: str | None = None, memo: Memo | None = None,
                  several: bool = False) -> ModuleAudit:
    tgt, given = module_target(module, target, several)
    check_threads(module, tgt, several)
    memo = memo if memo is not None else Memo()
    rows: list[Finding] = []
    problems: list[str] = []
    shared: list[SharedUse] = []
    extras: list[Extra] = []
    for unit in _units(module):
        ctx = _Context(unit, tgt, memo)
        ctx.num_warps = module.num_warps
        findings: dict[int, Finding] = {}
        allocs = []
        for i, op in enumerate(unit.ops):
            if not _applies(op):
                continue
            if op.name == "ttg.local_alloc" and not op.operands:
                allocs.append(i)
                continue
            category, analyse = ANALYSES[op.name]
            try:
                findings[i] = analyse(ctx, op)
            except TTLayoutError as e:
                findings[i] = _problem(op, category, e)
                problems.append(f"line {op.line}: {op.name}: {findings[i].problem}")
        roots = buffer_roots(unit.ops)
        users = buffer_users(ctx, roots[0], findings)
        for i, op in enumerate(unit.ops):
            if op.name != "ttg.local_alloc" or not op.results:
                continue
            try:
                if i in allocs:
                    findings[i] = _alloc(ctx, op, roots[0], users)
                elif not findings[i].problem:
                    findings[i].fields["buffer"] = _buffer_fields(ctx, op, roots[0], users)
            except TTLayoutError as e:
                findings[i] = _problem(op, "buffer", e)
                problems.append(f"line {op.line}: {op.name}: {findings[i].problem}")
        placed: dict = {}
        shared.append(shared_use(ctx, findings, roots, placed))
        extras += _synchronisation(ctx, findings, roots[0], placed)
        rows += [findings[i] for i in sorted(findings)]
    first = shared[0]
    use = SharedUse(max(u.total for u in shared), 0, tuple(b for u in shared for b in u.allocations),
                    max(u.largest_scratch for u in shared), first.limit, any(u.bound for u in shared))
    return ModuleAudit(index, module.first_line, tgt, module.num_warps, module.threads_per_warp,
                       tuple(rows), use, tuple(problems), given, getattr(module, "section", None), tuple(extras))


def _synchronisation(ctx: _Context, findings: dict, root: dict, placed: dict) -> list[Extra]:
    """Membar's barriers (analysis/membar.py) and the lowering's own barriers at ops without a row: each op's
    row counts those at it (`Finding.membar`); the others are returned as Extras."""
    from dataclasses import replace

    from . import membar
    ops = ctx.module.ops
    warp_sync = {i for i, f in findings.items()
                 if f.conversion is not None and getattr(f.conversion, "barrier", None) == "warp"}
    syncs = {i for i, op in enumerate(ops)          # a wgmma wait of two warp groups ends with a CTA barrier
             if op.name == "ttng.warp_group_dot_wait"
             and (ctx.num_warps or 4) > 4 and ctx.target.vendor == "nvidia"}
    scratch = {i: s for i, s in placed.get("scratch", {}).items()   # a TMA descriptor's 128 bytes: one warp
               if ops[i].name != "ttng.tensormap_create"}            # writes them and Triton keeps them apart
    at = membar.barriers(ops, ctx.tree, root, placed.get("buffers", {}), scratch, warp_sync, syncs=syncs)
    for i in syncs:
        at[i] = at.get(i, 0) + 1
    for i, op in enumerate(ops):                     # a tcgen05 MMA is issued by one thread after a CTA barrier
        if op.name in ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled"):
            at[i] = at.get(i, 0) + 1
    extras = []
    for i in sorted(at):
        if i in findings:
            findings[i] = replace(findings[i], membar=findings[i].membar + at[i])
        else:
            extras.append(_extra(ops[i], barriers=at[i]))
    if ctx.target.vendor == "nvidia":
        extras += _warp_index_shuffles(ops, findings, ctx.tree)
    return extras


WARP_INDEX_OPS = ("ttng.tmem_load", "ttng.tmem_store", "ttng.async_tma_copy_local_to_global")


def _warp_index_shuffles(ops, findings: dict, tree) -> list[Extra]:
    """Tensor memory is addressed by warp and a TMA store is issued by one elected warp: the first such op of a
    function (or of a warp_specialize partition, which becomes a function) makes the warp index uniform with one
    `shfl.sync.idx`; LLVM reuses it for the others."""
    from .membar import partition_scopes
    seen, out = set(), []
    for i, (op, scope) in enumerate(zip(ops, partition_scopes(ops, tree))):
        if op.name in WARP_INDEX_OPS and scope not in seen:
            seen.add(scope)
            if i in findings:
                counts = dict(findings[i].instructions or {})
                counts["shuffles"] = counts.get("shuffles", 0) + 1
                from dataclasses import replace
                findings[i] = replace(findings[i], instructions=counts)
            else:
                out.append(_extra(op, shuffles=1))
    return out


_CAPTURES = re.compile(r"ttg\.warp_specialize\(([^)]*)\)")


def _alias_partitions(op, root: dict) -> None:
    """A warp_specialize partition's block arguments stand for the op's captures (a partition's `%a_24` is the
    buffer `%a` passed in)."""
    m = _CAPTURES.search(op.text)
    captures = [c.strip() for c in m.group(1).split(",") if c.strip()] if m else []
    rest = op.operands[len(captures):]
    for k in range(0, len(rest) - len(captures) + 1, max(1, len(captures))):
        for capture, arg in zip(captures, rest[k:k + len(captures)]):
            r = root.get(capture.split("#")[0])
            if r is not None:
                root[arg] = r


def _extra(op, **counts) -> Extra:
    return Extra(op.name, op.line, str(op.loc) if op.loc else None, op.loc.frames if op.loc else (),
                 dict.fromkeys(COUNT_CLASSES, 0) | counts)


def analyze_audit(modules, target: str | None = None, several: bool = False,
                  memo: Memo | None = None) -> list[ModuleAudit]:
    """Audit every module of a dump (`modules`: `parsing.module.iter_modules`, the modules separated by `// -----`,
    each read when its turn comes), for `target` (default: each module's `ttg.target`), with one cache of
    analyses for them all (`memo`: one kept across dumps, e.g. a worker's for every kernel it audits, or `advise`'s
    across its candidates); `several`: the file holds more than one module (errors then say which)."""
    memo = memo if memo is not None else Memo()
    return [_audit_module(m, i, target, memo, several) for i, m in enumerate(modules)]


# ----------------------------------------------------------------------------------------- one op


def find_row(m: ModuleAudit, module, line: int | None = None, ident: str | None = None) -> Finding:
    """The row of one op of an audited module: the op that starts at dump line `line`, or `ident`: the op defining
    SSA value `%name`, or the K-th row in dump order (1-based). An op without a row, or none there, is an error
    that lists where the rows are."""
    rows = sorted(m.findings, key=lambda f: f.line)
    where = "; rows at lines " + ", ".join(str(f.line) for f in rows[:12]) + (", ..." if len(rows) > 12 else "")
    if not rows:
        where = "; no op of it touches a layout"
    if ident is not None and ident.isdigit():
        k = int(ident)
        if not 1 <= k <= len(rows):
            raise TTLayoutError(f"there is no row {k}: the module has {len(rows)} row(s), numbered 1 to {len(rows)} "
                                "in dump order")
        return rows[k - 1]
    if ident is not None:
        name = ident if ident.startswith("%") else "%" + ident
        op = next((o for o in module.ops if name in (r.split(":")[0] for r in o.results)), None)
        if op is None:
            raise TTLayoutError(f"no op of the module defines {name}{where}")
        line = op.line
    found = [f for f in rows if f.line == line]
    if found:
        return found[0]
    op = next((o for o in module.ops if o.line == line), None)
    if op is None:
        raise TTLayoutError(f"no op starts at line {line}{where}")
    raise TTLayoutError(f"line {line} holds {op.name}, which makes no layout decision the audit reports{where}")


@dataclass(frozen=True)
class OpLayouts:
    """What the `convert` or `bank` report of one op needs, as the dump gives it: `kind` "convert" (layouts:
    source, destination) or "shared" (register, shared; `access` READ or WRITE), their canonical texts, the
    shape and element type of the value, its bits, and the target."""
    kind: str
    layouts: tuple
    texts: tuple[str, str]
    shape: tuple[int, ...]
    element: str
    bits: int
    target: Target
    access: str | None = None


def op_layouts(module, f: Finding, target: Target) -> OpLayouts | None:
    """The layouts of a convert or shared-memory row, read again from its op in the dump (a view is placed in its
    buffer, as the row priced it); None for every other row, and for a row that was not analysed."""
    if f.problem or f.category not in ("convert", "shared"):
        return None
    for unit in _units(module):
        op = next((o for o in unit.ops if o.line == f.line and o.name == f.op), None)
        if op is None:
            continue
        ctx = _Context(unit, target)
        if f.category == "convert":
            src, dst = ctx.parse_type(_type(op, "operand", 0)), ctx.parse_type(_type(op, "result", 0))
            return OpLayouts("convert", (ctx.linear(src), ctx.linear(dst)), (ctx.key(src)[1], ctx.key(dst)[1]),
                             tuple(src.shape), src.element, src.element_bits, target)
        reg, mem, kind = _shared_operands(ctx, op)
        return OpLayouts("shared", _placed(ctx, reg, mem), (ctx.key(reg)[1], ctx.key(mem)[1]), tuple(mem.shape),
                         mem.element, mem.element_bits, target, kind)
    return None
