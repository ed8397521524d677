#!/opt/oracle/venv/bin/python
"""Triton 3.9 oracle: emulates the ``triton-tensor-layout`` CLI exactly, using Triton itself.

Must run with the oracle interpreter (``/opt/oracle/venv/bin/python``), which has
Triton 3.9.0 installed.  It is a tool for producing ``golden/`` files only; ttlayout never
imports it and no test runs it.

How it works
------------
The Triton wheel ships no ``triton-tensor-layout`` binary, but ``libtriton.so`` exports every
C++ function that the tool's ``main()`` calls (``bin/triton-tensor-layout.cpp``).  This script
calls them directly through ``ctypes`` in the same order as the tool:

* an ``MLIRContext`` built from a ``DialectRegistry`` holding the Triton dialects
  (TritonDialect, TritonGPU, TritonNvidiaGPU, TritonAMDGPU, NVVM, ROCDL, arith, scf, math, ...),
  ``loadAllAvailableDialects()``;
* ``mlir::parseType`` for ``-t``; ``mlir::TensorType::getShape/getElementType``;
* ``-i``: ``mlir::parseAsmSourceFile`` with an ``AsmParserState`` (alias definitions),
  ``getAttributeAliasDefs`` / ``getAttributeAliasDef``;
* ``-l``: ``mlir::parseAttribute``;
* ``RankedTensorType::get(shape, elementType, attr)``, ``Attribute::print`` (the canonical text),
  and ``mlir::triton::gpu::getLayoutStr(tensorType, useHWView)`` for the layout string.

Only the command-line parsing (LLVM ``cl``) and the ``DistributedEncodingTrait`` /
``SharedEncodingTrait`` ``isa`` check are emulated in Python (the latter by the attribute's
mnemonic; the 14 attribute classes implementing those traits were read off the library's
symbol table).  Every case runs in a forked child, so an abort (SIGABRT -> 134, SIGFPE -> 136)
loses only that case; stdout is only produced when the child succeeds, like the tool.

Usage
-----
  triton_oracle.py [CLI args]            emulate the tool: -l ATTR -t TYPE [-use-hw-view] [-i FILE]
                                         [-alias-names=a,b] [-o FILE]; prints stdout/stderr, exits
                                         with the tool's exit code
  triton_oracle.py bank REG SHARED SHAPE BITWIDTH
                                         GluonOpBuilder.get_shared_bank_conflicts (SHAPE like 64x64)
  triton_oracle.py --serve               JSON-lines server used by scripts/golden/: each input line
                                         {"op": "cli", "args": [...]} or {"op": "bank", "reg": ..,
                                         "shared": .., "shape": [..], "bitwidth": n}; each output
                                         line {"exit": rc, "stdout": str|null, "stderr": str,
                                         ["conflicts": n]}; or {"op": "linear", "attr": ..,
                                         "shape": [..]}: Triton's toLinearLayout(shape, attr), answered
                                         {"exit", "bases": {in dim: [[..]..]}, "out_dims": {dim: size},
                                         "alignment": a shared layout's getAlignment() or null,
                                         "gluon": GluonOpBuilder.to_linear_layout's bases (+ alignment
                                         of a shared layout) or null, "stderr"}; or {"op": "memory",
                                         "what": "shared"|"tmem"|"tmem_reg", ...}: MemoryOracle's facts
                                         (padded / partitioned shared, tensor memory), answered {"exit",
                                         "facts", "stderr"}
  triton_oracle.py linear ATTR SHAPE     the same, printed as JSON (SHAPE like 64x64)
                                         {"op": "gluon", "text": GLUON, "shape": [..], "hw": bool}: a Gluon
                                         constructor text (``ttgl.BlockedLayout(...)``) evaluated safely and
                                         answered {"exit", "error", "attr" (canonical text of the attribute
                                         Gluon builds), "view" (gluon_ir.get_layout_view), "view_error",
                                         "linear" (to_linear_layout: {"bases", "out_sizes"|"alignment"}),
                                         "linear_error"}
  triton_oracle.py gluon TEXT SHAPE [hw] the same, printed as JSON
"""
from __future__ import annotations

