"""Target names as a module's `ttg.target` writes them ('cuda:90', 'hip:gfx942'); plain string work, so that
`analysis.targets` (on the print path, for the lanes note) loads no regex and no module reader."""
from __future__ import annotations


def cuda_capability(key: str) -> int | None:
    """The compute capability of a `ttg.target` written 'cuda:NN' (lower case), else None.

    >>> cuda_capability("cuda:90"), cuda_capability("CUDA:90"), cuda_capability("cuda:"), cuda_capability("hip:gfx942")
    (90, None, None, None)
    """
    head, sep, digits = key.partition(":")
    return int(digits) if head == "cuda" and sep and digits.isdecimal() else None
