"""Parser: Triton 3.9's parse/verification messages, syntax errors, robustness, tensor types, MLIR files.

Expected messages in ORACLE_ERRORS come from Triton 3.9.0 itself: each input was embedded as
`module attributes {"x.v" = <attr>} {}` and parsed with
`triton._C.libtriton.ir.parse_mlir_module(path, ctx)` (after `ir.load_dialects(ctx)`) in
/opt/oracle/venv, one subprocess per input; the message is Triton's diagnostic text after `error: `
(the first diagnostic when it printed two).
"""
import os
import re
import subprocess
import sys

import pytest
from golden_cases import ROOT

from linlayout_cli.attributes.encodings import (
    AMDMfmaEncoding,
    AMDWmmaEncoding,
    BlockedEncoding,
    DotOperandEncoding,
    LinearEncoding,
    NVMMASharedEncoding,
    OtherAttribute,
    PaddedSharedEncoding,
    PartitionedSharedEncoding,
    SliceEncoding,
    SwizzledSharedEncoding,
    TensorMemoryEncoding,
    TensorType,
)
from linlayout_cli.errors import ParseError, VerifyError
from linlayout_cli.parsing import AliasDef, parse_attribute, parse_mlir_file, parse_tensor_type

LOC = re.compile(r"^(line \d+, )?column \d+: ")

