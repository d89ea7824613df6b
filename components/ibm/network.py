"""The VPC side of the cluster: VPC, zone prefix, subnets, public gateway, security groups."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm
from pydantic import Field

from components.args import ComponentArgs, OutputRef

__all__ = ["VpcNetwork", "VpcNetworkArgs"]


class VpcNetworkArgs(ComponentArgs):
    ibm_name_prefix: str
    """Prefix of the IBM names of everything created here."""
    zone: str
    vpc_cidr: str
    """The VPC's only address prefix, in ``zone``."""
    management_subnet: str
    """Subnet of the nodes' primary interfaces; it reaches the internet through a public gateway."""
    vnic_subnets: Sequence[str] = ()
    """One subnet per secondary vNIC, NIC 1 first."""
    ssh_allowed_cidrs: Sequence[str] = ()
    resource_group_id: OutputRef | None = None
    tags: Sequence[str] = Field(default_factory=tuple)


class VpcNetwork(pulumi.ComponentResource):
    """A VPC with one address prefix in the node zone and the subnets the nodes attach to.

    Children: the VPC (manual address prefixes), the zone prefix, a public gateway, the
    management subnet, one subnet per secondary vNIC, and two security groups:
    ``mgmt`` (cluster members to each other, SSH from allowed sources, egress anywhere)
    and ``secondary`` (vNIC traffic only to and from members of the same group).
    """

    vpc_id: pulumi.Output[str]
    management_subnet_id: pulumi.Output[str]
    vnic_subnet_ids: list[pulumi.Output[str]]
    """Secondary subnets, NIC 1 first."""
    management_security_group_id: pulumi.Output[str]
    secondary_security_group_id: pulumi.Output[str]

    def __init__(self, name: str, args: VpcNetworkArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:network:VpcNetwork", name, None, opts)
        # IBM names are unique per account and region and addresses are pinned, so a replacement
        # must delete the old resource first (Pulumi's default creates the new one first).
        child = pulumi.ResourceOptions(parent=self, delete_before_replace=True)
        prefix = args.ibm_name_prefix
        self._name, self._ibm_name_prefix = name, prefix
        common = {"resource_group": args.resource_group_id}
        tags = list(args.tags)

        vpc = ibm.IsVpc(
            f"{name}-vpc", name=f"{prefix}-vpc", address_prefix_management="manual", tags=tags, opts=child, **common
        )
        zone_prefix = ibm.IsVpcAddressPrefix(
            f"{name}-prefix",
            name=f"{prefix}-{args.zone}",
            vpc=vpc.id,
            zone=args.zone,
            cidr=args.vpc_cidr,
            is_default=True,
            opts=child,
        )
        gateway = ibm.IsPublicGateway(
            f"{name}-pgw", name=f"{prefix}-pgw", vpc=vpc.id, zone=args.zone, tags=tags, opts=child, **common
        )
        # Subnets must lie inside an address prefix that already exists.
        in_prefix = pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[zone_prefix]))
        management = ibm.IsSubnet(
            f"{name}-mgmt",
            name=f"{prefix}-mgmt",
            vpc=vpc.id,
            zone=args.zone,
            ipv4_cidr_block=args.management_subnet,
            public_gateway=gateway.id,
            tags=tags,
            opts=in_prefix,
            **common,
        )
        vnic_subnets = [
            ibm.IsSubnet(
                f"{name}-vnic{k}",
                name=f"{prefix}-vnic{k}",
                vpc=vpc.id,
                zone=args.zone,
                ipv4_cidr_block=cidr,
                tags=tags,
                opts=in_prefix,
                **common,
            )
            for k, cidr in enumerate(args.vnic_subnets, start=1)
        ]

        mgmt_sg = ibm.IsSecurityGroup(
            f"{name}-sg-mgmt", name=f"{prefix}-mgmt", vpc=vpc.id, tags=tags, opts=child, **common
        )
        self._rule("mgmt-members", mgmt_sg, "inbound", mgmt_sg.id)
        self._rule("mgmt-egress", mgmt_sg, "outbound", "0.0.0.0/0")
        for i, cidr in enumerate(args.ssh_allowed_cidrs):
            self._rule(f"mgmt-ssh{i}", mgmt_sg, "inbound", cidr, protocol="tcp", port_min=22, port_max=22)

        secondary_sg = ibm.IsSecurityGroup(
            f"{name}-sg-secondary", name=f"{prefix}-secondary", vpc=vpc.id, tags=tags, opts=child, **common
        )
        self._rule("secondary-in", secondary_sg, "inbound", secondary_sg.id)
        self._rule("secondary-out", secondary_sg, "outbound", secondary_sg.id)

        self.vpc_id = vpc.id
        self.management_subnet_id = management.id
        self.vnic_subnet_ids = [s.id for s in vnic_subnets]
        self.management_security_group_id = mgmt_sg.id
        self.secondary_security_group_id = secondary_sg.id
        self.register_outputs(
            {
                "vpc_id": self.vpc_id,
                "management_subnet_id": self.management_subnet_id,
                "vnic_subnet_ids": self.vnic_subnet_ids,
            }
        )

    def _rule(
        self,
        role: str,
        group: ibm.IsSecurityGroup,
        direction: str,
        remote: OutputRef,
        protocol: str = "any",
        port_min: int | None = None,
        port_max: int | None = None,
    ) -> None:
        """One rule; ``role`` names it (``mgmt-egress``) both in Pulumi and, after the prefix, in IBM."""
        ibm.IsSecurityGroupRule(
            f"{self._name}-sg-{role}",
            name=f"{self._ibm_name_prefix}-{role}",
            group=group.id,
            direction=direction,
            remote=remote,
            protocol=protocol,
            port_min=port_min,
            port_max=port_max,
            opts=pulumi.ResourceOptions(parent=self, delete_before_replace=True),
        )
