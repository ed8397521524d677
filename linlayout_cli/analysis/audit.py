"""The audit's entry points where callers have always found them; the model itself is `analysis/kernel/`."""
from __future__ import annotations

from .kernel.audit import analyze_audit
from .kernel.context import Memo
from .kernel.findings import COUNT_CLASSES, LOOP_WEIGHT, Finding, ModuleAudit, module_cost, rank_by_waste
from .kernel.rows import OpLayouts, find_row, op_layouts

__all__ = ["COUNT_CLASSES", "LOOP_WEIGHT", "Finding", "Memo", "ModuleAudit", "OpLayouts", "analyze_audit", "find_row",
           "module_cost", "op_layouts", "rank_by_waste"]
