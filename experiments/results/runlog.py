"""What a training run's logs say: throughput, step times, the job's size and the NCCL transport.

InstructLab's ``main_ds`` (instructlab-training 0.16.2, ``main_ds.py``) logs one metrics dict per
optimizer step from each node's local rank 0: ``step``, ``rank``, ``overall_throughput`` (=
``batch_size`` / the step's elapsed time, samples/s), ``batch_size`` (the step's samples over every
rank), ``num_tokens_rank0``, ``avg_loss``, ... and once, before training, ``num_gpus`` (the world
size). ``experiments/results/runlog_lines.py`` reads them from its metrics JSONL and from its console (Rich
rows, wrapped or not); JSON is preferred where both report a step, since the console rounds to
three digits. Only rank 0 counts.

Warm-up: the first ``WARMUP_STEPS`` steps are left out (``warmup_for``: the first step only of a
run with fewer than eight). They carry CUDA context creation, NCCL
communicator setup and allocator growth (in the first proof run on an H100 the first step took
6.3 s, the others 0.36-0.49 s), which a steady-state figure such as the study's samples/s must not.
Throughput is then total samples over total time of the counted steps, not the mean of per-step
rates, which would overweight fast steps. The transport comes from the ``NCCL_DEBUG=INFO`` lines,
read by ``workloads/nccl_transport.py``, the same parser the pods run; only lines up to
``NCCL_LINE_LIMIT`` characters reach it (NCCL's own are far shorter), which bounds its regular
expressions' work per line and keeps the whole parse linear.

Apart from ``runlog_lines`` by concept, not size: that reads the lines; this decides what they measure.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from experiments.results.runlog_lines import LogRecord, finite_number, records
from workloads import nccl_transport

__all__ = [
    "NCCL_LINE_LIMIT",
    "WARMUP_STEPS",
    "LogScan",
    "RunLogError",
    "RunMeasurement",
    "StepMetric",
    "bus_bandwidth",
    "parse_run_logs",
    "scan_log",
    "step_metrics",
    "warmup_for",
]

WARMUP_STEPS = 5
NCCL_LINE_LIMIT = 4096
_MAX_COUNT = 10**12


class RunLogError(ValueError):
    """Logs that hold no usable training step."""


@dataclass(frozen=True)
class StepMetric:
    step: int
    samples: int
    seconds: float
    tokens: int | None = None
    """Tokens rank 0 processed in the step (``num_tokens_rank0``), when the log says."""


@dataclass(frozen=True)
class RunMeasurement:
    samples_per_s: float
    steps_counted: int
    steps_skipped: int
    step_time_mean_s: float
    step_time_median_s: float
    step_time_p90_s: float
    transport: str | None
    """``net-ib``, ``net-socket``, ``p2p``, ``shm`` (the network one when there is one), or None."""
    ranks: int | None
    """NCCL ranks of the job (``nranks`` in the NCCL log), when the log says."""
    world_size: int | None = None
    """GPUs of the job: ``main_ds``'s ``num_gpus``, else the NCCL ranks; None when the log says neither."""
    rank0_tokens_per_s: float | None = None
    """Tokens rank 0 processed per second over the counted steps (all GPUs: about ``world_size`` times)."""
    lines_read: int = 0
    malformed_lines: int = 0
    """Lines (or wrapped console records) that looked like metrics but were unusable: skipped."""

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class LogScan:
    """What one pass over the lines found."""

    steps: list[StepMetric]
    world_size: int | None
    counts: dict[str, int] = field(default_factory=dict)
    world_sizes: set[int] = field(default_factory=set)
    """Every ``num_gpus`` the log reports: more than one is a log that contradicts itself."""


