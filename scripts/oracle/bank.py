"""Bank conflicts: ``GluonOpBuilder.get_shared_bank_conflicts`` on attributes given as text (``BankOracle``), whose
Python-binding context and builder the bases, Gluon and memory jobs share."""
from __future__ import annotations

import ctypes
import os

from .fork import run_forked
from .lib import nb_inline_ptr
from .printing import CliOracle


class BankOracle:
    """GluonOpBuilder.get_shared_bank_conflicts on attributes given as text.

    The attributes are parsed with mlir::parseAttribute in the *Python* context (so the builder and the
    layouts share one context) and handed to nanobind as ``ir.attribute`` objects."""

    def __init__(self, cli: CliOracle):
        L = cli.L
        self.L = L
        self.cli = cli
        ir, gluon_ir = L.lt.ir, L.lt.gluon_ir
        self.ir = ir
        self.ctx = ctx = ir.context()
        ir.load_dialects(ctx)
        self.ctx_ptr = nb_inline_ptr(ctx)
        probe = L.parse_attr(*L.cstr(b"[1 : i32, 2 : i32]"), self.ctx_ptr, None, None, False)
        if not probe:
            raise RuntimeError("python MLIRContext pointer not found")
        self.b = b = gluon_ir.GluonOpBuilder(ctx)
        # the builder needs an insertion point inside a module (module -> function -> entry block);
        # no ttg.target attribute: the NVIDIA path (the only one working in 3.9.0)
        mod = b.create_module()
        fn = b.get_or_insert_function(mod, "f", b.get_function_ty([], []), "public", False)
        mod.push_back(fn)
        entry = fn.add_entry_block()
        b.set_insertion_point_to_start(entry)
        self.mod, self.fn, self.entry = mod, fn, entry
        # find where an ir.attribute instance keeps its mlir::Attribute
        a = b.get_int32_attr(7)
        want = L.parse_attr(*L.cstr(b"7 : i32"), self.ctx_ptr, None, None, False)
        base = id(a)
        self.attr_off = None
        for off in range(16, 64, 8):
            if ctypes.c_void_p.from_address(base + off).value == want:
                self.attr_off = off
                break
        if self.attr_off is None:
            raise RuntimeError("cannot locate ir.attribute storage")

    def cli_print(self, a) -> bytes:
        """Canonical text of an ``ir.attribute`` built in the Python context."""
        return self.cli._print_attr(ctypes.c_void_p.from_address(id(a) + self.attr_off).value)

    def attr(self, text: str):
        p = self.L.parse_attr(*self.L.cstr(text.encode()), self.ctx_ptr, None, None, False)
        if not p:
            return None
        a = self.b.get_int32_attr(0)
        ctypes.c_void_p.from_address(id(a) + self.attr_off).value = p
        return a

    def conflicts(self, reg: str, shared: str, shape, bitwidth: int):
        ra = self.attr(reg)
        if ra is None:
            os.write(2, b"Invalid layout attribute: " + reg.encode() + b"\n")
            return 1, None
        sa = self.attr(shared)
        if sa is None:
            os.write(2, b"Invalid layout attribute: " + shared.encode() + b"\n")
            return 1, None
        return 0, int(self.b.get_shared_bank_conflicts(ra, sa, list(shape), int(bitwidth)))


def run_bank(o: BankOracle, reg, shared, shape, bitwidth):
    """Triton's conflict count in a forked child: (exit, count | None, stderr bytes)."""
    def f():
        rc, n = o.conflicts(reg, shared, shape, bitwidth)
        return rc, (str(n).encode() if n is not None else None)

    rc, out, err = run_forked(f)
    return rc, (int(out) if out else None), err
