#lin = #triton_gpu.linear<{register = [[1, 0]], lane = [[0, 1], [0, 2], [2, 0]], warp = [[4, 0]], block = []}>
#glin = #triton_gpu.generic_linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [[3, 2]], block = []}>
#sw = #triton_gpu.shared<{vec = 1, perPhase = 2, maxPhase = 4, order = [0, 1], hasLeadingOffset = false}>
#rot = #triton_gpu.amd_rotating_shared<{vec = 1, perPhase = 1, maxPhase = 2, order = [1, 0]}>
#sl = #triton_gpu.shared_linear<{offset = [[0, 1], [0, 2], [1, 1], [2, 0], [4, 0]], block = []}, alignment = 16>
#nv = #triton_gpu.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
