"""Command-line options declared once, as data. click builds each command's options from them for help, errors
and shell completion (`group.click_command`); `quick` reads a plain command line with the same declarations
without loading click, which costs about 25 ms, a quarter of a short command's time.

A line is plain when every word is a known option with a well-formed value (or a positional argument), no
single-value option repeats, and nothing asks for help. Anything else, every mistake included, goes to click,
so click's messages stay the only ones.
"""
from __future__ import annotations

from ..inputs import DEFAULT_MAX_ELEMENTS
from ..records import frozen


@frozen
class Opt:
    """One option. kind: "once" (a value, at most once), "multi" (repeatable, a tuple of values), "flag".
    type: str, int or a tuple of the accepted choices; `minimum` bounds an int. `legacy`: old spellings that are
    still accepted (they are in `decls`) but no longer shown in the help."""
    decls: tuple
    name: str
    kind: str = "once"
    type: object = str
    minimum: int | None = None
    default: object = None
    metavar: str | None = None
    help: str = ""
    show_default: bool = False
    legacy: tuple = ()

    def empty(self):
        """The value when the option is not given."""
        return () if self.kind == "multi" else False if self.kind == "flag" else self.default


@frozen
class Arg:
    """A positional argument (`required`: it must be given; else it is None when left out). `many`: it takes
    every remaining word (a tuple, empty when none is given)."""
    name: str
    metavar: str
    required: bool = True
    many: bool = False


# ----------------------------------------------------------------------------------------- options many commands share

OUTPUT = Opt(("-o",), "output", metavar="FILE", help="Write to FILE instead of stdout ('-' = stdout), atomically: an "
             "error or a signal leaves no partial file.")
JSON = Opt(("--json",), "as_json", "flag", help="Print one JSON object instead of the report.")
INPUT = Opt(("-i",), "input_file", metavar="FILE", help="MLIR/TTGIR file whose '#name = <attr>' aliases the layouts "
            "may name ('-' = stdin).")
SECTION = Opt(("--section",), "section", metavar="N|PASS", help="With -i: the section whose aliases are read, in "
              "a file of several ('// -----' modules, or an MLIR_ENABLE_DUMP capture's passes): its number, or part "
              "of a pass name. Default: the first section that defines the aliases named; a dump's last TTGIR "
              "module.")
BITWIDTH = Opt(("--bitwidth",), "bitwidth", type=int, metavar="N", help="Element bit width (overrides the element "
               "type).")


MAX_ELEMENTS = Opt(("--max-elements",), "max_elements", type=int, minimum=1, default=DEFAULT_MAX_ELEMENTS, metavar="N",
                   show_default=True, help="Refuse tensors (or hardware index spaces) with more elements than this, "
                   "before allocating anything (the default keeps the output under about 1 GB; hard limit 2^31); "
                   "raise it for huge layouts.")


def format_option(pictures: str) -> Opt:
    """--format for a command that draws pictures: text, json, then `pictures` ('svg: what it shows; ...')."""
    names = tuple(part.split(":")[0].strip() for part in pictures.split(";"))
    return Opt(("--format",), "fmt", type=("text", "json", *names), default="text", show_default=True,
               help=f"text: the report; json: same as --json; {pictures}.")


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
    params = {opt.name: opt.empty() for opt in options} | {arg.name: () if arg.many else None for arg in arguments}
    given: set = set()
    positional = list(arguments)
    words = iter(argv)
    for word in words:
        name, eq, attached = word.partition("=") if word.startswith("--") else (word, "", "")
        opt = by_decl.get(name)
        if opt is None:
            if positional and (word == "-" or not word.startswith("-")):
                arg = positional[0]
                if arg.many:
                    params[arg.name] += (word,)
                else:
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
    return None if any(arg.required and not (arg.many and params[arg.name]) for arg in positional) else params
