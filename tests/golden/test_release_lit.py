"""Each release's own lit test of triton-tensor-layout (``test/Tools/tensor_layout_print.mlir``) passes with
``ttlayout --triton`` set to that release: every RUN line is run with ``triton-tensor-layout`` replaced by
``ttlayout --triton X.Y`` and its CHECK lines matched in order, as FileCheck does (``{{regex}}`` blocks, each CHECK
line found after the previous one). The files are in ``tests/data/triton_lit/releases/`` (see its README)."""
from __future__ import annotations

import re
import shlex

import pytest
from golden_cases import DATA

LIT = DATA / "triton_lit" / "releases"
# release -> the upstream commit whose test/Tools/tensor_layout_print.mlir it shipped
SHIPPED = {"3.2": "45af9a9", "3.3": "6d3ed0b", "3.4": "6d3ed0b", "3.5": "e5a00f5", "3.6": "de2ba39",
           "3.7": "de2ba39", "3.8": "de2ba39", "3.9": "de2ba39"}
# SHA-256 of each file as upstream has it at that commit (`git show COMMIT:test/Tools/tensor_layout_print.mlir`,
# read from a mirror with Triton's full history; see the README beside the files)
UPSTREAM_SHA256 = {
    "45af9a9": "9cbfded98c1711494cfb38b500e8f33a49d45832f7e0aa26588be9af4ab0f512",
    "6d3ed0b": "84f0783e038f8ba6a32a62c2ed1ff105d98f09e1f1f5761064d755c292f0b723",
    "e5a00f5": "a1c36bdf38821621cb37a190186d149ec216866bcbd2ecdf7e8e004ec6de1749",
    "de2ba39": "fe16166cb49e59dfe0879adc188b84279001c9a752671131760a37adba0cf534",
}


def check_pattern(line: str) -> re.Pattern:
    """A CHECK line as FileCheck reads it: literal text with `{{regex}}` blocks."""
    parts = re.split(r"\{\{(.*?)\}\}", line)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f"(?:{p})" for i, p in enumerate(parts)))


def file_check(text: str, checks: list[str]) -> str | None:
    """None when every check matches in order, else the first one that does not."""
    pos = 0
    for check in checks:
        m = check_pattern(check).search(text, pos)
        if m is None:
            return check
        pos = m.end()
    return None


def run_lines(path):
    """(arguments, CHECK lines) of each `RUN: triton-tensor-layout ... | FileCheck %s --check-prefix=P` line."""
    source = path.read_text(encoding="utf-8")
    for line in source.splitlines():
        m = re.match(r"// RUN: triton-tensor-layout (.*) \| FileCheck %s --check-prefix=(\S+)$", line)
        if m:
            prefix = m.group(2)
            checks = [x.split(f"{prefix}:", 1)[1].strip() for x in source.splitlines()
                      if x.startswith(f"// {prefix}:")]
            yield [a.replace("%s", str(path)) for a in shlex.split(m.group(1))], checks


def test_file_check_fails_on_a_missing_line():
    assert file_check("a\nb T0:1\n", ["a", "b {{.*}}:1"]) is None
    assert file_check("a\nb\n", ["b", "a"]) == "a"


@pytest.mark.parametrize("commit", sorted(UPSTREAM_SHA256))
def test_lit_file_is_upstream_verbatim(commit):
    """The lit files are upstream's bytes, never a local edit."""
    import hashlib
    assert hashlib.sha256((LIT / f"{commit}.mlir").read_bytes()).hexdigest() == UPSTREAM_SHA256[commit]


@pytest.mark.parametrize("release", sorted(SHIPPED))
def test_release_lit(release):
    from linlayout_cli.cli import run
    path = LIT / f"{SHIPPED[release]}.mlir"
    lines = list(run_lines(path))
    assert len(lines) == 4
    for args, checks in lines:
        code, out, err = run(["--triton", release, *args])
        assert code == 0, err
        missing = file_check(out, checks)
        assert missing is None, f"Triton {release}'s lit test: no match for {missing[:120]!r}"
