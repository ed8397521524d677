"""The `diff` report: whether two layouts are equal at a shape, how each tensor dim is spread in each (`info`'s
notation), the input bits that map to other elements, and what the difference costs (`convert`'s verdict, or the
offsets that hold another element and the bank conflicts of both). Blocks and JSON."""
from __future__ import annotations

from ..analysis.diff import BitChange, LayoutDiff
from ..analysis.targets import READ, WRITE
from .blocks import Fields, Line
from .common import coord, plural, shape_text
from .info import spread_json, spread_label, spread_text

MAX_LISTED = 8                  # bits and offsets listed in text; JSON has them all


def _what_bits(d: LayoutDiff) -> str:
    return {"shared": "offset bits", "tensor memory": "row and column bits"}.get(d.category_a, "hardware bits")


def headline(d: LayoutDiff) -> str:
    """'equal: ...' or 'different: ...' in one line."""
    if d.equal:
        return f"equal: the same linear layout at {shape_text(d.shape)} (every input bit maps to the same element)"
    if not d.same_category:
        how = ("tmem_load and tmem_store move data between them: print the tensor memory layout with --tmem-warps N "
               "for their register layout" if "tensor memory" in (d.category_a, d.category_b)
               else "what storing one into the other costs: ttlayout bank")
        return f"different: A is a {d.category_a} layout, B a {d.category_b} one ({how})"
    if not d.changes:
        return "different: the same offsets of the same elements, padded differently"
    return f"different: {len(d.changes)} of {plural(d.bits, _what_bits(d)[:-1])} map to other elements"


def _bit(c: BitChange) -> str:
    def at(x):
        return coord(x) if x is not None else "(no such bit)"
    return f"{c.dim} {1 << c.bit}: {at(c.a)} -> {at(c.b)}"


def _more(shown: int, total: int, where: str = " (--json lists them all)") -> list[str]:
    """'... and N more' for a list that stops at `shown` of `total`."""
    return [f"... and {total - shown} more{where}"] if total > shown else []


def _spread_rows(d: LayoutDiff) -> list[tuple[str, str]]:
    rows = []
    for sa, sb in zip(d.spread_a, d.spread_b):
        ta, tb = spread_text(sa), spread_text(sb)
        if ta == tb:
            rows.append((spread_label(sa), f"A, B  {ta}"))
        else:
            rows += [(spread_label(sa), f"A     {ta}"), ("", f"B     {tb}")]
    return rows


def _convert_rows(d: LayoutDiff, verdict) -> list[tuple[str, str]]:
    if d.convert_error:
        return [("convert", f"no verdict: {d.convert_error}")]
    if d.convert is None:
        return []
    from ..analysis.convert import ConvertReport
    r = d.convert
    assert isinstance(r, ConvertReport)
    return [("convert", f"A -> B on {r.target}: {verdict(r)}"),
            ("", "ttlayout convert -r A -d B: the instructions, the moves and the scratch layout")]


def _offset_rows(d: LayoutDiff) -> list[tuple[str, str]]:
    o = d.offsets
    if o is None:
        both = d.category_a == d.category_b == "shared" and not d.partitioned
        return [("offsets", "the two layouts have offset spaces of different sizes: no offset-by-offset "
                            "comparison")] if both else []
    rows = [("offsets", f"{o.moved} of {o.total} offsets hold another element in B than in A"
                        + (f" ({o.total - o.moved} the same)" if o.moved and o.moved < o.total else ""))]
    for block, offset, ea, eb in o.examples:
        where = f"block {block}, offset {offset}" if block else f"offset {offset}"
        rows.append(("", f"{where}: {coord(ea)} in A, {coord(eb)} in B"))
    rows += [("", t) for t in _more(len(o.examples), o.moved, "")]
    return rows


def _access(report, op: str) -> str:
    a = report.accesses[op]
    return f"{a.instruction} {plural(a.conflicts, 'conflict')}, {a.wavefronts} wavefronts per instruction"


