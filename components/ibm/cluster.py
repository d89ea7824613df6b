"""The whole cloud layer of one experiment."""

from __future__ import annotations

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.ibm.account import lookup_resource_group_id, resource_tags
from components.ibm.clusternet import ClusterNetwork, ClusterNetworkArgs
from components.ibm.network import VpcNetwork, VpcNetworkArgs
from components.ibm.node import GpuNode, GpuNodeArgs
from components.ibm.sshkey import ssh_key_id
from components.models.config import ClusterConfig
from components.plan.inventory import AddressPlan

__all__ = ["GpuCluster", "GpuClusterArgs"]


class GpuClusterArgs(ComponentArgs):
    config: ClusterConfig
    """Where and what: zone, profile, names, tags, CIDRs."""
    addresses: AddressPlan
    """Subnets and every node's NIC addresses (``Plan.addresses``)."""
    allow_ip_spoofing: bool = False
    """Set on the secondary VNIs when the fabric's macvlan sends from its own MACs (``FabricPlan``)."""
    ssh_public_key: OutputRef = None
    """The nodes' SSH public key, as a Pulumi secret: a key named ``<prefix>-key`` is created from
    it.  Unset when ``security.ssh_key_name`` names an existing key."""


class GpuCluster(pulumi.ComponentResource):
    """GPU nodes in one zone with the network variant of the experiment.

    Children: a ``VpcNetwork``, a ``ClusterNetwork`` (``sriov*`` variants only), the SSH
    key (unless an existing one is named) and one ``GpuNode`` per node, each requesting the
    addresses of the plan it is given.
    """

    instance_ids: list[pulumi.Output[str]]
    vpc_id: pulumi.Output[str]
    cluster_network_id: pulumi.Output[str] | None

    def __init__(self, name: str, args: GpuClusterArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:cluster:GpuCluster", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        cfg = args.config
        plan = args.addresses
        prefix = cfg.name_prefix
        tags = resource_tags(cfg)
        resource_group_id = lookup_resource_group_id(self, cfg)
        image_id = ibm.get_is_image_output(name=str(cfg.image_name), opts=pulumi.InvokeOutputOptions(parent=self)).id

        network = VpcNetwork(
            f"{name}-net",
            VpcNetworkArgs(
                ibm_name_prefix=prefix,
                zone=cfg.zone,
                vpc_cidr=cfg.network.vpc_cidr,
                management_subnet=plan.management_subnet,
                vnic_subnets=plan.vnic_subnets,
                ssh_allowed_cidrs=cfg.security.ssh_allowed_cidrs,
                resource_group_id=resource_group_id,
                tags=tags,
            ),
            opts=child,
        )
        cluster_network = None
        if cfg.network.uses_cluster_network:
            cluster_network = ClusterNetwork(
                f"{name}-cn",
                ClusterNetworkArgs(
                    ibm_name_prefix=prefix,
                    zone=cfg.zone,
                    vpc_id=network.vpc_id,
                    prefix_cidr=cfg.network.cluster_network_cidr,
                    subnets=plan.cluster_subnets,
                    resource_group_id=resource_group_id,
                ),
                opts=child,
            )
        key_id = ssh_key_id(
            self,
            name,
            ibm_name_prefix=prefix,
            existing_key=cfg.security.ssh_key_name,
            public_key=args.ssh_public_key,
            resource_group_id=resource_group_id,
            tags=tags,
        )

        nodes = [
            GpuNode(
                f"{name}-node{i}",
                GpuNodeArgs(
                    instance_name=node,
                    profile=cfg.nodes.profile,
                    zone=cfg.zone,
                    vpc_id=network.vpc_id,
                    image_id=image_id,
                    ssh_key_ids=[key_id],
                    nics=plan.nics_of(node),
                    management_subnet_id=network.management_subnet_id,
                    management_security_group_id=network.management_security_group_id,
                    vnic_subnet_ids=network.vnic_subnet_ids,
                    secondary_security_group_id=network.secondary_security_group_id,
                    allow_ip_spoofing=args.allow_ip_spoofing,
                    cluster_subnet_ids=cluster_network.subnet_ids if cluster_network else [],
                    resource_group_id=resource_group_id,
                    tags=tags,
                ),
                opts=child,
            )
            for i, node in enumerate(plan.nodes)
        ]
        self.instance_ids = [n.instance_id for n in nodes]
        self.vpc_id = network.vpc_id
        self.cluster_network_id = cluster_network.network_id if cluster_network else None
        self.register_outputs(
            {
                "instance_ids": self.instance_ids,
                "vpc_id": self.vpc_id,
                "cluster_network_id": self.cluster_network_id,
            }
        )
