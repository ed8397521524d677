"""The `ttlayout` process: dispatch to a command of `commands/`, signal handling and error formatting. Every failure
is one stderr line and a non-zero exit. Output goes through `outfile.Sink` (stdout, or an `-o` file that appears only
once everything was written)."""
from __future__ import annotations

import _thread
import atexit
import io
import os
import signal
import sys

from . import outfile
from .commands import COMMANDS, PRINT, Context, load, quick
from .errors import TTLayoutError, printable
from .outfile import STOP_SIGNALS, Sink

MAX_MESSAGE = 300
ERROR_PREFIX = "ttlayout: error: "
INTERNAL_ERROR = "internal error"
OUT_OF_MEMORY = ERROR_PREFIX + "out of memory (try a smaller tensor or --max-elements)\n"
COMPLETE_VAR = "_TTLAYOUT_COMPLETE"          # click's shell completion: _TTLAYOUT_COMPLETE=bash_source ttlayout


class Stopped(BaseException):
    """A fatal signal arrived: unwind like Ctrl-C (temporary files removed), then exit 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def one_line(message: str, suffix: str = "") -> str:
    """The whole stderr line `ttlayout: error: <message><suffix>`, at most MAX_MESSAGE characters (a long
    message is cut, keeping its start, which names the problem, and the suffix)."""
    text = printable(message)
    room = MAX_MESSAGE - len(ERROR_PREFIX) - len(suffix)
    if len(text) > room:
        text = text[: room - 3] + "..."
    return ERROR_PREFIX + text + suffix


# ----------------------------------------------------------------------------------------- running a command


def execute(argv: list[str], stdin, stdout_bytes, stderr, flush=None) -> int:
    """Run one command line; returns the exit status. Errors become one 'ttlayout: error: ...' line. A plain
    command line runs without click (`commands.quick`); everything else goes through the click group. `flush`
    pushes standard output's buffer to its reader (a command that streams calls it between pieces)."""
    outfile.forget_reads()                       # an earlier in-process run's inputs are not this run's
    failed = error_status(argv)
    release_model = None
    try:
        if "TTLAYOUT_TRITON" in os.environ or any(a.startswith("--triton") for a in argv):
            from .commands import triton  # lazy: the release tables load only when a release is named
            argv, value = triton.take(list(argv))
            failed = error_status(argv)
            release_model = _activate_release(triton, argv, value, stderr)
        ctx = Context(stdin, Sink(stdout_bytes, flush), stdout_bytes, stderr, one_line, set())
        plain = quick(argv)
        if plain is not None:
            module, params = plain
            return module.run(ctx, module.Request(**params)) or 0
        from .commands.group import group  # lazy: click (about 25 ms) loads only for help, completion, mistakes
        # make_context + invoke instead of group.main(): main() turns Ctrl-C into a blank stderr line plus
        # Abort and a closed pipe into sys.exit(1); here both reach main() below, which ends quietly
        with group.make_context("ttlayout", list(argv), obj=ctx) as click_ctx:
            group.invoke(click_ctx)
        return 0
    except TTLayoutError as e:
        stderr.write(one_line(str(e)) + "\n")
        return failed
    except RecursionError:
        stderr.write(one_line("input nested too deeply") + "\n")
        return failed
    except MemoryError:
        try:
            stderr.write(one_line("out of memory (try a smaller tensor" + _max_elements_hint(argv) + ")") + "\n")
        except MemoryError:                    # nothing more to allocate: a constant line
            stderr.write(OUT_OF_MEMORY)
        return failed
    except BrokenPipeError:
        raise                                    # main() ends quietly
    except Exception as e:
        code = _click_failure(e, stderr, failed, argv)
        if code is not None:
            return code
        _reraise_interruption(e)                 # a bug in ttlayout: still one line, never a traceback
        stderr.write(one_line(f"{INTERNAL_ERROR} ({type(e).__name__}: {e}); please report this command line") + "\n")
        return failed
    finally:
        if release_model is not None:
            from . import attributes
            from .parsing.mlir_file import forget_parsed
            attributes.active_release = None
            forget_parsed()                      # parsed under the release's meanings