ORACLE_ERRORS = [
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = true>',
     VerifyError, 'twoCTAs layout requires the first CGALayout block basis to be [1, 0]'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64>',
     ParseError, "missing key 'colStride' in #ttng.tensor_memory_encoding"),   # Triton: struct is missing ...
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 3>',
     VerifyError, 'colStride must be 1, 2, or 4 but got but got 3'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 0>',
     VerifyError, 'colStride must be 1, 2, or 4 but got but got 0'),
    ('#ttng.tensor_memory_encoding<blockM = 32, blockN = 64, colStride = 1>',
     VerifyError, 'blockM must be 64 or 128 but got 32'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 3, colStride = 1>',
     VerifyError, 'blockN must be a power of 2 but got 3'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, foo = 1>',
     ParseError, 'duplicate or unknown struct parameter name: foo'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = -1>',
     VerifyError, 'colStride must be 1, 2, or 4 but got but got 4294967295'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = [[1, 0, 0]]>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttng.tensor_memory_scales_encoding<blockRepOrder = foo>',
     ParseError, 'expected one of [mnThenK, kThenMn] for allowed 32-bit signless integer cases: 0, 1, got: foo'),
    ('#ttng.tensor_memory_scales_encoding',
     ParseError, "expected '<'"),
    ('#ttng.tensor_memory_encoding',
     ParseError, "expected '<'"),
    ('#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     VerifyError, 'Every element in sizePerThread must be a power of two.'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>',
     VerifyError, 'order must be a permutation of 0..(rank-1), but was [1, 1]'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4], order = [1, 0]}>',
     VerifyError, 'sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have the same rank.'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 1]]}>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[3, 0]]}>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[2, 0]]}>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0], [1, 0]]}>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = 1}>',
     ParseError, "expected array value for 'CGALayout'"),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [1]}>',
     ParseError, 'expected an array for CGALayout entry'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[-1, 0]]}>',
     ParseError, 'expected an unsigned integer value in CGALayout entry'),
    ('#ttg.blocked<{sizePerThread = [1, -4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'expected an unsigned integer value in number of elements per thread'),
    ('#ttg.blocked<{sizePerThread = 1, threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'expected an array for number of elements per thread'),
    ('#ttg.blocked<{sizePerThread = [1.0, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'expected an integer type in number of elements per thread'),
    ('#ttg.blocked<{sizePerThread = [true, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'expected an unsigned integer value in number of elements per thread'),
    ('#ttg.blocked<{sizePerThread = [false, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     VerifyError, 'Every element in sizePerThread must be a power of two.'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], sizePerThread = [1, 4]}>',
     ParseError, "duplicate key 'sizePerThread' in dictionary attribute"),
    ('#ttg.blocked<{zzz = 1, aaa = 2, sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'unexpected key: aaa'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], foo}>',
     ParseError, 'unexpected key: foo'),
    ('#ttg.blocked<{sizePerThread = [0, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     VerifyError, 'Every element in sizePerThread must be a power of two.'),
    ('#ttg.blocked',
     ParseError, "expected '<'"),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 2]]}>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]], CGALayout = [[1, 0]]}>',
     ParseError, "duplicate key 'CGALayout' in dictionary attribute"),
    ('#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[true]]}>',
     ParseError, 'expected an unsigned integer value in CGALayout entry'),
    ('#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CGALayout = [[1.5]]}>',
     ParseError, 'expected an integer type in CGALayout entry'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = array<i32: 4, 1>, order = [1, 0]}>',
     ParseError, 'expected an array for number of warps per CTA'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], x = "a\\"b"}>',
     ParseError, 'unexpected key: x'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], x = -1 : i8}>',
     ParseError, 'unexpected key: x'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], x = 300 : i8}>',
     ParseError, 'integer constant out of range for attribute'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], x = 99999999999999999999}>',
     ParseError, 'integer constant out of range for attribute'),
    ('#ttg.blocked<{sizePerThread = [1, -4 : si32], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'expected an unsigned integer value in number of elements per thread'),
    ('#ttg.blocked<{sizePerThread = [1, 4 : f32], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>',
     ParseError, 'unexpected decimal integer literal for a floating point value'),
    ('#ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     VerifyError, 'slice dim=2 must be less than the parent rank=2'),
    ('#ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>',
     VerifyError, 'parent layout must have at least rank >= 2'),
    ('#ttg.slice<{dim = 0, parent = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>',
     ParseError, 'expected a distributed encoding trait'),
    ('#ttg.slice<{dim = -1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     VerifyError, 'slice dim=4294967295 must be less than the parent rank=2'),
    ('#ttg.slice<{dim = true, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     VerifyError, 'slice dim=4294967295 must be less than the parent rank=2'),
    ('#ttg.slice<{dim = 0, parent = 1}>',
     ParseError, 'expected a distributed encoding trait'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>}>',
     VerifyError, 'ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper MMA parent'),
    ('#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>',
     VerifyError, 'ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, since Hopper WGMMA only allows first operand to be in registers'),
    ('#ttg.dot_op<{opIdx = 2, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>, kWidth = 2}>',
     VerifyError, 'ttg.dot_op opIdx parameter can be 0 or 1, got: 2'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, kWidth = 1}>',
     VerifyError, 'ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = true}>}>',
     VerifyError, 'ttg.dot_op kWidth parameter is mandatory for MFMA parent'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 2, isTranspose = false, ctaLayout = {warp = [[1, 0], [2, 0]]}}>, kWidth = 2}>',
     VerifyError, 'ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including packed cases for `scaled_dot`)'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = [[1, 0]]}}>, kWidth = 4}>',
     VerifyError, 'ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including packed cases for `scaled_dot`)'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {warp = [[1, 0]]}}>}>',
     VerifyError, 'invalid WMMA v3 instruction shape'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>}>',
     VerifyError, 'ttg.dot_op unexpected parent layout: #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>',
     VerifyError, 'ttg.dot_op unexpected parent layout: #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>'),
    ('#ttg.dot_op<{opIdx = 0, parent = 1}>',
     VerifyError, 'ttg.dot_op unexpected parent layout: 1 : i64'),
    ('#ttg.dot_op<{opIdx = 0}>',
     ParseError, "missing key 'parent' in #ttg.dot_op"),
    ('#ttg.dot_op<{parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     ParseError, "missing key 'opIdx' in #ttg.dot_op"),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, foo = 1}>',
     ParseError, 'duplicate or unknown struct parameter name: foo'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, opIdx = 1}>',
     ParseError, 'duplicate or unknown struct parameter name: opIdx'),
    ('#ttg.dot_op<opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>',
     ParseError, "expected '{'"),
    ('#ttg.dot_op<{opIdx = -1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     VerifyError, 'ttg.dot_op opIdx parameter can be 0 or 1, got: 4294967295'),
    ('#ttg.dot_op<{opIdx = true, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>',
     VerifyError, 'ttg.dot_op opIdx parameter can be 0 or 1, got: 4294967295'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, kWidth = -2}>',
     VerifyError, 'ttg.dot_op kWidth parameter is not supported when the parent is a blocked layout'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>}>',
     VerifyError, 'ttg.dot_op unexpected parent layout: #ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>}>',
     VerifyError, 'ttg.dot_op unexpected parent layout: #ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>'),
    ('#ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>',
     VerifyError, 'Volta (versionMajor = 1) is deprecated and no longer supported'),
    ('#ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>',
     VerifyError, 'versionMajor must be 2 (Ampere) or 3 (Hopper), got 4'),
    ('#ttg.nvidia_mma<{}>',            # Triton: versionMajor must be 2 (Ampere) or 3 (Hopper), got 0
     ParseError, "missing key 'versionMajor' in #ttg.nvidia_mma"),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8], CGALayout = [[1, 0, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttg.nvidia_mma<{versionMajor = 2.0, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>',
     ParseError, 'expected an integer type in versionMajor'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = false, elementBitWidth = 16}>',
     VerifyError, 'elementBitWidth must be 32 or 64'),
    ('#ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = false}>',
     VerifyError, 'version must be in the [0, 4] range'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 16], isTransposed = false}>',
     VerifyError, 'invalid (mDim, nDim) combination: (32, 16)'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = 1}>',
     ParseError, 'expected a bool type in isTransposed'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], isTransposed = "true"}>',
     ParseError, 'expected a bool type in isTransposed'),
    ('#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = 1}>',
     ParseError, "expected dictionary value for 'ctaLayout'"),
    ('#ttg.amd_wmma<{version = 0, isTranspose = true, ctaLayout = {warp = [[1, 0]]}}>',
     VerifyError, 'WMMA version must be in the [1, 3] range'),
    ('#ttg.amd_wmma<{version = 1, isTranspose = true, ctaLayout = {warp = [[1, 0]]}, instrShape = [16, 16, 32]}>',
     VerifyError, 'invalid WMMA v1 instruction shape'),
    ('#ttg.amd_wmma<{version = 3, isTranspose = true, ctaLayout = {warp = [[1, 0]]}, instrShape = [16, 16, 16]}>',
     VerifyError, 'invalid WMMA v3 instruction shape'),
    ('#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[1, 0]]}, CGALayout = [[1, 0, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = []}>',      # Triton: Expected basis of ...
     ParseError, "missing key 'block' in #ttg.linear (e.g. block = [])"),
    ('#ttg.linear<{register = [], lane = [], warp = [], block = []}>',
     ParseError, 'Empty Layout not supported'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 1]], warp = [], block = []}>',
     VerifyError, 'LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [[1, 0]], block = []}>',
     VerifyError, 'LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = 1}>',
     ParseError, "Expected array of arrays for basis of 'block'"),
    ('#ttg.linear<{register = [[0, 1]], lane = [1], warp = [], block = []}>',
     ParseError, "Expected array of integers in basis for 'lane'"),
    ('#ttg.linear<{register = [[0, 1.0]], lane = [[1, 0]], warp = [], block = []}>',
     ParseError, "Expected integer in basis for 'register'"),
    ('#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0]], warp = [[0, 3]], block = []}>',
     VerifyError, 'LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases'),
    ('#ttg.linear<{register = [[]], lane = [], warp = [], block = []}>',
     ParseError, 'Empty Layout not supported'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = [], block = []}>',
     ParseError, "duplicate key 'block' in dictionary attribute"),
    ('#ttg.generic_linear<{register = [[1, 1]], lane = [[1, 0]], warp = [], block = []}>',
     VerifyError, "In a generic linear layout, register, lane, and block bases must move in at most one dimension. Swizzled bases found in 'register'."),
    ('#ttg.generic_linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = [[1, 1]]}>',
     VerifyError, "In a generic linear layout, register, lane, and block bases must move in at most one dimension. Swizzled bases found in 'block'."),
    ('#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], CGALayout = [[1, 0, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], foo = 1}>',
     ParseError, 'unexpected key: foo'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[0, 0, 1]], rank = 2}>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [1]}>',
     ParseError, 'expected an array for CGALayout entry'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>',
     VerifyError, 'swizzlingByteWidth must be 0, 32, 64, or 128'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 0}>',
     VerifyError, 'elementBitWidth must be non-zero'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, foo = 1}>',
     ParseError, 'unexpected key: foo'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = 0, elementBitWidth = 16}>',
     ParseError, 'expected a bool type in transposed'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 4, CGALayout = [[1, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 4"),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0, 0], [0, 0]]}>',
     ParseError, "'CGALayout' entry length does not match rank 3"),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, CGALayout = [1, [0, 0]]}>',
     ParseError, 'expected an array for CGALayout entry'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = [[1, 0]]}, alignment = 16>',
     VerifyError, 'After removing the zero bases the layout must be bijective'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 3>',
     VerifyError, 'alignment must be a positive power of two'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 0>',
     VerifyError, 'alignment must be a positive power of two'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}>',     # Triton: expected ','
     ParseError, "missing key 'alignment' in #ttg.shared_linear (e.g. alignment = 16, after the braces)"),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], alignment = 16}>',
     ParseError, 'alignment must be specified outside of the linear layout braces'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], foo = 1}, alignment = 16>',
     ParseError, 'SharedLinearEncodingAttr must have exactly two attributes: offset and block'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [0, 1]]}, alignment = 16>',
     VerifyError, 'After removing the zero bases the layout must be bijective'),
    ('#ttg.shared_linear<{offset = []}, alignment = 16>',
     ParseError, 'Empty Layout not supported'),
    ('#ttg.shared_linear<{block = [[1]]}, alignment = 16>',
     ParseError, "missing key 'offset' in #ttg.shared_linear (e.g. offset = [])"),
    ('#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, alignment = -16>',
     VerifyError, 'alignment must be a positive power of two'),
    ('#ttg.shared_linear<{offset = [[0, 1], [1, 0]]}, align = 16>',
     ParseError, "expected 'alignment'"),
    ('#ttg.padded_shared<[2:+2] {order = [0, 1], shape = [4]}>',
     ParseError, 'Mismatch of shape and order ranks in padded layout'),
    ('#ttg.padded_shared<[2:+2] {order = [0, 1], shape = [4, 8], foo = 1}>',
     ParseError, 'Unexpected attribute "foo" found'),
    ('#ttg.padded_shared<[2:+2] {offset = [[0, 1]]}>',
     ParseError, "missing key 'block' in #ttg.padded_shared (e.g. block = [])"),
    ('#ttg.padded_shared<[2:+2] {block = []}>',
     ParseError, "missing key 'offset' in #ttg.padded_shared (e.g. offset = [])"),
    ('#ttg.padded_shared<[] {order = [0, 1], shape = [4, 8]}>',
     ParseError, 'expected integer value'),
    ('#ttg.padded_shared<[3:+2] {order = [0, 1], shape = [4, 8]}>',
     VerifyError, 'interval values must all be power of two'),
    ('#ttg.padded_shared<[2:+3] {order = [0, 1], shape = [4, 8]}>',
     VerifyError, 'padding values must all be power of two'),
    ('#ttg.padded_shared<[2:+2, 2:+4] {order = [0, 1], shape = [4, 8]}>',
     VerifyError, 'interval values cannot have duplicates'),
    ('#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 1]], block = []}>',
     VerifyError, 'Broadcasting in offset dimension is not supported.'),
    ('#ttg.padded_shared<[2:+2] {offset = [[0, 1], [1, 1]], block = []}>',
     VerifyError, 'Each offset basis must move in at most one dimension.'),
    ('#ttg.padded_shared<[2:+2] {offset = [[0, 1], [0, 0]], block = []}>',
     VerifyError, 'Broadcasting in offset dimension is not supported.'),
    ('#ttg.padded_shared<[2:+2] {offset = [[0, 1], [1, 0]], block = [[1, 1]]}>',
     VerifyError, 'Each offset basis must move in at most one dimension.'),
    ('#ttg.padded_shared<{order = [0, 1], shape = [4, 8]}>',
     ParseError, "expected '['"),
    ('#ttg.padded_shared<[2:+2] {order = [], shape = []}>',
     VerifyError, 'linearComponent must have [offset, block] as input dims'),
    ('#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0}>',
     ParseError, "missing key 'partitionLayout' in #ttg.partitioned_shared"),
    ('#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>',
     ParseError, 'partitionLayout must be a SharedEncodingTrait'),
    ('#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, partitionLayout = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>, foo = 1}>',
     ParseError, 'unexpected key: foo'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = 1>',
     VerifyError, 'twoCTAs layout requires the first CGALayout block basis to be [1, 0]'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = "true">',
     ParseError, 'expected integer value'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 1024, colStride = 1>',
     VerifyError, 'blockN must be less than or equal to 512 but got 1024'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = true>',
     VerifyError, 'colStride must be 1, 2, or 4 but got but got 4294967295'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1.0>',
     ParseError, 'expected integer value'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = 1>',
     ParseError, "expected array value for 'CGALayout'"),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = [[1, 1]]>',
     VerifyError, 'After removing broadcast bases the CGA encoding must be a permutation matrix'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = true, CGALayout = [[0, 1], [1, 0]]>',
     VerifyError, 'twoCTAs layout requires the first CGALayout block basis to be [1, 0]'),
    ('#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, blockM = 64>',
     ParseError, 'duplicate or unknown struct parameter name: blockM'),
    ('#ttng.tensor_memory_scales_encoding<CGALayout = [[1, 0, 0]]>',
     ParseError, "'CGALayout' entry length does not match rank 2"),
    ('#ttng.tensor_memory_scales_encoding<foo = 1>',
     ParseError, 'duplicate or unknown struct parameter name: foo'),
    ('#ttng.tensor_memory_scales_encoding<blockRepOrder = 1>',
     ParseError, 'expected keyword for allowed 32-bit signless integer cases: 0, 1'),
    ('#ttg.dot_op<{opIdx = 1.0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>',
     ParseError, 'expected integer value'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>, kWidth = 99999999999}>',
     ParseError, 'integer value too large'),
    ('#ttg.dot_op<{opIdx, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>',
     ParseError, "expected '='"),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2, 1], instrShape = [32, 32], isTransposed = true, CGALayout = [[0, 1]]}>',
     ParseError, "'CGALayout' entry length does not match rank 3"),
    ('#ttg.linear<{register = [[4294967297, 0]], lane = [[1, 0]], warp = [], block = []}>',
     VerifyError, 'LinearEncodingAttr requires a permutation matrix layout after removing broadcast bases'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = [], register = []}>',
     ParseError, "duplicate key 'register' in dictionary attribute"),
    ('-1 : ui8',
     ParseError, 'negative integer literal not valid for unsigned integer type'),
    ('128 : si8',
     ParseError, 'integer constant out of range for attribute'),
]


