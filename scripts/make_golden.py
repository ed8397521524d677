#!/usr/bin/env python3
"""Generate the golden files of ttlayout from Triton 3.9.0: ``python3 scripts/make_golden.py [--suite S] [--list]``.

The generator is the package ``scripts/golden/`` (its docstring documents the suites and the file format);
this file runs it exactly like ``python3 -m scripts.golden`` from the repository root.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scripts.golden.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