def _activate_release(triton, argv: list[str], value, stderr):
    """--triton / TTLAYOUT_TRITON: the release whose printer print, info, lookup and diff model (None: 3.9)."""
    def note(text: str) -> None:
        stderr.write(one_line(text).replace("error: ", "note: ", 1) + "\n")
    release = triton.activate(argv, value, note)
    if release is not None:
        from . import attributes
        from .parsing.mlir_file import forget_parsed
        attributes.active_release = release
        forget_parsed()                          # parsed under 3.9's meanings
    return release


def error_status(argv: list[str]) -> int:
    """The exit status of a failed run: 1, or 2 for `diff --exit-code` (as `git diff --exit-code`: 0 equal,
    1 different, 2 trouble).

    >>> error_status(["diff", "A", "B", "--exit-code"]), error_status(["info", "--exit-code"])
    (2, 1)
    """
    return 2 if argv[:1] == ["diff"] and "--exit-code" in argv[1:] else 1


def _max_elements_hint(argv: list[str]) -> str:
    """' or --max-elements N' where the command of `argv` has that option (not audit)."""
    name = argv[0] if argv and argv[0] in COMMANDS else PRINT
    options = getattr(load(name), "OPTIONS", ())      # loaded already: the command ran out of memory
    return " or --max-elements N" if any("--max-elements" in o.decls for o in options) else ""


def _click_failure(e: Exception, stderr, failed: int = 1, argv=()) -> int | None:
    """The exit status of a click exception (its message, in our words, written as one line; `failed` for a
    mistake), or None for any other."""
    if not any(c.__module__.partition(".")[0] == "click" for c in type(e).__mro__):
        return None                              # not click's (a plain command line never loads click)
    import click  # lazy: a plain command line never loads click
    if isinstance(e, click.exceptions.Exit):
        return e.exit_code
    if isinstance(e, click.Abort):
        return 130
    if isinstance(e, click.UsageError):
        from .commands.usage import our_words
        stderr.write(one_line(our_words(e, list(argv)), f" (see '{_help_name(e.ctx, argv)} --help')") + "\n")
        return failed
    if isinstance(e, click.ClickException):
        stderr.write(one_line(e.format_message()) + "\n")
        return failed
    return None


def _help_name(ctx, argv=()) -> str:
    """'ttlayout bank' for a subcommand, 'ttlayout' for the print command (it needs no name); from the command
    line where click's parser gives no context."""
    if ctx is None:
        from .commands.usage import help_name
        return help_name(list(argv))
    if ctx.command.name in ("print", "ttlayout"):
        return "ttlayout"
    return f"ttlayout {ctx.command.name}"


def _reraise_interruption(e: BaseException) -> None:
    """A signal that landed inside library code which wrapped it (an import turning KeyboardInterrupt into an
    ImportError, say) still ends the run as that signal."""
    seen = set()
    link: BaseException | None = e
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if isinstance(link, (KeyboardInterrupt, Stopped)):
            raise link
        link = link.__cause__ or link.__context__


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """In-process run for tests: (exit status, stdout, stderr)."""
    out, err = io.BytesIO(), io.StringIO()
    saved = sys.stdout
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stdout = text_out           # click's --help / --version print through sys.stdout
    try:
        code = execute(list(argv), io.StringIO(stdin or ""), out.write, err)
    finally:
        sys.stdout = saved
    return code, out.getvalue().decode("utf-8"), err.getvalue()


def _stdout_writer():
    """(write, flush) for standard output; an OSError other than a closed pipe becomes one error line."""
    stdout = sys.stdout.buffer if sys.stdout is not None else None

    def guarded(action):
        if stdout is None:
            raise TTLayoutError("cannot write to standard output: it is closed (use -o FILE)")
        try:
            action()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise TTLayoutError(f"cannot write to standard output: {e.strerror or e}") from None

    def flush() -> None:
        if stdout is not None:
            guarded(stdout.flush)
    return (lambda data: guarded(lambda: stdout.write(data))), flush


def _raise_stopped(signum, frame):
    raise Stopped(signum)


