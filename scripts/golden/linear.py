"""Triton's own linear layout of every success case that prints one ``-l`` layout (suites core and mma).

Per case: ``bases`` / ``out_dims`` of ``toLinearLayout(shape, attr)``; ``linear_attr``, Triton's canonical print of
the same bases written as a ``#ttg.linear`` (distributed) or ``#ttg.shared_linear`` (shared; the alignment is
the layout's own ``SharedEncodingTrait::getAlignment()``, the one Gluon's ``to_linear_layout`` gives); ``linear_same_view``, whether
Triton prints that attribute's view (same tensor, same view flag) exactly like the case's, header line aside.
Where Triton refuses the ``#ttg.linear`` spelling (bases that are no permutation matrix), the
``#ttg.generic_linear`` one is tried; ``linear_rejected`` then holds the refusal's first line.
"""
from __future__ import annotations

import re
from collections import Counter

from ..oracle.printing import parse_cl
from .text import linear, shared_linear

SUITES = ("core", "mma")
FIELDS = ("bases", "out_dims", "linear_attr", "linear_same_view", "linear_rejected")
_TENSOR_DIMS = re.compile(r"^tensor<((?:\d+x)*)")


def single_layout(args):
    """(attribute text, tensor type, hw view) of argv printing one ``-l`` layout and no ``-i`` file, else None."""
    opts = parse_cl(list(args))
    if isinstance(opts, str) or not opts["l"] or opts["i"]:
        return None
    return opts["l"], opts["t"], opts["use-hw-view"]


def tensor_shape(ttype):
    """``tensor<16x8xf16>`` -> ``[16, 8]`` (an encoding inside the type is ignored, as by the tool).

    >>> tensor_shape("tensor<16x8xf16, #blocked>"), tensor_shape("tensor<f32>")
    ([16, 8], [])
    """
    m = _TENSOR_DIMS.match(ttype)
    return [int(x) for x in m.group(1).split("x") if x]


def with_layout(args, attr):
    """argv with every ``-l`` value replaced by `attr`, spelling kept (``-l X``, ``--l X``, ``-l=X``).

    >>> with_layout(["-l", "#a", "-t", "T", "--l=#b"], "#c")
    ['-l', '#c', '-t', 'T', '--l=#c']
    """
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-l", "--l") and i + 1 < len(args):
            out += [a, attr]
            i += 2
            continue
        out.append(a.split("=", 1)[0] + "=" + attr if a.startswith(("-l=", "--l=")) else a)
        i += 1
    return out


def bases_attr(bases, alignment, kind="linear"):
    """Attribute text holding Triton's bases: ``#ttg.<kind><{register = ..}>`` or ``#ttg.shared_linear<..>``."""
    if "offset" in bases:
        return shared_linear(bases["offset"], bases.get("block", []), alignment)
    return linear(bases["register"], bases["lane"], bases["warp"], bases["block"], kind=kind)


def header_attr(stdout):
    """``Print layout attribute: X`` (the first line) -> X."""
    first = stdout.split("\n", 1)[0]
    return first[len("Print layout attribute: "):]


def view(stdout):
    """Everything after the header line."""
    return stdout.split("\n", 1)[1] if "\n" in stdout else ""


def first_line(err):
    for ln in err.splitlines():
        if ln.strip() and not ln.startswith("nanobind: leaked"):
            return ln.strip()
    return ""


def gluon_agrees(res):
    """Whether Gluon's to_linear_layout gave the same bases (and out sizes / alignment); None if it aborted."""
    g = res.get("gluon")
    if g is None:
        return None
    if "out_sizes" in g:
        return g["bases"] == res["bases"] and g["out_sizes"] == list(res["out_dims"].values())
    return g["bases"] == res["bases"] and g["alignment"] == res["alignment"]


def triton_layouts(todo, pool):
    """Triton's linear layout of each (case, result, (attr, tensor type, hw)); every answer checked."""
    answers = pool.run_all([{"op": "linear", "attr": attr, "shape": tensor_shape(tt)} for _, _, (attr, tt, _) in todo])
    for (c, _, _), a in zip(todo, answers):
        if a["exit"] != 0:
            raise RuntimeError("toLinearLayout failed on %s although Triton printed it: %s" % (c["id"], a["stderr"]))
        if gluon_agrees(a) is False:
            raise RuntimeError("Gluon's to_linear_layout disagrees with toLinearLayout on %s" % c["id"])
        if "offset" in a["bases"] and a["alignment"] is None:
            raise RuntimeError("no alignment for shared layout %s" % c["id"])
    return answers


def read_back(pending, kind, fields, pool):
    """Have Triton print each case's bases as a `kind` attribute (shared layouts: always shared_linear), with the
    case's tensor and view flag, and fill in linear_attr / linear_same_view.  Returns the distributed cases Triton
    refused as #ttg.linear, for the generic_linear spelling to try."""
    printed = pool.run_all([{"op": "cli", "args": with_layout(c["args"], bases_attr(a["bases"], a["alignment"], kind))}
                            for c, _, a in pending])
    retry = []
    for (c, r, a), p in zip(pending, printed):
        f = fields[c["id"]]
        if p["exit"] == 0:
            f["linear_attr"] = header_attr(p["stdout"])
            f["linear_same_view"] = view(p["stdout"]) == view(r["stdout"])
            continue
        f.setdefault("linear_rejected", first_line(p["stderr"]))
        if kind == "linear" and "offset" not in a["bases"]:
            retry.append((c, r, a))
        else:
            f["linear_attr"] = None
            f["linear_same_view"] = False
    return retry


def linear_fields(cases, results, pool):
    """({case id: fields}, summary line) for the success cases printing one -l layout."""
    todo = []
    for c, r in zip(cases, results):
        one = single_layout(c["args"]) if r["exit"] == 0 and r["stdout"] else None
        if one:
            todo.append((c, r, one))
    answers = triton_layouts(todo, pool)
    fields = {c["id"]: {"bases": a["bases"], "out_dims": a["out_dims"]} for (c, _, _), a in zip(todo, answers)}
    pending = [(c, r, a) for (c, r, _), a in zip(todo, answers)]
    for kind in ("linear", "generic_linear"):
        if pending:
            pending = read_back(pending, kind, fields, pool)
    fields = {cid: {k: f[k] for k in FIELDS if k in f} for cid, f in fields.items()}
    agree = Counter(gluon_agrees(a) for a in answers)
    attrs = [f["linear_attr"] or "" for f in fields.values()]
    summary = ("linear: %d cases, %d same view, %d as generic_linear, %d without a printable attribute; "
               "Gluon route agrees on %d, unavailable on %d" % (
                   len(fields), sum(f["linear_same_view"] for f in fields.values()),
                   sum(a.startswith("#ttg.generic_linear") for a in attrs), attrs.count(""), agree[True], agree[None]))
    return fields, summary
