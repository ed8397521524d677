"""`ttlayout lsp`: the Language Server (pygls 2, over stdio). Hover (aliases, types, inline layouts, ops),
diagnostics (the audit's wasteful ops, the layouts the parser rejects), code actions (advise's changes), go to
definition, references, document symbols and inlay hints, on `.ttgir` / `.mlir` files and MLIR_ENABLE_DUMP
captures; each `// -----` section is its own alias scope.

The analyses run on worker threads: diagnostics are debounced after a change, run section by section within a
time budget (what is left over is said, never waited for), and dropped when the text changed meanwhile; a request
the client cancels is answered as cancelled. Nothing but the protocol is written to stdout: the server logs through
window/logMessage (the client's output channel)."""
from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from ..resources import VERSION
from . import hover, model
from .document import Document, is_location, utf16_len

NAME = "ttlayout"
LOG = logging.getLogger("ttlayout.lsp")
KEPT = 256                         # analyses kept per file (by section text): older ones go as the text changes


@dataclass
class Settings:
    """What the client may set (initializationOptions, or `ttlayout` in workspace/didChangeConfiguration):
    `wasteThreshold` (an op wasting more weighted cost per thread than this is a warning; default 0: any waste),
    `inlayHints` (the convert path at each convert_layout; off by default), `debounceMs` (wait after a change
    before the diagnostics are recomputed), `budgetSeconds` (time the diagnostics of one version may take; the
    sections left are reported as skipped), `maxSectionChars` (a bigger section is not audited)."""
    waste_threshold: float = 0.0
    inlay_hints: bool = False
    debounce_ms: int = 300
    budget_seconds: float = 2.0
    max_section_chars: int = 2 * 1024 * 1024          # a module this size audits in about 4 s

    KEYS = {"wasteThreshold": ("waste_threshold", float), "inlayHints": ("inlay_hints", bool),
            "debounceMs": ("debounce_ms", int), "budgetSeconds": ("budget_seconds", float),
            "maxSectionChars": ("max_section_chars", int)}

    def update(self, values) -> list[str]:
        """Take the known keys of a settings object (a `ttlayout` sub-object too); the problems, in words."""
        problems: list[str] = []
        if isinstance(values, dict) and isinstance(values.get("ttlayout"), dict):
            values = values["ttlayout"]
        if not isinstance(values, dict):
            return problems
        for key, (attr, kind) in self.KEYS.items():
            if key in values:
                try:
                    value = values[key]
                    if kind is bool and not isinstance(value, bool):
                        raise ValueError(value)
                    setattr(self, attr, kind(value))
                except (TypeError, ValueError):
                    problems.append(f"setting {key}: expected a {kind.__name__}, got {values[key]!r}")
        return problems


@dataclass
class FileState:
    """An open file: its current text's Document, the pending diagnostics, and the analyses of its sections by
    their text (an edit elsewhere keeps them)."""
    doc: Document
    pending: asyncio.TimerHandle | None = None
    audits: dict = field(default_factory=dict)          # section key -> ModuleAudit | TTLayoutError
    advice: dict = field(default_factory=dict)          # section key -> [Fix] | TTLayoutError
    asm: dict = field(default_factory=dict)             # section key -> assembly column or None
    lock: threading.Lock = field(default_factory=threading.Lock)


def remember(cache: dict, key: str, value) -> None:
    """Keep `value` under `key`, dropping the oldest entries past KEPT (memory stays bounded while one types)."""
    cache[key] = value
    while len(cache) > KEPT:
        cache.pop(next(iter(cache)))


def section_key(doc: Document, section) -> str:
    """A section's analyses stay valid while its text and first line do."""
    digest = hashlib.blake2b(doc.section_text(section).encode("utf-8", "surrogatepass"), digest_size=16)
    return f"{section.first_line}:{digest.hexdigest()}"


def path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def audit_doc_uri() -> str | None:
    """A file:// address of docs/audit_model.md (what `ttlayout help audit-model` prints), for the diagnostics'
    code description."""
    try:
        from ..resources import data_path
        return "file://" + os.path.abspath(data_path("docs", "audit_model.md"))
    except (OSError, ImportError):
        return None


