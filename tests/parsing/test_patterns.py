"""`patterns.lazy`: a module-level regex compiled at its first use, answering exactly as the compiled pattern."""
from __future__ import annotations

import re

from linlayout_cli.patterns import lazy


def test_a_lazy_pattern_compiles_at_first_use_only(monkeypatch):
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda p, f=0: compiled.append(p) or real(p, f))
    words = lazy(r"(?P<word>[a-z]+)(\d*)", re.I)
    assert compiled == [] and (words.pattern, words.flags) == (r"(?P<word>[a-z]+)(\d*)", re.I)
    assert words.match("Ab12 cd").group("word") == "Ab"
    assert words.search("  xy").span() == (2, 4)
    assert compiled == [r"(?P<word>[a-z]+)(\d*)"]            # once, whatever is asked next


def test_a_lazy_pattern_answers_as_the_compiled_one():
    text = "tensor<16x16xf16, #blocked> loc(#loc3)\n// -----\nx = 4 : i32"
    for source, flags in [(r"\d+", 0), (r"^// -----.*$", re.M), (r"(#\w+)|(\d+)x", 0), (r"[a-z]+", re.I)]:
        lazy_one, real = lazy(source, flags), re.compile(source, flags)
        assert lazy_one.findall(text) == real.findall(text)
        assert [m.span() for m in lazy_one.finditer(text)] == [m.span() for m in real.finditer(text)]
        assert lazy_one.sub("_", text) == real.sub("_", text) and lazy_one.subn("_", text) == real.subn("_", text)
        assert lazy_one.split(text) == real.split(text)
        assert (lazy_one.fullmatch(text) is None) == (real.fullmatch(text) is None)
        assert (lazy_one.groups, lazy_one.groupindex) == (real.groups, real.groupindex)
        for at in (0, 7, 28):
            ours, theirs = lazy_one.match(text, at), real.match(text, at)
            assert (ours and ours.span()) == (theirs and theirs.span())