@pytest.mark.parametrize("text,kind,message", ORACLE_ERRORS, ids=range(len(ORACLE_ERRORS)))
def test_triton_messages(text, kind, message):
    with pytest.raises(kind) as info:
        parse_attribute(text)
    msg = str(info.value)
    if kind is ParseError:
        assert LOC.match(msg), msg          # "column N: " + Triton's words
    # ttlayout adds a hint to Triton's "unexpected key: k": the closest known key, else the known keys
    assert HINT.sub("", LOC.sub("", msg)) == message


HINT = re.compile(r" \((did you mean '\w+'\?|expected one of [\w, ]+)\)$")


def test_unexpected_key_hint():
    text = "#ttg.blocked<{sizePerThrd = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    assert str(info.value) == "column 15: unexpected key: sizePerThrd (did you mean 'sizePerThread'?)"
    with pytest.raises(ParseError, match=r"unexpected key: zz \(expected one of numPartitions, numGroups, "
                                         r"partitionDim, partitionLayout\)"):
        parse_attribute("#ttg.partitioned_shared<{numPartitions = 2, zz = 1}>")


@pytest.mark.parametrize("text, message", [
    ("#ttg.swizzled_shared<{vec = 1, perPhse = 1, maxPhase = 1, order = [0]}>",
     "column 32: unexpected key: perPhse (did you mean 'perPhase'?)"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidht = 16}>",
     "column 46: unexpected key: elementBitWidht (did you mean 'elementBitWidth'?)"),
    ("#ttg.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], hasLeadingOfset = false}>",
     "column 64: unexpected key: hasLeadingOfset (did you mean 'hasLeadingOffset'?)"),
    ("#ttg.amd_rotating_shared<{zz = 1}>",
     "column 27: unexpected key: zz (expected one of vec, perPhase, maxPhase, order, CGALayout)"),
    ("#ttg.shared<{zz = 1}>",
     "column 14: unexpected key: zz (expected one of vec, perPhase, maxPhase, order, CGALayout, hasLeadingOffset)"),
    ("#ttg.nvmma_shared<{zz = 1}>", "column 20: unexpected key: zz (expected one of swizzlingByteWidth, "
     "transposed, elementBitWidth, fp4Padded, rank, CGALayout)"),
    ("#ttg.blocked<{zz = 1}>",
     "column 15: unexpected key: zz (expected one of sizePerThread, threadsPerWarp, warpsPerCTA, order, CGALayout)"),
    # a kind without a CGA layout does not take the legacy CTA keys either
    ("#ttg.partitioned_shared<{CTAOrder = [0]}>", "column 26: unexpected key: CTAOrder (expected one of "
     "numPartitions, numGroups, partitionDim, partitionLayout)"),
])
def test_unexpected_key_hints_name_each_kinds_keys(text, message):
    """The hint lists exactly the keys the kind reads (legacy keys are accepted but never suggested)."""
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    assert str(info.value) == message


@pytest.mark.parametrize("text, printed", [
    ("#ttg.amd_mfma<{zz = 1, version = 3, instrShape = [16, 16], isTransposed = true, warpsPerCTA = [1, 1]}>",
     "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape = [16, 16], isTransposed = true}>"),
    ("#ttg.nvidia_mma<{zz = 1, versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>",
     "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>"),
])
def test_mma_kinds_skip_unknown_keys(text, printed):
    """The MMA layouts ignore keys they do not know (`zz`): Triton 3.9's triton-tensor-layout prints these."""
    assert str(parse_attribute(text)) == printed