import ctypes
import json
import os
import re
import signal
import sys
import tempfile
import traceback

CASE_TIMEOUT_S = int(os.environ.get("ORACLE_CASE_TIMEOUT", "120"))

# Attribute classes implementing DistributedEncodingTrait / SharedEncodingTrait in Triton 3.9.0
# (from the `...EncodingTrait::Trait<...>` instantiations in libtriton.so).
LAYOUT_MNEMONICS = {
    "blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "linear",
    "generic_linear", "swizzled_shared", "amd_rotating_shared", "nvmma_shared",
    "shared_linear", "padded_shared", "partitioned_shared",
}


def mnemonic(attr_text: bytes):
    """``#ttg.blocked<{..}>`` -> ``blocked``; None for anything not in the ttg dialect."""
    if not attr_text.startswith(b"#ttg."):
        return None
    rest = attr_text[5:]
    i = 0
    while i < len(rest) and (rest[i:i + 1].isalnum() or rest[i:i + 1] == b"_"):
        i += 1
    return rest[:i].decode()


class _Lib:
    """ctypes bindings of the libtriton.so functions used by triton-tensor-layout."""

    def __init__(self):
        from triton._C import libtriton as _lt  # loads the library (static init) the normal way

        self.lt = _lt
        path = _lt.__file__
        self.dll = ctypes.CDLL(path)
        vp, sz, b = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_bool

        def fn(name, res, *args):
            f = getattr(self.dll, name)
            f.restype = res
            f.argtypes = list(args)
            return f

        class ArrayRef(ctypes.Structure):
            _fields_ = [("data", vp), ("size", sz)]

        class IterRange(ctypes.Structure):
            _fields_ = [("begin", vp), ("end", vp)]

        self.ArrayRef = ArrayRef
        self.registry_ctor = fn("_ZN4mlir15DialectRegistryC1Ev", None, vp)
        self.registry_inserts = [
            fn("_ZN4mlir15DialectRegistry6insertINS_6triton13TritonDialectENS2_3gpu16TritonGPUDialectEJNS2_10instrument23TritonInstrumentDialectENS2_10nvidia_gpu22TritonNvidiaGPUDialectENS_4math11MathDialectENS_5arith12ArithDialectENS_3scf10SCFDialectENS_3gpu10GPUDialectENS_2cf18ControlFlowDialectENS_4LLVM11LLVMDialectENS_2ub9UBDialectENS2_5gluon12GluonDialectEEEEvv", None, vp),
            fn("_ZN4mlir15DialectRegistry6insertINS_4NVVM11NVVMDialectENS_5ROCDL12ROCDLDialectEJNS_6triton6amdgpu19TritonAMDGPUDialectEEEEvv", None, vp),
            fn("_ZN4mlir15DialectRegistry6insertINS_6triton10nvidia_gpu22TritonNvidiaGPUDialectENS2_5nvgpu12NVGPUDialectEJNS2_4nvws11NVWSDialectEEEEvv", None, vp),
        ]
        # MLIRContext(const DialectRegistry&, Threading)
        self.ctx_ctor = fn("_ZN4mlir11MLIRContextC1ERKNS_15DialectRegistryENS0_9ThreadingE", None, vp, vp, ctypes.c_int)
        self.load_all = fn("_ZN4mlir11MLIRContext24loadAllAvailableDialectsEv", None, vp)
        # Attribute parseAttribute(StringRef, MLIRContext*, Type, size_t*, bool)
        self.parse_attr = fn("_ZN4mlir14parseAttributeEN4llvm9StringRefEPNS_11MLIRContextENS_4TypeEPmb", vp, vp, sz, vp, vp, vp, b)
        # Type parseType(StringRef, MLIRContext*, size_t*, bool)
        self.parse_type = fn("_ZN4mlir9parseTypeEN4llvm9StringRefEPNS_11MLIRContextEPmb", vp, vp, sz, vp, vp, b)
        self.tt_get_shape = fn("_ZNK4mlir10TensorType8getShapeEv", ArrayRef, vp)
        self.tt_get_elt = fn("_ZNK4mlir10TensorType14getElementTypeEv", vp, vp)
        # RankedTensorType::get(ArrayRef<int64_t>, Type, Attribute)
        self.rtt_get = fn("_ZN4mlir16RankedTensorType3getEN4llvm8ArrayRefIlEENS_4TypeENS_9AttributeE", vp, vp, sz, vp, vp)
        # std::string getLayoutStr(RankedTensorType, bool)  (sret first)
        self.get_layout_str = fn("_ZN4mlir6triton3gpu12getLayoutStrB5cxx11ENS_16RankedTensorTypeEb", vp, vp, vp, b)
        self.attr_print = fn("_ZNK4mlir9Attribute5printERN4llvm11raw_ostreamEb", None, vp, vp, b)
        self.type_print = fn("_ZNK4mlir4Type5printERN4llvm11raw_ostreamE", None, vp, vp)
        # raw_fd_ostream(int fd, bool shouldClose, bool unbuffered, OStreamKind)
        self.fd_ostream_ctor = fn("_ZN4llvm14raw_fd_ostreamC1EibbNS_11raw_ostream11OStreamKindE", None, vp, ctypes.c_int, b, b, ctypes.c_int)
        self.srcmgr_ctor = fn("_ZN4llvm9SourceMgrC1Ev", None, vp)
        # parseSourceFile(StringRef filename, SourceMgr&, Block*, const ParserConfig&, LocationAttr*)
        self.parse_source_file = fn("_ZN4mlir15parseSourceFileEN4llvm9StringRefERNS0_9SourceMgrEPNS_5BlockERKNS_12ParserConfigEPNS_12LocationAttrE", ctypes.c_bool, vp, sz, vp, vp, vp, vp)
        # parseAsmSourceFile(const SourceMgr&, Block*, const ParserConfig&, AsmParserState*, AsmParserCodeCompleteContext*)
        self.parse_asm_source_file = fn("_ZN4mlir18parseAsmSourceFileERKN4llvm9SourceMgrEPNS_5BlockERKNS_12ParserConfigEPNS_14AsmParserStateEPNS_28AsmParserCodeCompleteContextE", ctypes.c_bool, vp, vp, vp, vp, vp)
        self.asm_state_ctor = fn("_ZN4mlir14AsmParserStateC1Ev", None, vp)
        self.alias_defs = fn("_ZNK4mlir14AsmParserState21getAttributeAliasDefsEv", IterRange, vp)
        self.alias_def = fn("_ZNK4mlir14AsmParserState20getAttributeAliasDefEN4llvm9StringRefE", vp, vp, vp, sz)
        self.unknown_loc = fn("_ZN4mlir10UnknownLoc3getEPNS_11MLIRContextE", vp, vp)
        # LinearLayout toLinearLayout(ArrayRef<int64_t>, Attribute) (sret first; ArrayRef as data, size)
        self.to_linear_layout = fn("_ZN4mlir6triton3gpu14toLinearLayoutEN4llvm8ArrayRefIlEENS_9AttributeE", vp, vp, vp, sz, vp)
        # std::string LinearLayout::toString() const (sret, this)
        self.ll_to_string = fn("_ZNK4mlir6triton12LinearLayout8toStringB5cxx11Ev", vp, vp, vp)
        # SharedEncodingTrait's getAlignment() of each shared class: Model<Class>::getAlignment(Concept*, Attribute)
        self.shared_alignment = {
            mnemonic: fn("_ZN4mlir6triton3gpu6detail34SharedEncodingTraitInterfaceTraits5ModelINS1_%d%sEE12getAlignmentEPKNS3_7ConceptENS_9AttributeE"
                         % (len(cls), cls), ctypes.c_uint32, vp, vp)
            for mnemonic, cls in (("swizzled_shared", "SwizzledSharedEncodingAttr"),
                                  ("amd_rotating_shared", "AMDRotatingSharedEncodingAttr"),
                                  ("nvmma_shared", "NVMMASharedEncodingAttr"),
                                  ("shared_linear", "SharedLinearEncodingAttr"))}
        self._keep = []

    def buf(self, n):
        m = ctypes.create_string_buffer(n)
        self._keep.append(m)
        return m

    def cstr(self, s: bytes):
        m = ctypes.create_string_buffer(s, len(s) + 1)
        self._keep.append(m)
        return ctypes.addressof(m), len(s)


