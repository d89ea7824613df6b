"""A first-principles model of FSDP fine-tuning throughput on IBM Cloud GPU nodes.

The model follows one micro-batch ("step") of InstructLab's FSDP training loop, the
workload of the Red Hat study that ``data/study-throughput.csv`` records:

* **Batching.**  InstructLab fixes the effective batch (3840 samples per optimizer
  step) and picks the smallest gradient accumulation ``a`` whose per-GPU micro-batch
  fits in ``max_batch_len`` tokens.  A step therefore carries ``3840 / a`` samples and
  the optimizer runs once every ``a`` steps; more GPUs mean fewer micro-batches per
  optimizer step, so the optimizer's share of the time grows with the node count.
* **Compute.**  ``6 x params x tokens`` FLOPs per step (forward and backward) at
  ``mfu`` of the GPU's dense BF16 peak; recomputation and kernel efficiency are folded
  into ``mfu``.
* **Host offload.**  Parameters and optimizer state live in host memory.  Every step
  copies each GPU's parameter shard to the device twice (forward, backward) and its
  gradient shard back over PCIe; the CPU Adam update runs once per optimizer step in
  one single-threaded process per GPU (torchrun sets ``OMP_NUM_THREADS=1``).
* **Communication.**  HYBRID_SHARD shards within a node and replicates across nodes.
  Inside a node a step all-gathers the parameters twice and reduce-scatters the
  gradients (NVLink on H100/H200, PCIe on L40S).  Across nodes the gradient shards of
  the ``g`` local ranks are all-reduced by ``g`` independent NCCL rings, so each node
  sends ``2 (n-1)/n x gradient bytes`` per step whatever ``g`` is, plus a per-hop
  latency for each FSDP unit (NCCL's trees keep the hop count logarithmic).
* **Overlap.**  FSDP reduces gradients while the backward pass runs, so a window of
  ``overlap x compute`` seconds hides communication and only the rest is exposed (a
  smooth maximum keeps the fit differentiable).  ``overlap`` is not fitted: it is the
  backward share of the FLOPs with activation recomputation, (2 + 4) / 8.

Inter-node bandwidth comes from the IBM facts in ``components.catalog``: the profile's
network share (75 % of its bandwidth) is split evenly over every attached vNIC, the
primary one included, and one vNIC carries at most 32 Gbps on gen-3 GPU profiles; the
H100/H200 cluster network gives 400 Gbps per SR-IOV virtual function.  What the
transports achieve of that rate is fitted to the study.  TCP paths also lose
efficiency when several rings share one NIC (each of the ``g`` local ranks runs its
own ring, so ``g / nics`` synchronised flows converge on every receiving NIC: TCP
incast); RDMA is taken not to.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Literal, get_args

import numpy as np
from scipy.optimize import least_squares

from components.catalog import GPUS, PROFILES, InstanceProfile

__all__ = [
    "Calibration",
    "CalibrationRow",
    "DEFAULT_CSV",
    "DEFAULT_PARAMS_PATH",
    "FITTED",
    "GRANITE_3_1_8B_PARAMS",
    "ModelParams",
    "NetworkPath",
    "NetworkVariant",
    "Prediction",
    "Scenario",
    "StudyPoint",
    "Workload",
    "calibrate",
    "calibration_table",
    "effective_bandwidth",
    "fit",
    "grad_accumulation",
    "load_params",
    "load_study",
    "predict",
    "recalibrate",
    "save_params",
    "vnic_share_gbps",
]

NetworkVariant = Literal["pod", "vnic", "sriov", "sriov-rdma"]
Transport = Literal["local", "ovn-tcp", "tcp", "rdma"]

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CSV = PROJECT_ROOT / "data" / "study-throughput.csv"
DEFAULT_PARAMS_PATH = Path(__file__).with_name("throughput_params.json")


def _decoder_params(vocab: int, hidden: int, layers: int, ffn: int, heads: int, kv_heads: int) -> int:
    """Weights of a Llama-style decoder with tied input/output embeddings and no biases."""
    kv_width = hidden * kv_heads // heads
    attention = 2 * hidden * hidden + 2 * hidden * kv_width  # q and o, then the grouped k and v
    mlp = 3 * hidden * ffn  # SwiGLU: gate, up, down
    norms = 2 * hidden
    return vocab * hidden + layers * (attention + mlp + norms) + hidden


GRANITE_3_1_8B_PARAMS = _decoder_params(vocab=49155, hidden=4096, layers=40, ffn=12800, heads=32, kv_heads=8)
"""8,170,848,256 weights, from ibm-granite/granite-3.1-8b-instruct ``config.json`` (hidden 4096,
40 layers, FFN 12800, 32 query / 8 KV heads, vocabulary 49155, tied embeddings): the 8.17B
that IBM quotes for its granite-3.x 8B models."""


@dataclass(frozen=True)
class Workload:
    """The training job; the defaults are the study's InstructLab run."""

    model: str = "granite-3.1-8b"
    params: float = GRANITE_3_1_8B_PARAMS
    fsdp_units: int = 40
    """FSDP-wrapped modules, one per decoder block; each costs one collective per phase."""
    bytes_per_param: int = 2
    """bf16: InstructLab loads the weights in bf16, so gradients and offloaded shards are 2 bytes."""
    samples: int = 9872
    avg_tokens_per_sample: float = 1483.0
    max_batch_len: int = 35000
    """Token budget of one GPU's micro-batch (``--max_batch_len``)."""
    effective_batch_size: int = 3840
    """Samples per optimizer step (``effective_batch_size`` of TOPSAIL's ilab config)."""
    sharding: Literal["HYBRID_SHARD"] = "HYBRID_SHARD"
    cpu_offload_params: bool = True
    cpu_offload_optimizer: bool = True

    def __post_init__(self) -> None:
        if self.sharding != "HYBRID_SHARD":
            raise ValueError(f"only FSDP HYBRID_SHARD is modelled, not {self.sharding!r}")
        if self.params <= 0 or self.avg_tokens_per_sample <= 0 or self.max_batch_len <= 0:
            raise ValueError("params, avg_tokens_per_sample and max_batch_len must be positive")
        if min(self.effective_batch_size, self.samples, self.fsdp_units, self.bytes_per_param) < 1:
            raise ValueError("effective_batch_size, samples, fsdp_units and bytes_per_param must be at least 1")

    @property
    def gradient_bytes(self) -> float:
        return self.params * self.bytes_per_param


