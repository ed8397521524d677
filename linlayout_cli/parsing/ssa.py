"""The SSA structure of a module's ops as printed: which definition each operand names (MLIR scopes names per
region, so sibling regions reuse `%cols_12`), the block arguments of functions and loops, the values a region
yields, and the few attribute and constant spellings a value analysis reads (integer constants, `tt.divisibility`
style hints, a comparison's predicate, a transpose's order).

A value is named by a `ValueId`: `(op index, "r", k)` for the k-th result of op `index`, `(op index, "a", k)` for
the k-th block argument of op `index`'s regions (a function's arguments, a loop's induction variable followed by
its `iter_args`, a `scf.while`'s first-region arguments). Everything here is text reading; the analysis of those
values lives in `analysis/axis.py`.

>>> from linlayout_cli.parsing.module import read_modules
>>> text = '''module {
...   tt.func @f(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
...     %c0 = arith.constant 0 : i32
...     %c4 = arith.constant 4 : i32
...     %r = scf.for %i = %c0 to %n step %c4 iter_args(%a = %c0) -> (i32) : i32 {
...       %s = arith.addi %a, %i : i32
...       scf.yield %s : i32
...     }
...     tt.return
...   }
... }'''
>>> ops = read_modules(text)[0].ops
>>> ssa = read_ssa(ops)
>>> [op.name for op in ops][:5]
['module', 'tt.func', 'arith.constant', 'arith.constant', 'scf.for']
>>> [(a.name, a.attrs) for a in ssa.functions[1]]
[('%p', {'tt.divisibility': (16,)}), ('%n', {})]
>>> loop = ssa.loops[4]
>>> loop.lower, loop.upper, loop.step, loop.inits
((2, 'r', 0), (1, 'a', 1), (3, 'r', 0), ((2, 'r', 0),))
>>> ssa.operands[5]                      # %a and %i: the loop's iter arg 0 (block argument 1) and induction variable
((4, 'a', 1), (4, 'a', 0))
>>> ssa.yields[4]
[((5, 'r', 0),)]
"""
from __future__ import annotations

import re

from ..records import frozen
from .lexical import skip_balanced
from .module import _depth_split, _find_top, _top_spans

ValueId = tuple          # (op index, "r" | "a", k)

_INT = re.compile(r"-?\d{1,30}")


@frozen
class Argument:
    """A function argument: its name, type text and integer attributes (`tt.divisibility = 16 : i32` -> (16,);
    `dense<[1, 16]>` -> (1, 16))."""
    name: str
    type: str
    attrs: dict


@frozen
class ForLoop:
    """`scf.for %iv = LB to UB step STEP iter_args(%a = INIT, ...)`: the values LB, UB, STEP and the inits (None
    for a name the module does not define)."""
    lower: ValueId | None
    upper: ValueId | None
    step: ValueId | None
    inits: tuple


class Ssa:
    """Per op (by index): its results' and operands' ValueIds; per function op: its arguments; per `scf.for` /
    `scf.while`: the loop's header; per region op: the operand ids of each terminator in its regions (`scf.yield`,
    `scf.condition`, in order). (A plain class: `dataclasses` costs the audit's start-up, see records.py.)"""
    __slots__ = ("results", "operands", "functions", "loops", "whiles", "yields", "conditions", "owner", "arguments")

    def __init__(self) -> None:
        self.results: list = []
        self.operands: list = []
        self.functions: dict = {}
        self.loops: dict = {}
        self.whiles: dict = {}           # op index -> inits (first region's arguments)
        self.yields: dict = {}           # region op index -> [operand ids of each scf.yield]
        self.conditions: dict = {}       # scf.while index -> operand ids of its scf.condition
        self.owner: list = []            # op index -> index of the op whose region holds it (-1)
        self.arguments: dict = {}        # region op index -> its first region's argument names


def result_names(results: tuple) -> list[str]:
    """An op's printed results -> one name per value: ('%acc:3',) -> ['%acc#0', '%acc#1', '%acc#2']."""
    out = []
    for r in results:
        base, _, count = r.partition(":")
        if count.isdigit():
            out += [f"{base}#{k}" for k in range(int(count))]
        else:
            out.append(base)
    return out


def _operand_key(name: str) -> str:
    """'%acc#0' stays; '%x' stays (a single result)."""
    return name.strip()


