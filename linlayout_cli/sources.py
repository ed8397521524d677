"""Where kernels live, and auditing many of them: TTGIR files, directories searched for `*.ttgir`, Triton's cache
(`$TRITON_CACHE_DIR`, else `$TRITON_HOME/.triton/cache`, else `~/.triton/cache`), each kernel's `NAME.json` beside
its `NAME.ttgir` (the compiler's target, warps, CTAs and shared bytes, which win over what the module says); the
error for a file Triton writes beside a kernel that is not its TTGIR; and the audit of many kernels in parallel
(a bounded pool of worker processes, a bounded number of results in flight, one analysis memo per worker).

A kernel that cannot be audited is a `KernelFailure` with its reason in one line; the others still report.
"""
from __future__ import annotations

import os

from . import inputs, outfile
from .analysis.kernels import KernelAudit, KernelFailure
from .errors import TTLayoutError, abbreviate_path, printable
from .patterns import lazy
from .records import frozen, replace

TYPE_CHECKING = False
if TYPE_CHECKING:      # annotations only
    from .analysis.targets import Target

METADATA_LIMIT = 1 << 20             # bytes of a NAME.json (Triton writes a few KB): more is refused unparsed
MAX_KERNELS = 100_000                 # .ttgir files one run takes; more is an error that says so
SHORT_HASH = 8                        # characters of a cache directory's hash in a kernel's name
TTGIR = ".ttgir"
_HASH_DIR = lazy(r"[A-Za-z0-9_-]{16,}")      # Triton's cache directories: base32 (3.x) or hex (older)

def not_ttgir_error(path: str) -> str | None:
    """The error for a file given as a kernel that is another file Triton writes (`inputs.path_kind`: metadata,
    assembly, TTIR, LLVM IR, source, binary, Python), naming where its TTGIR is; None for any other file."""
    kind = inputs.path_kind(path)
    return kind.message(abbreviate_path(path)) if kind is not None else None


def is_directory(path: str) -> bool:
    """Whether a path given is a directory (of kernels, or Triton's cache)."""
    return path != "-" and "\x00" not in path and os.path.isdir(path)


def default_cache() -> str:
    """Where Triton keeps its cache, as Triton 3.9's `knobs.cache.dir` finds it."""
    given = os.environ.get("TRITON_CACHE_DIR")
    if given:
        return given
    return os.path.join(os.environ.get("TRITON_HOME") or os.path.expanduser("~"), ".triton", "cache")


# ----------------------------------------------------------------------------------------- finding kernels


@frozen
class Kernel:
    """A TTGIR file to audit: `name` is the kernel's (the file's stem), `label` what reports show (the name, plus
    the first characters of its cache directory's hash where it sits in one), `metadata` the NAME.json beside it."""
    path: str
    name: str
    label: str
    metadata: str | None = None


def kernel_at(path: str) -> Kernel:
    """The kernel of one TTGIR file, with its NAME.json where one is beside it."""
    directory, base = os.path.split(path)
    name = base[: -len(TTGIR)] if base.endswith(TTGIR) else os.path.splitext(base)[0] or base
    json_path = os.path.join(directory, name + ".json")
    meta = json_path if os.path.isfile(json_path) else None
    parent = os.path.basename(os.path.normpath(directory)) if directory else ""
    label = f"{name}@{parent[:SHORT_HASH]}" if meta and _HASH_DIR.fullmatch(parent) else name
    return Kernel(path, name, label, meta)


def find_kernels(paths, limit: int = MAX_KERNELS) -> tuple[list[Kernel], list[KernelFailure]]:
    """The kernels of the paths given: a file is one kernel (a file Triton writes beside a kernel that is not its
    TTGIR, or one that cannot be read, is a failure saying so), a directory every `*.ttgir` below it (symbolic
    links followed, each directory once, so a link loop ends). More than `limit` files is an error. Sorted by
    path; a file reached twice is audited once."""
    found: dict[str, str] = {}
    failures: list[KernelFailure] = []
    for path in paths:
        shown = abbreviate_path(path)
        if "\x00" in path:
            raise TTLayoutError(f"cannot read {shown}: the name contains a NUL character")
        if os.path.isdir(path):
            _walk(path, found, failures, limit)
            continue
        error = not_ttgir_error(path)
        if error is None and not os.path.exists(path):
            error = f"cannot read {shown}: No such file or directory"
        if error is not None:
            failures.append(KernelFailure(printable(os.path.basename(path)), path, error))
            continue
        found.setdefault(os.path.realpath(path), path)
        _check_limit(found, limit, path)
    kernels = [kernel_at(p) for p in sorted(found.values())]
    for k in kernels:                           # read by workers: -o must refuse them like any input
        for path in (k.path, k.metadata, *(os.path.splitext(k.path)[0] + s for s in inputs.ASM_SUFFIXES)):
            if path is not None:
                outfile.remember_path(path)
    return kernels, failures


