"""Suite ``gluon``: ttlayout's Gluon constructors checked against Triton 3.9's Gluon.

Two kinds of records in ``golden/gluon/cases.jsonl``:

* round trips, one per success case of the ``core`` and ``mma`` suites printing one ``-l`` layout (those with
  ``bases``), id ``<suite>/<case id>``: ttlayout's ``info --json`` texts ``gluon`` (the layout's own Gluon class,
  or the linear constructor where Gluon has no class) and ``gluon_linear`` (``DistributedLinearLayout`` /
  ``SharedLinearLayout``), each evaluated by Triton's Gluon (``triton_oracle.py``'s ``gluon`` op)::

      {"id", "source", "kind", "gluon", "gluon_linear",
       "class_same_view"/"linear_same_view": get_layout_view(layout, shape, hw) == the source case's view
                                              (its golden stdout, header line aside),
       "class_same_bases"/"linear_same_bases": Gluon's to_linear_layout bases (and out sizes) == the case's bases
                                              (null where to_linear_layout failed: it wraps every distributed
                                              layout in a #ttg.linear, which aborts on non-permutation bases),
       "class_attr"/"linear_attr": the canonical text of the attribute Gluon builds from the text,
       ["class_error"/"linear_error": Triton's first error line]}

  The ``class_*`` fields are null where ``gluon`` is the linear text itself, all of a role's fields where ttlayout
  gives no text for it (Gluon cannot build the layout); ``ttlayout_error`` where ttlayout's info failed.
* hand-written cases (sections named after the Gluon class, and ``errors``), id ``<section>-NNN``: a Gluon text,
  a shape and a view flag::

      {"id", "gluon", "shape", "hw", "note", "exit": 0 if Gluon built the layout else 1 (Python error) or
       134 (abort), "error", "attr", "stdout": "<id>.out" (Triton's get_layout_view) | null, "view_error",
       "linear": {"bases", "out_sizes" | "alignment"} | null, "linear_error"}

The generator also runs ttlayout (``TTLAYOUT_PYTHON``, default the worktree's ``.venv/bin/python``) on every text:
``info --json`` for the round-trip texts, and ``-l TEXT -t T`` whose view must equal Triton's ``get_layout_view``
of the same text; the summary counts the agreements (nothing of ttlayout's prints is stored, only its texts).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

from .linear import single_layout, tensor_shape, view
from .oracle import ROOT
from .text import T

SOURCES = ("core", "mma")
TTLAYOUT_PYTHON = os.environ.get("TTLAYOUT_PYTHON") or next(
    (p for p in (os.path.join(ROOT, ".venv", "bin", "python"),) if os.path.exists(p)), sys.executable)

B = "ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])"
B3 = ("ttgl.BlockedLayout(size_per_thread=[1, 1, 2], threads_per_warp=[2, 4, 4], warps_per_cta=[1, 2, 2], "
      "order=[2, 1, 0])")
V2 = "ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])"
V3 = "ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])"
MFMA = "ttgl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])"
WMMA = "ttgl.amd.AMDWMMALayout(version=2, transposed=False, warp_bases=[[1, 0], [2, 0]])"
SWZ = "ttgl.SwizzledSharedLayout(vec=4, per_phase=2, max_phase=4, order=[1, 0])"
PAD = ("ttgl.PaddedSharedLayout(interval_padding_pairs=[[32, 4]], offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], "
       "[0, 16], [1, 0], [2, 0], [4, 0], [8, 0]], cga_layout=[], shape=[16, 32])")
DLL = ("ttgl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[0, 2], [1, 0]], warp_bases=[[2, 0]], "
       "block_bases=[], shape=[4, 4])")

# (text, shape, hw, note) per section; the section name is the Gluon class (or `errors`)
HAND = {
    "blocked": [
        (B, [16, 16], False, "keywords"),
        ("gl.BlockedLayout([2, 2], [8, 4], [1, 2], [0, 1])", [32, 32], True, "positional, gl. prefix"),
        ("triton.experimental.gluon.language.BlockedLayout([1], [32], [4], [0], cga_layout=[[1]])", [512], False,
         "full module path, two CTAs"),
        ("BlockedLayout(size_per_thread=(1, 4), threads_per_warp=(4, 8), warps_per_cta=(4, 1), order=(1, 0))",
         [8, 64], False, "bare name, tuples"),
        (B3.replace("])", "], cga_layout=[[0, 0, 0], [1, 0, 0]])"), [4, 16, 16], False, "rank 3, broadcast CGA basis"),
        ("ttgl.BlockedLayout([1], [16], [4], [0])", [64], False, "16 lanes (Gluon's verifier takes it)"),
    ],
    "slice": [
        ("ttgl.SliceLayout(1, %s)" % B, [16], False, "positional"),
        ("ttgl.SliceLayout(dim=0, parent=ttgl.SliceLayout(dim=1, parent=%s))" % B3, [16], True, "slice of a slice"),
        ("ttgl.SliceLayout(dim=0, parent=%s)" % V3, [64], False, "of NVMMADistributedLayout"),
        ("ttgl.SliceLayout(dim=1, parent=%s)" % DLL, [4], False, "of DistributedLinearLayout"),
        ("ttgl.SliceLayout(dim=1, parent=%s)" % MFMA, [64], True, "of AMDMFMALayout"),
    ],
    "dot_operand": [
        ("ttgl.DotOperandLayout(operand_index=0, parent=%s, k_width=2)" % V2, [32, 16], False, "mma v2 A"),
        ("ttgl.DotOperandLayout(1, %s, 4)" % V2, [32, 32], True, "mma v2 B, positional"),
        ("ttgl.DotOperandLayout(operand_index=0, parent=%s, k_width=2)" % V3, [64, 32], False, "mma v3 A"),
        ("ttgl.DotOperandLayout(operand_index=1, parent=%s, k_width=4)" % MFMA, [16, 64], False, "mfma B"),
        ("ttgl.DotOperandLayout(operand_index=0, parent=%s, k_width=8)" % WMMA, [64, 16], False, "wmma A"),
        ("ttgl.DotOperandLayout(operand_index=0, parent=%s, k_width=0)" % B, [16, 16], False, "blocked parent"),
    ],
    "nvmma_distributed": [
        (V2, [32, 32], False, "v2"),
        (V3, [128, 64], True, "v3 hw"),
        ("ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 1, 2], instr_shape=[1, 16, 8])", [2, 32, 16],
         False, "rank 3"),
        ("ttgl.NVMMADistributedLayout([3, 0], [4, 1], [16, 32, 16], [[1, 0]])", [128, 32], False, "CGA, positional"),
    ],
    "distributed_linear": [
        (DLL, [4, 4], False, "permutation: #ttg.linear"),
        (DLL, [8, 8], True, "tensor larger than the layout"),
        ("ttgl.DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[[1, 0]], warp_bases=[[1, 1]], "
         "block_bases=[], shape=[2, 2])", [2, 2], False, "not a permutation: #ttg.generic_linear"),
        ("ttgl.DistributedLinearLayout(reg_bases=[[1, 1]], lane_bases=[[0, 1]], warp_bases=[], "
         "block_bases=[], shape=[2, 2])", [2, 2], False, "swizzled register basis: generic_linear's verifier"),
        ("ttgl.DistributedLinearLayout([[0, 1]], [[0, 0], [1, 0]], [[0, 2]], [], [2, 4])", [2, 4], False,
         "broadcast lane, positional"),
        ("ttgl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[2], [4]], warp_bases=[], block_bases=[], "
         "shape=[16])", [16], False, "shape larger than the bases span"),
        ("ttgl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[2], [4]], warp_bases=[], block_bases=[], "
         "shape=[4])", [4], False, "shape smaller than the bases span"),
    ],
    "amd_mfma": [
        (MFMA, [64, 64], False, "v3 32x32"),
        ("ttgl.amd.AMDMFMALayout(version=4, instr_shape=[16, 16, 32], transposed=False, warps_per_cta=[2, 2], "
         "tiles_per_warp=[2, 1])", [64, 64], True, "v4 tiles_per_warp"),
        ("ttgl.amd.AMDMFMALayout(version=2, instr_shape=[16, 16, 4], transposed=True, warps_per_cta=[4, 1], "
         "element_bitwidth=64)", [64, 32], False, "64-bit elements"),
        ("ttgl.amd.AMDMFMALayout(3, [32, 32, 8], False, [1, 2, 2])", [2, 64, 64], False, "rank 3, positional"),
        ("ttgl.amd.AMDMFMALayout(version=1, instr_shape=[4, 64, 4], transposed=False, warps_per_cta=[1, 1], "
         "element_bitwidth=None, tiles_per_warp=None)", [4, 64], False, "4x64, explicit None"),
        ("ttgl.amd.AMDMFMALayout(version=3, instr_shape=[16, 16, 16], transposed=True, warps_per_cta=[2, 2], "
         "cga_layout=[[0, 1]])", [32, 64], False, "CGA"),
    ],
    "amd_wmma": [
        (WMMA, [64, 16], False, "v2 default instr_shape"),
        ("ttgl.amd.AMDWMMALayout(version=3, transposed=True, warp_bases=[[0, 1], [1, 0]], reg_bases=[[2, 0]], "
         "instr_shape=[16, 16, 32])", [64, 32], True, "v3 reg_bases"),
        ("ttgl.amd.AMDWMMALayout(1, False, [[0, 1, 0], [0, 0, 1]], None, None, [], 3)", [2, 32, 32], False,
         "rank 3, positional"),
        ("ttgl.amd.AMDWMMALayout(version=1, transposed=True, warp_bases=[])", [16, 16], False, "one warp"),
    ],
    "swizzled_shared": [
        (SWZ, [16, 16], False, "keywords"),
        ("ttgl.SwizzledSharedLayout(8, 1, 8, [0, 1])", [32, 32], True, "positional, hw"),
        ("ttgl.SwizzledSharedLayout(vec=2, per_phase=1, max_phase=4, order=[2, 1, 0], cga_layout=[[0, 1, 0]])",
         [2, 16, 16], False, "rank 3, CGA"),
    ],
    "nvmma_shared": [
        ("ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16)", [64, 64], False, "defaults"),
        ("ttgl.NVMMASharedLayout(64, 8, 2, True)", [64, 64], True, "transposed, positional"),
        ("ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, fp4_padded=True)", [16, 128], False,
         "fp4 padded"),
        ("ttgl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=32, rank=3)", [2, 16, 8], False, "rank 3"),
        ("ttgl.NVMMASharedLayout(swizzle_byte_width=0, element_bitwidth=16, cga_layout=[[1, 0]])", [32, 16], False,
         "CGA"),
    ],
    "shared_linear": [
        ("ttgl.SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0], [2, 0]])", [4, 4], False, "default alignment"),
        ("ttgl.SharedLinearLayout([[0, 1], [1, 1], [2, 0]], [[4, 0]], 128)", [8, 2], True,
         "swizzled, block, positional"),
        ("ttgl.SharedLinearLayout(offset_bases=[[1], [2], [4]], block_bases=[], alignment=64)", [8], False, "rank 1"),
    ],
    "padded_shared": [
        (PAD, [16, 32], False, "identity offsets"),
        ("ttgl.PaddedSharedLayout([[8, 1], [16, 2]], [[0, 1], [0, 2], [2, 0], [4, 0], [1, 0]], [], [8, 4])", [8, 4],
         False, "permuted rows, two paddings"),
        ("ttgl.PaddedSharedLayout(interval_padding_pairs=[[4, 4]], offset_bases=[[1], [2]], cga_layout=[[1]], "
         "shape=[8])", [8], False, "CGA (in whole tiles)"),
        ("ttgl.PaddedSharedLayout(interval_padding_pairs=[[4, 4]], offset_bases=[[1], [2]], cga_layout=[[4]], "
         "shape=[8])", [8], False, "CGA given in elements: not surjective"),
    ],
    "partitioned_shared": [
        ("ttgl.amd.cdna5.PartitionedSharedLayout(num_partitions=2, num_groups=1, partition_dim=0, "
         "partition_layout=%s)" % SWZ, [16, 16], False, "of swizzled"),
        ("ttgl.amd.cdna5.PartitionedSharedLayout(2, 2, 1, %s)" % PAD, [16, 128], False, "of padded"),
    ],
    "tensor_memory": [
        ("ttgl.nvidia.blackwell.TensorMemoryLayout(block=[128, 64], col_stride=1)", [128, 64], False, "packed"),
        ("ttgl.nvidia.blackwell.TensorMemoryLayout((64, 128), 2, [[1, 0]], two_ctas=True)", [128, 128], False,
         "two CTAs"),
        ("ttgl.nvidia.blackwell.TensorMemoryLayout(block=[128, 128], col_stride=1, fp4_padded=True)", [128, 128],
         False, "fp4 padded"),
        ("ttgl.nvidia.blackwell.TensorMemoryScalesLayout()", [128, 8], False, "scales"),
    ],
    "errors": [
        ("ttgl.FooLayout(1)", [4], False, "unknown class"),
        ("ttgl.BlockedLayout([1], [32], [4], [0], sizes=[1])", [4], False, "unknown keyword"),
        ("ttgl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4])", [4], False,
         "missing argument"),
        ("ttgl.BlockedLayout(size_per_thread=1, threads_per_warp=[32], warps_per_cta=[4], order=[0])", [4], False,
         "wrong type"),
        ("ttgl.BlockedLayout([1, 1], [32], [4], [0])", [4], False, "rank mismatch"),
        ("ttgl.BlockedLayout([1], [32], [4], [0], order=[0])", [4], False, "argument given twice"),
        ("ttgl.amd.BlockedLayout([1], [32], [4], [0])", [4], False, "wrong module"),
        ("ttgl.SliceLayout(0, parent=ttgl.BlockedLayout([1], [32], [4], [0]))", [4], False, "slice of rank 1"),
        ("ttgl.BlockedLayout([1, 1], [4, 4], [1, 1], [0, 0])", [4, 4], False, "order not a permutation"),
        ("ttgl.BlockedLayout([1], [-32], [4], [0])", [4], False, "negative"),
        ("ttgl.amd.AMDMFMALayout(version=5, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2])", [64, 64],
         False, "bad version"),
        ("ttgl.amd.AMDMFMALayout(version=3, instr_shape=[8, 8, 8], transposed=True, warps_per_cta=[2, 2])", [64, 64],
         False, "bad instr_shape"),
        ("ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=4)", [64, 64], False, "bad bit width"),
        ("ttgl.SharedLinearLayout(offset_bases=[[0, 1]], alignment=3)", [1, 2], False, "alignment not a power of 2"),
        ("ttgl.SliceLayout(0, %s)" % SWZ, [16], False, "slice of a shared layout"),
        ("ttgl.DistributedLinearLayout(reg_bases=[[1, 1]], lane_bases=[], warp_bases=[], block_bases=[], shape=[2])",
         [2], False, "basis rank differs from the shape's"),
        ("__import__('os').system('true')", [4], False, "__import__"),
        ("ttgl.BlockedLayout.__init__([1], [32], [4], [0])", [4], False, "attribute trick"),
        ("ttgl.__dict__", [4], False, "not a call"),
        ("ttgl.BlockedLayout(*[[1], [32], [4], [0]])", [4], False, "star arguments"),
        ("ttgl.BlockedLayout([1.0], [32], [4], [0])", [4], False, "float"),
        ("ttgl.BlockedLayout([1], [32], [4], [0])[0]", [4], False, "subscript"),
    ],
}


def generate(s):
    """The hand-written cases (the round trips are derived from golden/core and golden/mma when writing)."""
    for name, cases in HAND.items():
        sec = s.section(name)
        for text, shape, hw, note in cases:
            sec.record(kind="hand", gluon=text, shape=list(shape), hw=hw, note=note)


# ----------------------------------------------------------------------------------------- ttlayout

_BATCH = ("import json, sys\nfrom linlayout_cli.cli import run\nfor line in sys.stdin:\n"
          "    print(json.dumps(run(json.loads(line))), flush=True)\n")


class Ttlayout:
    """ttlayout run in-process by one child interpreter (its dependencies need not be in this one)."""

    def __init__(self):
        env = dict(os.environ, PYTHONPATH=ROOT)
        self.p = subprocess.Popen([TTLAYOUT_PYTHON, "-c", _BATCH], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def run(self, argv):
        """(exit, stdout, stderr) of ``ttlayout argv``."""
        self.p.stdin.write(json.dumps(argv) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("ttlayout batch process died")
        return tuple(json.loads(line))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def print_args(text, shape, hw):
    return ["-l", text, "-t", T(shape)] + (["-use-hw-view"] if hw else [])


def ttlayout_view_agrees(tt, text, shape, hw, triton_view):
    """Whether ttlayout prints `text` with Triton's view (None: Triton printed nothing; False also when ttlayout
    printed where Triton could not, or failed where Triton printed)."""
    code, out, _ = tt.run(print_args(text, shape, hw))
    if triton_view is None:
        return None if code != 0 else False
    return code == 0 and view(out) == triton_view


# ----------------------------------------------------------------------------------------- records


def source_cases():
    """(suite, case, stdout) of every core / mma success case with Triton's bases."""
    out = []
    for suite in SOURCES:
        d = os.path.join(ROOT, "golden", suite)
        with open(os.path.join(d, "cases.jsonl")) as f:
            for line in f:
                c = json.loads(line)
                if "bases" in c and c["exit"] == 0:
                    with open(os.path.join(d, c["stdout"]), encoding="utf-8", newline="") as g:
                        out.append((suite, c, g.read()))
    return out