def _count(value: Any) -> int | None:
    """A non-negative whole number as JSON or the console wrote it; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < _MAX_COUNT else None
    if isinstance(value, str) and 0 < len(value) <= 12 and value.isascii() and value.isdigit():
        return int(value)
    return None


def _step(values: dict[str, Any]) -> StepMetric | None:
    step = _count(values.get("step"))
    throughput = finite_number(values.get("overall_throughput"))
    if step is None or throughput is None or throughput <= 0:
        return None
    samples = _count(values.get("batch_size")) or 0
    seconds = finite_number(values.get("elapsed_time")) or 0.0
    if seconds <= 0 < samples:
        seconds = samples / throughput
    if samples <= 0 < seconds:
        samples = round(throughput * seconds)
    if samples <= 0 or not 0 < seconds < 1e9:
        return None
    return StepMetric(step, samples, seconds, _count(values.get("num_tokens_rank0")))


def scan_log(lines: Iterable[str]) -> LogScan:
    """Rank 0's steps (log order of step numbers; JSON beats console, a later report an earlier
    one), the world size and the line counts."""
    counts: dict[str, int] = {}
    by_source: dict[str, dict[int, StepMetric]] = {"json": {}, "console": {}}
    world_size: int | None = None
    world_sizes: set[int] = set()
    record: LogRecord
    for record in records(lines, counts):
        values = record.values
        if "num_gpus" in values:
            gpus = _count(values["num_gpus"])
            if gpus:
                world_size = gpus
                world_sizes.add(gpus)
        if "overall_throughput" not in values:
            continue
        rank = _count(values.get("rank", 0))
        metric = _step(values)
        if metric is None or rank is None:
            counts["malformed"] = counts.get("malformed", 0) + 1
        elif rank == 0:
            by_source[record.source][metric.step] = metric
    merged = {**by_source["console"], **by_source["json"]}
    return LogScan([merged[k] for k in sorted(merged)], world_size, counts, world_sizes)


def step_metrics(lines: Iterable[str]) -> list[StepMetric]:
    """Every rank-0 step metric, in step order; a repeated step keeps its last report."""
    return scan_log(lines).steps


def _gbs(text: str) -> float | None:
    value = finite_number(text)
    return value if value is not None and value >= 0 else None


def bus_bandwidth(lines: Iterable[str]) -> dict[str, float]:
    """The NCCL benchmark job's bus bandwidth per collective, in GB/s at its largest message size
    (``nccl_bench.py``'s summary lines: ``# all_reduce: avg busbw 1.0 GB/s; 1024 B: 2.0 GB/s``)."""
    found: dict[str, float] = {}
    for line in lines:
        text = line.split("]:", 1)[-1].strip()
        if not text.startswith("# ") or len(text) > NCCL_LINE_LIMIT:
            continue
        head, _, tail = text[2:].partition(": avg busbw ")
        if not head.isidentifier() or not tail.endswith(" GB/s"):
            continue
        _, _, largest = tail.partition("; ")
        size, _, rate = largest.partition(" B: ")
        gbs = _gbs(rate[: -len(" GB/s")])
        if size.isdigit() and gbs is not None:
            found[head] = gbs
    return found


def _transport(summary: nccl_transport.TransportSummary) -> str | None:
    network = sorted(t for t in summary.transports if t.startswith("net-"))
    if network:
        return network[0]
    local = sorted(summary.transports & {"p2p", "shm"})
    return local[0] if local else None


def warmup_for(steps: int) -> int:
    """Steps left out at the start: ``WARMUP_STEPS`` of a run that keeps three or more after them, else the
    first step only (main_ds at the study's effective batch size of 3840 makes about three optimizer steps
    per epoch of 9,872 samples, each minutes long, so its set-up weighs little). A one-step run is warm-up
    only: its one step carries the set-up, so it measures nothing (``parse_run_logs`` refuses it)."""
    if steps >= WARMUP_STEPS + 3:
        return WARMUP_STEPS
    return 1 if steps >= 1 else 0


def _consistent_size(world_sizes: set[int], n_ranks: int | None) -> None:
    """The job's size as the log says it, once: ``main_ds``'s ``num_gpus`` and NCCL's world communicator (its
    largest ``nRanks``: every rank of the job is in it) count the same GPUs, or the log was edited or mixes
    two runs, and none of its figures can be recorded against either size."""
    if len(world_sizes) > 1:
        sizes = ", ".join(str(n) for n in sorted(world_sizes))
        raise RunLogError(f"the logs contradict themselves: main_ds reports num_gpus {sizes}, one job has one size")
    if world_sizes and n_ranks is not None and n_ranks not in world_sizes:
        raise RunLogError(
            f"the logs contradict themselves: main_ds reports num_gpus={next(iter(world_sizes))}, but NCCL's "
            f"communicator spans nRanks {n_ranks}: one of them was edited, or the logs are of two runs"
        )


def parse_run_logs(logs: Mapping[str, str], warmup_steps: int | None = None) -> RunMeasurement:
    """One measurement from every pod's log (pod name -> text); raises ``RunLogError`` without steps.
    ``warmup_steps`` None: ``warmup_for`` the run's step count."""
    lines = [line for text in logs.values() for line in text.splitlines()]
    scan = scan_log(lines)
    steps = scan.steps
    skip = warmup_for(len(steps)) if warmup_steps is None else max(0, warmup_steps)
    counted = steps[skip:]
    if not counted:
        if not steps:
            raise RunLogError("0 training step(s) found: no throughput to report")
        raise RunLogError(
            f"{len(steps)} training step(s) found, none after the {skip} warm-up step(s): "
            "a warm-up-only log measures no throughput"
        )
    times = sorted(s.seconds for s in counted)
    summary = nccl_transport.parse_log(line for line in lines if len(line) <= NCCL_LINE_LIMIT and "NCCL" in line)
    _consistent_size(scan.world_sizes, summary.n_ranks)
    seconds = sum(s.seconds for s in counted)
    tokens = [s.tokens for s in counted]
    return RunMeasurement(
        samples_per_s=sum(s.samples for s in counted) / seconds,
        steps_counted=len(counted),
        steps_skipped=len(steps) - len(counted),
        step_time_mean_s=statistics.fmean(times),
        step_time_median_s=statistics.median(times),
        step_time_p90_s=times[min(len(times) - 1, int(0.9 * len(times)))],
        transport=_transport(summary),
        ranks=summary.n_ranks,
        world_size=scan.world_size or summary.n_ranks,
        rank0_tokens_per_s=sum(t for t in tokens if t is not None) / seconds if None not in tokens else None,
        lines_read=scan.counts.get("lines", 0),
        malformed_lines=scan.counts.get("malformed", 0),
    )
