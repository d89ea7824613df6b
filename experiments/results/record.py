"""Recording a run: its logs parsed, keyed by stack, variant fingerprint and git commit, with the
model's prediction at that moment, into the results store.  ``results add`` calls it for logs
collected elsewhere, ``run`` with the logs it collected itself.

A run is refused (``RunLogError``, exit 2, nothing stored) when its logs contradict the stack: the
GPUs the logs report (``RunMeasurement.world_size``: ``main_ds``'s ``num_gpus``, else the NCCL
ranks) differ from the GPUs the stack's job uses (nodes × ``job.nproc_per_node``, else the
profile's GPUs) or, for a declared proof on fewer GPUs, from the declared count; or a figure is not
a finite number.
The same logs (by content, whatever their file names) are recorded once."""

from __future__ import annotations

import hashlib
import math
import subprocess
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from experiments.base.errors import InputError
from experiments.base.paths import project_dir
from experiments.results.lab import LabSidecar, check_lab_run
from experiments.results.runlog import RunLogError, RunMeasurement, parse_run_logs, step_metrics
from experiments.results.store import ResultsStore, RunRecord, default_store_path
from experiments.stacks import stackfile
from experiments.stacks.stackfile import StackFile
from experiments.state.identity import stack_fingerprint
from experiments.state.summary import NotModelled, summarize

__all__ = ["git_commit", "logs_digest", "record_run"]


def git_commit(root: Path | None = None) -> str | None:
    """The project's commit (the project you stand in, else the checkout: ``project_dir``), with ``+dirty``
    when the work tree differs; None outside git."""
    root = project_dir() if root is None else root
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+dirty" if status.stdout.strip() else "")


def logs_digest(logs: Mapping[str, str]) -> str:
    """The identity of a run's logs: their contents, in any order and under any names."""
    parts = sorted(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest() for text in logs.values())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _check(stack: StackFile, measurement: RunMeasurement, proof_gpus: int | None, lab_gpus: int | None = None) -> None:
    figures = {
        "samples/s": measurement.samples_per_s,
        "mean step time": measurement.step_time_mean_s,
        "median step time": measurement.step_time_median_s,
        "p90 step time": measurement.step_time_p90_s,
    }
    for name, value in figures.items():
        if not math.isfinite(value) or value <= 0:
            raise RunLogError(f"the logs give a {name} of {value}: only finite positive figures are recorded")
    if lab_gpus is not None:
        return  # a lab run's size is its sidecar's, checked by check_lab_run
    reported = measurement.world_size if measurement.world_size is not None else measurement.ranks
    if reported is None or reported == (proof_gpus or stack.job_gpus):
        return
    if proof_gpus is not None:
        raise RunLogError(f"the logs report {reported} GPU(s), not the {proof_gpus} that --gpus declares")
    cfg = stack.cluster
    raise RunLogError(
        f"the logs report {reported} GPU(s), but {stack.name}'s job runs on {stack.job_gpus} GPU(s) "
        f"({cfg.nodes.count} node(s) x {cfg.job.nproc_per_node or cfg.profile.gpus}): these logs are not a run of "
        f"this stack (record them under the stack they ran, or as a proof on fewer GPUs with --gpus {reported})"
    )


def record_run(
    stack: StackFile,
    logs: Mapping[str, str],
    *,
    store_path: Path | None = None,
    source: str = "run",
    proof_gpus: int | None = None,
    lab: LabSidecar | None = None,
) -> RunRecord:
    """Parse ``logs`` (pod name -> text), check them against the stack, then store one row; raises
    ``RunLogError`` for logs without steps or contradicting the stack, ``DuplicateRun`` for logs
    already recorded.  ``proof_gpus``: the run used only that many of the stack's GPUs (a proof of
    the job's path, e.g. on one lent GPU); it is stored with its own GPU count, and listings show
    it beside the stack's prediction and study figure without comparing it with them.  ``lab``: the
    run's sidecar (``results.lab``): a lab run, held against its sidecar instead of the stack's job and
    stored with it, without a cluster prediction (listings predict it for the lab)."""
    gpus = stack.job_gpus
    if proof_gpus is not None and not 0 < proof_gpus < gpus:
        raise RunLogError(f"--gpus {proof_gpus}: a proof runs on fewer GPUs than the stack's job, which uses {gpus}")
    try:
        measurement = parse_run_logs(logs)
    except RunLogError:
        raise
    except (ValueError, TypeError, OverflowError, ZeroDivisionError, RecursionError) as error:
        raise RunLogError(f"the logs could not be parsed ({type(error).__name__})") from None
    predicted: float | None = None
    if lab is not None:
        _check(stack, measurement, None, lab_gpus=lab.nodes * lab.gpus_per_node)
        lines = (line for text in logs.values() for line in text.splitlines())
        check_lab_run(lab, stack, logs, measurement, max(step.samples for step in step_metrics(lines)))
        gpus = lab.nodes * lab.gpus_per_node
    else:
        _check(stack, measurement, proof_gpus)
        try:
            predicted = summarize(stack.name, stack.cluster).prediction.samples_per_s
        except NotModelled:
            pass
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
        gpus=proof_gpus or gpus,
        logs_digest=logs_digest(logs),
        lab=lab.canonical() if lab is not None else None,
    )
    return ResultsStore(store_path or default_store_path()).add(record)


def project_stack(stack: str | StackFile) -> StackFile:
    """The stack (a name, a path or one already loaded), if it is one of the project's
    (``Pulumi.<name>.yaml`` beside ``Pulumi.yaml``): a run recorded under any other stack file would
    name a stack nothing can find again."""

    loaded = stackfile.load_stack(stack) if isinstance(stack, str) else stack
    own = f"Pulumi.{loaded.name}.yaml"
    try:  # the file its name finds: in the project you stand in (gpu-cluster init), else the checkout
        same = stackfile.resolve_stack(loaded.name).samefile(loaded.path)
    except (InputError, OSError):
        same = False
    if not same:
        raise InputError(
            f"{loaded.path}: not a stack of this project (no {own} beside Pulumi.yaml is "
            "this file): results are recorded only under the project's stacks"
        )
    return loaded
