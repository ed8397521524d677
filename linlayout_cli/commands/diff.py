"""`ttlayout diff A B`: two layouts at one shape, compared: equal or not, how each dim is spread in each, which
bits map to other elements, and what the difference costs (convert's verdict; for shared layouts the offsets that
hold another element and the bank conflicts of both against a register layout)."""
from __future__ import annotations

from .. import inputs
from ..errors import TTLayoutError
from ..records import frozen
from . import layouts
from .hardware import TARGET, select
from .layouts import BitsRequest, Role
from .options import JSON, OUTPUT, Arg, Opt
from .output import write_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import Context

# the two layouts are positional (A B, as diff takes two files) and `pick` resolves them; the register layout that
# prices two shared ones is optional, so the command resolves it itself (-r, else the -i file's only distributed one)
PAIR = (Role("A", None, ("A",), "a", "a", "The first layout.", memory=True),
        Role("B", None, ("B",), "b", "b", "The second layout.", memory=True))
ROLES = (Role("register", "distributed", ("-r", "--reg"), "reg", "reg", "Register (distributed) layout that "
              "stores to and loads from two shared layouts, to compare their bank conflicts, or #alias of -i "
              "(default: the -i file's only distributed layout)."), *PAIR)
ARGUMENTS = (Arg("a", "A", required=False), Arg("b", "B", required=False))
EXAMPLE = "tensor<64x64xf16>"

EXIT_CODE = Opt(("--exit-code",), "exit_code", "flag", help="Exit status as `git diff --exit-code`: 0 when the "
                "layouts are equal, 1 when they differ, 2 on an error.")
OPTIONS = (*layouts.options(PAIR, EXAMPLE, bits=True)[len(PAIR):], ROLES[0].option(), TARGET, JSON, OUTPUT,
           EXIT_CODE)


@frozen
class Request(BitsRequest):
    """One `ttlayout diff` command line."""
    a: str | None = None
    b: str | None = None
    reg: str | None = None
    target: str | None = None
    as_json: bool = False
    output: str | None = None
    exit_code: bool = False


def run(ctx: Context, given: Request) -> int:
    """Compare two layouts A and B at one tensor shape; each is an attribute, a Gluon constructor or #alias of -i.

    Says whether they are the same linear layout, how each tensor dim is spread over the hardware in each
    (info's notation, bits from low to high), which input bits map to other elements, and what the difference
    costs: for two distributed layouts convert's verdict (A -> B); for two shared layouts how many offsets hold
    another element and, with -r, the bank conflicts of both.

    \b
    ttlayout diff '#ttg.blocked<{...}>' '#ttg.nvidia_mma<{...}>' -t 'tensor<128x128xf16>'
    ttlayout diff '#shared' '#shared1' -i kernel.ttgir -r '#blocked' -t 'tensor<64x64xf16>'
    """
    from ..analysis.diff import analyze_diff
    from ..reports import diff as report
    if given.input_file is None and (given.a is None or given.b is None):
        raise TTLayoutError(f"missing layout {'A' if given.a is None else 'B'}: ttlayout diff A B -t TYPE (each an "
                            "attribute, a Gluon constructor or #alias of -i)")
    p = layouts.pick(ctx, "diff", PAIR, given, EXAMPLE)
    la, lb = p.layouts
    shared = la.has_in_dim("offset") and lb.has_in_dim("offset")
    register, note = _register(given.reg, p, shared)
    convert_target = None if shared else select(given.target, p.targets, ctx=ctx)
    bank_target = select(given.target, p.targets, bank=True, ctx=ctx) if register is not None else None
    paddings = tuple(p.paddings) if p.paddings else (None, None)
    result = analyze_diff(la, lb, p.width, convert_target, register[1] if register else None, bank_target, paddings)
    texts = (p.header(0), p.header(1), p.tensor.element, p.width, register[0] if register else None, note)
    write_report(ctx, given.output, lambda: report.blocks(result, *texts), lambda: report.json_text(result, *texts),
                 as_json=given.as_json)
    return 1 if given.exit_code and not result.equal else 0


def _register(text: str | None, p, shared: bool):
    """((its text, its linear layout) or None, why there is none): -r's layout, else the -i file's only
    distributed layout; only shared pairs use one."""
    if not shared:
        if text is not None:
            raise TTLayoutError("-r prices two shared layouts; A and B are not both shared")
        return None, None
    table = p.table
    if text is not None:
        attr = inputs.require_kind(inputs.attribute(text, table), "distributed", "register (-r)")
        what = text if text.startswith("#") and table is not None else str(attr)
    else:
        found = [d for d in table.layouts() if d.attr.kind == "distributed"] if table is not None else []
        if len(found) != 1:
            names = ", ".join("#" + d.name for d in found[:6]) + (f" and {len(found) - 6} more" if len(found) > 6 else "")
            many = f"the -i file has {len(found)} distributed layouts ({names}); " if found else ""
            return None, f"no register layout: {many}-r REG_ATTR (or #alias of -i) prices both against one"
        attr, what = found[0].attr, f"#{found[0].name} (the -i file's only distributed layout)"
    return (what, inputs.linear_layout(attr, p.tensor.shape)), None
