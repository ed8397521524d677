"""`ttlayout bank`: the shared-memory bank conflicts of storing a register layout to a shared layout and loading
it back, as Triton 3.9 counts them, with the report that explains the count."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from . import common
from .options import Opt

ROLES = [("register", "distributed"), ("shared", "shared")]

OPTIONS = (
    Opt(("-r", "--reg"), "reg", metavar="ATTR", help="Register (distributed) layout attribute, or #alias of -i."),
    Opt(("-s", "--shared"), "shared", metavar="ATTR", help="Shared layout attribute, or #alias of -i."),
    Opt(("--alias-names",), "alias_names", "multi", metavar="REG,SHARED",
        help="With -i: the aliases of the register and the shared layout."),
    Opt(("--format",), "fmt", type=("text", "json", "svg"), default="text", show_default=True,
        help="text: the report; json: same as --json; svg: a picture of the worst wavefront (banks across, the "
             "conflicting banks and lanes in red)."),
    Opt(("-o",), "output", metavar="FILE", help="Write to FILE (atomically) instead of stdout."),
    *common.COMMON,
)


def run(obj, reg, shared, alias_names, fmt, output, tensor_type, input_file, target, bitwidth, as_json):
    """Shared-memory bank conflicts of storing/loading a register layout to/from a shared layout.

    The count is Triton 3.9's get_shared_bank_conflicts (extra wavefronts per wavefront, 2^k - 1); the report
    explains it: vector width, ideal vs actual wavefronts per instruction, and which lanes of the worst
    wavefront hit which bank at which 32-bit words.

    \b
    ttlayout bank -r '#ttg.blocked<{...}>' -s '#ttg.swizzled_shared<{...}>' -t 'tensor<64x64xf16>'
    ttlayout bank -i kernel.ttgir --alias-names blocked,shared -t 'tensor<64x64xf16>' --json
    """
    from ..analysis.bank import analyze_bank
    from ..analysis.targets import get_target
    from ..reports import bank as report
    tgt = get_target(target)
    common.check_alias_usage(alias_names, input_file, reg is not None and shared is not None, "-r and -s")
    table = common.alias_table(obj, input_file)
    reg_attr = common.resolve(reg, table, "register", "distributed")
    shared_attr = common.resolve(shared, table, "shared", "shared")
    given = common.given_tensor(tensor_type)
    (reg_attr, shared_attr), agree = common.from_tensor(given, table, [reg_attr, shared_attr], ROLES, ("-r", "-s"),
                                                        "bank")
    names = inputs.split_names(alias_names)
    if table is not None and (reg_attr is None or shared_attr is None or names):
        if names:
            picked = common.from_alias_names(table, names, ROLES)
            agree(picked)
        else:
            picked = _auto_pick(table, reg_attr, shared_attr)
        reg_attr, shared_attr = reg_attr or picked[0], shared_attr or picked[1]   # -r / -s win
    if reg_attr is None or shared_attr is None:
        missing = "-r REG_ATTR" if reg_attr is None else "-s SHARED_ATTR"
        raise TTLayoutError(f"missing {missing}; see 'ttlayout bank --help'")
    t, bits = common.tensor_and_bits(tensor_type, bitwidth, t=given)
    result = analyze_bank(inputs.linear_layout(reg_attr, t.shape), inputs.linear_layout(shared_attr, t.shape),
                          bits, tgt)
    reg_text, shared_text = str(reg_attr), str(shared_attr)
    as_json = as_json or fmt == "json"

    def json_text():
        return report.json_text(result, reg_text, shared_text, t.element)

    if output is None and fmt != "svg":
        common.emit_report(obj, report.blocks(result, reg_text, shared_text, t.element), as_json, json_text)
        return
    with obj["sink"](output) as write:
        if fmt == "svg" and not as_json:
            from ..render.bank_svg import render_bank_svg
            render_bank_svg(result, reg_text, shared_text, t.element, write)
        else:
            from ..reports.blocks import to_text
            write((json_text() if as_json else to_text(report.blocks(result, reg_text, shared_text, t.element)))
                  .encode())


def _auto_pick(table, reg_attr, shared_attr):
    """With -i and no names: the file's only distributed and only shared layout."""
    picked = []
    for attr, (_role, kind), flag in ((reg_attr, ROLES[0], "-r"), (shared_attr, ROLES[1], "-s")):
        if attr is None:
            names = common.aliases_of_kind(table, kind)
            if len(names) != 1:
                raise TTLayoutError(f"the file has {len(names)} {kind} layouts ({', '.join(names[:6])}); "
                                    f"say which with {flag} '#name' or --alias-names reg,shared")
            attr = table[names[0]].attr
        picked.append(attr)
    return picked
