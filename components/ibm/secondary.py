"""The vNIC subnets a stack adds to an existing cluster's VPC, in an address prefix of their own."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef

__all__ = ["SecondarySubnets", "SecondarySubnetsArgs"]


class SecondarySubnetsArgs(ComponentArgs):
    ibm_name_prefix: str
    zone: str
    vpc_id: OutputRef
    """The cluster's VPC (looked up; the stack does not own it)."""
    prefix_cidr: str
    """``network.vpc_cidr``: a range no prefix of the VPC covers yet."""
    subnets: Sequence[str]
    """One subnet per secondary vNIC, NIC 1 first."""
    resource_group_id: OutputRef | None = None
    tags: Sequence[str] = ()


class SecondarySubnets(pulumi.ComponentResource):
    """An address prefix in the node zone, one subnet per vNIC inside it, and a security group
    that lets vNIC traffic flow only between its members.

    ``pulumi destroy`` removes exactly these; the cluster's VPC, its prefixes and subnets stay.
    """

    subnet_ids: list[pulumi.Output[str]]
    security_group_id: pulumi.Output[str]

    def __init__(self, name: str, args: SecondarySubnetsArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:secondary:SecondarySubnets", name, None, opts)
        # Fixed IBM names and pinned CIDRs: a replacement must delete the old resource first.
        child = pulumi.ResourceOptions(parent=self, delete_before_replace=True)
        prefix = args.ibm_name_prefix
        address_prefix = ibm.IsVpcAddressPrefix(
            f"{name}-prefix",
            name=f"{prefix}-vnics",
            vpc=args.vpc_id,
            zone=args.zone,
            cidr=args.prefix_cidr,
            is_default=False,
            opts=child,
        )
        in_prefix = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[address_prefix]))
        subnets = [
            ibm.IsSubnet(
                f"{name}-vnic{k}",
                name=f"{prefix}-vnic{k}",
                vpc=args.vpc_id,
                zone=args.zone,
                ipv4_cidr_block=cidr,
                resource_group=args.resource_group_id,
                tags=list(args.tags),
                opts=in_prefix,
            )
            for k, cidr in enumerate(args.subnets, start=1)
        ]
        group = ibm.IsSecurityGroup(
            f"{name}-sg",
            name=f"{prefix}-secondary",
            vpc=args.vpc_id,
            resource_group=args.resource_group_id,
            tags=list(args.tags),
            opts=child,
        )
        for direction in ("inbound", "outbound"):
            ibm.IsSecurityGroupRule(
                f"{name}-sg-{direction}",
                name=f"{prefix}-secondary-{direction}",
                group=group.id,
                direction=direction,
                remote=group.id,
                protocol="any",
                opts=child,
            )
        self.subnet_ids = [s.id for s in subnets]
        self.security_group_id = group.id
        self.register_outputs({"subnet_ids": self.subnet_ids, "security_group_id": self.security_group_id})
