"""The package's shape, read from the real imports with `ast` (function-local ones included, since a lazy import
is still a dependency): the layer order is declared once below and every import goes down it or stays inside its own
package; there is no import cycle; no module uses another package's `_private` names; commands read files and parse
only through `inputs`; no command's module imports another command's; the output sink lives in `outfile`, not in
`cli`; and nothing looks a module up in `sys.modules`, where this reader cannot see the dependency."""
from __future__ import annotations

import ast
from pathlib import Path

from golden_cases import ROOT

PACKAGE = ROOT / "linlayout_cli"

# Lowest first. A module may import from its own package and from any lower layer; "" is the package __init__.
LAYERS = (
    ("errors", "records", "resources", "outfile", "patterns"),
    ("engine",),
    ("attributes",),
    ("parsing",),
    ("conversions",),
    ("analysis",),
    ("reports",),
    ("render",),
    ("inputs", "sources"),
    ("notebook",),
    ("commands", "lsp"),
    ("cli", "__main__", ""),
)
RANK = {name: level for level, group in enumerate(LAYERS) for name in group}
THIRD_PARTY_FORBIDDEN = {"analysis": {"click", "rich"}, "engine": {"click", "rich"}}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _top(module: str) -> str:
    """The layer name of a module: 'analysis' for linlayout_cli.analysis.bank, '' for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _resolve(name: str, known: set[str]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


class Edge:
    """One import: who, where, of which module, and the name taken from it (None for `import x` / a submodule)."""

    def __init__(self, source: str, line: int, target: str, name: str | None):
        self.source, self.line, self.target, self.name = source, line, target, name

    def __repr__(self) -> str:
        return f"{self.source}:{self.line} -> {self.target}" + (f" ({self.name})" if self.name else "")


def _edges(name: str, path: Path, known: set[str]) -> tuple[list[Edge], set[str], list[tuple[int, str]]]:
    """The package imports of one module, the third-party roots it imports, and the `x._name` uses of modules it
    bound by importing them (line, 'module._name')."""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    edges: list[Edge] = []
    roots: set[str] = set()
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("linlayout_cli"):
                    target = _resolve(a.name, known)
                    edges.append(Edge(name, node.lineno, target, None))
                    bound[a.asname or a.name] = target
                else:
                    roots.add(a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(p for p in (".".join(base[: len(base) - node.level + 1]), node.module or "") if p)
            else:
                mod = node.module or ""
                if not mod.startswith("linlayout_cli"):
                    roots.add(mod.split(".")[0])
                    continue
            for a in node.names:
                full = f"{mod}.{a.name}"
                if full in known:
                    edges.append(Edge(name, node.lineno, full, None))
                    bound[a.asname or a.name] = full
                else:
                    edges.append(Edge(name, node.lineno, _resolve(mod, known), a.name))
    private = [(node.lineno, f"{bound[node.value.id]}.{node.attr}") for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
               and node.attr.startswith("_") and not node.attr.startswith("__")]
    return [e for e in edges if e.target and e.target != name], roots, private


def _read():
    mods = _modules()
    known = set(mods)
    return {name: _edges(name, path, known) for name, path in mods.items()}


READ = _read()
GRAPH = {name: {e.target for e in edges} for name, (edges, _, _) in READ.items()}


def test_the_imports_are_read():
    """The reader sees top-level, relative and function-local imports (commands import their analysis lazily)."""
    assert "linlayout_cli.commands" in GRAPH["linlayout_cli.cli"]
    assert "linlayout_cli.inputs" in GRAPH["linlayout_cli.commands.print"]
    assert "linlayout_cli.analysis.access" in GRAPH["linlayout_cli.analysis.bank"]
    assert "linlayout_cli.analysis.shared_access" in GRAPH["linlayout_cli.commands.bank"]   # inside run()


def test_every_package_has_a_layer():
    assert {_top(m) for m in GRAPH} <= set(RANK), {_top(m) for m in GRAPH} - set(RANK)


def test_every_import_goes_down_the_layers():
    up = [e for edges, _, _ in READ.values() for e in edges
          if _top(e.source) != _top(e.target) and RANK[_top(e.target)] > RANK[_top(e.source)]]
    assert up == [], up


def test_no_private_name_crosses_a_package():
    crossing = [e for edges, _, _ in READ.values() for e in edges
                if e.name and e.name.startswith("_") and not e.name.startswith("__")
                and _top(e.source) != _top(e.target)]
    crossing += [f"{name}:{line} uses {used}" for name, (_, _, private) in READ.items() for line, used in private
                 if _top(used) != _top(name)]
    assert crossing == [], crossing


def test_analysis_and_engine_load_no_ui_library():
    bad = [(name, roots & THIRD_PARTY_FORBIDDEN[_top(name)]) for name, (_, roots, _) in READ.items()
           if roots & THIRD_PARTY_FORBIDDEN.get(_top(name), set())]
    assert bad == [], bad


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (a package importing its own submodules is not one), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
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


def test_no_import_cycle():
    assert _cycle(GRAPH) is None


def test_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_checks_catch_what_they_forbid(tmp_path):
    """The layer and private-name rules fire on a module that breaks them (read like any other)."""
    bad = tmp_path / "bad.py"
    bad.write_text("from ..commands import layouts\nfrom ..engine.linear_layout import _helper\n"
                   "def f():\n    from .. import cli\n    return cli._private\n", encoding="utf-8")
    name = "linlayout_cli.analysis.bad"
    edges, _, private = _edges(name, bad, set(GRAPH) | {name})
    ups = sorted(e.target for e in edges if RANK[_top(e.target)] > RANK["analysis"])
    assert ups == ["linlayout_cli.cli", "linlayout_cli.commands.layouts"]
    assert [e.name for e in edges if e.name] == ["_helper"]
    assert private == [(5, "linlayout_cli.cli._private")]


def test_only_the_pipeline_reads_files_and_parses_user_input():
    """Commands reach the parser and the file system only through `inputs`."""
    for name, path in _modules().items():
        if not name.startswith("linlayout_cli.commands"):
            continue
        text = path.read_text(encoding="utf-8")
        assert "open(" not in text and "parse_attribute" not in text and "parse_tensor_type" not in text, name
        assert not {t for t in GRAPH[name] if _top(t) == "parsing"}, name


def _command_modules() -> set[str]:
    """The modules of the commands' registry (`commands.COMMANDS`): linlayout_cli.commands.audit, ..."""
    from linlayout_cli.commands import COMMANDS
    return {f"linlayout_cli.commands.{c.module}" for c in COMMANDS.values()}


