"""Loader helpers for the golden files written by ``scripts/make_golden.py`` (Triton 3.9.0 oracle).

Layout of ``golden/<suite>/``:

* ``cases.jsonl`` - one JSON object per line: ``id``, ``args`` (argv for ttlayout), ``exit`` (Triton's
  exit code: 0, 1, 134 = abort, 136 = SIGFPE), ``stdout`` (``"<id>.out"`` or null), ``kind``, ``note``
  and, for error cases, ``stderr_first_line``.  ``-i`` inputs live in ``golden/<suite>/inputs`` and are
  referenced relative to the repository root.
* ``<id>.out`` - Triton's exact stdout.

The core and mma success cases printing one ``-l`` layout also have Triton's own linear layout:
``bases`` (``{"register": [[..], ..], "lane", "warp", "block"}`` or ``{"offset", "block"}``), ``out_dims``
(``{"dim0": n, ..}``), ``linear_attr`` (Triton's canonical print of those bases as an attribute, or null),
``linear_same_view`` and sometimes ``linear_rejected`` (see ``scripts/golden/linear.py``).

The bank suite (``golden/bank/cases.jsonl``) has ``id, reg, shared, shape, bitwidth, conflicts, exit``.
Ids are ``<section>-<nnn>``: stable across regenerations (``scripts/golden/suite.py``).

The suites of compiled kernels (``golden/convert``, ``golden/shared_access``) are read as written
(``compiled_cases``); ``measured`` and ``canonical`` put their instruction counts in the models' terms.

Also the repository's paths: ``ROOT``, ``GOLDEN`` and ``DATA`` (``tests/data``, the other Triton-made files).
"""
from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
DATA = ROOT / "tests" / "data"


def load_suite(suite: str) -> list[dict]:
    path = GOLDEN / suite / "cases.jsonl"
    if not path.exists():
        return []
    cases = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                c = json.loads(line)
                c["suite"] = suite
                cases.append(c)
    return cases


def cases_with_bases(suites=("core", "mma")) -> list[dict]:
    """The cases of `suites` that record Triton's own linear layout (``bases``, ``out_dims``)."""
    return [c for suite in suites for c in load_suite(suite) if "bases" in c]


def expected_stdout(case: dict) -> str:
    return (GOLDEN / case["suite"] / case["stdout"]).read_bytes().decode("utf-8")


def case_id(case: dict) -> str:
    return "%s/%s" % (case["suite"], case["id"])


def short_diff(expected: str, actual: str, limit: int = 40) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                      fromfile="triton", tofile="ttlayout", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + ["... (%d more diff lines)\n" % (len(lines) - limit)]
    out = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
    return out or "(no line difference; trailing newline or whitespace differs)\n"


def option_values(args: list[str]) -> dict[str, str]:
    """Values of the valued options of a golden argv, in any LLVM spelling (``-l X``, ``-l=X``, ``--l X``)."""
    values, i = {}, 0
    while i < len(args):
        name, eq, value = args[i].lstrip("-").partition("=")
        if name in ("l", "t", "i", "o", "alias-names") and args[i].startswith("-"):
            if not eq:
                i += 1
                value = args[i]
            values[name] = value
        i += 1
    return values


def tensor_shape(tensor_type: str) -> list[int]:
    """``tensor<16x8xf16>`` -> ``[16, 8]``"""
    dims = re.match(r"tensor<((?:\d+x)*)", tensor_type).group(1)
    return [int(x) for x in dims.split("x") if x]


def replace_layout(args: list[str], attr: str) -> list[str]:
    """The argv with its ``-l`` value replaced by `attr`, spelling kept; an encoding written in ``-t`` (which
    would then be a different layout from ``-l``) is left out."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if a in ("-l", "--l"):
            out += [a, attr]
            i += 2
            continue
        if a in ("-t", "--t") and i + 1 < len(args):
            out += [a, without_encoding(args[i + 1])]
            i += 2
            continue
        if a.startswith(("-t=", "--t=")):
            name, value = a.split("=", 1)
            a = name + "=" + without_encoding(value)
        out.append(a.split("=", 1)[0] + "=" + attr if a.startswith(("-l=", "--l=")) else a)
        i += 1
    return out


def without_encoding(tensor_type: str) -> str:
    """``tensor<16x16xf16, #ttg.blocked<...>>`` -> ``tensor<16x16xf16>``"""
    return re.sub(r",.*>$", ">", tensor_type, flags=re.S)


# ----------------------------------------------------------------------------------------- compiled kernels


def compiled_cases(suite: str) -> list[dict]:
    """``golden/<suite>/cases.jsonl`` of a suite of compiled kernels (``convert``, ``shared_access``), each case as
    written (no ``suite`` key); [] before the suite is generated."""
    path = GOLDEN / suite / "cases.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


COUNTS = ("shuffles", "shared_stores", "shared_loads", "barriers")


