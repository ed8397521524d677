"""The `ttlayout` commands: one module per command, each a thin layer over `inputs` (the input pipeline),
`analysis/` and `reports/`. A module declares its `OPTIONS` (and `ARGUMENTS`) as data (`options.Opt`; the layouts
it takes as `layouts.Role`s) and does its work in `run(obj, **params)`, whose docstring is its help; `group` builds
the click commands from them.

`COMMANDS` is the registry: name -> (module, one-line summary). `--help` lists the commands from it without
importing them, and the tests take their command lists from it. A new command is one module here, one entry
below, its analysis and report, and its README section.

A plain command line runs without loading click (`quick`); everything else (help, completion, mistakes) goes
through the click group. With no command name, the arguments go to the print command, which also takes
triton-tensor-layout's LLVM-style spellings (`print.normalize_argv`), so `ttlayout -l ATTR -t TYPE` works as
Triton's tool does. Modules load on demand: printing a layout never imports the analysis code.
"""
from __future__ import annotations

import importlib

from ..records import frozen


@frozen
class Command:
    """A registry entry: the module under `commands/` that implements a command, and its line in `--help`."""
    module: str
    summary: str


PRINT = "print"
COMMANDS = {
    "info": Command("info", "One layout at one shape: who holds what, spread, copies, vectors, bases, Gluon."),
    "lookup": Command("lookup", "Who holds element (i, j), what thread T holds, what sits at shared offset N."),
    "convert": Command("convert", "What a ttg.convert_layout costs, as Triton 3.9's compiler lowers it."),
    "diff": Command("diff", "Two layouts compared: equal or not, which bits differ, what converting costs."),
    "audit": Command("audit", "Every layout decision of a TTGIR dump with its cost and its Python line."),
    "advise": Command("advise", "The layout changes that make a TTGIR kernel cheaper, priced on the whole kernel."),
    "bank": Command("bank", "Shared-memory bank conflicts of a register layout and a shared layout."),
    "swizzle": Command("swizzle", "The shared layout to write one register layout with and read another."),
    "lsp": Command("lsp", "Language Server: hover, diagnostics and quick fixes in the editor (the lsp extra)."),
    PRINT: Command("print", "Print a layout as triton-tensor-layout does (the default: no name needed)."),
}
SUBCOMMANDS = tuple(name for name in COMMANDS if name != PRINT)
TOPICS = ("notation", "cute", "bank-model", "audit-model")
CONTEXT = {"max_content_width": 100}


def load(name: str):
    """The module of one command of `COMMANDS`."""
    return importlib.import_module(f".{COMMANDS[name].module}", __name__)


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


def unknown_command(word: str) -> str | None:
    """The error for a first word that is no command name, where it cannot start a print command line either (the
    print command takes no positional argument, so any word that is not an option); None for an option.

    >>> unknown_command("audt"), unknown_command("-l")
    ("unknown command 'audt' (did you mean 'audit'?)", None)
    """
    if word.startswith("-") or word in COMMANDS or word == "help":
        return None
    from ..errors import abbreviate
    names = [*COMMANDS, "help"]
    return f"unknown command '{abbreviate(word, 40)}'" + (did_you_mean(word, names) or f"; commands: {', '.join(names)}")


def did_you_mean(word: str, names) -> str:
    """" (did you mean 'audit'?)" for a near miss of one of `names` (difflib's ratio of at least 0.6), else ""."""
    import difflib
    close = difflib.get_close_matches(word, names, n=1) if len(word) <= 40 else []
    return f" (did you mean '{close[0]}'?)" if close else ""