def test_no_command_imports_another_command():
    """Commands share code through `reports/`, `inputs` and the helpers of `commands/` (layouts, options, output,
    hardware), never through each other's modules."""
    commands = _command_modules()
    assert len(commands) >= 9
    crossing = [e for name in commands for e in READ[name][0] if e.target in commands and e.target != name]
    assert crossing == [], crossing


def test_the_output_sink_is_outside_cli():
    """`cli` wires the process (dispatch, signals, error lines); the atomic `-o` machinery is `outfile`'s."""
    text = (PACKAGE / "cli.py").read_text(encoding="utf-8")
    for word in ("O_TMPFILE", "mkstemp", "os.replace", "os.link", "pthread_sigmask", "fchmod"):
        assert word not in text, word
    assert "linlayout_cli.outfile" in GRAPH["linlayout_cli.cli"]
    assert {t for t in GRAPH["linlayout_cli.outfile"] if _top(t) not in ("errors", "outfile")} == set()


def test_no_module_is_looked_up_in_sys_modules():
    """A `sys.modules` lookup is an import this test cannot see; import the module instead (lazily if needed)."""
    users = [name for name, path in _modules().items() if "sys.modules" in path.read_text(encoding="utf-8")]
    assert users == [], users


def test_each_command_takes_one_typed_request():
    """`run(ctx, request)`: each command's `Request` is a frozen record with one field per option and argument
    (what `options.quick` and click give), so a command line is one typed value, not a keyword list."""
    import inspect

    from linlayout_cli.commands import COMMANDS, Context, load
    from linlayout_cli.records import replace
    for name in COMMANDS:
        module = load(name)
        params = {o.name for o in module.OPTIONS} | {a.name for a in getattr(module, "ARGUMENTS", ())}
        assert set(module.Request._fields) == params, name
        assert list(inspect.signature(module.run).parameters) == ["ctx", "given"], name
        request = module.Request(**{field: None for field in params})
        first = module.Request._fields[0]
        with __import__("pytest").raises(AttributeError):
            setattr(request, first, "x")
        assert getattr(replace(request, **{first: "x"}), first) == "x"
    assert "error_line" in Context._fields


def test_analysis_runs_no_regex():
    """Ops arrive parsed (`parsing.module.Op.int_attr`, `iter_args`, ...): analysis reads objects, never op
    text, so no module of analysis/ imports `re` (text is parsing/'s job)."""
    users = sorted(name for name, (_, roots, _) in READ.items()
                   if (name + ".").startswith("linlayout_cli.analysis.") and "re" in roots)
    assert users == [], users


MAX_ANALYSIS_LINES = 700          # a module of analysis/ over it does more than one job (issue 29)


