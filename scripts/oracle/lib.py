"""The bindings every job shares: ``Lib`` (ctypes handles on the libtriton.so functions triton-tensor-layout
calls), the layout mnemonics Triton's tool accepts, and the address of a nanobind object's C++ value.

``Lib()`` imports Triton; the rest runs anywhere."""
from __future__ import annotations

import ctypes

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


class Lib:
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


def nb_inline_ptr(obj) -> int:
    """Address of the C++ object wrapped by a nanobind instance (nb_inst: PyObject header, int32 offset,
    then flags with bit 2 = `direct`: data inline at base+offset, else a pointer to it stored there)."""
    base = id(obj)
    off = ctypes.c_int32.from_address(base + 16).value
    flags = ctypes.c_uint32.from_address(base + 20).value
    if (flags >> 2) & 1:
        return base + off
    return ctypes.c_void_p.from_address(base + off).value
