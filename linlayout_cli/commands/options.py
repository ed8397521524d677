"""Command-line options declared once, as data. click builds each command's options from them for help, errors
and shell completion (`group.click_command`); `quick` reads a plain command line with the same declarations
without loading click, which costs about 25 ms, a quarter of a short command's time.

A line is plain when every word is a known option with a well-formed value (or a positional argument), no
single-value option repeats, and nothing asks for help. Anything else, every mistake included, goes to click,
so click's messages stay the only ones.
"""
from __future__ import annotations

from ..records import frozen


@frozen
class Opt:
    """One option. kind: "once" (a value, at most once), "multi" (repeatable, a tuple of values), "flag".
    type: str, int or a tuple of the accepted choices; `minimum` bounds an int."""
    decls: tuple
    name: str
    kind: str = "once"
    type: object = str
    minimum: int | None = None
    default: object = None
    metavar: str | None = None
    help: str = ""
    show_default: bool = False

    def empty(self):
        """The value when the option is not given."""
        return () if self.kind == "multi" else False if self.kind == "flag" else self.default


@frozen
class Arg:
    """A required positional argument."""
    name: str
    metavar: str


def _value(opt: Opt, text: str):
    """The converted value, or None where click must judge it."""
    if opt.type is int:
        try:
            value = int(text)
        except ValueError:
            return None
        return value if opt.minimum is None or value >= opt.minimum else None
    if isinstance(opt.type, tuple):
        return text if text in opt.type else None
    return text


def quick(argv: list[str], options, arguments=()) -> dict | None:
    """The parameters of a plain command line, or None.

    >>> opts = (Opt(("-t",), "tensor_type"), Opt(("--thread",), "thread", type=int), Opt(("--json",), "j", "flag"))
    >>> quick(["-t", "tensor<4xf16>", "--thread=3", "--json"], opts)
    {'tensor_type': 'tensor<4xf16>', 'thread': 3, 'j': True}
    >>> quick(["-t", "a", "-t", "b"], opts), quick(["--thread", "x"], opts), quick(["-h"], opts)
    (None, None, None)
    """
    by_decl = {d: opt for opt in options for d in opt.decls}
    params = {opt.name: opt.empty() for opt in options}
    given: set = set()
    positional = list(arguments)
    words = iter(argv)
    for word in words:
        name, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        opt = by_decl.get(name)
        if opt is None:
            if positional and (word == "-" or not word.startswith("-")):
                params[positional.pop(0).name] = word
                continue
            return None
        if opt.kind == "flag":
            if eq or opt.name in given:
                return None
            params[opt.name] = True
        else:
            text = attached if eq else next(words, None)
            if text is None or (not eq and text.startswith("-") and text != "-") or (
                    opt.kind == "once" and opt.name in given):
                return None
            value = _value(opt, text)
            if value is None:
                return None
            params[opt.name] = params[opt.name] + (value,) if opt.kind == "multi" else value
        given.add(opt.name)
    return None if positional else params