@dataclass(frozen=True)
class Scenario:
    """One cluster shape: instance profile, node count and how the nodes reach each other."""

    profile: str
    """A key of ``components.catalog.PROFILES``."""
    nodes: int
    network: NetworkVariant = "pod"
    """Ignored for a single node, which has no inter-node traffic."""
    nics_per_node: int = 0
    """NICs the job uses on every node (the ``NCCL_SOCKET_IFNAME`` / ``NCCL_IB_HCA`` entries)."""
    attached_vnics: int | None = None
    """Secondary VPC vNICs attached to every node, used or not; default ``nics_per_node`` for
    ``vnic``, else 0.  IBM splits the network share over all of them and the primary."""
    gpus_per_node: int | None = None
    """GPUs the job uses per node (``nproc_per_node``); default: all of the profile's."""
    workload: Workload = field(default_factory=Workload)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(f"unknown profile {self.profile!r}; known: {', '.join(PROFILES)}")
        if self.network not in get_args(NetworkVariant):
            raise ValueError(f"unknown network variant {self.network!r}; known: {', '.join(get_args(NetworkVariant))}")
        if self.nodes < 1:
            raise ValueError("nodes must be at least 1")
        if self.nics_per_node < 0 or (self.attached_vnics is not None and self.attached_vnics < 0):
            raise ValueError("NIC counts cannot be negative")
        facts = self.profile_facts
        if not 1 <= self.gpus <= facts.gpus:
            raise ValueError(f"{self.profile} has {facts.gpus} GPUs, not {self.gpus}")
        if self.secondary_vnics > facts.max_vnics - 1:
            raise ValueError(f"{self.profile} takes at most {facts.max_vnics - 1} secondary vNICs, "
                             f"not {self.secondary_vnics}")
        if not self.multi_node:
            return
        if self.network != "pod" and self.nics_per_node < 1:
            raise ValueError(f"the {self.network} variant needs at least one NIC per node")
        if self.network == "vnic" and self.nics_per_node > self.secondary_vnics:
            raise ValueError(f"the job uses {self.nics_per_node} vNICs but only {self.secondary_vnics} are attached")
        if self.network in ("sriov", "sriov-rdma"):
            if not facts.supports_cluster_network:
                raise ValueError(f"{self.profile} has no cluster network, so no {self.network}")
            if self.nics_per_node > max(facts.cluster_nic_counts):
                raise ValueError(f"{self.profile} takes at most {max(facts.cluster_nic_counts)} cluster NICs")

    @property
    def profile_facts(self) -> InstanceProfile:
        return PROFILES[self.profile]

    @property
    def gpus(self) -> int:
        return self.gpus_per_node if self.gpus_per_node is not None else PROFILES[self.profile].gpus

    @property
    def secondary_vnics(self) -> int:
        if self.attached_vnics is not None:
            return self.attached_vnics
        return self.nics_per_node if self.network == "vnic" else 0

    @property
    def multi_node(self) -> bool:
        return self.nodes > 1

    @property
    def world_size(self) -> int:
        return self.nodes * self.gpus


