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
import math
import os
import stat
from pathlib import Path
from typing import Any

from rich.console import Console

from experiments.base.errors import StackFileError

__all__ = ["MAX_LOG_BYTES", "OFF_PREDICTION", "add_parser", "read_log_files", "recorded_runs", "run",
           "study_figure"]

OFF_PREDICTION = 0.15
"""A run more than 15 % away from the model's prediction is flagged."""
MAX_LOG_BYTES = 4 * 1024 * 1024 * 1024


def add_parser(commands: Any) -> None:
    results = commands.add_parser("results", help="recorded runs beside the study and the model; 'add' records one")
    results.add_argument("--store", type=Path, help="results database (default: .gpu-cluster/results.sqlite)")
    results.add_argument("--json", action="store_true", help="print the runs as JSON")
    verbs = results.add_subparsers(dest="results_command")
    add = verbs.add_parser("add", help="record a run from log files collected elsewhere")
    add.add_argument("stack", help="stack name or stack file the run deployed (a stack of this project)")
    add.add_argument("--log", type=Path, action="append", required=True, metavar="FILE",
                     help="a pod's log (repeat for every pod)")
    add.add_argument("--gpus", type=positive_count, metavar="N",
                     help="the run used N GPUs, fewer than the stack's job (a proof of the job's path, e.g. on "
                          "one GPU): recorded as an N-GPU proof, listed apart from the model and the study")
    add.add_argument("--store", type=Path, dest="add_store", help=argparse.SUPPRESS)


def positive_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {count}")
    return count


def study_figure(stack: Any) -> float | None:
    """The study's measured samples/s for the stack's shape, if the study ran it."""
    from experiments.state.summary import NotModelled, scenario_for
    from experiments.throughput import load_study

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


def _ratio(measured: float | None, predicted: float | None) -> float | None:
    if not measured or not predicted:
        return None
    value = measured / predicted - 1
    return value if math.isfinite(value) else None


def recorded_runs(store_path: Path | None) -> list[dict[str, Any]]:
    """Every recorded run as a row: the record, the stack's shape, the study figure, the deviation
    (read-only: nothing is created or changed)."""
    from experiments.results.record import job_gpus
    from experiments.results.store import ResultsStore, default_store_path
    from experiments.stacks.stackfile import load_stack

    rows = []
    stacks: dict[str, Any] = {}
    for record in ResultsStore.reader(store_path or default_store_path()).runs():
        row = dict(vars(record))
        row.pop("logs_digest", None)
        if record.stack not in stacks:
            try:
                stacks[record.stack] = load_stack(record.stack) if _plain_name(record.stack) else None
            except StackFileError:
                stacks[record.stack] = None  # the stack file is gone: its run stays listed
        stack = stacks[record.stack]
        full = job_gpus(stack) if stack else None
        proof = record.gpus is not None and full is not None and record.gpus < full
        row["label"] = f"{record.gpus}-GPU proof" if proof else None
        row["study_samples_per_s"] = study_figure(stack) if stack else None
        row["profile"] = stack.cluster.nodes.profile if stack else None
        row["nodes"] = stack.cluster.nodes.count if stack else None
        row["variant"] = stack.cluster.network.variant if stack else None
        # A proof on fewer GPUs stands beside the stack's figures, never measured against them.
        off = None if proof else _ratio(record.samples_per_s, record.predicted_samples_per_s)
        row["off_prediction_pct"] = None if off is None else 100 * off
        row["flagged"] = off is not None and abs(off) > OFF_PREDICTION
        rows.append(row)
    return rows


def _plain_name(name: str) -> bool:
    """A stored stack name is looked up only as a name, never as a path (the store is foreign input)."""
    return bool(name) and all(c.isalnum() or c in "-_." for c in name) and not name.startswith(".")


def _number(value: Any, spec: str = ".2f") -> str:
    return "-" if value is None else format(value, spec)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.results_command == "add":
        return _add(args, console)
    rows = recorded_runs(args.store)
    if args.json:
        print(json.dumps(rows, indent=2, allow_nan=False))
        return 0
    from rich.table import Table

    from experiments.base.safe_text import rich_text

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


def read_log_files(paths: list[Path]) -> dict[str, str]:
    """Each ``--log`` file's text (invalid UTF-8 replaced), keyed by the path as given: two files of
    one name in different folders stay two logs. Only regular files, checked before opening; the
    same file twice is refused."""
    seen: dict[tuple[int, int], Path] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError as error:
            raise StackFileError(f"--log {path}: cannot read: {error.strerror}") from None
        if not stat.S_ISREG(info.st_mode):
            raise StackFileError(f"--log {path}: is not a regular file (a FIFO, device or directory would "
                                 "block or mislead the parser)")
        if info.st_size > MAX_LOG_BYTES:
            raise StackFileError(f"--log {path}: over {MAX_LOG_BYTES // 1024 ** 3} GiB")
        if (info.st_dev, info.st_ino) in seen:
            raise StackFileError(f"--log {path}: the same file as --log {seen[(info.st_dev, info.st_ino)]}")
        seen[(info.st_dev, info.st_ino)] = path
    logs = {}
    for path in paths:
        try:  # non-blocking open: a file swapped for a FIFO since the check cannot hang the open
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
            with os.fdopen(descriptor, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    raise StackFileError(f"--log {path}: is not a regular file")
                logs[str(path)] = handle.read().decode("utf-8", "replace")
        except OSError as error:
            raise StackFileError(f"--log {path}: cannot read: {error.strerror}") from None
    return logs


def _add(args: argparse.Namespace, console: Console) -> int:
    from experiments.results.record import project_stack, record_run
    from experiments.results.runlog import RunLogError
    from experiments.results.store import ResultsStore, default_store_path

    stack = project_stack(args.stack)
    store = args.add_store or args.store or default_store_path()
    ResultsStore.reader(store)  # a foreign, newer or corrupt store is refused before anything is read
    logs = read_log_files(args.log)
    try:
        record = record_run(stack, logs, store_path=store, source="results add", proof_gpus=args.gpus)
    except RunLogError as error:
        raise StackFileError(f"--log {', '.join(map(str, args.log))}: {error}") from None
    proof = f" as a {args.gpus}-GPU proof" if args.gpus else ""
    console.print(f"recorded run {record.id} of {record.stack}{proof}: {record.samples_per_s:.2f} samples/s over "
                  f"{record.steps_counted} steps (fingerprint {record.fingerprint})", highlight=False, markup=False)
    return 0
