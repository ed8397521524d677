"""Many kernels' audits as one self-contained page (no network): a table of the kernels that sorts by any column,
and a click on a kernel shows its op rows. The data sits in the page as JSON that no string can break out of
(`html.script_json`); `kernels.js` builds the table with textContent only, so no text of a kernel is ever read as
HTML. `fragment` is the same without script, for a notebook's `_repr_html_` (every kernel's ops in a <details>)."""
from __future__ import annotations

import html
from importlib import resources

from ..errors import escaped
from ..reports.audit import asm_counts_text, loc_text
from ..reports.common import plural
from ..reports.kernels import (
    asm_agreement,
    conversions_text,
    costliest_text,
    notes_of,
    split,
    summary,
)
from .html import script_json

STYLE = """
*{box-sizing:border-box}
body{margin:0;font:13px system-ui,sans-serif;color:#111}
header{padding:8px 12px;border-bottom:1px solid #ddd;background:#fafafa}
h1{font-size:15px;margin:0 0 4px;word-break:break-all}
#summary{color:#555}
main{padding:8px 12px}
#list{max-height:55vh;overflow:auto;border-bottom:1px solid #ccc;margin-bottom:8px}
table{border-collapse:collapse}
th,td{padding:3px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
#kernels th{cursor:pointer;user-select:none;background:#f3f3f3;position:sticky;top:0}
#kernels th[aria-sort=ascending]::after{content:" \\25B2"}
#kernels th[aria-sort=descending]::after{content:" \\25BC"}
#kernels tbody tr{cursor:pointer}
#kernels tbody tr:hover{background:#f5f8ff}
#kernels tbody tr.on{background:#dde8ff}
#detail{border-top:2px solid #333;padding-top:6px}
#detail h2{font-size:14px;margin:0}
#detail-path{color:#666;font-size:12px;word-break:break-all}
#ops td{font:12px 'DejaVu Sans Mono',Menlo,monospace;max-width:48em;word-break:break-word}
#ops td:nth-child(3),#ops td:nth-child(4){white-space:nowrap;word-break:normal}
#failures{color:#a00}
"""

BODY = """<header><h1 id="title"></h1><div id="summary"></div></header>
<main>
<div id="list"><table id="kernels"><thead><tr></tr></thead><tbody></tbody></table></div>
<section id="failures" hidden><h2>not audited</h2><ul></ul></section>
<section id="detail"><h2 id="detail-title">Click a kernel to list its ops.</h2><div id="detail-path"></div>
<ul id="detail-notes"></ul>
<table id="ops" hidden><thead><tr></tr></thead><tbody></tbody></table></section>
</main>
"""


def _op_row(o: dict) -> list:
    verdict = f"{o['verdict']}: {o['problem']}" if o.get("problem") else o["verdict"]
    sep = " -> " if o.get("category") == "convert" else ", "
    return [o["cost"], o["line"], o["op"], loc_text(o.get("loc")), sep.join(o.get("layouts", ())), verdict,
            asm_counts_text(o["asm"]) if o.get("asm") else None]


def _short_note(k) -> str | None:
    """The table's note column: how far the compiler's shared bytes are from the model's, how many notes."""
    parts = []
    if k.shared_note:
        diff = k.compiler_shared_bytes - k.shared_bytes
        parts.append(f"compiler {diff:+} byte{'s' * (abs(diff) != 1)}" + ("" if k.shared_known else ", unexplained"))
    if k.notes:
        parts.append(f"{len(k.notes)} metadata note{'s' * (len(k.notes) > 1)}")
    return "; ".join(parts) or None


def page_data(results, where: str) -> dict:
    """What the page shows: one entry per kernel (its row, notes and op rows, costliest first), the failures, a
    summary line."""
    kernels, failures = split(results)
    s = summary(results)
    out = []
    for rank, k in enumerate(kernels, 1):
        ops = sorted(k.ops, key=lambda o: (-o["cost"], o["line"]))
        out.append({"rank": rank, "cost": round(k.cost, 1), "name": k.name, "path": k.path, "target": k.target,
                    "warps": k.num_warps, "costliest": costliest_text(k), "conversions": conversions_text(k.conversions),
                    "shared": k.shared_bytes, "compiler": k.compiler_shared_bytes,
                    "note": _short_note(k), "asm": asm_agreement(k), "notes": notes_of(k),
                    "ops": [_op_row(o) for o in ops]})
    line = (f"{plural(s.kernels, 'kernel')}, ranked by layout cost; shared bytes: {s.shared_equal} equal to the compiler's, "
            f"{s.shared_explained} differ for a known reason, {len(s.shared_unexplained)} unexplained"
            + (f", {s.shared_unknown} without the compiler's figure" if s.shared_unknown else "")
            + (f"; {s.failed} not audited" if s.failed else ""))
    return _shown({"title": where, "summary": line, "kernels": out,
                   "failures": [{"name": f.name, "path": f.path, "reason": f.reason} for f in failures]})


def _shown(value):
    """Every string of the page's data `escaped` as the text reports are (a bidirectional override or a control
    character from a file name or a location is shown, not obeyed)."""
    if isinstance(value, str):
        return escaped(value)
    if isinstance(value, list):
        return [_shown(v) for v in value]
    if isinstance(value, dict):
        return {k: _shown(v) for k, v in value.items()}
    return value


def page(results, where: str) -> str:
    """The whole page."""
    data = script_json(page_data(results, where))
    script = resources.files(__package__).joinpath("kernels.js").read_text(encoding="utf-8").replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>ttlayout audit: {html.escape(escaped(where))}</title><style>{STYLE}</style></head><body>\n"
            + BODY + f'<script type="application/json" id="ttl-data">{data}</script>\n'
            + f"<script>\n{script}</script>\n</body></html>\n")


def _e(value) -> str:
    """A value as HTML text: escaped for HTML and for the terminal-unsafe characters the reports escape."""
    return html.escape(escaped("-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)))


def _row(tag: str, values) -> str:
    return "<tr>" + "".join(f"<{tag}>{_e(v)}</{tag}>" for v in values) + "</tr>"


def fragment(results, where: str, top: int | None = 10) -> str:
    """The kernels as static HTML (no script, for a notebook): the kernel table, then each kernel's `top`
    costliest ops in a <details>."""
    data = page_data(results, where)
    table = _row("th", ("#", "cost", "kernel", "target", "warps", "costliest op", "conversions",
                        "shared (model / compiler)", "note", "asm lines")) + "".join(
        _row("td", (k["rank"], k["cost"], k["name"], k["target"], k["warps"], k["costliest"], k["conversions"],
                    f"{k['shared']} / {'-' if k['compiler'] is None else k['compiler']}", k["note"], k["asm"]))
        for k in data["kernels"])
    details = "".join(
        f"<details><summary>{_e(k['name'])}: {len(k['ops'])} ops</summary><table>"
        + _row("th", ("cost", "line", "op", "python", "layouts", "verdict", "asm (its Python line)"))
        + "".join(_row("td", op) for op in k["ops"][:top]) + "</table></details>"
        for k in data["kernels"] if k["ops"])
    failed = "".join(f"<li><b>{_e(f['name'])}</b>: {_e(f['reason'])}</li>" for f in data["failures"])
    return (f"<div><b>ttlayout audit {_e(where)}</b><br>{_e(data['summary'])}<table>{table}</table>"
            + (f"<p>not audited:</p><ul>{failed}</ul>" if failed else "") + details + "</div>")
