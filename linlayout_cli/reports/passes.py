"""`audit FILE --pass list`: the modules of a file (an MLIR_ENABLE_DUMP capture's passes, a lit file's `// -----`
sections), numbered as --pass takes them, each with its first line and whether it is TTGIR."""
from __future__ import annotations

import json

from .blocks import Table, line


def passes_blocks(shown: str, found, ttgir, default) -> list:
    """The table of modules; the default one (a dump's last TTGIR module) marked."""
    rows = tuple((str(s.number), str(s.first_line), "TTGIR" if is_ttgir else "-",
                  s.title() + ("  (audited by default)" if default is not None and s.number == default.number else ""))
                 for s, is_ttgir in zip(found, ttgir))
    return [line(f"ttlayout audit {shown}: {len(rows)} module{'s' if len(rows) != 1 else ''}; --pass N or --pass "
                 "NAME audits one", "bold"),
            Table(("pass", "line", "ttgir", "module"), rows)]


def passes_json(found, ttgir, default) -> str:
    return json.dumps({"passes": [{"number": s.number, "dump": s.title(), "line": s.first_line, "ttgir": t,
                                   "default": default is not None and s.number == default.number}
                                  for s, t in zip(found, ttgir)]}, indent=2) + "\n"