class TTLayoutServer(LanguageServer):
    """The server: the open files, the settings, and one worker thread for the diagnostics."""

    def __init__(self) -> None:
        super().__init__(NAME, VERSION)
        self.settings = Settings()
        self.files: dict[str, FileState] = {}
        self.diagnostics_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ttlayout-diagnostics")
        self.generation: dict[str, int] = {}
        self.help_uri = audit_doc_uri()
        self.shut_down = False

    # --- logging to the client

    def log(self, message: str, kind: t.MessageType = t.MessageType.Info) -> None:
        try:
            self.window_log_message(t.LogMessageParams(type=kind, message=message))
        except Exception:                              # no client yet, or gone: nothing to tell
            LOG.debug("%s", message)

    def report_server_error(self, error: Exception, source) -> None:
        self.log(f"ttlayout lsp: internal error: {error}", t.MessageType.Error)

    # --- documents

    def state(self, uri: str) -> FileState | None:
        """The open file's state, its Document rebuilt when the client's text moved on."""
        try:
            source = self.workspace.get_text_document(uri)
        except Exception:
            return self.files.get(uri)
        found = self.files.get(uri)
        text = source.source
        if found is None:
            found = self.files[uri] = FileState(Document(uri, text, source.version, path_of(uri)))
        elif found.doc.version != source.version or found.doc.original is not text and found.doc.original != text:
            found.doc = Document(uri, text, source.version, path_of(uri))
        return found

    def module_audit(self, st: FileState, section):
        """The audit of one section (cached by its text); a TTLayoutError when it cannot be read or audited."""
        doc = st.doc
        key = section_key(doc, section)
        with st.lock:
            found = st.audits.get(key)
        if found is None:
            try:
                module = doc.module(section)
                found = model.audit(module, len(doc.sections) > 1)
            except model.TTLayoutError as e:
                found = e
            except (RecursionError, MemoryError, ValueError, KeyError, IndexError) as e:
                found = model.TTLayoutError(f"the audit could not read this module ({type(e).__name__})")
            with st.lock:
                remember(st.audits, key, found)
        if isinstance(found, Exception):
            raise found
        return found

    def assembly(self, st: FileState, section, module_audit):
        key = section_key(st.doc, section)
        if key not in st.asm:
            several = len(st.doc.sections) > 1
            remember(st.asm, key, None if several else model.assembly_column(st.doc.path, module_audit))
        return st.asm[key]


server = TTLayoutServer()


# ----------------------------------------------------------------------------------------- lifecycle


@server.feature(t.INITIALIZE)
def initialize(ls: TTLayoutServer, params: t.InitializeParams):
    for problem in ls.settings.update(params.initialization_options or {}):
        ls.log(problem, t.MessageType.Warning)


@server.feature(t.INITIALIZED)
def initialized(ls: TTLayoutServer, params: t.InitializedParams):
    ls.log(f"ttlayout {VERSION} language server ready (waste threshold {ls.settings.waste_threshold}, "
           f"inlay hints {'on' if ls.settings.inlay_hints else 'off'})")


@server.feature(t.SHUTDOWN)
def on_shutdown(ls: TTLayoutServer, params) -> None:
    ls.shut_down = True


@server.feature(t.EXIT)
def on_exit(ls: TTLayoutServer, params) -> None:
    """Leave at once, whatever the worker threads are doing (a huge file's analysis) and even if the client keeps
    the pipe open: 0 after a shutdown request, 1 without one (the protocol's rule)."""
    try:
        sys.stderr.flush()
    finally:
        os._exit(0 if ls.shut_down else 1)


@server.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
def did_change_configuration(ls: TTLayoutServer, params: t.DidChangeConfigurationParams):
    for problem in ls.settings.update(params.settings or {}):
        ls.log(problem, t.MessageType.Warning)
    for uri in list(ls.files):
        schedule(ls, uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TTLayoutServer, params: t.DidOpenTextDocumentParams):
    schedule(ls, params.text_document.uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TTLayoutServer, params: t.DidChangeTextDocumentParams):
    schedule(ls, params.text_document.uri, ls.settings.debounce_ms / 1000)


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TTLayoutServer, params: t.DidSaveTextDocumentParams):
    schedule(ls, params.text_document.uri, 0)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TTLayoutServer, params: t.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.generation[uri] = ls.generation.get(uri, 0) + 1
    st = ls.files.pop(uri, None)
    if st is not None and st.pending is not None:
        st.pending.cancel()
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ----------------------------------------------------------------------------------------- diagnostics


