"""A first-principles model of FSDP fine-tuning throughput on IBM Cloud GPU nodes.

The model follows one micro-batch ("step") of InstructLab's FSDP training loop, the
workload of the Red Hat study (``data/study-throughput.csv``):

* **Batching.**  InstructLab fixes the effective batch (3840 samples) and picks the
  smallest gradient accumulation ``a`` whose per-GPU micro-batch fits in
  ``max_batch_len`` tokens.  A step therefore carries ``EBS / a`` samples, and the
  CPU optimizer runs once every ``a`` steps.  More GPUs mean fewer micro-batches per
  optimizer step, so the optimizer's share of the time grows with the node count.
* **Compute.**  ``6 x params x tokens`` FLOPs per step for forward plus backward, at
  ``mfu`` of the GPU's dense BF16 peak (recomputation and kernel efficiency are
  folded into ``mfu``).
* **Host offload.**  Parameters and optimizer state live in host memory: every step
  copies each GPU's parameter shard to the device twice (forward, backward) and its
  gradient shard back, over PCIe; the CPU Adam update runs once per optimizer step,
  one single-threaded process per GPU (torchrun sets ``OMP_NUM_THREADS=1``).
* **Communication.**  HYBRID_SHARD shards within a node and replicates across nodes.
  Inside a node every step all-gathers the parameters twice and reduce-scatters the
  gradients (NVLink on H100/H200, PCIe on L40S).  Across nodes the gradient shards
  of the ``g`` local ranks are all-reduced by ``g`` independent NCCL rings, so each
  node sends ``2 (n-1)/n x gradient bytes`` per step, plus ``2 (n-1)`` ring hops of
  latency per FSDP unit.
* **Overlap.**  FSDP overlaps the gradient reduction with the backward pass: a
  window of ``overlap x compute`` seconds hides communication, the rest is exposed
  (a smooth maximum keeps the fit differentiable).

The inter-node bandwidth comes from the IBM facts in ``components.catalog``: the
profile's network share (75 % of its bandwidth) is split evenly over every attached
vNIC, the primary one included, and one vNIC carries at most 32 Gbps on gen-3 GPU
profiles; the H100/H200 cluster network gives 400 Gbps per SR-IOV virtual function.
Transport efficiencies (OVN overlay, TCP sockets, RDMA) are fitted to the study.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
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
    "grad_accumulation",
    "load_params",
    "load_study",
    "predict",
    "save_params",
]

NetworkVariant = Literal["pod", "vnic", "sriov", "sriov-rdma"]
Transport = Literal["local", "ovn-tcp", "tcp", "rdma"]

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CSV = PROJECT_ROOT / "data" / "study-throughput.csv"
DEFAULT_PARAMS_PATH = Path(__file__).with_name("throughput_params.json")


def _decoder_params(vocab: int, hidden: int, layers: int, ffn: int, heads: int, kv_heads: int) -> int:
    """Weights of a Llama-style decoder with tied input/output embeddings and no biases."""
    kv_width = hidden * kv_heads // heads
    attention = 2 * hidden * hidden + 2 * hidden * kv_width  # q, o and the grouped k, v projections
    mlp = 3 * hidden * ffn  # gate, up, down (SwiGLU)
    norms = 2 * hidden
    return vocab * hidden + layers * (attention + mlp + norms) + hidden


GRANITE_3_1_8B_PARAMS = _decoder_params(vocab=49155, hidden=4096, layers=40, ffn=12800, heads=32, kv_heads=8)
"""8,170,848,256: ibm-granite/granite-3.1-8b-instruct ``config.json`` (hidden 4096, 40 layers,
FFN 12800, 32 heads / 8 KV heads, vocabulary 49155, tied embeddings), i.e. the "8.17B"
IBM quotes for the granite-3.x 8B models."""


@dataclass(frozen=True)
class Workload:
    """The training job; the defaults are the study's InstructLab run."""

    model: str = "granite-3.1-8b"
    params: float = GRANITE_3_1_8B_PARAMS
    fsdp_units: int = 40
    """FSDP-wrapped modules (one per decoder block): each is one collective per phase."""
    bytes_per_param: int = 2
    """bf16: weights are loaded in bf16, so gradients and offloaded shards are 2 bytes."""
    samples: int = 9872
    avg_tokens_per_sample: float = 1483.0
    max_batch_len: int = 35000
    """Token budget of one GPU's micro-batch (``--max_batch_len``)."""
    effective_batch_size: int = 3840
    """Samples per optimizer step (TOPSAIL's ilab preset)."""
    sharding: Literal["HYBRID_SHARD"] = "HYBRID_SHARD"
    cpu_offload_params: bool = True
    cpu_offload_optimizer: bool = True

    def __post_init__(self) -> None:
        if self.sharding != "HYBRID_SHARD":
            raise ValueError(f"only FSDP HYBRID_SHARD is modelled, not {self.sharding!r}")
        if self.params <= 0 or self.avg_tokens_per_sample <= 0 or self.max_batch_len <= 0:
            raise ValueError("params, avg_tokens_per_sample and max_batch_len must be positive")
        if self.effective_batch_size < 1 or self.samples < 1 or self.fsdp_units < 1:
            raise ValueError("effective_batch_size, samples and fsdp_units must be at least 1")

    @property
    def gradient_bytes(self) -> float:
        return self.params * self.bytes_per_param


