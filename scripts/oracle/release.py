"""Older releases' own printers (Triton 3.2 ... 3.8), driven like ``CliOracle`` drives 3.9.

Older wheels export few dynamic symbols, so the functions triton-tensor-layout calls are found in the unstripped
``.symtab`` of ``libtriton.so`` (``nm --defined-only``) and called at the library's load address + ``st_value``.
Triton 3.2 was built with the old libstdc++ string ABI: ``getLayoutStr`` then returns a copy-on-write string (one
pointer; the length sits 24 bytes before the characters).  The MLIR context is the one Triton's Python bindings build
(``ir.context()`` + ``ir.load_dialects``: every dialect the compiler knows), with multithreading disabled so that
``fork()`` stays safe; its C++ address comes from the pybind11 (3.2, 3.3) or nanobind (later) instance.

Differences of the tool itself across releases, replayed here: up to 3.5 the tool hands any attribute of the GPU
dialect (``triton_gpu`` in 3.2, ``ttg`` later) to ``getLayoutStr``; from 3.6 on, only the layout classes.
``release_oracle()`` needs the release's interpreter (``/opt/oracle/triton-3.X/bin/python``)."""
from __future__ import annotations

import ctypes
import os
import re
import subprocess

from .lib import nb_inline_ptr
from .printing import CliOracle

SYMBOL_CACHE = os.environ.get("ORACLE_SYMBOL_CACHE", "/tmp/ttlayout-oracle-symbols")


class Symbols:
    """name -> absolute address of every defined symbol of one loaded shared object."""

    def __init__(self, path: str):
        self.path = os.path.realpath(path)
        st = os.stat(self.path)
        os.makedirs(SYMBOL_CACHE, exist_ok=True)
        cache = os.path.join(SYMBOL_CACHE, "%d-%d.txt" % (st.st_size, int(st.st_mtime)))
        if not os.path.exists(cache):
            out = subprocess.run(["nm", "--defined-only", self.path], check=True, capture_output=True,
                                 text=True).stdout
            tmp = cache + ".%d" % os.getpid()
            with open(tmp, "w") as f:
                f.write(out)
            os.replace(tmp, cache)
        self.table = {}
        with open(cache) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[1] in "tTwWiu":
                    self.table.setdefault(parts[2], int(parts[0], 16))
        self.base = self._base()

    def _base(self) -> int:
        with open("/proc/self/maps") as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 6 and os.path.realpath(fields[5]) == self.path and int(fields[2], 16) == 0:
                    return int(fields[0].split("-")[0], 16)
        raise RuntimeError("%s is not loaded" % self.path)

    def find(self, pattern: str) -> str:
        """The one symbol matching the regular expression (first in sorted order if several)."""
        rx = re.compile(pattern)
        hits = sorted(n for n in self.table if rx.fullmatch(n))
        if not hits:
            raise KeyError(pattern)
        return hits[0]

    def fn(self, pattern: str, res, *args):
        name = self.find(pattern)
        return ctypes.CFUNCTYPE(res, *args)(self.base + self.table[name])