def schedule(ls: TTLayoutServer, uri: str, delay: float) -> None:
    """Recompute a file's diagnostics after `delay` seconds, dropping any run not yet started (debounce); a run
    under way stops at its next section once a newer one is asked for."""
    ls.generation[uri] = generation = ls.generation.get(uri, 0) + 1
    st = ls.files.get(uri)
    if st is not None and st.pending is not None:
        st.pending.cancel()
    loop = asyncio.get_running_loop()
    handle = loop.call_later(delay, lambda: asyncio.ensure_future(run_diagnostics(ls, uri, generation)))
    if st is not None:
        st.pending = handle


async def run_diagnostics(ls: TTLayoutServer, uri: str, generation: int) -> None:
    if ls.generation.get(uri) != generation:
        return
    try:
        st = ls.state(uri)
    except Exception as e:                            # a text no Document can be made of: say so, do not stop
        ls.log(f"ttlayout: cannot read {uri}: {e}", t.MessageType.Error)
        return
    if st is None:
        return
    loop = asyncio.get_running_loop()
    try:
        diagnostics, notes = await loop.run_in_executor(
            ls.diagnostics_pool, lambda: compute_diagnostics(ls, st, lambda: ls.generation.get(uri) != generation))
    except Exception:
        ls.log("ttlayout: diagnostics failed:\n" + traceback.format_exc(), t.MessageType.Error)
        return
    if ls.generation.get(uri) != generation or diagnostics is None:
        return
    for note in notes:
        ls.log(note)
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, version=st.doc.version,
                                                                    diagnostics=diagnostics))


def order_for_diagnostics(doc: Document) -> tuple[list, str]:
    """The sections to diagnose, first first, and a note: a dump's last TTGIR module (what `audit` audits), every
    section of another file."""
    if doc.dump:
        last = model.last_ttgir(doc.text, doc.sections)
        if last is None:
            return [], f"an MLIR_ENABLE_DUMP capture of {len(doc.sections)} passes, none of them TTGIR: no diagnostics"
        return [last], (f"an MLIR_ENABLE_DUMP capture of {len(doc.sections)} passes: diagnostics on the last TTGIR "
                        f"module (section {last.number}, {last.title()}); hover an op of another pass to audit it")
    return list(doc.sections), ""


def compute_diagnostics(ls: TTLayoutServer, st: FileState, stale) -> tuple[list | None, list[str]]:
    """The diagnostics of the file's current text, section by section within the time budget; (None, []) when the
    text changed meanwhile (`stale()`)."""
    doc, s = st.doc, ls.settings
    start = time.monotonic()
    out: list[t.Diagnostic] = []
    chosen, note = order_for_diagnostics(doc)
    notes = [note] if note else []
    skipped: list = []
    too_big: list = []
    for section in chosen:
        if stale():
            return None, []
        if time.monotonic() - start > s.budget_seconds:
            skipped.append(section)
            continue
        if section.end - section.start > s.max_section_chars:
            too_big.append(section)
            continue
        out += section_diagnostics(ls, st, section)
    if skipped or too_big:
        words = []
        if too_big:
            words.append(f"{len(too_big)} section(s) over {s.max_section_chars:,} characters "
                         f"({_numbers(too_big)}): run `ttlayout audit FILE --pass N`")
        if skipped:
            words.append(f"{len(skipped)} section(s) past the {s.budget_seconds:g} s budget ({_numbers(skipped)}): "
                         "hover an op there to audit its section")
        text = "ttlayout: not audited here: " + "; ".join(words) + "."
        first = (too_big + skipped)[0]
        line = max(first.first_line - 2, 0)
        out.append(t.Diagnostic(range=_line_range(doc, line), message=text, severity=t.DiagnosticSeverity.Information,
                                source=NAME, code="skipped"))
        notes.append(text)
    notes.append(f"ttlayout: {len(out)} diagnostic(s) for {os.path.basename(doc.path or doc.uri)} in "
                 f"{time.monotonic() - start:.2f} s")
    return out, notes