@dataclass(frozen=True)
class Scenario:
    """One cluster shape: profile, node count and how nodes reach each other."""

    profile: str
    nodes: int
    network: NetworkVariant = "pod"
    nics_per_node: int = 0
    """NICs the job uses on every node (``NCCL_SOCKET_IFNAME`` / ``NCCL_IB_HCA`` entries)."""
    attached_vnics: int | None = None
    """Secondary VPC vNICs attached to every node; default: ``nics_per_node`` for ``vnic``, else 0."""
    gpus_per_node: int | None = None
    """GPUs the job uses per node (``nproc_per_node``); default: all of the profile's."""
    workload: Workload = field(default_factory=Workload)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(f"unknown profile {self.profile!r}; known: {', '.join(PROFILES)}")
        if self.network not in get_args(NetworkVariant):
            raise ValueError(f"unknown network variant {self.network!r}")
        if self.nodes < 1:
            raise ValueError("nodes must be at least 1")
        if self.nics_per_node < 0 or (self.attached_vnics is not None and self.attached_vnics < 0):
            raise ValueError("NIC counts cannot be negative")
        if not 1 <= self.gpus <= self.profile_facts.gpus:
            raise ValueError(f"{self.profile} has {self.profile_facts.gpus} GPUs, not {self.gpus}")
        if self.multi_node and self.network != "pod" and self.nics_per_node < 1:
            raise ValueError(f"the {self.network} variant needs at least one NIC per node")
        if self.multi_node and self.network in ("sriov", "sriov-rdma") and not self.profile_facts.supports_cluster_network:
            raise ValueError(f"{self.profile} has no cluster network, so no {self.network}")

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


# --- fitted and fixed physical parameters -------------------------------------------------------------

@dataclass(frozen=True)
class ModelParams:
    """The fitted parameters (first block) and fixed physical constants (second block)."""

    mfu: float = 0.25
    """Model FLOPs utilisation of the GPU's dense BF16 peak during forward/backward."""
    overlap: float = 0.5
    """Fraction of a step's GPU compute that can hide communication (FSDP overlaps the backward)."""
    pod_efficiency: float = 0.2
    """Share of the primary vNIC's rate that NCCL gets through the OVN overlay (Geneve, TCP)."""
    socket_efficiency: float = 0.3
    """Share of a NIC's rate that NCCL's TCP socket transport achieves (vNIC or SR-IOV VF)."""
    adam_gparams_per_s: float = 0.2
    """CPU Adam throughput of one single-threaded rank, in 1e9 parameters per second."""
    step_overhead_s: float = 0.0
    """Fixed per-step cost (data loading, loss all-reduce, logging)."""

    rdma_efficiency: float = 0.9
    """RoCEv2 with GPUDirect reaches ~90 % of line rate in NCCL; the study cannot tell (hidden)."""
    ovn_hop_latency_s: float = 100e-6
    socket_hop_latency_s: float = 50e-6
    rdma_hop_latency_s: float = 10e-6
    overlap_sharpness: float = 4.0
    """Exponent of the smooth maximum between communication and the overlap window."""

    def fitted(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in FITTED}