class CliOracle:
    """One MLIR context shaped like the tool's; `run(argv)` runs one invocation in a fork."""

    def __init__(self):
        self.L = L = _Lib()
        reg = L.buf(4096)
        L.registry_ctor(ctypes.addressof(reg))
        for ins in L.registry_inserts:
            ins(ctypes.addressof(reg))
        ctx = L.buf(4096)
        # Threading::DISABLED (0): no thread pool, so fork() stays safe.  Output is unaffected.
        L.ctx_ctor(ctypes.addressof(ctx), ctypes.addressof(reg), 0)
        L.load_all(ctypes.addressof(ctx))
        self.ctx = ctypes.addressof(ctx)
        self._value_off = None
        self._pyctx = None
        # locate AttributeAliasDefinition::value once, with fd 2 pointing at a scratch file
        saved = os.dup(2)
        with tempfile.TemporaryFile() as scratch:
            os.dup2(scratch.fileno(), 2)
            try:
                self._value_offset()
            finally:
                os.dup2(saved, 2)
                os.close(saved)

    # ------------------------------------------------------------------ low-level helpers
    def _print_attr(self, attr_ptr) -> bytes:
        return self._print_with(self.L.attr_print, attr_ptr, extra=(False,))

    def _print_type(self, type_ptr) -> bytes:
        return self._print_with(self.L.type_print, type_ptr)

    def _print_with(self, f, ptr, extra=()):
        L = self.L
        with tempfile.TemporaryFile() as tf:
            os_buf = L.buf(1024)
            L.fd_ostream_ctor(ctypes.addressof(os_buf), tf.fileno(), False, True, 0)
            holder = ctypes.c_void_p(ptr)
            f(ctypes.addressof(holder), ctypes.addressof(os_buf), *extra)
            tf.seek(0)
            return tf.read()

    def _layout_str(self, rtt_ptr, hw: bool) -> bytes:
        sret = self.L.buf(64)
        self.L.get_layout_str(ctypes.addressof(sret), rtt_ptr, hw)
        data, size = ctypes.c_void_p.from_address(ctypes.addressof(sret)).value, ctypes.c_size_t.from_address(ctypes.addressof(sret) + 8).value
        return ctypes.string_at(data, size) if size else b""

    @staticmethod
    def _err(s: str | bytes):
        if isinstance(s, str):
            s = s.encode()
        os.write(2, s)

    def _layout_print(self, rtt_ptr, attr_ptr, attr_text: bytes, hw: bool, out: list) -> bool:
        # isa<DistributedEncodingTrait, SharedEncodingTrait>(layout)
        if mnemonic(attr_text) in LAYOUT_MNEMONICS:
            out.append(self._layout_str(rtt_ptr, hw))
            return True
        self._err(b"Unsupported tensor layout attribute: " + attr_text + b"\n")
        return False

    def _ranked(self, ttype_holder, attr_ptr):
        L = self.L
        # argument evaluation order of RankedTensorType::get(tensorTy.getShape(), tensorTy.getElementType(), attr)
        elt = L.tt_get_elt(ctypes.addressof(ttype_holder))
        shape = L.tt_get_shape(ctypes.addressof(ttype_holder))
        return L.rtt_get(shape.data, shape.size, elt, attr_ptr)

    def _value_offset(self):
        """Offset of `Attribute value` inside AsmParserState::AttributeAliasDefinition."""
        if self._value_off is not None:
            return self._value_off
        L = self.L
        text = b"#a = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
        fd, path = tempfile.mkstemp(suffix=".mlir")
        os.write(fd, text)
        os.close(fd)
        try:
            state, ok = self._parse_file(path.encode())
            assert ok
            rng = L.alias_defs(ctypes.addressof(state))
            d = ctypes.c_void_p.from_address(rng.begin).value
            want = L.parse_attr(*L.cstr(text[5:-1]), self.ctx, None, None, False)
            for off in range(16, 256, 8):
                if ctypes.c_void_p.from_address(d + off).value == want:
                    self._value_off = off
                    return off
            raise RuntimeError("cannot locate AttributeAliasDefinition::value")
        finally:
            os.unlink(path)

    def _parse_file(self, filename: bytes):
        """Parse like the tool: SourceMgr + ParserConfig(ctx) + AsmParserState + fresh Block."""
        L = self.L
        builder = L.lt.ir.builder(self._py_ctx())
        srcmgr = L.buf(4096)
        L.srcmgr_ctor(ctypes.addressof(srcmgr))
        config = L.buf(256)  # {MLIRContext*, bool verifyAfterParse, DenseMap (zero = empty), fallback*}
        ctypes.c_void_p.from_address(ctypes.addressof(config)).value = self.ctx
        ctypes.c_bool.from_address(ctypes.addressof(config) + 8).value = True
        # mlir::parseSourceFile(filename, sourceMgr, ...) opens the file and adds it as the main buffer
        # of sourceMgr exactly like the tool's getFileOrSTDIN + AddNewSourceBuffer; its own parse
        # result is discarded (stderr truncated) and the file is parsed again with an AsmParserState.
        blk0 = builder.new_block()
        fn_ptr, fn_len = L.cstr(filename)
        pos = os.lseek(2, 0, os.SEEK_CUR)  # fd 2 is a regular file here (see run_forked)
        L.parse_source_file(fn_ptr, fn_len, ctypes.addressof(srcmgr), blk0.id(), ctypes.addressof(config), None)
        os.ftruncate(2, pos)
        os.lseek(2, pos, os.SEEK_SET)
        state = L.buf(256)
        L.asm_state_ctor(ctypes.addressof(state))
        blk = builder.new_block()
        ok = L.parse_asm_source_file(ctypes.addressof(srcmgr), blk.id(), ctypes.addressof(config), ctypes.addressof(state), None)
        self._keep_blocks = (blk0, blk, builder)
        return state, ok

    def _py_ctx(self):
        if self._pyctx is None:
            ir = self.L.lt.ir
            self._pyctx = ir.context()
        return self._pyctx

    # ------------------------------------------------------------------ the tool's main()
    def cli_main(self, argv: list[str]) -> tuple[int, bytes]:
        L = self.L
        opts = parse_cl(argv)
        if isinstance(opts, str):
            self._err(opts)
            return 1, b""
        T = opts["t"]
        if not T:
            self._err("Must specify the tensor type argument\n")
            return 1, b""
        tb = T.encode()
        ty = L.parse_type(*L.cstr(tb), self.ctx, None, False)
        if not ty:
            self._err(b"Fail to parse the tensor type argument: " + tb + b"\n")
            return 1, b""
        if not self._print_type(ty).startswith(b"tensor<"):
            self._err(b"Invalid tensor type argument: " + tb + b"\n")
            return 1, b""
        ttype = ctypes.c_void_p(ty)
        hw = opts["use-hw-view"]
        out: list[bytes] = []
        # ---- file mode
        if opts["i"]:
            fname = opts["i"].encode()
            if fname != b"-" and not os.access(opts["i"], os.R_OK):
                msg = "No such file or directory" if not os.path.exists(opts["i"]) else "Permission denied"
                self._err("Could not open input file: %s\n" % msg)
                return 1, b""
            state, ok = self._parse_file(fname)
            if not ok:
                self._err(b"Fail to parse the input file: " + fname + b"\n")
                return 1, b""
            voff = self._value_offset()
            names = opts["alias-names"]
            if not names:
                rng = L.alias_defs(ctypes.addressof(state))
                p = rng.begin
                while p != rng.end:
                    d = ctypes.c_void_p.from_address(p).value
                    nptr = ctypes.c_void_p.from_address(d).value
                    nlen = ctypes.c_size_t.from_address(d + 8).value
                    name = ctypes.string_at(nptr, nlen)
                    attr = ctypes.c_void_p.from_address(d + voff).value
                    text = self._print_attr(attr)
                    out.append(b"Print layout attribute: #" + name + b" = " + text + b"\n")
                    rtt = self._ranked(ttype, attr)
                    if not self._layout_print(rtt, attr, text, hw, out):
                        return 1, b""
                    p += 8
            else:
                for alias in names:
                    ab = alias.encode()
                    d = L.alias_def(ctypes.addressof(state), *L.cstr(ab))
                    if not d:
                        self._err(b"Can't find the layout attribute: " + ab + b"\n")
                        return 1, b""
                    attr = ctypes.c_void_p.from_address(d + voff).value
                    text = self._print_attr(attr)
                    out.append(b"Print layout attribute: #" + ab + b" = " + text + b"\n")
                    rtt = self._ranked(ttype, attr)
                    if not self._layout_print(rtt, attr, text, hw, out):
                        return 1, b""
                    out.append(b"\n")
        # ---- string mode
        if opts["l"]:
            lb = opts["l"].encode()
            attr = L.parse_attr(*L.cstr(lb), self.ctx, None, None, False)
            if not attr:
                self._err(b"Invalid layout attribute: " + lb + b"\n")
                return 1, b""
            rtt = self._ranked(ttype, attr)
            text = self._print_attr(attr)
            out.append(b"Print layout attribute: " + text + b"\n")
            if not self._layout_print(rtt, attr, text, hw, out):
                return 1, b""
        data = b"".join(out)
        if opts["o"]:
            try:
                with open(opts["o"], "wb") as f:
                    f.write(data)
            except OSError as e:
                self._err("Error: %s : unable to open %s for output\n" % (e.strerror, opts["o"]))
                return 1, b""
            return 0, b""
        return 0, data