def _numbers(found: list) -> str:
    shown = ", ".join(str(x.number) for x in found[:8])
    return shown + (f" and {len(found) - 8} more" if len(found) > 8 else "")


def _line_range(doc: Document, line: int) -> t.Range:
    text = doc.line_text(line)
    indent = len(text) - len(text.lstrip())
    return t.Range(start=t.Position(line=line, character=indent),
                   end=t.Position(line=line, character=utf16_len(text)))


def _problem_diagnostic(doc: Document, p: model.Problem) -> t.Diagnostic:
    line = min(max(p.line - 1, 0), doc.line_count - 1)
    text = doc.line_text(line)
    col = min(max(p.column - 1, 0), len(text))
    end = col + 1
    while end < len(text) and (text[end].isalnum() or text[end] in "_."):
        end += 1
    return t.Diagnostic(range=t.Range(start=t.Position(line=line, character=utf16_len(text[:col])),
                                      end=t.Position(line=line, character=utf16_len(text[:min(end, len(text))]))),
                        message=p.message, severity=t.DiagnosticSeverity.Error, source=NAME, code="parse")


def section_diagnostics(ls: TTLayoutServer, st: FileState, section) -> list[t.Diagnostic]:
    """One section's diagnostics: its unreadable layouts (errors) and its ops wasting more than the threshold."""
    doc = st.doc
    try:
        module = doc.module(section)
    except model.TTLayoutError as e:
        return [_problem_diagnostic(doc, model.problem_of(e, section.first_line))]
    out = [_problem_diagnostic(doc, p) for _name, p in model.broken_aliases(module)]
    if not model.is_ttgir(doc.section_text(section)):
        return out
    try:
        audit = ls.module_audit(st, section)
    except model.TTLayoutError as e:
        p = model.problem_of(e, section.first_line)
        if not model.problem_of(e, 0).line:            # no line in the message: at the module's first line
            p = model.Problem(section.first_line, 1, p.message)
        return out + [_problem_diagnostic(doc, p)]
    description = t.CodeDescription(href=ls.help_uri) if ls.help_uri else None
    for f in model.rows(audit):
        row = model.row_of(f)
        if row.waste > ls.settings.waste_threshold:
            out.append(t.Diagnostic(range=_line_range(doc, row.line - 1), message=hover.diagnostic_message(row),
                                    severity=t.DiagnosticSeverity.Warning, source=NAME, code=model.HELP_AUDIT,
                                    code_description=description))
    return out


# ----------------------------------------------------------------------------------------- hover


@server.feature(t.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: TTLayoutServer, params: t.HoverParams):
    st = ls.state(params.text_document.uri)
    if st is None:
        return None
    return await asyncio.to_thread(hover_at, ls, st, params.position.line, params.position.character)


def hover_at(ls: TTLayoutServer, st: FileState, line: int, character: int) -> t.Hover | None:
    doc = st.doc
    column = doc.column(line, character)
    section = doc.section_at(line)
    if section is None:
        return None
    try:
        value, span = _hover_value(ls, st, section, line, column)
    except model.TTLayoutError as e:
        value, span = f"**ttlayout:** {e}", None
    except (RecursionError, MemoryError):
        value, span = "**ttlayout:** this text is too large or too deeply nested to analyse here", None
    if value is None:
        return None
    rng = None
    if span is not None:
        ln, a, b = doc.units(span)
        rng = t.Range(start=t.Position(line=ln, character=a), end=t.Position(line=ln, character=b))
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=value), range=rng)


