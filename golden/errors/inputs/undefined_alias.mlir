#s = #ttg.slice<{dim = 0, parent = #missing}>