# ---- locations: Triton reports these at the same columns (oracle column minus the 27-character
#      `module attributes {"x.v" = ` prefix) ------------------------------------------------------

@pytest.mark.parametrize("text,column,message", [
    # (Triton points at the mnemonic, column 6; we point at the key)
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
     "order = [1, 0], foo = 1}>", 102, "unexpected key: foo"),
    ("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
     "order = [1, 0], sizePerThread = [1, 4]}>", 102, "duplicate key 'sizePerThread' in dictionary attribute"),
    ("#ttg.dot_op<{opIdx = 0}>", 23, "missing key 'parent' in #ttg.dot_op"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64>", 55,
     "missing key 'colStride' in #ttng.tensor_memory_encoding"),
    ("#ttng.tensor_memory_encoding<>", 30, "expected a parameter name in struct"),
    # (Triton points at the value, column 78; we point at the key)
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, foo = 1>", 72,
     "duplicate or unknown struct parameter name: foo"),
    ("#ttng.foo<>", 7, "unknown attribute 'foo' in dialect 'ttng'"),
])
def test_error_columns(text, column, message):
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    assert info.value.line == 1 and info.value.column == column
    assert HINT.sub("", str(info.value)) == f"column {column}: {message}"


# ---- syntax errors: column and the expected tokens (from the LALR tables) -----------------------

@pytest.mark.parametrize("text,message", [
    ("#ttg.blocked<{sizePerThread = [1 4]}>", "column 34: expected one of ']', ',' or ':' but found '4'"),
    ("#ttg.blocked<{sizePerThread = [1, 4]", "column 37: expected one of '}' or ',' but found end of input"),
    ("#ttg.blocked<{sizePerThread = }>", "column 31: expected an attribute value but found '}'"),
    ("#ttg.blocked<{sizePerThread [1]}>", "column 29: expected one of '}', ',' or '=' but found '['"),
    ("#ttg.blocked<{a = [1]}}>", "column 23: expected one of '>', ',' or '{' but found '}'"),
    ("#ttg.blocked<{a = $}>", "column 19: expected an attribute value but found '$'"),
    ("[1,]", "column 4: expected an attribute value but found ']'"),
    ("garbage", "column 1: expected an attribute value but found 'garbage'"),
    ("", "column 1: expected an attribute value but found end of input"),
    ("  // just a comment", "column 1: expected an attribute value but found end of input"),
    ("#ttg.linear<{register = [[1]], lane = [], warp = [], block = []}> x",
     "column 67: expected end of input but found 'x'"),
    ("#ttg.blocked<{sizePerThread = [1],\n  order = [0 0]}>", "line 2, column 14: expected one of ']', ',' or ':' but found '0'"),
    ("#ttg.padded_shared<[2:2] {order = [0], shape = [4]}>",
     "column 23: expected one of '+' or an identifier but found '2'"),
    ("#blocked", "column 1: undefined symbol alias id 'blocked'"),
    ("#ttg.slice<{dim = 0, parent = #blocked}>", "column 31: undefined symbol alias id 'blocked'"),
    ("#ttg.blocked", "column 13: expected '<'"),
    ("#ttg.blocked<[1]>", "column 14: expected a dictionary '{...}' as the body of #ttg.blocked"),
    ("#ttg.blocked<{a = " + "7" * 40 + "}>", "column 19: integer constant out of range for attribute"),
    ("#ttg.blocked<{a = " + "x" * 40 + "}>", "column 19: expected an attribute value but found 'xxxxxxxxxxxxxxxxx...'"),
    ("#ttg.blocked<{order = [1 : f32]}>", "column 24: unexpected decimal integer literal for a floating point value"),
    ("#ttg.blocked<{order = [-1 : ui32]}>", "column 24: negative integer literal not valid for unsigned integer type"),
])
def test_syntax_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_attribute(text)
    assert str(info.value) == message
    assert "\n" not in str(info.value)


# ---- where Triton 3.9 aborts (assertion / LLVM ERROR / segfault) we raise a clean error --------

@pytest.mark.parametrize("text,kind,message", [
    ("#ttg.linear<{register = [[0, 2]], lane = [[1, 0]], warp = [], block = []}>", VerifyError,
     "Layout is expected to be surjective, i.e. every `out` coordinate can be reached by some `in` "
     "coordinate, but was not"),
    ("#ttg.linear<{register = [[0, -1]], lane = [[1, 0]], warp = [], block = []}>", VerifyError,
     "Invalid bases passed to LinearLayout.  Expected all basis values to be non-negative, but found a "
     "negative value for in dimension 'register'."),
    ("#ttg.linear<{register = [[0, 1]], lane = [[1, 0, 0]], warp = [], block = []}>", VerifyError,
     "every basis of a LinearLayout must have 2 entries (the rank deduced from the first basis), but a "
     "basis of 'lane' has 3: [1, 0, 0]"),
    ("#ttg.generic_linear<{register = [[0, 2]], lane = [[1, 0]], warp = [], block = []}>", VerifyError,
     "Generic linear layout must be surjective, i.e. all output values must be covered by some input."),
    ("#ttg.shared_linear<{offset = [[0, 1], [0, 4], [1, 0]]}, alignment = 16>", VerifyError,
     "Layout is expected to be surjective, i.e. every `out` coordinate can be reached by some `in` "
     "coordinate, but was not"),
    ("#ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = [[0, 2]]}}>", VerifyError,
     "Layout is expected to be surjective, i.e. every `out` coordinate can be reached by some `in` "
     "coordinate, but was not"),
    ("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], "
     "CGALayout = [[0x80000000]]}>", VerifyError,
     "Invalid bases passed to LinearLayout.  Expected all basis values to be non-negative, but found a "
     "negative value for in dimension 'block'."),
    ("#ttg.slice<{parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
     "warpsPerCTA = [4, 1], order = [1, 0]}>}>", ParseError,
     "column 6: missing key 'dim' in #ttg.slice (e.g. dim = 0)"),
    ("#ttg.slice<{dim = 0}>", ParseError, "column 6: missing key 'parent' in #ttg.slice"),
    ("#ttg.slice<{dim = 0, parent = 1}>", ParseError, "column 6: expected a distributed encoding trait"),
    ("#ttg.slice<{dim = true, parent = 1}>", ParseError, "column 6: expected a distributed encoding trait"),
    ("#ttg.slice<{dim = [0]}>", ParseError, "column 6: #ttg.slice requires an integer 'dim' (e.g. dim = 0)"),
    ("#ttg.slice<>", ParseError, "column 6: missing key 'dim' in #ttg.slice (e.g. dim = 0)"),
    ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32], isTransposed = false}>",
     VerifyError, "instrShape must have 2 or 3 entries ([mDim, nDim] or [mDim, nDim, kDim]), got [32]"),
    ("#ttg.nvmma_shared<{transposed = false, elementBitWidth = 16}>", ParseError,
     "column 6: missing key 'swizzlingByteWidth' in #ttg.nvmma_shared"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 128}>", ParseError,
     "column 6: missing key 'elementBitWidth' in #ttg.nvmma_shared"),
    ("#ttg.amd_wmma<{version = 2, isTranspose = true}>", ParseError,
     "column 6: missing key 'ctaLayout' in #ttg.amd_wmma (e.g. ctaLayout = {warp = [[1, 0], [2, 0]]})"),
    ("#ttg.padded_shared<[2:+2] {order = [0, 1], shape = [4, 6]}>", ParseError,
     "column 6: padded_shared shape entries must be powers of two, got [4, 6]"),
    ("#ttg.partitioned_shared<{numPartitions = 3, numGroups = 1, partitionDim = 0, partitionLayout = "
     "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>", VerifyError,
     "numPartitions must be a power of 2 and at least 2"),
    ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 0, partitionDim = 0, partitionLayout = "
     "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>", VerifyError,
     "numGroups must be a power of 2 and greater than 0"),
    ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 2, partitionLayout = "
     "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>", VerifyError,
     "partitionDim (2) must be less than the layout rank (2)"),
])
def test_clean_errors_where_triton_aborts(text, kind, message):
    with pytest.raises(kind) as info:
        parse_attribute(text)
    assert str(info.value) == message


