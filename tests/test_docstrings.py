"""The worked examples in the engine's docstrings are doctests: they must run and print what they claim.

Each module has a floor on the number of examples, so that deleting or breaking the ``>>>`` lines (which
doctest would silently skip) fails this test too.
"""
from __future__ import annotations

import doctest

import pytest

from linlayout_cli.engine import bits, gf2, linear_layout

MODULES = [(linear_layout, 63), (gf2, 14), (bits, 4)]


@pytest.mark.parametrize("module, min_examples", MODULES, ids=[m.__name__ for m, _ in MODULES])
def test_docstring_examples(module, min_examples):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {module.__name__}"
    assert result.attempted >= min_examples, f"only {result.attempted} doctest examples in {module.__name__}"
