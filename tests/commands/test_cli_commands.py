"""The commands as one family: every command of the registry (`commands.COMMANDS`) writes `-o FILE`, speaks the
same short flags, accepts the same target list, defaults its target to the dump's, sends its help through the
same output handling, and a mistyped command name gets "did you mean". Command lists come from the registry, so
a new command is checked here as soon as it is registered."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from golden_cases import DATA, ROOT

from linlayout_cli.analysis.targets import KNOWN, get_target
from linlayout_cli.cli import run
from linlayout_cli.commands import COMMANDS, PRINT, SUBCOMMANDS, load
from linlayout_cli.commands.hardware import TARGET

B = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
C = "#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>"
SW = "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
T = "tensor<64x64xf16>"
KERNELS = DATA / "kernels"

# one working command line per registered command (a new command adds its own: test_every_command_has_a_case)
CASES = {
    PRINT: ["-l", B, "-t", T],
    "info": ["info", "-l", B, "-t", T],
    "lookup": ["lookup", "-l", B, "-t", T, "--element", "3,5"],
    "convert": ["convert", "-r", B, "-d", C, "-t", T],
    "audit": ["audit", str(KERNELS / "matmul.sm90.ttgir")],
    "advise": ["advise", str(KERNELS / "reduce_sum_axis0.sm90.ttgir")],
    "bank": ["bank", "-r", B, "-s", SW, "-t", T],
    "swizzle": ["swizzle", "-r", B, "-d", C, "-t", T],
    "diff": ["diff", B, C, "-t", T],
    "lsp": None,             # a server on stdin/stdout, no report: tests/lsp speaks to it
}
REPORTS = [name for name in COMMANDS if CASES.get(name) is not None]    # the commands that print a report


def one_error_line(argv, stdin=None) -> str:
    code, out, err = run(argv, stdin=stdin)
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith("ttlayout: error: "), (code, err)
    return err[len("ttlayout: error: "):-1]


def options(name: str):
    return load(name).OPTIONS


def test_every_command_has_a_case():
    assert set(CASES) == set(COMMANDS)


# ----------------------------------------------------------------------------------------- -o on every command


@pytest.mark.parametrize("name", REPORTS)
def test_every_command_writes_o_file_as_it_prints(name, tmp_path):
    assert any("-o" in o.decls for o in options(name)), f"ttlayout {name} has no -o"
    code, out, err = run(CASES[name])
    assert code == 0 and not err, err
    target = tmp_path / "out.txt"
    assert run(CASES[name] + ["-o", str(target)]) == (0, "", "")
    assert target.read_text() == out
    if any("--json" in o.decls for o in options(name)):
        code, out, err = run(CASES[name] + ["--json"])
        assert run(CASES[name] + ["--json", "-o", str(target)]) == (0, "", "")
        assert target.read_text() == out and out.lstrip().startswith(("{", "["))


def test_an_error_leaves_no_o_file(tmp_path):
    target = tmp_path / "out.txt"
    one_error_line(["info", "-l", B, "-t", "tensor<3x4xf16>", "-o", str(target)])
    one_error_line(["audit", str(tmp_path / "missing.ttgir"), "-o", str(target)])
    assert not target.exists() and os.listdir(tmp_path) == []


# ----------------------------------------------------------------------------------------- short flags


def _meanings():
    """short flag -> {what it stands for} over every command: a role's (kind, position among the roles) for
    layouts (the print command's -l, which declares no role, is its one layout of any kind), else the parameter it
    sets. Legacy spellings (still accepted, not shown) are left out."""
    found: dict = {}
    for name in COMMANDS:
        module = load(name)
        roles = {r.param: (r.kind, i) for i, r in enumerate(getattr(module, "ROLES", ()))} or {"layout": (None, 0)}
        for opt in module.OPTIONS:
            for decl in opt.decls:
                if len(decl) == 2 and decl not in opt.legacy:
                    found.setdefault(decl, set()).add(roles.get(opt.name, opt.name))
    return found


def test_a_short_flag_means_one_thing_everywhere():
    meanings = _meanings()
    assert {flag: len(m) for flag, m in meanings.items()} == {flag: 1 for flag in meanings}, meanings
    assert meanings["-r"] == {("distributed", 0)} and meanings["-d"] == {("distributed", 1)}
    assert meanings["-s"] == {("shared", 1)} and meanings["-l"] == {(None, 0)}


def test_old_spellings_still_work_and_are_not_shown():
    new = run(["convert", "-r", B, "-d", C, "-t", T])
    assert new[0] == 0 and run(["convert", "-s", B, "-d", C, "-t", T]) == new
    assert run(["convert", "--src", B, "--dst", C, "-t", T]) == new
    swizzle = run(["swizzle", "-r", B, "-d", C, "-t", T])
    assert swizzle[0] == 0 and run(["swizzle", "--write", B, "--read", C, "-t", T]) == swizzle
    code, out, _ = run(["convert", "--help"])
    assert code == 0 and "-r, --src ATTR" in out and "-s" not in out.split("Options:")[1].split()


# ----------------------------------------------------------------------------------------- targets


def test_one_target_option_and_one_target_list():
    """Every command that models hardware declares the same --target option object, and the convert model
    covers exactly the registry's targets."""
    from linlayout_cli.analysis.convert import LOWERINGS
    with_target = [name for name in COMMANDS if any("--target" in o.decls for o in options(name))]
    assert set(with_target) == {"convert", "bank", "swizzle", "audit", "advise", "diff"}
    for name in with_target:
        assert TARGET in options(name), name
    assert list(LOWERINGS) == list(KNOWN)
    assert all(name in TARGET.help for name in KNOWN)


TARGETED = {name: CASES[name] for name in ("convert", "bank", "swizzle", "audit", "advise")}


@pytest.mark.parametrize("spelling", [*KNOWN, "hopper", "MI300X", "cuda:86", "hip:gfx942", "hip:gfx1201"])
@pytest.mark.parametrize("name", list(TARGETED))
def test_every_command_accepts_the_same_targets(name, spelling):
    """Each target is accepted; where a model does not cover it, one line says so (the bank model on gfx1200).
    convert checks the layouts' lanes against the target's warp size, so wave64 targets get 64-lane layouts."""
    argv = TARGETED[name]
    if name == "convert" and get_target(spelling).warp_size == 64:
        argv = ["convert", "-r", B.replace("[4, 8]", "[8, 8]"), "-d", C.replace("[8, 4]", "[8, 8]"), "-t", T]
    code, out, err = run(argv + ["--target", spelling, "--json"])
    covered = not (get_target(spelling).bank_gap and name in ("bank", "swizzle"))
    if covered:
        assert code == 0 and not err, err
        assert json.loads(out)["target"] == get_target(spelling).name
    else:
        assert code == 1 and not out and err == f"ttlayout: error: {get_target(spelling).bank_gap}\n"
        assert "gfx1200" in err and "docs/bank_model.md" in err


@pytest.mark.parametrize("name", list(TARGETED))
def test_an_unknown_target_is_refused_with_the_list(name):
    message = one_error_line(TARGETED[name] + ["--target", "sm70"])
    assert message == f"unknown target 'sm70'; known targets: {', '.join(KNOWN)}"


def test_audit_names_what_the_bank_model_does_not_cover():
    code, out, err = run(["audit", str(KERNELS / "matmul.sm80.ttgir"), "--target", "gfx1200"])
    assert code == 0 and not err and "gfx1200, AMD RDNA4" in out
    assert "ds_store_b128, cap; no bank model" in out                   # the instruction, no wavefronts
    assert "ttg.convert_layout" in out and "smem 32768 B, conflicts" in out       # the short verdict
    code, out, err = run(["audit", str(KERNELS / "matmul.sm80.ttgir"), "--target", "gfx1200", "--wide"])
    assert code == 0 and "shared memory: 32768 bytes scratch" in out                  # the long one
    assert "4 x ds_store_b128 per thread; no bank model for gfx1200" in out


@pytest.mark.parametrize("argv", [["convert", "--alias-names", "blocked,blocked1"],
                                  ["bank", "--alias-names", "blocked,shared"],
                                  ["swizzle", "--alias-names", "blocked,blocked1"]], ids=lambda a: a[0])
@pytest.mark.parametrize("arch", ["sm80", "sm100", "gfx942"])
def test_target_defaults_to_the_dump_s_and_option_overrides(argv, arch):
    """`-i` of a cuda:80 dump is analysed for sm80 (issue 24: it was sm90), a hip:gfx942 one for gfx942;
    --target still wins."""
    args = [argv[0], "-i", str(KERNELS / f"matmul.{arch}.ttgir"), *argv[1:], "-t", "tensor<128x64xf16>", "--json"]
    code, out, err = run(args)
    assert code == 0 and not err, err
    assert json.loads(out)["target"] == arch
    other = "gfx950" if arch == "gfx942" else "sm90"                # the same warp size as the dump's layouts
    code, out, err = run(args + ["--target", other])
    assert code == 0 and json.loads(out)["target"] == other, err


def test_without_a_dump_the_default_is_sm90():
    for name in ("convert", "bank", "swizzle"):
        code, out, _ = run(TARGETED[name] + ["--json"])
        assert code == 0 and json.loads(out)["target"] == "sm90", name


def module(target: str) -> str:
    return (f'#blocked = {B}\n#blocked1 = {C}\n#shared = {SW}\n'
            f'module attributes {{"ttg.num-warps" = 4 : i32, ttg.target = "{target}", "ttg.threads-per-warp" = 32 : '
            'i32} {\n}\n')


@pytest.mark.parametrize("target", ["hip:gfx90a", "nonsense", ""])
def test_a_dump_naming_an_unknown_target_is_refused(target):
    """Not silently sm90: the dump's target is named, and --target can override it."""
    for argv in (["convert", "-i", "-", "-t", T], ["audit", "-"]):
        message = one_error_line(argv, stdin=module(target))
        assert message.startswith(f"the dump's ttg.target '{target}' is not a target ttlayout models") and \
            message.endswith("give --target NAME"), message
    code, out, err = run(["convert", "-i", "-", "-t", T, "--target", "sm80", "--json"], stdin=module(target))
    assert code == 0 and json.loads(out)["target"] == "sm80"


def test_modules_naming_different_targets_need_target():
    text = module("cuda:80") + "// -----\n" + module("cuda:90").split("\n", 3)[3]
    message = one_error_line(["convert", "-i", "-", "-t", T], stdin=text)
    assert message == "the -i file's modules name different targets (cuda:80, cuda:90); say which with --target NAME"


# ----------------------------------------------------------------------------------------- messages that are true


@pytest.mark.parametrize("name", [n for n in REPORTS if n not in ("audit", "advise")])
def test_the_size_limit_names_an_option_the_command_has(name):
    argv = [a if a != T else "tensor<16384x16384xf16>" for a in CASES[name]]
    message = one_error_line(argv)
    assert "raise it with --max-elements N" in message
    assert any("--max-elements" in o.decls for o in options(name))
    assert one_error_line(argv + ["--max-elements", "64"]).startswith("tensor has 268435456 elements, more than the "
                                                                        "limit of 64")


def test_bitwidth_is_suggested_only_where_it_exists():
    assert one_error_line(["bank", "-r", B, "-s", SW, "-t", "tensor<64x64x!tt.foo>"]) == (
        "cannot tell the bit width of element type '!tt.foo'; give --bitwidth N")
    assert one_error_line(["info", "-l", B, "-t", "tensor<64x64x!tt.foo>"]) == (
        "cannot tell the bit width of element type '!tt.foo'")
    code, out, _ = run(["bank", "-r", B, "-s", SW, "-t", "tensor<64x64x!tt.foo>", "--bitwidth", "16"])
    assert code == 0


def test_audit_does_not_suggest_bitwidth():
    text = module("cuda:90").replace("{\n}", "{\n  tt.func public @k(%arg0: tensor<64x64x!tt.foo, #blocked>) {\n"
                                     "    %0 = ttg.convert_layout %arg0 : tensor<64x64x!tt.foo, #blocked> -> "
                                     "tensor<64x64x!tt.foo, #blocked1>\n    tt.return\n  }\n}")
    for extra in ([], ["--json"]):
        code, out, err = run(["audit", "-", *extra], stdin=text)
        assert code == 0 and not err, err
        assert "cannot tell the bit width of element type '!tt.foo'" in out and "--bitwidth" not in out


def test_out_of_memory_hint_names_an_option_the_command_has():
    from linlayout_cli.cli import _max_elements_hint
    for name in REPORTS:
        load(name)
        argv = CASES[name]
        has = any("--max-elements" in o.decls for o in options(name))
        assert _max_elements_hint(argv) == (" or --max-elements N" if has else ""), name
    assert _max_elements_hint(["audit", "x"]) == ""


# ----------------------------------------------------------------------------------------- did you mean


@pytest.mark.parametrize("argv,message", [
    (["audt", "x.mlir"], "unknown command 'audt' (did you mean 'audit'?)"),
    (["conver", "-s", "x"], "unknown command 'conver' (did you mean 'convert'?)"),
    (["swizle"], "unknown command 'swizle' (did you mean 'swizzle'?)"),
    (["hepl"], "unknown command 'hepl' (did you mean 'help'?)"),
    (["kernel.ttgir"], "unknown command 'kernel.ttgir'; commands: " + ", ".join([*COMMANDS, "help"])),
])
def test_a_mistyped_command_gets_did_you_mean(argv, message):
    assert one_error_line(argv) == message


def test_without_a_command_name_the_print_command_still_runs():
    """triton-tensor-layout compatibility: the first word is an option, never a command."""
    code, out, err = run(["-l", B, "-t", T])
    assert code == 0 and not err and out == run(["print", "-l", B, "-t", T])[1]
    assert run(["-l=" + B, "-t=" + T, "-use-hw-view"])[0] == 0


# ----------------------------------------------------------------------------------------- help and completion


def _real(argv, stdout, env=None, shell_suffix=""):
    environment = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "linlayout_cli", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          timeout=60, cwd=ROOT, env=environment)