FITTED: tuple[str, ...] = (
    "mfu", "overlap", "pod_efficiency", "socket_efficiency", "adam_gparams_per_s", "step_overhead_s",
)
BOUNDS: dict[str, tuple[float, float]] = {
    "mfu": (0.02, 0.7),
    "overlap": (0.0, 0.75),  # backward with recompute is at most ~3/4 of forward+backward
    "pod_efficiency": (0.005, 1.0),
    "socket_efficiency": (0.005, 1.0),
    "adam_gparams_per_s": (0.005, 10.0),
    "step_overhead_s": (0.0, 30.0),
}

# Host<->device and intra-node links, per GPU model (GB/s achieved, one direction).
# L40S: PCIe Gen4 x16, no NVLink, peer traffic bounces through the host.  H100/H200 SXM: PCIe Gen5
# x16 to the host and NVLink 4 (NCCL all-gather/reduce-scatter bus bandwidth ~360 GB/s).
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
    """Rate IBM grants each NIC (after the even split and the single-NIC cap)."""
    efficiency: float
    """Share of that rate the transport achieves."""
    latency_s: float
    """Per ring hop."""

    @property
    def line_gbps(self) -> float:
        return self.nics * self.line_gbps_per_nic

    @property
    def gbps(self) -> float:
        """Achieved inter-node bandwidth per node, each direction."""
        return self.line_gbps * self.efficiency


def vnic_share_gbps(profile: InstanceProfile, secondary_vnics: int) -> float:
    """IBM's per-vNIC rate: the network share split evenly over all vNICs (primary included), capped."""
    return min(profile.network_share_gbps / (secondary_vnics + 1), profile.max_single_nic_gbps)


def effective_bandwidth(scenario: Scenario, params: ModelParams | None = None) -> NetworkPath:
    """Per-node inter-node path for ``scenario`` (a single node has none)."""
    p = params if params is not None else load_params()
    profile = scenario.profile_facts
    if not scenario.multi_node:
        return NetworkPath("local", 0, 0.0, 1.0, 0.0)
    if scenario.network == "pod":
        share = vnic_share_gbps(profile, scenario.secondary_vnics)
        return NetworkPath("ovn-tcp", 1, share, p.pod_efficiency, p.ovn_hop_latency_s)
    if scenario.network == "vnic":
        nics = min(scenario.nics_per_node, scenario.secondary_vnics)
        if nics < 1:
            raise ValueError("a vnic scenario needs its NICs attached (attached_vnics >= 1)")
        share = vnic_share_gbps(profile, scenario.secondary_vnics)
        return NetworkPath("tcp", nics, share, p.socket_efficiency, p.socket_hop_latency_s)
    line = float(profile.cluster_nic_gbps)
    if scenario.network == "sriov":
        return NetworkPath("tcp", scenario.nics_per_node, line, p.socket_efficiency, p.socket_hop_latency_s)
    return NetworkPath("rdma", scenario.nics_per_node, line, p.rdma_efficiency, p.rdma_hop_latency_s)


# --- the step model -----------------------------------------------------------------------------------

def grad_accumulation(workload: Workload, world_size: int) -> int:
    """InstructLab's rule: the smallest accumulation whose per-GPU micro-batch fits ``max_batch_len``."""
    # Closed form of InstructLab's search (int(avg * EBS / (a * world)) <= max_batch_len).
    tokens_per_optimizer_step = workload.avg_tokens_per_sample * workload.effective_batch_size
    accumulation = max(1, math.ceil(tokens_per_optimizer_step / (world_size * (workload.max_batch_len + 1))))
    while int(tokens_per_optimizer_step / (accumulation * world_size)) > workload.max_batch_len:
        accumulation += 1
    return accumulation


@dataclass(frozen=True)
class Prediction:
    samples_per_s: float
    step_seconds: float
    """Wall time of one micro-batch step, the amortised optimizer update included."""
    compute_seconds: float
    """GPU forward+backward time of one step."""
    communication_seconds: float
    """Intra- plus inter-node collective time of one step, before overlap."""
    exposed_communication_seconds: float
    gpu_utilization: float
    """Compute time over step time (relative to the achieved compute rate)."""
    bandwidth_gbps_per_node: float
    transport: Transport
    bottleneck: str
    host_offload_seconds: float = 0.0
    optimizer_seconds: float = 0.0
    """Per step: the CPU Adam update divided by the accumulation steps."""
    samples_per_step: float = 0.0
    grad_accumulation: int = 1


