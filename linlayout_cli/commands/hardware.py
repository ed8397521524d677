"""The one `--target` option of the commands that model hardware (convert, bank, swizzle, audit) and the target it
selects: the option, else the `ttg.target` the given dump's modules name, else sm90. The list of targets is
`analysis.targets.KNOWN`; every command accepts all of it and says in one line where its model does not cover one
(the bank model has no rule for gfx1200)."""
from __future__ import annotations

from ..analysis.targets import DEFAULT_TARGET, KNOWN, Target, get_target
from ..errors import TTLayoutError, UnsupportedError, abbreviate
from .options import Opt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

TARGET = Opt(("--target",), "target", metavar="NAME", help=f"GPU target: {', '.join(KNOWN)} (or a nickname: hopper, "
             "mi300x, ...; or as ttg.target writes it: cuda:90, hip:gfx942). Default: the ttg.target of the dump "
             f"given, else {DEFAULT_TARGET}. The bank model (bank, swizzle, audit's shared-memory rows) does not "
             "cover gfx1200.")


def select(name: str | None, dump_targets=(), bank: bool = False, ctx: Context | None = None) -> Target:
    """The target --target names, else the one the dump's modules name (they must agree), else the default;
    `bank`: one the bank model covers. With `ctx`, a --target other than the dump's own is said in one stderr note
    (once per run)."""
    given = name is not None
    if name is None and len(dump_targets) > 1:
        raise TTLayoutError(f"the -i file's modules name different targets ({', '.join(dump_targets[:4])}); say which "
                            "with --target NAME")
    if name is None and dump_targets:
        name = check_named(dump_targets[0])
    chosen = get_target(name)                    # the one resolution: analysis takes this Target
    if ctx is not None and given and dump_targets:
        override_note(ctx, chosen, dump_targets)
    if bank and chosen.bank_gap:
        raise UnsupportedError(chosen.bank_gap)
    return chosen


def override_note(ctx: Context, chosen: Target, dump_targets) -> None:
    """`ttlayout: note: --target sm100 overrides the dump's ttg.target cuda:90 (sm90)`, once per run, where the
    target --target names (`chosen`) is not the one the dump's modules name."""
    own = [t for t in dict.fromkeys(dump_targets) if _known(t) and get_target(t) != chosen]
    if own:
        ctx.note_once("target", f"--target {chosen.name} overrides the dump's ttg.target {abbreviate(own[0], 40)} "
                      f"({get_target(own[0]).name})")


def _known(name: str) -> bool:
    try:
        get_target(name)
    except TTLayoutError:
        return False
    return True


def check_engine(use: str | None, target: Target) -> None:
    """Refuse --for tma / wgmma on a target without that unit (sm80 has neither; sm100 has TMA but tcgen05.mma,
    not wgmma)."""
    if use is None or use in target.engines:
        return
    having = [t.name for t in KNOWN.values() if use in t.engines]
    why = f"{target.name}, {target.arch}, has no {'wgmma' if use == 'wgmma' else 'TMA engine'}"
    if use == "wgmma" and "tma" in target.engines:
        why += "; its tcgen05.mma reads the same #ttg.nvmma_shared operands TMA writes: --for tma"
    raise TTLayoutError(f"--for {use}: {why} ({use} targets: {', '.join(having)})")


def lanes_note(lanes: int) -> str | None:
    """What to say about a layout with `lanes` lanes per warp where no target has warps that size (None where one
    has): such a layout prints, but no GPU runs it.

    >>> lanes_note(32) is None, lanes_note(16)
    (True, '16 lanes per warp match no target (warps have 32 lanes on sm80, sm90, sm100, gfx1200; 64 on gfx942, gfx950)')
    """
    sizes: dict[int, list[str]] = {}
    for t in KNOWN.values():
        sizes.setdefault(t.warp_size, []).append(t.name)
    if lanes in sizes:
        return None
    return (f"{lanes} lane{' per warp matches' if lanes == 1 else 's per warp match'} no target (warps have "
            + "; ".join(f"{n} lanes on {', '.join(names)}" if i == 0 else f"{n} on {', '.join(names)}"
                        for i, (n, names) in enumerate(sorted(sizes.items()))) + ")")


def check_named(name: str) -> str:
    """A `ttg.target` a dump names, checked to be a known target."""
    try:
        get_target(name)
    except TTLayoutError:
        raise TTLayoutError(f"the dump's ttg.target '{abbreviate(name, 40)}' is not a target ttlayout models "
                            f"(known targets: {', '.join(KNOWN)}); give --target NAME") from None
    return name
