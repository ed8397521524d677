"""The package as a user gets it: build the sdist and the wheel, install the wheel into a fresh venv, and run
ttlayout from outside the source tree (grammar, docs and metadata must all travel)."""
from __future__ import annotations

import subprocess
import sys
import tarfile
import venv
import zipfile

import pytest
from golden_cases import ROOT

BLOCKED = "#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [4], warpsPerCTA = [2], order = [0]}>"
EXPECTED = (f"Print layout attribute: {BLOCKED}\n"
            "[T0:0|T4:0, T0:1|T4:1, T1:0|T5:0, T1:1|T5:1, T2:0|T6:0, T2:1|T6:1, T3:0|T7:0, T3:1|T7:1]\n")


# what the sdist is built from (MANIFEST.in and pyproject's packages); everything else stays behind
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "grammar", "docs", "linlayout_cli")


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and wheel, built from a copy of the sources: a build writes `ttlayout.egg-info` and a
    `ttlayout-0.1.0` staging folder into the tree it builds, and two test workers building the checkout itself at
    once removed each other's staging files."""
    import shutil
    out, src = tmp_path_factory.mktemp("dist"), tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, src / name)
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out), str(src)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return out


def test_sdist_ships_no_half_test_suite(dist):
    (sdist,) = dist.glob("*.tar.gz")
    names = tarfile.open(sdist).getnames()
    assert not [n for n in names if "/tests/" in n or "/golden/" in n], "tests need golden data: ship both or neither"
    for wanted in ("LICENSE", "grammar/mlir.lark", "docs/bank_model.md", "docs/cute.md", "linlayout_cli/cli.py",
                   "pyproject.toml"):
        assert any(n.endswith("/" + wanted) for n in names), wanted


def test_wheel_metadata(dist):
    (wheel,) = dist.glob("*.whl")
    z = zipfile.ZipFile(wheel)
    meta = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
    assert "License-Expression: MIT" in meta and "Author: The ttlayout developers" in meta
    assert "Project-URL: Homepage," in meta and "Classifier: Operating System :: OS Independent" in meta
    for version in ("3.10", "3.11", "3.12", "3.13"):
        assert f"Classifier: Programming Language :: Python :: {version}" in meta
    names = z.namelist()
    assert "linlayout_cli/docs/bank_model.md" in names and "linlayout_cli/grammar/mlir.lark" in names
    assert "linlayout_cli/docs/cute.md" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)


def test_installed_wheel_runs_outside_the_source_tree(dist, tmp_path):
    (wheel,) = dist.glob("*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    install = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True,
                             timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    work = tmp_path / "elsewhere"
    work.mkdir()
    tool = env_dir / "bin" / "ttlayout"
    run = subprocess.run([str(tool), "-l", BLOCKED, "-t", "tensor<8xf16>"], capture_output=True, text=True, cwd=work)
    assert (run.returncode, run.stdout) == (0, EXPECTED)
    assert run.stderr in ("", run.stderr if run.stderr.startswith("ttlayout: note: 4 lanes per warp") else "")
    where = subprocess.run([str(py), "-c", "import linlayout_cli; print(linlayout_cli.__file__)"],
                           capture_output=True, text=True, cwd=work)
    assert str(env_dir) in where.stdout and str(ROOT) not in where.stdout
    doc = subprocess.run([str(tool), "help", "bank-model"], capture_output=True, text=True, cwd=work)
    assert doc.returncode == 0 and doc.stdout.startswith("# Shared-memory bank model")
    doc = subprocess.run([str(tool), "help", "cute"], capture_output=True, text=True, cwd=work)
    assert doc.returncode == 0 and doc.stdout.startswith("# CuTe notation")