# ---------------------------------------------------------------------- LLVM cl emulation
_OPTS = {"i": "str", "o": "str", "l": "str", "t": "str", "alias-names": "list", "use-hw-view": "bool"}


def parse_cl(argv: list[str]):
    """Returns the option dict, or an error message (string) for an LLVM cl error."""
    opts = {"i": "", "o": "", "l": "", "t": "", "alias-names": [], "use-hw-view": False}
    prog = "triton-tensor-layout"
    k = 0
    while k < len(argv):
        a = argv[k]
        k += 1
        if not a.startswith("-") or a in ("-", "--"):
            return "%s: Unknown command line argument '%s'.  Try: '%s --help'\n" % (prog, a, prog)
        body = a[2:] if a.startswith("--") else a[1:]
        name, eq, val = body.partition("=")
        if name not in _OPTS:
            return "%s: Unknown command line argument '%s'.  Try: '%s --help'\n" % (prog, a, prog)
        kind = _OPTS[name]
        if kind == "bool":
            if not eq:
                opts[name] = True
            elif val in ("true", "TRUE", "True", "1"):
                opts[name] = True
            elif val in ("false", "FALSE", "False", "0"):
                opts[name] = False
            else:
                return "%s: for the --%s option: '%s' is invalid value for boolean argument! Try 0 or 1\n" % (prog, name, val)
            continue
        if not eq:
            if k >= len(argv):
                return "%s: for the -%s option: requires a value!\n" % (prog, name)
            val = argv[k]
            k += 1
        if kind == "list":
            opts[name].extend(val.split(","))
        else:
            opts[name] = val
    return opts


