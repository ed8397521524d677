"""The GPU targets ttlayout knows (the one list every command accepts) and their shared-memory bank models (see
docs/bank_model.md for sources).

`KNOWN` lists every target: sm80, sm90, sm100, gfx942, gfx950, gfx1200. `get_target` finds one by name, nickname
('hopper') or as a module's `ttg.target` writes it ('cuda:90', 'hip:gfx942'). Not every model covers every target:
the bank model (`bank`, `swizzle`, the audit's shared-memory rows) has no rule for gfx1200 (`Target.bank_gap`
says why), and `TARGETS` is the targets it covers.

A target's bank model is three numbers and one rule:

* ``num_banks`` banks, each ``bank_bytes`` (4) wide: the 32-bit word with byte address ``a`` lives in bank
  ``(a // 4) % num_banks``;
* ``warp_size`` lanes per warp (NVIDIA) or wavefront (AMD);
* which lanes the hardware serves together in one *phase* (one conflict-free wavefront / LDS cycle) for an
  access of a given width.  Lanes of different phases never conflict with each other.

Every phase rule of every target below is *linear*: the phase holding lane 0 is the span (over GF(2), i.e.
under XOR of lane ids) of a few lane-id masks, and the other phases are its XOR-translates (cosets).  That is
what lets the bank analysis stay exact and linear: conflicts are the dimension of an intersection of two
subspaces (Triton's ``bankConflicts``), which ``bank.py`` also cross-checks by brute-force simulation.

NVIDIA (sm80, sm90, sm100), Triton's own rule (``bankConflictsMemDesc``): an access of ``w`` bits per lane is
served in ``max(1, w/32)`` phases of consecutive lanes, i.e. phase 0 = lanes ``0 .. 32*32/max(w,32) - 1``
(a full warp for 32-bit and narrower accesses, half warps for 64-bit, quarter warps for 128-bit).

AMD CDNA3 (gfx942, MI300): 32 banks, wave64, 128 bytes per LDS cycle:
  ``ds_read/write_b32`` (and narrower): lanes 0-31 and 32-63;  ``*_b64``: 16 consecutive lanes;
  ``ds_write_b128``: 8 consecutive lanes; ``ds_read_b128``: the non-contiguous groups
  {0-3, 20-23}, {4-7, 16-19}, {8-11, 28-31}, {12-15, 24-27} (and the same + 32) = span{1, 2, 20} and cosets.
AMD CDNA4 (gfx950, MI350): 64 banks, wave64:
  ``*_b32`` and narrower: all 64 lanes; ``ds_read_b64``: lanes 0-31 / 32-63; ``ds_write_b64``: 16 consecutive
  lanes; ``ds_read_b128``: {0-3, 12-15, 20-23, 24-27}, {4-11, 16-19, 28-31} (and + 32) = span{1, 2, 12, 20};
  ``ds_write_b128``: 8 consecutive lanes (inferred, see docs/bank_model.md).
AMD RDNA4 (gfx1200, wave32): no bank model. Neither Triton (which aborts on bank-conflict queries for every AMD
target) nor AMD's published RDNA4 documentation says which lanes its LDS serves together for each access width,
so the bank analyses refuse it instead of guessing; the convert model covers it (its lowering reads only the warp
size and the bank count).
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import TTLayoutError, UnsupportedError, abbreviate
from ..parsing.target_names import cuda_capability
from ..records import frozen

READ = "read"
WRITE = "write"


def _consecutive(n_lanes: int) -> tuple[int, ...]:
    """Masks spanning lanes 0 .. n_lanes-1."""
    return tuple(1 << i for i in range(n_lanes.bit_length() - 1))


@frozen
class Target:
    name: str
    vendor: str                 # "nvidia" or "amd"
    arch: str                   # human description
    num_banks: int
    warp_size: int
    _phase_rule: Callable[[int, str, int], tuple[int, ...]] | None
    bank_bytes: int = 4
    triton_checked: bool = False   # True where Triton 3.9's get_shared_bank_conflicts is the reference
    shared_limit: int = 0          # bytes of shared memory one CTA may use (the device's opt-in maximum)
    bank_gap: str = ""             # why the bank model does not cover this target ("" where it does)
    engines: tuple = ()            # the units that read shared memory without threads: "tma", "wgmma"

    @property
    def bank_bits(self) -> int:
        """Bits served by one conflict-free wavefront: all banks, one word each."""
        return self.num_banks * self.bank_bytes * 8

    def phase_masks(self, access_bits: int, op: str, lane_bits: int) -> tuple[int, ...]:
        """Lane-id masks whose XOR-span is the set of lanes served together with lane 0.

        ``access_bits``: bits one lane moves in one instruction (vector width x element bits);
        ``op``: READ or WRITE; ``lane_bits``: log2 of the layout's lanes per warp (masks are clipped to it)."""
        if self.bank_gap:
            raise UnsupportedError(self.bank_gap)
        rule = self._phase_rule
        if rule is None:
            raise UnsupportedError(f"the bank model does not cover {self.name}")
        masks = rule(access_bits, op, lane_bits)
        keep = (1 << lane_bits) - 1
        out = []
        for m in masks:
            m &= keep
            if m and m not in out:
                out.append(m)
        return tuple(out)

    def phase_name(self, access_bits: int, op: str) -> str:
        width = max(access_bits, 8)
        if self.vendor == "nvidia":                # PTX: st.shared.v4.b32, ld.shared.b16
            kind = "st.shared" if op == WRITE else "ld.shared"
            vec = {64: ".v2", 128: ".v4"}.get(access_bits, "")
            return f"{kind}{vec}.b32" if access_bits >= 32 else f"{kind}.b{width}"
        if op == READ and width < 32:                # sub-dword LDS reads zero-extend: ds_read_u8 / ds_read_u16
            return f"ds_read_u{width}"
        return f"{'ds_write' if op == WRITE else 'ds_read'}_b{width}"


