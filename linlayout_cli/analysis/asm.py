"""The assembly beside the model: a kernel's compiled instructions, counted per Python line, against the audit's
counts of the ops of that line.

The assembly side is an `AsmListing` (parsing/asm.py; this layer takes it as it comes: anything with `kind`,
`source`, `at(line)` and `total`, whose counts have the classes as attributes). The model side is each row's
`Finding.counts`, plus the `ModuleAudit.extras` (instructions at ops that are no row).

An op's Python line, for this comparison, is the one the assembly attributes its instructions to: the outermost
frame of its location in the kernel's own file (the file of the assembly's `.loc`s). For an op of a `@triton.jit`
helper in the same file, that is the line of the kernel that calls the helper, not the helper's line the audit
shows; an op whose frames never reach the kernel's file keeps its own line.

A line agrees when the model's sum over its ops equals the assembly in every class of `ASM_CLASSES` (shared loads
and stores, shuffles, barriers, global loads and stores). The lines compared are those carrying at least one op the
model counts. Where LLVM peeled a loop's first iteration (the listing's `peeled_at(line)`, read from the block
names LLVM writes), the model's count per iteration is compared with the assembly's count net of that peeled copy,
and the copy is kept beside it (`LineCheck.peeled`) for the report to show: fp8_matmul on gfx942, line 19, has 12
`global_load_dwordx4` of which 4 are the peeled iteration; the model's 8 agree with 12 - 4.
"""
from __future__ import annotations

from ..records import frozen

ASM_CLASSES = ("shared_loads", "shared_stores", "shuffles", "barriers", "global_loads", "global_stores")
SHORT = {"shared_loads": "ld", "shared_stores": "st", "shuffles": "shfl", "barriers": "bar", "global_loads": "gld",
         "global_stores": "gst"}


@frozen
class LineCheck:
    """One Python line: the model's counts (summed over its ops) beside the assembly's."""
    line: int
    model: dict
    asm: dict
    ops: tuple                     # dump lines of the ops on it
    unmodelled: tuple = ()         # dump lines of its ops the model does not count
    peeled: dict = {}              # of `asm`, the instructions in a loop iteration LLVM peeled ({} where none)

    def net(self, cls: str) -> int:
        """The assembly's count of a class without the peeled copy: what one loop iteration holds."""
        return self.asm.get(cls, 0) - self.peeled.get(cls, 0)

    @property
    def agrees(self) -> bool:
        return all(self.model.get(c, 0) == self.net(c) for c in ASM_CLASSES)

    def differences(self) -> str:
        """'st 8/4, bar 1/2' (model/assembly net of a peeled copy) for the classes that differ."""
        return ", ".join(f"{SHORT[c]} {self.model.get(c, 0)}/{self.net(c)}" for c in ASM_CLASSES
                         if self.model.get(c, 0) != self.net(c))


@frozen
class KernelAsm:
    """A module's assembly column: per op (by dump line) its Python line and the assembly's counts there, the
    line by line comparison, and the totals."""
    kind: str                      # "ptx" or "amdgcn"
    source: str | None             # the kernel's file, as the assembly names it
    rows: dict                     # dump line of an op -> (Python line, {class: count} of the assembly there)
    lines: tuple                   # LineCheck of every line carrying an op the model counts, in line order
    total: dict                    # the assembly's whole-kernel counts (ASM_CLASSES)
    model_total: dict              # the model's sum over every row and extra

    @property
    def agreeing(self) -> int:
        return sum(1 for c in self.lines if c.agrees)

    @property
    def disagreeing(self) -> tuple:
        return tuple(c for c in self.lines if not c.agrees)

    def row(self, finding) -> tuple[int, dict] | None:
        """(Python line, the assembly's counts there) of a row, None for a row without a line."""
        return self.rows.get(finding.line)

    def check(self, line: int) -> LineCheck | None:
        """The comparison of a Python line (None where no op the model counts is on it)."""
        return next((c for c in self.lines if c.line == line), None)

    def json(self) -> dict:
        """The module's (kernel's) `asm` object: the assembly's totals in ASM_CLASSES, the model's beside them,
        how many Python lines agree and the ones that do not."""
        return {**{c: self.total.get(c, 0) for c in ASM_CLASSES}, "kind": self.kind, "source": self.source,
                "model": {c: self.model_total.get(c, 0) for c in ASM_CLASSES},
                "lines_compared": len(self.lines), "lines_agreeing": self.agreeing,
                "disagreements": [{"line": c.line, "model": {k: c.model.get(k, 0) for k in ASM_CLASSES},
                                   "asm": {k: c.asm.get(k, 0) for k in ASM_CLASSES},
                                   **({"peeled": dict(c.peeled)} if c.peeled else {})} for c in self.disagreeing],
                "peeled": [{"line": c.line, "peeled": dict(c.peeled), "agrees": c.agrees}
                           for c in self.lines if c.peeled]}