def test_no_analysis_module_grows_past_the_size_limit():
    long = sorted(name for name, path in _modules().items() if name.startswith("linlayout_cli.analysis")
                  and len(path.read_text(encoding="utf-8").splitlines()) > MAX_ANALYSIS_LINES)
    assert long == [], long


def _analysis_trees():
    for name, path in sorted(_modules().items()):
        if (name + ".").startswith("linlayout_cli.analysis."):
            yield name, ast.parse(path.read_text(encoding="utf-8"))


def _names_a_target(arg: ast.arg) -> bool:
    """A parameter `target` / `..._target` whose annotation lets it be a `str` (or has none: it may be anything)."""
    if arg.arg != "target" and not arg.arg.endswith("_target"):
        return False
    if arg.annotation is None:
        return True
    text = ast.unparse(arg.annotation)            # `from __future__ import annotations`: a string is unparsed too
    return "str" in text.replace("|", " ").replace("'", " ").replace('"', " ").split()


def test_analysis_takes_a_target_never_a_name():
    """A target is resolved once, at the edge (commands' `hardware.select`, `sources`, the notebook API): no
    analysis function has a `target` parameter that may be a name, and only `targets` (the resolver) and
    `kernel.modules` (a module's own `ttg.target`, read from the dump) resolve names."""
    named = []
    resolving = []
    for name, tree in _analysis_trees():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for arg in node.args.args + node.args.kwonlyargs:
                    if _names_a_target(arg):
                        named.append(f"{name}.{node.name}({arg.arg})")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in ("get_target", "bank_target"):
                resolving.append(name)
    assert named == [], named
    assert set(resolving) <= {"linlayout_cli.analysis.targets", "linlayout_cli.analysis.kernel.modules"}, resolving


def test_the_check_sees_a_target_name_parameter(tmp_path):
    tree = ast.parse("def f(ll, target: str | None = None): ...\ndef g(ll, target: Target, target_from: str): ...\n"
                     "def h(bank_target): ...")
    found = [f"{n.name}.{a.arg}" for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args
             if _names_a_target(a)]
    assert found == ["f.target", "h.bank_target"]


def _sentences(tree) -> list[tuple[str, int]]:
    """(function, line) of each f-string with words (a space in its literal text) that is not an error's message."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def context(n):
        function = ""
        while n in parents:
            n = parents[n]
            if isinstance(n, ast.Raise):
                return None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id[:1].isupper():
                if n.func.id.endswith(("Error", "Access")) or n.func.id in ("Unreadable", "NotModelled", "Misaligned"):
                    return None
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and not function:
                function = n.name
        return function

    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.JoinedStr):
            text = "".join(v.value for v in n.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            where = context(n) if " " in text.strip() else None
            if where is not None and where not in ("__repr__", "__str__"):     # a record's own spelling
                out.append((where, n.lineno))
    return out


# Analysis modules that still build sentences (issue 29 moves them to reports/ one by one; none may be added):
# convert's `moves`, the shared-access `why`, swizzle's notes, the CuTe reasons, info's swizzle notes, advise's
# candidate constraints and sources, the kernel metadata notes, and MisalignedAccess's message.
STILL_WORDY = {"linlayout_cli.analysis.advise_candidates", "linlayout_cli.analysis.convert",
               "linlayout_cli.analysis.cute", "linlayout_cli.analysis.info", "linlayout_cli.analysis.kernels",
               "linlayout_cli.analysis.shared_access", "linlayout_cli.analysis.shared_instructions",
               "linlayout_cli.analysis.swizzle"}
# words that are names, not sentences: the cp.async / buffer_load ... lds instruction a row names; the module an
# error names
NAMES = {("linlayout_cli.analysis.kernel.shared", "shared_op"), ("linlayout_cli.analysis.kernel.modules", "_where")}


def test_the_audit_and_advise_build_no_sentences():
    """Analysis returns numbers, records and reason codes; `reports/` owns every sentence. The audit's cost modules
    (analysis/kernel/), advise and the bank model build none (error messages aside), and the modules that still
    do are the listed ones, no more."""
    wordy = {}
    for name, tree in _analysis_trees():
        found = [(f, line) for f, line in _sentences(tree) if (name, f) not in NAMES]
        if found:
            wordy[name] = found
    assert set(wordy) <= STILL_WORDY, {n: w for n, w in wordy.items() if n not in STILL_WORDY}


def test_the_sentence_check_sees_one():
    tree = ast.parse('def f(n):\n    if n < 0:\n        raise ValueError(f"bad {n} here")\n'
                     '    return f"{n} bank conflict(s)", f"{n}@x"\n')
    assert _sentences(tree) == [("f", 4)]
