"""``results``: list the recorded runs beside the study and the model (``results add`` records one:
``cli.results_add``).

It only reads: the store is opened read-only and a missing one lists nothing. Every name from the
store is shown literally (``safe_text``); ``--json`` never holds ``NaN`` or ``Infinity``. Listing
renders no stack, so it loads no Pulumi.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from experiments.base.safe_text import rich_text
from experiments.cli.arguments import store_path
from experiments.results.runs import OFF_PREDICTION, recorded_runs

__all__ = ["run"]


def _number(value: Any, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def run(args: argparse.Namespace, console: Console) -> int:
    store = store_path(args.store)
    rows = recorded_runs(store)
    if args.json:
        print(json.dumps(rows, indent=2, allow_nan=False))
        return 0
    if not rows:
        console.print(rich_text(f"no recorded runs in {store}{'' if store.exists() else ' (none yet)'}"))
        console.print(
            "  record one: `gpu-cluster run STACK` (a deployed stack's training job), or `gpu-cluster results add "
            "STACK --log FILE ...` (pod logs collected elsewhere); --store names another results store"
        )
        return 0
    table = Table(title="recorded runs (samples/s)", show_edge=False)
    for column in (
        "recorded",
        "stack",
        "fingerprint",
        "commit",
        "measured",
        "model",
        "study",
        "vs model",
        "transport",
        "steps",
    ):
        table.add_column(column, justify="right" if column in ("measured", "model", "study", "steps") else "left")
    for row in rows:
        off = row["off_prediction_pct"]
        table.add_row(
            rich_text(row["recorded_at"]),
            rich_text(row["stack"] + (f" ({row['label']})" if row["label"] else "")),
            rich_text(row["fingerprint"]),
            rich_text((row["git_commit"] or "-")[:12]),
            _number(row["samples_per_s"]),
            _number(row["predicted_samples_per_s"]),
            _number(row["study_samples_per_s"]),
            "-" if off is None else f"{off:+.0f}%{' !' if row['flagged'] else ''}",
            rich_text(row["transport"] or "-"),
            _number(row["steps_counted"], "d"),
        )
    console.print(table)
    if any(row["flagged"] for row in rows):
        console.print(f"! more than {OFF_PREDICTION:.0%} off the model's prediction")
    if any(row.get("kind") == "lab" for row in rows):
        console.print(
            "lab: a run on emulated nodes of one host (results add --lab), beside the model's prediction "
            "for the lab, never the study's figure"
        )
    return 0
