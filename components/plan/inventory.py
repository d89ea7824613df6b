"""The address plan of an experiment and the per-node NIC inventory derived from it.

Every address is decided here, from validated config, before any resource exists:
subnets are carved in a fixed order from the VPC and cluster-network prefixes, and node
*i* gets host number ``4 + i`` in every subnet (IBM keeps the first four addresses).
The cloud components request exactly these addresses, so the Kubernetes layer, the
IP-mapping file and a preview all see the same, final IPs, and adding a node never
moves another node's address.
"""

from __future__ import annotations

import ipaddress
from typing import Literal

from pydantic import BaseModel, ConfigDict

from components.models.config import IBM_RESERVED_LOW_ADDRESSES, ClusterConfig

__all__ = ["AddressPlan", "Nic", "NicRole", "node_name", "plan_addresses"]

NicRole = Literal["primary", "vnic", "cluster"]


class Nic(BaseModel):
    """One network interface of one node, as the Kubernetes layer needs to know it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node: str
    """Node name: the instance name, which is also the Kubernetes node name."""
    index: int
    """0 for the primary interface; 1..K for secondary NICs (the pod sees NIC k as ``net<k>``)."""
    role: NicRole
    subnet_cidr: str
    ip: str
    used_by_job: bool
    """Whether the training job attaches this NIC (the first ``nics_per_node`` secondary NICs)."""

    @property
    def pod_interface(self) -> str | None:
        return None if self.role == "primary" else f"net{self.index}"


class AddressPlan(BaseModel):
    """Subnets and per-node addresses of one experiment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    management_subnet: str
    vnic_subnets: tuple[str, ...]
    """One VPC subnet per secondary vNIC (``vnic`` variant), NIC 1 first."""
    cluster_subnets: tuple[str, ...]
    """One cluster-network subnet per cluster NIC (``sriov*`` variants), NIC 1 first."""
    nodes: tuple[str, ...]
    nics: tuple[Nic, ...]

    def nics_of(self, node: str) -> list[Nic]:
        return [nic for nic in self.nics if nic.node == node]

    def secondary(self, *, used_only: bool = False) -> list[Nic]:
        return [n for n in self.nics if n.role != "primary" and (n.used_by_job or not used_only)]


def node_name(name_prefix: str, index: int) -> str:
    return f"{name_prefix}-node{index}"


def _host(subnet: str, node_index: int) -> str:
    network = ipaddress.IPv4Network(subnet)
    return str(network.network_address + IBM_RESERVED_LOW_ADDRESSES + node_index)


def _carve(cidr: str, prefix_length: int, count: int) -> list[str]:
    subnets = ipaddress.IPv4Network(cidr).subnets(new_prefix=prefix_length)
    return [str(next(subnets)) for _ in range(count)]


def plan_addresses(cfg: ClusterConfig) -> AddressPlan:
    net = cfg.network
    prefix = cfg.subnet_prefix_length
    vnic_count = net.secondary_nics if net.variant == "vnic" else 0
    vpc_subnets = _carve(net.vpc_cidr, prefix, 1 + vnic_count)
    cluster_subnets = _carve(net.cluster_network_cidr, prefix, net.secondary_nics) if net.uses_cluster_network else []
    secondary_role: NicRole = "cluster" if net.uses_cluster_network else "vnic"
    secondary_subnets = cluster_subnets or vpc_subnets[1:]
    nodes = tuple(node_name(cfg.name_prefix, i) for i in range(cfg.nodes.count))
    nics: list[Nic] = []
    for i, node in enumerate(nodes):
        nics.append(
            Nic(
                node=node,
                index=0,
                role="primary",
                subnet_cidr=vpc_subnets[0],
                ip=_host(vpc_subnets[0], i),
                used_by_job=net.variant == "pod",
            )
        )
        for k, subnet in enumerate(secondary_subnets, start=1):
            nics.append(
                Nic(
                    node=node,
                    index=k,
                    role=secondary_role,
                    subnet_cidr=subnet,
                    ip=_host(subnet, i),
                    used_by_job=k <= net.nics_per_node,
                )
            )
    return AddressPlan(
        management_subnet=vpc_subnets[0],
        vnic_subnets=tuple(vpc_subnets[1:]),
        cluster_subnets=tuple(cluster_subnets),
        nodes=nodes,
        nics=tuple(nics),
    )
