"""Property tests: random *valid* attributes of every kind print canonically and round-trip.

For each kind a Hypothesis strategy builds an attribute that satisfies Triton 3.9's verifiers, written in
Triton's canonical form (the form Triton's printer produces). Properties:

* ``str(parse(text)) == text``: the canonical text is a fixed point of parse + print;
* ``parse(str(a)) == a``: printing loses nothing;
* a re-spelled variant (keys of the outer dictionary shuffled, extra whitespace, newlines and comments,
  integers as ``0x..`` or typed ``N : i32``) parses to the same object;
* every valid attribute whose kind has a linear layout converts (or fails with a clean one-line error) and
  the CLI prints it on a small tensor.
"""
from __future__ import annotations

import re
import warnings

import pytest
from helpers import warm_up
from hypothesis import given
from hypothesis import strategies as st

from linlayout_cli.cli import run as _run
from linlayout_cli.parsing import parse_attribute


def run(argv, stdin=None):
    """In-process CLI run; a warning (it would be an extra stderr line) fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = _run(argv, stdin=stdin)
    assert not caught, f"warning during {argv!r}: {caught[0].message}"
    return result


# ---------------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------------

def arr(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def bases(bs) -> str:
    return "[" + ", ".join(arr(b) for b in bs) + "]"


def b(x) -> str:
    return "true" if x else "false"


pow2 = st.integers(0, 4).map(lambda k: 1 << k)


warm_up(_run)


def pow2s(rank, max_log=4):
    return st.lists(st.integers(0, max_log).map(lambda k: 1 << k), min_size=rank, max_size=rank)


def permutation(rank):
    return st.permutations(list(range(rank)))


@st.composite
def unit_bases(draw, rank, max_bits=3, zeros=2):
    """Bases stepping 1, 2, 4, ... along each dim, in random order, plus some zero (broadcast) bases: a
    permutation matrix after removing the zero bases (Triton's rule for CGA and linear layouts)."""
    out = []
    for d in range(rank):
        for j in range(draw(st.integers(0, max_bits))):
            v = [0] * rank
            v[d] = 1 << j
            out.append(v)
    out = draw(st.permutations(out))
    for _ in range(draw(st.integers(0, zeros))):
        out.insert(draw(st.integers(0, len(out))), [0] * rank)
    return out


def cga(rank):
    return st.one_of(st.just([]), unit_bases(rank, max_bits=2, zeros=1))


def cga_field(c) -> str:
    return f", CGALayout = {bases(c)}" if c else ""


def split(draw, items, parts):
    """Distribute items over `parts` lists, keeping their order."""
    out = [[] for _ in range(parts)]
    for x in items:
        out[draw(st.integers(0, parts - 1))].append(x)
    return out


# ---------------------------------------------------------------------------------------------
# one strategy per kind (canonical text)
# ---------------------------------------------------------------------------------------------

@st.composite
def blocked(draw, rank=None):
    r = rank or draw(st.integers(1, 4))
    return (f"#ttg.blocked<{{sizePerThread = {arr(draw(pow2s(r, 3)))}, threadsPerWarp = {arr(draw(pow2s(r)))}, "
            f"warpsPerCTA = {arr(draw(pow2s(r, 3)))}, order = {arr(draw(permutation(r)))}"
            f"{cga_field(draw(cga(r)))}}}>")


@st.composite
def nvidia_mma(draw, rank=None):
    major = draw(st.sampled_from([2, 3]))
    r = rank or (draw(st.sampled_from([2, 3])) if major == 2 else 2)
    if major == 2:
        instr = [16, 8] if r == 2 else [1, 16, 8]
    else:
        instr = [16, draw(st.sampled_from([8, 16, 32, 64, 128, 256])), draw(st.sampled_from([8, 16, 32]))]
    return (f"#ttg.nvidia_mma<{{versionMajor = {major}, versionMinor = {draw(st.integers(0, 1))}, "
            f"warpsPerCTA = {arr(draw(pow2s(r, 3)))}{cga_field(draw(cga(r)))}, instrShape = {arr(instr)}}}>")


@st.composite
def amd_mfma(draw, rank=None):
    r = rank or draw(st.sampled_from([2, 3]))
    m, n = draw(st.sampled_from([(32, 32), (16, 16), (64, 4), (4, 64)]))
    instr = [m, n] + ([draw(st.sampled_from([4, 8, 16, 32]))] if draw(st.booleans()) else [])
    tiles = draw(pow2s(r, 2))
    tpw = f", tilesPerWarp = {arr(tiles)}" if any(t != 1 for t in tiles) else ""
    ebw = draw(st.sampled_from([32, 64]))
    return (f"#ttg.amd_mfma<{{version = {draw(st.integers(0, 4))}, warpsPerCTA = {arr(draw(pow2s(r, 3)))}, "
            f"instrShape = {arr(instr)}, isTransposed = {b(draw(st.booleans()))}{cga_field(draw(cga(r)))}{tpw}"
            f"{'' if ebw == 32 else f', elementBitWidth = {ebw}'}}}>")


_WMMA_SHAPES = {1: [(16, 16, 16)], 2: [(16, 16, 16), (16, 16, 32)],
                3: [(16, 16, 4), (16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)]}


@st.composite
def amd_wmma(draw, rank=None):
    r = rank or 2
    version = draw(st.integers(1, 3))
    instr = draw(st.sampled_from(_WMMA_SHAPES[version]))
    reg, warp = split(draw, draw(unit_bases(r, max_bits=2, zeros=1)), 2)
    parts = ([f"register = {bases(reg)}"] if reg else []) + ([f"warp = {bases(warp)}"] if warp else [])
    instr_s = f", instrShape = {arr(instr)}" if tuple(instr) != (16, 16, 16) else ""
    return (f"#ttg.amd_wmma<{{version = {version}, isTranspose = {b(draw(st.booleans()))}, "
            f"ctaLayout = {{{', '.join(parts)}}}{cga_field(draw(cga(r)))}{instr_s}}}>")


@st.composite
def linear(draw, rank=None, generic=False):
    r = rank or draw(st.integers(1, 4))
    units = draw(unit_bases(r, max_bits=3, zeros=3))
    if not any(any(u) for u in units):          # the rank is read from the bases: keep at least one
        units.append([0] * r)
    reg, lane, warp, block = split(draw, units, 4)
    if generic and draw(st.booleans()):
        # generic_linear allows warp bases that move in several dims (any value inside the shape)
        sizes = [1] * r
        for u in units:
            for d, v in enumerate(u):
                sizes[d] = max(sizes[d], 2 * v)
        warp.append([draw(st.integers(0, s - 1)) for s in sizes])
    kind = "generic_linear" if generic else "linear"
    return (f"#ttg.{kind}<{{register = {bases(reg)}, lane = {bases(lane)}, warp = {bases(warp)}, "
            f"block = {bases(block)}}}>")


@st.composite
def swizzled(draw, rank=None, kind="swizzled_shared"):
    r = rank or draw(st.integers(1, 4))
    return (f"#ttg.{kind}<{{vec = {draw(st.integers(1, 16))}, perPhase = {draw(st.integers(1, 8))}, "
            f"maxPhase = {draw(st.integers(1, 16))}, order = {arr(draw(permutation(r)))}{cga_field(draw(cga(r)))}}}>")


@st.composite
def nvmma_shared(draw):
    r = draw(st.sampled_from([2, 2, 3]))
    c = draw(cga(r))
    tail = cga_field(c) if c else (f", rank = {r}" if r != 2 else "")
    fp4 = ", fp4Padded = true" if draw(st.booleans()) else ""
    return (f"#ttg.nvmma_shared<{{swizzlingByteWidth = {draw(st.sampled_from([0, 32, 64, 128]))}, "
            f"transposed = {b(draw(st.booleans()))}, elementBitWidth = {draw(st.sampled_from([8, 16, 32, 64]))}"
            f"{fp4}{tail}}}>")


@st.composite
def shared_linear(draw):
    r = draw(st.integers(1, 4))
    units = draw(unit_bases(r, max_bits=3, zeros=0))
    units = [u for u in units if any(u)] or [[1] + [0] * (r - 1)]
    # an invertible (triangular) mix of the unit bases keeps the layout bijective
    for i in range(1, len(units)):
        if draw(st.booleans()):
            j = draw(st.integers(0, i - 1))
            units[i] = [x ^ y for x, y in zip(units[i], units[j])]
    offset, block = split(draw, units, 2)
    if not offset:
        offset, block = units, []
    for _ in range(draw(st.integers(0, 2))):
        offset.insert(draw(st.integers(0, len(offset))), [0] * r)
    block_s = f", block = {bases(block)}" if block else ""
    return f"#ttg.shared_linear<{{offset = {bases(offset)}{block_s}}}, alignment = {draw(pow2)}>"


@st.composite
def padded_shared(draw):
    r = draw(st.integers(1, 3))
    n = draw(st.integers(1, 3))
    intervals = draw(st.lists(st.integers(0, 10).map(lambda k: 1 << k), min_size=n, max_size=n, unique=True))
    paddings = draw(st.lists(pow2, min_size=n, max_size=n))
    pads = ", ".join(f"{i}:+{p}" for i, p in zip(intervals, paddings))
    shape = draw(st.lists(st.integers(1, 5).map(lambda k: 1 << k), min_size=r, max_size=r))
    return f"#ttg.padded_shared<[{pads}] {{order = {arr(draw(permutation(r)))}, shape = {arr(shape)}}}>"


@st.composite
def partitioned_shared(draw):
    layout = draw(st.one_of(swizzled(rank=2), nvmma_shared()))
    rank = 3 if "rank = 3" in layout else 2
    return (f"#ttg.partitioned_shared<{{numPartitions = {1 << draw(st.integers(1, 3))}, "
            f"numGroups = {draw(pow2)}, partitionDim = {draw(st.integers(0, rank - 1))}, "
            f"partitionLayout = {layout}}}>")


def distributed(rank):
    return st.one_of(blocked(rank=rank), linear(rank=rank), nvidia_mma(rank=rank) if rank in (2, 3) else st.nothing(),
                     amd_mfma(rank=rank) if rank in (2, 3) else st.nothing(),
                     amd_wmma(rank=rank) if rank == 2 else st.nothing())


@st.composite
def slice_(draw, depth=0):
    rank = draw(st.integers(2, 4))
    parent = draw(distributed(rank) if depth >= 1 or rank < 3 else st.one_of(distributed(rank), slice_parent(rank, depth)))
    return f"#ttg.slice<{{dim = {draw(st.integers(0, rank - 1))}, parent = {parent}}}>"


@st.composite
def slice_parent(draw, rank, depth):
    """A slice layout of the given rank (for slices of slices)."""
    parent = draw(distributed(rank + 1))
    return f"#ttg.slice<{{dim = {draw(st.integers(0, rank))}, parent = {parent}}}>"


@st.composite
def dot_op(draw):
    kind = draw(st.sampled_from(["blocked", "mma2", "mma3", "mfma", "wmma"]))
    if kind == "blocked":
        parent, op_idx, kw = draw(blocked(rank=draw(st.sampled_from([2, 3])))), draw(st.integers(0, 1)), 0
    elif kind == "mma2":
        parent = draw(nvidia_mma(rank=2).filter(lambda s: "versionMajor = 2" in s))
        op_idx, kw = draw(st.integers(0, 1)), draw(st.sampled_from([1, 2, 4, 8]))
    elif kind == "mma3":
        parent = draw(nvidia_mma(rank=2).filter(lambda s: "versionMajor = 3" in s))
        op_idx, kw = 0, draw(st.sampled_from([1, 2, 4, 8]))
    elif kind == "mfma":
        parent, op_idx, kw = draw(amd_mfma()), draw(st.integers(0, 1)), draw(st.sampled_from([1, 2, 4, 8, 16]))
    else:
        parent = draw(amd_wmma())
        version = int(re.search(r"version = (\d)", parent).group(1))
        kw = draw(st.sampled_from({1: [8, 16], 2: [4, 8, 16], 3: [1, 2, 4, 8, 16]}[version]))
        op_idx = draw(st.integers(0, 1))
    kw_s = f", kWidth = {kw}" if kw else ""
    return f"#ttg.dot_op<{{opIdx = {op_idx}, parent = {parent}{kw_s}}}>"


KINDS = {
    "blocked": blocked(), "slice": slice_(), "dot_op": dot_op(), "nvidia_mma": nvidia_mma(),
    "amd_mfma": amd_mfma(), "amd_wmma": amd_wmma(), "linear": linear(), "generic_linear": linear(generic=True),
    "swizzled_shared": swizzled(), "amd_rotating_shared": swizzled(kind="amd_rotating_shared"),
    "nvmma_shared": nvmma_shared(), "shared_linear": shared_linear(), "padded_shared": padded_shared(),
    "partitioned_shared": partitioned_shared(),
}

# ---------------------------------------------------------------------------------------------
# re-spelling (same attribute, different text)
# ---------------------------------------------------------------------------------------------

_TOP_DICT = re.compile(r"^(#ttg\.\w+<)\{(.*)\}(>)$", re.S)


def _top_level_entries(body: str) -> list[str]:
    """Split `k = v, k = v` at depth-0 commas."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(body):
        if c in "[{<":
            depth += 1
        elif c in "]}>":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(body[start:i].strip())
            start = i + 1
    out.append(body[start:].strip())
    return out


@st.composite
def respelled(draw, text):
    """The same attribute written differently: shuffled keys, odd whitespace, comments, hex and typed ints."""
    m = _TOP_DICT.match(text)
    if m and "padded_shared" not in text and "amd_wmma" not in text:
        entries = draw(st.permutations(_top_level_entries(m.group(2))))
        text = m.group(1) + "{" + ", ".join(entries) + "}" + m.group(3)

    def number(mt):
        n = int(mt.group())
        style = draw(st.sampled_from(["dec", "dec", "hex", "typed"]))
        if style == "hex":
            return hex(n)
        after_equal = mt.string[:mt.start()].rstrip().endswith("=")
        if style == "typed" and n < 2 ** 31 and not after_equal:    # struct parameters take no typed ints
            return f"{n} : i32"
        return str(n)

    # integers inside `[...]` / after `=` (not the `2:+4` of padded_shared, not inside names)
    text = re.sub(r"(?<=[\[=,] )\d+(?=[,\]}])|(?<=\[)\d+(?=[,\]])", number, text) if "padded" not in text else text
    ws = draw(st.sampled_from([" ", "  ", "\n", " \t", " // note\n "]))
    text = text.replace(", ", "," + ws).replace(" = ", ws + "=" + ws)
    return text


# ---------------------------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=st.data())
def test_canonical_round_trip(kind, data, fuzz_counter):
    text = data.draw(KINDS[kind], label="canonical")
    attr = parse_attribute(text)
    assert str(attr) == text, "printing is not canonical"
    assert parse_attribute(str(attr)) == attr, "parse(print(a)) != a"
    other = data.draw(respelled(text), label="respelled")
    assert parse_attribute(other) == attr, f"re-spelled text parses differently:\n{other}"
    fuzz_counter["property"] += 1


_SHAPES = ["tensor<16xf16>", "tensor<16x16xf16>", "tensor<4x8x16xf16>", "tensor<2x4x8x16xf16>",
           "tensor<1x1xf16>", "tensor<64x64xf16>"]


@pytest.mark.parametrize("kind", sorted(KINDS))
@given(data=st.data())
def test_valid_attributes_render_or_fail_cleanly(kind, data, fuzz_counter):
    text = data.draw(KINDS[kind], label="attribute")
    rank = parse_attribute(text).rank
    dims = data.draw(st.lists(st.integers(0, 6).map(lambda k: 1 << k), min_size=rank, max_size=rank), label="shape")
    ttype = "tensor<" + "".join(f"{d}x" for d in dims) + "f16>"
    argv = ["-l", text, "-t", ttype, "--max-elements", "65536"]
    if data.draw(st.booleans(), label="hw view"):
        argv.append("--use-hw-view")
    code, out, err = run(argv)
    if code == 0:
        assert all(line.startswith("ttlayout: note: ") for line in err.splitlines()), (argv, err)
        assert out.startswith(f"Print layout attribute: {text}\n"), (argv, err, out[:300])
        assert out.endswith("\n")
    else:
        assert code == 1 and not out, (argv, code, err)
        line = err.rstrip("\n")
        assert err.endswith("\n") and "\n" not in line and line.startswith("ttlayout: error: "), (argv, err)
        assert len(line) <= 300, (argv, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)
    fuzz_counter["property"] += 1


# ---------------------------------------------------------------------------------------------
# the linear scanners agree with their definitions (issue 23: no regex that keeps memory per character)
# ---------------------------------------------------------------------------------------------

_PIECES = ['"', "\\", "a", " ", "\n", "(", ")", "<", ">", "->", "[", "]", "{", "}", ",", "loc(", " at ", "#x"]


def _reference_string_end(s: str, i: int) -> int:
    """The definition: a string runs over non-quote characters and backslash escapes, to its closing quote."""
    m = re.compile(r'"(?:[^"\\\n]|\\.)*"?').match(s, i)
    return m.end()


@given(st.lists(st.sampled_from(_PIECES), max_size=14).map("".join))
def test_skip_string_is_the_string_literal(text):
    from linlayout_cli.parsing.lexical import skip_string
    s = '"' + text
    end = _reference_string_end(s, 0)
    if end > 1 and s[end - 1] == '"' and (end - 2 < 1 or s[end - 2] != "\\" or s[end - 3:end - 1] == "\\\\"):
        assert skip_string(s, 0) == end                  # a closed string: the same end
    else:
        got = skip_string(s, 0)                          # an unclosed one: ends at its line's end (or the text's)
        assert got in (end, s.find("\n", 1) if "\n" in s[1:] else len(s))


def _reference_top(text: str) -> list[int]:
    """Offsets at bracket depth 0 outside strings, character by character (the old reader's definition)."""
    from linlayout_cli.parsing.lexical import skip_string
    out, depth, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = skip_string(text, i)
            continue
        if depth == 0:
            out.append(i)
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        i += 1
    return out


@given(st.lists(st.sampled_from(_PIECES), max_size=16).map("".join))
def test_depth_zero_spans_are_the_definition(text):
    from linlayout_cli.parsing.module import _top_spans
    assert [i for a, b in _top_spans(text) for i in range(a, b)] == _reference_top(text)


@st.composite
def _locations(draw, depth=0):
    """A location text and its frames, innermost first (the recursive definition)."""
    kind = draw(st.sampled_from(["file", "file", "name", "callsite", "fused", "unknown"] if depth < 4 else ["file"]))
    if kind == "file":
        f = (draw(st.sampled_from(["a.py", "triton/language/core.py", "x\\\"y.py"])), draw(st.integers(1, 9)),
             draw(st.integers(1, 9)))
        return f'"{f[0]}":{f[1]}:{f[2]}', (f,)
    if kind == "unknown":
        return "unknown", ()
    if kind == "name":
        inner, frames = draw(_locations(depth + 1))
        return f'"v"({inner})', frames
    if kind == "callsite":
        (a, fa), (b, fb) = draw(_locations(depth + 1)), draw(_locations(depth + 1))
        return f"callsite({a} at {b})", fa + fb
    parts = draw(st.lists(_locations(depth + 1), min_size=1, max_size=3))
    return "fused[" + ", ".join(p for p, _ in parts) + "]", tuple(f for _, fs in parts for f in fs)


@given(_locations())
def test_location_frames_follow_the_nesting(location):
    from linlayout_cli.parsing.module import Locations
    text, frames = location
    assert Locations({}).frames(text) == frames


@st.composite
def _buffer_sets(draw):
    from linlayout_cli.analysis.allocation import Buffer
    n = draw(st.integers(1, 9))
    out = []
    for k in range(n):
        start = draw(st.integers(0, 30))
        out.append(Buffer(f"b{k}", draw(st.sampled_from([16, 64, 100, 128, 512, 4096])),
                          draw(st.sampled_from([4, 16, 128])), start, start + draw(st.integers(1, 12))))
    return out


@given(_buffer_sets())
def test_allocator_by_chains_of_overlap_equals_the_whole(buffers):
    """Buffers that never overlap in time with a chain of others are placed on their own (a dump of 10,000
    scratch buffers stays linear); the size equals Triton's algorithm run on all of them at once."""
    import copy

    from linlayout_cli.analysis import allocation as al
    whole = al._offsets_of(copy.deepcopy(buffers))
    assert al.compute_offsets(copy.deepcopy(buffers)) == whole
