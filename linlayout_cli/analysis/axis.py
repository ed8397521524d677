"""What a dump tells about integer and pointer values, per tensor dimension, as Triton 3.9's AxisInfo analysis
(`lib/Analysis/AxisInfo.cpp`) derives it: contiguity (runs of consecutive values), divisibility (the largest power
of two dividing the first value of each run; bytes for pointers), constancy (runs of equal values), and the value
itself where it is a known constant. A load's vector width depends on them: Triton takes min(128 bits, the layout's
contiguous registers, the pointers' alignment, the mask's constancy).

The rules are Triton's, op by op: `tt.make_range`, integer constants (scalar and splat, through Triton's constant
evaluator: `arith` add, sub, mul, div, rem, and, or, xor, shifts, min, max, cmpi, select of constants fold),
`tt.splat`, `tt.broadcast`, `tt.expand_dims`, `tt.reshape`, `tt.trans`, `ttg.convert_layout`, `tt.bitcast`,
integer casts, `tt.addptr` / `arith.addi` / `arith.subi`, `arith.muli`, `divsi`/`divui`, `remsi`/`remui`,
shifts, `andi`/`ori`/`xori`, `arith.select`, `maxsi`/`minsi`/..., `arith.cmpi` (masks), `tt.load` (constancy), and
the `tt.contiguity` / `tt.divisibility` / `tt.constancy` hints on an op (`tl.max_contiguous`, `tl.multiple_of`,
`tl.max_constancy`) or on a function argument (the launcher's `tt.divisibility = 16`). Control flow as Triton's
data-flow solver runs it: an `scf.for` induction variable has contiguity 1, constancy 1 and the divisibility
gcd(lower bound, step); `iter_args`, loop results, `scf.if` and `scf.while` results are the join (per dim gcd) of
every value that flows into them, iterated until nothing changes. Every other op (no rule in Triton: `tt.advance`,
descriptor ops, reductions, loads of integers as values, ...) gets Triton's pessimistic state (1, 1, 1) with its
hints applied, exactly as Triton does.

Where Triton's rule is known but this reader cannot apply it, the value is marked `known=False` (and is
pessimistic): the arguments of a `scf.while`'s second region (their `^bb` line is not read), of `warp_specialize`
partitions and of a called function (Triton joins its call sites).

>>> from linlayout_cli.parsing.module import read_modules
>>> text = '''module {
...   tt.func @f(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
...     %c0 = arith.constant 0 : i32
...     %c1024 = arith.constant 1024 : i32
...     %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
...     %p = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
...     scf.for %s = %c0 to %n step %c1024 : i32 {
...       %b = tt.splat %s : i32 -> tensor<1024xi32>
...       %cols = arith.addi %b, %r : tensor<1024xi32>
...       %ptrs = tt.addptr %p, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
...       %v = tt.load %ptrs : tensor<1024x!tt.ptr<f16>>
...     }
...     tt.return
...   }
... }'''
>>> module = read_modules(text)[0]
>>> axes = Axes(module, module.value_type)
>>> ptrs = next(op for op in module.ops if op.name == "tt.load")
>>> info = axes.operand(ptrs, 0)
>>> info.contiguity, info.divisibility, info.constancy      # the induction variable is 1024-divisible
((1024,), (16,), (1,))
"""
from __future__ import annotations

import math

from ..parsing.ssa import (
    comparison_predicate,
    constant_integer,
    integer_attributes,
    read_ssa,
    result_names,
    transpose_order,
)
from ..records import frozen

MAX_DIVISIBILITY = 1 << 62          # Triton's kMaxDivisor: highestPowOf2Divisor<int64_t>(0)
HINTS = ("tt.contiguity", "tt.divisibility", "tt.constancy")
MAX_LOOP_PASSES = 32                # a loop body is walked again until its carried values stop changing
VISITS_PER_OP = 64                  # the walk's budget: beyond it (loops nested very deep) every value is unknown


