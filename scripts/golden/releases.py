"""Suite ``releases``: the 3.9 cases of ``core``, ``files``, ``errors`` and ``mma`` printed by each older release's own
tool (Triton 3.2 ... 3.8), each case spelled the way that release spells it.

Usage (from the repository root)::

    python3 -m scripts.golden.releases                 # every release found under /opt/oracle/triton-3.X
    python3 -m scripts.golden.releases --release 3.6   # one (repeatable)
    python3 -m scripts.golden.releases --list          # what is written, per release

Each release has its own venv, ``/opt/oracle/triton-3.X`` (``pip install 'triton==3.X.*'``, the latest patch;
override the directory with ``RELEASE_VENVS``), and its own tool replayed through ``scripts/oracle/release.py``
(functions found in the library's ``.symtab``).  Every case runs in a forked child under a 4 GiB address-space limit
(``ORACLE_CASE_MEMORY_MB``): a release that would take more (3.3 on some ``nvmma_shared`` hardware views) aborts,
and that is its answer.

Spelling (``spell``): the 3.9 text of every ``-l`` value and ``-i`` file is rewritten into the release's spelling,
``#triton_gpu.`` in 3.2, ``CTAsPerCGA`` / ``CTASplitNum`` / ``CTAOrder`` instead of ``CGALayout`` through 3.5 (the
CTA order: the dimensions in the order of the bases), ``versionMajor = N, versionMinor = 0`` and a two-entry
``instrShape`` for ``amd_mfma`` through 3.4, ``warpsPerCTA`` instead of ``amd_wmma`` warp bases through 3.6,
``#triton_gpu.shared<{..., hasLeadingOffset = false}>`` for ``swizzled_shared`` in 3.2.  A layout the release cannot
spell (no equivalent of its fields, an unknown kind: the release answers that it cannot parse it while 3.9 could)
is left out of that release, and counted.

``--gaps`` (with the project's interpreter, ttlayout importable) writes ``tests/golden/release_gaps.json``: the cases
where ttlayout does not follow a release yet (``tests/golden/test_releases.py`` expects them to fail).

Written: ``golden/releases/<X.Y>.jsonl.gz``, one JSON object per case, in the order of the 3.9 suites::

    {"id", "suite", "args": [argv in the release's spelling], "exit": the release's exit code,
     "stdout": its stdout | null (error) | {"same": true} (byte-identical to the 3.9 case's .out)
              | {"lines": [[index, text], ..]} (3.9's .out with these lines replaced, same line count)
              | {"unstable_header": true, "lines": ..} (the release printed uninitialized memory in the header
                line, which changes from run to run: the other lines only),
     ["stderr_first_line"]}

plus ``golden/releases/<X.Y>.skipped.json`` (the ids left out and why) and ``golden/releases/inputs/<X.Y>/`` (the
``-i`` files rewritten in the release's spelling, where that changes them).  Deterministic: regenerating leaves the files
unchanged unless a release or a case changed."""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import sys

from .oracle import ROOT

RELEASES = ("3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8")
SUITES = ("core", "files", "errors", "mma")
VENVS = os.environ.get("RELEASE_VENVS", "/opt/oracle")
OUT = os.path.join(ROOT, "golden", "releases")
MEMORY_MB = "4096"


def key(release: str) -> tuple[int, int]:
    a, b = release.split(".")
    return int(a), int(b)


# ---------------------------------------------------------------------------------------------- spelling
class Unspellable(Exception):
    pass


def _bases(text: str) -> list[list[int]]:
    return json.loads(text)


def _arr(xs) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


