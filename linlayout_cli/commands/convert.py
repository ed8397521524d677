"""`ttlayout convert`: what a `ttg.convert_layout` costs, as Triton 3.9's compiler lowers it: no-op, register
permutation, warp shuffles or a round trip through shared memory, with the instructions per thread."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from . import common
from .options import Opt

ROLES = [("source", "distributed"), ("destination", "distributed")]
TARGETS = ("sm80", "sm90", "sm100", "gfx942", "gfx950", "gfx1200")

OPTIONS = (
    Opt(("-s", "--src"), "src", metavar="ATTR", help="Source (distributed) layout, or #alias of -i."),
    Opt(("-d", "--dst"), "dst", metavar="ATTR", help="Destination (distributed) layout, or #alias of -i."),
    Opt(("-t",), "tensor_type", metavar="TYPE", help="Tensor type, e.g. 'tensor<128x256xf16>' (required); the "
        "element type gives the bit width. An encoding written in it ('tensor<128x256xf16, #mma>') is the source."),
    Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file whose aliases -s/-d may name ('-' = stdin)."),
    Opt(("--alias-names",), "alias_names", "multi", metavar="SRC,DST",
        help="With -i: the aliases of the source and the destination layout."),
    Opt(("--target",), "target", default="sm90", show_default=True, metavar="NAME",
        help="Lowering target: " + ", ".join(TARGETS) + "."),
    Opt(("--bitwidth",), "bitwidth", type=int, metavar="N", help="Element bit width (overrides the element type)."),
    Opt(("--format",), "fmt", type=("text", "json", "svg"), default="text", show_default=True,
        help="text: the report; json: one object (same as --json); svg: both layouts and what moves."),
    Opt(("--json",), "as_json", "flag", help="Print one JSON object instead of the report."),
    Opt(("-o",), "output", metavar="FILE", help="Write to FILE (atomically) instead of stdout."),
)


def run(obj, src, dst, tensor_type, input_file, alias_names, target, bitwidth, fmt, as_json, output):
    """The cost of converting a tensor from one distributed layout to another, as Triton 3.9 lowers
    ttg.convert_layout: which hardware bits move, and whether that takes no instruction, register moves, warp
    shuffles or a round trip through shared memory (scratch bytes, stores, loads, barriers, bank conflicts).

    \b
    ttlayout convert -s '#ttg.blocked<{...}>' -d '#ttg.blocked<{...}>' -t 'tensor<64x64xf32>'
    ttlayout convert -i kernel.ttgir --alias-names mma,blocked -t 'tensor<128x128xf16>' --target sm90 --json
    """
    from ..analysis.convert import analyze_convert
    from ..reports import convert as report
    target = target.lower()
    if target not in TARGETS:
        from ..analysis.targets import ALIASES
        target = ALIASES.get(target, target)
        if target not in TARGETS:
            raise TTLayoutError(f"unknown target '{target}'; known targets: {', '.join(TARGETS)}")
    common.check_alias_usage(alias_names, input_file, src is not None and dst is not None, "-s and -d")
    table = common.alias_table(obj, input_file)
    pair = [_resolve(text, table, role) for text, (role, _) in ((src, ROLES[0]), (dst, ROLES[1]))]
    given = common.given_tensor(tensor_type)
    pair, agree = common.from_tensor(given, table, pair, ROLES, ("-s", "-d"), "convert")
    names = inputs.split_names(alias_names)
    if table is not None and (None in pair or names):
        if names:
            picked = common.from_alias_names(table, names, ROLES)
            agree(picked)
        else:
            dist = common.aliases_of_kind(table, "distributed")
            if len(dist) != 2:
                raise TTLayoutError(f"the file has {len(dist)} distributed layouts ({', '.join(dist[:6])}); "
                                    "say which with --alias-names src,dst")
            picked = [table[dist[0]].attr, table[dist[1]].attr]
        pair = [given or p for given, p in zip(pair, picked)]
    if None in pair:
        raise TTLayoutError(f"missing {'-s SRC_ATTR' if pair[0] is None else '-d DST_ATTR'}; "
                            "see 'ttlayout convert --help'")
    t, bits = common.tensor_and_bits(tensor_type, bitwidth, example="tensor<128x256xf16>", t=given)
    lls = [inputs.linear_layout(a, t.shape) for a in pair]
    result = analyze_convert(lls[0], lls[1], bits, target)
    texts = [str(a) for a in pair]
    as_json = as_json or fmt == "json"
    if fmt == "svg" and not as_json:
        from ..render.convert_svg import render_convert_svg
        with obj["sink"](output) as write:
            render_convert_svg(lls[0], lls[1], texts[0], texts[1], report.verdict(result), result.moves, bits, write)
        return
    banks = _scratch_banks(result, lls, bits, target) if not as_json else None

    def json_text():
        return report.json_text(result, texts[0], texts[1], t.shape, t.element)

    blocks = report.blocks(result, texts[0], texts[1], t.shape, t.element, banks)
    if output is None:
        common.emit_report(obj, blocks, as_json, json_text)
        return
    from ..reports.blocks import to_text
    with obj["sink"](output) as write:
        write((json_text() if as_json else to_text(blocks)).encode())


def _resolve(text, table, role):
    """A layout given on the command line; a shared one is pointed at `ttlayout bank`."""
    if text is None:
        return None
    attr = inputs.attribute(text, table)
    if getattr(attr, "kind", None) == "shared":
        raise TTLayoutError(f"the {role} layout is a shared layout; a convert_layout goes between distributed "
                            "layouts (for register <-> shared memory costs use 'ttlayout bank')")
    return inputs.require_kind(attr, "distributed", role)


def _scratch_banks(result, lls, bits, target):
    """Bank reports of the scratch layout for the plain ld/st.shared round trip (None for the other paths)."""
    if result.path != "shared_memory" or not result.shared_layout:
        return None
    from ..analysis.bank import analyze_bank
    from ..analysis.targets import TARGETS as BANK_TARGETS
    if target not in BANK_TARGETS:
        return None
    smem = inputs.linear_layout(inputs.attribute(result.shared_layout), [s for _, s in lls[0].get_out_dims()])
    out = []
    for ll, instr in ((lls[0], result.store_instruction), (lls[1], result.load_instruction)):
        try:
            out.append(analyze_bank(ll, smem, bits, target) if instr and instr.endswith("shared") else None)
        except TTLayoutError:
            out.append(None)
    return out
