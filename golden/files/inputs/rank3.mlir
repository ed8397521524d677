#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 1], order = [2, 0, 1], CGALayout = [[1, 0, 0]]}>
#s3 = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [2, 1, 0], CGALayout = [[0, 0, 0]]}>
