"""Regular expressions compiled when first used, for the module-level patterns a short run never touches.

Compiling a pattern costs 50 to 400 µs, and most modules keep a handful for inputs that few runs meet (a dump's
`// -----` sections, dialect types, `loc(...)` calls): the 16x16 print left 12 of its 21 compiled patterns unused and
a kernel's audit about 40 of 80. `lazy(text)` stands for `re.compile(text)` at no import cost: the first call of one
of its methods compiles it and keeps the compiled pattern's bound methods on the object, so later calls cost what a
compiled pattern's do.

>>> SPACES = lazy(r"\\s+")
>>> SPACES.sub(" ", "a  b"), SPACES.pattern
('a b', '\\\\s+')
"""
from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:      # what type checkers see: a compiled pattern
    def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]: ...
else:
    def lazy(pattern, flags=0):
        """`re.compile(pattern, flags)`, compiled at its first use."""
        return _Lazy(pattern, flags)


_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split", "scanner")


class _Lazy:
    """A pattern's text and flags until a method is first asked for (then its `re.Pattern`'s methods)."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str):
        """Called only for a name the object does not hold yet: compile once, then hold every method."""
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.groups, self.groupindex = compiled.groups, compiled.groupindex
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self.flags})"