# --- parameters ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ModelParams:
    """Fitted parameters (first block; the defaults are the fit's neutral start) and fixed constants."""

    mfu: float = 0.3
    """Model FLOPs utilisation of the GPU's dense BF16 peak during forward and backward."""
    pod_efficiency: float = 0.3
    """Share of the primary vNIC's rate NCCL reaches through the OVN overlay with one ring."""
    pod_flow_penalty: float = 0.0
    """Overlay slow-down per extra ring sharing the primary vNIC: efficiency / (1 + k (flows - 1))."""
    socket_efficiency: float = 0.5
    """Share of a NIC's rate NCCL's TCP socket transport reaches (vNIC or SR-IOV VF) with one ring per NIC."""
    socket_flow_penalty: float = 0.0
    """The same slow-down for the direct (non-overlay) TCP path."""
    adam_gparams_per_s: float = 0.2
    """CPU Adam rate of one single-threaded rank, in 1e9 parameters per second."""

    overlap: float = 0.75
    """Share of a step's compute that can hide communication: the backward pass with recomputation."""
    rdma_efficiency: float = 0.9
    """RoCEv2 with GPUDirect reaches ~90 % of line rate in NCCL; the study cannot resolve it
    (its SR-IOV runs hide the network entirely), so it is fixed, not fitted."""
    ovn_hop_latency_s: float = 100e-6
    socket_hop_latency_s: float = 50e-6
    rdma_hop_latency_s: float = 10e-6
    overlap_sharpness: float = 4.0
    """Exponent of the smooth maximum between communication and the overlap window."""

    def fitted(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in FITTED}

    def fixed(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in FITTED}


FITTED: tuple[str, ...] = (
    "mfu", "pod_efficiency", "pod_flow_penalty", "socket_efficiency", "socket_flow_penalty", "adam_gparams_per_s",
)
BOUNDS: dict[str, tuple[float, float]] = {
    "mfu": (0.02, 0.7),
    "pod_efficiency": (0.005, 1.0),
    "pod_flow_penalty": (0.0, 10.0),
    "socket_efficiency": (0.005, 1.0),
    "socket_flow_penalty": (0.0, 10.0),
    "adam_gparams_per_s": (0.005, 10.0),
}

