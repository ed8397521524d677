"""Errors ttlayout reports as one clean line (exit 1) instead of a traceback."""


class TTLayoutError(Exception):
    """Base class: the message is what the user sees after 'ttlayout: error: '. `line`, `column`: where in the text
    read the error is, for the errors that know (a parse error; a verify error in file mode)."""
    line: int | None = None
    column: int | None = None


class ParseError(TTLayoutError):
    """Text that is not a valid attribute, type or MLIR file; message names column and what was expected."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.line: int = line
        self.column: int = column


class VerifyError(TTLayoutError):
    """An attribute that parses but breaks one of Triton's verification rules (Triton's own message)."""


class UnsupportedError(TTLayoutError):
    """Something Triton cannot render (or ttlayout does not render yet)."""


class ShapeError(TTLayoutError):
    """Tensor shape that cannot be laid out with the given attribute (rank, power of two, size limits)."""


class LayoutError(TTLayoutError):
    """An impossible linear-layout operation (non-surjective bases, mismatched dims, no solution)."""


HARD_MAX_ELEMENTS = 1 << 31           # no tensor or hardware index space above 2^31 elements, whatever the limit
MAX_ELEMENTS = 1 << 26                # the default limit: about 1 GB of tensor-view text at ~16 bytes per element


class TooManyElements(ShapeError):
    """More elements than the limit `limit` allows (the command layer adds how to raise it)."""

    def __init__(self, message: str, limit: int):
        super().__init__(message)
        self.limit = limit


def check_size(count: int, what: str, max_elements: int = MAX_ELEMENTS) -> None:
    """Refuse `what` (a tensor, a hardware index space) of `count` elements when that is more than `max_elements`
    (at most 2^31): the check comes before anything of that size is allocated."""
    limit = min(max_elements, HARD_MAX_ELEMENTS)
    if count > limit:
        shown = str(count) if count.bit_length() <= 64 else f"about 2^{count.bit_length() - 1}"
        raise TooManyElements(f"{what} has {shown} elements, more than the limit of {limit}", limit)


def escaped(text: str) -> str:
    """`text` with every character that is not printable shown as its Python escape: C0 and C1 controls (ESC,
    CSI U+009B, BEL, newlines), bidirectional overrides (U+202E) and other format characters, lone surrogates.
    What a terminal shows is then exactly the text; printable text comes back unchanged.

    >>> print(escaped("f.py" + chr(0x1b) + "]0;x" + chr(7) + chr(0x202e) + chr(0x9b)))
    f.py\\x1b]0;x\\x07\\u202e\\x9b
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def printable(text: str) -> str:
    """Whitespace runs (newlines included) become one space; other unprintable characters (NUL, ESC, lone
    surrogates from non-UTF-8 argv bytes) are shown escaped, so an echoed input can neither break the one-line
    rule nor drive the terminal."""
    return escaped(" ".join(str(text).split()))


def abbreviate(text: str, limit: int = 80) -> str:
    """`text` made printable and cut to `limit` characters (with '...'), for quoting user input in a message."""
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def abbreviate_path(path: str, limit: int = 80) -> str:
    """A file path made printable and cut in the middle to `limit` characters, keeping its end (the file's own
    name is what a reader looks for).

    >>> abbreviate_path("/tmp/" + "x" * 100 + "/out.svg", 30)
    '/tmp/xxxxxxxxxxxxxx.../out.svg'
    """
    text = printable(str(path))
    if len(text) <= limit:
        return text
    tail = text[text.rfind("/"):] if "/" in text else ""
    tail = tail if len(tail) <= limit // 2 else tail[-(limit // 2):]
    return text[: limit - 3 - len(tail)] + "..." + tail
