"""``results`` and ``results add``: list the recorded runs beside the study and the model; record a
run from logs collected elsewhere.

``results`` only reads: the store is opened read-only and a missing one lists nothing. Every name
from the store is shown literally (``safe_text``); ``--json`` never holds ``NaN`` or ``Infinity``.
``results add`` reads regular files only (a FIFO or a device would block it), checked before any
is opened; records only stacks of the project (``Pulumi.<stack>.yaml`` beside ``Pulumi.yaml``), so
that a recorded run always names a stack ``results`` and ``report`` can find.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from experiments.base.errors import InputError
from experiments.base.safe_text import rich_text
from experiments.results.record import project_stack, record_run
from experiments.results.runlog import RunLogError
from experiments.results.runs import OFF_PREDICTION, read_log_files, recorded_runs
from experiments.results.store import ResultsStore, default_store_path

__all__ = ["run"]


def _number(value: Any, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.results_command == "add":
        return _add(args, console)
    rows = recorded_runs(args.store)
    if args.json:
        print(json.dumps(rows, indent=2, allow_nan=False))
        return 0
    table = Table(title="recorded runs (samples/s)", show_edge=False)
    for column in ("recorded", "stack", "fingerprint", "commit", "measured", "model", "study", "vs model",
                   "transport", "steps"):
        table.add_column(column, justify="right" if column in ("measured", "model", "study", "steps") else "left")
    for row in rows:
        off = row["off_prediction_pct"]
        table.add_row(
            rich_text(row["recorded_at"]), rich_text(row["stack"] + (f" ({row['label']})" if row["label"] else "")),
            rich_text(row["fingerprint"]),
            rich_text((row["git_commit"] or "-")[:12]), _number(row["samples_per_s"]),
            _number(row["predicted_samples_per_s"]), _number(row["study_samples_per_s"]),
            "-" if off is None else f"{off:+.0f}%{' !' if row['flagged'] else ''}",
            rich_text(row["transport"] or "-"), _number(row["steps_counted"], "d"),
        )
    console.print(table)
    if any(row["flagged"] for row in rows):
        console.print(f"! more than {OFF_PREDICTION:.0%} off the model's prediction", highlight=False, markup=False)
    return 0


def _add(args: argparse.Namespace, console: Console) -> int:
    stack = project_stack(args.stack)
    store = args.add_store or args.store or default_store_path()
    ResultsStore.reader(store)  # a foreign, newer or corrupt store is refused before anything is read
    logs = read_log_files(args.log)
    try:
        record = record_run(stack, logs, store_path=store, source="results add", proof_gpus=args.gpus)
    except RunLogError as error:
        raise InputError(f"--log {', '.join(map(str, args.log))}: {error}") from None
    proof = f" as a {args.gpus}-GPU proof" if args.gpus else ""
    console.print(f"recorded run {record.id} of {record.stack}{proof}: {record.samples_per_s:.2f} samples/s over "
                  f"{record.steps_counted} steps (fingerprint {record.fingerprint})", highlight=False, markup=False)
    return 0