# ---------------------------------------------------------------------- bank conflicts
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
        self.ctx_ptr = _nb_inline_ptr(ctx)
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
        self.cli = _cli()
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


_LL_BASIS = re.compile(r"^ [ -] (\w+)=(\d+) -> \(([-\d, ]*)\)$")
_LL_SIZE1 = re.compile(r"^ - (\w+) is a size 1 dimension$")
_LL_OUTS = re.compile(r"(\w+) \(size (\d+)\)")


def parse_ll_text(text: str):
    """``LinearLayout::toString()`` -> (bases {in dim: [[..], ..]}, out dims {name: size}), both in Triton's order.

    `` - register=1 -> (0, 1)`` / ``   register=2 -> (1, 0)`` / `` - block is a size 1 dimension`` /
    ``where out dims are: [dim0 (size 4), dim1 (size 2)]``"""
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


def _nb_inline_ptr(obj) -> int:
    """Address of the C++ object wrapped by a nanobind instance (nb_inst: PyObject header, int32 offset,
    then flags with bit 2 = `direct`: data inline at base+offset, else a pointer to it stored there)."""
    base = id(obj)
    off = ctypes.c_int32.from_address(base + 16).value
    flags = ctypes.c_uint32.from_address(base + 20).value
    if (flags >> 2) & 1:
        return base + off
    return ctypes.c_void_p.from_address(base + off).value


