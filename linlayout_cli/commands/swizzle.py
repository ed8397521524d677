"""`ttlayout swizzle`: the shared layout to write one register layout with and read another back, by Triton's
generic swizzling plus a search over every swizzled_shared layout."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from . import common
from .options import Opt

ROLES = [("write", "distributed"), ("read", "distributed")]

OPTIONS = (
    Opt(("-r", "--write"), "write", metavar="ATTR", help="Register layout that writes (stores) the tensor."),
    Opt(("--read",), "read", metavar="ATTR", help="Register layout that reads it back (default: the same)."),
    Opt(("--alias-names",), "alias_names", "multi", metavar="WRITE,READ",
        help="With -i: the aliases of the writing and the reading layout."),
    Opt(("--no-search",), "no_search", "flag", help="Skip the search; print Triton 3.9's generic swizzling result "
        "(its convert_layout scratch layout) as it is."),
    Opt(("--for",), "use", type=("tma", "wgmma"),
        help="Only layouts TMA copies or wgmma operands can use: the best #ttg.nvmma_shared."),
    *common.COMMON,
)


def run(obj, write, read, alias_names, no_search, use, tensor_type, input_file, target, bitwidth, as_json):
    """The shared layout that maximises vectorisation and then minimises bank conflicts for writing with one
    register layout and reading with another (Triton's generic swizzling, lib/Tools/GenericSwizzling.cpp).

    Prints a ready-to-paste #ttg.swizzled_shared<...> when one is as good, else #ttg.shared_linear<...>, with
    the conflicts of the unswizzled layout and of the suggestion.

    \b
    ttlayout swizzle -r '#ttg.blocked<{...}>' --read '#ttg.blocked<{...}>' -t 'tensor<64x64xf16>'
    """
    from ..analysis.swizzle import analyze_swizzle, best_nvmma
    from ..analysis.targets import get_target
    from ..records import replace
    from ..reports import swizzle as report
    tgt = get_target(target)
    common.check_alias_usage(alias_names, input_file, write is not None, "-r/--read")
    table = common.alias_table(obj, input_file)
    w = common.resolve(write, table, "write", "distributed")
    r = common.resolve(read, table, "read", "distributed")
    given = common.given_tensor(tensor_type)
    (w, r), agree = common.from_tensor(given, table, [w, r], ROLES, ("-r", "--read"), "swizzle")
    names = inputs.split_names(alias_names)
    if table is not None and (w is None or names):
        if len(names) == 1:
            names.append(names[0])
        if names:
            picked = common.from_alias_names(table, names, ROLES)
            agree(picked)
        else:
            dist = common.aliases_of_kind(table, "distributed")
            if len(dist) not in (1, 2):
                raise TTLayoutError(f"the file has {len(dist)} distributed layouts ({', '.join(dist[:6])}); "
                                    "say which with --alias-names write,read")
            picked = [table[dist[0]].attr, table[dist[-1]].attr]
        w, r = w or picked[0], r or picked[1]             # -r / --read win
    if w is None:
        raise TTLayoutError("missing -r WRITE_ATTR; see 'ttlayout swizzle --help'")
    r = r or w
    t, bits = common.tensor_and_bits(tensor_type, bitwidth, t=given)
    w_ll, r_ll = inputs.linear_layout(w, t.shape), inputs.linear_layout(r, t.shape)
    if use is not None:
        s = analyze_swizzle(w_ll, r_ll, bits, tgt, use=use)
    else:
        s = analyze_swizzle(w_ll, r_ll, bits, tgt, search=not no_search)
        if tgt.vendor == "nvidia" and s.kind != "nvmma_shared":
            alt = best_nvmma(w_ll, r_ll, bits, tgt)
            if alt is not None:
                s = replace(s, notes=s.notes + (
                    f"TMA copies and wgmma operands cannot use this layout (they need #ttg.nvmma_shared); the best "
                    f"one for them is {alt[0]} with {alt[1].conflicts} conflict(s) "
                    f"({alt[1].write_wavefronts + alt[1].read_wavefronts} wavefronts per warp): "
                    f"ttlayout swizzle --for tma",))
    common.emit_report(obj, report.blocks(s, str(w), str(r), t.element), as_json,
                       lambda: report.json_text(s, str(w), str(r), t.element))
