"""ttlayout's bank-conflict analysis vs. Triton 3.9.0 (``GluonOpBuilder.get_shared_bank_conflicts``).

Golden data: ``golden/bank/cases.jsonl`` (``scripts/make_golden.py --suite bank``).  Where Triton
aborted (``exit`` != 0, ``conflicts`` null) ttlayout must raise its own clean error instead of returning a number.
"""
from __future__ import annotations

import pytest
from golden_cases import case_id, load_suite

from linlayout_cli.errors import TTLayoutError
from linlayout_cli.notebook import bank_conflicts

CASES = load_suite("bank")


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_bank_conflicts(case):
    args = (case["reg"], case["shared"], list(case["shape"]), case["bitwidth"])
    if case["exit"] != 0:
        with pytest.raises(TTLayoutError):
            bank_conflicts(*args)
        return
    got = bank_conflicts(*args)
    assert got == case["conflicts"], "ttlayout %r, Triton %r (%s)" % (got, case["conflicts"], case["note"])
