#s = #triton_gpu.slice<{dim = 0, parent = #missing}>
