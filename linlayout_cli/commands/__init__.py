"""The `ttlayout` commands: one module per command, each a thin layer over `inputs` (the input pipeline) and
`analysis/`. A module declares its `OPTIONS` (and `ARGUMENTS`) as data (`options.Opt`) and does its work in
`run(obj, **params)`, whose docstring is its help; `group` builds the click commands from them.

A plain command line runs without loading click (`quick`); everything else (help, completion, mistakes) goes
through the click group. With no command name, the arguments go to the print command, which also takes
triton-tensor-layout's LLVM-style spellings (`print.normalize_argv`), so `ttlayout -l ATTR -t TYPE` works as
Triton's tool does. Modules load on demand: printing a layout never imports the analysis code.
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


def quick(argv: list[str]):
    """(command module, its parameters) for a plain command line, which runs without click; None otherwise."""
    if not argv or argv[0] in (PRINT, "help"):
        return None
    if argv[0] in SUBCOMMANDS:
        from .options import quick as quick_params
        module = load(argv[0])
        params = quick_params(argv[1:], module.OPTIONS, getattr(module, "ARGUMENTS", ()))
    else:
        module = load(PRINT)
        params = module.quick(argv)
    return None if params is None else (module, params)
