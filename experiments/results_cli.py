"""``results`` and ``results add``: list the recorded runs beside the study and the model; record a
run from logs collected elsewhere."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from .errors import StackFileError

__all__ = ["OFF_PREDICTION", "add_parser", "recorded_runs", "run", "study_figure"]

OFF_PREDICTION = 0.15
"""A run more than 15 % away from the model's prediction is flagged."""


def add_parser(commands: Any) -> None:
    results = commands.add_parser("results", help="recorded runs beside the study and the model; 'add' records one")
    results.add_argument("--store", type=Path, help="results database (default: .gpu-cluster/results.sqlite)")
    results.add_argument("--json", action="store_true", help="print the runs as JSON")
    verbs = results.add_subparsers(dest="results_command")
    add = verbs.add_parser("add", help="record a run from log files collected elsewhere")
    add.add_argument("stack", help="stack name or stack file the run deployed")
    add.add_argument("--log", type=Path, action="append", required=True, metavar="FILE",
                     help="a pod's log (repeat for every pod)")
    add.add_argument("--store", type=Path, dest="add_store", help=argparse.SUPPRESS)


def study_figure(stack: Any) -> float | None:
    """The study's measured samples/s for the stack's shape, if the study ran it."""
    from .summary import NotModelled, scenario_for
    from .throughput import load_study

    try:
        scenario = scenario_for(stack.cluster)
    except NotModelled:
        return None
    def shape(s: Any) -> tuple[Any, ...]:
        # What the study varied: profile, nodes, and between nodes the network and its NICs; same workload.
        return (s.profile, s.nodes, s.network if s.nodes > 1 else None, s.nics_per_node if s.nodes > 1 else None,
                s.workload)

    for point in load_study():
        if shape(point.scenario) == shape(scenario):
            return point.measured
    return None


def recorded_runs(store_path: Path | None) -> list[dict[str, Any]]:
    """Every recorded run as a row: the record, the stack's shape, the study figure, the deviation."""
    from .results_store import ResultsStore, default_store_path
    from .stackfile import load_stack

    rows = []
    for record in ResultsStore(store_path or default_store_path()).runs():
        row = dict(vars(record))
        try:
            stack = load_stack(record.stack)
        except StackFileError:
            stack = None  # the stack file is gone: its run stays listed
        row["study_samples_per_s"] = study_figure(stack) if stack else None
        row["profile"] = stack.cluster.nodes.profile if stack else None
        row["nodes"] = stack.cluster.nodes.count if stack else None
        row["variant"] = stack.cluster.network.variant if stack else None
        predicted = record.predicted_samples_per_s
        row["off_prediction_pct"] = (100 * (record.samples_per_s / predicted - 1)) if predicted else None
        row["flagged"] = bool(predicted) and abs(record.samples_per_s / predicted - 1) > OFF_PREDICTION
        rows.append(row)
    return rows


def run(args: argparse.Namespace, console: Console) -> int:
    if args.results_command == "add":
        return _add(args, console)
    rows = recorded_runs(args.store)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    from rich.table import Table

    table = Table(title="recorded runs (samples/s)", show_edge=False)
    for column in ("recorded", "stack", "fingerprint", "commit", "measured", "model", "study", "vs model",
                   "transport", "steps"):
        table.add_column(column, justify="right" if column in ("measured", "model", "study", "steps") else "left")
    for row in rows:
        off = row["off_prediction_pct"]
        table.add_row(
            row["recorded_at"], row["stack"], row["fingerprint"], (row["git_commit"] or "-")[:12],
            f"{row['samples_per_s']:.2f}",
            "-" if row["predicted_samples_per_s"] is None else f"{row['predicted_samples_per_s']:.2f}",
            "-" if row["study_samples_per_s"] is None else f"{row['study_samples_per_s']:.2f}",
            "-" if off is None else f"{off:+.0f}%{' !' if row['flagged'] else ''}",
            row["transport"] or "-", str(row["steps_counted"]),
        )
    console.print(table)
    if any(row["flagged"] for row in rows):
        console.print(f"! more than {OFF_PREDICTION:.0%} off the model's prediction", highlight=False)
    return 0


def _add(args: argparse.Namespace, console: Console) -> int:
    from .record import record_run
    from .runlog import RunLogError
    from .stackfile import load_stack

    stack = load_stack(args.stack)
    logs = {}
    for path in args.log:
        try:
            logs[path.name] = path.read_text(errors="replace")
        except OSError as error:
            raise StackFileError(f"--log {path}: cannot read: {error.strerror}") from None
    try:
        record = record_run(stack, logs, store_path=args.add_store or args.store, source="results add")
    except RunLogError as error:
        raise StackFileError(f"--log {', '.join(map(str, args.log))}: {error}") from None
    console.print(f"recorded run {record.id} of {record.stack}: {record.samples_per_s:.2f} samples/s over "
                  f"{record.steps_counted} steps (fingerprint {record.fingerprint})", highlight=False)
    return 0
