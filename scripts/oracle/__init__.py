"""Triton 3.9 oracle: emulates the ``triton-tensor-layout`` CLI exactly, and answers the other questions the golden
files ask of Triton, using Triton itself.

Must run with the oracle interpreter (``/opt/oracle/venv/bin/python``), which has Triton 3.9.0 installed.  It is a
tool for producing ``golden/`` files only; ttlayout never imports it and no test runs it.  Its command line is
``scripts/triton_oracle.py`` (usage and the ``--serve`` protocol: ``serve.py``).

How it works
------------
The Triton wheel ships no ``triton-tensor-layout`` binary, but ``libtriton.so`` exports every
C++ function that the tool's ``main()`` calls (``bin/triton-tensor-layout.cpp``).  The oracle
calls them directly through ``ctypes`` in the same order as the tool:

* an ``MLIRContext`` built from a ``DialectRegistry`` holding the Triton dialects
  (TritonDialect, TritonGPU, TritonNvidiaGPU, TritonAMDGPU, NVVM, ROCDL, arith, scf, math, ...),
  ``loadAllAvailableDialects()``;
* ``mlir::parseType`` for ``-t``; ``mlir::TensorType::getShape/getElementType``;
* ``-i``: ``mlir::parseAsmSourceFile`` with an ``AsmParserState`` (alias definitions),
  ``getAttributeAliasDefs`` / ``getAttributeAliasDef``;
* ``-l``: ``mlir::parseAttribute``;
* ``RankedTensorType::get(shape, elementType, attr)``, ``Attribute::print`` (the canonical text),
  and ``mlir::triton::gpu::getLayoutStr(tensorType, useHWView)`` for the layout string.

Only the command-line parsing (LLVM ``cl``) and the ``DistributedEncodingTrait`` /
``SharedEncodingTrait`` ``isa`` check are emulated in Python (the latter by the attribute's
mnemonic; the 14 attribute classes implementing those traits were read off the library's
symbol table).  Every case runs in a forked child, so an abort (SIGABRT -> 134, SIGFPE -> 136)
loses only that case; stdout is only produced when the child succeeds, like the tool.

Modules, one per job (each oracle class is built once and reused by the next):

* ``lib``      - ``Lib``, the ctypes bindings of libtriton.so; the layout mnemonics; nanobind object addresses;
* ``fork``     - ``run_forked``: one call in a forked child (exit code, payload, stderr);
* ``printing`` - ``CliOracle``, the tool's ``main()``, and ``parse_cl``, its LLVM ``cl`` options (no Triton needed);
* ``bank``     - ``BankOracle``: ``get_shared_bank_conflicts``; its Python-binding context serves the jobs below;
* ``bases``    - ``LinearOracle``: Triton's linear layout of an attribute (``toLinearLayout`` and the Gluon route),
  ``parse_ll_text`` (``LinearLayout::toString()`` -> bases, no Triton needed);
* ``gluon``    - ``GluonOracle``: Gluon constructor texts evaluated by Gluon;
* ``memory``   - ``MemoryOracle``: padded / partitioned shared and tensor memory facts;
* ``serve``    - the command line and the JSON-lines server (the one place requests are dispatched).

Only ``Lib()`` and the oracle classes import Triton, so ``parse_cl`` and ``parse_ll_text`` work in any Python.
"""