def _smooth_max(a: float, b: float, sharpness: float) -> float:
    if a <= 0.0:
        return b
    if b <= 0.0:
        return a
    big = max(a, b)
    return big * ((a / big) ** sharpness + (b / big) ** sharpness) ** (1.0 / sharpness)


def predict(scenario: Scenario, params: ModelParams | None = None) -> Prediction:
    """Throughput of ``scenario`` (samples/s) and where each step's time goes."""
    p = params if params is not None else load_params()
    w = scenario.workload
    gpu_model = scenario.profile_facts.gpu
    g, n = scenario.gpus, scenario.nodes

    accumulation = grad_accumulation(w, scenario.world_size)
    samples_per_step = w.effective_batch_size / accumulation
    tokens_per_gpu = w.avg_tokens_per_sample * samples_per_step / scenario.world_size

    peak_flops = GPUS[gpu_model].dense_bf16_tflops * 1e12
    compute = 6.0 * w.params * tokens_per_gpu / (peak_flops * p.mfu)

    shard_bytes = w.gradient_bytes / g
    host = 0.0
    if w.cpu_offload_params:
        # parameter shard in for forward and again for backward, gradient shard out
        host = 3.0 * shard_bytes / (HOST_LINK_GBYTES_S[gpu_model] * 1e9)
    optimizer = 0.0
    if w.cpu_offload_optimizer:
        optimizer = (w.params / g) / (p.adam_gparams_per_s * 1e9) / accumulation

    # inside the node: two all-gathers of the parameters and one reduce-scatter of the gradients
    intra = 3.0 * (g - 1) / g * w.gradient_bytes / (INTRA_NODE_GBYTES_S[gpu_model] * 1e9) if g > 1 else 0.0

    path = effective_bandwidth(scenario, p)
    inter = 0.0
    if n > 1:
        ring_bytes = 2.0 * (n - 1) / n * w.gradient_bytes
        inter = ring_bytes * 8.0 / (path.gbps * 1e9) + w.fsdp_units * 2 * (n - 1) * path.latency_s
    communication = intra + inter
    window = p.overlap * compute
    exposed = _smooth_max(communication, window, p.overlap_sharpness) - window

    step = compute + host + optimizer + exposed + p.step_overhead_s
    parts = {
        "compute": compute,
        "network": exposed,
        "host-offload": host,
        "cpu-optimizer": optimizer,
        "overhead": p.step_overhead_s,
    }
    return Prediction(
        samples_per_s=samples_per_step / step,
        step_seconds=step,
        compute_seconds=compute,
        communication_seconds=communication,
        exposed_communication_seconds=exposed,
        gpu_utilization=compute / step,
        bandwidth_gbps_per_node=path.gbps,
        transport=path.transport,
        bottleneck=max(parts, key=lambda k: parts[k]),
        host_offload_seconds=host,
        optimizer_seconds=optimizer,
        samples_per_step=samples_per_step,
        grad_accumulation=accumulation,
    )


# --- calibration --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StudyPoint:
    cluster: str
    scenario: Scenario
    measured: float

    @property
    def label(self) -> str:
        s = self.scenario
        variant = s.network if s.multi_node else "single"
        nics = f" x{s.nics_per_node}" if s.multi_node and s.network != "pod" else ""
        return f"{self.cluster} {s.nodes}n {variant}{nics}"