def same_bases(answer, case):
    """Whether Gluon's to_linear_layout of a text gave the case's bases (and, distributed, its out sizes); None
    where it failed (it aborts on layouts whose bases are no permutation matrix)."""
    lin = answer.get("linear")
    if lin is None:
        return None
    if "out_sizes" in lin and lin["out_sizes"] != list(case["out_dims"].values()):
        return False
    return lin["bases"] == case["bases"]


def verdict(answer, case, stdout):
    """(same view, same bases, attr, error) of one Triton answer for a round-trip text."""
    error = answer["error"] or answer["view_error"] or answer["linear_error"]
    return answer["view"] == view(stdout), same_bases(answer, case), answer["attr"], error


def round_trips(pool, tt):
    """The round-trip records and the summary counters."""
    todo, records = [], []
    for suite, c, stdout in source_cases():
        attr, ttype, hw = single_layout(c["args"])
        code, out, err = tt.run(["info", "-l", attr, "-t", ttype, "--json"])
        rec = {"id": "%s/%s" % (suite, c["id"]), "source": "%s/%s" % (suite, c["id"]), "kind": c["kind"]}
        if code != 0:
            rec["ttlayout_error"] = err.strip().splitlines()[-1] if err.strip() else "exit %d" % code
            records.append(rec)
            continue
        info = json.loads(out)
        rec.update(gluon=info["gluon"], gluon_linear=info["gluon_linear"])
        records.append(rec)
        todo.append((rec, c, stdout, tensor_shape(ttype), hw))
    jobs = []
    for rec, c, stdout, shape, hw in todo:
        has_class = rec["gluon"] != rec["gluon_linear"]
        for role, text in (("linear", rec["gluon_linear"]), ("class", rec["gluon"] if has_class else None)):
            if text is None:
                rec.update({role + "_same_view": None, role + "_same_bases": None, role + "_attr": None})
            else:
                jobs.append((rec, c, stdout, shape, hw, role, text))
    answers = pool.run_all([{"op": "gluon", "text": text, "shape": shape, "hw": hw}
                            for _, _, _, shape, hw, _, text in jobs])
    stats = Counter()
    for (rec, c, stdout, shape, hw, role, text), a in zip(jobs, answers):
        same_view, same_b, attr, error = verdict(a, c, stdout)
        rec.update({role + "_same_view": same_view, role + "_same_bases": same_b, role + "_attr": attr})
        if error:
            rec[role + "_error"] = error
        group = "%s/%s" % (c["kind"], role)
        stats[group, "checked"] += 1
        stats[group, "triton"] += bool(same_view and same_b is not False)
        stats[group, "no_bases"] += same_b is None
        stats[group, "ttlayout"] += bool(ttlayout_view_agrees(tt, text, shape, hw, a["view"]))
    return records, stats