def _hover_value(ls: TTLayoutServer, st: FileState, section, line: int, column: int):
    doc = st.doc
    found = doc.type_at(line, column)
    if found is not None:
        value = hover.type_hover(doc, found[0], section)
        if value is not None:
            return value, found[1]
    alias = doc.alias_at(line, column)
    if alias is not None:
        name, span, _ = alias
        return hover.alias_hover(doc, name, section), span
    inline = doc.inline_at(line, column)
    if inline is not None:
        defined = [n for n, d in doc.index(section).definitions.items() if d.line == line]
        if defined:                                   # the value of an alias definition: the alias's hover
            return hover.alias_hover(doc, defined[0], section), inline[1]
        value = hover.inline_hover(doc, inline[0], section)
        if value is not None:
            return value, inline[1]
    if not model.is_ttgir(doc.section_text(section)):
        return None, None
    if section.end - section.start > ls.settings.max_section_chars:
        return (f"*ttlayout: this module has {section.end - section.start:,} characters, more than the "
                f"{ls.settings.max_section_chars:,} audited in the editor (`maxSectionChars`); run "
                f"`ttlayout audit FILE --line {line + 1}`*"), None
    audit = ls.module_audit(st, section)
    for f in model.rows(audit):
        if f.line == line + 1:
            row = model.row_of(f)
            return hover.row_hover(doc, row, audit, ls.assembly(st, section, audit)), None
    return None, None


# ----------------------------------------------------------------------------------------- navigation


def _location(doc: Document, span) -> t.Location:
    ln, a, b = doc.units(span)
    return t.Location(uri=doc.uri, range=t.Range(start=t.Position(line=ln, character=a),
                                                 end=t.Position(line=ln, character=b)))


def _alias_under_cursor(ls: TTLayoutServer, uri: str, position: t.Position):
    """(the document, the alias name, its section index) at the cursor, or None where no alias is there."""
    st = ls.state(uri)
    if st is None:
        return None
    doc = st.doc
    alias = doc.alias_at(position.line, doc.column(position.line, position.character))
    if alias is None:
        return None
    name, _, section = alias
    return doc, name, doc.index(section)