def test_legacy_errors():
    # with both, CGALayout wins (Triton ignores the legacy keys of the MMA layouts the same way)
    assert parse_attribute("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
                           "order = [0], CGALayout = [[1]], CTAsPerCGA = [4]}>") == \
        parse_attribute("#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
                        "order = [0], CGALayout = [[1]]}>")
    with pytest.raises(ParseError, match="CTAsPerCGA, CTASplitNum and CTAOrder must each have 2 entries"):
        parse_attribute("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], "
                        "CTAsPerCGA = [2], CTASplitNum = [2], CTAOrder = [0]}>")
    with pytest.raises(ParseError, match="cannot convert the legacy shared layout"):
        parse_attribute("#ttg.shared<{vec = 8, perPhase = 1, maxPhase = 4, order = [1, 0], hasLeadingOffset = true}>")


# ---- objects -----------------------------------------------------------------------------------

def test_parsed_objects():
    b = parse_attribute("#ttg.blocked< { sizePerThread=[1,0x4] ,threadsPerWarp=[4 : i32, 8],\n"
                        "  warpsPerCTA = [4, 1], // comment\n order = [1, 0], CGALayout = [[1, 0], [0, 0]]} >")
    assert b == BlockedEncoding((1, 4), (4, 8), (4, 1), (1, 0), ((1, 0), (0, 0)))
    assert b.rank == 2
    mfma = parse_attribute("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32], "
                           "isTransposed = true, tilesPerWarp = [1, 1]}>")
    assert mfma == AMDMfmaEncoding(3, (2, 2), (32, 32), True, (), (), 32)
    wmma = parse_attribute("#ttg.amd_wmma<{version = 2, rank = 3, isTranspose = true, "
                           "ctaLayout = {warp = [[1, 0, 0]]}}>")
    assert wmma == AMDWmmaEncoding(2, True, (), ((1, 0, 0),), (), (16, 16, 16), 3)
    lin = parse_attribute("#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [[0, 0]], block = []}>")
    assert lin == LinearEncoding(((0, 1),), ((1, 0),), ((0, 0),), ())
    assert lin.rank == 2
    nv = parse_attribute("#ttg.nvmma_shared<{swizzlingByteWidth = 128, elementBitWidth = 16, "
                         "CGALayout = [[0, 0, 1]]}>")
    assert nv == NVMMASharedEncoding(128, False, 16, False, ((0, 0, 1),), 3)
    pad = parse_attribute("#ttg.padded_shared<[2:+2] {order = [0, 1], shape = [4, 2]}>")
    assert pad == PaddedSharedEncoding((2,), (2,), ((1, 0), (2, 0), (0, 1)), ())
    assert pad.rank == 2
    part = parse_attribute("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 0, "
                           "partitionLayout = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                           "order = [1, 0]}>}>")
    assert isinstance(part, PartitionedSharedEncoding) and part.rank == 2
    assert isinstance(part.partition_layout, SwizzledSharedEncoding)
    tm = parse_attribute("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, "
                         "twoCTAs = true, CGALayout = [[1, 0]]>")
    assert tm == TensorMemoryEncoding(128, 64, 1, ((1, 0),), True, False)
    dot = parse_attribute("#ttg.dot_op<{opIdx = 0, parent = #ttg.blocked<{sizePerThread = [1], "
                          "threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>")
    assert isinstance(dot, DotOperandEncoding) and dot.k_width == 0 and dot.rank == 1
    sl = parse_attribute("#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], "
                         "threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>}>")
    assert isinstance(sl, SliceEncoding) and sl.rank == 1
    # integers are truncated to 32 bits like Triton (4294967297 -> 1)
    assert parse_attribute("#ttg.blocked<{sizePerThread = [4294967297], threadsPerWarp = [32], "
                           "warpsPerCTA = [4], order = [0]}>").size_per_thread == (1,)
    assert parse_attribute("#ttg.shared_memory") == OtherAttribute("#ttg.shared_memory")


# ---- robustness ----------------------------------------------------------------------------------

def test_deep_nesting_is_a_clean_error():
    for text in ["[" * 5000 + "]" * 5000, "#ttg.slice<{dim = 0, parent = " * 3000,
                 "{a = " * 100 + "1" + "}" * 100]:
        with pytest.raises(ParseError, match="nesting too deep"):
            parse_attribute(text)
    # 20 levels are fine
    assert str(parse_attribute("[" * 20 + "1" + "]" * 20)) == "[" * 20 + "1" + "]" * 20


def test_bad_inputs_are_clean_errors():
    with pytest.raises(ParseError, match=r"^column 5: unexpected NUL character$"):
        parse_attribute("#ttg\x00.blocked")
    with pytest.raises(ParseError, match="too large"):
        parse_attribute("[" + "1, " * 600_000 + "1]")
    with pytest.raises(ParseError):
        parse_attribute(b"#ttg.blocked")          # not a str
    with pytest.raises(ParseError, match=r"found '\\x01'"):
        parse_attribute("#ttg.blocked<{a = \x01}>")
    with pytest.raises(ParseError, match="found 'é'"):
        parse_attribute("#ttg.blocked<{a = é}>")
    with pytest.raises(ParseError, match="unknown escape"):
        parse_attribute('"\\q"')


def test_large_valid_attribute():
    bases = ", ".join(f"[{1 << i}]" for i in range(30))
    lin = parse_attribute(f"#ttg.linear<{{register = [{bases}], lane = [], warp = [], block = []}}>")
    assert len(lin.register) == 30


# ---- tensor types ----------------------------------------------------------------------------

