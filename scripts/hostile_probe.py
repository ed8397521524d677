"""The hostile probe of issue 32 section B, run again on inputs of other sizes and variants (not run by CI).

    python scripts/hostile_probe.py [--quick] [--source DIR] [--seed N] [--only B.3,B.4] [--json OUT] [-v]

Every class of section B is tried on generated inputs (several per class, randomised with a fixed seed, at other
sizes than the issue's), each as its own process `python -m linlayout_cli ...` (or, for the Python API, a small
`python -c` program) with a time limit. Each run is judged on:

- exit code and stderr: success, or one line `ttlayout: error: ...` and a non-zero exit, never a traceback; a case
  that must be refused (a file of the wrong kind, an output that would be lost) must exit non-zero;
- stdout and the files around it: no file clobbered (their bytes are compared), no partial file left;
- peak RSS (ru_maxrss of the child, from os.wait4) against 10x the input's bytes plus a constant: the larger
  baseline of a 16x16 print and a one-kernel audit in the same tree, plus 64 MB;
- wall time against the case's limit (and, for the B.5 views, against the swizzled view of the same size).

It prints a table: class, inputs tried, failures, then one line per failure. `--source DIR` runs the ttlayout
package of another tree (a checkout of an older commit, for a before/after table); the inputs are always this
tree's. `--quick` tries fewer and smaller inputs (2-4 minutes). Standard library only.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(ROOT, "tests", "data", "cache")
MB = 1 << 20

CHANGED = "2HFOXRNAP2OZVNPB3R4FVRZPGPQN6H4FSJVZUQF7SURL53CKHIFQ"          # fp8_matmul: advise proposes a change
BLOCKED = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
SWIZZLED = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
T16 = "tensor<16x16xf16>"


# ------------------------------------------------------------------------------------------------- cases and judging

class Case:
    """One input: argv (or a Python program), what it must do, and what must survive it."""

    def __init__(self, cls, label, argv=None, *, python=None, stdin=None, env=None, expect="any", err_has=(),
                 keep=(), absent=(), inputs=(), limit=None, check=None, fifo=None, setup=None, report=False):
        self.cls, self.label, self.argv, self.python, self.stdin = cls, label, argv, python, stdin
        self.env, self.expect, self.err_has, self.keep, self.absent = env or {}, expect, err_has, keep, absent
        self.inputs, self.limit, self.check, self.fifo, self.setup = inputs, limit, check, fifo, setup
        self.report = report          # a cache's JSON report: exit 1 with the failures listed on stdout is an answer


class Result:
    def __init__(self, rc, out, err, rss_mb, wall, timed_out, fifo_data=b""):
        self.rc, self.out, self.err, self.rss_mb, self.wall = rc, out, err, rss_mb, wall
        self.timed_out, self.fifo_data = timed_out, fifo_data


# Run between the probe and each case: the case's ru_maxrss then counts only its own pages. A child started straight
# from the probe (vfork + exec) starts its ru_maxrss at the probe's own peak, which Linux carries across exec; the
# launcher's fresh, small address space is all its child inherits.
LAUNCH = ("import os, sys\n"
          "pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)\n"
          "_, status, usage = os.wait4(pid, 0)\n"
          "with open(sys.argv[1], 'w') as f:\n"
          "    f.write(f'{usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}')\n")


def sha(path):
    if os.path.isdir(path):
        return "dir:" + ",".join(sorted(os.listdir(path)))
    if not os.path.lexists(path):
        return None
    if stat.S_ISFIFO(os.lstat(path).st_mode):
        return "fifo"
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def execute(case, source, limit, scratch):
    """Run one case as its own process; (Result) with peak RSS from wait4 and the wall time."""
    env = dict(os.environ, PYTHONPATH=source, COLUMNS="120")
    for k in ("_TTLAYOUT_COMPLETE", "COMP_WORDS", "COMP_CWORD"):
        env.pop(k, None)
    for k, v in case.env.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    cmd = [sys.executable, "-c", case.python] if case.python else [sys.executable, "-m", "linlayout_cli", *case.argv]
    report = os.path.join(scratch, ".peak")
    if os.path.exists(report):
        os.unlink(report)
    cmd = [sys.executable, "-c", LAUNCH, report, *cmd]
    out_f = tempfile.TemporaryFile(dir=scratch)
    err_f = tempfile.TemporaryFile(dir=scratch)
    fifo_fd = None
    if case.fifo:
        fifo_fd = os.open(case.fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            import fcntl
            fcntl.fcntl(fifo_fd, 1031, 1 << 20)                  # F_SETPIPE_SZ: room for the whole report
        except OSError:
            pass
    stdin = subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdin=stdin, stdout=out_f, stderr=err_f, env=env, cwd=scratch,
                             start_new_session=True)
    if case.stdin is not None:
        try:
            child.stdin.write(case.stdin.encode() if isinstance(case.stdin, str) else case.stdin)
            child.stdin.close()
        except OSError:
            pass
    timed_out = False
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > limit:
            timed_out = True
            os.killpg(child.pid, 9)
            _, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    maxrss = usage.ru_maxrss
    if os.path.exists(report):                                  # the launcher's word on its one child
        with open(report) as f:
            maxrss, child.returncode = map(int, f.read().split())
    fifo_data = b""
    if fifo_fd is not None:
        try:
            fifo_data = os.read(fifo_fd, 4 << 20)
        except OSError:
            pass
        os.close(fifo_fd)
    out_f.seek(0)
    err_f.seek(0)
    out, err = out_f.read(1 << 20).decode("utf-8", "replace"), err_f.read(1 << 16).decode("utf-8", "replace")
    out_f.close()
    err_f.close()
    return Result(child.returncode, out, err, maxrss / 1024, wall, timed_out, fifo_data)


def judge(case, res, before, bound_mb):
    """The reasons a run failed (empty: it passed)."""
    why = []
    if res.timed_out:
        return [f"still running after {case.limit_used:.0f} s"]
    if "Traceback" in res.err or "\nError" in res.err:
        why.append("traceback: " + res.err.strip().splitlines()[-1][:160])
    elif res.rc == 1 and case.report and not res.err.strip() and res.out.lstrip().startswith("{"):
        pass
    elif res.rc != 0:
        lines = res.err.rstrip("\n").split("\n")
        if len(lines) != 1 or not lines[0].startswith("ttlayout: error: "):
            why.append(f"exit {res.rc} without one error line: {res.err.strip()[:160]!r}")
        if res.rc < 0:
            why.append(f"killed by signal {-res.rc}")
    if case.expect == "error" and res.rc == 0:
        why.append("accepted (exit 0): " + (res.out.strip().splitlines() or [""])[-1][:120])
    if case.expect == "ok" and res.rc != 0 and not why:
        why.append("refused: " + res.err.strip()[:160])
    if res.rc != 0 and case.expect != "ok" and res.out.strip() and case.python is None and not case.report:
        why.append("error, yet stdout: " + res.out.strip()[:80])
    for part in case.err_has:
        if res.rc != 0 and part not in res.err:
            why.append(f"message lacks {part!r}: {res.err.strip()[:160]}")
    for path, digest in before.items():
        if sha(path) != digest:
            why.append(f"{os.path.basename(path.rstrip('/')) or path} changed")
    for path in case.absent:
        if os.path.lexists(path):
            why.append(f"{os.path.basename(path.rstrip('/'))} left behind")
    if res.rss_mb > bound_mb:
        why.append(f"peak RSS {res.rss_mb:.0f} MB > {bound_mb:.0f} MB")
    if case.check and not why:
        extra = case.check(res)
        if extra:
            why.append(extra)
    return why


def input_bytes(case):
    total = len(case.stdin or "") + sum(len(a) for a in case.argv or ())
    for path in case.inputs:
        if os.path.isdir(path):
            for dirpath, _, files in os.walk(path):
                total += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files)
        elif os.path.exists(path):
            total += os.path.getsize(path)
    return total


# ------------------------------------------------------------------------------------------------- inputs

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def repeat(path, head, item, sep, n, tail):
    """Write head + item (sep item) * (n - 1) + tail in pieces: the probe's own peak RSS stays small, since a child
    forked from it starts its ru_maxrss at the parent's peak."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(head)
        piece = sep.join([item] * 65536)
        done = 0
        while done < n:
            k = min(65536, n - done)
            f.write((sep if done else "") + (piece if k == 65536 else sep.join([item] * k)))
            done += k
        f.write(tail)


