"""Click's own mistakes (an unknown option, an option without its value, a bad choice, a word too many) in
ttlayout's voice: one lower-case clause naming the word, and a hint where one helps (`--element 5 7` ->
`--element 5,7`; an unquoted layout -> quote it). `cli` writes the result as its one error line."""
from __future__ import annotations

import re

from ..errors import abbreviate
from . import PRINT, SUBCOMMANDS, load


def our_words(e, argv: list[str]) -> str:
    """The message of click's usage error `e` for the command line `argv`.

    >>> import click
    >>> our_words(click.NoSuchOption("--colour", possibilities=["--color"]), ["-l", "x", "--colour"])
    "unknown option '--colour' (did you mean '--color'?)"
    """
    import click
    message = e.format_message()
    if isinstance(e, click.NoSuchOption):
        close = f" (did you mean '{e.possibilities[0]}'?)" if e.possibilities else ""
        return f"unknown option '{abbreviate(e.option_name, 40)}'{close}"
    m = re.fullmatch(r"Option '(.+)' requires (?:an argument|(\d+) arguments)\.", message)
    if m:
        return f"{m.group(1)} needs a value{_example(argv, m.group(1))}"
    m = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", message, re.S)
    if m:
        return _extra(argv, m.group(1))
    if isinstance(e, click.BadParameter) and e.param is not None:
        name = (e.param.opts or [e.param.name or "value"])[0]
        return f"invalid {name}: {_clause(e.message)}"
    return _clause(message)


def _clause(text: str) -> str:
    """Click's sentence as a clause: no capital, no final full stop, choices listed plainly.

    >>> _clause("'png' is not one of 'text', 'json'.")
    "'png' is not one of text, json"
    >>> _clause("0 is not in the range x>=1.")
    '0 is below the minimum 1'
    """
    text = text.strip().rstrip(".")
    m = re.fullmatch(r"(.*) is not one of (.*)", text, re.S)
    if m:
        text = f"{m.group(1)} is not one of {m.group(2).replace(chr(39), '')}"
    text = re.sub(r" is not a valid integer( range)?$", " is not an integer", text)
    m = re.fullmatch(r"(.*) is not in the range x>=(-?\d+)", text, re.S)
    if m:
        text = f"{m.group(1)} is below the minimum {m.group(2)}"
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def help_name(argv: list[str]) -> str:
    """'ttlayout audit' for a subcommand's line, 'ttlayout' for the print command's: where --help helps."""
    return f"ttlayout {argv[0]}" if argv[:1] and argv[0] in SUBCOMMANDS else "ttlayout"


def _module(argv: list[str]):
    name = argv[0] if argv and argv[0] in SUBCOMMANDS else PRINT
    return name, load(name)


def _example(argv: list[str], option: str) -> str:
    """' (e.g. -t 'tensor<64x64xf16>')' from the option's metavar, where the command declares it."""
    _, module = _module(argv)
    for opt in getattr(module, "OPTIONS", ()):
        if option in opt.decls:
            if isinstance(opt.type, tuple):
                return f" (one of {', '.join(opt.type)})"
            return f" ({option} {opt.metavar})" if opt.metavar else ""
    return ""


def _extra(argv: list[str], words: str) -> str:
    """A word too many: what the command takes, and the likely fix (a list written with spaces, an unquoted
    layout)."""
    extra = words.split(" ")[0]
    shown = abbreviate(extra, 40)
    if argv[:1] == ["help"]:
        return f"unexpected argument '{shown}': 'ttlayout help' takes one COMMAND or TOPIC"
    name, module = _module(argv)
    args = getattr(module, "ARGUMENTS", ())
    takes = (f"'ttlayout {name}' takes {' '.join(a.metavar for a in args)}" if args and name != PRINT else
             f"'ttlayout{'' if name == PRINT else ' ' + name}' takes no positional argument")
    lists = {d for opt in getattr(module, "OPTIONS", ()) if opt.metavar and "," in opt.metavar for d in opt.decls}
    where = _last_index(argv, extra)
    if where is not None and where >= 2 and argv[where - 2] in lists:
        option, value = argv[where - 2], argv[where - 1]
        rest = [w for w in argv[where:] if not w.startswith("-")]
        joined = ",".join([value, *rest[:len(words.split(" "))]])
        return f"unexpected argument '{shown}': a list is one word, comma separated: {option} {joined}"
    if re.search(r"[=<>{}\[\]#]", words):
        return (f"unexpected argument '{shown}': {takes}; quote a layout or type that has spaces "
                "(-l '#ttg.blocked<{...}>')")
    return f"unexpected argument '{shown}': {takes}"


def _last_index(argv: list[str], word: str) -> int | None:
    for i in range(len(argv) - 1, -1, -1):
        if argv[i] == word:
            return i
    return None

