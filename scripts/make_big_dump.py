#!/usr/bin/env python3
"""Write a large TTGIR dump for the `-i` performance budget (about 4 MB holding exactly 80,000 `#loc` lines).

    python scripts/make_big_dump.py OUT.ttgir [--source tests/data/kernels/flash_attention.sm90.ttgir]
                                              [--bytes 4000000] [--locs 80000]

The result is built deterministically from a real Triton dump: its kernel is repeated as N functions
(`@name_c0` ... `@name_cN-1`) in one module, each copy with its own renumbered `#loc` aliases (so every
`loc(#locK)` reference of a copy points to that copy's definitions), and the layout aliases (`#blocked`, `#mma`,
...) kept once. Real dumps carry about one `#loc` line per 110-130 bytes, fewer than the budget's one per 50,
so the remaining `#loc` lines are named locations of the form Triton emits for Python variables,
`#locM = loc("name"(#locK))`, each pointing to a file location of copy 0. N is the count whose total size
comes closest to the requested one. Only the generator is checked in, not its 4 MB output.
Needs nothing but the standard library.
"""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO / "tests/data/kernels/flash_attention.sm90.ttgir"

LOC_DEF = re.compile(r"^(#loc\d*) = loc\(")
LOC_REF = re.compile(r"#loc(\d*)(?![\w.])")
FILE_LOC = re.compile(r'^#loc\d* = loc\("[^"]+":\d+:\d+\)$')
NAMED_LOC = re.compile(r'^#loc\d* = loc\("([^"]+)"\(#loc\d*\)\)$')
FUNC_NAME = re.compile(r"tt\.func (?:public |private )?@([\w$.]+)")


@dataclass(frozen=True)
class DumpParts:
    """A dump cut into: layout aliases, #loc lines before the module, the module's body, #loc lines after it."""
    layout_aliases: tuple[str, ...]
    head_locs: tuple[str, ...]
    module_open: str
    body: tuple[str, ...]
    module_close: str
    tail_locs: tuple[str, ...]
    kernel: str


def split_dump(text: str) -> DumpParts:
    """Cut a single-module Triton dump into its parts; raises ValueError if it is not of that shape."""
    lines = text.splitlines()
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("module"))
        end = max(i for i, l in enumerate(lines) if l.startswith("}"))
    except (StopIteration, ValueError):
        raise ValueError("no top-level module in the source dump") from None
    head, tail = lines[:start], lines[end + 1:]
    if any(not LOC_DEF.match(l) for l in tail if l.strip()):
        raise ValueError("the source dump has lines other than #loc definitions after its module")
    kernel = FUNC_NAME.search(text)
    if kernel is None:
        raise ValueError("no tt.func in the source dump")
    return DumpParts(
        layout_aliases=tuple(l for l in head if l.strip() and not LOC_DEF.match(l)),
        head_locs=tuple(l for l in head if LOC_DEF.match(l)),
        module_open=lines[start], body=tuple(lines[start + 1:end]), module_close=lines[end],
        tail_locs=tuple(l for l in tail if l.strip()),
        kernel=kernel.group(1),
    )


def loc_slot(digits: str) -> int:
    """Index of a #loc alias within one copy: '#loc' -> 0, '#locK' -> K + 1."""
    return int(digits) + 1 if digits else 0


def renumber(line: str, base: int) -> str:
    """Shift every #loc alias in a line into the copy whose aliases start at #loc{base}: '#loc3' -> '#loc{base+4}'."""
    return LOC_REF.sub(lambda m: f"#loc{base + loc_slot(m.group(1))}", line)


def slots_per_copy(parts: DumpParts) -> int:
    """How many alias numbers one copy needs: one past the largest #loc index it defines."""
    defs = [LOC_DEF.match(l).group(1)[4:] for l in parts.head_locs + parts.tail_locs]
    return max(loc_slot(d) for d in defs) + 1


