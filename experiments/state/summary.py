"""One experiment in a sentence: its NICs, bandwidth, transport and predicted throughput."""

from __future__ import annotations

from dataclasses import dataclass

from components.models.config import ClusterConfig
from experiments.throughput import Prediction, Scenario, Workload, effective_bandwidth, predict

__all__ = ["ExperimentSummary", "NotModelled", "compare", "scenario_for", "summarize"]


class NotModelled(ValueError):
    """The stack's training setup is outside what the throughput model describes."""


def scenario_for(cfg: ClusterConfig) -> Scenario:
    """The throughput model's view of a stack's config, its job settings included."""
    net, training = cfg.network, cfg.job.training
    if training.distributed_training_framework != "fsdp" or training.fsdp_sharding_strategy != "HYBRID_SHARD":
        raise NotModelled(
            f"the throughput model covers FSDP HYBRID_SHARD (the study's setup), not "
            f"{training.distributed_training_framework} {training.fsdp_sharding_strategy}"
        )
    gpus = cfg.job.nproc_per_node or cfg.profile.gpus
    if cfg.nodes.count > 1 and gpus == 1:
        raise NotModelled(
            f"HYBRID_SHARD with one GPU per node on {cfg.nodes.count} nodes never all-reduces the gradients "
            "between the nodes (FSDP1 runs it as NO_SHARD over a one-rank shard group, "
            "pytorch/pytorch#154888): the nodes' replicas train apart, and the model predicts no such run"
        )
    return Scenario(
        profile=cfg.nodes.profile,
        nodes=cfg.nodes.count,
        network=net.variant,
        nics_per_node=net.nics_per_node,
        attached_vnics=net.secondary_nics if net.variant == "vnic" else 0,
        gpus_per_node=cfg.job.nproc_per_node,
        workload=Workload(
            max_batch_len=training.max_batch_len,
            cpu_offload_params=training.cpu_offload_params_fsdp,
            cpu_offload_optimizer=training.cpu_offload_optimizer,
        ),
    )


@dataclass(frozen=True)
class ExperimentSummary:
    stack: str
    nodes: int
    profile: str
    variant: str
    nics_used: int
    bandwidth_gbps_per_node: float
    transport: str
    prediction: Prediction


def summarize(stack: str, cfg: ClusterConfig) -> ExperimentSummary:
    scenario = scenario_for(cfg)
    path = effective_bandwidth(scenario)
    return ExperimentSummary(
        stack=stack,
        nodes=cfg.nodes.count,
        profile=cfg.nodes.profile,
        variant=cfg.network.variant,
        nics_used=cfg.network.nics_per_node,
        bandwidth_gbps_per_node=path.gbps,
        transport=path.transport,
        prediction=predict(scenario),
    )


def _arrow(before: object, after: object) -> str:
    return f"{before}" if before == after else f"{before} → {after}"


def compare(a: ExperimentSummary, b: ExperimentSummary) -> str:
    """The lead paragraph of a diff."""
    ratio = b.prediction.samples_per_s / a.prediction.samples_per_s
    return (
        f"{a.stack} → {b.stack}: {_arrow(f'{a.nodes} x {a.profile}', f'{b.nodes} x {b.profile}')}, "
        f"network {_arrow(a.variant, b.variant)}, NICs used per node {_arrow(a.nics_used, b.nics_used)}, "
        "inter-node bandwidth per node "
        f"{_arrow(f'{a.bandwidth_gbps_per_node:.1f}', f'{b.bandwidth_gbps_per_node:.1f}')} Gbps "
        f"over {_arrow(a.transport, b.transport)}. Predicted throughput "
        f"{a.prediction.samples_per_s:.2f} → {b.prediction.samples_per_s:.2f} samples/s ({ratio:.2f}x), "
        f"GPU utilization {a.prediction.gpu_utilization:.0%} → {b.prediction.gpu_utilization:.0%}."
    )