def hand_records(s, pool, tt, directory):
    answers = pool.run_all([{"op": "gluon", "text": c["gluon"], "shape": c["shape"], "hw": c["hw"]} for c in s.cases])
    records, stats = [], Counter()
    for c, a in zip(s.cases, answers):
        rec = {k: c[k] for k in ("id", "kind", "gluon", "shape", "hw", "note")}
        rec.update(exit=a["exit"], error=a["error"], attr=a["attr"], stdout=None, view_error=a["view_error"],
                   linear=a["linear"], linear_error=a["linear_error"])
        if a["view"] is not None:
            rec["stdout"] = c["id"] + ".out"
            with open(os.path.join(directory, rec["stdout"]), "w", encoding="utf-8", newline="") as f:
                f.write(a["view"])
        section = c["id"].rsplit("-", 1)[0]
        agrees = ttlayout_view_agrees(tt, c["gluon"], c["shape"], c["hw"], a["view"])
        stats[section, "checked"] += 1
        stats[section, "ttlayout"] += agrees is not False
        if agrees is False:
            stats[section, "differs:" + c["id"]] += 1
        records.append(rec)
    return records, stats


def summary_lines(stats):
    groups = sorted({g for g, _ in stats})
    lines = []
    for g in groups:
        bits = ["%s %d" % (k, stats[g, k]) for k in ("checked", "triton", "no_bases", "ttlayout") if (g, k) in stats]
        bits += sorted(k for gg, k in stats if gg == g and k.startswith("differs:"))
        lines.append("%s: %s" % (g, ", ".join(bits)))
    return lines


def write_records(s, pool, directory):
    """(records, summary lines) of the gluon suite; Triton's views of the hand-written cases go to <id>.out."""
    tt = Ttlayout()
    try:
        hand, hand_stats = hand_records(s, pool, tt, directory)
        trips, trip_stats = round_trips(pool, tt)
    finally:
        tt.close()
    return hand + trips, ["hand-written (checked, ttlayout same view or both refuse):"] + summary_lines(hand_stats) + [
        "round trips (checked, Triton same view and bases, ttlayout same view as Triton):"] + summary_lines(trip_stats)
