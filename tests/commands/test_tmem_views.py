"""Issue 32 B.5: the tensor memory views at full speed. The big-layout paths (numpy, streamed) print the same bytes
as the plain-Python small path, and the hardware view computes a block's column images once, not once per row."""
from __future__ import annotations

import pytest

from linlayout_cli.cli import run

_TMEM = (
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "tensor<128x256xf32>"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>", "tensor<256x128xf16>"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 2>", "tensor<128x128xf16>"),
    ("#ttng.tensor_memory_encoding<blockM = 64, blockN = 32, colStride = 1>", "tensor<64x128xi8>"),
    ("#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1, twoCTAs = true, "
     "CGALayout = [[1, 0]]>", "tensor<256x64xf32>"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CGALayout = [[0, 1], [1, 0]]>",
     "tensor<256x256xf32>"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>", "tensor<128x128xi1>"),
    ("#ttng.tensor_memory_scales_encoding<>", "tensor<256x32xi8>"),
)


@pytest.mark.parametrize("view", ([], ["--use-hw-view"]), ids=("tensor", "hardware"))
@pytest.mark.parametrize("attr,ty", _TMEM)
def test_tmem_views_take_the_vectorised_path_byte_for_byte(monkeypatch, attr, ty, view):
    from linlayout_cli import render
    argv = ["-l", attr, "-t", ty, *view]
    code, small, err = run(argv)
    assert code == 0, err
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)                    # the path big views take
    code, big, err = run(argv)
    assert code == 0, err
    assert big == small


def test_tmem_hardware_view_evaluates_each_column_once_per_block(monkeypatch):
    """128 rows x 4096 32-bit columns in chunks of 1024: the old path evaluated the layout once per row and chunk
    (512 calls); the fast path once for the rows and once per block."""
    from linlayout_cli import render
    from linlayout_cli.render import apply, memory
    calls = []
    real = apply.images
    monkeypatch.setattr(apply, "images", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)
    monkeypatch.setattr(memory, "CHUNK", 1024)
    code, out, err = run(["-l", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
                          "-t", "tensor<128x4096xf32>", "--use-hw-view"])
    assert code == 0, err
    assert out.count("\nRow ") == 128 and out.count("), (") == 128 * 4095
    assert len(calls) <= 2


def test_big_tmem_tensor_view_takes_the_row_templates(monkeypatch):
    """A TMEM tensor view past SMALL_LIMIT (128x8192 f32, 1M elements) is written by the row templates, as a
    swizzled view is: the numpy holders path (a solve and a byte matrix per 65,536 cells, 3x slower) is never
    entered. Worked out by hand: with blockN = 256 the 32 tiles of 128x256 sit side by side in the columns, so
    element (i, j) is at row i, column j, every cell right-aligned to len('R127:') + len('C8191') = 10."""
    from linlayout_cli.render import distributed, memory

    def numpy_path(*args):
        raise AssertionError("the per-chunk numpy holders path was taken")
    monkeypatch.setattr(distributed, "holders_view", numpy_path)
    monkeypatch.setattr(memory._HolderText, "__call__", numpy_path)
    code, out, err = run(["-l", "#ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>",
                          "-t", "tensor<128x8192xf32>"])
    assert code == 0, err
    lines = out.splitlines()[1:]
    assert len(lines) == 128
    for i, line in enumerate(lines):
        cells = line[2:].rstrip("]").split(", ")              # "[[" or "[ " before a row
        assert cells == [f"R{i}:C{j}".rjust(10) for j in range(8192)], i


_BIG = (
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 256, colStride = 1>", "tensor<256x1024xf32>"),
    ("#ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 1>", "tensor<256x512xf16>"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 4>", "tensor<256x512xi8>"),
    ("#ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1, twoCTAs = true, "
     "CGALayout = [[1, 0]]>", "tensor<512x128xf32>"),
    ("#ttng.tensor_memory_scales_encoding<blockRepOrder = kThenMn>", "tensor<1024x64xi8>"),
)


@pytest.mark.parametrize("joins", (True, False), ids=("joined", "formatted"))
@pytest.mark.parametrize("fields", (16, 4096))
@pytest.mark.parametrize("attr,ty", _TMEM + _BIG)
def test_tmem_tensor_view_templates_equal_numpy(monkeypatch, attr, ty, fields, joins):
    """The row templates give the numpy path's bytes (which the small path's equal, above), with units of 16
    cells (rows split across units, so a unit's cells cross column-digit boundaries, C99 | C100) and of 4096
    (units of several rows: several `R<row>:` parameters per unit), each run of fields placed by a join or every
    field %-formatted."""
    from linlayout_cli import render
    from linlayout_cli.render import templates
    argv = ["-l", attr, "-t", ty]
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)
    with monkeypatch.context() as numpy_only:
        numpy_only.setattr(templates, "holders_tensor_view", lambda *a: None)
        code, expected, err = run(argv)
    assert code == 0, err
    taken = []
    real = templates.Units.emit
    monkeypatch.setattr(templates.Units, "emit", lambda self, write: taken.append(real(self, write)) or taken[-1])
    monkeypatch.setattr(templates, "FIELDS", fields)
    monkeypatch.setattr(templates, "MAX_COST_SHARE", float("inf"))
    if not joins:
        monkeypatch.setattr(templates, "_fields", lambda fmt, picks: None)
    code, out, err = run(argv)
    assert code == 0, err
    assert taken == [True] and out == expected