def read_ssa(ops) -> Ssa:
    """Resolve every operand of `ops` (one module's ops in printed order, with region depths) to its definition,
    scoping names per region as MLIR's printer does."""
    ssa = Ssa()
    frames: list = []              # [depth, region, owner op index, {name: ValueId}]
    last_region_op: dict = {}      # depth -> index of the latest op at that depth (the owner of deeper regions)
    pending: dict = {}             # op index -> block-argument names of its first region
    entered: set = set()           # region ops whose first region has been entered
    for i, op in enumerate(ops):
        d, region = op.depth, op.region
        while frames and (frames[-1][0] > d or (frames[-1][0] == d and frames[-1][1] != region)):
            frames.pop()
        if not frames or frames[-1][0] != d:
            owner = last_region_op.get(d - 1, -1)
            names = {}
            if owner not in entered:         # a loop's / function's arguments belong to its first region
                entered.add(owner)
                for k, name in enumerate(pending.get(owner, ())):
                    names[name] = (owner, "a", k)
            frames.append([d, region, owner, names])
        owner = frames[-1][2]
        ssa.owner.append(owner)

        def lookup(name: str):
            key = _operand_key(name)
            for frame in reversed(frames):
                if key in frame[3]:
                    return frame[3][key]
            return None

        header = _header(op)
        if op.name == "scf.for":
            loop_names, loop = _for_header(op.text, lookup)
            pending[i] = loop_names
            if loop is not None:
                ssa.loops[i] = loop
            operands = ()
        elif op.name == "scf.while":
            while_names, inits = _while_header(op.text, lookup)
            pending[i] = while_names
            ssa.whiles[i] = inits
            operands = ()
        elif op.name in ("tt.func", "llvm.func"):
            args = function_arguments(op.text)
            pending[i] = [a.name for a in args]
            ssa.functions[i] = args
            operands = ()
        else:
            operands = tuple(lookup(o) for o in header)
        if i in pending:
            ssa.arguments[i] = list(pending[i])
        ssa.operands.append(operands)
        if op.name == "scf.yield" and owner >= 0:
            ssa.yields.setdefault(owner, []).append(operands)
        elif op.name == "scf.condition" and owner >= 0:
            ssa.conditions[owner] = operands
        ids = tuple((i, "r", k) for k in range(len(result_names(op.results))))
        ssa.results.append(ids)
        scope = frames[-1][3]
        for k, name in enumerate(result_names(op.results)):
            scope[name] = ids[k]
            if "#" in name and name.endswith("#0"):
                scope.setdefault(name.split("#")[0], ids[k])
        last_region_op[d] = i
    return ssa


def _header(op) -> tuple:
    """The operand names of an op (results of multi-result ops as `%x#k`)."""
    return op.operands


_FOR = re.compile(r"scf\.for\s+(%[\w$.\-]+)\s*=\s*(%[\w$.\-#]+)\s+to\s+(%[\w$.\-#]+)\s+step\s+(%[\w$.\-#]+)")


def _for_header(text: str, lookup) -> tuple[list, ForLoop | None]:
    """The block-argument names (induction variable, iter args) and the loop header of an `scf.for` text."""
    m = _FOR.search(text)
    if m is None:
        return [], None
    pairs = _assignments(text, text.find("iter_args(", m.end()))
    names = [m.group(1)] + [a for a, _ in pairs]
    loop = ForLoop(lookup(m.group(2)), lookup(m.group(3)), lookup(m.group(4)), tuple(lookup(v) for _, v in pairs))
    return names, loop


def _while_header(text: str, lookup) -> tuple[list, tuple]:
    """`scf.while (%a = %x, ...)`: the first region's argument names and their initial values."""
    k = text.find("scf.while")
    pairs = _assignments(text, text.find("(", k)) if k >= 0 else []
    return [a for a, _ in pairs], tuple(lookup(v) for _, v in pairs)


def _assignments(text: str, at: int) -> list[tuple[str, str]]:
    """`(%a = %x, %b = %y)` starting at index `at` (of the opening bracket or of `iter_args(`) -> pairs."""
    if at < 0:
        return []
    open_at = text.find("(", at)
    if open_at < 0:
        return []
    end = skip_balanced(text, open_at)
    if end <= open_at:
        return []
    out = []
    for part in _depth_split(text[open_at + 1:end - 1], ","):
        name, eq, value = part.partition("=")
        if eq:
            out.append((name.strip(), value.strip().split()[0] if value.strip() else ""))
    return out