def _check_limit(found: dict, limit: int, path: str) -> None:
    if len(found) > limit:
        raise TTLayoutError(f"more than {limit:,} .ttgir files under {abbreviate_path(path)}; audit a part of it "
                            "(one directory of the cache, or fewer paths)")


def _walk(root: str, found: dict, failures: list, limit: int) -> None:
    """Every *.ttgir file below `root` into `found` (real path -> path); each directory once by its identity."""
    seen: set = set()
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            st = os.stat(directory)
            if (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError as e:
            failures.append(KernelFailure(printable(os.path.basename(directory) or directory), directory,
                                          f"cannot read directory {abbreviate_path(directory)}: {e.strerror or e}"))
            continue
        for entry in entries:
            try:
                if entry.is_dir():
                    stack.append(entry.path)
                elif entry.name.endswith(TTGIR) and entry.is_file():
                    found.setdefault(os.path.realpath(entry.path), entry.path)
                    _check_limit(found, limit, root)
                elif entry.name.endswith(TTGIR):      # a FIFO, a device, a dangling link: said, never opened
                    failures.append(KernelFailure(printable(entry.name), entry.path,
                                                  f"{abbreviate_path(entry.path)} is not a regular file"))
            except OSError:
                continue


def is_label(word: str) -> bool:
    """Whether a word given as a path is a kernel label (`softmax@VEI3L42R`, as `audit --cache` prints it: the
    name, '@', the first characters of its cache directory) and names no file.

    >>> is_label("softmax@VEI3L42R"), is_label("dir/softmax@VEI3L42R"), is_label("softmax.ttgir")
    (True, False, False)
    """
    name, at, digest = word.rpartition("@")
    return (bool(at and name and digest) and len(digest) <= SHORT_HASH and digest.isascii()
            and all(c.isalnum() or c in "_-" for c in digest) and not any(c.isspace() or c in "/\\" for c in name)
            and not os.path.lexists(word))


def where_text(paths) -> str:
    """The paths searched, shortened, for a report's title or an error ('DIR, DIR2 and 3 more')."""
    return ", ".join(abbreviate_path(p, 60) for p in paths[:3]) + (f" and {len(paths) - 3} more"
                                                                  if len(paths) > 3 else "")


def kernels_of(paths, cache: bool, command: str) -> tuple[list[Kernel], list[KernelFailure], str]:
    """The kernels of directories and files given, or of Triton's cache (`cache`; no path: the default one):
    (kernels, failures, where they were searched). One error line when there is nothing to audit: no cache, no
    *.ttgir below the paths, or the one path given cannot be read. `command` names the command in the hints."""
    if "-" in paths:
        raise TTLayoutError("standard input ('-') is one file: give it alone, not with directories or --cache")
    if cache and not paths:
        paths = (default_cache(),)
        if not is_directory(paths[0]):
            raise TTLayoutError(f"no Triton cache at {abbreviate_path(paths[0])} (set TRITON_CACHE_DIR, or give "
                                f"the directory: ttlayout {command} --cache DIR)")
    where = where_text(paths)
    kernels, failures = find_kernels(paths)
    if not kernels and not failures:
        raise TTLayoutError(f"no kernel in {where}: no *.ttgir file below it")
    if not kernels and len(failures) == 1:        # the one path given cannot be read: one error line
        raise TTLayoutError(failures[0].reason)
    return kernels, failures, where


def select_labels(kernels: list[Kernel], labels, where: str) -> list[Kernel]:
    """The kernels that `labels` name (`name@hash` as `audit --cache` prints them, or a kernel's plain name where
    that is its label), in the order given; an unknown label is one error line."""
    by_label: dict[str, list[Kernel]] = {}
    for k in kernels:
        by_label.setdefault(k.label, []).append(k)
    out: list[Kernel] = []
    for label in labels:
        if label not in by_label:
            near = sorted(n for n in by_label if n.split("@")[0] == label.split("@")[0])[:3]
            hint = f"; {label.split('@')[0]} is there as {', '.join(near)}" if near else ""
            raise TTLayoutError(f"no kernel {label} in {where} ({len(kernels)} kernels{hint}; "
                                "'ttlayout audit --cache' lists them as NAME@HASH)")
        out += [k for k in by_label[label] if k not in out]
    return out


# ----------------------------------------------------------------------------------------- one kernel


def read_metadata(path: str):
    """NAME.json as `analysis.kernels.Compiled`; a TTLayoutError naming the file and what is wrong."""
    import json

    from .analysis.kernels import compiled_from
    text = inputs.read_text(path, None, METADATA_LIMIT)
    try:
        return compiled_from(json.loads(text))
    except (ValueError, RecursionError) as e:
        raise TTLayoutError(f"{os.path.basename(path)} is not JSON ({e})") from None
    except TTLayoutError as e:
        raise TTLayoutError(f"{os.path.basename(path)}: {e}") from None


def read_assembly(text: str):
    """(the listing of a kernel's PTX or AMDGCN text, or None; why it could not be read, or None)."""
    from .parsing.asm import AsmError, read_asm
    try:
        return read_asm(text), None
    except AsmError as e:
        return None, printable(str(e))


def asm_columns(audits, listing) -> list | None:
    """Each audited module's assembly column (`analysis.asm.kernel_asm`) from its kernel's listing; None without."""
    if listing is None:
        return None
    from .analysis.asm import kernel_asm
    return [kernel_asm(m, listing) for m in audits]


def kernel_assembly(path: str, several: bool):
    """(the assembly beside a kernel's TTGIR, NAME.ptx / NAME.amdgcn, read by `inputs.assembly`, or None; the
    reason it could not be read, or None): an unreadable assembly does not stop the kernel's audit, its `asm`
    says why."""
    try:
        return inputs.assembly(path, None, None, several), None
    except TTLayoutError as e:
        return None, printable(str(e))


def audit_modules(text: str, target: Target | None = None, compiled=None, source: str = "metadata", memo=None):
    """(the parsed modules of one TTGIR text, their `ModuleAudit`s, who chose the target): audited for `target`
    (--target: "option"), else the compiler's target (`compiled`, `analysis.kernels.Compiled`: "metadata"), else
    each module's (None: `ModuleAudit.target_given` says). TTLayoutError where the text cannot be audited."""
    from .analysis.kernel.audit import analyze_audit
    from .analysis.targets import get_target
    modules = list(inputs.modules(text)) if inputs.holds_module(text) else []
    if not modules:
        raise TTLayoutError("the file holds no module to audit")
    chosen, origin = target, "option" if target is not None else None
    if chosen is None and compiled is not None:
        try:
            chosen = get_target(compiled.target)        # the compiler's target, resolved once here
        except TTLayoutError as e:
            raise TTLayoutError(f"{source}: {e}") from None
        origin = "metadata"
    return modules, analyze_audit(modules, chosen, len(modules) > 1, memo), origin


def kernel_records(modules, audits, origin: str | None, *, name: str, path: str, compiled=None,
                   source: str = "metadata", keep: int | None = None, columns=None,
                   asm_error: str | None = None) -> list[KernelAudit]:
    """One `KernelAudit` per module (`analysis.kernels.kernel_audit`) with its op rows as the JSON report writes
    them; `keep`: how many to keep (the costliest; None: all, in dump order); `columns`: each module's assembly
    column (`asm_columns`), whose counts fill each op's and the kernel's `asm` (`asm_error`: why it is missing)."""
    from .analysis.kernels import kernel_audit
    from .reports.audit import ops_json
    out = []
    for k, (module, m) in enumerate(zip(modules, audits)):
        column = columns[k] if columns is not None else None
        ops = ops_json(m, column)
        if keep is not None:
            ops = sorted((o for o in ops if o["cost"] > 0), key=lambda o: (-o["cost"], o["line"]))[:keep]
        label = f"{name} (module {m.index + 1})" if len(audits) > 1 else name
        kernel = compiled.name if compiled is not None and compiled.name else name.split("@")[0]
        record = kernel_audit(module, m, name=label, kernel=kernel, path=path, compiled=compiled, source=source,
                              target_from=origin, ops=tuple(ops))
        asm = column.json() if column is not None else {"error": asm_error} if asm_error else None
        out.append(replace(record, asm=asm))
    return out


def cache_label(name: str, key: str) -> str:
    """A kernel's name with the first characters of its cache directory, which Triton names by the base32 of the
    kernel's hash (`CompiledKernel.hash`, hexadecimal); the name alone where the hash is not hexadecimal.

    >>> cache_label("softmax", "a911b5f351d4e798b143748d76b2d58ececc997e42c04ede454df81b61bdb249")
    'softmax@VEI3L42R'
    """
    import base64
    import binascii
    try:
        directory = base64.b32encode(bytes.fromhex(key)).decode("ascii").rstrip("=")
    except (ValueError, TypeError, binascii.Error):
        return name
    return f"{name}@{directory[:SHORT_HASH]}" if directory else name


def audit_kernel(kernel: Kernel, target: Target | None = None, keep: int | None = None, memo=None) -> list:
    """The records of one kernel file: its KernelAudits, or one KernelFailure saying why it could not be audited."""
    try:
        compiled = read_metadata(kernel.metadata) if kernel.metadata else None
        source = os.path.basename(kernel.metadata) if kernel.metadata else "metadata"
        text = inputs.read_text(kernel.path, None)
        modules, audits, origin = audit_modules(text, target, compiled, source, memo)
        listing, asm_error = kernel_assembly(kernel.path, len(modules) > 1)
        return kernel_records(modules, audits, origin, name=kernel.label, path=kernel.path, compiled=compiled,
                              source=source, keep=keep, columns=asm_columns(audits, listing), asm_error=asm_error)
    except TTLayoutError as e:
        return [KernelFailure(kernel.label, kernel.path, printable(str(e)))]
    except RecursionError:
        return [KernelFailure(kernel.label, kernel.path, "input nested too deeply")]
    except MemoryError:
        return [KernelFailure(kernel.label, kernel.path, "out of memory while auditing it")]
    except Exception as e:                        # a bug: this kernel says so, the others still report
        return [KernelFailure(kernel.label, kernel.path, printable(
            f"internal error ({type(e).__name__}: {e}); please report this kernel"))]


# ----------------------------------------------------------------------------------------- many kernels

CHUNK = 4                     # kernels a worker audits per task (fewer messages between processes)
IN_FLIGHT = 2                 # tasks in flight per worker: results waiting in the parent stay bounded
MEMO_LIMIT = 4096              # analyses a worker keeps (about 10 KB each); past that it starts a fresh memo

_memo = None                  # a worker's memo of analyses (module global: one per process)


def cpu_count() -> int:
    """The processors this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _worker_start() -> None:
    """A worker ignores Ctrl-C (the parent stops the run) and takes every other signal's default action, so that
    neither prints a traceback; it keeps one memo of analyses for all the kernels it audits."""
    import signal
    for signum in signal.valid_signals():
        try:
            if callable(signal.getsignal(signum)):
                signal.signal(signum, signal.SIG_DFL)
        except (OSError, ValueError, RuntimeError):
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_memo():
    global _memo
    from .analysis.kernel.context import Memo
    if _memo is None or len(_memo.values) > MEMO_LIMIT:
        _memo = Memo()
    return _memo


def _audit_chunk(kernels, target, keep) -> list:
    memo = _worker_memo()
    return [r for k in kernels for r in audit_kernel(k, target, keep, memo)]


def audit_kernels(kernels, target: Target | None = None, keep: int | None = None, jobs: int | None = None,
                  progress=None) -> list:
    """Every kernel audited (`audit_kernel`), in parallel over `jobs` processes (default: every processor); the
    records in no particular order (rank them). `progress(done, total)` is called as kernels finish. Ctrl-C stops
    the workers and is raised again; a worker that dies (killed, out of memory) fails its kernels, not the run."""
    kernels = list(kernels)
    total = len(kernels)
    jobs = max(1, min(jobs or cpu_count(), -(-total // CHUNK)))
    if jobs == 1:
        out: list = []
        memo = _worker_memo()
        for done, k in enumerate(kernels, 1):
            out += audit_kernel(k, target, keep, memo)
            if progress is not None:
                progress(done, total)
        return out
    return _in_pool(kernels, target, keep, jobs, progress)


def _in_pool(kernels, target, keep, jobs, progress) -> list:
    """`audit_kernels` over a pool of `jobs` worker processes. When a worker dies (killed, out of memory), the
    pool is lost with every task it held: those kernels are audited again at the end one at a time, each alone in
    its worker, so that only a kernel whose own worker dies fails, with that reason."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, wait
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    queue = iter([kernels[i:i + CHUNK] for i in range(0, len(kernels), CHUNK)])
    out: list = []
    suspects: list = []
    pending: dict = {}
    done = 0
    with _Interruptible() as interrupt:
        pool = _pool(jobs, context)
        try:
            while True:
                for chunk in queue:
                    pending[pool.submit(_audit_chunk, chunk, target, keep)] = chunk
                    if len(pending) >= IN_FLIGHT * jobs:
                        break
                if not pending:
                    break
                finished, _ = wait(pending, timeout=POLL, return_when=FIRST_COMPLETED)
                interrupt.check()
                lost = False
                for future in finished:
                    chunk = pending.pop(future)
                    records = _result(future)
                    if records is None:
                        lost = True
                        suspects += chunk
                    else:
                        out += records
                        done += len(chunk)
                        _report(progress, done, len(kernels))
                if lost:                     # a worker died: the pool and every task it held are lost
                    suspects += [k for chunk in pending.values() for k in chunk]
                    pending.clear()
                    pool.shutdown(wait=True)
                    pool = _pool(jobs, context)
            pool.shutdown(wait=True)
            for kernel in suspects:          # one at a time, alone in a worker: a death is that kernel's
                pool = _pool(1, context)
                future = pool.submit(_audit_chunk, [kernel], target, keep)
                while not wait([future], timeout=POLL)[0]:
                    interrupt.check()
                out += _result(future) or [KernelFailure(kernel.label, kernel.path, DIED)]
                pool.shutdown(wait=True)
                done += 1
                _report(progress, done, len(kernels))
        except BaseException:
            _stop(pool)
            raise
        return out


def _report(progress, done: int, total: int) -> None:
    if progress is not None:
        progress(done, total)


DIED = "the process auditing it ended (killed, or out of memory)"
POLL = 0.1                    # seconds between looks at Ctrl-C while waiting for the workers


class _Interruptible:
    """Ctrl-C while the workers run is noted by a handler and raised by `check()` in the waiting loop: raised from
    the handler, it could land inside the pool's own code (a finalizer, a thread start) and be swallowed there.
    A SIGINT the process ignores (a background job) stays ignored; off the main thread nothing changes."""

    def __enter__(self):
        import signal
        self.hit, self.saved = False, None
        try:
            if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None):
                self.saved = signal.signal(signal.SIGINT, self._note)
        except ValueError:                              # not the main thread
            pass
        return self

    def _note(self, signum, frame) -> None:
        self.hit = True

    def check(self) -> None:
        if self.hit:
            self.hit = False
            raise KeyboardInterrupt

    def __exit__(self, *exc):
        import signal
        if self.saved is not None:
            signal.signal(signal.SIGINT, self.saved)
        self.check()


def _pool(jobs: int, context):
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_start)


def _result(future) -> list | None:
    """A task's records, or None where its worker died."""
    from concurrent.futures.process import BrokenProcessPool
    try:
        return future.result()
    except BrokenProcessPool:
        return None


def _stop(pool) -> None:
    """End a pool now: cancel what has not started and end its workers (Ctrl-C does not wait for them)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in workers:
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):
            pass
    pool.shutdown(wait=True)          # the pool's thread sees its workers gone and ends; nothing is left for exit
