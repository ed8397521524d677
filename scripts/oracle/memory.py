"""Memory: Triton's facts about the layouts ``triton-tensor-layout`` cannot print, padded / partitioned shared and
tensor memory (``MemoryOracle``)."""
from __future__ import annotations

import ctypes
import json
import os

from .bases import LinearOracle, parse_ll_text
from .fork import run_forked


class MemoryOracle:
    """Triton's facts about the layouts triton-tensor-layout cannot print (padded / partitioned shared, tensor
    memory), each from the library function Triton itself uses:

    * ``paddedLinearLayout(MemDescType)`` (padded, or partitioned around a padded layout) or
      ``toLinearLayout(shape, attr)`` (the others), printed by ``LinearLayout::toString()``;
    * ``getPaddedSharedShifts(attr, 16, false)``, ``applyPadding(offset, shifts)`` for every offset and
      ``PaddedSharedEncodingAttr::getPaddedSize(shape)``;
    * ``getTmemAllocSizes(memdesc)`` and Gluon's ``to_linear_layout`` of a tensor memory layout (rows/cols, a
      cross-check), and
      ``_compute_tmem_reg_layout`` (what ``tensor_memory_descriptor_type.get_reg_layout`` calls)."""

    def __init__(self, linear: LinearOracle):
        self.linear = linear
        self.cli = linear.bank.cli
        L = self.L = linear.L
        vp, sz, u32 = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32

        def fn(name, res, *args):
            f = getattr(L.dll, name)
            f.restype = res
            f.argtypes = list(args)
            return f

        self.padded_ll = fn("_ZN4mlir6triton3gpu18paddedLinearLayoutENS1_11MemDescTypeE", vp, vp, vp)
        self.shifts = fn("_ZN4mlir21getPaddedSharedShiftsENS_9AttributeEjb", vp, vp, vp, u32, ctypes.c_bool)
        self.apply_padding = fn("_ZN4mlir12applyPaddingEjN4llvm8ArrayRefISt4pairIjjEEE", u32, u32, vp, sz)
        self.alloc_sizes = fn("_ZN4mlir6triton10nvidia_gpu17getTmemAllocSizesENS0_3gpu11MemDescTypeE", ctypes.c_uint64, vp)
        self.padded_size = fn("_ZNK4mlir6triton3gpu24PaddedSharedEncodingAttr13getPaddedSizeEN4llvm8ArrayRefIlEE",
                              ctypes.c_int64, vp, vp, sz)

    def _ll_text(self, sret) -> str:
        s = self.L.buf(64)
        self.L.ll_to_string(ctypes.addressof(s), ctypes.addressof(sret))
        data = ctypes.c_void_p.from_address(ctypes.addressof(s)).value
        size = ctypes.c_size_t.from_address(ctypes.addressof(s) + 8).value
        return ctypes.string_at(data, size).decode()

    def shared(self, attr_text: str, inner_text: str | None, shape, padded: bool):
        """(exit, facts) for a padded / partitioned shared layout at ``shape`` (f16 elements); ``inner_text``: the
        padded layout a partitioned one wraps (getPaddedSize is only asked of a bare padded layout)."""
        L, ctx = self.L, self.cli.ctx
        memdesc = "!ttg.memdesc<%sxf16, %s, #ttg.shared_memory>" % ("x".join(map(str, shape)), attr_text)
        ty = L.parse_type(*L.cstr(memdesc.encode()), ctx, None, False)
        if not ty:
            return 1, None
        if padded:
            sret = L.buf(4096)
            self.padded_ll(ctypes.addressof(sret), ty)
            bases, outs = parse_ll_text(self._ll_text(sret))
        else:
            rc, text = self.linear.text(attr_text, shape)
            if rc:
                return rc, None
            bases, outs = parse_ll_text(text.decode())
        facts = {"bases": bases, "out_dims": outs}
        if padded:
            attr = L.parse_attr(*L.cstr(attr_text.encode()), ctx, None, None, False)
            sv = L.buf(256)
            self.shifts(ctypes.addressof(sv), attr, 16, False)
            begin = ctypes.c_void_p.from_address(ctypes.addressof(sv)).value
            n = ctypes.c_uint32.from_address(ctypes.addressof(sv) + 8).value
            facts["shifts"] = [[ctypes.c_uint32.from_address(begin + 8 * k + h).value for h in (0, 4)]
                               for k in range(n)]
            count = 1 << len(bases["offset"])
            facts["padded_offsets"] = [int(self.apply_padding(o, begin, n)) for o in range(count)]
            if inner_text is None:
                holder = ctypes.c_void_p(attr)
                dims = (ctypes.c_int64 * len(shape))(*shape)
                facts["padded_size"] = int(self.padded_size(ctypes.addressof(holder), ctypes.addressof(dims),
                                                            len(shape)))
        return 0, facts

    def tmem(self, attr_text: str, shape, dtype: str):
        """(exit, facts): toLinearLayout's row/col/block bases, and getTmemAllocSizes (rows, 32-bit columns per
        CTA) of the memdesc with that element type."""
        rc, text = self.linear.text(attr_text, shape)
        if rc:
            return rc, None
        bases, outs = parse_ll_text(text.decode())
        L = self.L
        memdesc = "!ttg.memdesc<%sx%s, %s, #ttng.tensor_memory, mutable>" % ("x".join(map(str, shape)), dtype,
                                                                              attr_text)
        ty = L.parse_type(*L.cstr(memdesc.encode()), self.cli.ctx, None, False)
        alloc = None
        if ty:
            packed = self.alloc_sizes(ty)           # TMemAllocation {int numRows; int numCols;} in one register
            alloc = [packed & 0xFFFFFFFF, packed >> 32]
        return 0, {"bases": bases, "out_dims": outs, "alloc": alloc}

    def gluon_tmem(self, attr_text: str, shape):
        r = self.linear.bank.b.to_linear_layout(self.linear.bank.attr(attr_text), list(shape))
        return {"rows": [[int(x) for x in b] for b in r.rows], "cols": [[int(x) for x in b] for b in r.cols],
                "shape": [int(x) for x in r.shape]}

    @staticmethod
    def tmem_reg(params: dict, shape, warps: int, instr: str, dtype: str):
        """Gluon's register layout for tmem_load: {register, lane, warp, block} bases, or raises."""
        import triton.experimental.gluon.language as ttgl
        from triton.experimental.gluon.language._semantic import _compute_tmem_reg_layout
        from triton.experimental.gluon.language.nvidia.blackwell import TensorMemoryLayout, TensorMemoryScalesLayout
        element = {"f32": ttgl.float32, "f16": ttgl.float16, "bf16": ttgl.bfloat16, "i8": ttgl.int8,
                   "f8E4M3FN": ttgl.float8e4nv}[dtype]
        cga = [list(b) for b in params.get("cga", [])]
        if params["kind"] == "scales":
            layout = TensorMemoryScalesLayout(cga)
        else:
            layout = TensorMemoryLayout((params["block_m"], params["block_n"]), params["col_stride"], cga,
                                        params.get("two_ctas", False), params.get("fp4_padded", False))
        r = _compute_tmem_reg_layout(element, list(shape), list(shape), layout, warps, instr)
        ints = lambda bs: [[int(x) for x in b] for b in bs]  # noqa: E731
        return {"register": ints(r.reg_bases), "lane": ints(r.lane_bases), "warp": ints(r.warp_bases),
                "block": ints(r.block_bases)}