def _ptx_bits(mnemonic: str) -> int:
    m = re.search(r"\.x(\d)", mnemonic)               # ldmatrix / stmatrix .x1 .x2 .x4: 32 bits per matrix
    if m:
        return 32 * int(m.group(1))
    m = re.search(r"\.v(\d)\.[bsuf](\d+)", mnemonic)
    if m:
        return int(m.group(1)) * int(m.group(2))
    return int(re.search(r"\.[bsuf](\d+)$", mnemonic).group(1))


@dataclass(frozen=True)
class Measured:
    path: str
    counts: dict
    store_bits: frozenset
    load_bits: frozenset
    warp_barrier: bool
    stmatrix: bool
    ldmatrix: bool


def measured(case: dict) -> Measured:
    """What Triton emitted for a golden/convert case, in the model's terms (docs/convert_model.md's counting
    rules).  AMD ``ds_*2*`` (two addresses) count as two accesses."""
    counts = dict.fromkeys(COUNTS, 0)
    st, ld = set(), set()
    warp_barrier = stmatrix = ldmatrix = False
    for k, n in case["ops"].items():
        if k.startswith("shfl") or k.startswith(("ds_bpermute", "ds_permute", "ds_swizzle", "v_permlane", "dpp:")):
            counts["shuffles"] += n
        elif k.startswith(("st.shared", "stmatrix")):
            counts["shared_stores"] += n
            st.add(_ptx_bits(k))
            stmatrix |= k.startswith("stmatrix")
        elif k.startswith(("ld.shared", "ldmatrix")):
            counts["shared_loads"] += n
            ld.add(_ptx_bits(k))
            ldmatrix |= k.startswith("ldmatrix")
        elif k.startswith(("ds_write", "ds_store")):
            counts["shared_stores"] += n * (2 if re.match(r"ds_(write2|store_2addr)", k) else 1)
            st.add(int(re.search(r"_[bu](\d+)", k).group(1)))
        elif k.startswith(("ds_read", "ds_load")):
            counts["shared_loads"] += n * (2 if re.match(r"ds_(read2|load_2addr)", k) else 1)
            ld.add(int(re.search(r"_[bui](\d+)", k).group(1)))
        elif k in ("bar.sync", "barrier.sync", "s_barrier", "s_barrier_signal"):
            counts["barriers"] += n
        elif k.startswith("bar.warp.sync"):
            counts["barriers"] += n
            warp_barrier = True
    if case["scratch_bytes"] or counts["shared_stores"]:
        path = "shared_memory"
    elif counts["shuffles"]:
        path = "warp_shuffle"
    else:
        # no instruction moves data: a no-op exactly when Triton's two linear layouts are equal
        path = "noop" if case["src_ll"] == case["dst_ll"] else "registers"
    return Measured(path, counts, frozenset(st), frozenset(ld), warp_barrier, stmatrix, ldmatrix)


TWO_ADDRESS = re.compile(r"^(ds_(?:read|write|load|store))(?:2|_2addr)(?:st64|_stride64)?_(b\d+)$")
D16 = re.compile(r"^(ds_(?:read|load)_[ui]\d+|ds_(?:write|store)_b\d+)_d16(?:_hi)?$")


def canonical(ops: dict) -> Counter:
    """The compiled mnemonics as the forms the model names (docs/shared_memory_model.md, section 1):

    * LLVM's two-address AMD forms (ds_write2_b32, ds_read2st64_b64, ds_load_2addr_b32) count as two accesses
      of their width; d16 variants (ds_write_b16_d16_hi, ds_read_u16_d16) as the plain form; sign-extending
      reads (ds_read_i16) as the zero-extending one;
    * PTX forms stay as the assembly spells them: the model names st.shared.v2.b16 and st.shared.b32 apart
      (analysis/shared_instructions.py, `subword_form`).
    >>> dict(canonical({"ds_read2_b32": 2, "st.shared.v4.b16": 1, "ds_write_b16_d16_hi": 3}))
    {'ds_read_b32': 4, 'st.shared.v4.b16': 1, 'ds_write_b16': 3}
    """
    out: Counter = Counter()
    for mnem, n in ops.items():
        m = TWO_ADDRESS.match(mnem)
        if m:
            out[f"{m.group(1)}_{m.group(2)}"] += 2 * n
            continue
        m = D16.match(mnem)
        name = m.group(1) if m else mnem
        out[re.sub(r"^(ds_(?:read|load))_i(\d+)$", r"\1_u\2", name)] += n
    return out


# Padded layouts: LLVM's load/store vectorizer merged some of Triton's accesses into wider ones where it could
# prove the padded addresses consecutive and aligned (docs/shared_memory_model.md, section 6).  The model gives
# Triton's own accesses; these directions are checked to move the same elements with fewer instructions.
LLVM_MERGED = {("padded-012", "read"), ("padded-018", "read"), ("padded-045", "write"), ("padded-045", "read"),
               ("padded-017", "write"), ("padded-026", "read")}
