"""The plan's value types: what each Kubernetes component is told to render, as plain data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from components.models.job_config import ElasticConfig, ResourcesConfig
from components.plan.wiring import PodNetworkWiring

__all__ = ["NadSpec", "PodLayout", "RdmaResourceSpec", "SriovNicSpec", "capabilities_for"]


class NadSpec(BaseModel):
    """One secondary network: the pod interface it becomes and the node device behind it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """NAD name, referenced in the pods' ``k8s.v1.cni.cncf.io/networks`` annotation."""
    interface: str
    """The pod interface (``net<k>``), also the suffix of the child resource's name."""
    device: str
    """The NIC's interface name in the node OS."""
    attachment: Literal["host-device", "macvlan"]
    ipam: dict[str, Any]


class SriovNicSpec(BaseModel):
    """One cluster NIC the job uses."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    """Name of the policy and the network, and of the NAD the operator generates."""
    interface: str
    """The pod interface (``net<k>``)."""
    pf_name: str
    """The NIC's interface name in the node OS."""
    resource_name: str
    """Device-plugin resource of this NIC (without prefix)."""
    ipam: dict[str, Any]


class RdmaResourceSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    resource_name: str
    """Resource name without the ``rdma/`` prefix."""
    interface: str
    """The NIC's interface name in the node OS."""


class PodLayout(BaseModel):
    """Everything that shapes a job's pods, decided from validated config and the wiring."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["pytorchjob", "leaderworkerset"]
    namespace: str
    image: str
    image_pull_policy: str
    nodes: int = Field(ge=1)
    nproc_per_node: int = Field(ge=1)
    wiring: PodNetworkWiring
    resources: ResourcesConfig
    shm_size: str
    storage_claim: str
    storage_mount: str
    workloads_config_map: str
    service_account: str
    nccl_env: dict[str, str]
    """The variant's NCCL settings with the user's overrides applied."""
    env: dict[str, str] = Field(default_factory=dict)
    restart_policy: str = "Never"
    backoff_limit: int = 0
    elastic: ElasticConfig | None = None
    master_port: int = 29500

    @property
    def capabilities(self) -> tuple[str, ...]:
        return capabilities_for(self.wiring)


def capabilities_for(wiring: PodNetworkWiring) -> tuple[str, ...]:
    """Linux capabilities a training container needs with this wiring, sorted."""
    needed = set()
    if wiring.rdma:
        needed.add("IPC_LOCK")  # pinning memory for RDMA registration
    if wiring.needs_net_admin:
        needed.add("NET_ADMIN")  # the entrypoint rewrites netN addresses and routes
    return tuple(sorted(needed))
