"""Command line of the golden generator: ``python3 -m scripts.golden [--suite S] [--list] [-j N]``.

Every suite but ``convert`` and ``shared_access`` is a ``Suite`` of cases run through the oracle pool by
``write.write_suite``; ``convert`` compiles kernels instead (``convert.write``), and its listing needs the pool for
Triton's linear layouts; ``shared_access`` (and ``advise``, which advises every test dump and compiles the changed
ones) compiles one kernel per case in its own subprocess
(``shared_access.generate``: about half an hour on two cores) and needs no pool."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter

from . import __doc__ as DOC
from . import advise, bank, convert, core, errors, files, gluon, memory, mma, shared_access
from .oracle import OraclePool
from .suite import Suite
from .write import summarize, write_suite

GENERATORS = {"core": core.generate, "files": files.generate, "errors": errors.generate, "mma": mma.generate,
              "bank": bank.generate, "gluon": gluon.generate,
              "memory": memory.generate}
SUITE_ORDER = list(GENERATORS) + ["convert", "shared_access", "advise"]


def build_suite(name):
    s = Suite(name)
    GENERATORS[name](s)
    return s


def listing(s):
    kinds = Counter(c.get("kind", "bank") for c in s.cases)
    sections = ", ".join("%s=%d" % (n, sec.count) for n, sec in s.sections.items())
    return ["%-7s %4d cases: %s" % (s.name, len(s.cases), dict(sorted(kinds.items()))),
            "        sections: " + sections]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m scripts.golden", description=DOC,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", action="append", choices=SUITE_ORDER, help="suite(s) to regenerate (default: all)")
    ap.add_argument("--list", action="store_true", help="only generate the cases and print counts")
    ap.add_argument("-j", "--jobs", type=int, default=min(8, os.cpu_count() or 1), help="oracle worker processes (and parallel compiles of convert)")
    a = ap.parse_args(argv)
    suites = a.suite or SUITE_ORDER
    built = [build_suite(n) for n in SUITE_ORDER if n in suites and n in GENERATORS]
    needs_pool = (built and not a.list) or "convert" in suites
    pool = OraclePool(a.jobs) if needs_pool else None
    try:
        if a.list:
            for s in built:
                print("\n".join(listing(s)))
            if "convert" in suites:
                print("\n".join(convert.listing(pool)))
            if "shared_access" in suites:
                print("\n".join(shared_access.listing()))
            if "advise" in suites:
                print("\n".join(advise.listing()))
            return 0
        for s in built:
            t0 = time.monotonic()
            lines, extra = write_suite(s, pool)
            print("\n".join(summarize(s.name, lines) + ["        " + x for x in extra]
                            + ["        %.0f s" % (time.monotonic() - t0)]), flush=True)
        if "convert" in suites:
            t0 = time.monotonic()
            print("\n".join(convert.write(pool, a.jobs) + ["        %.0f s" % (time.monotonic() - t0)]), flush=True)
        if "shared_access" in suites:
            shared_access.generate(a.jobs, None)
        if "advise" in suites:
            t0 = time.monotonic()
            print("\n".join(advise.summary(advise.generate(a.jobs)) + ["        %.0f s" % (time.monotonic() - t0)]),
                  flush=True)
    finally:
        if pool:
            pool.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