# ---------------------------------------------------------------------- fork runner
_PROGNAME = None


def _set_progname(name: bytes):
    """Make assertion messages read `triton-tensor-layout: file:line: ...` as from the real tool."""
    global _PROGNAME
    try:
        libc = ctypes.CDLL(None)
        _PROGNAME = ctypes.create_string_buffer(name)
        ctypes.c_void_p.in_dll(libc, "program_invocation_short_name").value = ctypes.addressof(_PROGNAME)
    except (OSError, ValueError):
        pass


def run_forked(fn, timeout=CASE_TIMEOUT_S, progname=None):
    """Run fn() -> (rc, payload_bytes) in a forked child. Returns (exit_code, payload|None, stderr)."""
    errf = tempfile.TemporaryFile()
    resf = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # child
        rc = 99
        try:
            signal.alarm(timeout)
            if progname:
                _set_progname(progname)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(errf.fileno(), 2)
            rc, payload = fn()
            if payload is not None:
                resf.write(payload)
                resf.flush()
        except BaseException:
            try:
                os.write(2, ("ORACLE-INTERNAL-ERROR: " + traceback.format_exc()).encode())
            except BaseException:
                pass
            rc = 99
        os._exit(rc)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        rc = 128 + os.WTERMSIG(status)
    else:
        rc = os.WEXITSTATUS(status)
    errf.seek(0)
    err = errf.read()
    resf.seek(0)
    res = resf.read()
    errf.close()
    resf.close()
    return rc, (res if rc == 0 else None), err