def run_memory(o: MemoryOracle, req):
    """One "memory" request: facts of a padded / partitioned shared layout ("what": "shared"), of a tensor memory
    layout ("tmem", with Gluon's rows/cols), or one tmem_load register layout ("tmem_reg")."""
    what = req["what"]
    if what == "shared":
        call = lambda: o.shared(req["attr"], req.get("inner"), req["shape"], req["padded"])  # noqa: E731
    elif what == "tmem":
        call = lambda: o.tmem(req["attr"], req["shape"], req["dtype"])  # noqa: E731
    else:
        def call():
            try:
                return 0, o.tmem_reg(req["params"], req["shape"], req["warps"], req["instr"], req["dtype"])
            except (ValueError, TypeError, AssertionError, RuntimeError) as e:   # Gluon's refusals
                os.write(2, ("%s: %s\n" % (type(e).__name__, e)).encode())
                return 1, None
    rc, out, err = run_forked(lambda: (lambda r: (r[0], json.dumps(r[1]).encode()))(call()))
    res = json.loads(out) if rc == 0 and out else None
    if what == "tmem" and rc == 0:
        grc, gout, _ = run_forked(lambda: (0, json.dumps(o.gluon_tmem(req["attr"], req["shape"])).encode()))
        res["gluon"] = json.loads(gout) if grc == 0 and gout else None
    return rc, res, err
