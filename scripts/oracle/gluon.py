"""Gluon: Gluon's own answers for a Gluon constructor text such as ``ttgl.BlockedLayout(...)`` (``GluonOracle``:
the attribute it builds, its view, its linear layout), the text evaluated safely."""
from __future__ import annotations

import json

from .bases import LinearOracle
from .fork import first_error_line, python_error, run_forked


class GluonOracle:
    """Gluon's own answers for a Gluon constructor text such as ``ttgl.BlockedLayout(size_per_thread=[1, 4], ...)``.

    The text is evaluated safely (``gluon_object``: an ``ast``-checked expression of calls, dotted names, lists,
    tuples, ints, bools and None; names resolve only to Gluon layout classes), then

    * ``attr``: the canonical text of the attribute Gluon builds (``layout._to_ir(builder)`` printed);
    * ``view``: ``gluon_ir.get_layout_view(layout, shape, hw)``, the string ``triton-tensor-layout`` prints;
    * ``linear``: ``GluonOpBuilder.to_linear_layout(layout._to_ir(builder), shape)``."""

    def __init__(self, linear: LinearOracle):
        self.bank = linear.bank
        import triton
        import triton.experimental.gluon.language as ttgl
        from triton._C.libtriton import gluon_ir
        from triton.experimental.gluon.language.nvidia import blackwell
        self.gluon_ir = gluon_ir
        self.roots = {"ttgl": ttgl, "gl": ttgl, "triton": triton}
        self.bases = (ttgl._layouts.DistributedLayout, ttgl._layouts.SharedLayout,
                      blackwell.TensorMemoryLayout, blackwell.TensorMemoryScalesLayout)
        self.bare = {}
        for mod in (ttgl, ttgl.amd, ttgl.amd.cdna5, blackwell):
            for name, obj in vars(mod).items():
                if isinstance(obj, type) and issubclass(obj, self.bases) and not name.startswith("_"):
                    self.bare.setdefault(name, obj)

    def _resolve(self, node):
        import ast
        import types
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            raise ValueError("only dotted names can be called")
        parts.append(node.id)
        parts.reverse()
        if len(parts) == 1:
            if parts[0] not in self.bare:
                raise NameError("name %r is not a Gluon layout class" % parts[0])
            return self.bare[parts[0]]
        if parts[0] not in self.roots:
            raise NameError("name %r is not defined" % parts[0])
        obj = self.roots[parts[0]]
        for name in parts[1:]:
            if name.startswith("_") or not isinstance(obj, types.ModuleType):
                raise AttributeError("refusing attribute %r" % name)
            obj = getattr(obj, name)
        if not (isinstance(obj, type) and issubclass(obj, self.bases)):
            raise TypeError("%s is not a Gluon layout class" % ".".join(parts))
        return obj

    def _value(self, node):
        import ast
        if isinstance(node, ast.Call):
            cls = self._resolve(node.func)
            if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
                raise ValueError("no * or ** arguments")
            return cls(*[self._value(a) for a in node.args], **{k.arg: self._value(k.value) for k in node.keywords})
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self._value(e) for e in node.elts]
            return items if isinstance(node, ast.List) else tuple(items)
        if isinstance(node, ast.Constant) and (node.value is None or type(node.value) in (int, bool)):
            return node.value
        if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
                and type(node.operand.value) is int):
            return -node.operand.value
        raise ValueError("unsupported expression %s" % type(node).__name__)

    def gluon_object(self, text: str):
        import ast
        return self._value(ast.parse(text.strip(), mode="eval").body)

    def attr(self, text: str) -> bytes:
        a = self.gluon_object(text)._to_ir(self.bank.b)
        return self.bank.cli_print(a)

    def view(self, text: str, shape, hw: bool) -> bytes:
        return self.gluon_ir.get_layout_view(self.gluon_object(text), list(shape), bool(hw)).encode()

    def linear(self, text: str, shape) -> dict:
        b = self.bank.b
        r = b.to_linear_layout(self.gluon_object(text)._to_ir(b), list(shape))
        ints = lambda bs: [[int(x) for x in v] for v in bs]  # noqa: E731
        if hasattr(r, "offset_bases"):
            return {"bases": {"offset": ints(r.offset_bases), "block": ints(r.block_bases)},
                    "alignment": int(r.alignment)}
        if hasattr(r, "rows"):
            return {"bases": {"row": ints(r.rows), "col": ints(r.cols)}, "out_sizes": [int(x) for x in r.shape]}
        return {"bases": {"register": ints(r.reg_bases), "lane": ints(r.lane_bases), "warp": ints(r.warp_bases),
                          "block": ints(r.block_bases)},
                "out_sizes": [int(x) for x in r.shape]}


def run_gluon(o: GluonOracle, text: str, shape, hw: bool):
    """Gluon's answers for a constructor text: {"exit", "error", "attr", "view", "view_error", "linear",
    "linear_error"}; ``exit``/``error`` are those of building the attribute (0/null when it built)."""
    res = {}
    rc, out, err = run_forked(python_error(lambda: (0, o.attr(text))))
    res["exit"], res["error"] = rc, (None if rc == 0 else first_error_line(err))
    res["attr"] = out.decode() if rc == 0 else None
    rc, out, err = run_forked(python_error(lambda: (0, o.view(text, shape, hw))))
    res["view"] = out.decode() if rc == 0 else None
    res["view_error"] = None if rc == 0 else "[%d] %s" % (rc, first_error_line(err))
    rc, out, err = run_forked(python_error(lambda: (0, json.dumps(o.linear(text, shape)).encode())))
    res["linear"] = json.loads(out) if rc == 0 else None
    res["linear_error"] = None if rc == 0 else "[%d] %s" % (rc, first_error_line(err))
    return res
