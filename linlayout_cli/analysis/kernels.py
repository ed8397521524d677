"""Many kernels audited at once: one record per kernel (its audit summed up, beside what Triton's compiler recorded
for it: the target, the warps, the CTAs and the shared-memory bytes of its metadata), and their ranking.

The compiler's metadata (`NAME.json` in Triton's cache, `CompiledKernel.metadata`) is read here from any mapping,
namedtuple or object with its field names; where it and the module's own attributes disagree, or where the model's
shared bytes differ from the compiler's, the record says why in words (the known differences are those of
docs/audit_model.md, "Shared memory").
"""
from __future__ import annotations

from ..errors import TTLayoutError
from ..parsing.module import leading_int
from ..records import frozen
from .kernel.findings import ModuleAudit, module_cost
from .kernel.memory import partition_warps

WARP_GROUP = 4                 # warps Triton rounds warp_specialize partitions up to
TMA_SCRATCH = 128              # bytes of one ttng.tensormap_create scratch buffer


class MetadataError(TTLayoutError):
    """Kernel metadata that lacks a field the audit needs, or holds one of the wrong kind."""


@frozen
class Compiled:
    """What Triton's compiler recorded for one kernel: `target` (backend, arch, warp_size), `num_warps` (every warp
    of the CTA, warp_specialize partitions included), `num_ctas` and `shared` (bytes; None where not recorded)."""
    backend: str
    arch: str
    warp_size: int
    num_warps: int
    num_ctas: int
    shared: int | None
    name: str = ""
    key: str = ""                  # the compile's hash (hexadecimal), which names its cache directory

    @property
    def target(self) -> str:
        """As a module's `ttg.target` writes it: 'cuda:90', 'hip:gfx942'."""
        return f"{self.backend}:{self.arch}"


def _field(meta, name: str, default=KeyError):
    """A field of a mapping, a namedtuple or any object with attributes."""
    if isinstance(meta, dict) or hasattr(meta, "keys") and hasattr(meta, "__getitem__"):
        try:
            return meta[name]
        except (KeyError, TypeError):
            pass
    elif hasattr(meta, name):
        return getattr(meta, name)
    if default is KeyError:
        raise MetadataError(f"no '{name}' field")
    return default


def _int(value, name: str, low: int = 0, high: int = 1 << 40) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = repr(value)
        raise MetadataError(f"'{name}' is {shown[:40]}, not an integer from {low} to {high}")
    return value


def _target(meta) -> tuple[str, str, int]:
    """(backend, arch, warp_size) from a target given as a mapping, a GPUTarget-like object or a
    [backend, arch, warp_size] list."""
    t = _field(meta, "target")
    if isinstance(t, (list, tuple)) and not hasattr(t, "_fields") and len(t) == 3:
        backend, arch, warp_size = t
    else:
        backend, arch, warp_size = (_field(t, k) for k in ("backend", "arch", "warp_size"))
    if not isinstance(backend, str) or not backend.isidentifier() or len(backend) > 20:
        raise MetadataError(f"'target.backend' is {repr(backend)[:40]}, not a backend name")
    if isinstance(arch, bool) or not isinstance(arch, (int, str)) or not str(arch).isalnum() or len(str(arch)) > 20:
        raise MetadataError(f"'target.arch' is {repr(arch)[:40]}, not an architecture")
    return backend, str(arch), _int(warp_size, "target.warp_size", 1, 1024)


def plain_name(name: str) -> bool:
    """Whether a kernel name from metadata can name files beside it: no '/' or '\\', not
    '.' or '..', no NUL (Triton's names are Python identifiers, `kernel_name` plus specialisation suffixes).

    >>> [plain_name(n) for n in ("softmax", "", "../x", "/etc/x", "a/b", "..")]
    [True, True, False, False, False, False]
    """
    return not any(c in name for c in "/\\\x00") and name not in (".", "..")


def compiled_from(meta) -> Compiled:
    """The compiler's facts from its metadata (the parsed NAME.json, or a CompiledKernel's `metadata`: a namedtuple
    in Triton 3.9, a dict in older versions); MetadataError naming the field that is missing or wrong.

    >>> compiled_from({"target": {"backend": "cuda", "arch": 90, "warp_size": 32}, "num_warps": 4, "num_ctas": 1,
    ...                "shared": 64, "name": "softmax"}).target
    'cuda:90'
    """
    backend, arch, warp_size = _target(meta)
    shared = _field(meta, "shared", None)
    name, key = _field(meta, "name", ""), _field(meta, "hash", "")
    if isinstance(name, str) and not plain_name(name):
        raise MetadataError(f"'name' is {name[:60]!r}, not a kernel's name (a kernel's files are NAME.ttgir, "
                            "NAME.json beside each other: a path there would point outside their directory)")
    return Compiled(backend, arch, warp_size, _int(_field(meta, "num_warps"), "num_warps", 1, 1 << 16),
                    _int(_field(meta, "num_ctas", 1), "num_ctas", 1, 1 << 16),
                    None if shared is None else _int(shared, "shared"), name if isinstance(name, str) else "",
                    key if isinstance(key, str) else "")


