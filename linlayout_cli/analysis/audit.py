"""Every layout decision of a real TTGIR kernel, with its cost and its Python line.

For each op that touches layouts: `ttg.convert_layout` (the `convert` model), shared-memory stores and loads
(`local_alloc` with a value, `local_store`, `local_load`, `async_copy_global_to_local`: the `bank` model), TMA copies,
global loads, stores and atomics on tensors of pointers (vector width from the layout and the pointers' AxisInfo,
32-byte sectors per warp access), reductions and scans (within a thread, across lanes, across warps) and dots
(operand and accumulator layouts). Then the kernel's shared memory: its allocations live from definition to last
use (a use inside a loop keeps them live through the loop) and each op's scratch lives at that op; the peak is what
the CTA needs, against the target's limit.

`cost` ranks the rows: shared-memory wavefronts, shuffles, barriers and global accesses one thread issues for the
op (x 8 inside a loop, whose trip count a dump does not tell). It orders the report; it is no time estimate.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..errors import TTLayoutError
from .targets import READ, WRITE, Target, get_target

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
    problem: str = ""
    conversion: object = None        # a convert_layout's ConvertReport


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

    @property
    def paths(self) -> dict:
        out: dict[str, int] = {}
        for f in self.findings:
            if f.category == "convert":
                key = f.fields.get("path", "unknown")
                out[key] = out.get(key, 0) + 1
        return out


# ----------------------------------------------------------------------------------------- the walk


class _Context:
    """One module being audited: types and defining ops of its values, linear layouts cached by (layout, shape)."""

    def __init__(self, module, target: Target):
        self.module, self.target = module, target
        self.ll_cache: dict = {}
        self.parse_type = module.value_type
        self.defined: dict[str, int] = {}
        for i, op in enumerate(module.ops):
            for r in op.results:
                self.defined[r.split(":")[0]] = i
        from .axis import Axes
        self.axes = Axes(module, self.parse_type)

    def linear(self, vt):
        """The linear layout of a typed value (tensor or memdesc), cached; TTLayoutError when there is none."""
        if vt.encoding is None:
            raise TTLayoutError(vt.problem or f"no layout on {vt.kind}<{'x'.join(map(str, vt.shape))}x{vt.element}>")
        key = (id(vt.encoding), vt.shape)
        if key not in self.ll_cache:
            from ..conversions import analysable_layout
            try:
                self.ll_cache[key] = analysable_layout(vt.encoding, vt.shape)
            except TTLayoutError as e:
                self.ll_cache[key] = e
        value = self.ll_cache[key]
        if isinstance(value, TTLayoutError):
            raise value
        return value

    def defining(self, name: str):
        i = self.defined.get(name.split("#")[0])
        return None if i is None else self.module.ops[i]


def _weight(op) -> int:
    return LOOP_WEIGHT if op.loops else 1


def _finding(op, category, types, vt, verdict, cost, **kw) -> Finding:
    """A row: `types` are the ValueTypes whose layouts the op involves, `vt` the one whose shape is shown."""
    types = [t for t in types if t is not None and t.encoding is not None]
    return Finding(op.name, op.line, str(op.loc) if op.loc else None, op.loops, category,
                   tuple(t.encoding_text for t in types), tuple(str(t.encoding) for t in types),
                   tuple(vt.shape) if vt else (), vt.element if vt else "", verdict, cost * _weight(op), **kw)


def _problem(op, category, message: str) -> Finding:
    return Finding(op.name, op.line, str(op.loc) if op.loc else None, op.loops, category, (), (), (), "",
                   "not analysed", 0.0, problem=message)


# ----------------------------------------------------------------------------------------- per op


def _convert(ctx: _Context, op) -> Finding:
    from .convert import analyze_convert
    src, dst = ctx.parse_type(op.operand_types[0]), ctx.parse_type(op.result_types[0])
    bits = src.element_bits
    report = analyze_convert(ctx.linear(src), ctx.linear(dst), bits, ctx.target.name)
    p = report.per_thread
    conflicts = {k: v or 0 for k, v in (report.bank_conflicts or {}).items()}
    cost = (p["shuffles"] + p["shared_stores"] * (1 + conflicts.get("store", 0))
            + p["shared_loads"] * (1 + conflicts.get("load", 0)) + 2 * p["barriers"])
    fields = {"path": report.path, "scratch_bytes": report.scratch_bytes, "per_thread": dict(p),
              "store_vector_bits": report.store_vector_bits, "load_vector_bits": report.load_vector_bits,
              "bank_conflicts": report.bank_conflicts, "element_bits": bits}
    return _finding(op, "convert", (src, dst), src, "", cost, fields=fields, scratch_bytes=report.scratch_bytes,
                    conversion=report)


def _bank(ctx: _Context, reg_vt, mem_vt, op_kind: str):
    """The bank model for a register layout accessing a shared buffer (a view of a larger one keeps the larger
    one's layout: the register layout is placed inside it)."""
    from ..engine import LinearLayout
    from .bank import analyze_bank
    reg_ll, smem_ll = ctx.linear(reg_vt), ctx.linear(mem_vt)
    if reg_ll.get_out_dims() != smem_ll.get_out_dims():
        if len(reg_vt.shape) != len(mem_vt.shape):
            raise TTLayoutError(f"a {len(reg_vt.shape)}-d value in a {len(mem_vt.shape)}-d buffer")
        reg_ll = LinearLayout(dict(reg_ll.get_bases()), smem_ll.get_out_dims(), require_surjective=False)
    report = analyze_bank(reg_ll, smem_ll, mem_vt.element_bits, ctx.target, simulate_lanes=False)
    return report, report.accesses[op_kind]


def _shared(ctx: _Context, op) -> Finding:
    """A register tensor stored to or loaded from shared memory."""
    if op.name == "ttg.local_load":
        mem, reg, kind = ctx.parse_type(op.operand_types[0]), ctx.parse_type(op.result_types[0]), READ
    elif op.name == "ttg.local_alloc":
        reg, mem, kind = ctx.parse_type(op.operand_types[0]), ctx.parse_type(op.result_types[0]), WRITE
    else:                                            # local_store / async copy: value -> buffer
        reg = ctx.parse_type(op.operand_types[0])
        mem = ctx.parse_type(op.result_types[0] if op.result_types else op.operand_types[-1])
        kind = WRITE
    mem = _view_of(ctx, op, mem)
    if reg.kind != "tensor" or mem.kind != "memdesc":
        raise TTLayoutError("no register tensor and shared buffer to compare")
    report, access = _bank(ctx, reg, mem, kind)
    vec = report.vector_width
    instruction = access.instruction
    if op.name == "ttg.async_copy_global_to_local":
        contig = _attr_int(op.attrs, "contiguity") or 1
        vec = max(1, min(vec, contig))
        instruction = f"cp.async ({vec * report.bitwidth} bits per lane)" if ctx.target.vendor == "nvidia" else \
            f"buffer_load ... lds ({vec * report.bitwidth} bits per lane)"
    per_thread = max(1, report.instructions_per_warp * report.vector_width // vec)
    verdict = f"{instruction}, {access.conflicts} bank conflict(s)"
    fields = {"bank_conflicts": access.conflicts, "vector_width": vec, "vector_bits": vec * report.bitwidth,
              "instructions_per_thread": per_thread, "wavefronts": access.wavefronts, "access": kind,
              "shared_bytes": _bytes(mem)}
    return _finding(op, "shared", (reg, mem), reg, verdict, per_thread * (1 + access.conflicts),
                    fields=fields)


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
    return _finding(op, "tma", (mem,), mem, verdict, 1.0,
                    fields={"shared_bytes": _bytes(mem) if mem else 0})


def _scalar_global(ctx: _Context, op) -> Finding:
    """A load or store of one scalar (one instruction of its element's width)."""
    ptr = ctx.parse_type(op.operand_types[0])
    bits = ptr.pointee_bits
    verb = {"tt.load": "load", "tt.store": "store"}.get(op.name, "atomic")
    fields = {"vector_width": 1, "vector_bits": bits, "instructions_per_thread": 1, "scalar": True}
    return _finding(op, "global", (), None, f"scalar {verb} of {bits} bits", 1.0, fields=fields)


def _buffer(ctx: _Context, op) -> Finding:
    """AMD buffer loads and stores: a base pointer plus a tensor of offsets, vectorised up to the `contiguity`
    the compiler recorded on the op."""
    from .info import contig_per_thread, layout_order
    vt = ctx.parse_type(op.result_types[0])
    ll = ctx.linear(vt)
    bits = vt.element_bits
    dim = layout_order(ll)[0]
    contig = _attr_int(op.attrs, "contiguity") or 1
    vec = max(1, min(128 // bits, contig_per_thread(ll)[dim], contig))
    regs = ll.remove_zero_bases_along_dim("register").get_in_dim_size("register")
    instructions = max(1, regs // vec)
    verb = "load" if op.name.endswith("load") else "store"
    verdict = f"buffer {verb} {vec} x {bits}-bit per thread ({instructions} instruction(s))"
    fields = {"vector_width": vec, "vector_bits": vec * bits, "instructions_per_thread": instructions,
              "contiguity": contig}
    return _finding(op, "global", (vt,), vt, verdict, float(instructions), fields=fields)


def _global(ctx: _Context, op) -> Finding:
    from .info import contig_per_thread, layout_order
    ptr = ctx.parse_type(op.operand_types[0])
    if ptr.kind != "tensor":
        return _scalar_global(ctx, op)
    if not ptr.is_pointer:
        raise TTLayoutError("not a tensor of pointers")
    ll = ctx.linear(ptr)
    bits = ptr.pointee_bits
    order = layout_order(ll)
    dim = order[0]
    contig = contig_per_thread(ll)[dim]
    rank = len(ptr.shape)
    from .axis import load_alignment
    axes = ctx.axes.get(op.operands[0], rank)
    align = load_alignment(axes, dim, max(1, bits // 8))
    vec = max(1, min(128 // bits, contig, align))
    mask = op.operands[2 if op.name == "tt.store" else 1] if len(op.operands) > (2 if op.name == "tt.store" else 1) else None
    if mask is not None and op.name in ("tt.load", "tt.store"):
        vec = max(1, min(vec, ctx.axes.get(mask, rank).constancy[dim]))
    regs = ll.remove_zero_bases_along_dim("register").get_in_dim_size("register")
    instructions = max(1, regs // vec)
    sectors, ideal = _sectors(ll, vec, bits, axes, dim)
    verb = {"tt.load": "load", "tt.store": "store"}.get(op.name, "atomic")
    verdict = (f"{verb} {vec} x {bits}-bit per thread ({instructions} instruction(s)); "
               f"{sectors} sector(s) of 32 bytes per warp access (ideal {ideal})")
    limits = {"layout": contig, "alignment": align, "128 bits": 128 // bits}
    fields = {"vector_width": vec, "vector_bits": vec * bits, "instructions_per_thread": instructions,
              "sectors_per_warp_access": sectors, "ideal_sectors": ideal, "contiguity": axes.contiguity[dim],
              "divisibility": axes.divisibility[dim], "limited_by": min(limits, key=limits.get)}
    return _finding(op, "global", (ptr,), ptr, verdict, instructions * sectors / max(1, ideal),
                    fields=fields)


def _sectors(ll, vec: int, bits: int, axes, dim: int) -> tuple[int, int]:
    """32-byte sectors warp 0's first access touches, and the fewest its bytes could fill. Elements are taken as
    consecutive in memory along `dim` when the pointers are contiguous there, and far apart otherwise."""
    from ..engine import gf2, unflatten
    sizes = [s for _, s in ll.get_out_dims()]
    lanes = gf2.span(ll.flat_in_dim("lane"))        # the element of every lane, in lane order
    contiguous = axes.contiguity[dim] > 1
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
    src = ctx.parse_type(op.operand_types[0])
    axis = _attr_int(op.attrs, "axis") or 0
    ll = ctx.linear(src)
    along = {d: sum(1 for b in ll.get_in_dim_bases(d) if b[axis]) if ll.has_in_dim(d) else 0
             for d in ("register", "lane", "warp", "block")}
    bits = sum(ctx.parse_type(t).element_bits for t in op.operand_types)
    warps = 1 << along["warp"]
    lanes = 1 << along["lane"]
    scratch = 0
    if along["warp"]:
        shape = list(src.shape)
        shape[axis] = warps
        scratch = math.prod(shape) * math.ceil(bits / 8) if op.name == "tt.reduce" else 0
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
    return _finding(op, "reduce" if op.name == "tt.reduce" else "scan", (src,), src, verdict, cost,
                    fields=fields, scratch_bytes=scratch)


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
    return _finding(op, "dot", types[:2] + [acc], acc, verdict, 0.0, fields={"operands": notes})


def _attr_int(attrs: str, key: str) -> int | None:
    m = re.search(rf"\b{re.escape(key)}\s*=\s*(-?\d+)", attrs)
    return int(m.group(1)) if m else None


ANALYSES = {"ttg.convert_layout": ("convert", _convert), **{n: ("shared", _shared) for n in SHARED_OPS},
            **{n: ("tma", _tma) for n in TMA_OPS}, **{n: ("global", _global) for n in GLOBAL_OPS},
            **{n: ("global", _buffer) for n in BUFFER_OPS},
            "tt.reduce": ("reduce", _reduce), "tt.scan": ("scan", _reduce), **{n: ("dot", _dot) for n in DOT_OPS}}


def _applies(op) -> bool:
    if op.name == "ttg.local_alloc":
        return bool(op.operands)                     # only an alloc that stores a value accesses memory
    if op.name in GLOBAL_OPS:
        return bool(op.operand_types) and op.operand_types[0].startswith(("tensor<", "!tt.ptr"))
    return op.name in ANALYSES


# ----------------------------------------------------------------------------------------- shared memory


def shared_use(ctx: _Context, findings: dict) -> SharedUse:
    """The kernel's shared memory as Triton's allocator lays it out (see `allocation`): explicit allocations with
    their views' liveness, each op's scratch, warp-specialization captures."""
    from . import allocation as al
    ops = ctx.module.ops
    ids = al.post_order_ids(ops)
    uses: dict[str, list[int]] = {}
    for i, op in enumerate(ops):
        for o in op.operands:
            uses.setdefault(o.split("#")[0], []).append(i)
            uses.setdefault(o, []).append(i)
    ws_of = _warp_specialize_of(ops)
    root: dict[str, str] = {}
    buffers: dict[str, al.Buffer] = {}
    defined_at: dict[str, int] = {}
    scratch: list = []
    for i, op in enumerate(ops):
        for r in op.results:
            defined_at[r.split(":")[0]] = i
        if op.name == "ttg.local_alloc" and op.results and op.result_types:
            vt = ctx.parse_type(op.result_types[0])
            if vt.kind == "memdesc" and vt.memory in ("#smem", ""):
                name = op.results[0].split(":")[0]
                root[name] = name
                align = _attr_int(op.attrs, "alignment") or _alignment(vt)
                buffers[name] = al.Buffer(name, _bytes(vt), align, *al.live_interval(ops, ids, i, uses.get(name, [])),
                                          region=op.region, concurrent=ws_of.get(i, -1))
        elif op.name in VIEW_OPS and op.results and op.operands:
            source = root.get(op.operands[0].split("#")[0])
            if source:
                root[op.results[0].split(":")[0]] = source
        elif op.name == "scf.for":
            _alias_loop(op, root)
        f = findings.get(i)
        size = f.scratch_bytes if f is not None else 0
        if op.name == "ttg.warp_specialize":
            size = _capture_bytes(ctx, op)
        elif op.name == "ttng.tensormap_create":
            size = 128                              # the TMA descriptor is built in shared memory
        elif op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
            size = _atomic_scratch(ctx, op, uses)
        if size:
            scratch.append(al.Buffer(f"scratch@{op.line}", size, 8 if op.name == "ttg.warp_specialize" else 128,
                                     ids[i], ids[i] + 1, region=op.region, concurrent=ws_of.get(i, -1)))
    for alias, r in root.items():                     # views and loop values keep their buffer live
        if alias == r or alias not in defined_at and alias.split("#")[0] not in defined_at:
            continue
        at = defined_at.get(alias, defined_at.get(alias.split("#")[0]))
        start, end = al.live_interval(ops, ids, at, uses.get(alias, []))
        b = buffers[r]
        b.start, b.end = min(b.start, start), max(b.end, end)
    warps = _partition_warps(ops)
    everything = list(buffers.values()) + scratch
    if warps:
        everything.append(al.Buffer("warp indices", warps, 4, 0, 1 << 62))
    total = al.compute_offsets(everything) if everything else 0
    listed = tuple(Buffer(b.name, next((op.line for op in ops if op.results and op.results[0].split(":")[0] == b.name), 0),
                          b.size, b.alignment, b.start, b.end) for b in buffers.values())
    return SharedUse(total, 0, listed, max((b.size for b in scratch), default=0), ctx.target.shared_limit)


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


def _warp_specialize_of(ops) -> dict[int, int]:
    """Pre-order index of each op inside a warp_specialize's regions -> that warp_specialize's index."""
    from .allocation import subtree_end
    out = {}
    for i, op in enumerate(ops):
        if op.name == "ttg.warp_specialize":
            for k in range(i + 1, subtree_end(ops, i) + 1):
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


def _audit_module(module, index: int, target: str | None = None) -> ModuleAudit:
    name = target or module.target
    try:
        tgt = get_target(name)
    except TTLayoutError:
        tgt = get_target(None)
    ctx = _Context(module, tgt)
    findings: dict[int, Finding] = {}
    problems = []
    for i, op in enumerate(module.ops):
        if not _applies(op):
            continue
        category, analyse = ANALYSES[op.name]
        try:
            findings[i] = analyse(ctx, op)
        except (TTLayoutError, ValueError, IndexError, KeyError, ZeroDivisionError, ImportError) as e:
            findings[i] = _problem(op, category, str(e) or type(e).__name__)
            problems.append(f"line {op.line}: {op.name}: {str(e) or type(e).__name__}")
    shared = shared_use(ctx, findings)
    return ModuleAudit(index, module.first_line, tgt, module.num_warps, module.threads_per_warp,
                       tuple(findings.values()), shared, tuple(problems))


def analyze_audit(modules, target: str | None = None) -> list[ModuleAudit]:
    """Audit every module of a dump (`parsing.module.read_modules`: the modules separated by `// -----`), for
    `target` (default: each module's `ttg.target`)."""
    return [_audit_module(m, i, target) for i, m in enumerate(modules)]
