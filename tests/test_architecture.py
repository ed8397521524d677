"""The package's shape: no import cycle anywhere, `analysis/` free of the command layer, one input pipeline.

Imports are read from the source with `ast` (function-local imports included, since they hide cycles just as
well), resolved to modules of the package, and the graph is searched for a cycle."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "linlayout_cli"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of the package that `name` imports, anywhere in its body."""
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = ".".join(base[: len(base) - node.level + 1]) if node.level else ""
            mod = ".".join(p for p in (prefix, node.module or "") if p)
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {name: _imports(name, path, known) for name, path in mods.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (a package importing its own submodules is not one), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if m.startswith(n + "."):
                continue
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_graph_is_read():
    graph = _graph()
    assert "linlayout_cli.commands" in graph["linlayout_cli.cli"]
    assert "linlayout_cli.inputs" in graph["linlayout_cli.commands.print"]
    assert "linlayout_cli.analysis.access" in graph["linlayout_cli.analysis.bank"]


def test_no_import_cycle():
    assert _cycle(_graph()) is None


def test_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_analysis_imports_neither_click_nor_the_command_layer():
    graph = _graph()
    for name, path in _modules().items():
        if not name.startswith("linlayout_cli.analysis"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        roots |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                  and not n.level}
        assert "click" not in roots, name
        assert not {m for m in graph[name] if m.startswith(("linlayout_cli.commands", "linlayout_cli.cli"))}, name


def test_only_the_pipeline_reads_files_and_parses_user_input():
    """Commands reach the parser and the file system only through `inputs`."""
    for name, path in _modules().items():
        if not name.startswith("linlayout_cli.commands"):
            continue
        text = path.read_text(encoding="utf-8")
        assert "open(" not in text and "parse_attribute" not in text and "parse_tensor_type" not in text, name
