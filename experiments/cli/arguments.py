"""The argument types and groups several verbs share (argparse is the command line's business alone)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any, Protocol

__all__ = ["ArgumentHolder", "add_cluster_arguments", "positive_count", "positive_seconds"]


class ArgumentHolder(Protocol):
    """A parser or an argument group."""

    def add_argument(self, *names: str, **options: Any) -> Any: ...


def positive_seconds(value: str) -> float:
    """``--timeout`` and ``--poll``: a finite number of seconds above zero."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0:
        raise argparse.ArgumentTypeError(f"{value!r}: must be a finite number of seconds above 0")
    return seconds


def positive_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {count}")
    return count


def add_cluster_arguments(parser: ArgumentHolder) -> None:
    """``--kubeconfig`` and ``--context``, the same for every command that reaches the cluster."""
    parser.add_argument("--kubeconfig", type=Path, help="kubeconfig file (default: KUBECONFIG or ~/.kube/config)")
    parser.add_argument("--context", help="kubeconfig context (default: the stack's kubernetes.context, else current)")
