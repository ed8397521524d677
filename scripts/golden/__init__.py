"""Generate the golden files of ttlayout from Triton 3.9.0 (the oracle).

Usage (from the repository root; both spellings are the same program)::

    python3 -m scripts.golden                      # all suites
    python3 scripts/make_golden.py                 # the same
    python3 -m scripts.golden --suite core         # one suite (repeatable: --suite core --suite files)
    python3 -m scripts.golden --list               # case counts per suite/section/kind (convert: per target)
    python3 -m scripts.golden.convert --only mma   # part of the convert suite (see ``convert.py``)
    python3 -m scripts.golden --suite shared_access   # the shared-access suite (about half an hour on two cores)
    python3 -m scripts.golden.shared_access --only padded   # one of its sections (see ``shared_access.py``)

It runs with any Python 3.10+ and shells out to the oracle interpreter
(``/opt/oracle/venv/bin/python scripts/triton_oracle.py --serve``; override with ``ORACLE_PYTHON``),
which has Triton 3.9.0 installed; the ``convert`` and ``shared_access`` suites also compile kernels there
(``ORACLE_PYTHON -m scripts.golden.kernel``, ``ORACLE_PYTHON -m scripts.golden.shared_access --compile``).  Triton is never a dependency of ttlayout; only this package and
the oracle (``scripts/triton_oracle.py``, the package ``scripts/oracle/``) use it.  ``--list`` runs no Triton,
except for ``convert``, whose derived sections are drawn from Triton's linear layouts (nothing is compiled).

Modules: ``text`` (attribute text builders), ``pieces`` (random parameters), ``suite`` (sections),
``core`` / ``files`` / ``errors`` / ``mma`` / ``bank`` / ``gluon`` / ``memory`` / ``convert`` / ``shared_access``
(one per suite),
``advise`` (every test dump advised by ttlayout, the changed ones compiled: ``python3 -m scripts.golden.advise``),
``oracle`` (the worker pool), ``write`` (running and writing a suite), ``linear`` (Triton's linear layouts of the
core and mma cases), ``kernel`` (the convert suite's one-op kernels and their assembly counts).

Stable ids and random streams: every suite but ``convert`` (see ``convert.py``) is a list of *sections* (``core/blocked-order``, ``mma/dot-v3``,
``errors/err-shape``, ...).  A section draws from its own stream, ``random.Random("<suite>/<section>-v1")``,
and numbers its cases ``<section>-001``, ``<section>-002``, ...  Adding a case at the end of a section or
adding a section never renumbers nor re-rolls any other case; re-running regenerates byte-identical files.
Hand-written sections (``spec``, ``tlp``, ``syntax``, ``options``, ``header``, ``nvmma_shared-edge``,
``spec7*``, all of ``files`` and ``errors``) use no randomness at all.

A suite's directory ``golden/<suite>/`` is wiped and rewritten:

* ``cases.jsonl`` - one JSON object per line::

      {"id", "args": [argv for ttlayout], "exit": Triton's exit code,
       "stdout": "<id>.out" | null, "kind": main layout kind, "note": "...",
       ["stderr_first_line": first line of Triton's stderr, for error cases]}

  Exit codes: 0 success; 1 handled error; 134 SIGABRT (assertion / LLVM ERROR); 136 SIGFPE.
  Suites ``core`` and ``mma``: every success case printing one ``-l`` layout (no ``-i``) also has

      "bases": {"register": [[..], ..], "lane": .., "warp": .., "block": ..}   (shared: {"offset", "block"}),
      "out_dims": {"dim0": n, ..}      Triton's toLinearLayout(shape, attr), in Triton's dimension order;
      "linear_attr": Triton's canonical print of those bases as a #ttg.linear (distributed) or
                     #ttg.shared_linear (shared, alignment = the layout's getAlignment()) attribute, or
                     #ttg.generic_linear where Triton refuses #ttg.linear; null if Triton refuses both;
      "linear_same_view": whether Triton prints that attribute's view (same -t, same view flag) exactly
                     like the case's stdout, the header line aside;
      ["linear_rejected": first line of Triton's refusal of the #ttg.linear spelling]

  (see ``linear.py``; Gluon's ``to_linear_layout`` is run too and must give the same bases).
* ``<id>.out`` - Triton's exact stdout bytes (success cases only);
* ``inputs/*.mlir`` - ``-i`` inputs, referenced from ``args`` relative to the repo root.

The ``bank`` suite writes ``golden/bank/cases.jsonl`` with
``{"id", "reg", "shared", "shape", "bitwidth", "conflicts", "exit", "note"}`` where ``conflicts`` is the
number from ``GluonOpBuilder.get_shared_bank_conflicts`` (null when Triton aborted; ``exit`` is then
the abort's exit code).

Suites (generated in this order):

* ``core``   - blocked, slice (of blocked / linear / slice), linear, generic_linear, swizzled_shared,
  amd_rotating_shared, shared_linear: ranks 1-4, every ``order`` permutation, tensors smaller / equal /
  larger than the layout tile, multi-CTA ``CGALayout`` (with broadcast bases), 1..128 lanes, both
  views; spec section 6.7's examples, CHECK-BLOCKED of ``test/Tools/tensor_layout_print.mlir``,
  parser syntax variations and LLVM option spellings (``-l=X``, ``--t``, ``-use-hw-view=false``).
* ``files``  - ``-i`` files: several aliases, nested aliases, ``-alias-names`` subsets / duplicates /
  order / repetition, comments, a realistic TTGIR dump with ``#loc`` aliases.
* ``errors`` - Triton's failing inputs (exit 1, aborts 134, SIGFPE 136) plus a few rank-mismatch
  inputs that Triton 3.9 unexpectedly prints (noted as such).
* ``mma``    - nvidia_mma v2/v3, dot_op (blocked / nvidia_mma / amd_mfma / amd_wmma parents), slices of
  them, amd_mfma v0-4, amd_wmma v1-3, nvmma_shared; the four RUN lines of
  ``test/Tools/tensor_layout_print.mlir`` and the header example of ``bin/triton-tensor-layout.cpp``.
* ``bank``   - register x shared layout pairs for ``get_shared_bank_conflicts`` (spec section 7 too).
* ``gluon``  - Gluon constructors both ways (module ``gluon``; needs golden/core and golden/mma, and runs ttlayout
  itself with ``TTLAYOUT_PYTHON``, default ``.venv/bin/python``): ttlayout's ``info`` Gluon texts of every core and
  mma case with ``bases``, evaluated by Triton's Gluon (oracle op ``gluon``: view, bases, attribute), and
  hand-written constructors of every Gluon layout class of Triton 3.9 (one section per class, and ``errors``),
  with Triton's view in ``<id>.out``; see ``gluon.py`` for the record fields.
* ``memory`` - padded / partitioned shared and tensor memory layouts, which Triton's tool cannot print: Triton's
  facts instead of text (``paddedLinearLayout`` / ``toLinearLayout`` bases, ``applyPadding`` of every offset,
  ``getPaddedSize``, Gluon's TMEM ``to_linear_layout`` and ``tmem_load`` register layouts); format in ``memory.py``.
* ``convert`` - (source, destination, tensor, warps, target) pairs whose one-op ``ttg.convert_layout`` kernel Triton
  compiles for sm80 / sm90 / sm100 / gfx942 / gfx950 / gfx1200: scratch bytes and the data-moving instructions of
  the assembly, against baselines without the convert (module ``convert``, format in its docstring).
* ``shared_access`` - one-CTA kernels (``local_alloc`` + ``local_load``, ``convert_layout``) compiled for sm80 / sm90
  / sm100 / gfx942 / gfx950: the PTX / AMDGCN forms and counts of every shared-memory access and barrier, and the
  paddings whose compiled vector access is misaligned (module ``shared_access``, format in its docstring; its
  sections number their cases like every suite but ``convert``).

Deliberate differences (a case's ``"ttlayout"`` field; Triton's own result is still recorded):

* ``{"same_as": "<id>"}`` - a legacy spelling Triton rejects (``#triton_gpu.*``, ``CTAsPerCGA``...), or text
  copied from a dump that Triton refuses or ignores (an alias name written with ``#``, the whole alias line or a
  trailing ``loc(...)`` in ``-l``, an encoding written in ``-t``, a ``!ttg.memdesc`` type), that ttlayout
  accepts: its stdout must equal Triton's stdout for case <id>, the canonical spelling (optional ``"why"``);
* ``{"error": why}`` - Triton prints something meaningless (a tensor of higher rank than a linear
  layout: it silently drops dimensions; ``-l`` and a different encoding written in ``-t``: it ignores the
  latter) or succeeds silently with no output (an ``-i`` file without a layout alias, ``-t`` alone);
  ttlayout must fail with one clean line;
* ``{"prints": why}`` - Triton aborts although the layout is well defined (a generic_linear register
  basis with a non-power-of-two component, a TTGIR dump with ``#loc`` aliases and no -alias-names);
  ttlayout must print it (exit 0, a ``Print layout attribute:`` header).

Size policy: a ``-l`` case whose output exceeds ``MAX_OUT`` (100 kB) has its tensor halved (largest
dim) until it fits; a layout still too large for a 2x2.. tensor (heavy broadcasting) is dropped (its id
stays unused).  Both steps depend only on Triton's (deterministic) output, so regeneration stays identical.
"""