class ReleaseLib:
    """The subset of ``Lib``'s bindings the tool's replay needs, for any release 3.2 ... 3.9."""

    def __init__(self):
        from triton._C import libtriton as _lt

        self.lt = _lt
        self.dll = ctypes.CDLL(_lt.__file__)
        S = self.sym = Symbols(_lt.__file__)
        vp, sz, b = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_bool

        class ArrayRef(ctypes.Structure):
            _fields_ = [("data", vp), ("size", sz)]

        class IterRange(ctypes.Structure):
            _fields_ = [("begin", vp), ("end", vp)]

        self.ArrayRef = ArrayRef
        self.parse_attr = S.fn(r"_ZN4mlir14parseAttributeEN4llvm9StringRefEPNS_11MLIRContextENS_4TypeEPmb", vp, vp,
                               sz, vp, vp, vp, b)
        self.parse_type = S.fn(r"_ZN4mlir9parseTypeEN4llvm9StringRefEPNS_11MLIRContextEPmb", vp, vp, sz, vp, vp, b)
        self.tt_get_shape = S.fn(r"_ZNK4mlir10TensorType8getShapeEv", ArrayRef, vp)
        self.tt_get_elt = S.fn(r"_ZNK4mlir10TensorType14getElementTypeEv", vp, vp)
        self.rtt_get = S.fn(r"_ZN4mlir16RankedTensorType3getEN4llvm8ArrayRefIlEENS_4TypeENS_9AttributeE", vp, vp, sz,
                            vp, vp)
        name = S.find(r"_ZN4mlir6triton3gpu12getLayoutStr(B5cxx11)?ENS_16RankedTensorTypeEb")
        self.old_string_abi = "B5cxx11" not in name
        self.get_layout_str = S.fn(re.escape(name), vp, vp, vp, b)
        self.attr_print = S.fn(r"_ZNK4mlir9Attribute5printERN4llvm11raw_ostreamEb", None, vp, vp, b)
        self.type_print = S.fn(r"_ZNK4mlir4Type5printERN4llvm11raw_ostreamE", None, vp, vp)
        self.fd_ostream_ctor = S.fn(r"_ZN4llvm14raw_fd_ostreamC1EibbNS_11raw_ostream11OStreamKindE", None, vp,
                                    ctypes.c_int, b, b, ctypes.c_int)
        self.parse_source_file = S.fn(r"_ZN4mlir15parseSourceFileEN4llvm9StringRefERNS0_9SourceMgrEPNS_5BlockERKNS_12"
                                      r"ParserConfigEPNS_12LocationAttrE", ctypes.c_bool, vp, sz, vp, vp, vp, vp)
        self.parse_asm_source_file = S.fn(r"_ZN4mlir18parseAsmSourceFileERKN4llvm9SourceMgrEPNS_5BlockERKNS_12Parser"
                                          r"ConfigEPNS_14AsmParserStateEPNS_28AsmParserCodeCompleteContextE",
                                          ctypes.c_bool, vp, vp, vp, vp, vp)
        self.asm_state_ctor = S.fn(r"_ZN4mlir14AsmParserStateC1Ev", None, vp)
        self.alias_defs = S.fn(r"_ZNK4mlir14AsmParserState21getAttributeAliasDefsEv", IterRange, vp)
        self.alias_def = S.fn(r"_ZNK4mlir14AsmParserState20getAttributeAliasDefEN4llvm9StringRefE", vp, vp, vp, sz)
        self.disable_mt = S.fn(r"_ZN4mlir11MLIRContext21disableMultithreadingEb", None, vp, b)
        self.srcmgr_ctor = _zero_init
        self.nanobind = not hasattr(_lt.ir.context, "__pybind11_module_local_v4_gcc_libstdcpp_cxxabi1014__") and \
            not any(a.startswith("_pybind11") for a in dir(_lt.ir.context))
        self._keep = []

    def address(self, obj) -> int:
        """The C++ object behind a Python binding object (nanobind: ``nb_inline_ptr``; pybind11: the value pointer
        after the object header)."""
        if self.nanobind:
            return nb_inline_ptr(obj)
        return ctypes.c_void_p.from_address(id(obj) + 16).value

    def buf(self, n):
        m = ctypes.create_string_buffer(n)
        self._keep.append(m)
        return m

    def cstr(self, s: bytes):
        m = ctypes.create_string_buffer(s, len(s) + 1)
        self._keep.append(m)
        return ctypes.addressof(m), len(s)


def _zero_init(ptr):
    """llvm::SourceMgr's default constructor is inline; its default state is all zeros (empty vectors, null
    pointers), which the zeroed buffer already holds."""


def release_version() -> str:
    import importlib.metadata
    v = importlib.metadata.version("triton").split(".")
    return "%s.%s" % (v[0], v[1])


class ReleaseOracle(CliOracle):
    """``CliOracle`` on the installed release's library."""

    def __init__(self):
        self.release = release_version()
        self.L = L = ReleaseLib()
        ir = L.lt.ir
        self._pyctx = ir.context()
        ir.load_dialects(self._pyctx)
        self.ctx = L.address(self._pyctx)
        L.disable_mt(self.ctx, True)
        self._value_off = None
        saved = os.dup(2)
        import tempfile
        with tempfile.TemporaryFile() as scratch:
            os.dup2(scratch.fileno(), 2)
            try:
                self._value_offset()
            finally:
                os.dup2(saved, 2)
                os.close(saved)

    def _py_ctx(self):
        return self._pyctx

    def _probe_alias(self) -> bytes:
        dialect = b"triton_gpu" if self.release == "3.2" else b"ttg"
        return (b"#a = #" + dialect + b".blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
                b"order = [0]}>\n")

    def _block_address(self, blk) -> int:
        return blk.id() if hasattr(blk, "id") and self.L.nanobind else self.L.address(blk)

    def _layout_str(self, rtt_ptr, hw: bool) -> bytes:
        L = self.L
        sret = L.buf(64)
        L.get_layout_str(ctypes.addressof(sret), rtt_ptr, hw)
        p = ctypes.c_void_p.from_address(ctypes.addressof(sret)).value
        if L.old_string_abi:
            size = ctypes.c_size_t.from_address(p - 24).value
        else:
            size = ctypes.c_size_t.from_address(ctypes.addressof(sret) + 8).value
        return ctypes.string_at(p, size) if size else b""

    def _layout_print(self, rtt_ptr, attr_ptr, attr_text: bytes, hw: bool, out: list) -> bool:
        from .lib import LAYOUT_MNEMONICS
        prefix = b"#triton_gpu." if self.release == "3.2" else b"#ttg."
        if self.release in ("3.2", "3.3", "3.4", "3.5"):
            ok = attr_text.startswith(prefix)
        else:
            rest = attr_text[len(prefix):] if attr_text.startswith(prefix) else b""
            m = re.match(rb"[A-Za-z0-9_]+", rest)
            ok = bool(m) and m.group(0).decode() in LAYOUT_MNEMONICS
        if ok:
            out.append(self._layout_str(rtt_ptr, hw))
            return True
        self._err(b"Unsupported tensor layout attribute: " + attr_text + b"\n")
        return False
