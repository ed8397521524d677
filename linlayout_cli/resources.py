"""The package's version and data files: grammar/ and docs/ live at the top of the repository and ship inside the
installed package as linlayout_cli/grammar and linlayout_cli/docs (pyproject's package-dir), so a file is found in
either place: the installed package, or a source checkout (where the tests import the package from)."""
from __future__ import annotations

import os

VERSION = "0.1.0"                     # pyproject.toml's version; the package exports it as __version__
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def data_path(folder: str, name: str) -> str:
    """The path of grammar/mlir.lark, docs/bank_model.md, ... (FileNotFoundError if neither place has it)."""
    for path in (os.path.join(PACKAGE_DIR, folder, name), os.path.join(os.path.dirname(PACKAGE_DIR), folder, name)):
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"{folder}/{name} is not installed with this ttlayout")


def data_text(folder: str, name: str) -> str:
    with open(data_path(folder, name), encoding="utf-8") as f:
        return f.read()
