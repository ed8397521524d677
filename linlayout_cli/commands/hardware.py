"""The one `--target` option of the commands that model hardware (convert, bank, swizzle, audit) and the target it
selects: the option, else the `ttg.target` the given dump's modules name, else sm90. The list of targets is
`analysis.targets.KNOWN`; every command accepts all of it and says in one line where its model does not cover one
(the bank model has no rule for gfx1200)."""
from __future__ import annotations

from ..analysis.targets import DEFAULT_TARGET, KNOWN, Target, bank_target, get_target
from ..errors import TTLayoutError, abbreviate
from .options import Opt

TARGET = Opt(("--target",), "target", metavar="NAME", help=f"GPU target: {', '.join(KNOWN)} (or a nickname: hopper, "
             "mi300x, ...; or as ttg.target writes it: cuda:90, hip:gfx942). Default: the ttg.target of the dump "
             f"given, else {DEFAULT_TARGET}. The bank model (bank, swizzle, audit's shared-memory rows) does not "
             "cover gfx1200.")


def select(name: str | None, dump_targets=(), bank: bool = False) -> Target:
    """The target --target names, else the one the dump's modules name (they must agree), else the default;
    `bank`: one the bank model covers."""
    if name is None and len(dump_targets) > 1:
        raise TTLayoutError(f"the -i file's modules name different targets ({', '.join(dump_targets[:4])}); say which "
                            "with --target NAME")
    if name is None and dump_targets:
        name = check_named(dump_targets[0])
    return bank_target(name) if bank else get_target(name)


def check_named(name: str) -> str:
    """A `ttg.target` a dump names, checked to be a known target."""
    try:
        get_target(name)
    except TTLayoutError:
        raise TTLayoutError(f"the dump's ttg.target '{abbreviate(name, 40)}' is not a target ttlayout models "
                            f"(known targets: {', '.join(KNOWN)}); give --target NAME") from None
    return name
