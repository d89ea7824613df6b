"""One GPU node: the instance, its primary interface, its vNICs and cluster NICs."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.ibm.inline_nics import inline_cluster_attachments
from components.plan.inventory import Nic
from components.plan.naming import cluster_attachment_name, secondary_nic_name

__all__ = ["GpuNode", "GpuNodeArgs"]


class GpuNodeArgs(ComponentArgs):
    instance_name: str
    """IBM name of the instance; also the node's hostname and Kubernetes node name."""
    profile: str
    zone: str
    vpc_id: OutputRef
    image_id: OutputRef
    ssh_key_ids: Sequence[OutputRef]
    nics: Sequence[Nic]
    """This node's planned NICs: the primary first, then the secondary ones in order."""
    management_subnet_id: OutputRef
    management_security_group_id: OutputRef
    vnic_subnet_ids: Sequence[OutputRef] = ()
    secondary_security_group_id: OutputRef | None = None
    allow_ip_spoofing: bool = False
    """Let vNICs send from addresses other than their own (macvlan pods have their own MAC and IP)."""
    cluster_subnet_ids: Sequence[OutputRef] = ()
    resource_group_id: OutputRef | None = None
    tags: Sequence[str] = ()


class GpuNode(pulumi.ComponentResource):
    """A GPU instance with its planned addresses on every network.

    Children: the instance (primary network attachment in the management subnet; for
    H100/H200 with a cluster network, every cluster network attachment inline, because
    IBM accepts them only at creation or on a stopped instance) and one network
    attachment per secondary vNIC, each a new virtual network interface on its own
    subnet with the planned address.
    """

    instance_id: pulumi.Output[str]
    vnic_attachment_ids: list[pulumi.Output[str]]

    def __init__(self, name: str, args: GpuNodeArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:node:GpuNode", name, None, opts)
        # Fixed IBM names and pinned addresses: a replacement must delete the old resource first.
        child = pulumi.ResourceOptions(parent=self, delete_before_replace=True)
        primary = next(n for n in args.nics if n.role == "primary")
        cluster_nics = [n for n in args.nics if n.role == "cluster"]
        vnics = [n for n in args.nics if n.role == "vnic"]
        node = args.instance_name

        instance = ibm.IsInstance(
            f"{name}-instance",
            name=node,
            profile=args.profile,
            image=args.image_id,
            vpc=args.vpc_id,
            zone=args.zone,
            keys=list(args.ssh_key_ids),
            resource_group=args.resource_group_id,
            primary_network_attachment=ibm.IsInstancePrimaryNetworkAttachmentArgs(
                name="eth0",
                virtual_network_interface=ibm.IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgs(
                    name=f"{node}-mgmt",
                    subnet=args.management_subnet_id,
                    security_groups=[args.management_security_group_id],
                    primary_ip=ibm.IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs(
                        address=primary.ip, auto_delete=True
                    ),
                ),
            ),
            cluster_network_attachments=inline_cluster_attachments(
                cluster_nics,
                args.cluster_subnet_ids,
                attachment_name=lambda k: cluster_attachment_name(node, k),
                interface_name=lambda k: cluster_attachment_name(node, k),
            ),
            tags=list(args.tags),
            # Large GPU profiles can take about 20 minutes to start (IBM known issue).
            timeouts=ibm.IsInstanceTimeoutsArgs(create="60m", delete="30m"),
            opts=child,
        )
        # One at a time, in NIC order: the guest names hot-plugged vNICs by PCI slot in attach
        # order (ens13 for the first), and the Kubernetes layer relies on that order.
        attachments: list[ibm.IsInstanceNetworkAttachment] = []
        for nic, subnet_id in zip(vnics, args.vnic_subnet_ids, strict=True):
            attachments.append(
                ibm.IsInstanceNetworkAttachment(
                    f"{name}-vnic{nic.index}",
                    name=secondary_nic_name(node, nic.index),
                    instance=instance.id,
                    virtual_network_interface=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs(
                        name=secondary_nic_name(node, nic.index),
                        subnet=subnet_id,
                        security_groups=[args.secondary_security_group_id],
                        primary_ip=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs(
                            address=nic.ip, auto_delete=True
                        ),
                        allow_ip_spoofing=args.allow_ip_spoofing,
                        auto_delete=True,
                    ),
                    opts=pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=attachments[-1:])),
                )
            )
        self.instance_id = instance.id
        self.vnic_attachment_ids = [a.network_attachment for a in attachments]
        self.register_outputs({"instance_id": self.instance_id})
