"""One module being audited (`Context`: its values' types and defining ops, the audit's `Memo`), the errors that
make an op's row "not modelled", "not analysed" or "error", and the helpers every cost model uses to make a row."""
from __future__ import annotations

import math

from ...errors import TTLayoutError
from ..kinds import Category, Status
from ..targets import Target
from .findings import LOOP_WEIGHT, Finding


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


class Context:
    """One module being audited: types and defining ops of its values, and the audit's memo (linear layouts and
    analyses by canonical key)."""

    def __init__(self, module, target: Target, memo: Memo | None = None):
        self.module, self.target = module, target
        self.num_warps: int | None = None
        self.memo = memo if memo is not None else Memo()
        self.type_cache: dict = {}
        self.types: dict = {}
        self.canon: dict = {}
        self.same: dict = {}                         # tuple -> its one copy (`finding`)
        self.rows: dict = {}                         # an op text's row without its place (`placed_row`)
        self.loc_texts: dict = {}                    # id(Loc) -> (Loc, 'file:line:col'): one string per place
        self._parse = module.value_type
        self._defined: dict[str, int] | None = None
        self._position: dict[int, int] | None = None
        self._axes = None
        self._tree = None

    @property
    def defined(self) -> dict[str, int]:
        """Value name -> index of the op defining it (built when first asked: a dot's operands, a reduction's)."""
        if self._defined is None:
            self._defined = {r.split(":")[0]: i for i, op in enumerate(self.module.ops) for r in op.results}
        return self._defined

    @property
    def position(self) -> dict[int, int]:
        """id(op) -> its index among the module's ops (built when first asked)."""
        if self._position is None:
            self._position = {id(op): i for i, op in enumerate(self.module.ops)}
        return self._position

    @property
    def axes(self):
        """The values' AxisInfo (`axis.Axes`), computed when a global access first asks for it: a function of
        converts and shared-memory ops alone never walks its values for it."""
        if self._axes is None:
            from ..axis import Axes
            module = self.module
            # the values' AxisInfo depends on the ops, not on the layouts: one analysis for every advise candidate
            ops, axes = self.memo.get(("axes", id(module.ops)), lambda: (module.ops, Axes(module, self.parse_type)))
            self._axes = axes if ops is module.ops else Axes(module, self.parse_type)
        return self._axes

    @property
    def tree(self):
        """The region structure of the module's ops (`allocation.OpTree`), built once for every walk that needs it
        (shared memory, Membar, warp-index shuffles)."""
        if self._tree is None:
            from ..allocation import OpTree
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
    from ...conversions import PrintOnlyLayout, analysable_layout
    try:
        return analysable_layout(vt.encoding, vt.shape)
    except PrintOnlyLayout as e:
        raise NotModelled(str(e)) from None


def op_type(op, which: str, k: int) -> str:
    """The k-th operand or result type of an op (negative k counts from the end), or Unreadable."""
    types = op.operand_types if which == "operand" else op.result_types
    if not -len(types) <= k < len(types):
        raise Unreadable(f"{op.name} has no {which} type {k if k >= 0 else len(types) + k}")
    return types[k]


def _weight(op) -> int:
    return LOOP_WEIGHT if op.loops else 1


def finding(ctx: Context, op, category: Category, types, vt, cost: float, ideal: float = 0.0, **kw) -> Finding:
    """A row: `types` are the ValueTypes whose layouts the op involves, `vt` the one whose shape is shown; `cost`
    and `ideal` per execution (a loop weighs them)."""
    types = [t for t in types if t is not None and t.encoding is not None]
    same = ctx.same                                  # one copy of each tuple for the rows of a repeated op
    layouts = tuple(t.encoding_text for t in types)
    attrs = tuple(ctx.key(t)[1] for t in types)
    shape = tuple(vt.shape) if vt else ()
    loc_text, frames = place(ctx, op)
    return Finding(op.name, op.line, loc_text, op.loops, category,
                   same.setdefault(layouts, layouts), same.setdefault(attrs, attrs), same.setdefault(shape, shape),
                   vt.element if vt else "", Status.ANALYSED, cost * _weight(op),
                   ideal=min(cost, ideal) * _weight(op), frames=frames, **kw)


def place(ctx: Context, op) -> tuple[str | None, tuple]:
    """(the op's 'file:line:col', its frames), one string per distinct location however many ops name it."""
    loc = op.loc
    if loc is None:
        return None, ()
    known = ctx.loc_texts.get(id(loc))
    if known is None:
        known = ctx.loc_texts[id(loc)] = (loc, str(loc))      # the Loc kept: its id stays its own
    return known[1], loc.frames


def placed_row(ctx: Context, op, key: tuple, make) -> Finding:
    """The row of an op whose analysis depends on its text alone (`key`: what of it matters): `make()` once per
    key, and that one row for every op of the key (`ctx.rows`); the audit gives each its own line and location when
    it weighs it (`kernel.audit`). A function of 450,000 converts among three layouts analyses three rows and copies each row once."""
    row = ctx.rows.get(key)
    if row is None:
        row = ctx.rows[key] = make()
    return row


def ideal_instructions(elements: int, bits: int) -> int:
    """The fewest memory instructions one thread needs for `elements` of `bits` each: 128 bits per instruction.

    >>> ideal_instructions(32, 16), ideal_instructions(1, 32), ideal_instructions(32, 32)
    (4, 1, 8)
    """
    return max(1, math.ceil(elements * bits / 128))


def problem_row(op, category, error: TTLayoutError) -> Finding:
    """The row of an op that is not modelled (NotModelled) or whose text could not be read (any other error)."""
    status = (Status.NOT_MODELLED if isinstance(error, NotModelled) else Status.ERROR if isinstance(error, Misaligned)
              else Status.NOT_ANALYSED)
    return Finding(op.name, op.line, str(op.loc) if op.loc else None, op.loops, category, (), (), (), "",
                   status, 0.0, problem=str(error) or type(error).__name__, frames=op.loc.frames if op.loc else ())


# ----------------------------------------------------------------------------------------- per op



def swizzle_bytes(vt) -> int | None:
    """The swizzlingByteWidth of a buffer's layout (#ttg.nvmma_shared); None where its layout has none."""
    if vt is None or vt.encoding is None:
        return None
    return getattr(vt.encoding, "swizzling_byte_width", None)


def value_bytes(vt) -> int:
    return math.prod(vt.shape) * vt.element_bits // 8 if vt.shape else 0
