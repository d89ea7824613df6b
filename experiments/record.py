"""Recording a run: its logs parsed, keyed by stack, variant fingerprint and git commit, with the
model's prediction at that moment, into the results store.  ``results add`` calls it for logs
collected elsewhere; a future ``run`` calls it with the logs it collected itself."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from .identity import stack_fingerprint
from .results_store import ResultsStore, RunRecord, default_store_path
from .runlog import parse_run_logs
from .stackfile import PROJECT_ROOT, StackFile
from .summary import NotModelled, summarize

__all__ = ["git_commit", "record_run"]


def git_commit(root: Path = PROJECT_ROOT) -> str | None:
    """The project's commit, with ``+dirty`` when the work tree differs; None outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+dirty" if status.stdout.strip() else "")


def record_run(stack: StackFile, logs: Mapping[str, str], *, store_path: Path | None = None,
               source: str = "run") -> RunRecord:
    """Parse ``logs`` (pod name -> text), then store one row; raises ``RunLogError`` without steps."""
    measurement = parse_run_logs(logs)
    try:
        predicted: float | None = summarize(stack.name, stack.cluster).prediction.samples_per_s
    except NotModelled:
        predicted = None
    record = RunRecord(
        recorded_at=datetime.now(UTC).isoformat(timespec="seconds"),
        stack=stack.name,
        fingerprint=stack_fingerprint(stack),
        git_commit=git_commit(),
        source=source,
        samples_per_s=measurement.samples_per_s,
        transport=measurement.transport,
        steps_counted=measurement.steps_counted,
        step_time_mean_s=measurement.step_time_mean_s,
        step_time_median_s=measurement.step_time_median_s,
        step_time_p90_s=measurement.step_time_p90_s,
        predicted_samples_per_s=predicted,
        ranks=measurement.ranks,
        gpus=stack.cluster.nodes.count * stack.cluster.profile.gpus,
    )
    return ResultsStore(store_path or default_store_path()).add(record)
