// aliases nested in other aliases are printed expanded
#blocked = #triton_gpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [0, 1]}>
#slice0 = #triton_gpu.slice<{dim = 0, parent = #blocked}>

#slice1 = #triton_gpu.slice<{dim = 1, parent = #blocked}>  // trailing comment
#blocked3 = #triton_gpu.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#ss = #triton_gpu.slice<{dim = 0, parent = #triton_gpu.slice<{dim = 2, parent = #blocked3}>}>
#dot = #triton_gpu.dot_op<{opIdx = 0, parent = #blocked}>