@pytest.mark.parametrize("text,shape,element", [
    ("tensor<16x16xf16>", (16, 16), "f16"),
    ("tensor<128x256xbf16>", (128, 256), "bf16"),
    ("tensor<f32>", (), "f32"),
    ("tensor<*xf32>", None, "f32"),
    ("tensor<?x4xf16>", (-1, 4), "f16"),
    ("tensor<4x?xf32>", (4, -1), "f32"),
    ("tensor< 16 x 16 x f16 >", (16, 16), "f16"),
    ("tensor<0x4xf16>", (0, 4), "f16"),
    ("tensor<0x10xf16>", (0, 10), "f16"),
    ("tensor<00004xf16>", (4,), "f16"),
    ("tensor<128x!tt.ptr<f16>>", (128,), "!tt.ptr<f16>"),
    ("tensor<8x8xf8E4M3FN>", (8, 8), "f8E4M3FN"),
    ("tensor<8xf8E5M2>", (8,), "f8E5M2"),
    ("tensor<8xf8E4M3FNUZ>", (8,), "f8E4M3FNUZ"),
    ("tensor<8xf8E5M2FNUZ>", (8,), "f8E5M2FNUZ"),
    ("tensor<8xf4E2M1FN>", (8,), "f4E2M1FN"),
    ("tensor<8xtf32>", (8,), "tf32"),
    ("tensor<8xi1>", (8,), "i1"),
    ("tensor<8xi64>", (8,), "i64"),
    ("tensor<8xui8>", (8,), "ui8"),
    ("tensor<8xindex>", (8,), "index"),
    ("tensor<4xcomplex<f32>>", (4,), "complex<f32>"),
    ("tensor<4xvector<4xf32>>", (4,), "vector<4xf32>"),
    ("tensor<4294967296xf16>", (4294967296,), "f16"),
    ("  tensor<4xf32>  ", (4,), "f32"),
    ("tensor<16x16xf16, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
     "warpsPerCTA = [4, 1], order = [1, 0]}>>", (16, 16), "f16"),
    ("tensor<128x64xf16, #blocked>", (128, 64), "f16"),    # alias copied from a dump: ignored
])
def test_tensor_types(text, shape, element):
    assert parse_tensor_type(text) == TensorType(shape, element)


@pytest.mark.parametrize("text,message", [
    ("memref<4xf32>", "Invalid tensor type argument: memref<4xf32>"),
    ("vector<4xf32>", "Invalid tensor type argument: vector<4xf32>"),
    ("f32", "Invalid tensor type argument: f32"),
    ("!tt.ptr<f16>", "Invalid tensor type argument: !tt.ptr<f16>"),
    ("tensor<16x16>", "column 13: expected 'x' in dimension list; missing element type, e.g. tensor<16x16xf16>"),
    ("tensor<128x64 >", "column 14: expected 'x' in dimension list; missing element type, e.g. "
                        "tensor<128x64xf16 >"),
    ("tensor<16x16x>", "column 14: expected non-function type"),
    ("tensor<16x16xfoo>", "column 14: expected non-function type"),
    ("tensor<16x16xfp16>", "column 14: expected non-function type; 'fp16' is not an MLIR element type, did you "
                           "mean f16?"),
    ("tensor<16xbfloat16>", "column 11: expected non-function type; 'bfloat16' is not an MLIR element type, did "
                            "you mean bf16?"),
    ("tensor<16xF32>", "column 11: expected non-function type; 'F32' is not an MLIR element type, did you mean "
                       "f32?"),
    ("tensor<16xint32>", "column 11: expected non-function type; 'int32' is not an MLIR element type, did you "
                         "mean i32?"),
    ("tensor<16xhalf>", "column 11: expected non-function type; 'half' is not an MLIR element type, did you mean "
                        "f16?"),
    ("tensor<16xbf61>", "column 11: expected non-function type; 'bf61' is not an MLIR element type, did you mean "
                        "bf16?"),
    ("tensor<4xtensor<4xf32>>", "column 10: invalid tensor element type"),
    ("tensor<4xf16", "column 13: expected '>' in tensor type"),
    ("tensor<4xf16>>", "column 14: found trailing characters: '>'"),
    ("tensor<-4xf32>", "column 8: expected non-function type"),
    ("tensor", "column 7: expected '<' in tensor type"),
    ("", "column 1: expected a type"),
    ("tensor<4xf16, #ttg.foo<{}>>", "column 20: unknown attribute 'foo' in dialect 'ttg'"),
    ("!ttg.memdesc<4xf16, #shared, #smem>", "Invalid tensor type argument: !ttg.memdesc<4xf16, #shared, #smem>"),
])
def test_bad_tensor_types(text, message):
    with pytest.raises(ParseError) as info:
        parse_tensor_type(text)
    assert str(info.value) == message


def test_long_tensor_type_is_abbreviated():
    text = "memref<" + "x".join(["2"] * 60) + "xf32>"
    with pytest.raises(ParseError) as info:
        parse_tensor_type(text)
    msg = str(info.value)
    assert msg.startswith("Invalid tensor type argument: memref<2x2x") and msg.endswith("...")
    assert len(msg) <= len("Invalid tensor type argument: ") + 80


# ---- MLIR files ------------------------------------------------------------------------------

# A TTGIR dump in Triton's own print format (Triton 3.9 parses this file, checked with the
# oracle's ir.parse_mlir_module): aliases, a module with attributes, ops with types that use the
# aliases, string locations, trailing #loc aliases.
TTGIR_DUMP = r'''#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [0, 1]}>
#loc = loc("/home/user/kernels/matmul.py":30:0)
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("/home/user/kernels/matmul.py":30:0), %arg1: i32 {tt.divisibility = 16 : i32} loc("/home/user/kernels/matmul.py":30:0)) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma> loc(#loc1)
    %c0_i32 = arith.constant 0 : i32 loc(#loc1)
    %0 = tt.get_program_id x : i32 loc(#loc2)
    %1 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #blocked}>> loc(#loc3)
    %2 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked> loc(#loc4)
    %3 = tt.load %2 : tensor<128x64x!tt.ptr<f16>, #blocked> loc(#loc5)
    %4 = ttg.local_alloc %3 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem> loc(#loc6)
    %5 = ttg.local_load %4 : !ttg.memdesc<128x64xf16, #shared, #smem> -> tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> loc(#loc6)
    %6 = ttg.convert_layout %cst : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked1> loc(#loc7)
    %7 = arith.cmpi slt, %0, %arg1 : i32 loc(#loc8)
    scf.if %7 {
      %8 = arith.addi %0, %c0_i32 : i32 loc(#loc10)
    } loc(#loc8)
    tt.return loc(#loc9)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/home/user/kernels/matmul.py":31:24)
#loc3 = loc("/home/user/kernels/matmul.py":32:27)
#loc9 = loc("/home/user/kernels/matmul.py":39:4)
#loc10 = loc(callsite(#loc2 at #loc3))
{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000"
    }
  }
#-}
'''


def test_parse_ttgir_dump():
    defs = parse_mlir_file(TTGIR_DUMP)
    assert [(d.name, d.line) for d in defs] == [
        ("blocked", 1), ("blocked1", 2), ("loc", 3), ("mma", 4), ("shared", 5), ("smem", 6),
        ("loc1", 25), ("loc2", 26), ("loc3", 27), ("loc9", 28), ("loc10", 29)]
    by_name = {d.name: d.attr for d in defs}
    assert str(by_name["blocked"]) == ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                                       "warpsPerCTA = [4, 1], order = [1, 0]}>")
    assert isinstance(by_name["mma"], object) and by_name["mma"].version_major == 2
    assert by_name["shared"] == SwizzledSharedEncoding(8, 1, 8, (1, 0))
    assert by_name["loc"] == OtherAttribute('loc("/home/user/kernels/matmul.py":30:0)')
    assert by_name["smem"] == OtherAttribute("#ttg.shared_memory")
    assert by_name["loc1"] == OtherAttribute("loc(unknown)")
    assert by_name["loc10"] == OtherAttribute("loc(callsite(#loc2 at #loc3))")
    assert all(isinstance(d, AliasDef) for d in defs)


