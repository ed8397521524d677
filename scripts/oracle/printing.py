"""Printing: the ``triton-tensor-layout`` tool itself, its ``main()`` replayed call by call through ``Lib``
(``CliOracle``), with LLVM's command-line parsing emulated in Python (``parse_cl``).

``parse_cl`` needs no Triton (the golden generator reads its cases' options with it)."""
from __future__ import annotations

import ctypes
import os
import tempfile

from .fork import run_forked
from .lib import LAYOUT_MNEMONICS, Lib, mnemonic


class CliOracle:
    """One MLIR context shaped like the tool's; ``cli_main(argv)`` is the tool's ``main()`` (``run_cli`` runs it in a
    forked child)."""

    def __init__(self):
        self.L = L = Lib()
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
        text = self._probe_alias()
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

    def _probe_alias(self) -> bytes:
        """A one-alias file whose attribute locates AttributeAliasDefinition::value."""
        return b"#a = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"

    def _block_address(self, blk) -> int:
        return blk.id()

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
        L.parse_source_file(fn_ptr, fn_len, ctypes.addressof(srcmgr), self._block_address(blk0), ctypes.addressof(config), None)
        os.ftruncate(2, pos)
        os.lseek(2, pos, os.SEEK_SET)
        state = L.buf(256)
        L.asm_state_ctor(ctypes.addressof(state))
        blk = builder.new_block()
        ok = L.parse_asm_source_file(ctypes.addressof(srcmgr), self._block_address(blk), ctypes.addressof(config), ctypes.addressof(state), None)
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
    """Returns the option dict, or an error message (string) for an LLVM cl error.  LLVM accepts one or two dashes,
    ``=`` or a separate value, and a boolean flag's value only after ``=``:

    >>> o = parse_cl(["--l=#a", "-t", "tensor<4xf16>", "-alias-names=x,y", "-use-hw-view=false"])
    >>> o["l"], o["t"], o["alias-names"], o["use-hw-view"]
    ('#a', 'tensor<4xf16>', ['x', 'y'], False)
    >>> parse_cl(["-l"])
    'triton-tensor-layout: for the -l option: requires a value!\\n'
    """
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


def run_cli(o: CliOracle, argv):
    """One invocation of the tool in a forked child: (exit, stdout bytes | None, stderr bytes)."""
    return run_forked(lambda: o.cli_main(list(argv)), progname=b"triton-tensor-layout")