def _nvidia_rule(access_bits: int, op: str, lane_bits: int) -> tuple[int, ...]:
    # Triton 3.9: phaseBits = max(0, log2(max(1, w/32)) + laneBits - 5); keep laneBits - phaseBits lanes,
    # i.e. the first min(laneBits, 5 - log2(max(1, w/32))) lane bits.
    words = max(1, access_bits // 32)
    bits = min(lane_bits, 5 - (words.bit_length() - 1))
    return tuple(1 << i for i in range(max(0, bits)))


def _gfx942_rule(access_bits: int, op: str, lane_bits: int) -> tuple[int, ...]:
    if access_bits <= 32:
        return _consecutive(32)
    if access_bits <= 64:
        return _consecutive(16)
    if op == READ:
        return (1, 2, 4 | 16)          # {0-3, 20-23} and its XOR-translates
    return _consecutive(8)


def _gfx950_rule(access_bits: int, op: str, lane_bits: int) -> tuple[int, ...]:
    if access_bits <= 32:
        return _consecutive(64)
    if access_bits <= 64:
        return _consecutive(32) if op == READ else _consecutive(16)
    if op == READ:
        return (1, 2, 4 | 8, 4 | 16)   # {0-3, 12-15, 20-23, 24-27} and its XOR-translates
    return _consecutive(8)


_NO_RDNA4_BANK_RULE = ("the bank model does not cover gfx1200 (AMD RDNA4): neither Triton nor AMD's documentation "
                       "says which lanes its LDS serves together per access width (see docs/bank_model.md)")

KNOWN: dict[str, Target] = {
    # shared_limit: CUDA's sharedMemPerBlockOptin (A100 163 KiB, H100 and B200 227 KiB); LDS per workgroup
    # (MI300 64 KiB, MI350 160 KiB, RDNA4 64 KiB)
    "sm80": Target("sm80", "nvidia", "NVIDIA Ampere (A100)", 32, 32, _nvidia_rule, triton_checked=True,
                   shared_limit=163 * 1024),
    "sm90": Target("sm90", "nvidia", "NVIDIA Hopper (H100/H200)", 32, 32, _nvidia_rule, triton_checked=True,
                   shared_limit=227 * 1024, engines=("tma", "wgmma")),
    "sm100": Target("sm100", "nvidia", "NVIDIA Blackwell (B200)", 32, 32, _nvidia_rule, triton_checked=True,
                    shared_limit=227 * 1024, engines=("tma",)),
    "gfx942": Target("gfx942", "amd", "AMD CDNA3 (MI300)", 32, 64, _gfx942_rule, shared_limit=64 * 1024),
    "gfx950": Target("gfx950", "amd", "AMD CDNA4 (MI350)", 64, 64, _gfx950_rule, shared_limit=160 * 1024),
    "gfx1200": Target("gfx1200", "amd", "AMD RDNA4 (RX 9070)", 32, 32, None, shared_limit=64 * 1024,
                      bank_gap=_NO_RDNA4_BANK_RULE),
}
TARGETS: dict[str, Target] = {name: t for name, t in KNOWN.items() if not t.bank_gap}   # the bank model's

DEFAULT_TARGET = "sm90"
ALIASES = {"ampere": "sm80", "hopper": "sm90", "blackwell": "sm100", "mi300": "gfx942", "mi300x": "gfx942",
           "mi325x": "gfx942", "mi350": "gfx950", "mi355x": "gfx950", "rdna4": "gfx1200", "gfx1201": "gfx1200"}


DEFAULT: Target = KNOWN[DEFAULT_TARGET]   # the analyses' default (a Target: they never take a name)


def get_target(name: str | None) -> Target:
    """A target by name ('sm90'), nickname ('hopper') or as a module's `ttg.target` writes it ('cuda:90',
    'hip:gfx942'; other CUDA capabilities map to the generation they belong to: cuda:86 -> sm80).

    >>> get_target("cuda:86").name, get_target("hip:gfx942").name, get_target("MI300X").name
    ('sm80', 'gfx942', 'gfx942')
    """
    key = (name if name is not None else DEFAULT_TARGET).strip().lower()
    key = key[len("hip:"):] if key.startswith("hip:") else key
    key = ALIASES.get(key, key)
    cc = cuda_capability(key)
    if cc is not None:
        key = "sm80" if cc < 90 else "sm90" if cc < 100 else "sm100"
    if key not in KNOWN:
        raise TTLayoutError(f"unknown target '{abbreviate(name or '', 40)}'; known targets: {', '.join(KNOWN)}")
    return KNOWN[key]


def bank_target(name: str | None) -> Target:
    """A target the bank model covers (`get_target`'s, else the error saying why it is not covered)."""
    target = get_target(name)
    if target.bank_gap:
        raise UnsupportedError(target.bank_gap)
    return target
