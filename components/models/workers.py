"""What the cloud says about an existing cluster: its VPC, worker subnet, security groups, image
and GPU workers, as looked up once at the edge of the program (``components.ibm.lookup``).

Plain frozen data, so that the checks and the plan can use it like the config: the checks compare
it with ``nodes``/``zone`` and the plan takes node names and primary addresses from it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["ClusterInventory", "NicModel", "Worker"]

NicModel = Literal["child", "attachment"]
"""``child``: legacy network interfaces (every IPI worker, created by the machine-api with one
``primary_network_interface``); ``attachment``: virtual network interfaces through network
attachments.  IBM refuses to mix them on one instance."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Worker(_Frozen):
    """One existing instance as the lookup found it."""

    name: str
    """Instance name = Machine name = Kubernetes node name (the CCM requires them equal)."""
    id: str
    profile: str
    zone: str
    status: str
    nic_model: NicModel
    primary_ip: str
    foreign_secondary_nics: int = 0
    """Secondary NICs the stack did not add (another tool's, or added by hand)."""
    foreign_cluster_attachments: int = 0


class ClusterInventory(_Frozen):
    """The existing cluster the stack adopts workers of, or joins nodes to."""

    vpc_id: str
    vpc_name: str
    compute_subnet_id: str
    compute_subnet_cidr: str
    security_group_ids: tuple[str, ...]
    image_id: str | None = None
    """The RHCOS image (``join`` only)."""
    workers: tuple[Worker, ...] = ()
    """The selected workers (``adopt``), in the order the stack lists them or by name."""
    missing_names: tuple[str, ...] = ()
    """Names in ``nodes.names`` that no instance of the VPC has."""
