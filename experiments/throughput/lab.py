"""The model against the lab: a training run's nodes emulated on one host, their links shaped.

A lab point is not a cluster: its nodes are network namespaces of one host, its links a ``tbf``
(bandwidth) and ``netem`` (latency) on veth pairs, its model a cut of granite-3.1-8b (fewer layers)
with a fixed number of samples per GPU per optimizer step.  The model predicts it from the same
inputs it takes for a cluster, read from the lab instead of IBM's catalog:

* **GPUs per node** and **nodes**: the emulated shape (``gpus_per_node`` x ``nodes`` ranks).
* **The link**: the shaped rate is what one node's rings share, so the path is that rate, at the
  share of a ``tbf`` TCP reaches (``LAB_TBF_EFFICIENCY``), with the shaped latency per hop.  IBM's
  NIC, the overlay and incast are left out by the emulation, so none of their terms apply.  An
  unshaped link is the veth pair itself: only the model's TCP ring ceiling bounds it.
* **The per-GPU compute**: read off a one-node run of the same cut on the same host
  (``local_scale``): the factor that makes the model's node-local time (compute, offload copies,
  CPU optimizer) equal that run's.  Everything the model adds on top of it for several nodes is
  the inter-node traffic and how much of it the backward pass hides: bytes per step, overlap,
  latency.
* **Shared GPU**: when the emulated nodes time-share the same GPUs (a one-GPU host), every rank's
  local work runs ``nodes`` times slower; the prediction multiplies the node-local time by that,
  an approximation the docs name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from experiments.throughput.model import NetworkPath, Prediction, predict
from experiments.throughput.parameters import ModelParams, load_params
from experiments.throughput.scenario import Scenario, Workload, decoder_params

__all__ = [
    "LAB_ARCHITECTURES",
    "LAB_PROFILES",
    "LAB_TBF_EFFICIENCY",
    "LabPrediction",
    "OFF_LAB",
    "ONE_GPU_PER_NODE",
    "LabShape",
    "lab_path",
    "lab_scenario",
    "local_scale_of",
    "predict_lab",
    "suspect_term",
]

LAB_TBF_EFFICIENCY = 0.96
"""Share of a ``tbf`` rate TCP achieves through it: 1.92 Gbit/s through 2 Gbit/s (issue 35)."""

LAB_ARCHITECTURES: dict[str, dict[str, int]] = {
    "granite-3.1-8b": {"vocab": 49155, "hidden": 4096, "ffn": 12800, "heads": 32, "kv_heads": 8},
    "tiny-granite": {"vocab": 49155, "hidden": 512, "ffn": 1600, "heads": 8, "kv_heads": 2},
}
"""Architectures whose cuts the model knows, the shapes of ``tools/gpu/granite-3.1-8b-instruct.json``
(``granite-3.1-8b-instruct`` is the same one) and ``tools/gpu/tiny-granite.json`` (the proofs' model:
its steps are too short for a speed, but its points still go through the same arithmetic)."""

LAB_PROFILES: dict[str, str] = {"H100": "gx3d-160x1792x8h100", "H200": "gx3d-160x1792x8h200"}
"""The catalog profile whose GPU facts (peak, NVLink, PCIe) a lab host's GPU shares."""


@dataclass(frozen=True)
class LabShape:
    """What the model needs of a lab run (``results.lab`` reads it from the run's sidecar)."""

    nodes: int
    gpus_per_node: int
    gpu: str
    """A key of ``LAB_PROFILES``."""
    arch: str
    layers: int
    samples_per_gpu_per_step: int
    max_batch_len: int
    link_gbps: float | None
    """Shaped rate per node; None: unshaped."""
    latency_ms: float
    shared_gpu: bool = False

    @property
    def host_key(self) -> tuple[object, ...]:
        """What a one-node run must share with this point to lend it its compute."""
        return (self.gpu, self.gpus_per_node, self.arch, self.layers, self.samples_per_gpu_per_step, self.max_batch_len)


def _architecture(arch: str) -> dict[str, int]:
    known = LAB_ARCHITECTURES.get(arch.removesuffix("-instruct"))
    if known is None:
        raise ValueError(f"the model knows no architecture {arch!r} (known: {', '.join(LAB_ARCHITECTURES)})")
    return known


def lab_scenario(shape: LabShape) -> Scenario:
    """The lab point as a scenario of the model: its GPU's profile, its shape, the cut as the workload."""
    if shape.gpu not in LAB_PROFILES:
        raise ValueError(f"the model knows no lab GPU {shape.gpu!r} (known: {', '.join(LAB_PROFILES)})")
    params = decoder_params(layers=shape.layers, **_architecture(shape.arch))
    world = shape.nodes * shape.gpus_per_node
    workload = Workload(
        model=f"{shape.arch} ({shape.layers} layers)",
        params=params,
        fsdp_units=shape.layers,
        max_batch_len=shape.max_batch_len,
        effective_batch_size=shape.samples_per_gpu_per_step * world,
        samples=shape.samples_per_gpu_per_step * world,
    )
    return Scenario(LAB_PROFILES[shape.gpu], shape.nodes, "pod", gpus_per_node=shape.gpus_per_node, workload=workload)