@frozen
class AxisInfo:
    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]
    constant: int | None = None
    known: bool = True              # False: Triton has a rule here that this reader could not apply

    @staticmethod
    def unknown(rank: int, known: bool = True) -> "AxisInfo":
        """Triton's pessimistic state: nothing known (a scalar has rank 1)."""
        rank = max(rank, 1)
        return AxisInfo((1,) * rank, (1,) * rank, (1,) * rank, None, known)

    @property
    def rank(self) -> int:
        return len(self.contiguity)


def pow2_divisor(n: int) -> int:
    """The largest power of two dividing n (0 is divisible by everything: MAX_DIVISIBILITY).

    >>> pow2_divisor(48), pow2_divisor(-8), pow2_divisor(0) == MAX_DIVISIBILITY
    (16, 8, True)
    """
    return MAX_DIVISIBILITY if n == 0 else min(MAX_DIVISIBILITY, n & -n)


def gcd(*values: int) -> int:
    """Triton's gcd: 0 is the neutral element."""
    out = 0
    for v in values:
        out = math.gcd(out, v)
    return out


def join(a: AxisInfo | None, b: AxisInfo | None) -> AxisInfo | None:
    """`AxisInfo::join`: what holds of both (per dim gcd; the divisibility also bounded by the contiguities when
    they differ); an uninitialised side (None) gives the other."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a.rank != b.rank:
        return AxisInfo.unknown(a.rank)
    return AxisInfo(tuple(gcd(x, y) for x, y in zip(a.contiguity, b.contiguity)),
                    tuple(_divisibility_from_contiguity(a, b, d) for d in range(a.rank)),
                    tuple(gcd(x, y) for x, y in zip(a.constancy, b.constancy)),
                    a.constant if a.constant is not None and a.constant == b.constant else None,
                    a.known and b.known)


def _divisibility_from_contiguity(a: AxisInfo, b: AxisInfo, d: int) -> int:
    ca, cb = a.contiguity[d], b.contiguity[d]
    if ca == cb or MAX_DIVISIBILITY in (ca, cb):
        return gcd(a.divisibility[d], b.divisibility[d])
    return gcd(a.divisibility[d], b.divisibility[d], ca, cb)


def constant_state(shape: tuple, value: int) -> AxisInfo:
    """`AxisInfo::getConstantValueState`: a constant (scalar or splat) of `shape`."""
    rank = max(len(shape), 1)
    return AxisInfo((1,) * rank, (pow2_divisor(value),) * rank, tuple(shape) if shape else (1,), value)


class Axes:
    """AxisInfo of every value of a module, computed once, in program order, loops walked until their carried
    values are stable (as Triton's sparse data-flow solver converges). `operand(op, k)` is the info of op's k-th
    operand; `get(name, rank)` looks a value up by its printed name (the first definition of that name)."""

    def __init__(self, module, value_type):
        self.ops = module.ops
        self.value_type = value_type
        self.ssa = read_ssa(self.ops)
        self.index = {id(op): i for i, op in enumerate(self.ops)}
        self.values: dict = {}
        self.end = _subtree_ends(self.ops)
        self._types: dict = {}
        self._budget = VISITS_PER_OP * max(1, len(self.ops))
        try:
            self._run(0, len(self.ops) - 1)
        except (RecursionError, _Exhausted):
            self.values = {}                # not at a fixed point: nothing is claimed (every value unknown)
        self.by_name: dict = {}
        for i, op in enumerate(self.ops):
            for name, vid in zip(result_names(op.results), self.ssa.results[i]):
                self.by_name.setdefault(name, vid)
                self.by_name.setdefault(name.split("#")[0], vid)
            for k, name in enumerate(self.ssa.arguments.get(i, ())):
                self.by_name.setdefault(name, (i, "a", k))

    # ------------------------------------------------------------------------------------------ queries

    def operand(self, op, k: int, rank: int | None = None) -> AxisInfo:
        """The info of op's k-th operand (unknown of `rank` when the operand is not an analysed value)."""
        i = self.index.get(id(op))
        ids = self.ssa.operands[i] if i is not None else ()
        info = self.values.get(ids[k]) if k < len(ids) and ids[k] is not None else None
        return _fit(info, rank)

    def get(self, name: str, rank: int) -> AxisInfo:
        """The info of the value printed as `name` (its first definition), fitted to `rank`."""
        vid = self.by_name.get(name.strip())
        return _fit(self.values.get(vid) if vid is not None else None, rank)

    # ------------------------------------------------------------------------------------------ the walk

    def _run(self, first: int, last: int) -> None:
        i = first
        while i <= last:
            end = self.end[i]
            if end > i:
                self._region_op(i, end)
                i = end + 1
            else:
                self._visit(i)
                i += 1

    def _set(self, vid, info: AxisInfo | None) -> bool:
        """Join `info` into value `vid`; whether it changed."""
        old = self.values.get(vid)
        new = join(old, info)
        if new != old:
            self.values[vid] = new
            return True
        return False

    def _region_op(self, i: int, end: int) -> None:
        op, ssa = self.ops[i], self.ssa
        if i in ssa.functions:
            for k, arg in enumerate(ssa.functions[i]):
                self.values[(i, "a", k)] = self._argument(arg)
            self._run(i + 1, end)
            return
        if i in ssa.loops:
            loop = ssa.loops[i]
            lb, step = self._info(loop.lower, 1), self._info(loop.step, 1)
            self._set((i, "a", 0), AxisInfo((1,), (gcd(lb.divisibility[0], step.divisibility[0]),), (1,)))
            for k, init in enumerate(loop.inits):
                info = self._info(init, self._result_rank(i, k))
                self._set((i, "a", k + 1), info)
                self._set((i, "r", k), info)
            for _ in range(MAX_LOOP_PASSES):
                self._run(i + 1, end)
                changed = False
                for values in ssa.yields.get(i, []):
                    for k, vid in enumerate(values):
                        info = self._info(vid, self._result_rank(i, k))
                        changed |= self._set((i, "a", k + 1), info)
                        self._set((i, "r", k), info)
                if not changed:
                    return
            return
        if i in ssa.whiles:
            inits = ssa.whiles[i]
            for k, init in enumerate(inits):
                self._set((i, "a", k), self._info(init, None))
            for _ in range(MAX_LOOP_PASSES):
                self._run(i + 1, end)
                changed = False
                for values in ssa.yields.get(i, [])[-1:]:
                    for k, vid in enumerate(values):
                        changed |= self._set((i, "a", k), self._info(vid, None))
                if not changed:
                    break
            for k, vid in enumerate(ssa.conditions.get(i, ())[1:]):
                self._set((i, "r", k), self._info(vid, self._result_rank(i, k)))
            return
        self._run(i + 1, end)
        if op.name == "scf.if":
            for values in ssa.yields.get(i, []):
                for k, vid in enumerate(values):
                    self._set((i, "r", k), self._info(vid, self._result_rank(i, k)))
            for k, vid in enumerate(ssa.results[i]):
                if vid not in self.values:
                    self.values[vid] = AxisInfo.unknown(self._result_rank(i, k))
            return
        self._visit(i)

    def _argument(self, arg) -> AxisInfo:
        """A function argument: pessimistic, with its `tt.contiguity` / `tt.divisibility` / `tt.constancy`."""
        shape = self._shape_of(arg.type)
        info = AxisInfo.unknown(len(shape))
        return _hinted(info, arg.attrs)

    def _info(self, vid, rank: int | None) -> AxisInfo:
        """A value's info; an operand the walk never reached is pessimistic and marked unknown."""
        info = self.values.get(vid) if vid is not None else None
        if info is None:
            return AxisInfo.unknown(rank or 1, known=vid is not None and vid[1] == "r")
        return info

    # ------------------------------------------------------------------------------------------ types

    def _shape_of(self, text: str) -> tuple:
        shape = self._types.get(text)
        if shape is None:
            try:
                t = self.value_type(text)
                shape = tuple(t.shape) if t.kind == "tensor" else ()
            except Exception:
                shape = ()
            self._types[text] = shape
        return shape

    def _result_shape(self, i: int, k: int = 0) -> tuple:
        op = self.ops[i]
        types = op.result_types or op.operand_types
        if not types:
            return ()
        return self._shape_of(types[min(k, len(types) - 1)])

    def _result_rank(self, i: int, k: int = 0) -> int:
        return max(1, len(self._result_shape(i, k)))

    def _element(self, text: str) -> str:
        try:
            t = self.value_type(text)
            return str(t.element)
        except Exception:
            return ""

    # ------------------------------------------------------------------------------------------ one op

    def _visit(self, i: int) -> None:
        self._budget -= 1
        if self._budget < 0:
            raise _Exhausted
        op = self.ops[i]
        results = self.ssa.results[i]
        if not results:
            return
        rank = self._result_rank(i)
        ins = [self._info(vid, None) for vid in self.ssa.operands[i]]
        try:
            info = self._rule(op, i, ins, rank)
        except (IndexError, KeyError, ValueError, ZeroDivisionError, TypeError):
            info = None
        if info is None or info.rank != rank:
            info = AxisInfo.unknown(rank)
        elif info.constant is not None and not (len(results) == 1 and self._is_integer(op)):
            info = AxisInfo(info.contiguity, info.divisibility, info.constancy, None, info.known)
        elif info.constant is not None:
            info = constant_state(self._result_shape(i), info.constant)
        info = _hinted(info, integer_attributes(op.attrs) if "tt." in op.attrs else {})
        for vid in results:
            self._set(vid, info)

    def _is_integer(self, op) -> bool:
        types = op.result_types or op.operand_types
        element = self._element(types[-1]) if types else ""
        return element.startswith("i") or element == "index"

    def _rule(self, op, i: int, ins: list, rank: int) -> AxisInfo | None:
        name = op.name
        shape = self._result_shape(i)
        folded = self._fold(op, ins)
        if folded is not None:
            return constant_state(shape, folded)
        if name == "tt.make_range":
            attrs = integer_attributes(op.attrs)
            start, end = attrs.get("start", (0,))[0], attrs.get("end", (0,))[0]
            return AxisInfo((end - start,), (pow2_divisor(start),), (1,))
        if name == "ub.poison":
            return AxisInfo((MAX_DIVISIBILITY,) * rank, (MAX_DIVISIBILITY,) * rank, (MAX_DIVISIBILITY,) * rank)
        if name in ("arith.extsi", "arith.extui", "arith.trunci"):
            a = ins[0]
            return AxisInfo(a.contiguity, a.divisibility, a.constancy, None, a.known)
        if name in ("ttg.convert_layout", "gluon.set_auto_layout", "builtin.unrealized_conversion_cast"):
            return ins[0]
        if name == "tt.bitcast":
            return self._bitcast(op, ins[0])
        if name == "tt.splat":
            a = ins[0]
            return AxisInfo((1,) * rank, (a.divisibility[0],) * rank, tuple(shape), a.constant, a.known)
        if name == "tt.load":
            ptr = ins[0]
            mask = ins[1] if len(ins) > 1 else None
            return AxisInfo((1,) * ptr.rank, (1,) * ptr.rank,
                            tuple(gcd(k, mask.constancy[d] if mask else 0) for d, k in enumerate(ptr.constancy)))
        if name == "tt.expand_dims":
            return self._expand_dims(op, ins[0], shape)
        if name == "tt.broadcast":
            src = self._shape_of(op.operand_types[0])
            a = ins[0]
            return AxisInfo(tuple(1 if s == 1 else c for s, c in zip(src, a.contiguity)), a.divisibility,
                            tuple(r if s == 1 else k for s, r, k in zip(src, shape, a.constancy)), a.constant, a.known)
        if name == "tt.reshape":
            return _reshape(ins[0], self._shape_of(op.operand_types[0]), shape)
        if name == "tt.trans":
            order = transpose_order(op.attrs)
            a = ins[0]
            if order is None or len(order) != a.rank:
                return None
            return AxisInfo(tuple(a.contiguity[o] for o in order), tuple(a.divisibility[o] for o in order),
                            tuple(a.constancy[o] for o in order), a.constant, a.known)
        if name == "arith.cmpi":
            return _compare(comparison_predicate(op.text), ins[0], ins[1], shape) if shape else None
        if name == "arith.select":
            return self._select(op, ins)
        if name in ("arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui"):
            return join(ins[0], ins[1])
        if name in _BINARY:
            a, b = ins[0], ins[1]
            if a.rank != b.rank:
                return None
            rule = _BINARY[name]
            elem = self._pointee_bytes(op) if name == "tt.addptr" else 1
            width = self._bit_width(op)
            out = [rule(name, a, b, d, shape, elem, width) for d in range(a.rank)]
            return AxisInfo(tuple(v[0] for v in out), tuple(v[1] for v in out), tuple(v[2] for v in out), None,
                            a.known and b.known)
        return None

    def _fold(self, op, ins: list) -> int | None:
        """Triton's ConstantEvaluator: the op's value when its operands are known constants."""
        name = op.name
        if name == "arith.constant":
            return constant_integer(op.text)
        values = [a.constant for a in ins]
        if name in ("arith.extsi", "arith.extui", "arith.trunci") and values and values[0] is not None:
            return values[0]
        if name == "arith.muli" and any(v == 0 for v in values):
            return 0
        if name in ("arith.remsi", "arith.remui") and len(values) == 2 and values[1] == 1:
            return 0
        if name == "arith.select" and len(values) == 3:
            if values[0] is not None:
                return values[1] if values[0] else values[2]
            return values[1] if values[1] is not None and values[1] == values[2] else None
        if len(values) != 2 or values[0] is None or values[1] is None:
            return None
        a, b = values
        fold = {
            "arith.addi": lambda: a + b, "arith.subi": lambda: a - b, "arith.muli": lambda: a * b,
            "arith.divsi": lambda: int(a / b) if b else None, "arith.divui": lambda: a // b if b else None,
            "arith.remsi": lambda: int(math.fmod(a, b)) if b else None, "arith.remui": lambda: a % b if b else None,
            "arith.andi": lambda: a & b, "arith.ori": lambda: a | b, "arith.xori": lambda: a ^ b,
            "arith.shli": lambda: a << b if 0 <= b < 64 else None,
            "arith.shrsi": lambda: a >> b if 0 <= b < 64 else None,
            "arith.shrui": lambda: a >> b if 0 <= b < 64 and a >= 0 else None,
            "arith.minsi": lambda: min(a, b), "arith.maxsi": lambda: max(a, b),
            "arith.minui": lambda: min(a, b) if a >= 0 and b >= 0 else None,
            "arith.maxui": lambda: max(a, b) if a >= 0 and b >= 0 else None,
            "arith.cmpi": lambda: _compare_values(comparison_predicate(op.text), a, b),
        }.get(name)
        return fold() if fold else None

    def _pointee_bytes(self, op) -> int:
        try:
            t = self.value_type(op.operand_types[0])
            return max(1, (t.pointee_bits or 8) // 8)
        except Exception:
            return 1

    def _bit_width(self, op) -> int:
        types = op.result_types or op.operand_types
        element = self._element(types[-1]) if types else ""
        return int(element[1:]) if element[:1] == "i" and element[1:].isdigit() else 64

    def _expand_dims(self, op, a: AxisInfo, shape: tuple) -> AxisInfo:
        if a.constant is not None:
            return constant_state(shape, a.constant)
        axis = integer_attributes(op.attrs).get("axis", (0,))[0]
        div = gcd(*(1 if c > 1 else d for c, d in zip(a.contiguity, a.divisibility))) or 1
        return AxisInfo(_insert(a.contiguity, axis, 1), _insert(a.divisibility, axis, div),
                        _insert(a.constancy, axis, 1), None, a.known)

    def _bitcast(self, op, a: AxisInfo) -> AxisInfo:
        try:
            src, dst = self.value_type(op.operand_types[0]), self.value_type(op.result_types[0])
            src_bytes, dst_bytes = max(1, (src.pointee_bits or 0) // 8), max(1, (dst.pointee_bits or 0) // 8)
            pointer = src.is_pointer
        except Exception:
            return a
        if not pointer or src_bytes == dst_bytes:
            return a
        div = tuple(gcd(d, src_bytes) if c > 1 else d for c, d in zip(a.contiguity, a.divisibility))
        return AxisInfo((1,) * a.rank, div, a.constancy, a.constant, a.known)

    def _select(self, op, ins: list) -> AxisInfo:
        cond, a, b = ins
        if cond.constant is not None:
            return a if cond.constant else b
        cond_type = op.operand_types[0] if len(op.operand_types) > 1 else ""
        if cond_type.startswith("i1") or not op.operand_types or (len(op.operand_types) > 1 and
                                                                   not cond_type.startswith("tensor")):
            return join(a, b) or a
        contiguity, divisibility, constancy = [], [], []
        for d in range(a.rank):
            constancy.append(gcd(a.constancy[d], b.constancy[d], cond.constancy[d]))
            contiguity.append(gcd(a.contiguity[d], b.contiguity[d], cond.constancy[d]))
            divisibility.append(gcd(_divisibility_from_contiguity(a, b, d), contiguity[-1]))
        return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), None, a.known and b.known)


class _Exhausted(Exception):
    """The walk's budget is spent (loops nested so deep that iterating them to a fixed point would not end soon)."""


# ------------------------------------------------------------------------------------------------ binary rules
# Each returns (contiguity, divisibility, constancy) of dim d.

def _multiply(a: int, b: int) -> int:
    return MAX_DIVISIBILITY if a > MAX_DIVISIBILITY // max(b, 1) else a * b


def _add_sub(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    if name == "arith.subi":
        contiguity = gcd(a.contiguity[d], b.constancy[d])
    else:
        contiguity = max(gcd(a.constancy[d], b.contiguity[d]), gcd(a.contiguity[d], b.constancy[d]))
    da, db = a.divisibility[d], b.divisibility[d]
    if name == "tt.addptr":
        db = _multiply(db, elem)
    else:
        elem = 1
    if a.contiguity[d] > 1 and b.contiguity[d] > 1:
        if name == "arith.subi" and a.contiguity[d] == b.contiguity[d]:
            div = gcd(da, db)
        else:
            div = 2 if da % 2 == 0 and db % 2 == 0 else 1
    elif a.contiguity[d] > 1 or b.contiguity[d] > 1:
        div = gcd(da, db, _multiply(contiguity, elem))
    else:
        div = gcd(da, db)
    return contiguity, div, gcd(a.constancy[d], b.constancy[d])


def _mul(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    contiguity = max(a.contiguity[d] if b.constant == 1 else 1, b.contiguity[d] if a.constant == 1 else 1)
    da = 1 if a.contiguity[d] > 1 and b.constant != 1 else a.divisibility[d]
    db = 1 if b.contiguity[d] > 1 and a.constant != 1 else b.divisibility[d]
    return contiguity, _multiply(da, db), gcd(a.constancy[d], b.constancy[d])


def _contiguous_dim(a: AxisInfo, shape, d: int) -> bool:
    return bool(shape) and a.contiguity[d] == shape[d]


def _constant_dim(a: AxisInfo, shape, d: int) -> bool:
    return bool(shape) and a.constancy[d] == shape[d]


def _div(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    contiguity = a.contiguity[d] if b.constant == 1 else 1
    constancy = gcd(a.constancy[d], b.constancy[d])
    if shape and _contiguous_dim(a, shape, d) and _constant_dim(b, shape, d):
        constancy = max(constancy, gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d]))
    if a.constant == 0 or b.constant == 1:
        div = a.divisibility[d]
    elif b.constant is not None and a.contiguity[d] == 1 and b.constant != 0 and \
            (abs(b.constant) if name == "arith.divsi" else b.constant) > 0 and \
            (abs(b.constant) & (abs(b.constant) - 1)) == 0:
        div = max(1, a.divisibility[d] >> (abs(b.constant).bit_length() - 1))
    else:
        div = 1
    return contiguity, div, constancy


def _rem(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    contiguity = 1
    if shape and _contiguous_dim(a, shape, d) and _constant_dim(b, shape, d):
        contiguity = gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d])
    div = gcd(a.divisibility[d], b.divisibility[d])
    if a.contiguity[d] > contiguity or b.contiguity[d] > contiguity:
        div = gcd(div, contiguity)
    return contiguity, div, gcd(a.constancy[d], b.constancy[d])


def _logic(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    return 1, 1, gcd(a.constancy[d], b.constancy[d])


def _shift(name, a: AxisInfo, b: AxisInfo, d: int, shape, elem: int, width: int):
    amount = b.constant
    contiguity = a.contiguity[d] if amount == 0 else 1
    constancy = gcd(a.constancy[d], b.constancy[d])
    if name == "arith.shli":
        da = 1 if a.contiguity[d] > 1 and amount != 0 else a.divisibility[d]
        if amount is None:
            return contiguity, da, constancy
        if amount < 0 or amount >= width:
            return contiguity, 1, constancy
        return contiguity, _multiply(da, 1 << min(amount, 62)), constancy
    if amount is None or amount < 0 or amount >= width:
        return contiguity, 1, constancy
    da = 1 if a.contiguity[d] > 1 and amount != 0 else a.divisibility[d]
    return contiguity, max(1, da >> min(amount, 62)), constancy


_BINARY = {"tt.addptr": _add_sub, "arith.addi": _add_sub, "arith.subi": _add_sub, "arith.muli": _mul,
           "arith.divsi": _div, "arith.divui": _div, "arith.remsi": _rem, "arith.remui": _rem,
           "arith.andi": _logic, "arith.ori": _logic, "arith.xori": _logic,
           "arith.shli": _shift, "arith.shrsi": _shift, "arith.shrui": _shift}


def _compare(predicate: str, a: AxisInfo, b: AxisInfo, shape) -> AxisInfo | None:
    """`arith.cmpi` on tensors: only constancy is known (a mask's runs of equal bits)."""
    if a.rank != b.rank:
        return None
    constancy = []
    for d in range(a.rank):
        k = gcd(a.constancy[d], b.constancy[d])
        if predicate in ("sgt", "ugt", "sle", "ule") and _constant_dim(a, shape, d):
            k = max(k, gcd(b.contiguity[d], a.divisibility[d], b.divisibility[d]))
        elif predicate in ("slt", "ult", "sge", "uge") and _constant_dim(b, shape, d):
            k = max(k, gcd(a.contiguity[d], a.divisibility[d], b.divisibility[d]))
        constancy.append(k)
    return AxisInfo((1,) * a.rank, (1,) * a.rank, tuple(constancy), None, a.known and b.known)


def _compare_values(predicate: str, a: int, b: int) -> int | None:
    table = {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b, "sgt": a > b, "sge": a >= b}
    if predicate in table:
        return int(table[predicate])
    if predicate in ("ult", "ule", "ugt", "uge") and a >= 0 and b >= 0:
        return int({"ult": a < b, "ule": a <= b, "ugt": a > b, "uge": a >= b}[predicate])
    return None


def _reshape(a: AxisInfo, src: tuple, dst: tuple) -> AxisInfo:
    """`ReshapeOpAxisInfoVisitor`: each destination dim inherits from the source dim it splits (row-major
    strides); contiguity survives only where the destination dim starts at the source dim's low boundary."""
    if a.constant is not None:
        return constant_state(dst, a.constant)
    if len(src) != a.rank or not dst:
        return AxisInfo.unknown(len(dst))

    def suffix(shape):
        out = [1] * (len(shape) + 1)
        for d in range(len(shape) - 1, -1, -1):
            out[d] = out[d + 1] * shape[d]
        return out
    ps, qs = suffix(src), suffix(dst)
    # unit contiguity along a dim makes every element a group base: that dim's divisibility holds everywhere
    global_div = max([dv for c, dv in zip(a.contiguity, a.divisibility) if c == 1] or [1])
    contiguity, divisibility, constancy = [1] * len(dst), [global_div] * len(dst), [1] * len(dst)
    for m in range(len(dst)):
        stride = qs[m + 1]
        s = next((k for k in range(len(src)) if ps[k + 1] <= stride < ps[k]), 0)
        src_stride = ps[s + 1]
        c, dv, k = a.contiguity[s], a.divisibility[s], a.constancy[s]
        if c > 1:
            if stride == src_stride:
                contiguity[m] = min(c, dst[m])
                divisibility[m] = max(global_div, dv if contiguity[m] == c else min(dv, contiguity[m]))
            continue
        end = src_stride * k
        if stride <= end:
            const = min(dst[m], end // stride)
            remaining = dst[m] // const
            dim = s - 1
            while k == src[s] and dim >= 0 and remaining > 1:
                piece = min(src[dim], remaining)
                piece_const = min(a.constancy[dim], piece)
                const *= piece_const
                if piece_const < piece:
                    break
                remaining //= piece
                dim -= 1
            constancy[m] = const
    return AxisInfo(tuple(contiguity), tuple(divisibility), tuple(constancy), None, a.known)


def _hinted(info: AxisInfo, attrs: dict) -> AxisInfo:
    """The `tt.contiguity` / `tt.divisibility` / `tt.constancy` an op or argument carries replace what the rules
    found (one value for every dim when a single value is given)."""
    if not attrs or not any(h in attrs for h in HINTS):
        return info
    fields = [info.contiguity, info.divisibility, info.constancy]
    for k, key in enumerate(HINTS):
        values = attrs.get(key)
        if values:
            fields[k] = tuple(values) if len(values) == info.rank else (values[0],) * info.rank
    return AxisInfo(fields[0], fields[1], fields[2], info.constant, info.known)


def _fit(info: AxisInfo | None, rank: int | None) -> AxisInfo:
    if info is None:
        return AxisInfo.unknown(rank or 1, known=False)
    if rank is not None and info.rank != rank:
        if rank > 1 and info.rank == 1:               # a scalar used as a splat
            return AxisInfo((1,) * rank, info.divisibility * rank, (1,) * rank, None, info.known)
        return AxisInfo.unknown(rank, known=False)
    return info


def _insert(values: tuple, axis: int, value: int) -> tuple:
    out = list(values)
    out.insert(axis, value)
    return tuple(out)


def _subtree_ends(ops) -> list[int]:
    """Index of the last op inside each op's regions (the op itself when it has none)."""
    n = len(ops)
    end = list(range(n))
    stack: list[int] = []
    for i, op in enumerate(ops):
        while stack and ops[stack[-1]].depth >= op.depth:
            end[stack.pop()] = i - 1
        stack.append(i)
    while stack:
        end[stack.pop()] = n - 1
    return end
