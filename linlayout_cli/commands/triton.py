"""`--triton X.Y|auto` (or `TTLAYOUT_TRITON`): which Triton release print, info, lookup and diff speak.

Taken off the command line before any command reads it (`take`), so every command accepts it in the same place;
the release's table (`attributes.releases`) is imported only when another release than 3.9 is named. `auto` reads
the installed Triton's version from package metadata, never importing Triton, and says so in one note line."""
from __future__ import annotations

import os
import re

from ..attributes import TRITON
from ..errors import TTLayoutError, abbreviate

ENV = "TTLAYOUT_TRITON"
DEFAULT = TRITON
RELEASE_COMMANDS = ("print", "info", "lookup", "diff")
COMPILER_COMMANDS = ("convert", "bank", "swizzle", "audit", "advise")


def take(argv: list[str]) -> tuple[list[str], str | None]:
    """(argv without `--triton VALUE` / `--triton=VALUE`, the value or None); the last one given wins.

    >>> take(["-l", "x", "--triton", "3.4", "-t", "y"])
    (['-l', 'x', '-t', 'y'], '3.4')
    """
    out, value = [], None
    k = 0
    while k < len(argv):
        a = argv[k]
        if a == "--triton":
            if k + 1 >= len(argv):
                raise TTLayoutError(f"--triton needs a value: a Triton release ({_known()}) or auto")
            value = argv[k + 1]
            k += 2
            continue
        if a.startswith("--triton="):
            value = a[len("--triton="):]
            k += 1
            continue
        if a == "--":
            out += argv[k:]
            break
        out.append(a)
        k += 1
    return out, value


def _known() -> str:
    from ..attributes.releases import known
    return known()


def _installed() -> str | None:
    import importlib.metadata
    try:
        return importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        return None


def choose(value: str | None, note) -> str:
    """The release named by `value` (the option, else `TTLAYOUT_TRITON`, else 3.9): 'X.Y'."""
    source = "--triton"
    if value is None:
        value = os.environ.get(ENV) or DEFAULT
        source = ENV
    value = value.strip()
    if value == "auto":
        version = _installed()
        if version is None:
            note(f"{source} auto: no Triton installed; printing as Triton {DEFAULT}")
            return DEFAULT
        m = re.match(r"(\d+)\.(\d+)", version)
        release = f"{m.group(1)}.{m.group(2)}" if m else version
        from ..attributes.releases import RELEASES
        if release not in RELEASES:
            raise TTLayoutError(f"{source} auto: the installed Triton is {abbreviate(version, 40)}, a release ttlayout "
                                f"does not know (known: {_known()})")
        note(f"{source} auto: Triton {version} is installed; printing as Triton {release}")
        return release
    if value == DEFAULT:
        return DEFAULT
    from ..attributes.releases import RELEASES
    if value not in RELEASES:
        raise TTLayoutError(f"unknown Triton release '{abbreviate(value, 40)}' for {source} (known: {_known()}, auto)")
    return value


def command_of(argv: list[str]) -> str:
    from . import COMMANDS, PRINT
    return argv[0] if argv and argv[0] in COMMANDS else PRINT


def activate(argv: list[str], value: str | None, note):
    """The Release to model for this command line (None: 3.9, nothing loaded); refuses the compiler models."""
    release = choose(value, note)
    if release == DEFAULT:
        return None
    command = command_of(argv)
    if command in COMPILER_COMMANDS:
        if value is None:                           # from the environment: say so, model 3.9 as always
            note(f"{command} models Triton {DEFAULT}'s compiler; {ENV}={release} applies to print, info, lookup and "
                 "diff only")
            return None
        raise TTLayoutError(f"{command} models Triton {DEFAULT}'s compiler (its lowering, shared memory and "
                            f"assembly); --triton {release} applies to print, info, lookup and diff only")
    from ..attributes.releases import RELEASES
    return RELEASES[release]
