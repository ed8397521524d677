"""Start-up of two whole `ttlayout` processes, this checkout against another, paired run by run.

    python benchmarks/startup.py BASE_CHECKOUT [--pairs N] [--kernel NAME ...]

The figures issue 29 keeps from getting worse: the README's first example (the 16x16 print) and one kernel's
audit (`tests/data/kernels/NAME.ttgir`, flash_attention.sm90 by default; give --kernel more than once for more).
BASE_CHECKOUT is another checkout of this repository, for example `git worktree add /tmp/base 6c577f3`.

Each figure runs `python -m linlayout_cli ...` with PYTHONPATH set to one tree and then the other, in turn
(A B A B ...), N pairs after one warm-up each, from an empty scratch directory: `-m` puts the current directory
first on sys.path, so running from inside a checkout would import that checkout's package for both sides. Both
trees are byte-compiled first (a stale or missing .pyc is a compile in every run). A run's figure is its CPU time
(user + system, from wait4's rusage of that process alone), and the ratio this/base is taken pair by pair, so
that a machine whose speed drifts (shared cores) moves both sides of a pair alike. The outputs of both sides
are compared too: a difference is reported, since a faster wrong answer is no answer.
"""
from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README_EXAMPLE = ["-l", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
                  "order = [1, 0]}>", "-t", "tensor<16x16xf16>"]


def one_run(tree: str, args: list[str], cwd: str) -> tuple[float, bytes]:
    """(CPU seconds of one whole process, its stdout) of `python -m linlayout_cli ARGS` importing `tree`."""
    env = dict(os.environ, PYTHONPATH=tree)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out_path = os.path.join(cwd, "stdout")
    actions = [(os.POSIX_SPAWN_OPEN, 1, out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
               (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    here = os.getcwd()
    os.chdir(cwd)                       # posix_spawn starts the child in the parent's directory
    try:
        pid = os.posix_spawn(sys.executable, [sys.executable, "-m", "linlayout_cli", *args], env,
                             file_actions=actions)
    finally:
        os.chdir(here)
    _, _, usage = os.wait4(pid, 0)
    with open(out_path, "rb") as f:
        return usage.ru_utime + usage.ru_stime, f.read()


def paired(this: str, base: str, args: list[str], pairs: int, cwd: str) -> dict:
    """Run both trees in turn `pairs` times (after one warm-up each): CPU medians, ratios, whether outputs agree."""
    for tree in (this, base):
        one_run(tree, args, cwd)
    a, b, ratios, same = [], [], [], True
    for _ in range(pairs):
        ta, out_a = one_run(this, args, cwd)
        tb, out_b = one_run(base, args, cwd)
        a.append(ta)
        b.append(tb)
        ratios.append(ta / tb if tb else float("nan"))
        same = same and out_a == out_b
    return {"this": statistics.median(a), "base": statistics.median(b), "ratio": statistics.median(ratios),
            "min": min(ratios), "max": max(ratios), "same": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="another checkout of this repository (the tree to compare with)")
    parser.add_argument("--pairs", type=int, default=21)
    parser.add_argument("--kernel", action="append", help="a kernel of tests/data/kernels (without .ttgir)")
    opts = parser.parse_args()
    base = os.path.abspath(opts.base)
    for tree in (ROOT, base):
        compileall.compile_dir(os.path.join(tree, "linlayout_cli"), quiet=1)
    figures = [("16x16 print (README)", README_EXAMPLE)]
    for name in opts.kernel or ["flash_attention.sm90"]:
        figures.append((f"audit {name}", ["audit", os.path.join(ROOT, "tests", "data", "kernels", name + ".ttgir")]))
    print(f"{'figure':<34} {'pairs':>5} {'this ms':>8} {'base ms':>8} {'ratio':>6} {'min':>6} {'max':>6}  output")
    with tempfile.TemporaryDirectory() as scratch:
        for title, args in figures:
            r = paired(ROOT, base, args, opts.pairs, scratch)
            print(f"{title:<34} {opts.pairs:>5} {r['this'] * 1e3:>8.1f} {r['base'] * 1e3:>8.1f} {r['ratio']:>6.3f} "
                  f"{r['min']:>6.3f} {r['max']:>6.3f}  {'same' if r['same'] else 'DIFFERS'}")


if __name__ == "__main__":
    main()
