"""Case containers: a suite is a list of sections, each with its own random stream and id counter.

A section named ``blocked-order`` of suite ``core`` draws from ``Random("core/blocked-order-v1")`` and numbers
its cases ``blocked-order-001``, ``blocked-order-002``, ...  Adding a case at the end of a section, or a new
section anywhere, leaves every other case (its id and its random parameters) as it was.  Bump a section's
``version`` to re-roll it on purpose.
"""
from __future__ import annotations

from random import Random

from .text import T


class Suite:
    def __init__(self, name):
        self.name = name
        self.cases = []
        self.inputs = {}  # file name -> text
        self.sections = {}
        self.ids = set()

    def section(self, name, version=1):
        """A new section; its name must be unused in this suite."""
        if name in self.sections:
            raise ValueError("section %s/%s defined twice" % (self.name, name))
        sec = Section(self, name, Random("%s/%s-v%d" % (self.name, name, version)))
        self.sections[name] = sec
        return sec

    def input_file(self, name, text):
        """Register an ``-i`` input; returns its path relative to the repository root."""
        self.inputs[name] = text
        return "golden/%s/inputs/%s" % (self.name, name)

    def _claim(self, cid):
        if cid in self.ids:
            raise ValueError("duplicate case id %s/%s" % (self.name, cid))
        self.ids.add(cid)
        return cid


class Section:
    def __init__(self, suite, name, rng):
        self.suite = suite
        self.name = name
        self.rng = rng
        self.count = 0

    def new_id(self):
        self.count += 1
        return self.suite._claim("%s-%03d" % (self.name, self.count))

    def add(self, args, kind, note="", ttlayout=None):
        """A case running ttlayout/Triton with ``args``; ``ttlayout`` marks a deliberate difference
        (see the package docstring)."""
        cid = self.new_id()
        case = {"id": cid, "args": list(args), "kind": kind, "note": note}
        if ttlayout:
            case["ttlayout"] = ttlayout
        self.suite.cases.append(case)
        return cid

    def layout(self, attr, shape, kind, note="", hw=False, dtype="f16"):
        """An ``-l ATTR -t tensor<shape>`` case; the writer may halve its tensor when the output is too large."""
        args = ["-l", attr, "-t", T(shape, dtype)]
        if hw:
            args.append("-use-hw-view")
        cid = self.add(args, kind, note + (" hw" if hw else ""))
        self.suite.cases[-1]["_layout"] = (attr, list(shape), hw, dtype)
        return cid

    def record(self, **fields):
        """A case of another form (the bank suite's pairs): the fields after a fresh id."""
        cid = self.new_id()
        self.suite.cases.append({"id": cid, **fields})
        return cid
