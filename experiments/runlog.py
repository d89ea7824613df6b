"""What a training run's logs say: throughput, step times and the NCCL transport.

InstructLab's ``main_ds`` (instructlab/training ``src/instructlab/training/main_ds.py``, read at
fa5b53b) logs one metrics dict per optimizer step on every rank: ``step``, ``rank``,
``overall_throughput`` (= ``batch_size`` / the step's elapsed time, samples/s), ``batch_size`` (the
step's samples), ``avg_loss``, ``samples_seen``...  Its metric logger writes them as JSON lines to
``<output_dir>/training_params_and_metrics_global<rank>.jsonl`` and, on the console (the pod log),
as ``key=value, key=value`` (``FormatDictFilter``).  Both forms are read here, as is
``workloads/fsdp_finetune.py``'s JSON (which adds ``elapsed_time``); a line may carry a prefix
(torchrun's ``[default0]:``, a timestamp, a log level) before the metrics.  Only rank 0 counts.

Warm-up: the first ``WARMUP_STEPS`` steps are left out. They carry CUDA context creation, NCCL
communicator setup and allocator growth (in the proof run on an H100 the first step took 6.3 s,
the others 0.36-0.49 s), which a steady-state figure such as the study's samples/s must not.
Throughput is then total samples over total time of the counted steps, not the mean of per-step
rates, which would overweight fast steps. The transport comes from the ``NCCL_DEBUG=INFO`` lines,
read by ``workloads/nccl_transport.py``, the same parser the pods run.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from workloads import nccl_transport

__all__ = ["WARMUP_STEPS", "RunLogError", "RunMeasurement", "StepMetric", "bus_bandwidth", "parse_run_logs",
           "step_metrics"]

WARMUP_STEPS = 5


class RunLogError(ValueError):
    """Logs that hold no usable training step."""


@dataclass(frozen=True)
class StepMetric:
    step: int
    samples: int
    seconds: float


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

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


_PAIR = re.compile(r"(\w+)=([^,\s]+)")


def _json_object(line: str) -> dict[str, Any] | None:
    """The metrics on a line: a JSON object, or InstructLab's console ``key=value, ...`` form."""
    start = line.find("{")
    if start >= 0:
        try:
            value = json.loads(line[start:])
        except ValueError:
            value = None
        if isinstance(value, dict):
            return value
    if "overall_throughput=" in line:
        return {key: _number(text) for key, text in _PAIR.findall(line)}
    return None


def _number(text: str) -> Any:
    try:
        return float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        return text


def step_metrics(lines: Iterable[str]) -> list[StepMetric]:
    """Every rank-0 step metric, in log order; a repeated step keeps its last report."""
    steps: dict[int, StepMetric] = {}
    for line in lines:
        record = _json_object(line)
        if not record or "overall_throughput" not in record or "step" not in record:
            continue
        if int(record.get("rank", 0)) != 0:
            continue
        throughput = float(record["overall_throughput"])
        samples = int(record.get("batch_size") or 0)
        seconds = float(record.get("elapsed_time") or 0.0)
        if seconds <= 0 and throughput > 0 and samples > 0:
            seconds = samples / throughput
        if samples <= 0 and throughput > 0 and seconds > 0:
            samples = round(throughput * seconds)
        if samples > 0 and seconds > 0:
            steps[int(record["step"])] = StepMetric(int(record["step"]), samples, seconds)
    return [steps[k] for k in sorted(steps)]


_BUSBW = re.compile(r"^# (?P<op>\w+): avg busbw [\d.]+ GB/s; (?P<bytes>\d+) B: (?P<gbs>[\d.]+) GB/s")


def bus_bandwidth(lines: Iterable[str]) -> dict[str, float]:
    """The NCCL benchmark job's bus bandwidth per collective, in GB/s at its largest message size
    (``nccl_bench.py``'s summary lines)."""
    found: dict[str, float] = {}
    for line in lines:
        match = _BUSBW.match(line.split("]:", 1)[-1].strip())
        if match:
            found[match["op"]] = float(match["gbs"])
    return found


def _transport(summary: nccl_transport.TransportSummary) -> str | None:
    network = sorted(t for t in summary.transports if t.startswith("net-"))
    if network:
        return network[0]
    local = sorted(summary.transports & {"p2p", "shm"})
    return local[0] if local else None


def parse_run_logs(logs: Mapping[str, str], warmup_steps: int = WARMUP_STEPS) -> RunMeasurement:
    """One measurement from every pod's log (pod name -> text)."""
    lines = [line for text in logs.values() for line in text.splitlines()]
    steps = step_metrics(lines)
    counted = steps[warmup_steps:]
    if not counted:
        raise RunLogError(f"{len(steps)} training step(s) found, none after the {warmup_steps} warm-up steps: "
                          "no throughput to report")
    times = sorted(s.seconds for s in counted)
    summary = nccl_transport.parse_log(lines)
    return RunMeasurement(
        samples_per_s=sum(s.samples for s in counted) / sum(s.seconds for s in counted),
        steps_counted=len(counted),
        steps_skipped=len(steps) - len(counted),
        step_time_mean_s=statistics.fmean(times),
        step_time_median_s=statistics.median(times),
        step_time_p90_s=times[min(len(times) - 1, int(0.9 * len(times)))],
        transport=_transport(summary),
        ranks=summary.n_ranks,
    )
