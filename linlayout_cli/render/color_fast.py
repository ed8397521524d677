"""Terminal colour for big views, at the speed of the plain text: the same escape codes as `color`'s painters,
placed by numpy (`styles` is `color.Styles`: colour -> escape-code pair). A chunk of whole lines is read as bytes; the cells are found by their delimiters (a holder starts
at 'T' or 'B' and ends after its register's digits, a coordinate cell runs from '(' to ')'), each gets a colour
id, and the codes are spliced in with one gather (`splice`). No Python code runs per cell; `color` keeps the
per-cell painters for small views, where importing numpy would cost more than it saves. Byte-identical to them
(tests/commands/test_pictures.py compares both on every golden case).
"""
from __future__ import annotations

import numpy as np

from . import palette

_T, _B, _COLON, _PIPE, _OPEN, _CLOSE, _NL = (ord(c) for c in "TB:|()\n")


class Codes:
    """Escape-code pairs (start, end) by colour id, laid out once in one byte array for `splice`."""

    def __init__(self, pairs):
        parts, offsets, lengths, pos = [], [], [], 0
        for start_code, end_code in pairs:
            offsets.append((pos, pos + len(start_code)))
            lengths.append((len(start_code), len(end_code)))
            parts += [start_code, end_code]
            pos += len(start_code) + len(end_code)
        self.blob = np.frombuffer(b"".join(parts), dtype=np.uint8)
        self.offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        self.lengths = np.asarray(lengths, dtype=np.int64).reshape(-1, 2)


def splice(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, ids: np.ndarray, codes: Codes) -> bytes:
    """`buf` with the start code of ids[i] inserted before each token [starts[i], ends[i]) and its end code after
    it (tokens sorted, not overlapping), by one gather from the text and the codes.

    >>> c = Codes([(b"<", b">")])
    >>> splice(np.frombuffer(b"a bc d", dtype=np.uint8), np.array([2]), np.array([4]), np.array([0]), c)
    b'a <bc> d'
    """
    n = len(starts)
    if n == 0:
        return buf.tobytes()
    source = np.concatenate([buf, codes.blob])
    base = len(buf)
    # pieces per token: text before it, its start code, its text, its end code; then the text after the last
    # (int32 indices: a chunk is far below 2 GB, and half the memory traffic of int64 makes the gather 5x faster)
    piece_src = np.empty(4 * n + 1, dtype=np.int32)
    piece_len = np.empty(4 * n + 1, dtype=np.int32)
    piece_src[0], piece_len[0] = 0, starts[0]
    piece_src[4:4 * n:4], piece_len[4:4 * n:4] = ends[:-1], starts[1:] - ends[:-1]
    piece_src[1:4 * n:4], piece_len[1:4 * n:4] = base + codes.offsets[ids, 0], codes.lengths[ids, 0]
    piece_src[2:4 * n:4], piece_len[2:4 * n:4] = starts, ends - starts
    piece_src[3:4 * n:4], piece_len[3:4 * n:4] = base + codes.offsets[ids, 1], codes.lengths[ids, 1]
    piece_src[4 * n], piece_len[4 * n] = ends[-1], len(buf) - ends[-1]
    first = np.cumsum(piece_len, dtype=np.int32) - piece_len
    index = np.repeat(piece_src - first, piece_len)
    index += np.arange(len(index), dtype=np.int32)
    return source[index].tobytes()