# Host<->device and intra-node links per GPU model, achieved GB/s one way.  L40S: PCIe Gen4 x16 and
# no NVLink, so peer traffic crosses PCIe too.  H100/H200 SXM: PCIe Gen5 x16 to the host, NVLink 4
# inside the node (NCCL all-gather / reduce-scatter bus bandwidth around 360 GB/s).
HOST_LINK_GBYTES_S: dict[str, float] = {"L40S": 25.0, "H100": 50.0, "H200": 50.0}
INTRA_NODE_GBYTES_S: dict[str, float] = {"L40S": 20.0, "H100": 360.0, "H200": 360.0}


# --- network ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NetworkPath:
    """What one node gets for inter-node traffic."""

    transport: Transport
    nics: int
    """NICs carrying the traffic."""
    line_gbps_per_nic: float
    """Rate IBM grants each of those NICs (after the even split and the single-NIC cap)."""
    efficiency: float
    """Share of that rate the transport achieves."""
    hop_latency_s: float
    """Per ring/tree hop of one collective."""

    @property
    def line_gbps(self) -> float:
        return self.nics * self.line_gbps_per_nic

    @property
    def gbps(self) -> float:
        """Achieved inter-node bandwidth per node, each direction."""
        return self.line_gbps * self.efficiency


def vnic_share_gbps(profile: InstanceProfile, secondary_vnics: int) -> float:
    """IBM's rate per vNIC: the network share split evenly over all vNICs (primary included), capped."""
    return min(profile.network_share_gbps / (secondary_vnics + 1), float(profile.max_single_nic_gbps))


def _tcp_efficiency(base: float, penalty: float, gpus: int, nics: int) -> float:
    flows_per_nic = max(1.0, gpus / nics)
    return base / (1.0 + penalty * (flows_per_nic - 1.0))


def effective_bandwidth(scenario: Scenario, params: ModelParams | None = None) -> NetworkPath:
    """Per-node inter-node path of ``scenario``; a single node gets a ``local`` path of 0 Gbps."""
    p = params if params is not None else load_params()
    facts, g = scenario.profile_facts, scenario.gpus
    if not scenario.multi_node:
        return NetworkPath("local", 0, 0.0, 1.0, 0.0)
    if scenario.network == "pod":
        efficiency = _tcp_efficiency(p.pod_efficiency, p.pod_flow_penalty, g, 1)
        share = vnic_share_gbps(facts, scenario.secondary_vnics)
        return NetworkPath("ovn-tcp", 1, share, efficiency, p.ovn_hop_latency_s)
    nics = scenario.nics_per_node
    if scenario.network == "vnic":
        efficiency = _tcp_efficiency(p.socket_efficiency, p.socket_flow_penalty, g, nics)
        return NetworkPath("tcp", nics, vnic_share_gbps(facts, scenario.secondary_vnics), efficiency,
                           p.socket_hop_latency_s)
    line = float(facts.cluster_nic_gbps)
    if scenario.network == "sriov":
        efficiency = _tcp_efficiency(p.socket_efficiency, p.socket_flow_penalty, g, nics)
        return NetworkPath("tcp", nics, line, efficiency, p.socket_hop_latency_s)
    return NetworkPath("rdma", nics, line, p.rdma_efficiency, p.rdma_hop_latency_s)


# --- the step model -----------------------------------------------------------------------------------

def grad_accumulation(workload: Workload, world_size: int) -> int:
    """InstructLab's rule: the fewest accumulation steps whose per-GPU micro-batch fits ``max_batch_len``."""
    tokens = workload.avg_tokens_per_sample * workload.effective_batch_size
    accumulation = max(1, math.ceil(tokens / (world_size * (workload.max_batch_len + 1))))
    while int(tokens / (accumulation * world_size)) > workload.max_batch_len:
        accumulation += 1
    return accumulation


@dataclass(frozen=True)
class Prediction:
    samples_per_s: float
    step_seconds: float
    """Wall time of one micro-batch step, the amortised optimizer update included."""
    compute_seconds: float
    """GPU forward and backward time of one step."""
    communication_seconds: float
    """Intra- plus inter-node collective time of one step, before overlap."""
    exposed_communication_seconds: float
    """The part of ``communication_seconds`` the backward pass does not hide."""
    gpu_utilization: float
    """Compute time over step time (relative to the achieved compute rate, i.e. to ``mfu``)."""
    bandwidth_gbps_per_node: float
    transport: Transport
    bottleneck: str
    """The largest share of the step: compute, network, host-offload or cpu-optimizer."""
    host_offload_seconds: float
    optimizer_seconds: float
    """The CPU Adam update divided over the accumulation steps."""
    samples_per_step: float
    grad_accumulation: int
    epoch_seconds: float


