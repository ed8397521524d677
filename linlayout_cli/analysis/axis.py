"""What a dump tells about pointer values, per tensor dimension, after Triton's AxisInfo analysis (simplified):
contiguity (runs of consecutive values), divisibility (the largest power of two dividing the run's first value)
and constancy (runs of equal values). A load's vector width depends on them: Triton takes
min(128 bits, the layout's contiguous registers, the pointers' alignment, the mask's constancy).

The rules follow lib/Analysis/AxisInfo.cpp for the ops index arithmetic is made of (make_range, splat, broadcast,
expand_dims, addptr, addi, subi, muli, constants, casts, cmpi, andi, select); anything else is unknown
(1, 1, 1), as Triton assumes. Loop-carried values take their initial value's facts.
"""
from __future__ import annotations

import math
import re

from ..records import frozen

MAX_DIVISIBILITY = 1 << 30


@frozen
class AxisInfo:
    contiguity: tuple[int, ...]
    divisibility: tuple[int, ...]
    constancy: tuple[int, ...]

    @staticmethod
    def unknown(rank: int) -> "AxisInfo":
        """Nothing known (a scalar keeps one divisibility entry)."""
        return AxisInfo((1,) * rank, (1,) * max(rank, 1), (1,) * rank)


def pow2_divisor(n: int) -> int:
    """The largest power of two dividing n (0 is divisible by everything: MAX_DIVISIBILITY)."""
    return MAX_DIVISIBILITY if n == 0 else min(MAX_DIVISIBILITY, n & -n)


def _attr_int(attrs: str, key: str) -> int | None:
    m = re.search(rf"\b{re.escape(key)}\s*=\s*(-?\d{{1,18}})(?!\d)", attrs)
    return int(m.group(1)) if m else None


def _constant(text: str) -> int | None:
    m = re.search(r"arith\.constant\s+(?:dense<)?(-?\d{1,18})(?![.\de\d])", text)
    return int(m.group(1)) if m else None