_CLI = None
_BANK = None
_LINEAR = None


def _cli():
    global _CLI
    if _CLI is None:
        _CLI = CliOracle()
    return _CLI


def _bank():
    global _BANK
    if _BANK is None:
        _BANK = BankOracle(_cli())
    return _BANK


def _linear():
    global _LINEAR
    if _LINEAR is None:
        _LINEAR = LinearOracle(_bank())
    return _LINEAR


_MEMORY = None


def _memory():
    global _MEMORY
    if _MEMORY is None:
        _MEMORY = MemoryOracle(_linear())
    return _MEMORY


def run_memory(req):
    """One "memory" request: facts of a padded / partitioned shared layout ("what": "shared"), of a tensor memory
    layout ("tmem", with Gluon's rows/cols), or one tmem_load register layout ("tmem_reg")."""
    o = _memory()
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


def run_linear(attr: str, shape):
    """Triton's linear layout of `attr` at `shape`: (exit, {"bases", "out_dims", "alignment", "gluon"}|None, stderr).

    ``alignment`` is null for distributed layouts; ``gluon`` is the Gluon route's answer (null where it
    aborted or raised), a cross-check."""
    o = _linear()
    rc, out, err = run_forked(lambda: o.text(attr, shape))
    if rc != 0:
        return rc, None, err
    bases, outs = parse_ll_text(out.decode())
    grc, gout, _ = run_forked(lambda: (0, json.dumps(o.gluon(attr, shape)).encode()))
    gluon = json.loads(gout) if grc == 0 and gout else None
    arc, aout, _ = run_forked(lambda: (0, json.dumps(o.alignment(attr)).encode()))
    alignment = json.loads(aout) if arc == 0 and aout else None
    return 0, {"bases": bases, "out_dims": outs, "alignment": alignment, "gluon": gluon}, err


_GLUON = None


def _gluon():
    global _GLUON
    if _GLUON is None:
        _GLUON = GluonOracle(_linear())
    return _GLUON


def _python_error(fn):
    """fn() -> (0, bytes); a Python exception becomes exit 1 with ``Type: message`` on stderr (an abort stays one)."""
    def run():
        try:
            return fn()
        except Exception as e:  # noqa: BLE001 - Gluon's asserts and nanobind's TypeErrors are answers here
            os.write(2, ("%s: %s\n" % (type(e).__name__, e)).encode())
            return 1, None
    return run


