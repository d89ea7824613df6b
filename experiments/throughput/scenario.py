"""What is trained where: the workload (InstructLab on granite-3.1-8b) and the scenario (profile, nodes, network)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, get_args

from components.models.catalog import PROFILES, InstanceProfile
from components.models.config import CLUSTER_NETWORK_VARIANTS, NetworkVariant

__all__ = [
    "DEFAULT_CSV",
    "GRANITE_3_1_8B_PARAMS",
    "NetworkVariant",
    "Scenario",
    "Transport",
    "Workload",
    "decoder_params",
]

Transport = Literal["local", "ovn-tcp", "tcp", "rdma"]

DEFAULT_CSV = Path(__file__).with_name("study-throughput.csv")


def decoder_params(vocab: int, hidden: int, layers: int, ffn: int, heads: int, kv_heads: int) -> int:
    """Weights of a Llama-style decoder with tied input/output embeddings and no biases."""
    kv_width = hidden * kv_heads // heads
    attention = 2 * hidden * hidden + 2 * hidden * kv_width  # q and o, then the grouped k and v
    mlp = 3 * hidden * ffn  # SwiGLU: gate, up, down
    norms = 2 * hidden
    return vocab * hidden + layers * (attention + mlp + norms) + hidden


GRANITE_3_1_8B_PARAMS = decoder_params(vocab=49155, hidden=4096, layers=40, ffn=12800, heads=32, kv_heads=8)
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
    """A key of ``components.models.catalog.PROFILES``."""
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
            raise ValueError(
                f"{self.profile} takes at most {facts.max_vnics - 1} secondary vNICs, not {self.secondary_vnics}"
            )
        if not self.multi_node:
            return
        if self.network != "pod" and self.nics_per_node < 1:
            raise ValueError(f"the {self.network} variant needs at least one NIC per node")
        if self.network == "vnic" and self.nics_per_node > self.secondary_vnics:
            raise ValueError(f"the job uses {self.nics_per_node} vNICs but only {self.secondary_vnics} are attached")
        if self.network in CLUSTER_NETWORK_VARIANTS:
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