def _smooth_max(a: float, b: float, sharpness: float) -> float:
    big = max(a, b)
    if big <= 0.0:
        return 0.0
    return big * ((a / big) ** sharpness + (b / big) ** sharpness) ** (1.0 / sharpness)


def predict(scenario: Scenario, params: ModelParams | None = None, path: NetworkPath | None = None) -> Prediction:
    """Throughput of ``scenario`` in samples/s and where a step's time goes.

    ``params`` defaults to the committed calibration; ``path`` overrides the inter-node
    path (to ask "what if the nodes had this bandwidth").
    """
    p = params if params is not None else load_params()
    w = scenario.workload
    gpu_model = scenario.profile_facts.gpu
    g, n = scenario.gpus, scenario.nodes

    accumulation = grad_accumulation(w, scenario.world_size)
    samples_per_step = w.effective_batch_size / accumulation
    tokens_per_gpu = w.avg_tokens_per_sample * samples_per_step / scenario.world_size
    compute = 6.0 * w.params * tokens_per_gpu / (GPUS[gpu_model].dense_bf16_tflops * 1e12 * p.mfu)

    shard_bytes = w.gradient_bytes / g
    host = 3.0 * shard_bytes / (HOST_LINK_GBYTES_S[gpu_model] * 1e9) if w.cpu_offload_params else 0.0
    optimizer = 0.0
    if w.cpu_offload_optimizer:
        optimizer = (w.params / g) / (p.adam_gparams_per_s * 1e9) / accumulation

    intra = 0.0
    if g > 1:  # two all-gathers of the parameters and a reduce-scatter of the gradients
        intra = 3.0 * (g - 1) / g * w.gradient_bytes / (INTRA_NODE_GBYTES_S[gpu_model] * 1e9)
    net = path if path is not None else effective_bandwidth(scenario, p)
    inter = 0.0
    if n > 1:
        if net.gbps <= 0.0:
            raise ValueError("a multi-node scenario needs a network path with positive bandwidth")
        ring_bytes = 2.0 * (n - 1) / n * w.gradient_bytes
        hops = min(2.0 * (n - 1), 2.0 * math.log2(n))  # ring, or NCCL's trees at scale
        inter = ring_bytes * 8.0 / (net.gbps * 1e9) + w.fsdp_units * hops * net.hop_latency_s
    communication = intra + inter
    window = p.overlap * compute
    exposed = max(0.0, _smooth_max(communication, window, p.overlap_sharpness) - window)

    step = compute + host + optimizer + exposed
    shares = {"compute": compute, "network": exposed, "host-offload": host, "cpu-optimizer": optimizer}
    samples_per_s = samples_per_step / step
    return Prediction(
        samples_per_s=samples_per_s,
        step_seconds=step,
        compute_seconds=compute,
        communication_seconds=communication,
        exposed_communication_seconds=exposed,
        gpu_utilization=compute / step,
        bandwidth_gbps_per_node=net.gbps if n > 1 else 0.0,
        transport=net.transport if n > 1 else "local",
        bottleneck=max(shares, key=shares.__getitem__),
        host_offload_seconds=host,
        optimizer_seconds=optimizer,
        samples_per_step=samples_per_step,
        grad_accumulation=accumulation,
        epoch_seconds=w.samples / samples_per_s,
    )


# --- calibration --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StudyPoint:
    cluster: str
    scenario: Scenario
    measured: float
    """samples/s"""

    @property
    def variant(self) -> str:
        return self.scenario.network if self.scenario.multi_node else "none"

    @property
    def label(self) -> str:
        s = self.scenario
        nics = f" x{s.nics_per_node}" if s.multi_node and s.network != "pod" else ""
        return f"{self.cluster} {s.nodes}n {self.variant}{nics}"


