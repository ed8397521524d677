"""`ttlayout lsp`: the Language Server on stdin/stdout (linlayout_cli/lsp). Its libraries, pygls and lsprotocol,
are the optional `lsp` extra: they are imported only here, when the server starts, and their absence is one
error line naming the extra."""
from __future__ import annotations

import os
import sys

from ..errors import TTLayoutError
from .options import Opt

OPTIONS = (
    Opt(("--stdio",), "stdio", "flag", help="Speak the protocol on standard input and output (the default and only "
        "transport; editors' clients pass it)."),
)
MISSING = "ttlayout lsp needs the lsp extra (pygls 2 and lsprotocol): pip install 'ttlayout[lsp]'"


def run(obj, stdio):
    """Serve layouts, costs and advice to an editor, as a Language Server over stdio.

    Hover on an alias, a tensor type, an inline layout or an op; the audit's wasteful ops and the layouts the
    parser rejects as diagnostics; advise's changes as quick fixes; go to definition, references, symbols, inlay
    hints. The editor starts it (README, "In the editor"); it logs to the editor's output channel.

    \b
    ttlayout lsp
    """
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise TTLayoutError(MISSING) from None
    from ..lsp.server import serve
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr                      # a stray print must never reach the protocol's stream
    try:
        serve(stdin, stdout)
    finally:
        sys.stderr.flush()
    os._exit(0)                                  # worker threads still busy on a huge file do not keep us alive
