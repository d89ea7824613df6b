"""Recorded runs as rows: each beside its stack's shape, the study's figure and the model's
prediction; and the log files ``results add`` reads (hostile input: regular files only).

Everything read from the store is foreign input: a stored stack name is looked up only as a name,
never as a path, and a run whose stack file is gone stays listed.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path
from typing import Any

from experiments.base.errors import InputError
from experiments.results.lab_points import LabPoint, lab_points
from experiments.results.store import ResultsStore, default_store_path
from experiments.stacks.stackfile import StackFile, load_stack
from experiments.state.summary import NotModelled, scenario_for
from experiments.throughput.calibration import load_study
from experiments.throughput.scenario import Scenario

__all__ = ["MAX_LOG_BYTES", "OFF_PREDICTION", "read_log_files", "recorded_runs", "study_figure"]

OFF_PREDICTION = 0.15
"""A run more than 15 % away from the model's prediction is flagged."""
MAX_LOG_BYTES = 4 * 1024 * 1024 * 1024


def study_figure(stack: StackFile) -> float | None:
    """The study's measured samples/s for the stack's shape, if the study ran it."""
    try:
        scenario = scenario_for(stack.cluster)
    except NotModelled:
        return None

    def shape(s: Scenario) -> tuple[Any, ...]:
        # What the study varied: profile, nodes, and between nodes the network and its NICs; same workload.
        return (
            s.profile,
            s.nodes,
            s.network if s.nodes > 1 else None,
            s.nics_per_node if s.nodes > 1 else None,
            s.workload,
        )

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
    rows = []
    stacks: dict[str, StackFile | None] = {}
    records = ResultsStore.reader(store_path or default_store_path()).runs()
    lab = {id(point.run): point for point in lab_points(records)}
    for record in records:
        row = dict(vars(record))
        row.pop("logs_digest", None)
        row["kind"] = "lab" if record.lab is not None else "cluster"
        if record.stack not in stacks:
            try:
                stacks[record.stack] = load_stack(record.stack) if _plain_name(record.stack) else None
            except InputError:
                stacks[record.stack] = None  # the stack file is gone: its run stays listed
        stack = stacks[record.stack]
        full = stack.job_gpus if stack else None
        proof = record.gpus is not None and full is not None and record.gpus < full
        # More GPUs than the stack's job has (a pulled run, or a stack file changed since): not a run of it.
        size = record.gpus if record.gpus is not None else record.ranks
        beyond = size is not None and full is not None and size > full
        row["label"] = f"{record.gpus}-GPU proof" if proof else f"{size} GPUs, the stack has {full}" if beyond else None
        row["study_samples_per_s"] = study_figure(stack) if stack else None
        row["profile"] = stack.cluster.nodes.profile if stack else None
        row["nodes"] = stack.cluster.nodes.count if stack else None
        row["variant"] = stack.cluster.network.variant if stack else None
        # A proof on fewer GPUs, or a run on more, stands beside the stack's figures, never measured against them.
        off = None if proof or beyond else _ratio(record.samples_per_s, record.predicted_samples_per_s)
        row["off_prediction_pct"] = None if off is None else 100 * off
        row["flagged"] = off is not None and abs(off) > OFF_PREDICTION
        if record.lab is not None:
            _as_lab_run(row, lab[id(record)])
        rows.append(row)
    return rows


def _as_lab_run(row: dict[str, Any], point: LabPoint) -> None:
    """A lab run's row: its emulated shape and link, the model's prediction for the lab; never the
    study's figure nor the cluster's prediction, which describe another machine."""
    off = _ratio(point.run.samples_per_s, point.predicted)
    row.update(
        label=point.shape_label,
        study_samples_per_s=None,
        predicted_samples_per_s=point.predicted,
        off_prediction_pct=None if off is None else 100 * off,
        flagged=off is not None and abs(off) > OFF_PREDICTION,
        nodes=None if point.sidecar is None else point.sidecar.nodes,
        lab=None if point.sidecar is None else point.sidecar.model_dump(),
        lab_link=point.link_label,
        lab_note=point.note or None,
        lab_term=point.term,
    )


def _plain_name(name: str) -> bool:
    """A stored stack name is looked up only as a name, never as a path (the store is foreign input)."""
    return bool(name) and all(c.isalnum() or c in "-_." for c in name) and not name.startswith(".")


def read_log_files(paths: list[Path]) -> dict[str, str]:
    """Each ``--log`` file's text (invalid UTF-8 replaced), keyed by the path as given: two files of
    one name in different folders stay two logs. Only regular files, checked before opening; the
    same file twice is refused."""
    seen: dict[tuple[int, int], Path] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError as error:
            raise InputError(f"--log {path}: cannot read: {error.strerror}") from None
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                f"--log {path}: is not a regular file (a FIFO, device or directory would block or mislead the parser)"
            )
        if info.st_size > MAX_LOG_BYTES:
            raise InputError(f"--log {path}: over {MAX_LOG_BYTES // 1024**3} GiB")
        if (info.st_dev, info.st_ino) in seen:
            raise InputError(f"--log {path}: the same file as --log {seen[(info.st_dev, info.st_ino)]}")
        seen[(info.st_dev, info.st_ino)] = path
    logs = {}
    for path in paths:
        try:  # non-blocking open: a file swapped for a FIFO since the check cannot hang the open
            descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
            with os.fdopen(descriptor, "rb") as handle:
                if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                    raise InputError(f"--log {path}: is not a regular file")
                logs[str(path)] = handle.read().decode("utf-8", "replace")
        except OSError as error:
            raise InputError(f"--log {path}: cannot read: {error.strerror}") from None
    return logs
