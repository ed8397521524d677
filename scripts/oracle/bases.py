"""Bases: Triton's own linear layout of an attribute at a tensor shape (``LinearOracle``: ``toLinearLayout``
printed by ``LinearLayout::toString()``, and the Gluon route as a cross-check), and the parser of that text
(``parse_ll_text``, no Triton needed)."""
from __future__ import annotations

import ctypes
import json
import os
import re

from .bank import BankOracle
from .fork import run_forked
from .lib import mnemonic


class LinearOracle:
    """Triton's own linear layout of an attribute at a tensor shape, two ways:

    * ``text``: ``mlir::triton::gpu::toLinearLayout(shape, attr)`` printed by ``LinearLayout::toString()``,
      the very conversion ``getLayoutStr`` prints from (exact bases and out-dim sizes);
    * ``gluon``: ``GluonOpBuilder.to_linear_layout(attr, shape)``, the same conversion wrapped in a
      ``#ttg.linear`` / ``#ttg.shared_linear`` attribute (it aborts where that attribute cannot hold the
      layout), with a shared layout's alignment;
    * ``alignment``: ``SharedEncodingTrait::getAlignment()`` of a shared layout, the alignment Gluon uses.

    Every call parses the attribute in the Python binding's MLIRContext (the bank oracle's)."""

    def __init__(self, bank: BankOracle):
        self.bank = bank
        self.L = bank.L
        # the first Gluon conversion imports Gluon's Python layout classes: do it once here, not in every child
        self.gluon("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>", [32])

    def text(self, attr_text: str, shape) -> tuple[int, bytes | None]:
        L = self.L
        attr = L.parse_attr(*L.cstr(attr_text.encode()), self.bank.ctx_ptr, None, None, False)
        if not attr:
            os.write(2, b"Invalid layout attribute: " + attr_text.encode() + b"\n")
            return 1, None
        dims = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        ll = L.buf(4096)
        L.to_linear_layout(ctypes.addressof(ll), ctypes.addressof(dims), len(shape), attr)
        sret = L.buf(64)
        L.ll_to_string(ctypes.addressof(sret), ctypes.addressof(ll))
        data = ctypes.c_void_p.from_address(ctypes.addressof(sret)).value
        size = ctypes.c_size_t.from_address(ctypes.addressof(sret) + 8).value
        return 0, ctypes.string_at(data, size)

    def alignment(self, attr_text: str):
        """SharedEncodingTrait::getAlignment() of a shared layout; None for other attributes."""
        get = self.L.shared_alignment.get(mnemonic(attr_text.encode()))
        if get is None:
            return None
        attr = self.L.parse_attr(*self.L.cstr(attr_text.encode()), self.bank.ctx_ptr, None, None, False)
        return int(get(None, attr)) if attr else None

    def gluon(self, attr_text: str, shape) -> dict:
        r = self.bank.b.to_linear_layout(self.bank.attr(attr_text), list(shape))
        ints = lambda bs: [[int(x) for x in b] for b in bs]  # noqa: E731
        if hasattr(r, "offset_bases"):
            return {"bases": {"offset": ints(r.offset_bases), "block": ints(r.block_bases)},
                    "alignment": int(r.alignment)}
        return {"bases": {"register": ints(r.reg_bases), "lane": ints(r.lane_bases), "warp": ints(r.warp_bases),
                          "block": ints(r.block_bases)},
                "out_sizes": [int(x) for x in r.shape]}


_LL_BASIS = re.compile(r"^ [ -] (\w+)=(\d+) -> \(([-\d, ]*)\)$")
_LL_SIZE1 = re.compile(r"^ - (\w+) is a size 1 dimension$")
_LL_OUTS = re.compile(r"(\w+) \(size (\d+)\)")


def parse_ll_text(text: str):
    """``LinearLayout::toString()`` -> (bases {in dim: [[..], ..]}, out dims {name: size}), both in Triton's order.

    The first basis of an in dim is marked ``-``, an in dim of size 1 is named once:

    >>> parse_ll_text(" - register=1 -> (0, 1)\\n   register=2 -> (1, 0)\\n - block is a size 1 dimension\\n"
    ...               "where out dims are: [dim0 (size 4), dim1 (size 2)]")
    ({'register': [[0, 1], [1, 0]], 'block': []}, {'dim0': 4, 'dim1': 2})
    """
    bases, outs = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        m = _LL_BASIS.match(line)
        if m:
            dim, index, vec = m.group(1), int(m.group(2)), m.group(3)
            got = bases.setdefault(dim, [])
            if index != 1 << len(got):
                raise ValueError("basis %s=%d out of order in %r" % (dim, index, text))
            got.append([int(x) for x in vec.split(",")] if vec.strip() else [])
            continue
        m = _LL_SIZE1.match(line)
        if m:
            bases[m.group(1)] = []
            continue
        if line.startswith("where out dims are:"):
            outs = {name: int(size) for name, size in _LL_OUTS.findall(line)}
            continue
        raise ValueError("unexpected LinearLayout text line %r" % line)
    if outs is None:
        raise ValueError("no out dims in %r" % text)
    return bases, outs


def run_linear(o: LinearOracle, attr: str, shape):
    """Triton's linear layout of `attr` at `shape`: (exit, {"bases", "out_dims", "alignment", "gluon"}|None, stderr).

    ``alignment`` is null for distributed layouts; ``gluon`` is the Gluon route's answer (null where it
    aborted or raised), a cross-check."""
    rc, out, err = run_forked(lambda: o.text(attr, shape))
    if rc != 0:
        return rc, None, err
    bases, outs = parse_ll_text(out.decode())
    grc, gout, _ = run_forked(lambda: (0, json.dumps(o.gluon(attr, shape)).encode()))
    gluon = json.loads(gout) if grc == 0 and gout else None
    arc, aout, _ = run_forked(lambda: (0, json.dumps(o.alignment(attr)).encode()))
    alignment = json.loads(aout) if arc == 0 and aout else None
    return 0, {"bases": bases, "out_dims": outs, "alignment": alignment, "gluon": gluon}, err
