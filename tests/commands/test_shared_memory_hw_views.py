"""Issue 32 B.5: the padded / partitioned shared hardware views at full speed. Past SMALL_LIMIT they are written
by numpy, a chunk of offsets at a time, with the padding lines spliced in; the bytes are the plain-Python
path's, and no element is formatted one by one."""
from __future__ import annotations

import pytest

from linlayout_cli.cli import run

_VIEWS = (
    ("#ttg.padded_shared<[32:+4, 64:+2] {order = [1, 0], shape = [64, 128]}>", "tensor<64x128xf16>"),
    ("#ttg.padded_shared<[4:+4] {order = [0, 1], shape = [64, 128]}>", "tensor<64x128xf16>"),
    ("#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [32, 128]}>", "tensor<32x128xf16>"),
    ("#ttg.padded_shared<[128:+8] {order = [1, 0], shape = [128, 128]}>", "tensor<128x128xf32>"),
    ("#ttg.partitioned_shared<{numPartitions = 4, numGroups = 2, partitionDim = 0, partitionLayout = "
     "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>", "tensor<64x128xf16>"),
    ("#ttg.partitioned_shared<{numPartitions = 2, numGroups = 1, partitionDim = 1, partitionLayout = "
     "#ttg.padded_shared<[8:+1] {order = [1, 0], shape = [64, 64]}>}>", "tensor<64x128xf16>"),
)


@pytest.mark.parametrize("chunk", (7, 1 << 16))
@pytest.mark.parametrize("attr,ty", _VIEWS)
def test_big_shared_hardware_views_are_vectorised_byte_for_byte(monkeypatch, attr, ty, chunk):
    """Chunks of 7 offsets put chunk edges next to padding lines and inside runs of one digit count (positions
    9 | 10, 99 | 100, ...)."""
    from linlayout_cli import render
    from linlayout_cli.render import memory
    argv = ["-l", attr, "-t", ty, "--use-hw-view"]
    monkeypatch.setattr(render, "SMALL_LIMIT", 1 << 62)              # the plain-Python path, line by line
    code, small, err = run(argv)
    assert code == 0, err
    calls = []
    real = memory._coords
    monkeypatch.setattr(memory, "_coords", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(render, "SMALL_LIMIT", 0)                    # the path big views take
    monkeypatch.setattr(memory, "CHUNK", chunk)
    code, big, err = run(argv)
    assert code == 0 and big == small
    assert not calls                                                  # no element formatted one by one
    assert "-> padding (" in big or "partitioned" in attr


def test_padded_hardware_view_by_hand():
    """[2:+1, 4:+2] on 2x4 (README's example, past SMALL_LIMIT through the big path): offsets 0..7 at positions
    0 1 | 3 4 | 8 9 | 11 12; a pad of 1 before offsets 2 and 6, of 1 + 2 = 3 before offset 4."""
    from linlayout_cli import render
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render, "SMALL_LIMIT", 0)
        code, out, err = run(["-l", "#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [2, 4]}>",
                              "-t", "tensor<2x4xf16>", "--use-hw-view"])
    assert code == 0, err
    assert out.splitlines()[1:] == [
        "Block: 0:", "Offset: 0 -> (0,0)", "Offset: 1 -> (0,1)", "Offset: 2 -> padding (2:+1)",
        "Offset: 3 -> (0,2)", "Offset: 4 -> (0,3)", "Offset: 5..7 -> padding (2:+1, 4:+2)", "Offset: 8 -> (1,0)",
        "Offset: 9 -> (1,1)", "Offset: 10 -> padding (2:+1)", "Offset: 11 -> (1,2)", "Offset: 12 -> (1,3)"]
