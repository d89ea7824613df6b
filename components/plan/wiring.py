"""The contract between the network fabric and the workloads that use it.

The fabric layer (NADs, SR-IOV, RDMA device plugins, the IP-mapping ConfigMap) decides
how a training pod gets its secondary NICs; ``PodNetworkWiring`` tells a workload
everything it must put in its pod spec to use them, as plain values known when the
program runs, so workloads never look inside Outputs to lay out a pod.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from components.models.config import NetworkVariant

__all__ = ["PodNetworkWiring"]


class PodNetworkWiring(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: NetworkVariant
    namespace: str
    networks: tuple[str, ...] = ()
    """NetworkAttachmentDefinition names for the Multus annotation, in interface order."""
    interfaces: tuple[str, ...] = ()
    """The pod's interfaces NCCL must use (``net1``..``netK``); empty for the pod network."""
    extended_resources: dict[str, int] = Field(default_factory=dict)
    """Device-plugin resources one pod must request (RDMA shared devices, SR-IOV VFs)."""
    ip_mapping_configmap: str | None = None
    """ConfigMap holding ``node:hostif:netN:ip`` lines when pods rewrite their own IPs."""
    ip_mapping_key: str = "nodename_ip_mapping.yaml"
    needs_net_admin: bool = False
    """Whether the pod must change its own addresses or routes (the mapping mechanism)."""
    rdma: bool = False
    """Whether NCCL should use InfiniBand verbs (RoCE) on these interfaces."""
