#!/opt/oracle/venv/bin/python
"""Triton 3.9 oracle's command line: ``triton_oracle.py [CLI args] | bank ... | linear ... | gluon ... | --serve``.

Run with the oracle interpreter (``/opt/oracle/venv/bin/python``, Triton 3.9.0).  The oracle is the package
``scripts/oracle/`` (one module per job; how it works: its docstring; usage and the ``--serve`` protocol:
``scripts/oracle/serve.py``); this file runs it from any working directory.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scripts.oracle.serve import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
