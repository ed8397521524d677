"""One op's row of an audited module, and the layouts its `convert` or `bank` report needs (the command line's
`--line`)."""
from __future__ import annotations

from ...errors import TTLayoutError
from ...records import frozen
from ..kinds import Category
from ..targets import Target
from .context import Context, op_type
from .findings import Finding, ModuleAudit
from .modules import function_units
from .shared import placed_layouts, shared_operands


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


@frozen
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
    if f.problem or f.category not in (Category.CONVERT, Category.SHARED):
        return None
    for unit in function_units(module):
        op = next((o for o in unit.ops if o.line == f.line and o.name == f.op), None)
        if op is None:
            continue
        ctx = Context(unit, target)
        if f.category == Category.CONVERT:
            src, dst = ctx.parse_type(op_type(op, "operand", 0)), ctx.parse_type(op_type(op, "result", 0))
            return OpLayouts("convert", (ctx.linear(src), ctx.linear(dst)), (ctx.key(src)[1], ctx.key(dst)[1]),
                             tuple(src.shape), src.element, src.element_bits, target)
        reg, mem, kind = shared_operands(ctx, op)
        return OpLayouts("shared", placed_layouts(ctx, reg, mem), (ctx.key(reg)[1], ctx.key(mem)[1]), tuple(mem.shape),
                         mem.element, mem.element_bits, target, kind)
    return None
