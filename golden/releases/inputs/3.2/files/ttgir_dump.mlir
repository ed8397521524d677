#blocked = #triton_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#loc = loc("/tmp/matmul.py":12:0)
#mma = #triton_gpu.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#dotA = #triton_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#shared = #triton_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], hasLeadingOffset = false}>
#shared1 = #triton_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1], hasLeadingOffset = false}>
#smem = #triton_gpu.shared_memory
module attributes {"triton_gpu.num-ctas" = 1 : i32, "triton_gpu.num-warps" = 4 : i32, triton_gpu.target = "cuda:80", "triton_gpu.threads-per-warp" = 32 : i32} {
  tt.func public @matmul_kernel(%arg0: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("/tmp/matmul.py":12:0), %arg1: i32 loc("/tmp/matmul.py":12:0)) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma> loc(#loc1)
    %0 = tt.get_program_id x : i32 loc(#loc2)
    %1 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #triton_gpu.slice<{dim = 1, parent = #blocked}>> loc(#loc3)
    %2 = tt.expand_dims %1 {axis = 1 : i32} : tensor<64xi32, #triton_gpu.slice<{dim = 1, parent = #blocked}>> -> tensor<64x1xi32, #blocked> loc(#loc3)
    %3 = tt.splat %arg0 : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc4)
    %4 = tt.load %3 : tensor<64x64x!tt.ptr<f16>, #blocked> loc(#loc4)
    %5 = triton_gpu.local_alloc %4 : (tensor<64x64xf16, #blocked>) -> !triton_gpu.memdesc<64x64xf16, #shared, #smem> loc(#loc5)
    %6 = triton_gpu.local_load %5 : !triton_gpu.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf16, #dotA> loc(#loc5)
    %7 = triton_gpu.convert_layout %cst : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked1> loc(#loc6)
    tt.return loc(#loc7)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/tmp/matmul.py":14:24)
#loc3 = loc("/tmp/matmul.py":15:27)
#loc4 = loc("/tmp/matmul.py":16:20)
#loc5 = loc("/tmp/matmul.py":17:16)
#loc6 = loc("/tmp/matmul.py":18:8)
#loc7 = loc("/tmp/matmul.py":19:4)