def cache_entries():
    return sorted(d for d in os.listdir(CACHE) if os.path.isdir(os.path.join(CACHE, d)))


def entry_kernel(entry):
    """(directory, kernel name) of a cache entry of tests/data/cache."""
    d = os.path.join(CACHE, entry)
    name = next(f[:-6] for f in os.listdir(d) if f.endswith(".ttgir"))
    return d, name


def copy_entry(entry, dst):
    d, name = entry_kernel(entry)
    shutil.copytree(d, dst)
    return dst, name


def rank_blocked(rank, rng=None):
    """A rank-R blocked layout of 32 lanes and 4 warps, its lanes and warps spread over the first dims."""
    lanes = [2] * 5 + [1] * (rank - 5) if rank >= 5 else [32] + [1] * (rank - 1)
    warps = [2, 2] + [1] * (rank - 2) if rank >= 2 else [4]
    if rng and rank >= 5:
        rng.shuffle(lanes)
        rng.shuffle(warps)
    order = list(range(rank - 1, -1, -1))
    return (f"#ttg.blocked<{{sizePerThread = {[1] * rank}, threadsPerWarp = {lanes}, warpsPerCTA = {warps}, "
            f"order = {order}}}>")


def tensor(dims, elem="f16"):
    return "tensor<" + "x".join(map(str, dims)) + f"x{elem}>"


def module(aliases, body, target="cuda:90", warps=4):
    lines = [f"#{k} = {v}" for k, v in aliases]
    lines += [f'module attributes {{"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = {warps} : i32, '
              f'"ttg.threads-per-warp" = 32 : i32, ttg.target = "{target}"}} {{', "  tt.func public @k() {"]
    lines += ["    " + b for b in body] + ["    tt.return", "  }", "}", ""]
    return "\n".join(lines)