def _numbers(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The decimal numbers written at buf[starts[i]:ends[i]] (at most 18 digits each)."""
    value = np.zeros(len(starts), dtype=np.int64)
    width = ends - starts
    for d in range(int(width.max(initial=0))):
        live = d < width
        value[live] = value[live] * 10 + (buf[starts[live] + d].astype(np.int64) - 48)
    return value


def _next(positions: np.ndarray, after: np.ndarray) -> np.ndarray:
    """For each value of `after`, the first of the sorted `positions` greater than it."""
    return positions[np.searchsorted(positions, after, side="right")]


class DistributedTensor:
    """Holders `[B<b>:]T<t>:<r>` coloured by warp group and lane; in a replicated layout every holder and every
    '|' between holders is underlined (the '|' in grey), as `color.distributed_tensor` paints them. Each holder
    and each '|' is painted on its own, so a line may be cut after any '|' or ' ' (`safe_cuts`)."""
    safe_cuts = (b"|", b" ")

    def __init__(self, R: int, T: int, W: int, B: int, replicated: bool, styles):
        self.T, self.W = T, W
        pairs = [styles(palette.thread_hsl(g, lane, T), replicated) for g in range(B * W) for lane in range(T)]
        self.pipe = len(pairs)
        self.codes = Codes(pairs + [styles(palette.COPY_GREY, True)])

    def __call__(self, text: bytes) -> bytes:
        buf = np.frombuffer(text, dtype=np.uint8)
        tees = np.flatnonzero(buf == _T)
        if not len(tees):
            return text
        colons = np.flatnonzero(buf == _COLON)
        not_digit = np.flatnonzero((buf < 48) | (buf > 57))
        after_t = _next(colons, tees)                          # the ':' ending the thread number
        thread = _numbers(buf, tees + 1, after_t)
        ends = _next(not_digit, after_t)                       # after the register's digits
        starts = tees.copy()
        block = np.zeros(len(tees), dtype=np.int64)
        prefixed = (tees > 0) & (buf[tees - 1] == _COLON)
        if prefixed.any():                                     # B<b>:T<t>:<r>
            bees = np.flatnonzero(buf == _B)
            b_at = bees[np.searchsorted(bees, tees[prefixed]) - 1]
            starts[prefixed] = b_at
            block[prefixed] = _numbers(buf, b_at + 1, tees[prefixed] - 1)
        ids = (block * self.W + thread // self.T) * self.T + thread % self.T
        pipes = np.flatnonzero(buf == _PIPE)
        if len(pipes):
            starts = np.concatenate([starts, pipes])
            order = np.argsort(starts, kind="stable")
            starts = starts[order]
            ends = np.concatenate([ends, pipes + 1])[order]
            ids = np.concatenate([ids, np.full(len(pipes), self.pipe)])[order]
        return splice(buf, starts, ends, ids, self.codes)


def _cells(buf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[start, end) of every '(...)' cell."""
    return np.flatnonzero(buf == _OPEN), np.flatnonzero(buf == _CLOSE) + 1


class DistributedHardware:
    """Runs of lines of one warp: cell k of a line is lane k, coloured by the warp group's hue (headers pass)."""

    def __init__(self, T: int, W: int, B: int, replicated: bool, styles):
        self.T, self.W, self.group, self.block = T, W, 0, 0
        self.codes = Codes([styles(palette.thread_hsl(g, lane, T), replicated) for g in range(B * W)
                            for lane in range(T)])

    def run(self, text: bytes) -> bytes | None:
        buf = np.frombuffer(text, dtype=np.uint8)
        starts, ends = _cells(buf)
        if len(starts) % self.T or len(starts) != len(ends):
            return None
        ids = self.group * self.T + np.arange(len(starts), dtype=np.int64) % self.T
        return splice(buf, starts, ends, ids, self.codes)


class SharedCells:
    """Shared views: each cell coloured by the bank of the offset given for it."""

    def __init__(self, element_bits: int, replicated: bool, styles):
        self.bits = element_bits
        self.codes = Codes([styles(palette.bank_hsl(b), replicated) for b in range(32)])

    def run(self, text: bytes, offsets) -> bytes | None:
        """The run of text with its cells coloured by `offsets(count)` (an array), None if the cells are not
        what the view writes."""
        buf = np.frombuffer(text, dtype=np.uint8)
        starts, ends = _cells(buf)
        if len(starts) != len(ends):
            return None
        ids = offsets(len(starts)) * self.bits // 32 % 32          # `color.bank` of each offset
        return splice(buf, starts, ends, ids, self.codes)
