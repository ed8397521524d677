"""A layout as one self-contained interactive HTML page: no network, no CDN.

The page embeds each layout's bases (a few hundred bytes), never its grid; ``page.js`` (shipped as package data and
inlined into the page) solves the layout's linear system in the browser and draws only the visible cells on a
canvas, so a 4096x4096 tensor is a page of a few tens of KB. Hovering a cell shows who holds it, clicking a cell
highlights its thread (shared layouts: its bank; tensor memory: its TMEM row), the page switches between tensor and
hardware view and finds a thread, a row or an element. Padded, partitioned and tensor memory layouts carry what
their views need besides the bases (the padding; the element width and the unused row and column bits).
"""
from __future__ import annotations

import html
import json
from importlib import resources

from ..errors import UnsupportedError, escaped

MAX_BITS = 31           # the page computes with 32-bit integers


def page_script() -> str:
    return resources.files(__package__).joinpath("page.js").read_text(encoding="utf-8")


def layout_spec(title: str, layout, element_bits: int, name: str | None = None, shown=None) -> dict:
    """What the page needs of one layout: its kind, shape and bases (Triton's, per input dimension); `shown` (an
    inputs.Printed) adds what a padded / partitioned / tensor memory view needs: the padding, or the element width
    and the unused row and column bits (analysis.info.tmem_unused)."""
    shared = layout.has_in_dim("offset")
    sizes = [layout.get_out_dim_size(d) for d in layout.out_dims]
    for what, bits in (("hardware indices", layout.get_total_in_dim_size_log2()),
                       ("elements", layout.get_total_out_dim_size_log2())):
        if bits > MAX_BITS:
            raise UnsupportedError(f"the layout has 2^{bits} {what}; the HTML page handles at most 2^{MAX_BITS} "
                                   "(use --format svg)")
    spec = {"title": title, "name": name or title.split("<", 1)[0], "kind": "shared" if shared else "distributed",
            "shape": sizes, "elementBits": element_bits,
            "bases": {d: [list(b) for b in layout.get_in_dim_bases(d)] for d in layout.in_dims}}
    view = getattr(shown, "view", "triton")
    if view == "tensor_memory":
        from ..analysis.info import tmem_unused
        spec.update(kind="tmem", elementBits=shown.element_bits, unused=list(tmem_unused(layout)))
    elif view == "shared_memory" and shown.padding is not None:
        spec["padding"] = [list(ip) for ip in zip(shown.padding.intervals, shown.padding.paddings)]
    return spec


STYLE = """
*{box-sizing:border-box}
body{margin:0;font:13px system-ui,sans-serif;color:#111;display:flex;flex-direction:column;height:100vh}
header{padding:6px 10px;border-bottom:1px solid #ddd;background:#fafafa}
#title{font:12px 'DejaVu Sans Mono',Menlo,monospace;word-break:break-all}
#shape{color:#555;margin:2px 0}
#controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-top:4px}
button{font:inherit;padding:2px 8px;border:1px solid #bbb;background:#fff;border-radius:3px;cursor:pointer}
button.on{background:#333;color:#fff;border-color:#333}
#search{width:22em;font:inherit;padding:2px 4px}
#status{min-height:1.3em;color:#a00060;font-weight:600;margin-top:4px;white-space:pre-wrap}
#wrap{position:relative;flex:1;min-height:200px}
#grid{position:absolute;inset:0;width:100%;height:100%;cursor:crosshair}
#tip{position:absolute;display:none;pointer-events:none;background:#222;color:#fff;padding:4px 7px;
  border-radius:3px;font:12px 'DejaVu Sans Mono',Menlo,monospace;white-space:pre;z-index:2}
#legend{padding:6px 10px;border-top:1px solid #ddd;background:#fafafa;line-height:1.8}
.sw{display:inline-block;margin-right:8px;white-space:nowrap}
.sw i{display:inline-block;width:12px;height:12px;vertical-align:-2px;margin-right:3px;border:1px solid #999}
"""

BODY = """<header>
<div id="title"></div><div id="shape"></div>
<div id="controls"><select id="layout"></select>
<button id="v-tensor">Tensor view</button><button id="v-hardware">Hardware view</button>
<input id="search" placeholder="{placeholder}"><button id="go">Find</button>
<button id="zout">&minus;</button><button id="zin">+</button><button id="fit">Fit</button>
<span style="color:#777">wheel: zoom &middot; drag: pan &middot; click: highlight &middot; Esc: clear</span></div>
<div id="status"></div></header>
<div id="wrap"><canvas id="grid"></canvas><div id="tip"></div></div>
<div id="legend"></div>
"""


def script_json(obj) -> str:
    """JSON that can sit inside a <script> element whatever its strings hold: '<', '>' and '&' are written as
    \\u003c, \\u003e, \\u0026, so no `</script>` or `<!--` (which would swallow the rest of the page) can appear;
    ASCII only, so no control character either. JSON.parse reads the same values back.

    >>> script_json({"t": "<!--<script>&"})
    '{"t":"\\\\u003c!--\\\\u003cscript\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(specs: list[dict], use_hw_view: bool) -> str:
    """The whole page for one or more layout specs."""
    data = script_json({"layouts": specs, "view": "hardware" if use_hw_view else "tensor"})
    shared = all(s["kind"] == "shared" for s in specs)
    placeholder = ("element 3,5 / offset 12 / bank 4" if shared else "row R37 / element 3,5"
                   if all(s["kind"] == "tmem" for s in specs) else "thread T37 / element 3,5")
    title = html.escape(escaped(specs[0]["title"]) if len(specs) == 1 else f"{len(specs)} layouts")
    script = page_script().replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>ttlayout: {title}</title><style>{STYLE}</style></head><body>\n"
            + BODY.replace("{placeholder}", placeholder)
            + f'<script type="application/json" id="ttl-data">{data}</script>\n'
            + f"<script>\n{script}</script>\n</body></html>\n")


def render_html(layouts, use_hw_view: bool, element_bits, write) -> None:
    """One page of (title, shown) pairs (`shown`: inputs.Printed); element_bits: one per layout."""
    specs = [layout_spec(title, shown.linear, bits, shown=shown) for (title, shown), bits in zip(layouts, element_bits)]
    write(page(specs, use_hw_view).encode())