def chain(n):
    """A module of n aliases, each the result of a convert of the one before (advise's worst case)."""
    layouts = [f"#ttg.blocked<{{sizePerThread = [1, {s}], threadsPerWarp = [{t}, {32 // t}], warpsPerCTA = [4, 1], "
               f"order = [1, 0]}}>" for s in (1, 2, 4) for t in (1, 2, 4, 8)]
    aliases = [(f"b{i}", layouts[i % len(layouts)]) for i in range(n)]
    body = ["%0 = arith.constant dense<0.0> : tensor<64x64xf16, #b0>"]
    body += [f"%{i} = ttg.convert_layout %{i - 1} : tensor<64x64xf16, #b{i - 1}> -> tensor<64x64xf16, #b{i}>"
             for i in range(1, n)]
    return module(aliases, body)


def alloc_module(rank, dims):
    """A kernel storing a rank-R tensor to shared memory and loading it back (advise prices its alias)."""
    order = list(range(rank - 1, -1, -1))
    shared = f"#ttg.swizzled_shared<{{vec = 1, perPhase = 1, maxPhase = 1, order = {order}}}>"
    t = tensor(dims)
    mem = "!ttg.memdesc<" + "x".join(map(str, dims)) + "xf16, #shared, #smem>"
    body = [f"%0 = arith.constant dense<0.0> : {t[:-1]}, #blocked>",
            f"%1 = ttg.local_alloc %0 : ({t[:-1]}, #blocked>) -> {mem}",
            f"%2 = ttg.local_load %1 : {mem} -> {t[:-1]}, #blocked>"]
    return module([("blocked", rank_blocked(rank)), ("shared", shared), ("smem", "#ttg.shared_memory")], body)


PROSE_WORDS = ("layout", "module", "warp", "the", "kernel", "tt.func", "#blocked", "=", "{", "}", "shared", "lane",
               "of", "a", "is", "not", "tensor<16x16xf16>", "//", "-----", "@k", "loc(", "\"x\"", "42")


def prose(rng):
    kind = rng.randrange(6)
    if kind == 0:
        return " ".join(rng.choice(PROSE_WORDS) for _ in range(rng.randrange(1, 400))) + "\n"
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x250)) for _ in range(rng.randrange(0, 2000)))
    if kind == 2:
        return json.dumps({"name": "k", "num_warps": rng.randrange(1, 9), "x": [rng.random() for _ in range(20)]})
    if kind == 3:
        return f"#blocked{rng.randrange(9)} = {BLOCKED}\n" * rng.randrange(1, 5)
    if kind == 4:
        return "// -----// IR Dump Before Foo (foo) ('builtin.module' operation)\n" + "text\n" * rng.randrange(9)
    return "\n" * rng.randrange(0, 5) + " \t" * rng.randrange(0, 5)


# ------------------------------------------------------------------------------------------------- the classes

def b1(rng, scratch, quick):
    """B.1 a file of the wrong kind given to audit / advise."""
    entries = rng.sample(cache_entries(), 1 if quick else 6)
    for entry in entries:
        d, name = entry_kernel(entry)
        others = [f for f in sorted(os.listdir(d)) if not f.endswith(".ttgir")]
        py = write(os.path.join(scratch, entry[:6], name + ".py"), f"import triton\n@triton.jit\ndef {name}(x):\n"
                                                                  "    pass\n")
        for f in rng.sample(others, min(len(others), 2 if quick else 5)) + [py]:
            path = f if os.path.isabs(f) else os.path.join(d, f)
            for command in ("audit", "advise"):
                yield Case("B.1", f"{command} {os.path.basename(path)}", [command, path], expect="error",
                           inputs=[path])
    for k in range(2 if quick else 10):
        text = prose(rng)
        name = rng.choice(("x.ttgir", "x.mlir", "notes.txt", "k.ttgir"))
        path = write(os.path.join(scratch, f"prose{k}", name), text)
        for command in ("audit", "advise"):
            yield Case("B.1", f"{command} prose {name} ({len(text)} chars)", [command, path], expect="error",
                       inputs=[path])
        yield Case("B.1", f"audit - prose ({len(text)} chars)", ["audit", "-"], stdin=text, expect="error")
    for k in range(1 if quick else 3):
        entry = rng.choice(cache_entries())
        root = os.path.join(scratch, f"cache{k}")
        dst, name = copy_entry(entry, os.path.join(root, entry))
        write(os.path.join(root, "PROSE" + str(k), "notes.ttgir"), prose(rng) or "hello\n")

        def ranked_only(res, name=name):
            try:
                report = json.loads(res.out)
            except ValueError:
                return "no JSON on stdout"
            kernels = [k.get("kernel") for k in report.get("kernels", [])]
            return None if kernels == [name] else f"kernels ranked: {kernels}"
        yield Case("B.1", f"audit a cache with prose ({name})", ["audit", "--cache", root, "--json"], expect="any",
                   inputs=[root], check=ranked_only, report=True)
        yield Case("B.1", f"advise a cache with prose ({name})", ["advise", "--cache", root], expect="any",
                   inputs=[root], check=lambda res: "notes" in res.out and "advised on prose" or None)