def complete(instruction: str, write, stderr) -> int:
    """Shell completion (`_TTLAYOUT_COMPLETE=bash_source ttlayout`, ..._complete with COMP_WORDS): click's answer,
    written through `write` like any other output, so that a full disk or a closed stdout is one error line."""
    from click.shell_completion import shell_complete  # lazy: only completion loads click's completion

    from .commands.group import group
    why = _completion_problem(instruction)
    if why is not None:
        stderr.write(one_line(why) + "\n")
        return 1
    buffer, saved = io.BytesIO(), sys.stdout
    wrapper = sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8", write_through=True)
    try:
        code = shell_complete(group, {}, "ttlayout", COMPLETE_VAR, instruction)
    except (KeyError, ValueError) as e:                # an environment the checks above did not foresee
        stderr.write(one_line(f"shell completion failed ({type(e).__name__}: {e})") + "\n")
        return 1
    finally:
        sys.stdout = saved
        wrapper.flush()
        data = buffer.getvalue()
        wrapper.detach()                               # the buffer stays open when the wrapper is collected
    try:
        write(data)
    except TTLayoutError as e:
        stderr.write(one_line(str(e)) + "\n")
        return 1
    return code


_SHELLS = ("bash", "zsh", "fish")


def _completion_problem(instruction: str) -> str | None:
    """Why `_TTLAYOUT_COMPLETE=instruction` cannot be answered (click's instructions are SHELL_source and
    SHELL_complete; the second needs COMP_WORDS and COMP_CWORD, a number for bash and zsh), or None.

    >>> _completion_problem("source")
    "_TTLAYOUT_COMPLETE='source' is not a completion instruction: give bash_source, zsh_source or fish_source"
    """
    shell, _, action = instruction.partition("_")
    if shell not in _SHELLS or action not in ("source", "complete"):
        return (f"{COMPLETE_VAR}={instruction!r} is not a completion instruction: give "
                f"{', '.join(s + '_source' for s in _SHELLS[:-1])} or {_SHELLS[-1]}_source")
    if action == "complete":
        missing = [v for v in ("COMP_WORDS", "COMP_CWORD") if v not in os.environ]
        if missing:
            return (f"{COMPLETE_VAR}={instruction} needs {' and '.join(missing)} (set by the script "
                    f"'{COMPLETE_VAR}={shell}_source ttlayout' prints)")
        if shell != "fish" and not os.environ["COMP_CWORD"].strip().isdigit():
            return f"COMP_CWORD={os.environ['COMP_CWORD']!r} is not a word number"
    return None


def catch_stop_signals() -> None:
    """Every fatal signal that is not ignored ends the run like Ctrl-C: the -o temporary file is removed, then
    exit 128 + signal. A signal the parent made us ignore (nohup's SIGHUP, a background job's) stays ignored."""
    for signum in STOP_SIGNALS:
        try:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _raise_stopped)
        except (OSError, ValueError):               # a signal this system reserves
            pass


def main() -> None:
    catch_stop_signals()
    write, flush = _stdout_writer()
    stderr = sys.stderr if sys.stderr is not None else open(os.devnull, "w")
    try:
        if os.environ.get(COMPLETE_VAR):
            code = complete(os.environ[COMPLETE_VAR], write, stderr)
        else:
            code = execute(sys.argv[1:], sys.stdin.buffer if sys.stdin is not None else None, write, stderr, flush)
        try:
            flush()
        except TTLayoutError as e:
            stderr.write(one_line(str(e)) + "\n")
            code = 1
    except KeyboardInterrupt:
        # Ctrl-C: end quietly (an -o file was not touched, its temporary file is removed)
        _discard_stdout()
        code = 130
    except Stopped as e:
        _discard_stdout()
        code = 128 + e.signum
    except BrokenPipeError:
        # `ttlayout ... | head`: the reader left; end quietly.
        _discard_stdout()
        code = 0
    except MemoryError:
        # out of memory while reporting another failure: a constant line, nothing more to allocate
        stderr.write(OUT_OF_MEMORY)
        code = 1
    sys.exit(code)


def entry() -> None:
    """The process's entry point (`ttlayout`, `python -m linlayout_cli`): `main`, then, once standard output and
    error are flushed, an immediate `os._exit` that skips the interpreter's teardown of every loaded module and
    object, about an eighth of a short run (17 M of the 16x16 print's 145 M instructions, 22 M of a kernel's
    audit). A run that registered exit handlers (a process pool, the language server's threads) or that still has
    other threads ends the ordinary way, as does a non-integer exit status."""
    try:
        main()
    except SystemExit as e:
        code = e.code
        if not isinstance(code, int) or atexit._ncallbacks() or _thread._count():
            raise
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):       # the ordinary exit reports what it can: take it
                raise e from None
        os._exit(code & 0xFF)


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what is still buffered can neither
    block on nor fail with a pipe whose reader is gone ("Exception ignored ... BrokenPipeError")."""
    if sys.stdout is None:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
