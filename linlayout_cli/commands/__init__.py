"""One module per command, each a thin click layer over `inputs` (the input pipeline) and `analysis/`.

A module exposes `command` (a click command); the print command, which runs when no subcommand name is
given, also exposes `normalize_argv` for triton-tensor-layout's LLVM-style spellings. Modules load on demand,
so printing a layout never imports the analysis code."""
from __future__ import annotations

import importlib

PRINT = "print"
SUBCOMMANDS = ("info", "lookup", "bank", "swizzle")


def load(name: str):
    """The module of one command (PRINT or a name of SUBCOMMANDS)."""
    return importlib.import_module(f".{name}", __name__)