def _same_file(a: str, b: str) -> bool:
    """Whether two spellings name one file: equal, or one a path ending in the other ('/x/k.py', 'k.py')."""
    if a == b:
        return True
    a, b = a.replace("\\", "/"), b.replace("\\", "/")
    return a.endswith("/" + b) or b.endswith("/" + a)


def python_line(frames, loc: str | None, source: str | None) -> int | None:
    """The Python line the assembly attributes an op's instructions to: its outermost frame in `source` (the
    kernel's file), else the line of its location.

    >>> python_line((("triton/language/standard.py", 290, 1), ("k.py", 8, 12), ("k.py", 21, 5)), "k.py:8:12", "k.py")
    21
    """
    if source:
        own = [f[1] for f in frames if f[1] and _same_file(f[0], source)]
        if own:
            return own[-1]
    if loc:
        parts = loc.rsplit(":", 2)
        if len(parts) == 3 and parts[1].isdigit():
            return int(parts[1])
    return None


def _asm_counts(listing, line: int) -> dict:
    counts = listing.at(line)
    return {c: getattr(counts, c) for c in ASM_CLASSES}


def _peeled_counts(listing, line: int) -> dict:
    """{class: n} of a line's instructions in a peeled loop iteration, only the classes it has ({} where none)."""
    peeled_at = getattr(listing, "peeled_at", None)
    if peeled_at is None:
        return {}
    counts = peeled_at(line)
    return {c: getattr(counts, c) for c in ASM_CLASSES if getattr(counts, c)}


def kernel_asm(module_audit, listing) -> KernelAsm:
    """The assembly column of one audited module (analysis.audit.ModuleAudit) from its kernel's assembly
    (parsing.asm.read_asm): every op's Python line with the assembly's counts there, and the comparison of each
    line that carries an op the model counts."""
    source = listing.source
    model: dict[int, dict] = {}
    ops: dict[int, list] = {}
    unmodelled: dict[int, list] = {}
    rows: dict[int, tuple[int, dict]] = {}
    total_model = dict.fromkeys(ASM_CLASSES, 0)
    for f in module_audit.findings:
        line = python_line(f.frames, f.loc, source)
        if line is None:
            continue
        peeled = _peeled_counts(listing, line)
        rows[f.line] = (line, {**_asm_counts(listing, line), **({"peeled": peeled} if peeled else {})})
        counts = f.counts
        ops.setdefault(line, []).append(f.line)
        if counts is None:
            unmodelled.setdefault(line, []).append(f.line)
            continue
        acc = model.setdefault(line, dict.fromkeys(ASM_CLASSES, 0))
        for c in ASM_CLASSES:
            acc[c] += counts[c]
            total_model[c] += counts[c]
    for e in getattr(module_audit, "extras", ()):
        for c in ASM_CLASSES:
            total_model[c] += e.counts.get(c, 0)
        line = python_line(e.frames, e.loc, source)
        if line in model:
            for c in ASM_CLASSES:
                model[line][c] += e.counts.get(c, 0)
    lines = tuple(LineCheck(n, model[n], _asm_counts(listing, n), tuple(ops[n]), tuple(unmodelled.get(n, ())),
                            _peeled_counts(listing, n)) for n in sorted(model))
    total = {c: getattr(listing.total, c) for c in ASM_CLASSES}
    return KernelAsm(listing.kind, source, rows, lines, total, total_model)


__all__ = ["ASM_CLASSES", "LineCheck", "KernelAsm", "kernel_asm", "python_line"]
