"""Errors ttlayout reports as one clean line (exit 1) instead of a traceback."""


class TTLayoutError(Exception):
    """Base class: the message is what the user sees after 'ttlayout: error: '."""


class ParseError(TTLayoutError):
    """Text that is not a valid attribute, type or MLIR file; message names column and what was expected."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.line = line
        self.column = column


class VerifyError(TTLayoutError):
    """An attribute that parses but breaks one of Triton's verification rules (Triton's own message)."""


class UnsupportedError(TTLayoutError):
    """Something Triton cannot render (or ttlayout does not render yet)."""


class ShapeError(TTLayoutError):
    """Tensor shape that cannot be laid out with the given attribute (rank, power of two, size limits)."""


class LayoutError(TTLayoutError):
    """An impossible linear-layout operation (non-surjective bases, mismatched dims, no solution)."""