# ----------------------------------------------------------------------------------------- one kernel


@frozen
class OpRef:
    """One op of a kernel, as a ranking names it."""
    op: str
    line: int
    loc: str | None
    cost: float


@frozen
class KernelAudit:
    """One kernel's audit summed up. `name` is what the report shows (the kernel's name, plus the cache entry's
    short hash where it comes from a cache); `target_from` says who chose the target ("metadata": the compiler's,
    "option": --target, "module": the module's ttg.target, "default"); `num_warps` is the compiler's where known
    (warp_specialize partitions included), else the module's. `shared_note` says why the model's shared bytes
    differ from the compiler's (`shared_known`: a difference docs/audit_model.md explains); `notes` where the
    metadata and the module disagree. `ops` and `asm` are filled by whoever reports the kernel: its op rows and
    the assembly's counts (None until read)."""
    name: str
    kernel: str
    path: str
    module: int
    target: str
    target_from: str
    num_warps: int | None
    threads_per_warp: int | None
    num_ctas: int | None
    cost: float
    costliest: OpRef | None
    conversions: dict
    shared_bytes: int
    shared_is_bound: bool
    compiler_shared_bytes: int | None
    shared_note: str
    shared_known: bool
    notes: tuple[str, ...]
    problems: int
    ops: tuple = ()
    asm: object = None

    @property
    def shared_agrees(self) -> bool | None:
        """Whether the model's shared bytes are the compiler's (None: the compiler's are not known)."""
        return None if self.compiler_shared_bytes is None else self.shared_bytes == self.compiler_shared_bytes


@frozen
class KernelFailure:
    """A kernel that could not be audited, and why in one line."""
    name: str
    path: str
    reason: str


def module_int(module, key: str) -> int | None:
    """An integer module attribute ('ttg.num-ctas' = '1 : i32' -> 1), None where absent."""
    return leading_int(module.attributes.get(key))


def metadata_notes(module, compiled: Compiled, source: str = "metadata") -> tuple[str, ...]:
    """Where the compiler's metadata (`source` names it: 'softmax.json') and the module's own attributes disagree,
    one line each; the compiler's values are the ones audited. Warps the metadata counts in warp_specialize
    partitions (rounded up to a warp group, as Triton does) are said to be those, not a disagreement."""
    notes = []
    if module.target is not None and module.target != compiled.target:
        notes.append(f"{source} says target {compiled.target}, the module's ttg.target {module.target}; "
                     f"audited for {compiled.target}")
    warps = module.num_warps
    if warps is not None and warps != compiled.num_warps:
        part = partition_warps(module.ops)
        extra = compiled.num_warps - warps
        if part and extra == part:
            notes.append(f"{compiled.num_warps} warps in {source}: ttg.num-warps {warps} + {part} in "
                         "warp_specialize partitions")
        elif part and extra == _warp_groups(part):
            notes.append(f"{compiled.num_warps} warps in {source}: ttg.num-warps {warps} + {part} in "
                         f"warp_specialize partitions, rounded up to {extra} (whole warp groups)")
        else:
            notes.append(f"{source} says {compiled.num_warps} warps, the module's ttg.num-warps {warps}")
    lanes = module.threads_per_warp
    if lanes is not None and lanes != compiled.warp_size:
        notes.append(f"{source} says {compiled.warp_size} threads per warp, the module's ttg.threads-per-warp "
                     f"{lanes}")
    ctas = module_int(module, "ttg.num-ctas")
    if ctas is not None and ctas != compiled.num_ctas:
        notes.append(f"{source} says {compiled.num_ctas} CTAs, the module's ttg.num-ctas {ctas}")
    return tuple(notes)


