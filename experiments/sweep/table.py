"""The sweep's results as a table and as a JSON document."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from components.models.config import PROJECT
from experiments.base.safe_text import rich_text
from experiments.sweep.cells import CellResult


def _changes_text(changes: Mapping[str, int]) -> str:
    return ", ".join(f"{op} {n}" for op, n in changes.items() if n) or "-"


def render_results(results: Iterable[CellResult], operation: str, console: Console) -> None:
    """One row per cell, keyed by fingerprint; the stack name spells the cell out.  Reasons (long
    validation messages, shared by many cells) are numbered under the table."""
    table = Table(title=f"sweep ({operation})", show_edge=False)
    table.add_column("fingerprint", no_wrap=True)
    table.add_column("stack", no_wrap=True)
    table.add_column("changes", no_wrap=True)  # the resource count is in --json
    table.add_column("predicted samples/s", justify="right", no_wrap=True)
    table.add_column("status", no_wrap=True)
    notes: dict[str, int] = {}
    for result in results:
        status: str = result.status
        if result.reason is not None:
            status += f" [{notes.setdefault(result.reason, len(notes) + 1)}]"
        predicted = "-" if result.predicted_samples_per_s is None else f"{result.predicted_samples_per_s:.2f}"
        table.add_row(
            rich_text(result.fingerprint or "-"),
            rich_text(result.cell.name),
            rich_text(_changes_text(result.changes)),
            predicted,
            rich_text(status),
        )
    console.print(table)
    for reason, number in notes.items():
        console.print(f"[{number}] {reason}")


def results_document(results: Sequence[CellResult], operation: str, backend: str | None) -> dict[str, Any]:
    return {"project": PROJECT, "operation": operation, "backend": backend, "cells": [r.row() for r in results]}


# ---- command line ------------------------------------------------------------------------------------
