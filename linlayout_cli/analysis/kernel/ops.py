"""The one catalogue of the op names the kernel model knows, by role: which ops access global or shared memory,
convert, reduce, scan, multiply (dots), copy by TMA, view a buffer, or matter to barriers. The audit's cost models,
`advise` and `membar` all read their op lists from here, so a new op kind is named once."""
from __future__ import annotations

FUNCTION_OPS = ("tt.func", "func.func", "llvm.func")
CONVERT_OPS = ("ttg.convert_layout",)
SHARED_OPS = ("ttg.local_alloc", "ttg.local_store", "ttg.local_load", "ttg.async_copy_global_to_local")
TMA_OPS = ("ttng.async_tma_copy_global_to_local", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_gather",
           "ttng.async_tma_scatter", "ttng.async_tma_reduce", "tt.descriptor_load", "tt.descriptor_store")
GLOBAL_OPS = ("tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas")
ATOMIC_OPS = ("tt.atomic_rmw", "tt.atomic_cas")
BUFFER_OPS = ("amdg.buffer_load", "amdg.buffer_store", "amdg.buffer_atomic_rmw", "amdg.buffer_atomic_cas",
              "amdg.buffer_load_to_local")
REDUCE_OPS = ("tt.reduce",)
SCAN_OPS = ("tt.scan",)
MMA_V5_OPS = ("ttng.tc_gen5_mma", "ttng.tc_gen5_mma_scaled")     # tcgen05: issued by one thread, after a barrier
DOT_OPS = ("tt.dot", "ttng.warp_group_dot", "ttng.tc_gen5_mma", "tt.dot_scaled", "ttng.tc_gen5_mma_scaled")
VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_subslice", "ttg.memdesc_trans", "ttg.memdesc_reshape",
            "ttg.memdesc_reinterpret")

# who writes and who reads a shared buffer (the audit's buffer rows list them)
WRITERS = ("ttg.local_alloc", "ttg.local_store", "ttg.async_copy_global_to_local",
           "ttng.async_tma_copy_global_to_local", "ttng.async_tma_gather", "amdg.buffer_load_to_local")
READERS = ("ttg.local_load", "ttng.async_tma_copy_local_to_global", "ttng.async_tma_scatter",
           "ttng.async_tma_reduce") + DOT_OPS

# tensor memory is addressed by warp and a TMA store is issued by one elected warp: the first such op of a function
# makes the warp index uniform with one shuffle
WARP_INDEX_OPS = ("ttng.tmem_load", "ttng.tmem_store", "ttng.async_tma_copy_local_to_global")

# what Membar (analysis/membar.py) walks: loops, waits, barriers, region ends, tensor memory and its views
LOOPS = ("scf.for", "scf.while")
WAITS = ("ttg.async_wait", "ttng.async_tma_store_wait")
BARRIERS = ("ttg.barrier", "gpu.barrier")
TERMINATORS = ("ttg.warp_return", "ttg.warp_yield", "tt.return", "scf.yield")
TMEM_ROOTS = ("ttng.tmem_alloc",)
TMEM_VIEWS = ("ttng.tmem_subslice", "ttg.memdesc_index", "ttg.memdesc_reinterpret", "ttg.memdesc_reshape",
              "ttg.memdesc_trans")
SLOT_VIEWS = ("ttg.memdesc_trans", "ttg.memdesc_reshape", "ttg.memdesc_reinterpret")   # views that keep the bytes
