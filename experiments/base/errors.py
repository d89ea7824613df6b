"""The errors every command turns into one line and exit status 2 (kept free of heavy imports)."""

from __future__ import annotations

__all__ = ["InputError", "StackFileError"]


class InputError(Exception):
    """Input that cannot be used: a stack file, an argument, a file, a store, a cluster's answer. The
    message names what was wrong; ``python -m experiments`` prints it as one line and exits 2."""


class StackFileError(InputError):
    """A stack file that cannot be used; the message names the file and the field."""