class Axes:
    """AxisInfo of the SSA values of one function, as a walk in program order finds them; computed when first
    asked for (an audit needs the pointer and mask chains of its loads and stores, not every value), each value
    once, with an explicit stack (a def chain of any length). A value used before its definition (or defined by
    nothing the walk knows) is unknown, as in program order."""

    def __init__(self, module, value_type):
        self.info: dict[str, AxisInfo] = {}
        self.value_type = value_type
        self.ops = module.ops
        self.defined_at: dict[str, int] = {}
        self.loop_args: dict[str, tuple[str, int]] = {}         # iter arg -> (its initial value, the loop's index)
        for k, op in enumerate(module.ops):
            if op.name == "tt.func":
                self._arguments(op)
            elif op.name == "scf.for":
                self._loop(op, k)
            for name in op.results:
                self.defined_at.setdefault(_base(name), k)

    def get(self, name: str, rank: int) -> AxisInfo:
        info = self._value(_base(name), len(self.ops))
        if info is None or len(info.contiguity) != rank:
            if info is not None and not info.contiguity:           # a scalar splatted implicitly
                return AxisInfo((1,) * rank, info.divisibility * rank or (1,) * rank, (1,) * rank)
            return AxisInfo.unknown(rank)
        return info

    def _value(self, name: str, before: int) -> AxisInfo | None:
        """The info of value `name` as an op at index `before` sees it (None: unknown)."""
        if name in self.loop_args:
            init, loop = self.loop_args[name]
            return self._value(_base(init), loop) if loop < before else None
        if name in self.info and name not in self.defined_at:
            return self.info[name]                              # a function argument
        k = self.defined_at.get(name)
        if k is None or k >= before:
            return None
        self._compute(k)
        return self.info.get(name)

    def _compute(self, k: int) -> None:
        """The results of op k, after those of the ops defining its operands (explicit stack)."""
        stack, done = [k], set()
        while stack:
            j = stack[-1]
            op = self.ops[j]
            if _base(op.results[0]) in self.info if op.results else True:
                stack.pop()
                continue
            waiting = [d for d in (self._source(o, j) for o in op.operands) if d is not None and d not in done
                       and not (self.ops[d].results and _base(self.ops[d].results[0]) in self.info)]
            if waiting and j not in done:
                done.add(j)
                stack.extend(waiting)
                continue
            stack.pop()
            for i, name in enumerate(op.results):
                rank = len(self._shape(op, i))
                try:
                    info = self._rule(op, i, rank)
                except (IndexError, KeyError, ValueError, ZeroDivisionError):
                    info = AxisInfo.unknown(rank)
                self.info[_base(name)] = _hinted(info, op.attrs, rank)

    def _source(self, operand: str, before: int) -> int | None:
        """The index of the op whose result an operand of op `before` is (through loop arguments), if earlier."""
        name = _base(operand)
        while name in self.loop_args:
            init, loop = self.loop_args[name]
            if loop >= before:
                return None
            name, before = _base(init), loop
        k = self.defined_at.get(name)
        return k if k is not None and k < before else None

    # -------------------------------------------------------------------------------- sources

    def _shape(self, op, i: int) -> tuple[int, ...]:
        types = op.result_types or op.operand_types
        if not types:
            return ()
        t = self.value_type(types[min(i, len(types) - 1)])
        return t.shape if t.kind == "tensor" else ()

    def _arguments(self, op) -> None:
        for m in re.finditer(r"(%[\w$.\-]+)\s*:\s*[^,{)]*?(\{[^}]*\})?\s*(?:loc\(|,|\))", op.text):
            div = _attr_int(m.group(2) or "", "tt.divisibility")
            self.info[m.group(1)] = AxisInfo((), (div or 1,), ())

    def _loop(self, op, k: int) -> None:
        m = re.search(r"iter_args\((.*?)\)\s*->", op.text)
        if m:
            for pair in m.group(1).split(","):
                arg, _, init = pair.partition("=")
                self.loop_args[arg.strip()] = (init.strip(), k)

    # -------------------------------------------------------------------------------- the rules

    def _rule(self, op, i: int, rank: int) -> AxisInfo:
        here = self.defined_at.get(_base(op.results[0]), len(self.ops)) if op.results else len(self.ops)
        name, seen = op.name, [self._value(_base(o), here) for o in op.operands]
        shape = self._shape(op, i)
        if name == "arith.constant":
            c = _constant(op.text)
            if c is None:
                return AxisInfo.unknown(rank)
            return AxisInfo((1,) * rank, (pow2_divisor(c),) * max(rank, 1) if rank else (pow2_divisor(c),),
                            tuple(shape))
        if name == "tt.make_range":
            start, end = _attr_int(op.attrs, "start") or 0, _attr_int(op.attrs, "end") or 0
            return AxisInfo((end - start,), (pow2_divisor(start),), (1,))
        if name == "tt.get_program_id":
            return AxisInfo((), (1,), ())
        # a value the walk has not seen (a loop counter, a block argument): unknown, as Triton starts it
        ins = [i if i is not None else AxisInfo((), (1,), ()) if rank == 0 else AxisInfo.unknown(rank) for i in seen]
        if name == "tt.splat":
            div = ins[0].divisibility[0] if ins[0].divisibility else 1
            return AxisInfo((1,) * rank, (div,) * rank, tuple(shape))
        if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "tt.int_to_ptr",
                    "tt.ptr_to_int", "arith.bitcast"):
            return ins[0]
        if name == "tt.trans":
            m = re.search(r"order\s*=\s*array<i32:([^>]*)>", op.attrs)
            if m is None:
                return AxisInfo.unknown(rank)
            order = [int(v) for v in re.findall(r"-?\d+", m.group(1))]
            a = ins[0]
            return AxisInfo(*(tuple(f[k] for k in order) for f in (a.contiguity, a.divisibility, a.constancy)))
        if name == "tt.reshape":
            return _reshaped(ins[0], self.value_type(op.operand_types[0]).shape, shape)
        if name == "tt.expand_dims":
            axis = _attr_int(op.attrs, "axis") or 0
            a = ins[0]
            ins_div = a.divisibility[0] if a.divisibility else 1
            return AxisInfo(_insert(a.contiguity, axis, 1), _insert(a.divisibility, axis, ins_div),
                            _insert(a.constancy, axis, 1))
        if name == "tt.broadcast":
            src = self.value_type(op.operand_types[0]).shape
            a = ins[0]
            grown = [s == 1 and d > 1 for s, d in zip(src, shape)]
            return AxisInfo(tuple(1 if g else c for g, c in zip(grown, a.contiguity)), a.divisibility,
                            tuple(d if g else k for g, d, k in zip(grown, shape, a.constancy)))
        if name in ("arith.addi", "tt.addptr", "arith.subi") and len(ins) == 2:
            a, b = _ranked(ins, rank)
            return _add(a, b, self._scale(op) if name == "tt.addptr" else 1, name == "arith.subi")
        if name == "arith.muli" and len(ins) == 2:
            a, b = _ranked(ins, rank)
            return AxisInfo(tuple(1 for _ in a.contiguity),
                            tuple(min(MAX_DIVISIBILITY, x * y) for x, y in zip(a.divisibility, b.divisibility)),
                            tuple(math.gcd(x, y) for x, y in zip(a.constancy, b.constancy)))
        if name == "arith.cmpi" and len(ins) == 2:
            a, b = _ranked(ins, rank)
            return AxisInfo((1,) * rank, (1,) * rank, tuple(
                math.gcd(ka, kb) if ka > 1 and kb > 1 else
                math.gcd(math.gcd(ca, da), db) if ca > 1 and kb > 1 else 1
                for ca, da, ka, db, kb in zip(a.contiguity, a.divisibility, a.constancy, b.divisibility,
                                              b.constancy)))
        if name in ("arith.remsi", "arith.remui") and len(ins) == 2:
            a, b = _ranked(ins, rank)
            return AxisInfo(tuple(math.gcd(ca, db) if kb > 1 else 1
                                  for ca, db, kb in zip(a.contiguity, b.divisibility, b.constancy)),
                            tuple(math.gcd(da, db) for da, db in zip(a.divisibility, b.divisibility)),
                            tuple(math.gcd(ka, kb) for ka, kb in zip(a.constancy, b.constancy)))
        if name in ("arith.andi", "arith.ori") and len(ins) == 2:
            a, b = _ranked(ins, rank)
            return AxisInfo((1,) * rank, (1,) * rank, tuple(math.gcd(x, y) for x, y in zip(a.constancy, b.constancy)))
        if name == "arith.select" and len(ins) == 3:
            _, a, b = _ranked(ins, rank)
            return AxisInfo(*(tuple(math.gcd(x, y) for x, y in zip(p, q)) for p, q in (
                (a.contiguity, b.contiguity), (a.divisibility, b.divisibility), (a.constancy, b.constancy))))
        return AxisInfo.unknown(rank)

    def _scale(self, op) -> int:
        """Bytes per element of an addptr's pointer (offsets count elements, divisibility counts bytes)."""
        t = self.value_type(op.operand_types[0]) if op.operand_types else None
        try:
            return max(1, t.pointee_bits // 8) if t else 1
        except Exception:
            return 1


def _reshaped(a: AxisInfo, src: tuple, dst: tuple) -> AxisInfo:
    """A reshape that only adds or drops size-1 dims keeps each real dim's facts; any other is unknown."""
    real_src = [k for k, s in enumerate(src) if s != 1]
    real_dst = [k for k, s in enumerate(dst) if s != 1]
    if [src[k] for k in real_src] != [dst[k] for k in real_dst]:
        return AxisInfo.unknown(len(dst))
    fields = []
    for f, unit in ((a.contiguity, 1), (a.divisibility, a.divisibility[0] if a.divisibility else 1),
                    (a.constancy, 1)):
        out = [unit] * len(dst)
        for ks, kd in zip(real_src, real_dst):
            out[kd] = f[ks]
        fields.append(tuple(out))
    return AxisInfo(*fields)


_HINTS = tuple(re.compile(rf"{re.escape(key)}\s*=\s*dense<\[?([\d,\s]+)\]?>")
               for key in ("tt.contiguity", "tt.divisibility", "tt.constancy"))


def _hinted(info: AxisInfo, attrs: str, rank: int) -> AxisInfo:
    """`tt.contiguity` / `tt.divisibility` / `tt.constancy` on an op (tl.max_contiguous, tl.multiple_of,
    tl.max_constancy) replace what the rules found."""
    if "tt." not in attrs:                  # the usual op: no hint (and no regex searched)
        return info
    fields = [info.contiguity, info.divisibility, info.constancy]
    for k, pattern in enumerate(_HINTS):
        m = pattern.search(attrs)
        if m:
            values = tuple(int(v) for v in m.group(1).replace(" ", "").split(",") if v)
            fields[k] = values if len(values) == rank else (values[0],) * max(rank, 1)
    return AxisInfo(*fields)


def _base(name: str) -> str:
    """'%acc_61#3' -> '%acc_61' (the results of a multi-result op share one entry)."""
    return name.split("#", 1)[0].strip()


def _insert(values: tuple, axis: int, value: int) -> tuple:
    out = list(values)
    out.insert(axis, value)
    return tuple(out)


def _ranked(infos, rank: int):
    """Scalars (rank 0) as splats of that rank."""
    return [AxisInfo((1,) * rank, (i.divisibility[0] if i.divisibility else 1,) * rank, (MAX_DIVISIBILITY,) * rank)
            if not i.contiguity and rank else i for i in infos]


def _add(a: AxisInfo, b: AxisInfo, scale: int, subtract: bool) -> AxisInfo:
    contiguity = tuple(max(math.gcd(ca, kb), 1 if subtract else math.gcd(ka, cb))
                       for ca, ka, cb, kb in zip(a.contiguity, a.constancy, b.contiguity, b.constancy))
    divisibility = tuple(math.gcd(da, min(MAX_DIVISIBILITY, db * scale)) for da, db in zip(a.divisibility, b.divisibility))
    constancy = tuple(math.gcd(ka, kb) for ka, kb in zip(a.constancy, b.constancy))
    return AxisInfo(contiguity, divisibility, constancy)
