"""Every worked example (``>>>``) in a docstring is a doctest: it must run and print what it claims.

The modules are found by reading the sources: every module of the package, and every helper under ``scripts/``,
whose text holds a ``>>>`` line.  A new module's examples therefore run without any change here.  Each module must
run as many examples as it has ``>>>`` lines, so that an example doctest cannot see (in a comment, in a nested
function's docstring, after a broken indentation) fails this test instead of being skipped silently.
"""
from __future__ import annotations

import doctest
import importlib
import re

import pytest
from golden_cases import ROOT

PROMPT = re.compile(r"^\s*>>>( |$)", re.M)


def modules_with_examples() -> list[tuple[str, int]]:
    """(dotted module name, number of ``>>>`` lines) of every source file of linlayout_cli/ and scripts/ with one."""
    found = []
    for top in ("linlayout_cli", "scripts"):
        for path in sorted((ROOT / top).rglob("*.py")):
            count = len(PROMPT.findall(path.read_text(encoding="utf-8")))
            if count and path.name != "__main__.py":
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append((".".join(parts[:-1] if parts[-1] == "__init__" else parts), count))
    return found


MODULES = modules_with_examples()


def test_examples_are_found():
    names = {name for name, _ in MODULES}
    assert {"linlayout_cli.engine.linear_layout", "linlayout_cli.engine.gf2", "linlayout_cli.records",
            "scripts.oracle.printing"} <= names, names


@pytest.mark.parametrize("name, examples", MODULES, ids=[name for name, _ in MODULES])
def test_docstring_examples(name, examples, monkeypatch):
    if name.startswith("scripts."):
        monkeypatch.syspath_prepend(str(ROOT))      # scripts/ is no installed package
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        if name.startswith("scripts.") and e.name and e.name.split(".")[0] == "triton":
            pytest.skip(f"{name} needs Triton to import")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {name}"
    assert result.attempted == examples, (
        f"{name} has {examples} '>>>' lines but doctest ran {result.attempted} examples")
