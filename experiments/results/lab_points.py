"""The lab runs of a store as points of the model: each beside the model's prediction for the lab.

A lab point's compute comes from the one-node lab runs of the same host shape (GPU, GPUs per node,
model cut: ``LabShape.host_key``), the mean of their samples/s; the model adds what several nodes
cost over the point's link (``throughput.lab``).  A point without such a run has no prediction,
and says why.  A stored sidecar is read again as foreign input: one that no longer parses leaves
its run listed as a lab run without a prediction.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, replace

from experiments.base.errors import InputError
from experiments.results.lab import LabSidecar, lab_shape, parse_sidecar
from experiments.results.store import RunRecord
from experiments.throughput.lab import ONE_GPU_PER_NODE, LabPrediction, LabShape, predict_lab, suspect_term
from experiments.throughput.parameters import ModelParams

__all__ = ["LabPoint", "baseline_rate", "lab_points", "predict_point", "stored_sidecar"]


@dataclass(frozen=True)
class LabPoint:
    run: RunRecord
    sidecar: LabSidecar | None
    predicted: float | None
    """The model's samples/s for this point (None: see ``note``)."""
    note: str
    """Why there is no prediction, or what the point is (the one-node run the compute comes from)."""
    term: str | None = None
    """The model term a point more than 15 % off points at."""
    lab: LabPrediction | None = None
    baseline_samples_per_s: float | None = None
    """The one-node samples/s the prediction read the compute from."""

    @property
    def error_pct(self) -> float | None:
        measured = self.run.samples_per_s
        if self.predicted is None or not _measured(measured):
            return None
        return 100.0 * (self.predicted - measured) / measured

    @property
    def link_label(self) -> str:
        if self.sidecar is None:
            return "—"
        link = self.sidecar.link
        rate = "unshaped" if link.gbps is None else f"{link.gbps:g} Gbit/s"
        return f"{rate}, {link.latency_ms:g} ms ({link.source})"

    @property
    def shape_label(self) -> str:
        if self.sidecar is None:
            return "lab run (its sidecar does not parse)"
        s = self.sidecar
        shared = ", GPUs shared" if s.shared_gpu else ""
        return f"lab: {s.nodes} x {s.gpus_per_node} GPU(s){shared}, {s.model_cut.layers} layers"


def _measured(value: float | None) -> bool:
    """A stored samples/s a point can stand on: the store reads a figure no run can have as None, and
    a hand-edited store may hold zero (no division, no baseline, no point on the figure)."""
    return value is not None and value > 0


def stored_sidecar(record: RunRecord) -> LabSidecar | None:
    """A stored run's sidecar, read again as foreign input; None for a cluster run or one that does not parse."""
    if record.lab is None:
        return None
    try:
        return parse_sidecar(record.lab, f"run {record.id}")
    except InputError:
        return None


def baseline_rate(shape: LabShape, baselines: Iterable[tuple[LabShape, float]]) -> float | None:
    """The mean samples/s of the one-node runs among ``baselines`` (shape, samples/s) that share
    ``shape``'s host shape; None without one."""
    rates = [
        rate for base, rate in baselines if base.nodes == 1 and base.host_key == shape.host_key and _measured(rate)
    ]
    return statistics.fmean(rates) if rates else None


def predict_point(
    shape: LabShape, baseline: float | None, params: ModelParams | None = None
) -> tuple[LabPrediction | None, str]:
    """The model's prediction for ``shape``, its compute read off a one-node run at ``baseline`` samples/s."""
    if baseline is None:
        return None, "no one-node lab run of this GPU, GPUs per node and model cut to read the compute from"
    base = replace(shape, nodes=1, shared_gpu=False, link_gbps=None)
    try:
        return predict_lab(shape, base, baseline, params), ""
    except ValueError as error:
        return None, str(error)


def lab_points(records: Iterable[RunRecord], params: ModelParams | None = None) -> list[LabPoint]:
    """Every lab run of ``records`` (cluster runs are left out) as a point beside its prediction."""
    runs = [(record, stored_sidecar(record)) for record in records if record.lab is not None]
    shapes = {id(record): lab_shape(sidecar) for record, sidecar in runs if sidecar is not None}
    baselines = [(shapes[id(record)], record.samples_per_s) for record, _ in runs if id(record) in shapes]
    points = []
    for record, sidecar in runs:
        if sidecar is None:
            points.append(LabPoint(record, None, None, "its stored sidecar does not parse"))
            continue
        shape = shapes[id(record)]
        if not _measured(record.samples_per_s):
            points.append(LabPoint(record, sidecar, None, "its stored samples/s is not a figure a run can have"))
            continue
        baseline = baseline_rate(shape, baselines)
        lab, why = predict_point(shape, baseline, params)
        no_gradients = shape.nodes > 1 and shape.gpus_per_node == 1
        if lab is None:
            points.append(LabPoint(record, sidecar, None, f"{why}; {ONE_GPU_PER_NODE}" if no_gradients else why))
            continue
        note = "one-node run: the compute of this host" if shape.nodes == 1 else ""
        note = ONE_GPU_PER_NODE if no_gradients else note
        term = suspect_term(shape, lab, record.samples_per_s)
        points.append(LabPoint(record, sidecar, lab.samples_per_s, note, term, lab, baseline))
    return points