def cga_to_cta(bases: list[list[int]], rank: int) -> str:
    """``CGALayout`` bases -> ``CTAsPerCGA = .., CTASplitNum = .., CTAOrder = ..`` (the inverse of Triton's
    ``fromSplitParams``: per dimension in CTA order, its split bases 1, 2, 4.. then its broadcast zeros)."""
    ctas, split, order = [1] * rank, [1] * rank, []
    pending_zeros = 0
    for b in bases:
        nz = [d for d in range(rank) if b[d]]
        if not nz:
            if not order:
                pending_zeros += 1
            else:
                ctas[order[-1]] *= 2
            continue
        if len(nz) != 1:
            raise Unspellable("CGALayout basis %s mixes dimensions" % b)
        d = nz[0]
        if d not in order:
            order.append(d)
        elif order[-1] != d or ctas[d] != split[d]:
            raise Unspellable("CGALayout bases of dimension %d are not consecutive" % d)
        if b[d] != split[d]:
            raise Unspellable("CGALayout basis %s is not the next power of two" % b)
        split[d] *= 2
        ctas[d] *= 2
    rest = [d for d in range(rank - 1, -1, -1) if d not in order]
    if pending_zeros:
        if not rest:
            raise Unspellable("leading broadcast CGALayout bases")
        d = rest.pop(0)
        order.insert(0, d)
        ctas[d] <<= pending_zeros
    order += rest
    return "CTAsPerCGA = %s, CTASplitNum = %s, CTAOrder = %s" % (_arr(ctas), _arr(split), _arr(order))


_CGA = re.compile(r"CGALayout = (\[(?:\[[-\d, ]*\](?:, )?)*\])")


def _rank_before(text: str, pos: int) -> int:
    """The rank of the attribute whose body holds position ``pos``: the length of its first list of integers."""
    start = text.rfind("<{", 0, pos)
    m = re.search(r"= \[([-\d, ]*)\]", text[start:pos])
    if not m:
        raise Unspellable("no rank")
    return len([x for x in m.group(1).split(",") if x.strip()])


def _replace_cga(text: str) -> str:
    out, last = [], 0
    for m in _CGA.finditer(text):
        bases = _bases(m.group(1))
        rank = len(bases[0]) if bases else _rank_before(text, m.start())
        out.append(text[last:m.start()])
        out.append(cga_to_cta(bases, rank) if bases else "")
        last = m.end()
    out.append(text[last:])
    return "".join(out).replace(", }", "}").replace(", , ", ", ")


def _mfma(text: str, release: str) -> str:
    def one(m):
        body = m.group(1)
        if re.search(r"\b(tilesPerWarp|elementBitWidth)\b", body):
            raise Unspellable("amd_mfma field unknown to %s" % release)
        body = re.sub(r"\bversion = (\d+)", r"versionMajor = \1, versionMinor = 0", body)
        body = re.sub(r"instrShape = \[(\d+), (\d+), \d+\]", r"instrShape = [\1, \2]", body)
        return "amd_mfma<{" + body + "}>"
    return re.sub(r"amd_mfma<\{(.*?)\}>", one, text)


def _wmma(text: str) -> str:
    def one(m):
        body = m.group(1)
        c = re.search(r"ctaLayout = \{([^{}]*)\}", body)
        if not c:
            return m.group(0)
        inner = c.group(1)
        if "register" in inner:
            raise Unspellable("amd_wmma register bases")
        w = re.search(r"warp = (\[.*\])", inner)
        warp = json.loads(w.group(1)) if w else []
        rank = len(warp[0]) if warp else 2
        counts = [1] * rank
        # the legacy construction: dimensions rank-1 .. 0, bases 1, 2, 4 .. in each
        i = 0
        for d in range(rank - 1, -1, -1):
            while i < len(warp) and sum(1 for x in warp[i] if x) == 1 and warp[i][d] == counts[d]:
                counts[d] *= 2
                i += 1
        if i != len(warp):
            raise Unspellable("amd_wmma warp bases with no warpsPerCTA")
        expect = "warpsPerCTA = " + _arr(counts)
        return "amd_wmma<{" + body[:c.start()] + expect + body[c.end():] + "}>"
    return re.sub(r"amd_wmma<\{(.*?)\}>", one, text)


def _swizzled_32(text: str) -> str:
    def one(m):
        return "shared<{" + m.group(1) + ", hasLeadingOffset = false}>"
    return re.sub(r"swizzled_shared<\{(.*?)\}>", one, text)


def spell(text: str, release: str) -> str:
    """3.9's text (an attribute or a whole file) in ``release``'s spelling; ``Unspellable`` where there is none."""
    k = key(release)
    if k <= (3, 6):
        text = _wmma(text)
    if k <= (3, 4):
        text = _mfma(text, release)
    if k <= (3, 5):
        text = _replace_cga(text)
    if k <= (3, 2):
        text = _swizzled_32(text)
        text = re.sub(r"(?<![\w.])ttg\.", "triton_gpu.", text)
        text = text.replace('"ttg.', '"triton_gpu.')
    return text