def b2(rng, scratch, quick):
    """B.2 lost or clobbered output: odd -o targets, --write and -o naming one file."""
    entry = rng.choice(cache_entries())
    kdir, kname = copy_entry(entry, os.path.join(scratch, "entry"))
    kernel = os.path.join(kdir, kname + ".ttgir")
    lit = write(os.path.join(scratch, "lit.mlir"), f"#a = {BLOCKED}\n#b = {SWIZZLED}\n")
    commands = {
        "print": ["-l", BLOCKED, "-t", T16], "info": ["info", "-l", BLOCKED, "-t", T16],
        "lookup": ["lookup", "-l", BLOCKED, "-t", T16, "--thread", str(rng.randrange(128))],
        "bank": ["bank", "-r", BLOCKED, "-s", SWIZZLED, "-t", T16], "swizzle": ["swizzle", "-r", BLOCKED, "-t", T16],
        "audit": ["audit", kernel], "advise": ["advise", kernel], "print -i": ["-i", lit, "-t", T16],
    }
    names = list(commands) if not quick else rng.sample(list(commands), 2)
    for k, cmd in enumerate(names):
        argv = commands[cmd]
        base = os.path.join(scratch, f"o{k}")
        os.makedirs(base)
        existing = write(os.path.join(base, "FILE"), "kept\n")
        directory = os.path.join(base, "DIR")
        os.makedirs(directory)
        write(os.path.join(directory, "inside"), "x\n")
        fifo = os.path.join(base, "FIFO")
        os.mkfifo(fifo)
        targets = [("''", "", "error", (), ()), ("FILE/", existing + "/", "error", (existing,), ()),
                   ("FILE/.", existing + "/.", "error", (existing,), ()),
                   ("new/", os.path.join(base, "new") + "/", "error", (), (os.path.join(base, "new"),)),
                   ("DIR", directory, "error", (directory,), ()), ("/dev/full", "/dev/full", "error", (), ()),
                   ("unwritable dir", "/proc/self/ttlayout-probe", "error", (), ()),
                   ("missing parent", os.path.join(base, "no", "such", "x"), "error", (), ()),
                   ("a fifo", fifo, "any", (), ())]
        if cmd in ("audit", "advise", "print -i"):
            source = kernel if cmd != "print -i" else lit
            link = os.path.join(base, "link")
            os.symlink(source, link)
            targets += [("the input", source, "error", (source,), ()), ("a link to the input", link, "error",
                                                                           (source,), ())]
        for what, target, expect, keep, absent in targets:
            check = None
            if target == fifo:
                def check(res, fifo=fifo):
                    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
                        return "the fifo was replaced by a file"
                    return None if res.rc or res.fifo_data else "nothing written into the fifo"
            yield Case("B.2", f"{cmd} -o {what}", argv + ["-o", target], expect=expect, keep=keep, absent=absent,
                       fifo=target if target == fifo else None, check=check)
    out = os.path.join(scratch, "adv")
    os.makedirs(out)
    kdir, kname = copy_entry(CHANGED, os.path.join(scratch, "changed"))     # a kernel advise changes: it writes
    kernel = os.path.join(kdir, kname + ".ttgir")
    p = os.path.join(out, "P")
    link = os.path.join(out, "L")
    os.symlink(p, link)
    plain = write(os.path.join(out, "plain"), "x\n")
    for what, extra, keep, absent in (
            ("--write P -o P", ["--write", p, "-o", p], (), (p,)),
            ("--write P -o link-to-P", ["--write", p, "-o", link], (), (p,)),
            ("--write link-to-P -o P", ["--write", link, "-o", p], (), (p,)),
            ("--write ./P -o P", ["--write", os.path.join(out, ".", "P"), "-o", p], (), (p,)),
            ("--write ''", ["--write", ""], (), ()), ("--write-dir ''", ["--write-dir", ""], (), ()),
            ("--write FILE/", ["--write", plain + "/"], (plain,), ()),
            ("--write-dir a file", ["--write-dir", plain], (plain,), ()),
            ("--write /dev/full", ["--write", "/dev/full"], (), ()),
            ("--write the input", ["--write", kernel], (), ()),
            ("--write P --write-dir DIR", ["--write", p, "--write-dir", out], (), (p,))):
        expect = "any" if what in ("--write the input", "--write P --write-dir DIR") else "error"
        yield Case("B.2", f"advise {what}", ["advise", kernel, *extra], expect=expect, keep=keep,
                   absent=absent if expect == "error" else ())


