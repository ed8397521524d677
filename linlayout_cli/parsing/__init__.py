"""Parse Triton layout attributes, tensor types and MLIR files into encoding objects. The public API is
exported here, so callers depend on the package and not on which of its modules does the job.

Public API (other modules import exactly this from `linlayout_cli.parsing`):

    parse_attribute(text, aliases=None) -> encoding object      # ParseError / VerifyError
    parse_pasted_attribute(text, aliases=None) -> encoding     # `-l`: also `#name = <attr> loc(...)`
    parse_tensor_type(text) -> TensorType
    parse_type_argument(text) -> TypeArgument                   # `-t`: tensor or !ttg.memdesc, encoding text
    parse_inline_encoding(text, encoding, at, aliases=None)     # that encoding, with the -i file's aliases
    parse_mlir_file(text) -> list[AliasDef]                     # every top-level `#name = <attr>`
    parse_alias_table(text) -> AliasTable                       # the same by name (`#loc` lines read lazily)
    looks_like_gluon(text), parse_gluon(text) -> encoding       # a Gluon constructor (`ttgl.BlockedLayout(...)`)
    element_bitwidth(element) -> int                            # bits of an MLIR element type in memory
    MAX_FILE_CHARS, MAX_ATTRIBUTE_CHARS, MAX_NESTING, MAX_INT_DIGITS, MAX_INT_WIDTH   # input limits

Modules, one job each:
    tables       LALR(1) tables of grammar/mlir.lark (generated into `_mlir_tables.py`; Lark is only
                 imported to regenerate them: `python -m linlayout_cli.parsing.tables --regenerate`)
    lalr         lexer and table-driven LALR driver
    reductions   grammar reductions -> `values.*V` objects; `#dialect.mnemonic<...>` -> attributes/build.py
    attribute    parse_attribute: driver + reductions + located errors
    tensor_type  parse_tensor_type / parse_type_argument: shape, element type, encoding
    mlir_file    parse_mlir_file / parse_alias_table: alias definitions; operations and type aliases skipped
    module       read_modules / parse_type: whole TTGIR modules (ops, value types, locations) for audit and print
    sections     a file's sections: lit `// -----` modules and the passes of an MLIR_ENABLE_DUMP capture
    gluon        parse_gluon: Gluon constructor text, read with `ast`, -> the attribute Gluon builds
    lexical      whitespace/comment, string and bracket skipping
    locate       offsets -> `line L, column C` messages; input limits

Errors: a syntax error names the column and the expected tokens
(`column 23: expected one of ']' or ',' but found 'x'`); Triton's semantic parse errors keep Triton's
words after the location prefix (`column 6: unexpected key: foo`); verification failures raise
`VerifyError` with exactly Triton's message (in file mode prefixed with `line L, column C: `).
"""
from .attribute import parse_attribute, parse_pasted_attribute
from .locate import MAX_ATTRIBUTE_CHARS, MAX_FILE_CHARS, MAX_INT_DIGITS, MAX_INT_WIDTH, MAX_NESTING
from .tensor_type import (
    TypeArgument,
    UnknownElementWidth,
    element_bitwidth,
    parse_inline_encoding,
    parse_tensor_type,
    parse_type_argument,
)

_LAZY = {"AliasDef": "mlir_file", "AliasTable": "mlir_file", "parse_alias_table": "mlir_file",
         "parse_mlir_file": "mlir_file", "looks_like_gluon": "gluon", "parse_gluon": "gluon"}


def __getattr__(name: str):
    """The MLIR-file and Gluon readers load on first use: compiling the file parser's regular expressions takes
    about 4 ms and the Gluon reader imports `ast`, which `ttlayout -l ATTR -t TYPE` does not need."""
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)

__all__ = ["parse_attribute", "parse_pasted_attribute", "parse_tensor_type", "parse_type_argument", "TypeArgument",
           "parse_inline_encoding",
           "parse_mlir_file", "parse_alias_table", "AliasDef", "AliasTable", "looks_like_gluon", "parse_gluon",
           "element_bitwidth", "UnknownElementWidth", "MAX_FILE_CHARS",
           "MAX_ATTRIBUTE_CHARS", "MAX_NESTING", "MAX_INT_DIGITS", "MAX_INT_WIDTH"]