def _bank_rows(d: LayoutDiff, register: str | None, register_note: str | None) -> list[tuple[str, str]]:
    if d.offsets is None:
        return []
    if d.banks_error:
        return [("banks", f"against {register}: no answer: {d.banks_error}")]
    if d.banks is None:
        return [("banks", register_note or "no register layout: -r REG_ATTR prices both against one")]
    ra, rb = d.banks
    rows = [("banks", f"against {register} on {ra.target.name}:")]
    for name, r in (("A", ra), ("B", rb)):
        rows.append(("", f"{name}  store {_access(r, WRITE)}; load {_access(r, READ)}"))
    return rows


def blocks(d: LayoutDiff, a_text: str, b_text: str, element: str | None, bitwidth: int,
           register: str | None = None, register_note: str | None = None) -> list:
    """`register`: the register layout the shared pair is priced against (its text); `register_note`: why
    there is none."""
    from .convert import verdict
    colour = "green" if d.equal else "yellow"
    word, _, rest = headline(d).partition(": ")
    elem = f" ({element})" if element else ""
    rows = [("A", f"{a_text}  ({d.category_a})"), ("B", f"{b_text}  ({d.category_b})"),
            ("tensor", f"{shape_text(d.shape)}, {bitwidth}-bit elements{elem}")]
    rows += _spread_rows(d)
    if d.padding_a or d.padding_b:
        rows.append(("padding", _padding_text(d.padding_a, d.padding_b)))
    if d.changes and d.same_category:
        rows.append(("bits", f"{_what_bits(d)} that step other elements (named by their index), A -> B:"))
        rows += [("", _bit(c)) for c in d.changes[:MAX_LISTED]]
        rows += [("", t) for t in _more(min(len(d.changes), MAX_LISTED), len(d.changes))]
    rows += _convert_rows(d, verdict) + _offset_rows(d) + _bank_rows(d, register, register_note)
    return [Line(((f"{word}: ", f"bold {colour}"), (rest, ""))), Fields(tuple(rows))]


def _padding_text(a, b) -> str:
    def text(p):
        return "[" + ", ".join(f"{i}:+{q}" for i, q in p) + "]" if p else "none"
    return f"A, B  {text(a)}" if a == b else f"A {text(a)}, B {text(b)}"


def _change_json(c: BitChange) -> dict:
    return {"dim": c.dim, "bit": c.bit, "index": 1 << c.bit, "a": list(c.a) if c.a is not None else None,
            "b": list(c.b) if c.b is not None else None}


def _banks_json(d: LayoutDiff, register: str | None, register_note: str | None) -> dict | None:
    if d.offsets is None:
        return None
    if d.banks is None:
        return {"register_layout": register, "note": d.banks_error or register_note, "a": None, "b": None}
    from .bank import _access_json
    out = {"register_layout": register, "target": d.banks[0].target.name, "note": None}
    for name, r in zip("ab", d.banks):
        out[name] = {"conflicts": r.conflicts, "vector_width": r.vector_width,
                     "write": _access_json(r.accesses[WRITE]), "read": _access_json(r.accesses[READ])}
    return out


def json_text(d: LayoutDiff, a_text: str, b_text: str, element: str | None, bitwidth: int,
              register: str | None = None, register_note: str | None = None) -> str:
    import json

    from ..analysis.convert import ConvertReport
    from .convert import as_dict
    o = d.offsets
    obj = {
        "equal": d.equal,
        "summary": headline(d),
        "a": a_text, "b": b_text, "category_a": d.category_a, "category_b": d.category_b,
        "shape": list(d.shape), "element_type": element, "element_bits": bitwidth,
        "bits_compared": d.bits,
        "changes": [_change_json(c) for c in d.changes],
        "spread": {"a": [spread_json(s) for s in d.spread_a], "b": [spread_json(s) for s in d.spread_b]},
        "convert": as_dict(d.convert) if isinstance(d.convert, ConvertReport) else None,
        "convert_error": d.convert_error,
        "offsets": None if o is None else {
            "total": o.total, "moved": o.moved,
            "examples": [{"block": b, "offset": x, "a": list(ea), "b": list(eb)} for b, x, ea, eb in o.examples]},
        "banks": _banks_json(d, register, register_note),
    }
    if d.padding_a or d.padding_b:
        obj["padding"] = {"a": [list(x) for x in d.padding_a], "b": [list(x) for x in d.padding_b]}
    return json.dumps(obj, indent=2) + "\n"