# ---------------------------------------------------------------------------------------------- running
def load(suite: str) -> list[dict]:
    with open(os.path.join(ROOT, "golden", suite, "cases.jsonl"), encoding="utf-8") as f:
        return [dict(json.loads(line), suite=suite) for line in f if line.strip()]


def release_case(case: dict, release: str):
    """(args, {path: text} of rewritten inputs) for ``release``; ``Unspellable`` where it cannot spell the case."""
    args, inputs = [], {}
    it = iter(case["args"])
    for a in it:
        if a in ("-l", "--l") or a.startswith(("-l=", "--l=")):
            if "=" in a:
                flag, _, val = a.partition("=")
                args.append(flag + "=" + spell(val, release))
                continue
            args.append(a)
            args.append(spell(next(it), release))
        elif a in ("-i", "--i"):
            path = next(it)
            try:
                with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):       # the errors suite's unreadable inputs stay as they are
                args += [a, path]
                continue
            new = spell(text, release)
            if new != text:
                rel = "golden/releases/inputs/%s/%s/%s" % (release, case["suite"], os.path.basename(path))
                inputs[rel] = new
                path = rel
            args += [a, path]
        else:
            args.append(a)
    return args, inputs


PARSE_FAILURES = ("Invalid layout attribute", "Fail to parse the input file")


def first_line(err: str) -> str:
    for line in err.splitlines():
        if line.strip() and not line.startswith(("nanobind: leaked", " - leaked", " - ... skipped")):
            return line.strip()
    return ""


def record(case: dict, args, inputs, r: dict) -> dict:
    rec = {"id": case["id"], "suite": case["suite"], "args": args, "exit": r["exit"]}
    if r["exit"] == 0:
        out = r["stdout"]
        base = None
        if case.get("stdout"):
            with open(os.path.join(ROOT, "golden", case["suite"], case["stdout"]), encoding="utf-8",
                      newline="") as f:
                base = f.read()
        if "\x00" in out and base is not None and base.count("\n") == out.count("\n"):
            # Triton 3.5 prints uninitialized memory after an amd_mfma whose optional fields are left out: the
            # header line changes from run to run; only the other lines are kept
            a, b = base.split("\n"), out.split("\n")
            rec["stdout"] = {"unstable_header": True,
                             "lines": [[i, y] for i, (x, y) in enumerate(zip(a, b)) if x != y and "\x00" not in y]}
        elif base == out:
            rec["stdout"] = {"same": True}
        elif base is not None and base.count("\n") == out.count("\n"):
            a, b = base.split("\n"), out.split("\n")
            rec["stdout"] = {"lines": [[i, y] for i, (x, y) in enumerate(zip(a, b)) if x != y]}
        else:
            rec["stdout"] = out
    else:
        rec["stdout"] = None
        rec["stderr_first_line"] = first_line(r["stderr"])[:400]
    return rec


def generate(release: str, jobs: int) -> tuple[list[dict], dict]:
    from . import oracle as pool_mod
    from .oracle import OraclePool
    py = os.path.join(VENVS, "triton-%s" % release, "bin", "python")
    if not os.path.exists(py):
        raise SystemExit("no venv for Triton %s at %s" % (release, py))
    cases = [c for s in SUITES for c in load(s)]
    todo, skipped = [], {}
    for c in cases:
        try:
            args, inputs = release_case(c, release)
        except Unspellable as e:
            skipped[c["suite"] + "/" + c["id"]] = str(e)
            continue
        todo.append((c, args, inputs))
    os.environ["ORACLE_CASE_MEMORY_MB"] = MEMORY_MB
    pool_mod.ORACLE_PYTHON = py
    written = set()
    for _, _, inputs in todo:
        for path, text in inputs.items():
            if path not in written:
                os.makedirs(os.path.dirname(os.path.join(ROOT, path)), exist_ok=True)
                with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
                    f.write(text)
                written.add(path)
    pool = OraclePool(jobs)
    try:
        answers = pool.run_all([{"op": "cli", "args": args} for _, args, _ in todo])
    finally:
        pool.close()
    records = []
    for (c, args, inputs), r in zip(todo, answers):
        if r["exit"] in (99, 142) or "ORACLE-INTERNAL-ERROR" in r["stderr"]:
            raise RuntimeError("oracle internal failure on %s: %s" % (c["id"], r["stderr"][-2000:]))
        if r["exit"] == 1 and c["exit"] != 1 and any(p in r["stderr"] for p in PARSE_FAILURES):
            skipped[c["suite"] + "/" + c["id"]] = "Triton %s cannot parse it: %s" % (release, first_line(r["stderr"])[:200])
            continue
        records.append(record(c, args, inputs, r))
    return records, skipped