def run_gluon(text: str, shape, hw: bool):
    """Gluon's answers for a constructor text: {"exit", "error", "attr", "view", "view_error", "linear",
    "linear_error"}; ``exit``/``error`` are those of building the attribute (0/null when it built)."""
    o = _gluon()
    res = {}
    rc, out, err = run_forked(_python_error(lambda: (0, o.attr(text))))
    res["exit"], res["error"] = rc, (None if rc == 0 else first_error_line(err))
    res["attr"] = out.decode() if rc == 0 else None
    rc, out, err = run_forked(_python_error(lambda: (0, o.view(text, shape, hw))))
    res["view"] = out.decode() if rc == 0 else None
    res["view_error"] = None if rc == 0 else "[%d] %s" % (rc, first_error_line(err))
    rc, out, err = run_forked(_python_error(lambda: (0, json.dumps(o.linear(text, shape)).encode())))
    res["linear"] = json.loads(out) if rc == 0 else None
    res["linear_error"] = None if rc == 0 else "[%d] %s" % (rc, first_error_line(err))
    return res


def first_error_line(err: bytes) -> str:
    for line in err.decode("utf-8", "replace").splitlines():
        if line.strip() and not line.startswith(("nanobind: leaked", " - leaked", " - ... skipped")):
            return line.strip()
    return ""


def run_cli(argv):
    o = _cli()
    return run_forked(lambda: o.cli_main(list(argv)), progname=b"triton-tensor-layout")


def run_bank(reg, shared, shape, bitwidth):
    o = _bank()

    def f():
        rc, n = o.conflicts(reg, shared, shape, bitwidth)
        return rc, (str(n).encode() if n is not None else None)

    rc, out, err = run_forked(f)
    return rc, (int(out) if out else None), err


def serve():
    _cli()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if req["op"] == "cli":
            rc, out, err = run_cli(req["args"])
            resp = {"exit": rc, "stdout": None if out is None else out.decode("utf-8", "surrogateescape"),
                    "stderr": err.decode("utf-8", "replace")}
        elif req["op"] == "linear":
            rc, res, err = run_linear(req["attr"], req["shape"])
            resp = {"exit": rc, "stdout": None, "stderr": err.decode("utf-8", "replace"), **(res or {})}
        elif req["op"] == "gluon":
            resp = run_gluon(req["text"], req["shape"], req.get("hw", False))
        elif req["op"] == "memory":
            rc, res, err = run_memory(req)
            resp = {"exit": rc, "stdout": None, "stderr": err.decode("utf-8", "replace"), "facts": res}
        elif req["op"] == "bank":
            rc, n, err = run_bank(req["reg"], req["shared"], req["shape"], req["bitwidth"])
            resp = {"exit": rc, "conflicts": n, "stdout": None, "stderr": err.decode("utf-8", "replace")}
        else:
            resp = {"exit": 99, "stdout": None, "stderr": "bad request"}
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()


def main(argv):
    if argv[:1] == ["--serve"]:
        serve()
        return 0
    if argv[:1] == ["linear"]:
        if len(argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        rc, res, err = run_linear(argv[1], [int(x) for x in argv[2].split("x")])
        sys.stderr.buffer.write(err)
        if rc == 0:
            print(json.dumps(res))
        return rc
    if argv[:1] == ["gluon"]:
        if len(argv) not in (3, 4):
            print(__doc__, file=sys.stderr)
            return 2
        print(json.dumps(run_gluon(argv[1], [int(x) for x in argv[2].split("x")], argv[3:] == ["hw"]), indent=1))
        return 0
    if argv[:1] == ["bank"]:
        if len(argv) != 5:
            print(__doc__, file=sys.stderr)
            return 2
        shape = [int(x) for x in argv[3].split("x")]
        rc, n, err = run_bank(argv[1], argv[2], shape, int(argv[4]))
        sys.stderr.buffer.write(err)
        if rc == 0:
            print(n)
        return rc
    rc, out, err = run_cli(argv)
    sys.stderr.buffer.write(err)
    sys.stderr.flush()
    if out:
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