def function_arguments(text: str) -> list[Argument]:
    """The arguments of a `tt.func` header: `@f(%a: type {attrs} loc(...), ...)`."""
    at = text.find("@")
    open_at = text.find("(", at if at >= 0 else 0)
    if open_at < 0:
        return []
    end = skip_balanced(text, open_at)
    if end <= open_at:
        return []
    inner = text[open_at + 1:end - 1] if end > open_at else ""
    out = []
    for part in _depth_split(inner, ","):
        name, colon, rest = part.partition(":")
        if not colon or not name.strip().startswith("%"):
            continue
        rest = rest.strip()
        spans = _top_spans(rest)
        brace = _find_top(rest, "{", 0, spans)
        loc = _find_top(rest, "loc(", 0, spans)
        type_end = min(k for k in (brace, loc, len(rest)) if k >= 0)
        attrs = {}
        if brace >= 0:
            close = skip_balanced(rest, brace)
            attrs = integer_attributes(rest[brace:close])
        out.append(Argument(name.strip(), rest[:type_end].strip(), attrs))
    return out


def integer_attributes(attrs: str) -> dict:
    """`{tt.divisibility = 16 : i32, tt.contiguity = dense<[1, 64]> : tensor<2xi32>}` -> {'tt.divisibility':
    (16,), 'tt.contiguity': (1, 64)}: every attribute whose value is an integer or a dense integer list (a splat
    `dense<16>` gives one entry)."""
    text = attrs.strip()
    if text.startswith("<{") and text.endswith("}>"):
        text = text[1:-1]
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    out = {}
    for part in _depth_split(text, ","):
        key, eq, value = part.partition("=")
        if not eq:
            continue
        value = value.strip()
        if value.startswith("dense<"):
            inner = value[6:value.find(">")] if ">" in value else ""
            nums = _INT.findall(inner.replace("[", " ").replace("]", " "))
            if nums and all(n.lstrip("-").isdigit() for n in nums) and "." not in inner and "e" not in inner:
                out[key.strip()] = tuple(int(n) for n in nums)
            continue
        head = value.split(":")[0].strip()
        if re.fullmatch(r"-?\d{1,30}", head):
            out[key.strip()] = (int(head),)
        elif head in ("true", "false"):
            out[key.strip()] = (1 if head == "true" else 0,)
    return out


def integer_attribute(attrs: str, key: str) -> int | None:
    """One integer attribute of an op's attribute text (`axis`, `start`, `end`, `contiguity`), or None."""
    values = integer_attributes(attrs).get(key)
    return values[0] if values and len(values) == 1 else None


_VALUE_NAME = re.compile(r"%[\w$.-]+")


def rename_values(text: str, rename) -> str:
    """`text` with every SSA value name (`%x`) replaced by `rename(name)` (a warp_specialize partition's names
    made unique per partition)."""
    return _VALUE_NAME.sub(lambda m: rename(m.group(0)), text)


_PLAIN_CONSTANT = re.compile(r"arith\.constant\s+(-?\d+)\s*:")


def plain_constant(text: str) -> int | None:
    """The integer a scalar `arith.constant N : type` defines (a memdesc_index's constant slot), else None."""
    m = _PLAIN_CONSTANT.search(text)
    return int(m.group(1)) if m else None


_CONSTANT = re.compile(r"arith\.constant\s+(?:dense<)?\s*(-?\d{1,30}|true|false)\s*>?\s*:\s*(\S+)")


def constant_integer(text: str) -> int | None:
    """The integer (or i1) an `arith.constant` defines, a splat included: `arith.constant dense<16> :
    tensor<64xi32>` -> 16; None for a float or a non-splat constant.

    >>> constant_integer("%c = arith.constant 1024 : i32"), constant_integer("%t = arith.constant dense<true> : tensor<4xi1>")
    (1024, 1)
    >>> constant_integer("%f = arith.constant 1.000000e+00 : f32") is None
    True
    """
    m = _CONSTANT.search(text)
    if m is None:
        return None
    value, ty = m.group(1), m.group(2)
    element = ty[7:].split(",")[0].split("x")[-1] if ty.startswith("tensor<") else ty
    if not (element.startswith("i") or element == "index"):
        return None
    if value in ("true", "false"):
        return 1 if value == "true" else 0
    return int(value)


def comparison_predicate(text: str) -> str:
    """`arith.cmpi slt, %a, %b` -> 'slt' ('' when there is none)."""
    k = text.find("arith.cmpi")
    if k < 0:
        return ""
    word = text[k + len("arith.cmpi"):].strip().split(",")[0].strip()
    return word if word.isalpha() else ""


def transpose_order(attrs: str) -> tuple[int, ...] | None:
    """`{order = array<i32: 1, 0>}` -> (1, 0)."""
    k = attrs.find("order")
    if k < 0:
        return None
    open_at = attrs.find(":", attrs.find("array<", k))
    close = attrs.find(">", open_at)
    if open_at < 0 or close < 0:
        return None
    return tuple(int(v) for v in _INT.findall(attrs[open_at + 1:close]))
