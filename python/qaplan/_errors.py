"""qaplan's exceptions: one class per library error code, each carrying where it happened.

Every error the C++ library reports (qaplan::Error) reaches Python as one of these, with the
same code, message and location parts. Each class also derives from the closest built-in
exception, so ``except ValueError`` or ``except OSError`` keeps working.
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "Error",
    "InvalidInput",
    "InvalidConfig",
    "IoError",
    "FingerprintMismatch",
    "InternalError",
]


class Error(Exception):
    """A qaplan error.

    Attributes:
        code: ``"invalid_input"``, ``"invalid_config"``, ``"io_error"``,
            ``"fingerprint_mismatch"`` or ``"internal_error"``.
        message: the one-line message, without the location.
        file: the file (or named input) it is about, or ``None``.
        line: 1-based line in ``file``, or ``None`` when unknown.
        column: 1-based column, or ``None`` when unknown.
        field: the TOML key with its table, JSON path, request field (``question``,
            ``history[1]``, ``scenario``, ``source``) or argument, or ``None``.
    """

    code: str = "internal_error"

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        file: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
        field: Optional[str] = None,
        context: Optional[str] = None,
    ) -> None:
        self.message = message
        if code is not None:
            self.code = code
        self.file = file or None
        self.line = line or None
        self.column = column or None
        self.field = field or None
        self._context = context  # Error::where() as the library computed it
        super().__init__(self._text())

    @property
    def key(self) -> Optional[str]:
        """Alias of :attr:`field` (a config error's ``[table] key``)."""
        return self.field

    def where(self) -> str:
        """``file:line:column field`` with the absent parts left out (C++ ``Error::where()``)."""
        if self._context is not None:
            return self._context
        out = ""
        if self.file:
            out = self.file
            if self.line:
                out += f":{self.line}"
                if self.column:
                    out += f":{self.column}"
        if self.field:
            out += (": " if out and not self.line else " " if out else "") + self.field
        return out

    def _text(self) -> str:
        where = self.where()
        text = f"{where}: {self.message}" if where else self.message
        return text.replace("\n", " ").replace("\r", " ")

    def to_dict(self) -> dict:
        """The error's parts, as the CLI's ``{"error": {…}}`` object shows them."""
        d = {"code": self.code, "message": self.message, "context": self.where()}
        for k in ("file", "line", "column", "field"):
            v = getattr(self, k)
            if v:
                d[k] = v
        return d


class InvalidInput(Error, ValueError):
    """Bad question or request field, bad argument, malformed data (``invalid_input``)."""

    code = "invalid_input"


class InvalidConfig(Error, ValueError):
    """A config file or option set failed validation (``invalid_config``)."""

    code = "invalid_config"


class IoError(Error, OSError):
    """A file could not be read or written (``io_error``)."""

    code = "io_error"


class FingerprintMismatch(Error, ValueError):
    """Frozen data whose hash or version is not registered (``fingerprint_mismatch``)."""

    code = "fingerprint_mismatch"


class InternalError(Error, RuntimeError):
    """A bug or an unexpected dependency failure (``internal_error``)."""

    code = "internal_error"


BY_CODE = {
    cls.code: cls
    for cls in (InvalidInput, InvalidConfig, IoError, FingerprintMismatch, InternalError)
}