def load_study(csv_path: Path | str = DEFAULT_CSV) -> list[StudyPoint]:
    """The study's measured points as scenarios (``network=none`` marks a single node)."""
    points: list[StudyPoint] = []
    with Path(csv_path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            network = "pod" if row["network"] == "none" else row["network"]
            if network not in get_args(NetworkVariant):
                raise ValueError(f"{csv_path}: unknown network {row['network']!r}")
            scenario = Scenario(
                profile=row["profile"],
                nodes=int(row["nodes"]),
                network=network,  # type: ignore[arg-type]  # checked just above
                nics_per_node=int(row["nics_per_node"]),
                gpus_per_node=int(row["gpus_per_node"]),
            )
            points.append(StudyPoint(row["cluster"], scenario, float(row["samples_per_s"])))
    return points


@dataclass(frozen=True)
class CalibrationRow:
    point: StudyPoint
    predicted: float
    loo_predicted: float
    """Predicted by a fit on the other rows only."""

    @property
    def measured(self) -> float:
        return self.point.measured

    @property
    def error_pct(self) -> float:
        return 100.0 * (self.predicted - self.measured) / self.measured

    @property
    def loo_error_pct(self) -> float:
        return 100.0 * (self.loo_predicted - self.measured) / self.measured


@dataclass(frozen=True)
class Calibration:
    params: ModelParams
    rows: tuple[CalibrationRow, ...]

    @property
    def mape_pct(self) -> float:
        return float(np.mean([abs(r.error_pct) for r in self.rows]))

    @property
    def max_abs_error_pct(self) -> float:
        return max(abs(r.error_pct) for r in self.rows)

    @property
    def loo_mape_pct(self) -> float:
        return float(np.mean([abs(r.loo_error_pct) for r in self.rows]))

    @property
    def loo_max_abs_error_pct(self) -> float:
        return max(abs(r.loo_error_pct) for r in self.rows)


PRIOR_WEIGHT = 0.03
"""Weight of a weak pull of every fitted parameter towards its neutral default, in log space.

Twelve measurements do not pin six parameters in every direction: without the H100 vNIC row
nothing constrains ``socket_flow_penalty``, without the H100 pod row little constrains
``pod_flow_penalty``.  Plain least squares then stops wherever the optimizer's path, and with
it the CPU's floating point and BLAS, happens to leave it, so a leave-one-out refit differed
between machines.  The pull makes the objective strictly convex along such flat directions:
the optimum is unique, every start and every machine reaches it, and where the data do speak
it moves the fit by less than the optimizer's own noise on the in-sample error."""
PENALTY_OFFSET = 0.1
"""Penalties default to 0 (no slow-down); their log-space coordinate is ``log(x + 0.1)``."""
FIT_TOLERANCE = 1e-12
"""``least_squares``' x/f/g tolerances: the fitted parameters agree to about 1e-6 relative
across starts and machines, so comparisons use 1e-4 and printed figures are rounded coarser."""


def _offsets() -> np.ndarray:
    return np.array([PENALTY_OFFSET if name.endswith("_penalty") else 0.0 for name in FITTED])


def fit(points: Sequence[StudyPoint], fixed: ModelParams | None = None, start: float | None = None) -> ModelParams:
    """Regularised least squares on log(samples/s) over ``points``; parameters stay inside ``BOUNDS``.

    Coordinates are ``log(x + offset)`` (well conditioned: every parameter moves in relative
    terms), and ``PRIOR_WEIGHT`` makes the optimum unique.  The fitted parameters start from the
    neutral defaults (``start`` picks another point, as a fraction of the bounds, for tests that
    show the optimum does not depend on it), so a leave-one-out fit learns nothing from the row
    it leaves out.
    """
    base = fixed if fixed is not None else ModelParams()
    offset = _offsets()
    lower = np.log(np.array([BOUNDS[name][0] for name in FITTED]) + offset)
    upper = np.log(np.array([BOUNDS[name][1] for name in FITTED]) + offset)
    neutral = np.log(np.array([getattr(ModelParams(), name) for name in FITTED]) + offset)
    log_measured = np.log([pt.measured for pt in points])

    def with_values(z: np.ndarray) -> ModelParams:
        values = np.clip(np.exp(z) - offset, [BOUNDS[n][0] for n in FITTED], [BOUNDS[n][1] for n in FITTED])
        return replace(base, **{name: float(v) for name, v in zip(FITTED, values, strict=True)})

    def residuals(z: np.ndarray) -> np.ndarray:
        params = with_values(z)
        errors = np.log([predict(pt.scenario, params).samples_per_s for pt in points]) - log_measured
        return np.concatenate([errors, PRIOR_WEIGHT * (z - neutral)])

    z0 = np.clip(neutral, lower, upper) if start is None else lower + start * (upper - lower)
    result = least_squares(residuals, z0, bounds=(lower, upper), method="trf", xtol=FIT_TOLERANCE,
                           ftol=FIT_TOLERANCE, gtol=FIT_TOLERANCE, max_nfev=5000)
    return with_values(result.x)


def calibrate(csv_path: Path | str = DEFAULT_CSV, fixed: ModelParams | None = None) -> Calibration:
    """Fit on every measured point, then refit without each point in turn to predict it."""
    points = load_study(csv_path)
    params = fit(points, fixed)
    rows = []
    for i, point in enumerate(points):
        loo_params = fit([q for j, q in enumerate(points) if j != i], fixed)
        rows.append(CalibrationRow(
            point=point,
            predicted=predict(point.scenario, params).samples_per_s,
            loo_predicted=predict(point.scenario, loo_params).samples_per_s,
        ))
    return Calibration(params, tuple(rows))


def calibration_table(calibration: Calibration | None = None) -> list[dict[str, object]]:
    """Rows for ``python -m experiments calibrate``: measured, predicted and both errors."""
    cal = calibration if calibration is not None else calibrate()
    return [
        {
            "row": r.point.label,
            "measured": r.measured,
            "predicted": round(r.predicted, 2),
            "error_pct": round(r.error_pct, 1),
            "loo_error_pct": round(r.loo_error_pct, 1),
        }
        for r in cal.rows
    ]


# --- persistence --------------------------------------------------------------------------------------

def save_params(calibration: Calibration, path: Path | str = DEFAULT_PARAMS_PATH) -> Path:
    """Write the fitted parameters, the fixed constants and the calibration errors as JSON."""
    payload = {
        "source": "data/study-throughput.csv, fitted by experiments.throughput.calibrate",
        "fitted": calibration.params.fitted(),
        "fixed": calibration.params.fixed(),
        "in_sample": {"mape_pct": calibration.mape_pct, "max_abs_error_pct": calibration.max_abs_error_pct},
        "leave_one_out": {"mape_pct": calibration.loo_mape_pct,
                          "max_abs_error_pct": calibration.loo_max_abs_error_pct},
    }
    out = Path(path)
    out.write_text(json.dumps(payload, indent=2) + "\n")
    _LOADED.pop(out.resolve(), None)
    return out


def recalibrate(csv_path: Path | str = DEFAULT_CSV, params_path: Path | str = DEFAULT_PARAMS_PATH) -> Calibration:
    """Calibrate and save the parameters where ``predict`` loads them by default."""
    calibration = calibrate(csv_path)
    save_params(calibration, params_path)
    return calibration


_LOADED: dict[Path, ModelParams] = {}


def load_params(path: Path | str = DEFAULT_PARAMS_PATH) -> ModelParams:
    """The saved calibration (cached per file)."""
    key = Path(path).resolve()
    if key not in _LOADED:
        payload = json.loads(key.read_text())
        known = {f.name for f in fields(ModelParams)}
        values = {**payload["fixed"], **payload["fitted"]}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"{path}: unknown model parameters {sorted(unknown)}")
        _LOADED[key] = ModelParams(**values)
    return _LOADED[key]
