"""Record the shape of Triton 3.9's Gluon layout objects: for each layout class, its module and its constructor
fields in order (`dataclasses.fields`), and one instance built by Triton with the values its attributes hold after
construction (lists, ints, bools; a nested layout as its own record) and the constructor text that builds it.

`linlayout_cli.layout()` takes such objects directly, duck-typed by class name and these attribute names; the
test (`tests/analysis/test_cache_audit.py`) builds stand-ins from this file and checks that ttlayout reads them as it reads
their constructor text. Run with the oracle: `/opt/oracle/venv/bin/python scripts/make_gluon_layout_fields.py`;
writes `tests/data/gluon_layout_fields.json`."""
from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "gluon_layout_fields.json"

BLOCKED = "ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])"
MMA = "ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])"
SWIZZLED = "ttgl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])"
# one constructor per class (the text is evaluated here by Triton's Gluon, and read by ttlayout in the test)
EXAMPLES = {
    "BlockedLayout": (BLOCKED, [32, 32]),
    "SliceLayout": (f"ttgl.SliceLayout(dim=1, parent={BLOCKED})", [32]),
    "DistributedLinearLayout": ("ttgl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2]], lane_bases=[[1, 0], "
                                "[2, 0], [4, 0], [8, 0], [0, 4]], warp_bases=[[16, 0], [0, 8]], block_bases=[], "
                                "shape=[32, 16])", [32, 16]),
    "DotOperandLayout": (f"ttgl.DotOperandLayout(operand_index=0, parent={MMA}, k_width=2)", [64, 64]),
    "NVMMADistributedLayout": (MMA, [64, 64]),
    "AMDMFMALayout": ("ttgl.amd.AMDMFMALayout(version=3, instr_shape=[32, 32, 8], transposed=True, "
                      "warps_per_cta=[2, 2])", [64, 64]),
    "AMDWMMALayout": ("ttgl.amd.AMDWMMALayout(version=3, transposed=True, warp_bases=[[0, 1], [1, 0]], "
                      "reg_bases=[[2, 0]], instr_shape=[16, 16, 32])", [64, 32]),
    "SwizzledSharedLayout": (SWIZZLED, [64, 64]),
    "NVMMASharedLayout": ("ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)", [64, 64]),
    "SharedLinearLayout": ("ttgl.SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [1, 0], [2, 0], "
                           "[4, 0]])", [8, 8]),
    "PaddedSharedLayout": ("ttgl.PaddedSharedLayout(interval_padding_pairs=[[32, 4]], offset_bases=[[0, 1], [0, 2], "
                           "[0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], cga_layout=[], shape=[8, 32])", [8, 32]),
    "PartitionedSharedLayout": ("ttgl.amd.cdna5.PartitionedSharedLayout(num_partitions=2, num_groups=1, "
                                f"partition_dim=0, partition_layout={SWIZZLED})", [64, 64]),
    "TensorMemoryLayout": ("ttgl.nvidia.blackwell.TensorMemoryLayout(block=[128, 64], col_stride=1)", [128, 64]),
    "TensorMemoryScalesLayout": ("ttgl.nvidia.blackwell.TensorMemoryScalesLayout()", [128, 4]),
}


def _value(v):
    """An attribute's value as JSON: a nested layout as {"class", "attributes"}, lists and scalars as they are,
    with the Python type of each scalar recorded beside it where it is not int/bool/None/list."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _record(v)
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError(f"unexpected attribute value {v!r} of type {type(v).__name__}")


def _types(v) -> str:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return "layout"
    if isinstance(v, (list, tuple)):
        inner = sorted({_types(x) for x in v})
        return f"{type(v).__name__}[{'|'.join(inner)}]" if inner else type(v).__name__
    return type(v).__name__


def _record(obj) -> dict:
    fields = [f.name for f in dataclasses.fields(obj)]
    return {"class": type(obj).__name__, "attributes": {n: _value(getattr(obj, n)) for n in fields},
            "types": {n: _types(getattr(obj, n)) for n in fields}}


def main() -> None:
    import triton
    import triton.experimental.gluon.language as ttgl
    import triton.experimental.gluon.language.amd as amd
    import triton.experimental.gluon.language.amd.cdna5 as cdna5
    import triton.experimental.gluon.language.nvidia.blackwell as blackwell
    classes = {}
    for module in (ttgl, amd, cdna5, blackwell):
        for name in dir(module):
            cls = getattr(module, name)
            if (isinstance(cls, type) and name.endswith("Layout") and not name.startswith("_")
                    and dataclasses.is_dataclass(cls) and name not in classes):
                classes[name] = {"module": cls.__module__, "fields": [f.name for f in dataclasses.fields(cls)]}
    scope = {"ttgl": ttgl}
    for name, (text, shape) in EXAMPLES.items():
        obj = eval(text, scope)                         # noqa: S307 - our own constructor texts
        assert type(obj).__name__ == name, (name, type(obj))
        classes[name]["example"] = {"text": text, "shape": shape, **_record(obj)}
    out = {"triton_version": triton.__version__, "generator": "scripts/make_gluon_layout_fields.py",
           "classes": dict(sorted(classes.items()))}
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(classes)} classes, {sum('example' in c for c in classes.values())} examples)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
