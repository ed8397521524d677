#b3 = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [2, 1, 1], order = [2, 0, 1], CTAsPerCGA = [2, 1, 1], CTASplitNum = [2, 1, 1], CTAOrder = [0, 2, 1]}>
#s3 = #ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 2, order = [2, 1, 0], CTAsPerCGA = [1, 1, 2], CTASplitNum = [1, 1, 1], CTAOrder = [2, 1, 0]}>