def copy_of(parts: DumpParts, index: int, stride: int) -> tuple[list[str], list[str], list[str]]:
    """Head #loc lines, function lines and tail #loc lines of copy `index`, with renamed symbol and aliases."""
    base = index * stride
    rename = re.compile(rf"@{re.escape(parts.kernel)}(?![\w$.])")
    body = [rename.sub(f"@{parts.kernel}_c{index}", renumber(l, base)) for l in parts.body]
    return ([renumber(l, base) for l in parts.head_locs], body, [renumber(l, base) for l in parts.tail_locs])


def filler_locs(parts: DumpParts, count: int, first: int) -> list[str]:
    """`count` named locations numbered from #loc{first}, cycling over copy 0's variable names and file locations."""
    file_locs = [LOC_DEF.match(l).group(1) for l in parts.head_locs + parts.tail_locs if FILE_LOC.match(l)]
    names = sorted({m.group(1) for l in parts.head_locs + parts.tail_locs if (m := NAMED_LOC.match(l))}) or ["v"]
    if not file_locs:
        raise ValueError("the source dump has no file locations to point filler locations at")
    targets = [renumber(ref, 0) for ref in file_locs]
    return [f'#loc{first + i} = loc("{names[i % len(names)]}"({targets[i % len(targets)]}))' for i in range(count)]


def assemble(parts: DumpParts, copies: int, filler: int) -> str:
    """The dump text for `copies` kernel copies plus `filler` named-location lines."""
    stride = slots_per_copy(parts)
    head, body, tail = [], [], []
    for i in range(copies):
        h, b, t = copy_of(parts, i, stride)
        head += h
        body += b
        tail += t
    module_open = renumber(parts.module_open, 0)
    module_close = renumber(parts.module_close, 0)
    tail += filler_locs(parts, filler, copies * stride)
    return "\n".join([*parts.layout_aliases, *head, module_open, *body, module_close, *tail]) + "\n"


def build_big_dump(source_text: str, target_bytes: int = 4_000_000, loc_lines: int = 80_000) -> str:
    """A dump with exactly `loc_lines` #loc definitions and a size as close to `target_bytes` as whole copies allow.

    Each extra copy replaces its #loc count of filler lines by a whole kernel, so the size grows with the number
    of copies; a bisection finds the count whose size is nearest the target.
    """
    parts = split_dump(source_text)
    locs_per_copy = len(parts.head_locs) + len(parts.tail_locs)
    if locs_per_copy == 0 or locs_per_copy > loc_lines:
        raise ValueError(f"the source dump has {locs_per_copy} #loc lines; need between 1 and {loc_lines}")

    def text_for(copies: int) -> str:
        return assemble(parts, copies, loc_lines - copies * locs_per_copy)

    lo, hi = 1, loc_lines // locs_per_copy
    while lo < hi:
        mid = (lo + hi) // 2
        if len(text_for(mid).encode()) < target_bytes:
            lo = mid + 1
        else:
            hi = mid
    candidates = [text_for(n) for n in {max(1, lo - 1), lo}]
    return min(candidates, key=lambda t: (abs(len(t.encode()) - target_bytes), len(t)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="where to write the dump")
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="a real single-module Triton dump")
    ap.add_argument("--bytes", type=int, default=4_000_000, help="approximate size (default 4000000)")
    ap.add_argument("--locs", type=int, default=80_000, help="exact number of #loc lines (default 80000)")
    args = ap.parse_args(argv)
    try:
        text = build_big_dump(args.source.read_text(), args.bytes, args.locs)
    except (OSError, ValueError) as exc:
        print(f"make_big_dump: error: {exc}", file=sys.stderr)
        return 1
    args.out.write_text(text)
    loc_count = sum(1 for l in text.splitlines() if LOC_DEF.match(l))
    print(f"{args.out}: {len(text.encode())} bytes, {loc_count} #loc lines, "
          f"{text.count('tt.func public')} kernel copies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