def _warp_groups(warps: int) -> int:
    """Warps rounded up to whole warp groups of 4 (Triton's partitions: 3 warps take 4)."""
    return -(-warps // WARP_GROUP) * WARP_GROUP


def shared_difference(module, m: ModuleAudit, compiled: Compiled | None) -> tuple[str, bool]:
    """Why the model's shared bytes differ from the compiler's, and whether the reason is a known one
    (docs/audit_model.md, "Shared memory"); ('', True) where they agree or the compiler's are unknown.

    The known cases: warp_specialize partitions whose warps Triton rounds up to a warp group keep one warp-index
    byte per rounded warp; a 128-byte `ttng.tensormap_create` scratch that Triton places apart in a kernel with
    warp_specialize (MLIR's liveness of captured values is not reproduced); a model figure that is an upper
    bound (too many buffers live together to place them as Triton does)."""
    if compiled is None or compiled.shared is None or compiled.shared == m.shared.total:
        return "", True
    diff = compiled.shared - m.shared.total
    names = {op.name for op in module.ops}
    part = partition_warps(module.ops)
    extra = compiled.num_warps - (module.num_warps or compiled.num_warps)
    if part and diff == extra - part > 0:
        return (f"compiler +{diff} byte{'s' * (diff > 1)}: Triton keeps one warp-index byte per warp of the "
                f"warp_specialize partitions rounded up to whole warp groups ({part} warps take {extra}); the "
                f"model counts {part}"), True
    if diff > 0 and not diff % TMA_SCRATCH and "ttng.tensormap_create" in names and "ttg.warp_specialize" in names:
        n = diff // TMA_SCRATCH
        return (f"compiler +{diff} bytes: Triton places {n} {TMA_SCRATCH}-byte tensormap_create scratch "
                f"buffer{'s' * (n > 1)} apart from the others in this warp-specialized kernel (MLIR's liveness of "
                "values captured by warp_specialize, not reproduced)"), True
    if m.shared.bound and diff < 0:
        return (f"model {-diff} bytes above the compiler: its figure is an upper bound (too many buffers live "
                "together to place them as Triton does)"), True
    return (f"compiler {diff:+} bytes: a difference the model does not explain (docs/audit_model.md lists the "
            "known ones)"), False


def kernel_audit(module, m: ModuleAudit, *, name: str, kernel: str, path: str,
                 compiled: Compiled | None = None, source: str = "metadata", target_from: str | None = None,
                 ops: tuple = ()) -> KernelAudit:
    """One module's audit `m` (of parsed `module`) as a kernel record, beside the compiler's metadata."""
    costly = max(m.findings, key=lambda f: (f.cost, -f.line), default=None)
    costliest = OpRef(costly.op, costly.line, costly.loc, costly.cost) if costly and costly.cost > 0 else None
    note, known = shared_difference(module, m, compiled)
    notes = metadata_notes(module, compiled, source) if compiled is not None else ()
    return KernelAudit(
        name, kernel, path, m.index, m.target.name, target_from or m.target_given,
        compiled.num_warps if compiled is not None else m.num_warps,
        compiled.warp_size if compiled is not None else m.threads_per_warp,
        compiled.num_ctas if compiled is not None else module_int(module, "ttg.num-ctas"),
        module_cost(m).cost, costliest, dict(m.paths), m.shared.total, m.shared.bound,
        compiled.shared if compiled is not None else None, note, known, notes, len(m.problems), tuple(ops))


# ----------------------------------------------------------------------------------------- many kernels


def ranked(kernels) -> list[KernelAudit]:
    """Costliest first (`analysis.audit.module_cost`); ties by name, then path, so the order never depends on
    which worker finished first."""
    return sorted(kernels, key=lambda k: (-k.cost, k.name, k.path, k.module))


@frozen
class Summary:
    """What the kernels add up to: how many, how many failed, conversions by path over all of them, how many
    agree with the compiler's shared bytes, differ for a known reason, or differ unexplained (their names)."""
    kernels: int
    failed: int
    conversions: dict
    shared_equal: int
    shared_explained: int
    shared_unexplained: tuple[str, ...]
    shared_unknown: int


def summary(results) -> Summary:
    kernels = [r for r in results if isinstance(r, KernelAudit)]
    paths: dict[str, int] = {}
    for k in kernels:
        for p, n in k.conversions.items():
            paths[p] = paths.get(p, 0) + n
    equal = sum(k.shared_agrees is True for k in kernels)
    unknown = sum(k.shared_agrees is None for k in kernels)
    unexplained = tuple(k.name for k in ranked(kernels) if k.shared_agrees is False and not k.shared_known)
    return Summary(len(kernels), len(results) - len(kernels), dict(sorted(paths.items(), key=lambda kv: -kv[1])),
                   equal, len(kernels) - equal - unknown - len(unexplained), unexplained, unknown)

