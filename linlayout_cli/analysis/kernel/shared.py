"""The cost of register <-> shared-memory ops (`local_alloc` with a value, `local_store`, `local_load`: the
shared-access model; `async_copy_global_to_local`: the `bank` model)."""
from __future__ import annotations

from ...errors import TTLayoutError
from ...parsing.module import alloc_shape
from ..global_sectors import unit_bytes, warp_access
from ..kinds import Category
from ..targets import READ, WRITE
from .context import (
    Context,
    Misaligned,
    NotModelled,
    Unreadable,
    finding,
    ideal_instructions,
    op_type,
    value_bytes,
)
from .facts import AsyncCopy, SharedAccess
from .findings import Finding
from .global_access import layout_facts


def placed_layouts(ctx: Context, reg_vt, mem_vt):
    """(register layout, shared layout) as the bank model compares them: a view of a larger buffer keeps the
    larger one's layout, and the register layout is placed inside it."""
    from ...engine import LinearLayout
    reg, smem = ctx.linear(reg_vt), ctx.linear(mem_vt)
    if reg.get_out_dims() != smem.get_out_dims():
        if len(reg_vt.shape) != len(mem_vt.shape):
            raise NotModelled(f"a {len(reg_vt.shape)}-d value in a {len(mem_vt.shape)}-d buffer")
        reg = LinearLayout(dict(reg.get_bases()), smem.get_out_dims(), require_surjective=False)
    return reg, smem


def _bank(ctx: Context, reg_vt, mem_vt, op_kind: str):
    """The bank model for a register layout accessing a shared buffer (`_placed`)."""
    from ..bank import analyze_bank

    def compute():
        reg, smem = placed_layouts(ctx, reg_vt, mem_vt)
        return analyze_bank(reg, smem, mem_vt.element_bits, ctx.target, simulate_lanes=False)
    report = ctx.memo.get(("bank", ctx.key(reg_vt), ctx.key(mem_vt), ctx.target.name), compute)
    return report, report.accesses[op_kind]


def shared_operands(ctx: Context, op):
    """(register tensor, shared buffer, READ or WRITE) of a register <-> shared-memory op."""
    if op.name == "ttg.local_load":
        mem, reg, kind = ctx.parse_type(op_type(op, "operand", 0)), ctx.parse_type(op_type(op, "result", 0)), READ
    elif op.name == "ttg.local_alloc":
        reg, mem, kind = ctx.parse_type(op_type(op, "operand", 0)), ctx.parse_type(op_type(op, "result", 0)), WRITE
    else:                                            # local_store / async copy: value -> buffer
        reg = ctx.parse_type(op_type(op, "operand", 0))
        mem = ctx.parse_type(op_type(op, "result", 0) if op.result_types else op_type(op, "operand", -1))
        kind = WRITE
    mem = _view_of(ctx, op, mem)
    if reg.kind != "tensor" or mem.kind != "memdesc":
        raise Unreadable("no register tensor and shared buffer to compare")
    if mem.memory not in ("#smem", "") and "shared" not in mem.memory:
        raise NotModelled(f"a buffer in {mem.memory}, not in shared memory")
    return reg, mem, kind


