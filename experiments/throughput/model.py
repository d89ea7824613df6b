"""The step model: per-node bandwidth from IBM's rules, then compute, communication, offload and optimizer time."""

from __future__ import annotations

import math
from dataclasses import dataclass

from components.models.catalog import GPUS, InstanceProfile
from experiments.throughput.parameters import HOST_LINK_GBYTES_S, INTRA_NODE_GBYTES_S, ModelParams, load_params
from experiments.throughput.scenario import Scenario, Transport, Workload

__all__ = [
    "NetworkPath",
    "Prediction",
    "effective_bandwidth",
    "grad_accumulation",
    "predict",
    "tcp_efficiency",
    "vnic_share_gbps",
]


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


def tcp_efficiency(single_flow: float, penalty: float, gpus: int, nics: int) -> float:
    """What TCP keeps of a NIC's rate when the node's ``gpus`` rings spread over ``nics`` NICs: ``single_flow``
    with one ring per NIC, less ``penalty`` for every further ring converging on the same NIC (incast)."""
    flows_per_nic = max(1.0, gpus / nics)
    return single_flow / (1.0 + penalty * (flows_per_nic - 1.0))


def effective_bandwidth(scenario: Scenario, params: ModelParams | None = None) -> NetworkPath:
    """Per-node inter-node path of ``scenario``; a single node gets a ``local`` path of 0 Gbps.

    Every TCP path shares one law: the direct socket path's single-ring efficiency, slowed by the
    same incast penalty per ring sharing a NIC; the pod network is that path through the OVN
    overlay, which keeps ``overlay_efficiency`` of it."""
    p = params if params is not None else load_params()
    facts, g = scenario.profile_facts, scenario.gpus
    if not scenario.multi_node:
        return NetworkPath("local", 0, 0.0, 1.0, 0.0)
    if scenario.network == "pod":
        efficiency = p.overlay_efficiency * tcp_efficiency(p.socket_efficiency, p.tcp_flow_penalty, g, 1)
        share = vnic_share_gbps(facts, scenario.secondary_vnics)
        return NetworkPath("ovn-tcp", 1, share, efficiency, p.ovn_hop_latency_s)
    nics = scenario.nics_per_node
    if scenario.network == "sriov-rdma":
        return NetworkPath("rdma", nics, float(facts.cluster_nic_gbps), p.rdma_efficiency, p.rdma_hop_latency_s)
    line = vnic_share_gbps(facts, scenario.secondary_vnics) if scenario.network == "vnic" else facts.cluster_nic_gbps
    # the node's g rings cannot move more than g ring ceilings, however fast its NICs
    efficiency = min(
        tcp_efficiency(p.socket_efficiency, p.tcp_flow_penalty, g, nics), g * p.tcp_ring_max_gbps / (nics * line)
    )
    return NetworkPath("tcp", nics, float(line), efficiency, p.socket_hop_latency_s)


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
    return float(big * ((a / big) ** sharpness + (b / big) ** sharpness) ** (1.0 / sharpness))


def predict(
    scenario: Scenario, params: ModelParams | None = None, path: NetworkPath | None = None, local_scale: float = 1.0
) -> Prediction:
    """Throughput of ``scenario`` in samples/s and where a step's time goes.

    ``params`` defaults to the committed calibration; ``path`` overrides the inter-node
    path (to ask "what if the nodes had this bandwidth"); ``local_scale`` multiplies the
    node-local time (compute, offload copies, CPU optimizer), for a host measured rather than
    catalogued (``throughput.lab``).
    """
    p = params if params is not None else load_params()
    w = scenario.workload
    gpu_model = scenario.profile_facts.gpu
    g, n = scenario.gpus, scenario.nodes

    accumulation = grad_accumulation(w, scenario.world_size)
    samples_per_step = w.effective_batch_size / accumulation
    tokens_per_gpu = w.avg_tokens_per_sample * samples_per_step / scenario.world_size
    compute = local_scale * 6.0 * w.params * tokens_per_gpu / (GPUS[gpu_model].dense_bf16_tflops * 1e12 * p.mfu)

    shard_bytes = w.gradient_bytes / g
    host = local_scale * 3.0 * shard_bytes / (HOST_LINK_GBYTES_S[gpu_model] * 1e9) if w.cpu_offload_params else 0.0
    optimizer = 0.0
    if w.cpu_offload_optimizer:
        optimizer = local_scale * (w.params / g) / (p.adam_gparams_per_s * 1e9) / accumulation

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