def lab_path(shape: LabShape, params: ModelParams | None = None) -> NetworkPath:
    """One node's inter-node path in the lab: the shaped rate (or the rings' TCP ceiling, unshaped)."""
    p = params if params is not None else load_params()
    ceiling = shape.gpus_per_node * p.tcp_ring_max_gbps
    gbps = ceiling if shape.link_gbps is None else min(shape.link_gbps * LAB_TBF_EFFICIENCY, ceiling)
    return NetworkPath("tcp", 1, gbps, 1.0, shape.latency_ms / 1000.0)


def _sharing(shape: LabShape) -> float:
    return float(shape.nodes) if shape.shared_gpu else 1.0


def local_scale_of(baseline: LabShape, measured_samples_per_s: float, params: ModelParams | None = None) -> float:
    """The factor on the model's node-local time that reproduces a one-node run of ``baseline``."""
    if baseline.nodes != 1:
        raise ValueError("the compute is read off a one-node run")
    if not (math.isfinite(measured_samples_per_s) and measured_samples_per_s > 0):
        raise ValueError("a one-node run needs a finite positive samples/s")
    scenario = lab_scenario(baseline)

    def rate(log_scale: float) -> float:
        return predict(scenario, params, local_scale=math.exp(log_scale)).samples_per_s

    low, high = math.log(1e-4), math.log(1e4)
    if not rate(high) <= measured_samples_per_s <= rate(low):
        raise ValueError(
            f"a one-node run at {measured_samples_per_s:.4g} samples/s is beyond what the model can scale to"
        )
    for _ in range(100):  # bisection: the rate falls as the local time grows
        middle = (low + high) / 2
        low, high = (middle, high) if rate(middle) > measured_samples_per_s else (low, middle)
    return math.exp((low + high) / 2)


@dataclass(frozen=True)
class LabPrediction:
    samples_per_s: float
    local_scale: float
    """The host's node-local time over the model's, from the one-node run."""
    prediction: Prediction


def predict_lab(
    shape: LabShape, baseline: LabShape, baseline_samples_per_s: float, params: ModelParams | None = None
) -> LabPrediction:
    """The model's samples/s for the lab point ``shape``, its compute read off the one-node run ``baseline``."""
    if baseline.host_key != shape.host_key:
        raise ValueError("the one-node run must be of the same GPU, GPUs per node and model cut")
    scale = local_scale_of(baseline, baseline_samples_per_s, params)
    scenario = lab_scenario(shape)
    path = lab_path(shape, params)
    prediction = predict(scenario, params, path=path, local_scale=scale * _sharing(shape))
    return LabPrediction(prediction.samples_per_s, scale, prediction)


ONE_GPU_PER_NODE = (
    "one GPU per node: FSDP1 runs HYBRID_SHARD as NO_SHARD over a one-rank shard group, so no gradient "
    "crosses the nodes and the replicas train apart (pytorch/pytorch#154888)"
)
"""Why a lab point with one GPU per node does not test the model's inter-node traffic: the job sends none.
The model prices the job as meant (the gradients all-reduced between nodes)."""

OFF_LAB = 0.15
"""A lab point more than 15 % off the model's prediction names the term that misses it."""


def suspect_term(shape: LabShape, lab: LabPrediction, measured_samples_per_s: float) -> str | None:
    """The model term a point more than ``OFF_LAB`` off points at (None within it).  The node-local time
    is the one-node run's, so the miss lies in what several nodes add: the per-hop ``latency`` when it
    is most of the traffic's time, ``overlap`` when the model hides the traffic that the lab shows,
    else the ``bytes per step``; on time-shared GPUs, the sharing itself."""
    if abs(measured_samples_per_s / lab.samples_per_s - 1.0) <= OFF_LAB:
        return None
    p = lab.prediction
    if shape.nodes > 1 and shape.gpus_per_node == 1:
        return f"bytes per step ({ONE_GPU_PER_NODE})"
    if shape.shared_gpu:
        return "shared GPU (node-local time x nodes)"
    if shape.nodes == 1:
        return "compute (one-node runs differ)"
    hops = min(2.0 * (shape.nodes - 1), 2.0 * math.log2(shape.nodes))
    latency = shape.layers * hops * shape.latency_ms / 1000.0
    if latency > 0.5 * p.communication_seconds:
        return "latency"
    if p.exposed_communication_seconds < 0.05 * p.step_seconds and measured_samples_per_s < lab.samples_per_s:
        return "overlap"
    return "bytes per step"