def test_file_aliases_used_later_and_comments():
    src = (
        "// leading comment\n"
        "#blocked = #ttg.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 4, 8],\n"
        "                         warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>  // trailing\n"
        "#s1 = #ttg.slice<{dim = 0, parent = #blocked}>\n"
        "#s2 = #ttg.slice<{dim = 1, parent = #s1}>\n"
        "#same = #blocked\n"
        "#int = 1\n"
        "#typed = 4 : i32\n"
        "!ty = !tt.ptr<f16>\n"
        "#dense = dense<[1, 2]> : tensor<2xi32>\n"
    )
    defs = parse_mlir_file(src)
    names = [d.name for d in defs]
    assert names == ["blocked", "s1", "s2", "same", "int", "typed", "dense"]
    attrs = {d.name: d.attr for d in defs}
    assert attrs["s2"].parent is attrs["s1"] and attrs["s1"].parent is attrs["blocked"]
    assert attrs["same"] is attrs["blocked"]
    assert str(attrs["s2"]).startswith("#ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 0, parent = #ttg.blocked<")
    assert attrs["int"] == OtherAttribute("1 : i64")
    assert attrs["typed"] == OtherAttribute("4 : i32")
    assert attrs["dense"] == OtherAttribute("dense<[1, 2]> : tensor<2xi32>")
    assert [d.line for d in defs] == [2, 4, 5, 6, 7, 8, 10]
    assert parse_mlir_file("") == [] and parse_mlir_file("// nothing\n\n") == []


@pytest.mark.parametrize("src,kind,message", [
    ("#a = #ttg.blocked<{foo = 1}>", ParseError, "line 1, column 20: unexpected key: foo (expected one of "
     "sizePerThread, threadsPerWarp, warpsPerCTA, order, CGALayout)"),
    ("\n\n  #a = #ttg.slice<{dim = 0, parent = #nope}>", ParseError,
     "line 3, column 38: undefined symbol alias id 'nope'"),
    ("#a = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
     VerifyError, "line 1, column 11: Every element in sizePerThread must be a power of two."),
    ("#b = #a\n#a = 1", ParseError, "line 1, column 6: undefined symbol alias id 'a'"),
    ("#a = 1\n#a = 2", ParseError, "line 2, column 1: redefinition of attribute alias id 'a'"),
    ("#a 1", ParseError, "line 1, column 4: expected '=' in attribute alias definition of '#a'"),
    ("#a = ", ParseError, "line 1, column 6: expected attribute value"),
    ("#ttg.x = 1", ParseError, "line 1, column 1: attribute names with a '.' are reserved for "
                               "dialect-defined names"),
    ("module {\n#a = 1", ParseError, "line 1, column 8: '{' is never closed (unexpected end of file)"),
    ("module { \"x }", ParseError, "line 1, column 10: unterminated string literal"),
    ("}", ParseError, "line 1, column 1: unexpected '}'"),
    ("#a = #ttg.blocked<{sizePerThread = [1],\n   order = [0 0]}>", ParseError,
     "line 2, column 15: expected one of ']', ',' or ':' but found '0'"),
    ("#a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
     ParseError, "line 1, column 70: nesting too deep (more than 64 levels)"),
    ("#a = 1\x00", ParseError, "line 1, column 7: unexpected NUL character"),
])
def test_file_errors(src, kind, message):
    with pytest.raises(kind) as info:
        parse_mlir_file(src)
    assert str(info.value) == message


# ---- implementation: generated tables up to date, no Lark at run time -----------------------

def test_generated_tables_match_grammar():
    from linlayout_cli.parsing import _mlir_tables as t
    from linlayout_cli.parsing import tables
    grammar = tables.grammar_text()
    assert t.GRAMMAR_SHA256 == tables.grammar_digest(grammar), \
        "grammar/mlir.lark changed: run `python -m linlayout_cli.parsing.tables --regenerate`"
    terminals, ignore, rules, states, start, end = tables.compute_tables(grammar)
    assert terminals == t.TERMINALS and rules == t.RULES and sorted(ignore) == sorted(t.IGNORE)
    assert (states, start, end) == (t.STATES, t.START, t.END)      # numbering is canonical, not Lark's


def test_lark_driver_agrees_with_lark():
    """The table driver accepts/rejects like Lark's own LALR parser on a corpus."""
    from lark import Lark
    from lark.exceptions import UnexpectedInput

    from linlayout_cli.attributes.values import AttrError
    from linlayout_cli.parsing import tables
    from linlayout_cli.parsing.lalr import run_lalr
    lark = Lark(tables.grammar_text(), parser="lalr")
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "_printing_cases", os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_printing.py"))
    printing = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(printing)
    corpus = [text for text, _ in printing.ORACLE_CASES]
    corpus += [t for t, _k, _m in ORACLE_ERRORS]
    corpus += ["[1 4]", "{a = }", "#a<", "[2:+2]", "array<i32: 1, 2>", "1 : i32 : i32", "{a, b = [1]}"]
    for text in corpus:
        try:
            lark.parse(text)
            lark_ok = True
        except UnexpectedInput:
            lark_ok = False
        try:
            run_lalr(text, _SyntaxOnly())
            ours_ok = True
        except AttrError:
            ours_ok = False
        assert ours_ok == lark_ok, text


class _SyntaxOnly:
    def reduce(self, origin, alias, expand1, children):
        return None


