"""The error every command turns into one line and exit status 2 (kept free of heavy imports)."""

from __future__ import annotations

__all__ = ["StackFileError"]


class StackFileError(Exception):
    """A stack file (or argument) that cannot be used; the message names the file and the field."""
