"""Where a command's result goes, the same way for every command: `-o FILE` (the process's atomic sink; `-` and no
`-o` are standard output), then what is written: a picture (`--format svg|html`, where the command draws one), JSON
(`--json`, `--format json`), rich text on a terminal, plain text everywhere else (a pipe, a file, TTLAYOUT_PLAIN).
`obj` is the process's streams and output sink (see cli.execute)."""
from __future__ import annotations

import os
import sys


def write_result(obj, output: str | None, text, json, fmt: str = "text", as_json: bool = False, pictures=None,
                 rich=None) -> None:
    """Write one result: `text(write)`, `json(write)` or `pictures[fmt](write)` stream it in its form; `rich()`
    (the report as terminal text) replaces `text` when standard output is a terminal."""
    as_json = as_json or fmt == "json"
    draw = None if as_json else (pictures or {}).get(fmt)
    with obj["sink"](output) as write:
        if draw is not None:
            draw(write)
        elif as_json:
            json(write)
        elif rich is not None and output in (None, "-") and on_terminal():
            write(rich().encode("utf-8"))
        else:
            text(write)


def write_report(obj, output: str | None, blocks, json_text, fmt: str = "text", as_json: bool = False,
                 pictures=None) -> None:
    """`write_result` for a report: `blocks()` (reports' text blocks) as plain or rich text, `json_text()` as
    JSON."""
    from ..reports.blocks import to_rich, to_text
    write_result(obj, output, lambda write: write(to_text(blocks()).encode("utf-8")),
                 lambda write: write(json_text().encode("utf-8")), fmt, as_json, pictures,
                 lambda: to_rich(blocks(), width()))


def on_terminal() -> bool:
    """Standard output is a terminal and TTLAYOUT_PLAIN is not set."""
    if os.environ.get("TTLAYOUT_PLAIN"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def width() -> int:
    import shutil
    return max(60, min(160, shutil.get_terminal_size((120, 24)).columns))
