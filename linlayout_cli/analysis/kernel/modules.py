"""A module's functions, its target and its thread counts, checked before it is audited."""
from __future__ import annotations

from ...errors import TTLayoutError
from ...records import frozen
from ..targets import DEFAULT, Target, get_target
from .ops import FUNCTION_OPS

MAX_THREADS = 1024               # threads one CTA may have, on every target
LANES = (32, 64)                 # threads per warp (wavefront) of every target


@frozen
class _Unit:
    """The ops of one function (SSA names are scoped per function), with the module's aliases and its type
    reader (`Module.value_type`)."""
    ops: list
    aliases: object
    value_type: object


def function_units(module) -> list[_Unit]:
    """Each function of a module (its op and everything inside); the whole module when it has no function."""
    from ..allocation import subtree_end
    ops = module.ops
    out, i = [], 0
    while i < len(ops):
        if ops[i].name in FUNCTION_OPS:
            end = subtree_end(ops, i)
            out.append(_Unit(ops[i:end + 1], module.aliases, module.value_type))
            i = end + 1
        else:
            i += 1
    return out or [_Unit(ops, module.aliases, module.value_type)]


def _where(module, several: bool) -> str:
    return f"the module at line {module.first_line}" if several else "the module"


def module_target(module, option: Target | None, several: bool = False) -> tuple[Target, str]:
    """The target to audit a module for, and where it came from: `--target` (resolved by the command), the
    module's `ttg.target` (resolved here, once per module), or the default when the module names none. A `ttg.target` that is empty or unknown is an error naming it: the audit would otherwise model the wrong
    hardware."""
    if option is not None:
        return option, "option"
    name = module.target
    if name is None:
        return DEFAULT, "default"
    try:
        if not name.strip():
            raise TTLayoutError("empty")
        return get_target(name), "module"
    except TTLayoutError:
        from ..targets import TARGETS
        raise TTLayoutError(f"{_where(module, several)}: ttg.target \"{name}\" is not a target ttlayout knows "
                            f"({', '.join(TARGETS)}); give --target NAME to audit it for one") from None


def check_threads(module, target: Target, several: bool = False) -> None:
    """`ttg.num-warps` and `ttg.threads-per-warp` must be what a GPU can run: a power-of-two number of warps,
    32 or 64 threads per warp, at most 1024 threads per CTA. A value that is not is an error naming it."""
    where = _where(module, several)
    lanes = module.threads_per_warp
    raw_lanes = module.attributes.get("ttg.threads-per-warp")
    if raw_lanes is not None and lanes not in LANES:
        raise TTLayoutError(f"{where}: ttg.threads-per-warp = {raw_lanes} is not a warp size (32 or 64)")
    warps, raw_warps = module.num_warps, module.attributes.get("ttg.num-warps")
    if raw_warps is None:
        return
    per_warp = lanes or target.warp_size
    if warps is None or warps < 1 or warps & (warps - 1) or warps * per_warp > MAX_THREADS:
        raise TTLayoutError(f"{where}: ttg.num-warps = {raw_warps} is not a number of warps a CTA can have (a power "
                            f"of two, at most {MAX_THREADS // per_warp} warps of {per_warp} threads)")