def load_study(csv_path: Path | str = DEFAULT_CSV) -> list[StudyPoint]:
    """The study's measured points as scenarios (``network=none`` is a single node)."""
    points: list[StudyPoint] = []
    with Path(csv_path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            network = row["network"]
            scenario = Scenario(
                profile=row["profile"],
                nodes=int(row["nodes"]),
                network="pod" if network == "none" else network,  # type: ignore[arg-type]
                nics_per_node=int(row["nics_per_node"]),
                gpus_per_node=int(row["gpus_per_node"]),
            )
            points.append(StudyPoint(row["cluster"], scenario, float(row["samples_per_s"])))
    return points


@dataclass(frozen=True)
class CalibrationRow:
    label: str
    cluster: str
    nodes: int
    network: str
    nics_per_node: int
    measured: float
    predicted: float
    loo_predicted: float

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
        return float(max(abs(r.error_pct) for r in self.rows))

    @property
    def loo_mape_pct(self) -> float:
        return float(np.mean([abs(r.loo_error_pct) for r in self.rows]))

    @property
    def loo_max_abs_error_pct(self) -> float:
        return float(max(abs(r.loo_error_pct) for r in self.rows))


def _with_fitted(base: ModelParams, values: Sequence[float]) -> ModelParams:
    return replace(base, **{name: float(v) for name, v in zip(FITTED, values, strict=True)})


def fit(points: Sequence[StudyPoint], base: ModelParams | None = None) -> ModelParams:
    """Least squares on log(samples/s) over ``points``, parameters kept inside ``BOUNDS``."""
    start = base if base is not None else ModelParams()
    lower = np.array([BOUNDS[name][0] for name in FITTED])
    upper = np.array([BOUNDS[name][1] for name in FITTED])
    x0 = np.clip(np.array([getattr(start, name) for name in FITTED]), lower, upper)
    log_measured = np.log([pt.measured for pt in points])

    def residuals(x: np.ndarray) -> np.ndarray:
        params = _with_fitted(start, x)
        return np.log([predict(pt.scenario, params).samples_per_s for pt in points]) - log_measured

    best = None
    for trial in _starts(x0, lower, upper):
        result = least_squares(residuals, trial, bounds=(lower, upper), x_scale="jac", method="trf",
                               xtol=1e-12, ftol=1e-12, gtol=1e-12, max_nfev=4000)
        if best is None or result.cost < best.cost - 1e-12:
            best = result
    assert best is not None
    return _with_fitted(start, best.x)


def _starts(x0: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> Iterable[np.ndarray]:
    """A fixed set of starting points (deterministic) so the fit does not hang on a local minimum."""
    yield x0
    for fraction in (0.25, 0.6):
        yield lower + fraction * (upper - lower) * np.where(np.isfinite(upper), 1.0, 0.0)


def calibrate(csv_path: Path | str = DEFAULT_CSV, base: ModelParams | None = None) -> Calibration:
    """Fit on every measured point, then refit leaving each one out to predict it."""
    points = load_study(csv_path)
    params = fit(points, base)
    rows = []
    for i, pt in enumerate(points):
        others = [q for j, q in enumerate(points) if j != i]
        loo_params = fit(others, params)
        s = pt.scenario
        rows.append(CalibrationRow(
            label=pt.label, cluster=pt.cluster, nodes=s.nodes, network=s.network if s.multi_node else "none",
            nics_per_node=s.nics_per_node, measured=pt.measured,
            predicted=predict(s, params).samples_per_s, loo_predicted=predict(s, loo_params).samples_per_s,
        ))
    return Calibration(params, tuple(rows))


def calibration_table(calibration: Calibration | None = None) -> list[dict[str, object]]:
    """Rows for ``python -m experiments calibrate``: measured, predicted and both errors."""
    cal = calibration if calibration is not None else calibrate()
    return [
        {
            "row": r.label,
            "measured": r.measured,
            "predicted": round(r.predicted, 3),
            "error_pct": round(r.error_pct, 1),
            "loo_error_pct": round(r.loo_error_pct, 1),
        }
        for r in cal.rows
    ]


# --- persistence --------------------------------------------------------------------------------------

def save_params(calibration: Calibration, path: Path | str = DEFAULT_PARAMS_PATH) -> Path:
    payload = {
        "fitted": calibration.params.fitted(),
        "fixed": {f.name: getattr(calibration.params, f.name) for f in fields(ModelParams) if f.name not in FITTED},
        "in_sample": {"mape_pct": calibration.mape_pct, "max_abs_error_pct": calibration.max_abs_error_pct},
        "leave_one_out": {"mape_pct": calibration.loo_mape_pct, "max_abs_error_pct": calibration.loo_max_abs_error_pct},
    }
    out = Path(path)
    out.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
    return out


_LOADED: dict[Path, ModelParams] = {}


def load_params(path: Path | str = DEFAULT_PARAMS_PATH) -> ModelParams:
    key = Path(path).resolve()
    if key not in _LOADED:
        payload = json.loads(key.read_text())
        _LOADED[key] = ModelParams(**payload["fixed"], **payload["fitted"])
    return _LOADED[key]


def _unused(*_: Callable[..., object]) -> None:  # pragma: no cover
    asdict  # noqa: B018
