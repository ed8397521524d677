"""Where a command's result goes, the same way for every command: `-o FILE` (the process's atomic sink; `-` and no
`-o` are standard output), then what is written: a picture (`--format svg|html`, where the command draws one), JSON
(`--json`, `--format json`), rich text on a terminal, plain text everywhere else (a pipe, a file, TTLAYOUT_PLAIN).
`ctx` (`commands.Context`) is the process's streams and output sink (see cli.execute)."""
from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only: rich loads when a bar is shown
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


def write_result(ctx, output: str | None, text, json, fmt: str = "text", as_json: bool = False, pictures=None,
                 rich=None) -> None:
    """Write one result: `text(write)`, `json(write)` or `pictures[fmt](write)` stream it in its form; `rich()`
    (the report as terminal text) replaces `text` when standard output is a terminal."""
    as_json = as_json or fmt == "json"
    draw = None if as_json else (pictures or {}).get(fmt)
    with ctx.sink(output) as write:
        if draw is not None:
            draw(write)
        elif as_json:
            json(write)
        elif rich is not None and output in (None, "-") and on_terminal():
            write(rich().encode("utf-8"))
        else:
            text(write)


def write_report(ctx, output: str | None, blocks, json_text, fmt: str = "text", as_json: bool = False,
                 pictures=None) -> None:
    """`write_result` for a report: `blocks()` (reports' text blocks) as plain text, written as it is made
    (`blocks.write_text`), or rich text; `json_text()` as JSON (or, where `json_text` has a `stream(write)`, that:
    JSON too large to hold)."""
    from ..reports.blocks import to_rich, write_text
    stream = getattr(json_text, "stream", None)     # a report that writes its JSON piece by piece

    def text(write) -> None:
        with Buffered(write) as put:
            write_text(blocks(), put)
    write_result(ctx, output, text, stream or (lambda write: write(json_text().encode("utf-8"))), fmt, as_json,
                 pictures, lambda: to_rich(blocks(), width()))


class Buffered:
    """A sink's `write(bytes)` taking text in small pieces: they are joined and encoded `size` characters at a
    time (a huge report's rows are written as they are made, without a system call per row)."""

    def __init__(self, write, size: int = 1 << 18):
        self.write, self.size = write, size
        self.pending: list[str] = []
        self.held = 0

    def __enter__(self):
        return self.put

    def put(self, text: str) -> None:
        self.pending.append(text)
        self.held += len(text)
        if self.held >= self.size:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.write("".join(self.pending).encode("utf-8"))
            self.pending.clear()
            self.held = 0

    def __exit__(self, *exc):
        if exc[0] is None:
            self.flush()


class Streamed:
    """A JSON report written piece by piece to the output (`write_report` passes the sink's `write(bytes)` to
    `stream`), never held whole."""

    def __init__(self, stream):
        self.stream = stream


def same_file(a: str, b: str) -> bool:
    """Whether two output paths name one file (the same path after symbolic links, or hard links of one file):
    two outputs of one command must not, or the second replaces the first."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


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


class Progress:
    """A progress bar (rich) on `stream` for a long run: shown only where `stream` is a terminal, and only once
    the run has lasted `delay` seconds, so short runs and pipes see nothing; gone when the run ends. Called as
    `progress(done, total)`."""

    def __init__(self, stream, what: str, delay: float = 1.0):
        import time
        self.stream, self.what, self.delay = stream, what, delay
        self.start = time.monotonic()
        self.bar: RichProgress | None = None
        self.task: TaskID | None = None
        try:
            self.wanted = bool(stream is not None and stream.isatty())
        except (AttributeError, ValueError, OSError):
            self.wanted = False

    def __enter__(self):
        return self

    def __call__(self, done: int, total: int) -> None:
        import time
        if self.bar is None:
            if not self.wanted or time.monotonic() - self.start < self.delay or done >= total:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            bar = Progress(TextColumn(self.what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                           console=Console(file=self.stream), transient=True)
            bar.start()
            self.bar, self.task = bar, bar.add_task(self.what, total=total)
        assert self.task is not None
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
