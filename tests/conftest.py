"""Shared test configuration: Hypothesis profiles for the property and fuzz tests.

* ``ci`` (default): deterministic (derandomized, no example database), a bounded number of examples per
  test and no per-example deadline (a deadline is a timing assertion, flaky on a loaded machine; the deep
  profile keeps one), so that the fuzz and property tests together take well under a minute on two cores;
* ``deep`` (``TTLAYOUT_FUZZ=deep``): random seeds, many more examples per test (``TTLAYOUT_FUZZ_EXAMPLES``,
  default 5,000; the fuzz tests of test_fuzz.py run 3 times as many) and the failure database, for a longer fuzzing session.

The number of generated cases that ran clean is printed at the end of the run ("ttlayout fuzz: ..."), added up
over pytest-xdist's workers when the run is parallel.
"""
from __future__ import annotations

import collections
import os

import pytest
from hypothesis import HealthCheck, Phase, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
            HealthCheck.large_base_example]

settings.register_profile(
    "ci", max_examples=120, deadline=None, derandomize=True, database=None, print_blob=True,
    suppress_health_check=_SLOW_OK, phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target,
                                            Phase.shrink])
settings.register_profile(
    "deep", max_examples=int(os.environ.get("TTLAYOUT_FUZZ_EXAMPLES", "5000")), deadline=1000,
    derandomize=False, print_blob=True, suppress_health_check=_SLOW_OK)
PROFILE = "deep" if os.environ.get("TTLAYOUT_FUZZ", "").lower() == "deep" else "ci"
settings.load_profile(PROFILE)

# generated cases that ran clean, by kind (filled by the fuzz/property tests through the fixture)
FUZZ_CASES: collections.Counter = collections.Counter()


@pytest.fixture(scope="session")
def fuzz_counter() -> collections.Counter:
    """`fuzz_counter[kind] += 1` for every generated case that ran clean (reported at the end of the run)."""
    return FUZZ_CASES


def pytest_sessionfinish(session):
    """An xdist worker hands its counts to the controller (`pytest_testnodedown`)."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["ttlayout_fuzz"] = dict(FUZZ_CASES)


def pytest_testnodedown(node, error):
    FUZZ_CASES.update(getattr(node, "workeroutput", {}).get("ttlayout_fuzz", {}))


def pytest_terminal_summary(terminalreporter):
    if FUZZ_CASES:
        total = sum(FUZZ_CASES.values())
        parts = ", ".join(f"{name} {n}" for name, n in sorted(FUZZ_CASES.items()))
        terminalreporter.write_line(f"ttlayout fuzz ({PROFILE} profile): {total} generated cases ran clean ({parts})")


# `python -m pytest -m quick`: a subset that runs in about a minute (the whole suite takes 5-10 minutes): parsing,
# the engine, the command line's errors and the new user's frictions, diff; the golden, fuzz, cache and browser
# suites are left out
QUICK = {"parsing/test_parser.py", "engine/test_engine.py", "commands/test_cli_errors.py",
         "commands/test_new_user_frictions.py", "analysis/test_diff.py"}


def pytest_collection_modifyitems(config, items):
    """Mark the tests of the QUICK files `quick`."""
    for item in items:
        rel = item.path.relative_to(item.config.rootpath / "tests").as_posix() if item.path.is_relative_to(
            item.config.rootpath / "tests") else ""
        if rel in QUICK:
            item.add_marker(pytest.mark.quick)