def test_import_does_not_load_lark():
    code = ("import sys\nfrom linlayout_cli.parsing import parse_attribute\n"
            "parse_attribute('#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
            "order = [0]}>')\nassert 'lark' not in sys.modules, 'lark imported'\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_value_text_normalisation_and_end():
    """Values kept as text: whitespace runs become one space, `//` comments go, strings stay as written (even
    with `//` or spaces inside); a value ends at a newline at depth 0 unless its line ends in ',', ':' or '='."""
    from linlayout_cli.parsing.mlir_file import normalise_ws, scan_value_end
    # (the space before a comment and the line break after it stay two spaces)
    assert normalise_ws('  a   b // note\n\t c "x  //  y"   "z""w"  ') == 'a b  c "x  //  y" "z""w"'
    assert normalise_ws('f(1)  /  2') == 'f(1) / 2'
    assert normalise_ws('"open  string') == '"open  string'
    text = 'foo<[1, 2]  // c\n  , 3> "s//t"  \nnext'
    assert text[:scan_value_end(text, 0)] == 'foo<[1, 2]  // c\n  , 3> "s//t"'
    text = 'a = b,  // more\n  c -> d  \n#x'
    assert text[:scan_value_end(text, 0)] == 'a = b,  // more\n  c -> d'


# ---- definitions sharing a line, the #loc fast path, text pasted from a dump -----------------

PINGPONG_LINES = (
    "#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 8], warpsPerCTA = [1, 8], order = [0, 1]}>\n"
    "#mma = #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 4], instrShape = [16, 16], isTransposed = true}>"
    "#shared = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [1, 0]}>\n"
    "#shared1 = #ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 16, order = [0, 1]}>\n")


@pytest.mark.parametrize("text,names", [
    (PINGPONG_LINES, [("blocked1", 1), ("mma", 2), ("shared", 2), ("shared1", 3)]),
    (PINGPONG_LINES.replace("}>#shared", "}>   #shared"), [("blocked1", 1), ("mma", 2), ("shared", 2), ("shared1", 3)]),
    ('#a = 1 : i32#b = loc("x.py":1:2) #c = #ttg.shared_memory\n#d = 2', [("a", 1), ("b", 1), ("c", 1), ("d", 2)]),
    ('module {\n} loc(#loc) #a = loc(unknown)\n#b = 1', [("a", 2), ("b", 3)]),
    ('#a = #ttg.slice<{dim = 0, parent = #b}>#b = 1', None),
])
def test_definitions_sharing_a_line(text, names):
    if names is None:
        with pytest.raises(ParseError, match="undefined symbol alias id 'b'"):
            parse_mlir_file(text)
        return
    defs = parse_mlir_file(text)
    assert [(d.name, d.line) for d in defs] == names
    attrs = {d.name: d.attr for d in defs}
    if "mma" in attrs:
        assert str(attrs["mma"]).endswith("isTransposed = true}>")
        assert attrs["shared"] == SwizzledSharedEncoding(4, 1, 16, (1, 0))
    if "c" in attrs:
        assert attrs["a"] == OtherAttribute("1 : i32") and attrs["b"] == OtherAttribute('loc("x.py":1:2)')


LOC_VALUES = ['loc("f.py":3:4)', 'loc("x"(#loc3))', "loc(callsite(#loc1 at #loc2))", "loc(unknown)",
              "loc(fused[#loc1, #loc2])", "loc(#loc7)", 'loc("a b  c":1:2)', 'loc("a)b":1:2)', 'loc("e\\"q":1:2)',
              "loc( unknown )", "loc(unknown)  // note", "loc(\tunknown)", "loc(callsite(#a  at #b))",
              "loc(unknown)\r", 'loc("f.py":3:4)\n  : x', "loc((unknown)", "loc(unknown))", "loc(unknown) #z = 1",
              'loc("\u00e9\u2028":1:2)', "loc(#loc1 // c\n)", "loc(fused<\"x\">[#a])"]


@pytest.mark.parametrize("value", LOC_VALUES)
def test_loc_fast_path_gives_what_the_general_path_gives(value):
    """The `#locN = loc(...)` fast path must not change any result: same definitions, lines and texts, or the
    same error, as the general path (`scan_definitions(text, fast=False)`)."""
    from linlayout_cli.parsing.mlir_file import scan_definitions
    for text in (f"#loc0 = loc(unknown)\n#loc1 = {value}\n#loc2 = loc(#loc1)\n",
                 f"#loc1 = {value}\n\n// c\n  #loc2 = loc(unknown)", f"#loc0 = {value}\n#loc0 = loc(unknown)\n"):
        results = []
        for fast in (True, False):
            try:
                results.append([(d.name, d.attr, d.line) for d in scan_definitions(text, fast).definitions()])
            except ParseError as e:
                results.append(str(e))
        assert results[0] == results[1], text


def test_loc_lines_of_a_dump_skip_the_attribute_parser(monkeypatch):
    """The `#loc` lines that fill a dump (80,000 in 4 MB) are read by the fast path alone: the attribute parser
    (~20 us a call) only sees the layouts."""
    from linlayout_cli.parsing import mlir_file
    calls = []
    real = mlir_file.parse_value
    monkeypatch.setattr(mlir_file, "parse_value", lambda text, table: calls.append(text) or real(text, table))
    text = "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
    text += "module {\n  tt.func @f() {\n    tt.return loc(#loc1)\n  } loc(#loc)\n} loc(#loc)\n"
    text += "".join(f'#loc{k} = loc("k.py":{k}:4)\n#loc{k}_n = loc("v"(#loc{k}))\n' for k in range(2000))
    text += "#one = 1 : i32\n"
    defs = parse_mlir_file(text)
    assert len(defs) == 4002 and defs[-2] == AliasDef("loc1999_n", OtherAttribute('loc("v"(#loc1999))'), 4006)
    assert calls == ["1 : i32"]


def test_pasted_attribute_spans():
    from linlayout_cli.parsing import parse_pasted_attribute
    from linlayout_cli.parsing.attribute import pasted_value_span
    b = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
    for text in (f"#blocked = {b}", f"{b} loc(#loc3)", f' #b={b}   loc("x(1.py":1:2) ', f"{b} loc(callsite(#a at #b))"):
        start, end = pasted_value_span(text)
        assert text[start:end] == b, text
        assert parse_pasted_attribute(text) == parse_attribute(b)
    for text in (b, "loc(#loc3)", "#a", "1 : i32", f"{b} loc(#x) y"):
        assert pasted_value_span(text) == (0, len(text)), text
    with pytest.raises(ParseError, match="column 21: expected end of input but found 'loc'"):
        parse_pasted_attribute("#blocked = #ttg.x<> loc(#a) loc(#b) q")


@pytest.mark.parametrize("text,shape,element,encoding,memdesc", [
    ("tensor<16x16xf16>", (16, 16), "f16", None, False),
    ("tensor<16x16xf16, #blocked>", (16, 16), "f16", "#blocked", False),
    ("tensor<4xf16,  #ttg.slice<{dim = 0, parent = #b}> >", (4,), "f16", "#ttg.slice<{dim = 0, parent = #b}>", False),
    ("!ttg.memdesc<64x64xf16, #shared, #smem, mutable>", (64, 64), "f16", "#shared", True),
    ("!ttg.memdesc<64x64xf16, #shared, #smem, mutable, 1x64x64>", (64, 64), "f16", "#shared", True),
    ("!ttg.memdesc<64x64xbf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, "
     "#ttg.shared_memory>", (64, 64), "bf16",
     "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", True),
    ("!ttg.memdesc<8xi8, #s>", (8,), "i8", "#s", True),
])
def test_type_arguments(text, shape, element, encoding, memdesc):
    from linlayout_cli.parsing import parse_type_argument
    arg = parse_type_argument(text)
    assert (arg.type, arg.encoding, arg.memdesc) == (TensorType(shape, element), encoding, memdesc)
    if encoding is not None:
        assert text[arg.encoding_at:arg.encoding_at + len(encoding)] == encoding


def test_amd_mfma_without_is_transposed_is_false():
    """Triton 3.9 leaves `isTransposed` unset when the key is absent (or misspelled `isTranspose`, an unknown key it
    skips) and prints `isTransposed = false` (checked with the oracle: golden mma/mfma-default-*)."""
    for text in ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16]}>",
                 "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16], isTranspose = true}>"):
        attr = parse_attribute(text)
        assert isinstance(attr, AMDMfmaEncoding) and attr.is_transposed is False
        assert str(attr) == ("#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16], "
                             "isTransposed = false}>")


def test_alias_table_gives_the_definitions_by_name():
    """`parse_alias_table` (what `-i` reads) holds the fast-path `#loc` lines as offsets until they are asked
    for; looked up one by one or all at once, they are the definitions `parse_mlir_file` returns."""
    from linlayout_cli.parsing import parse_alias_table
    text = TTGIR_DUMP + "#loc11 = loc(\"k.py\":3:4)   \n\n// note\n#loc12 = loc(unknown)"
    eager = parse_mlir_file(text)
    table = parse_alias_table(text)
    assert list(table) == [d.name for d in eager] and len(table) == len(eager)
    assert table["loc12"] == AliasDef("loc12", OtherAttribute("loc(unknown)"), 40)
    assert table["loc11"] == AliasDef("loc11", OtherAttribute('loc("k.py":3:4)'), 37)
    assert [d.name for d in table.layouts()] == ["blocked", "blocked1", "mma", "shared"]
    assert table.definitions() == eager and dict(table.items()) == {d.name: d for d in eager}
    assert table.attributes["mma"] is table["mma"].attr and "loc3" in table.attributes and "x" not in table
