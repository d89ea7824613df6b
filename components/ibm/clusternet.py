"""The H100/H200 cluster network: a ``hopper-1`` network with one subnet per cluster NIC."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.models.catalog import CLUSTER_NETWORK_PROFILE

__all__ = ["ClusterNetwork", "ClusterNetworkArgs"]


class ClusterNetworkArgs(ComponentArgs):
    ibm_name_prefix: str
    zone: str
    vpc_id: OutputRef
    prefix_cidr: str
    """The cluster network's address range; every cluster subnet lies inside it."""
    subnets: Sequence[str]
    """One subnet per cluster NIC, NIC 1 first (IBM recommends a 1:1 subnet-to-NIC ratio)."""
    resource_group_id: OutputRef | None = None


class ClusterNetwork(pulumi.ComponentResource):
    """An RDMA-capable ``hopper-1`` cluster network (RoCEv2, 8 x 400 Gbps per node).

    Children: the cluster network and one cluster subnet per cluster NIC.  Cluster
    networks take no security groups: they are reachable only from attached instances.
    """

    subnet_ids: list[pulumi.Output[str]]
    """Bare subnet IDs (the resource ID is ``<network>/<subnet>``), NIC 1 first."""
    network_id: pulumi.Output[str]

    def __init__(self, name: str, args: ClusterNetworkArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:clusternet:ClusterNetwork", name, None, opts)
        # Fixed IBM names and pinned addresses: a replacement must delete the old resource first.
        child = pulumi.ResourceOptions(parent=self, delete_before_replace=True)
        network = ibm.IsClusterNetwork(
            f"{name}-network",
            name=f"{args.ibm_name_prefix}-cn",
            profile=CLUSTER_NETWORK_PROFILE,
            zone=args.zone,
            vpc={"id": args.vpc_id},
            subnet_prefixes={"cidr": args.prefix_cidr},
            resource_group=args.resource_group_id,
            opts=child,
        )
        subnets = [
            ibm.IsClusterNetworkSubnet(
                f"{name}-subnet{k}",
                name=f"{args.ibm_name_prefix}-cn{k}",
                cluster_network_id=network.id,
                ipv4_cidr_block=cidr,
                opts=child,
            )
            for k, cidr in enumerate(args.subnets, start=1)
        ]
        self.network_id = network.id
        self.subnet_ids = [s.cluster_network_subnet_id for s in subnets]
        self.register_outputs({"network_id": self.network_id, "subnet_ids": self.subnet_ids})
