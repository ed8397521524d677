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
