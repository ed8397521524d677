#blocked = #triton_gpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
#bad = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 3], warpsPerCTA = [1, 1], order = [1, 0]}>
