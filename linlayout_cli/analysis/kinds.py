"""The closed sets of words the analysis answers with: an audit row's category and status, and a conversion's path. Each is a
`StrEnum` whose members are their own JSON text, so a report compares members, never strings, and the JSON stays
the word it always was (`Category.CONVERT` is written `"convert"`)."""
from __future__ import annotations

from enum import Enum


class StrEnum(str, Enum):
    """`enum.StrEnum` for Python 3.10: members are strings equal to their value, and print and format as it.

    >>> f"{Path.NOOP}", str(Path.NOOP), Path.NOOP == "noop", Path("noop") is Path.NOOP
    ('noop', 'noop', True, True)
    """

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)


class Category(StrEnum):
    """What an audit row is about (the `category` of `Finding` and of its JSON)."""
    CONVERT = "convert"              # ttg.convert_layout
    SHARED = "shared"                # registers <-> shared memory (local_alloc with a value, local_store/load, cp.async)
    TMA = "tma"                      # TMA bulk copies
    GLOBAL = "global"                # global loads, stores, atomics; AMD buffer loads and stores
    REDUCE = "reduce"                # tt.reduce
    SCAN = "scan"                    # tt.scan
    DOT = "dot"                      # dots and MMAs
    BUFFER = "buffer"                # a local_alloc without a value: the buffer itself


class Path(StrEnum):
    """How a conversion moves data, cheapest first (the `convert` model's `path`)."""
    NOOP = "noop"
    REGISTERS = "registers"
    WARP_SHUFFLE = "warp_shuffle"
    SHARED_MEMORY = "shared_memory"
    CROSS_CTA = "cross_cta"


class Status(StrEnum):
    """Whether an audit row was analysed (`Finding.status`): its JSON `verdict` when it was not."""
    ANALYSED = "analysed"
    NOT_MODELLED = "not modelled"    # the model leaves this op out (NotModelled)
    ERROR = "error"                  # the compiled kernel would fault (a misaligned padded access)
    NOT_ANALYSED = "not analysed"    # its text could not be read
