"""The `ttlayout` commands: one module per command, each a thin click layer over `inputs` (the input pipeline) and
`analysis/`; `group` is the click group that dispatches to them.

A module exposes `command` (a click command). With no command name, the arguments go to the print command, which
also takes triton-tensor-layout's LLVM-style spellings (`printing.normalize_argv`), so `ttlayout -l ATTR -t TYPE`
works as Triton's tool does; a plain print command line does not load click at all (`printing.quick_options`).
Modules load on demand: printing a layout never imports the analysis code.
"""
from __future__ import annotations

import importlib

PRINT = "print"
SUBCOMMANDS = ("info", "lookup", "convert", "audit", "bank", "swizzle")
TOPICS = ("notation", "bank-model")
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def load(name: str):
    """The module of one command (PRINT or a name of SUBCOMMANDS)."""
    return importlib.import_module(f".{name}", __name__)
