"""MLIR text of layout attributes and tensor types, spelled the way Triton 3.9 prints them.

``blocked([1, 2], [8, 4], [1, 1], [1, 0])`` ->
``#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>``
"""
from __future__ import annotations


def L(xs):
    """``[1, 2]``"""
    return "[" + ", ".join(str(x) for x in xs) + "]"


def LL(bs):
    """``[[0, 1], [1, 0]]``"""
    return "[" + ", ".join(L(b) for b in bs) + "]"


def T(shape, dtype="f16"):
    """``tensor<16x8xf16>``; an empty shape gives the rank-0 ``tensor<f16>``."""
    if not shape:
        return "tensor<%s>" % dtype
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + dtype + ">"


def cga_text(cga):
    return (", CGALayout = " + LL(cga)) if cga else ""


def blocked(spt, tpw, wpc, order, cga=None):
    return "#ttg.blocked<{sizePerThread = %s, threadsPerWarp = %s, warpsPerCTA = %s, order = %s%s}>" % (
        L(spt), L(tpw), L(wpc), L(order), cga_text(cga))


def slice_(dim, parent):
    return "#ttg.slice<{dim = %d, parent = %s}>" % (dim, parent)


def linear(reg, lane, warp, block, kind="linear"):
    return "#ttg.%s<{register = %s, lane = %s, warp = %s, block = %s}>" % (kind, LL(reg), LL(lane), LL(warp), LL(block))


def swizzled(vec, pp, mp, order, cga=None, kind="swizzled_shared"):
    return "#ttg.%s<{vec = %d, perPhase = %d, maxPhase = %d, order = %s%s}>" % (kind, vec, pp, mp, L(order), cga_text(cga))


def shared_linear(offset, block, alignment):
    """``block`` None leaves the key out (Triton accepts both; it prints an empty one without the key)."""
    b = (", block = " + LL(block)) if block is not None else ""
    return "#ttg.shared_linear<{offset = %s%s}, alignment = %d>" % (LL(offset), b, alignment)


def nvidia_mma(vmaj, vmin, wpc, instr, cga=None):
    return "#ttg.nvidia_mma<{versionMajor = %d, versionMinor = %d, warpsPerCTA = %s%s, instrShape = %s}>" % (
        vmaj, vmin, L(wpc), cga_text(cga), L(instr))


def amd_mfma(version, wpc, instr, transposed, cga=None, tiles=None, ebw=None):
    s = "#ttg.amd_mfma<{version = %d, warpsPerCTA = %s, instrShape = %s, isTransposed = %s%s" % (
        version, L(wpc), L(instr), "true" if transposed else "false", cga_text(cga))
    if tiles is not None:
        s += ", tilesPerWarp = " + L(tiles)
    if ebw is not None:
        s += ", elementBitWidth = %d" % ebw
    return s + "}>"


def amd_wmma(version, transpose, reg, warp, cga=None, instr=None, rank=None):
    parts = []
    if reg is not None:
        parts.append("register = " + LL(reg))
    parts.append("warp = " + LL(warp))
    s = "#ttg.amd_wmma<{version = %d, isTranspose = %s, " % (version, "true" if transpose else "false")
    if rank is not None:
        s += "rank = %d, " % rank
    s += "ctaLayout = {" + ", ".join(parts) + "}" + cga_text(cga)
    if instr is not None:
        s += ", instrShape = " + L(instr)
    return s + "}>"


def dot_op(op_idx, parent, kwidth=0):
    k = (", kWidth = %d" % kwidth) if kwidth else ""
    return "#ttg.dot_op<{opIdx = %d, parent = %s%s}>" % (op_idx, parent, k)


def nvmma_shared(swz, transposed, ebw, fp4=False, cga=None, rank=None):
    s = "#ttg.nvmma_shared<{swizzlingByteWidth = %d, transposed = %s, elementBitWidth = %d" % (
        swz, "true" if transposed else "false", ebw)
    if fp4:
        s += ", fp4Padded = true"
    if rank is not None:
        s += ", rank = %d" % rank
    return s + cga_text(cga) + "}>"


def kind_of(attr):
    """``#ttg.blocked<{..}>`` -> ``blocked``"""
    return attr.split("<")[0][5:]