HELP_LINES = [["--help"], ["-h"], ["help"], ["help", "notation"], ["help", "bank-model"], ["help", "cute"], ["--version"],
              *[[name, "--help"] for name in SUBCOMMANDS]]
COMPLETION = [{"_TTLAYOUT_COMPLETE": "bash_source"},
              {"_TTLAYOUT_COMPLETE": "bash_complete", "COMP_WORDS": "ttlayout ba", "COMP_CWORD": "1"}]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_help_and_completion_to_a_full_disk_are_one_error_line():
    with open("/dev/full", "wb") as full, ThreadPoolExecutor(max_workers=4) as pool:
        procs = list(pool.map(lambda a: _real(a, full), HELP_LINES))
        procs += list(pool.map(lambda env: _real([], full, env), COMPLETION))
    for what, proc in zip(HELP_LINES + COMPLETION, procs):
        assert proc.returncode == 1, what
        assert proc.stderr.decode() == "ttlayout: error: cannot write to standard output: No space left on device\n", \
            (what, proc.stderr[:500])


def test_help_and_completion_to_a_closed_stdout_are_one_error_line():
    script = f"{sys.executable!s} -m linlayout_cli"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for line in ("--help", "bank --help", "help info"):
        proc = subprocess.run(["sh", "-c", f"{script} {line} >&-"], stderr=subprocess.PIPE, timeout=60, cwd=ROOT,
                              env=env)
        assert proc.returncode == 1 and proc.stderr.decode() == (
            "ttlayout: error: cannot write to standard output: it is closed (use -o FILE)\n"), line
    proc = subprocess.run(["sh", "-c", f"{script} >&-"], stderr=subprocess.PIPE, timeout=60, cwd=ROOT,
                          env=dict(env, _TTLAYOUT_COMPLETE="bash_source"))
    assert proc.returncode == 1 and proc.stderr.decode().count("\n") == 1


def test_help_lists_the_registry_without_importing_the_commands():
    code = ("import sys; from linlayout_cli.cli import run; c, out, err = run(['--help']); assert c == 0, err; "
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('linlayout_cli.commands.')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    loaded = set(eval(proc.stdout))
    assert not loaded & set(SUBCOMMANDS), loaded
    out = run(["--help"])[1]
    for name, entry in COMMANDS.items():
        assert f"{name}" in out and entry.summary[:40] in " ".join(out.split()), name
