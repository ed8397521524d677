"""What each kind of audit row found, as numbers and names: one frozen record per category (`Finding.facts`).

Reports read these fields (reports/audit.py words every row from them), and the JSON report writes each record's
fields in the order declared here (a field in the class's `OPTIONAL` is left out while it is None; one in its
`HIDDEN` is for the words only), so the JSON is generated from the records."""
from __future__ import annotations

from ...records import frozen
from ..kinds import Path


@frozen
class Convert:
    """A `ttg.convert_layout`: the `convert` model's path, scratch and per-thread counts."""
    path: Path
    scratch_bytes: int
    per_thread: dict                         # shuffles, shared_stores, shared_loads, barriers
    store_vector_bits: int | None
    load_vector_bits: int | None
    bank_conflicts: dict | None              # {"store": n, "load": n}
    element_bits: int
    OPTIONAL = ()


@frozen
class GlobalAccess:
    """A global load, store or atomic (a tensor of pointers, or one scalar), or an AMD buffer load or store: the
    vector one instruction moves and the limits that bound it (`LIMITS` names them)."""
    vector_width: int
    vector_bits: int
    instructions_per_thread: int
    sectors_per_warp_access: int | None = None   # a tensor of pointers: sectors (32 bytes; AMD: 128-byte lines)
    ideal_sectors: int | None = None             # one warp access touches (analysis/global_sectors.py)
    scalar: bool | None = None               # True: one scalar
    contiguity: int | None = None            # the pointers' (or the buffer op's recorded) contiguity
    divisibility: int | None = None
    limited_by: str = ""
    bound_by: tuple[str, ...] | None = None  # every binding limit, `limited_by` first
    limits: dict | None = None               # limit -> elements it allows
    pointers: str | None = None              # the SSA name of the pointer operand
    mask: str | None = None                  # ... and of the mask
    sector_bytes: int | None = None          # the unit of `sectors_per_warp_access`: 32 (NVIDIA) or 128 (AMD)
    lines_per_warp_access: int | None = None  # 128-byte lines a warp access touches (L1's unit; advise prices loads)
    address_assumptions: tuple[str, ...] | None = None   # global_sectors' reason codes for the address model
    OPTIONAL = ("sectors_per_warp_access", "ideal_sectors", "scalar", "contiguity", "divisibility", "bound_by",
                "limits", "pointers", "mask", "sector_bytes", "lines_per_warp_access", "address_assumptions")


@frozen
class SharedAccess:
    """A register tensor written to or read from shared memory (local_alloc with a value, local_store, local_load)
    on the shared-access model: the instruction, how many, the wavefronts."""
    bank_conflicts: int | None               # Triton's model; None where the target has no bank model
    instruction: str
    vector_width: int
    vector_bits: int
    instructions_per_thread: int
    instructions_per_cta: int
    wavefronts: int | None                   # the most wavefronts one instruction takes
    wavefronts_mean: float | None
    wavefronts_total: int | None
    ideal_wavefronts_total: int | None
    access: str                              # READ or WRITE
    shared_bytes: int
    limited_by: str
    why: str | None = None                   # why there are no wavefronts (a target without a bank model), ...
    issued: int | None = None                # instructions issued where they differ from instructions_per_thread
    OPTIONAL = ("why", "issued")


@frozen
class AsyncCopy:
    """An asynchronous copy from global to shared memory (cp.async; AMD: global_load_lds), on the bank model."""
    bank_conflicts: int
    vector_width: int
    vector_bits: int
    instructions_per_thread: int
    wavefronts: int
    access: str
    shared_bytes: int
    instruction: str
    limited_by: str
    sectors_per_warp_access: int
    OPTIONAL = ()


@frozen
class Reduction:
    """A reduction or scan: how many bits of its axis lie in registers, lanes and warps, and its scratch."""
    axis: int
    register_bits: int
    lane_bits: int
    warp_bits: int
    scratch_bytes: int
    OPTIONAL = ()


@frozen
class Tma:
    """A TMA bulk copy: the bytes of its shared buffer (and the swizzle of its layout, for the words); the box one
    message moves (Triton's getTMABlockShape), the messages the block takes, the warps that share them (each elected
    thread issues `instructions_per_thread` `cp.async.bulk.tensor.<rank>d`); None where the encoding gives no box
    (not an nvmma_shared buffer)."""
    shared_bytes: int
    swizzle_bytes: int | None = None         # the buffer's swizzlingByteWidth (None: its layout has none)
    rank: int | None = None
    box: tuple[int, ...] | None = None
    messages: int | None = None
    warps: int | None = None
    instructions_per_thread: int | None = None
    OPTIONAL = ("rank", "box", "messages", "warps", "instructions_per_thread")
    HIDDEN = ("swizzle_bytes",)


# where a dot's operand comes from (`Operand.source`)
CONVERTED, LOCAL_LOAD, SHARED_MEMORY, REGISTERS = "convert", "local_load", "shared memory", "registers"


@frozen
class Operand:
    """Where one operand of a dot comes from: a convert_layout or a local_load at `line`, else the memory it is in."""
    label: str                               # "A" or "B"
    source: str                              # CONVERTED, LOCAL_LOAD, SHARED_MEMORY or REGISTERS
    line: int | None = None                  # of the producing op (CONVERTED, LOCAL_LOAD)
    OPTIONAL = ()


@frozen
class Dot:
    """A dot: where each operand comes from (A, then B); the JSON words each (reports/audit.py)."""
    operands: tuple[Operand, ...]
    OPTIONAL = ()


@frozen
class BufferUse:
    """One op writing or reading a buffer (directly or through a view), with its bank conflicts where known."""
    op: str
    line: int
    bank_conflicts: int | None = None
    OPTIONAL = ("bank_conflicts",)


@frozen
class BufferInfo:
    """A shared-memory allocation as a layout decision: shape, stages, layout, bytes, its writers and readers."""
    shape: tuple[int, ...]
    stages: int
    layout: str
    bytes: int
    element_type: str
    memory: str
    writes: tuple[BufferUse, ...]
    reads: tuple[BufferUse, ...]
    swizzle_bytes: int | None = None         # the layout's swizzlingByteWidth (None: it has none)
    OPTIONAL = ()
    HIDDEN = ("swizzle_bytes",)


Facts = Convert | GlobalAccess | SharedAccess | AsyncCopy | Reduction | Tma | Dot