def shared_op(ctx: Context, op) -> Finding:
    """A register tensor stored to or loaded from shared memory."""
    reg, mem, kind = shared_operands(ctx, op)
    if op.name != "ttg.async_copy_global_to_local":
        return _local_access(ctx, op, reg, mem, kind)
    report, access = _bank(ctx, reg, mem, kind)
    vec = report.vector_width
    instruction = access.instruction
    if op.name == "ttg.async_copy_global_to_local":
        contig = op.int_attr("contiguity") or _pointer_vector(ctx, op, reg, report.bitwidth)
        vec = max(1, min(vec, contig))
        instruction = f"cp.async ({vec * report.bitwidth} bits per lane)" if ctx.target.vendor == "nvidia" else \
            f"global_load_lds ({vec * report.bitwidth} bits per lane)"
    elements = report.instructions_per_warp * report.vector_width
    per_thread = max(1, elements // vec)
    from ..bank import vector_limit
    limit = vector_limit(report) if vec == report.vector_width else "pointer contiguity"
    facts = AsyncCopy(access.conflicts, vec, vec * report.bitwidth, per_thread, access.wavefronts, kind,
                      value_bytes(mem), instruction, limit, _copy_sectors(ctx, reg, vec, report.bitwidth))
    return finding(ctx, op, Category.SHARED, (reg, mem), reg, per_thread * (1 + access.conflicts),
                   ideal_instructions(elements, report.bitwidth), facts=facts)


def _pointer_vector(ctx: Context, op, ptr_vt, bits: int) -> int:
    """Elements one copy may move by the pointers alone, as Triton lowers an async copy without a `contiguity`
    attribute: their AxisInfo along the layout's fastest dim, contiguity and alignment (divisibility in bytes)."""
    from .global_access import layout_facts
    dim, _, _ = layout_facts(ctx, ptr_vt, ctx.linear(ptr_vt))
    axes = ctx.axes.operand(op, 0, len(ptr_vt.shape))
    return max(1, min(axes.contiguity[dim], axes.divisibility[dim] // max(1, bits // 8)))


def _direction(ctx: Context, reg_vt, mem_vt, kind: str):
    """The shared-access model (analysis/shared_access.py) of a register layout writing or reading a buffer: the
    instruction Triton emits, how many, the wavefronts; a padded buffer priced with its padding. A view of a
    larger buffer keeps the larger one's layout (the register layout is placed inside it)."""
    from ...attributes.encodings import PaddedSharedEncoding
    from ...conversions import PrintOnlyLayout
    from ...engine import LinearLayout
    from ..shared_access import local_access, shared_layout_of

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
        return local_access(reg, smem, memory_bits(reg_vt), kind, ctx.target, padding)
    if mem_vt.encoding is None:
        raise Unreadable(mem_vt.problem or "no layout on the buffer")
    return ctx.memo.get(("access", ctx.key(reg_vt), ctx.key(mem_vt), kind, ctx.target.name), compute)


def memory_bits(vt) -> int:
    """Bits of one element in shared memory (i1 is stored as a byte)."""
    return max(8, vt.element_bits)


def _local_access(ctx: Context, op, reg, mem, kind: str) -> Finding:
    """A local_alloc with a value, local_store or local_load, on the shared-access model; a padding that leaves
    the compiler's vector access misaligned is the error it is (the kernel would fault)."""
    from ..shared_access import MisalignedAccess
    try:
        d = _direction(ctx, reg, mem, kind)
    except MisalignedAccess as e:
        raise Misaligned(str(e)) from None
    per_thread = d.instructions_per_warp
    cost = float(per_thread)                         # instructions x (wavefronts / the ideal), like a convert's
    if d.wavefronts_total and d.ideal_wavefronts_total:
        cost = per_thread * d.wavefronts_total / d.ideal_wavefronts_total
    facts = SharedAccess(d.conflicts, d.instruction, d.vector_bits // memory_bits(reg), d.vector_bits, per_thread,
                         d.instructions_per_cta, d.wavefronts_max, d.wavefronts_mean, d.wavefronts_total,
                         d.ideal_wavefronts_total, kind, value_bytes(mem), _shared_limit(ctx, d, reg, mem, kind),
                         why=d.why or None, issued=d.issued if d.issued is not None and d.issued != per_thread else None)
    elements = per_thread * d.vector_bits // memory_bits(reg)
    return finding(ctx, op, Category.SHARED, (reg, mem), reg, cost,
                   ideal_instructions(elements, memory_bits(reg)), facts=facts)


def _shared_limit(ctx: Context, d, reg, mem, kind: str) -> str:
    """What keeps a shared access from a wider vector, in the words of `bank.vector_limit` ("128-bit cap",
    "register layout", "shared layout", from the bank model's prepared pair, which needs no target);
    "matrix instruction" for ldmatrix / stmatrix / ds_read_tr, whose width is the instruction's; "layout" where the
    bank model does not place the buffer (a padded one)."""
    if d.vector_bits >= 128:
        return "128-bit cap"
    from ..bank import prepare, vector_limit_of
    from ..shared_access import DS_READ_TR, MATRIX, MATRIX_TRANS
    if d.kind in (MATRIX, MATRIX_TRANS, DS_READ_TR):
        return "matrix instruction"
    bits = mem.element_bits

    def limit() -> str:
        reg_ll, smem_ll = placed_layouts(ctx, reg, mem)
        prep = prepare(reg_ll, smem_ll, bits)
        return vector_limit_of(prep, prep.v, bits)
    try:
        return ctx.memo.get(("vector-limit", ctx.key(reg), ctx.key(mem)), limit)
    except TTLayoutError:
        return "layout"


def _copy_sectors(ctx: Context, reg, vec: int, bits: int) -> int:
    """Sectors of global memory one warp-level asynchronous copy reads (analysis/global_sectors.py), its pointers
    taken as contiguous along the layout's fastest dim (the recorded `contiguity` says so) and a row stride apart
    along the others, as a load's are counted."""
    ll = ctx.linear(reg)
    dim = layout_facts(ctx, reg, ll)[0]
    sizes = [s for _, s in ll.get_out_dims()]
    contiguity = tuple(s if d == dim else 1 for d, s in enumerate(sizes))
    unit = unit_bytes(ctx.target.vendor)
    return ctx.memo.get(("copy sectors",) + ctx.key(reg)[1:3] + (vec, bits, dim, unit),
                        lambda: warp_access(ll, bits, vec, contiguity, (1,) * len(sizes), unit, unit)).sectors


def _view_of(ctx: Context, op, mem):
    """A memdesc with an allocation shape (`..., mutable, 128x64`) is a view: analyse it in the full buffer."""
    if mem.kind == "memdesc":
        text = next((t for t in op.operand_types + op.result_types if t.startswith(("!ttg.memdesc<", "<"))), "")
        alloc = alloc_shape(text)
        if alloc is not None:
            from ...records import replace
            if len(alloc) == len(mem.shape):
                return replace(mem, shape=alloc)
    return mem