def write(release: str, records: list[dict], skipped: dict) -> None:
    os.makedirs(OUT, exist_ok=True)
    with gzip.GzipFile(os.path.join(OUT, "%s.jsonl.gz" % release), "wb", mtime=0) as f:
        for rec in records:
            f.write((json.dumps(rec, sort_keys=True) + "\n").encode())
    with open(os.path.join(OUT, "%s.skipped.json" % release), "w", encoding="utf-8") as f:
        json.dump(skipped, f, indent=0, sort_keys=True)
        f.write("\n")


def summary(release: str, records: list[dict], skipped: dict) -> str:
    same = sum(1 for r in records if r["stdout"] == {"same": True})
    lines = sum(1 for r in records if isinstance(r["stdout"], dict) and "lines" in r["stdout"])
    errors = sum(1 for r in records if r["exit"] != 0)
    return "%s: %d cases (%d same as 3.9, %d with lines replaced, %d other text, %d errors), %d left out" % (
        release, len(records), same, lines, len(records) - same - lines - errors, errors, len(skipped))


GAPS = os.path.join(ROOT, "tests", "golden", "release_gaps.json")


def gaps(releases) -> dict:
    """Run ttlayout (this interpreter's, in process) on every release case, as tests/golden/test_releases.py does,
    and list where it does not match the release yet, with the release's answer: the test's expected failures."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from golden.test_releases import BASE, DEVIATIONS, expected_stdout, load_release
    from linlayout_cli.cli import run
    os.chdir(ROOT)
    found = {}
    for release in releases:
        miss = {}
        for rec in load_release(release):
            base = BASE[rec["suite"], rec["id"]]
            if base.get("ttlayout") and (base["exit"] == 0) == (rec["exit"] == 0):
                continue                                   # the deliberate differences are checked as in 3.9
            if rec["suite"] + "/" + rec["id"] in DEVIATIONS.get(release, {}):
                continue                                   # deliberate per release (release_deviations.json)
            code, out, err = run(["--triton", release, *rec["args"]])
            want = expected_stdout(rec) if rec["exit"] == 0 else ""
            if isinstance(rec["stdout"], dict) and rec["stdout"].get("unstable_header"):
                out, want = out.split("\n", 1)[-1], want.split("\n", 1)[-1]
            if rec["exit"] == 0 and (code != 0 or out != want):
                miss[rec["suite"] + "/" + rec["id"]] = ("Triton %s prints; ttlayout %s" % (
                    release, "prints other text" if code == 0 else "refuses: " + err.strip()[17:140]))
            elif rec["exit"] != 0 and code == 0:
                miss[rec["suite"] + "/" + rec["id"]] = "Triton %s fails (exit %d: %s); ttlayout prints" % (
                    release, rec["exit"], rec.get("stderr_first_line", "")[:120])
        found[release] = dict(sorted(miss.items()))
        print("%s: %d gaps" % (release, len(miss)), flush=True)
    return found


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--release", action="append", choices=RELEASES)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--gaps", action="store_true", help="write tests/golden/release_gaps.json (runs ttlayout, no "
                    "Triton): the cases where ttlayout does not match a release yet")
    a = ap.parse_args(argv)
    if a.gaps:
        found = gaps(a.release or RELEASES)
        with open(GAPS, "w", encoding="utf-8") as f:
            json.dump(found, f, indent=1, sort_keys=True)
            f.write("\n")
        return 0
    for release in a.release or RELEASES:
        records, skipped = generate(release, a.jobs)
        write(release, records, skipped)
        print(summary(release, records, skipped), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
