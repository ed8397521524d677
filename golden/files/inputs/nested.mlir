// aliases nested in other aliases are printed expanded
#blocked = #ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [0, 1]}>
#slice0 = #ttg.slice<{dim = 0, parent = #blocked}>

#slice1 = #ttg.slice<{dim = 1, parent = #blocked}>  // trailing comment
#blocked3 = #ttg.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 2], order = [2, 1, 0]}>
#ss = #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #blocked3}>}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #blocked}>