@server.feature(t.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: TTLayoutServer, params: t.DefinitionParams):
    found = _alias_under_cursor(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    doc, name, idx = found
    return [_location(doc, idx.definitions[name])]


@server.feature(t.TEXT_DOCUMENT_REFERENCES)
def on_references(ls: TTLayoutServer, params: t.ReferenceParams):
    found = _alias_under_cursor(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    doc, name, idx = found
    spans = ([idx.definitions[name]] if params.context.include_declaration else []) + idx.uses.get(name, [])
    return [_location(doc, s) for s in spans]


def _symbol(doc: Document, name: str, kind: t.SymbolKind, span, detail: str | None = None, children=None):
    ln, a, b = doc.units(span)
    rng = t.Range(start=t.Position(line=ln, character=a), end=t.Position(line=ln, character=b))
    return t.DocumentSymbol(name=name, kind=kind, range=rng, selection_range=rng, detail=detail, children=children)


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def on_symbols(ls: TTLayoutServer, params: t.DocumentSymbolParams):
    st = ls.state(params.text_document.uri)
    if st is None:
        return None
    return await asyncio.to_thread(symbols, st.doc)


def symbols(doc: Document) -> list[t.DocumentSymbol]:
    """Functions and aliases (not the `#locN` lines), under one symbol per section when there are several."""
    out = []
    for section in doc.sections:
        idx = doc.index(section)
        inner = [_symbol(doc, "@" + name, t.SymbolKind.Function, span) for name, span in idx.functions]
        inner += [_symbol(doc, "#" + name, t.SymbolKind.Constant, span)
                  for name, span in idx.definitions.items() if not is_location(name)]
        if len(doc.sections) == 1:
            return inner
        head = max(section.first_line - 2, 0) if section.header else section.first_line - 1
        last = doc.line_of(max(section.end - 1, section.start))
        rng = t.Range(start=t.Position(line=head, character=0), end=t.Position(line=last, character=0))
        sel = t.Range(start=t.Position(line=head, character=0), end=t.Position(line=head, character=0))
        out.append(t.DocumentSymbol(name=f"{section.number}: {section.title()}", kind=t.SymbolKind.Module,
                                    range=rng, selection_range=sel, children=inner))
    return out


# ----------------------------------------------------------------------------------------- code actions


@server.feature(t.TEXT_DOCUMENT_CODE_ACTION,
                t.CodeActionOptions(code_action_kinds=[t.CodeActionKind.QuickFix]))
async def on_code_action(ls: TTLayoutServer, params: t.CodeActionParams):
    st = ls.state(params.text_document.uri)
    if st is None:
        return None
    return await asyncio.to_thread(code_actions, ls, st, params.range.start.line)


def code_actions(ls: TTLayoutServer, st: FileState, line: int) -> list[t.CodeAction]:
    """advise's changes of the alias defined on `line`, each a workspace edit of its alias line(s) only."""
    doc = st.doc
    section = doc.section_at(line)
    if section is None:
        return []
    defined = [n for n, s in doc.index(section).definitions.items() if s.line == line]
    if not defined or not model.is_ttgir(doc.section_text(section)):
        return []
    key = section_key(doc, section)
    fixes = st.advice.get(key)
    if fixes is None:
        try:
            fixes = model.advise(doc.module(section), doc.module_index(section))
        except model.TTLayoutError as e:
            fixes = e
        remember(st.advice, key, fixes)
    if isinstance(fixes, Exception):
        ls.log(f"ttlayout: no advice for section {section.number}: {fixes}", t.MessageType.Warning)
        return []
    out = []
    for k, fix in enumerate(fixes):
        if not any(name in defined for name, _ in fix.aliases):
            continue
        edits = line_edits(doc.original, model.apply_fix(doc.original, fix))
        out.append(t.CodeAction(title=hover.fix_title(fix), kind=t.CodeActionKind.QuickFix, is_preferred=k == 0,
                                edit=t.WorkspaceEdit(changes={doc.uri: edits})))
    return out


def line_edits(before: str, after: str) -> list[t.TextEdit]:
    """The lines that differ between two texts, as edits replacing each changed line whole."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    if len(a) != len(b):                               # a change never adds lines; be safe all the same
        return [t.TextEdit(range=t.Range(start=t.Position(line=0, character=0),
                                         end=t.Position(line=len(a), character=0)), new_text=after)]
    edits = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            body_x, body_y = x.rstrip("\r\n"), y.rstrip("\r\n")
            edits.append(t.TextEdit(range=t.Range(start=t.Position(line=i, character=0),
                                                  end=t.Position(line=i, character=utf16_len(body_x))),
                                    new_text=body_y))
    return edits


# ----------------------------------------------------------------------------------------- inlay hints


@server.feature(t.TEXT_DOCUMENT_INLAY_HINT, t.InlayHintOptions(resolve_provider=False))
async def on_inlay_hints(ls: TTLayoutServer, params: t.InlayHintParams):
    if not ls.settings.inlay_hints:
        return []
    st = ls.state(params.text_document.uri)
    if st is None:
        return []
    return await asyncio.to_thread(inlay_hints, ls, st, params.range.start.line, params.range.end.line)


def inlay_hints(ls: TTLayoutServer, st: FileState, first: int, last: int) -> list[t.InlayHint]:
    """The convert path at the end of each convert_layout line in the range."""
    doc = st.doc
    out = []
    for section in doc.sections:
        lo, hi = section.first_line - 1, doc.line_of(max(section.end - 1, section.start))
        if hi < first or lo > last or not model.is_ttgir(doc.section_text(section)):
            continue
        try:
            audit = ls.module_audit(st, section)
        except model.TTLayoutError:
            continue
        for f in model.rows(audit):
            row = model.row_of(f)
            if row.category == "convert" and first <= row.line - 1 <= last:
                text = doc.line_text(row.line - 1)
                out.append(t.InlayHint(position=t.Position(line=row.line - 1, character=utf16_len(text)),
                                       label=" " + hover.inlay_text(row), kind=t.InlayHintKind.Type,
                                       padding_left=True))
    return out


def serve(stdin=None, stdout=None) -> None:
    """Speak the protocol on stdin/stdout until the client says exit or goes away; SIGTERM, SIGHUP and Ctrl-C end
    the process at once (an editor closing, a terminal gone)."""
    import signal
    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, lambda number, frame: os._exit(128 + number))
    server.start_io(stdin, stdout)