def b3(rng, scratch, quick):
    """B.3 memory bounded by the input: sniffing big JSON, metadata, advise's aliases, --color, lookup, rank 24, -i."""
    sizes = (8,) if quick else (16, 48)
    shapes = ["[]", "[[],[]]", '{"a":[]}', "[1,2.5,\"x\"]"] if not quick else ["[]", '{"a":[]}']
    for mb in sizes:
        for shape in rng.sample(shapes, 2 if not quick else 1):
            path = os.path.join(scratch, f"big{mb}_{len(shape)}.json")
            repeat(path, "[", shape, ",", mb * MB // (len(shape) + 1), "]")
            for argv in (["audit", path], ["advise", path], ["-i", path, "-t", T16], ["info", "-i", path, "-t", T16]):
                if quick and argv[0] == "info":
                    continue
                yield Case("B.3", f"{argv[0]} {mb} MB JSON of {shape}", argv, expect="error", inputs=[path],
                           limit=90)
    deep = os.path.join(scratch, "deep.json")
    repeat(deep, "", "[", "", 200_000, "]" * 200_000)
    for argv in (["audit", deep], ["-i", deep, "-t", T16]):
        yield Case("B.3", f"{argv[0]} JSON nested 200,000 deep", argv, expect="error", inputs=[deep])
    for mb in sizes:
        entry = rng.choice(cache_entries())
        dst, name = copy_entry(entry, os.path.join(scratch, f"meta{mb}", entry))
        meta = os.path.join(dst, name + ".json")
        with open(meta) as f:
            text = f.read().rstrip()
        repeat(meta, text[:-1] + ', "pad": [', "[]", ",", mb * MB // 3, "]}")
        for argv in (["audit", dst, "--json"], ["advise", dst]):
            yield Case("B.3", f"{argv[0]} cache with a {mb} MB {name}.json", argv, expect="any", report=True,
                       inputs=[os.path.join(dst, name + ".ttgir")], limit=120)
    for n in ((30, 80) if quick else (100, 300, 500)):
        path = write(os.path.join(scratch, f"chain{n}.ttgir"), chain(n))
        yield Case("B.3", f"advise {n} chained aliases", ["advise", path], expect="ok", inputs=[path],
                   limit=60 if quick else 180)
    colors = [(32, 1, 1 << 9), (8, 4, 1 << 12)] if quick else [(32, 1, 1 << 12), (32, 2, 1 << 14), (8, 4, 1 << 15)]
    for warps, lanes_n, n in colors:
        attr = (f"#ttg.blocked<{{sizePerThread = [1, 1], threadsPerWarp = [{32 // lanes_n}, {lanes_n}], "
                f"warpsPerCTA = [{warps}, 1], order = [1, 0]}}>")
        for extra in ([], ["--use-hw-view"]):
            yield Case("B.3", f"--color always, {warps * 32 // lanes_n}x replicated, 1x{n}{' hw' if extra else ''}",
                       ["-l", attr, "-t", f"tensor<1x{n}xf32>", "--color", "always", *extra, "-o",
                        os.path.join(scratch, "color.txt"), "--max-elements", str(1 << 26)], expect="ok",
                       limit=120)
    looks = [4096] if quick else [4096, 8192]
    layouts = [("blocked", "#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], "
                "order = [1, 0]}>"), ("mma", "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                "[4, 1], instrShape = [16, 64, 16]}>")]
    for size in looks:
        for name, attr in (layouts if not quick else layouts[:1]):
            yield Case("B.3", f"lookup --thread --json {name} {size}^2",
                       ["lookup", "-l", attr, "-t", f"tensor<{size}x{size}xf16>", "--thread", str(rng.randrange(32)),
                        "--json", "-o", os.path.join(scratch, "lookup.json"), "--max-elements", str(1 << 27)],
                       expect="ok", limit=180)
    for rank in ((24,) if quick else (16, 20, 24)):
        attr = rank_blocked(rank, rng)
        dims = [2] * 14 + [1] * (rank - 14)
        rng.shuffle(dims)
        for extra in ([], ["--use-hw-view"], ["--format", "json"]):
            yield Case("B.3", f"rank-{rank} view {' '.join(extra)}".rstrip(),
                       ["-l", attr, "-t", tensor(dims), *extra, "-o", os.path.join(scratch, "rank.txt")],
                       expect="ok", limit=120)
    for n in ((3_000,) if quick else (10_000, 40_000)):
        path = os.path.join(scratch, f"aliases{n}.mlir")
        with open(path, "w") as f:
            for i in range(n):
                f.write(f"#a{i} = #ttg.blocked<{{sizePerThread = [1, {1 << (i % 3)}], threadsPerWarp = [4, 8], "
                        f"warpsPerCTA = [4, 1], order = [1, 0]}}>\n")
        for extra in ([], ["--json"]) if n < 40_000 else ([],):
            yield Case("B.3", f"-i {n} aliases {' '.join(extra)}".rstrip(),
                       ["-i", path, "-t", T16, *extra, "-o", os.path.join(scratch, "many.txt")], expect="ok",
                       inputs=[path], limit=420)


def b4(rng, scratch, quick):
    """B.4 searches that must not grow factorially with rank: swizzle and advise at ranks 7-10."""
    for rank in ((7, 8) if quick else (7, 8, 9, 10)):
        for k in range(1 if quick else 2):
            dims = [rng.choice((2, 4)) for _ in range(rank)]
            attr = rank_blocked(rank, rng if k else None)
            yield Case("B.4", f"swizzle rank {rank} {tensor(dims)}", ["swizzle", "-r", attr, "-t", tensor(dims)],
                       expect="ok", limit=60)
        if rank <= 9:
            path = write(os.path.join(scratch, f"alloc{rank}.ttgir"), alloc_module(rank, [2] * rank))
            yield Case("B.4", f"advise rank-{rank} local_alloc", ["advise", path], expect="ok", inputs=[path],
                       limit=60)


_VIEWS = {
    "swizzled": SWIZZLED,
    "padded": "#ttg.padded_shared<[32:+4, 64:+2] {order = [1, 0], shape = [S, S]}>",
    "padded (order 0,1)": "#ttg.padded_shared<[4:+4] {order = [0, 1], shape = [S, S]}>",
    "partitioned": "#ttg.partitioned_shared<{numPartitions = 4, numGroups = 2, partitionDim = 0, partitionLayout = "
                   "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}>",
    "tmem": "#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>",
}


def b5(rng, scratch, quick):
    """B.5 views of padded, partitioned, swizzled and tensor memory layouts at big sizes."""
    sizes = (1024,) if quick else (2048, 4096)
    for size in sizes:
        for hw in ([], ["--use-hw-view"]):
            names = list(_VIEWS)
            ref = {}
            for name in names:
                attr = _VIEWS[name].replace("[S, S]", f"[{size}, {size}]")
                out = os.path.join(scratch, f"view{size}.txt")

                def against_swizzled(res, name=name, ref=ref):
                    if name == "swizzled":
                        ref["wall"] = res.wall
                        return None
                    if "wall" in ref and res.wall > 5 * ref["wall"] + 5:
                        return f"{res.wall:.1f} s, the swizzled view {ref['wall']:.1f} s"
                    return None
                yield Case("B.5", f"{name} view {size}^2{' hw' if hw else ''}",
                           ["-l", attr, "-t", f"tensor<{size}x{size}xf16>", *hw, "-o", out, "--max-elements",
                            str(1 << 27)], expect="ok", check=against_swizzled, limit=120 if quick else 150)


def b6(rng, scratch, quick):
    """B.6 shell completion under any environment."""
    instructions = ["source", "bash_source", "zsh_source", "fish_source", "bash_complete", "zsh_complete",
                    "fish_complete", "bash", "", "x_y", "bash_complete_extra", "powershell_source", "complete"]
    words = [None, "", "ttlayout", "ttlayout au", "ttlayout audit --t", "'", "ttlayout -l '#ttg.", "ttlayout \""]
    cwords = [None, "0", "1", "2", "abc", "", "-1", "99", " 1", "1.5"]
    for _ in range(20 if quick else 80):
        ins = rng.choice(instructions) if rng.random() < 0.8 else "".join(
            rng.choice("abcz_hsfoure") for _ in range(rng.randrange(1, 14)))
        w, c = rng.choice(words), rng.choice(cwords)
        yield Case("B.6", f"_TTLAYOUT_COMPLETE={ins!r} COMP_WORDS={w!r} COMP_CWORD={c!r}", [],
                   env={"_TTLAYOUT_COMPLETE": ins, "COMP_WORDS": w, "COMP_CWORD": c}, expect="any", limit=30)


_API = r'''
import json, sys
from linlayout_cli import notebook as nb
from linlayout_cli.errors import TTLayoutError
KERNEL = open(sys.argv[1]).read()
B, S, T = sys.argv[2], sys.argv[3], "tensor<16x16xf16>"
values = eval(sys.argv[4])
calls = {
 "layout.lanes": ("lanes", lambda v: nb.layout(B, T, lanes=v)),
 "layout.max_elements": ("max_elements", lambda v: nb.layout(B, T, max_elements=v)),
 "layout.tensor_type": ("tensor_type", lambda v: nb.layout(B, v)),
 "layout.attr": ("attr", lambda v: nb.layout(v, T)),
 "linear_layout.shape": ("shape", lambda v: nb.linear_layout(B, v)),
 "linear_layout.kind": ("kind", lambda v: nb.linear_layout(B, [16, 16], kind=v)),
 "linear_layout.role": ("role", lambda v: nb.linear_layout(B, [16, 16], "distributed", role=v)),
 "bank_conflicts.bitwidth": ("bitwidth", lambda v: nb.bank_conflicts(B, S, [64, 64], v)),
 "bank_conflicts.shape": ("shape", lambda v: nb.bank_conflicts(B, S, v, 16)),
 "bank_conflicts.reg": ("reg", lambda v: nb.bank_conflicts(v, S, [64, 64], 16)),
 "Layout.text.hardware": ("hardware", lambda v: nb.layout(B, T).text(hardware=v)),
 "Layout.svg.hardware": ("hardware", lambda v: nb.layout(B, T).svg(hardware=v)),
 "Layout.write.file": ("file", lambda v: nb.layout(B, T).write(v)),
 "audit.target": ("target", lambda v: nb.audit(KERNEL, target=v)),
 "audit.jobs": ("jobs", lambda v: nb.audit(sys.argv[5], jobs=v)),
 "audit.x": ("x", lambda v: nb.audit(v)),
 "advise.target": ("target", lambda v: nb.advise(KERNEL, target=v)),
 "advise.source": ("source", lambda v: nb.advise(v)),
}
which = sys.argv[6]
if which == "patched":
    r = nb.advise(KERNEL)
    name, call = "change", r.patched
    values = values + [len(r.changes) + 1]
else:
    name, call = calls[which]
for v in values:
    try:
        call(v)
        print(json.dumps([repr(v)[:40], "ok", ""]))
    except TTLayoutError as e:
        print(json.dumps([repr(v)[:40], "ttl", str(e)[:300]]))
    except Exception as e:
        print(json.dumps([repr(v)[:40], type(e).__name__, str(e)[:200]]))
'''

_API_HINTS = ("missing -t", "not a layout", "tensor", "target", "cannot read", "not TTGIR", "must be")


def b7(rng, scratch, quick):
    """B.7 the Python API given wrong argument types; advise(...).patched(0 / -1 / out of range)."""
    pool = ["3", "2.5", "None", "b'bytes'", "['x']", "{'a': 1}", "object()", "True", "'text'", "-1", "float('nan')",
            "[[1, 2], [3]]", "10**30", "'x' * 5000", "(16, 16)", "[16, 'a']", "-16", "0", "[0, 0]", "set()"]
    entry = rng.choice(cache_entries())
    d, name = entry_kernel(entry)
    kernel = os.path.join(d, name + ".ttgir")
    api = write(os.path.join(scratch, "api.py"), _API)
    which = ["layout.lanes", "layout.max_elements", "layout.tensor_type", "layout.attr", "linear_layout.shape",
             "linear_layout.kind", "linear_layout.role", "bank_conflicts.bitwidth", "bank_conflicts.shape",
             "bank_conflicts.reg", "Layout.text.hardware", "Layout.svg.hardware", "Layout.write.file",
             "audit.target", "audit.jobs", "audit.x", "advise.target", "advise.source"]
    for fn in (rng.sample(which, 8) if quick else which):
        values = rng.sample(pool, 5 if quick else 12)
        arg = fn.rsplit(".", 1)[1]
        yield from _api_case(api, kernel, d, fn, "[" + ",".join(values) + "]", arg, count=len(values))
    yield from _api_case(api, kernel, d, "patched", "[0, -1, -2, 1.0, '1', True, None]", "change",
                         must_raise=True, count=8)


def _api_case(api, kernel, d, fn, values, arg, must_raise=False, count=None):
    code = (f"import sys; sys.argv = [{api!r}, {kernel!r}, {BLOCKED!r}, {SWIZZLED!r}, {values!r}, {d!r}, {fn!r}]; "
            f"exec(open({api!r}).read())")
    n = count

    def check(res, arg=arg):
        rows = [json.loads(line) for line in res.out.splitlines() if line.startswith("[")]
        bad = []
        for k, (value, outcome, message) in enumerate(rows):
            last = must_raise and k == len(rows) - 1
            if outcome == "ttl":
                if last:
                    bad.append(f"{value}: refused the next change number")
                elif arg not in message and not any(h in message for h in _API_HINTS):
                    bad.append(f"{value}: message names no argument: {message[:80]}")
            elif outcome == "ok":
                if must_raise and not last:
                    bad.append(f"{value}: returned")
            else:
                bad.append(f"{value}: {outcome}: {message[:80]}")
        if len(rows) < n:
            bad.append(f"only {len(rows)} of {n} calls ran: {res.err.strip()[-120:]}")
        return "; ".join(bad) or None
    case = Case("B.7", f"{fn}", python=code, expect="ok", limit=120, check=check)
    case.count = n
    yield case


def b8(rng, scratch, quick):
    """B.8 messages that mislead: shape dims, --alias-names, --section, NAME.json names, another kernel's PTX."""
    for _ in range(6 if quick else 20):
        rank = rng.randrange(1, 5)
        dims = [1 << rng.randrange(0, 8) for _ in range(rank)]
        i = rng.randrange(rank)
        dims[i] = rng.choice((3, 5, 6, 7, 12, 24, 100, 1000, 4095))
        yield Case("B.8", f"non-power-of-two {tensor(dims)}", ["info", "-l", rank_blocked(rank), "-t", tensor(dims)],
                   expect="error", err_has=(f"dimension {i}", f"size {dims[i]}"))
    for k in range(3 if quick else 8):
        name = rng.choice(("a-b", "x_y", "lay_out", "b1-2", "m-n-o", "q$r")) + str(k)   # MLIR refuses a "."
        other = name + "x"
        path = write(os.path.join(scratch, f"al{k}.mlir"), f"#{name} = {BLOCKED}\n#{other} = {SWIZZLED}\n")
        given = rng.choice((f" {name}", f"{name} ", f" #{name}", f"{name},", f" {other[:0]}{name}  "))
        yield Case("B.8", f"--alias-names {given!r}", ["-i", path, "--alias-names", given, "-t", T16], expect="ok",
                   check=lambda res, name=name: None if f"#{name} = " in res.out else "alias not printed")
        missing = name[:-1] + "z"
        yield Case("B.8", f"--alias-names {missing!r} (absent)", ["-i", path, "--alias-names", missing, "-t", T16],
                   expect="error", check=lambda res, m=missing: f"did you mean #{m}?" in res.err and
                   "suggests the name given" or None)
    for k in range(2 if quick else 5):
        n = rng.randrange(2, 6)
        empty = rng.randrange(1, n + 1)
        parts = [(f"#a{j} = {BLOCKED}\n" if j != empty else "") + "module {}\n" for j in range(1, n + 1)]
        path = write(os.path.join(scratch, f"sec{k}.mlir"), "// -----\n".join(parts))
        for argv in (["-i", path, "--section", str(empty), "-t", T16],
                     ["info", "-i", path, "--section", str(empty), "--alias-names", f"a{empty}", "-t", T16]):
            yield Case("B.8", f"{argv[0]} --section {empty} of {n} (no aliases)", argv, expect="error",
                       err_has=(f"section {empty}",),
                       check=lambda res: "the file" in res.err and "speaks of the whole file" or None)
    names = ["/etc/passwd", "../decoy", "x/../../decoy", "..", "/tmp/decoy", "a/b", "decoy/..", "~/decoy", "a\\..\\b"]
    for k, bad in enumerate(rng.sample(names, 3 if quick else len(names))):
        entry = rng.choice(cache_entries())
        root = os.path.join(scratch, f"named{k}")
        dst, name = copy_entry(entry, os.path.join(root, "cache", entry))
        with open(os.path.join(dst, name + ".ttgir")) as f:
            write(os.path.join(root, "cache", "decoy.ttgir"), f.read().replace(f"@{name}", "@decoy_kernel"))
        meta = os.path.join(dst, name + ".json")
        with open(meta) as f:
            data = json.load(f)
        data["name"] = bad
        write(meta, json.dumps(data))

        def refused(res, bad=bad):
            if "decoy_kernel" in res.out:
                return "read a file outside the entry"
            try:
                report = json.loads(res.out)
            except ValueError:
                return None if res.rc else "no JSON"
            return None if report.get("failures") else f"name {bad!r} not reported"
        yield Case("B.8", f"NAME.json name {bad!r}", ["audit", dst, "--json"], expect="any", inputs=[dst],
                   check=refused, report=True)
    entries = cache_entries()
    for _ in range(3 if quick else 10):
        a, b = rng.sample(entries, 2)
        (da, na), (db, nb) = entry_kernel(a), entry_kernel(b)
        asm = [f for f in os.listdir(db) if f.endswith((".ptx", ".amdgcn"))]
        if na == nb or not asm:
            continue
        yield Case("B.8", f"audit {na} --asm {asm[0]}", ["audit", os.path.join(da, na + ".ttgir"), "--asm",
                                                         os.path.join(db, asm[0])],
                   expect="error", err_has=(na, nb))


CLASSES = {"B.1": b1, "B.2": b2, "B.3": b3, "B.4": b4, "B.5": b5, "B.6": b6, "B.7": b7, "B.8": b8}
TITLES = {"B.1": "wrong kind of file", "B.2": "lost or clobbered output", "B.3": "memory bounded by the input",
          "B.4": "searches polynomial in rank", "B.5": "big memory views", "B.6": "completion environment",
          "B.7": "Python API types", "B.8": "misleading messages"}


# ------------------------------------------------------------------------------------------------- main

def baseline(source, scratch, limit):
    """The constant of the memory bound: the larger peak RSS of a 16x16 print and a one-kernel audit, + 64 MB."""
    d, name = entry_kernel(cache_entries()[0])
    peaks = [execute(Case("-", "-", argv), source, limit, scratch).rss_mb
             for argv in (["-l", BLOCKED, "-t", T16], ["audit", os.path.join(d, name + ".ttgir")])]
    return max(peaks) + 64


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=ROOT, help="the tree whose ttlayout is run (default: this one)")
    ap.add_argument("--quick", action="store_true", help="fewer and smaller inputs (2-4 minutes)")
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--only", help="classes to run, e.g. B.3,B.4")
    ap.add_argument("--json", help="write every case's outcome to this file")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each case as it runs")
    args = ap.parse_args(argv)
    source = os.path.abspath(args.source)
    scratch = tempfile.mkdtemp(prefix="ttlayout-probe-")
    found = subprocess.run([sys.executable, "-c", "import linlayout_cli; print(linlayout_cli.__file__)"],
                           env=dict(os.environ, PYTHONPATH=source), cwd=scratch, capture_output=True, text=True)
    if not found.stdout.startswith(source):
        raise SystemExit(f"{source}: no ttlayout package there ({found.stdout.strip() or found.stderr.strip()})")
    classes = args.only.split(",") if args.only else list(CLASSES)
    constant = baseline(source, scratch, 60)
    print(f"source {source}; memory bound 10 x input + {constant:.0f} MB; seed {args.seed}"
          f"{'; quick' if args.quick else ''}", flush=True)
    rows, records, started = [], [], time.perf_counter()
    for cls in classes:
        rng = random.Random(f"{args.seed}:{cls}")
        where = os.path.join(scratch, cls)
        os.makedirs(where)
        tried = failed = 0
        for case in CLASSES[cls](rng, where, args.quick):
            before = {p: sha(p) for p in case.keep}
            case.limit_used = case.limit or (30 if args.quick else 60)
            res = execute(case, source, case.limit_used, where)
            bound = 10 * input_bytes(case) / MB + constant
            why = judge(case, res, before, bound)
            n = getattr(case, "count", 1)
            tried += n
            failed += min(n, sum(len(w.split("; ")) for w in why)) if n > 1 else bool(why)
            records.append({"class": cls, "case": case.label, "rc": res.rc, "rss_mb": round(res.rss_mb, 1),
                            "wall_s": round(res.wall, 2), "failures": why, "stderr": res.err.strip()[:300]})
            if args.verbose or why:
                mark = "FAIL" if why else "ok  "
                print(f"  {mark} {cls} {case.label} (exit {res.rc}, {res.rss_mb:.0f} MB, {res.wall:.1f} s)"
                      + ("".join(f"\n         {w}" for w in why)), flush=True)
        rows.append((cls, TITLES[cls], tried, failed))
        shutil.rmtree(where, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)
    print()
    print(f"{'class':6} {'what':30} {'inputs tried':>12} {'failures':>9}")
    for cls, title, tried, failed in rows:
        print(f"{cls:6} {title:30} {tried:>12} {failed:>9}")
    print(f"{'all':6} {'':30} {sum(r[2] for r in rows):>12} {sum(r[3] for r in rows):>9}"
          f"   ({time.perf_counter() - started:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"source": source, "seed": args.seed, "quick": args.quick, "table": rows, "cases": records},
                      f, indent=1)
    return 1 if any(r[3] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
