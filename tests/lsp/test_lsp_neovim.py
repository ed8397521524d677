"""A real editor: headless Neovim opens a kernel's TTGIR with `ttlayout lsp` attached, a Lua script
(nvim_hover.lua) asks for a hover and writes it to a file; the text is `ttlayout info`'s. Quitting the editor
leaves no server process behind."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from golden_cases import DATA

from linlayout_cli.cli import run

pytest.importorskip("pygls")
NVIM = shutil.which("nvim")
HERE = Path(__file__).parent
KERNEL = DATA / "kernels" / "matmul_epilogue_transpose.sm80.ttgir"


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, already ended, awaiting its parent, does not count)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _with_marker(marker: str) -> list[int]:
    """The processes whose environment holds `marker` (the server Neovim started, and anything it left)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed (.ci/run installs Debian's neovim)")
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="the process check reads /proc")
def test_neovim_shows_the_hover_and_leaves_no_process(tmp_path):
    text = KERNEL.read_text(encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines()) if x.startswith("#mma = "))
    out = tmp_path / "hover.md"
    marker = f"TTLAYOUT_LSP_TEST_{uuid.uuid4().hex}"
    env = dict(os.environ, TTLAYOUT_LSP_CMD=json.dumps([sys.executable, "-m", "linlayout_cli", "lsp"]),
               TTLAYOUT_HOVER_LINE=str(line), TTLAYOUT_HOVER_COL="2", TTLAYOUT_HOVER_OUT=str(out),
               TTLAYOUT_LSP_MARKER=marker, XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path), PYTHONPATH=str(Path(__file__).parents[2]))
    subprocess.run([NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", str(KERNEL), "-c",
                    f"luafile {HERE / 'nvim_hover.lua'}"], env=env, timeout=300, check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    hover = out.read_text(encoding="utf-8")
    attr = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8]}>"
    assert hover.startswith("**#mma** — defined at line 5") and f"#mma = {attr}" in hover
    code, info, err = run(["info", "-l", attr, "-t", "tensor<128x128xf32>"])
    assert code == 0, err
    assert next(x for x in info.splitlines() if x.startswith("cute")) in hover
    # the editor is gone: so is its server (it may take the server a moment to see its input close)
    pid = int((tmp_path / "hover.md.pid").read_text())
    assert pid > 0
    for _ in range(100):
        left = [p for p in _with_marker(marker) if _alive(p)]
        if not left and not _alive(pid):
            break
        time.sleep(0.1)
    assert left == [] and not _alive(pid)
