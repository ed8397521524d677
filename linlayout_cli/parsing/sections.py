"""The sections of an MLIR file: the modules of a lit file (`// -----` lines, as `triton-opt -split-input-file`
cuts them) and the passes of an `MLIR_ENABLE_DUMP=1` capture, where MLIR prints the IR before each pass under a
header `// -----// IR Dump Before PASS: ARG ('OP' operation: @SYMBOL) //----- //` and Triton's software pipeliner
adds `// -----// SoftwarePipeliner internal IR Dump After: STEP`. Every line that starts with `// -----` ends a
section; each section is its own module with its own aliases.

Which module of a dump is TTGIR: MLIR prints the module as the pass *receives* it, so the section under `IR Dump
Before ConvertTritonGPUToLLVM` is the last TTGIR: the pass turns every `tt.func` into an `llvm.func`. A section is
TTGIR when its module carries `ttg.num-warps` (ConvertTritonToTritonGPU adds it, with the layouts) and holds a
`tt.func` but no `llvm.func`.
"""
from __future__ import annotations

import re

from ..patterns import lazy
from ..records import frozen
from .lexical import line_matches

BREAK = lazy(r"^// -----.*$", re.M)             # every line that starts a new section
_DUMP = lazy(r"^// -----// IR Dump (Before|After) ([^:(]+?)(?:: (.*?))? \('([\w.]+)' operation(?:: @(\S+))?\)"
              r" //----- //\s*$")
_PIPELINER = lazy(r"^// -----// (SoftwarePipeliner) internal IR Dump (After): (\w+)\s*$")
_NOT_SPACE = re.compile(r"\S")                       # what `str.strip` keeps: a section that holds more than space
_TTGIR = lazy(r'"?ttg\.num-warps"?\s*=')
_TT_FUNC = lazy(r"^\s*tt\.func\b", re.M)
_LLVM_FUNC = lazy(r"^\s*llvm\.func\b", re.M)


@frozen
class Section:
    """One section of a file: its number (1-based), the line its text starts on (the line after its header), its text's [start, end) in the file, and for a dump the header's facts: `when` ('Before' / 'After'), the pass (`ConvertTritonGPUToLLVM`, or
    the pipeliner's step `LowerLoops`), the operation it names (`builtin.module`, `tt.func`) and its symbol."""
    number: int
    first_line: int
    start: int
    end: int
    header: str = ""
    when: str = ""
    pass_name: str = ""
    operation: str = ""
    symbol: str = ""

    @property
    def is_pass(self) -> bool:
        return bool(self.pass_name)

    def title(self) -> str:
        """'IR Dump Before ConvertTritonGPUToLLVM' / 'SoftwarePipeliner IR Dump After LowerLoops' / 'section 3'."""
        if not self.pass_name:
            return f"section {self.number}"
        who = "SoftwarePipeliner " if self.operation == "SoftwarePipeliner" else ""
        return f"{who}IR Dump {self.when} {self.pass_name}"


def header_facts(line: str) -> dict:
    """What a `// -----` line says: {} for a lit separator; when, pass_name, operation, symbol for a dump header.

    >>> header_facts("// -----// IR Dump Before TritonGPUCoalesce: tritongpu-coalesce ('builtin.module' operation) //----- //")
    {'when': 'Before', 'pass_name': 'TritonGPUCoalesce', 'operation': 'builtin.module', 'symbol': ''}
    >>> header_facts("// -----// SoftwarePipeliner internal IR Dump After: LowerLoops")["pass_name"]
    'LowerLoops'
    """
    m = _DUMP.match(line)
    if m:
        return {"when": m.group(1), "pass_name": m.group(2).strip(), "operation": m.group(4),
                "symbol": m.group(5) or ""}
    m = _PIPELINER.match(line)
    if m:
        return {"when": m.group(2), "pass_name": m.group(3), "operation": m.group(1), "symbol": ""}
    return {}


def breaks(text: str):
    """The matches of `BREAK` in `text`, in order (found by `lexical.line_matches`, without a regex scan of
    every character)."""
    return line_matches(BREAK, text, "// -----")


def sections(text: str) -> list[Section]:
    """The non-empty sections of `text` (newlines already normalised), in file order, numbered from 1. Nothing of
    the text is copied: a section is looked at in place."""
    out: list[Section] = []
    line, pos, header = 1, 0, ""
    facts: dict = {}
    for m in list(breaks(text)) + [None]:
        end = m.start() if m else len(text)
        if _NOT_SPACE.search(text, pos, end):
            out.append(Section(len(out) + 1, line, pos, end, header, **facts))
        line += text.count("\n", pos, end) + (1 if m else 0)
        if m:
            header = m.group()
            facts = header_facts(header)
            pos = min(m.end() + 1, len(text))         # the section starts on the line after its header
    return out


def is_dump(found: list[Section]) -> bool:
    """Whether the sections are the passes of an MLIR_ENABLE_DUMP capture (some header names a pass)."""
    return any(s.is_pass for s in found)


def is_ttgir(chunk: str) -> bool:
    """Whether a section's module is TTGIR: it carries `ttg.num-warps` and holds a `tt.func` but no `llvm.func`.

    >>> is_ttgir('module attributes {"ttg.num-warps" = 4 : i32} {\\n  tt.func @k() {\\n  }\\n}')
    True
    >>> is_ttgir('module attributes {"ttg.num-warps" = 4 : i32} {\\n  llvm.func @k() {\\n  }\\n}')
    False
    """
    return bool(_TTGIR.search(chunk) and _TT_FUNC.search(chunk) and not _LLVM_FUNC.search(chunk))


def last_ttgir(text: str, found: list[Section]) -> Section | None:
    """The last TTGIR section of a dump (the module ConvertTritonGPUToLLVM receives), None if there is none."""
    for s in reversed(found):
        if is_ttgir(text[s.start:s.end]):
            return s
    return None
