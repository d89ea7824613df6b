"""One instance the stack creates in an existing cluster's VPC, booting into that cluster as a node."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.ibm.inline_nics import inline_cluster_attachments
from components.plan.inventory import Nic
from components.plan.naming import cluster_attachment_name, fit_ibm_name, secondary_nic_name

__all__ = ["JoiningNode", "JoiningNodeArgs"]


class JoiningNodeArgs(ComponentArgs):
    node: str
    """Instance name = hostname = Kubernetes node name (the cloud controller manager looks the
    instance up by the node's name in the cluster's VPC)."""
    ibm_name_prefix: str
    profile: str
    zone: str
    vpc_id: str
    image_id: str
    compute_subnet_id: str
    cluster_security_group_ids: Sequence[str]
    user_data: OutputRef
    """Worker ignition (OpenShift) or a cloud-init ``kubeadm join`` (a Pulumi secret either way)."""
    ssh_key_ids: Sequence[OutputRef] = ()
    nics: Sequence[Nic]
    vnic_subnet_ids: Sequence[OutputRef] = ()
    secondary_security_group_id: OutputRef | None = None
    allow_ip_spoofing: bool = False
    cluster_subnet_ids: Sequence[OutputRef] = ()
    resource_group_id: OutputRef | None = None
    tags: Sequence[str] = ()


class JoiningNode(pulumi.ComponentResource):
    """The instance, shaped like the machine-api's workers (child network interfaces: the primary in
    the compute subnet with the cluster's security groups, IBM choosing its address), with every
    secondary vNIC and cluster NIC attached at creation, so that nothing is ever stopped.
    """

    instance_id: pulumi.Output[str]
    primary_address: pulumi.Output[str | None]
    """The address IBM gave the primary NIC in the compute subnet: the Node's InternalIP."""
    nic_addresses: dict[int, pulumi.Output[str]]

    def __init__(self, name: str, args: JoiningNodeArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:joined:JoiningNode", name, None, opts)
        vnics = [n for n in args.nics if n.role == "vnic"]
        cluster_nics = [n for n in args.nics if n.role == "cluster"]
        instance = ibm.IsInstance(
            f"{name}-instance",
            name=args.node,
            profile=args.profile,
            image=args.image_id,
            vpc=args.vpc_id,
            zone=args.zone,
            keys=list(args.ssh_key_ids) or None,
            resource_group=args.resource_group_id,
            user_data=args.user_data,
            primary_network_interface=ibm.IsInstancePrimaryNetworkInterfaceArgs(
                name="eth0",
                subnet=args.compute_subnet_id,
                security_groups=list(args.cluster_security_group_ids),
            ),
            network_interfaces=[
                ibm.IsInstanceNetworkInterfaceArgs(
                    name=secondary_nic_name(args.ibm_name_prefix, nic.index),
                    subnet=subnet_id,
                    security_groups=[args.secondary_security_group_id],
                    allow_ip_spoofing=args.allow_ip_spoofing,
                    primary_ip=ibm.IsInstanceNetworkInterfacePrimaryIpArgs(address=nic.ip, auto_delete=True),
                )
                for nic, subnet_id in zip(vnics, args.vnic_subnet_ids, strict=True)
            ]
            or None,
            cluster_network_attachments=inline_cluster_attachments(
                cluster_nics,
                args.cluster_subnet_ids,
                attachment_name=lambda k: cluster_attachment_name(args.ibm_name_prefix, k),
                interface_name=lambda k: fit_ibm_name(args.node, f"cnic{k}"),
            ),
            tags=list(args.tags),
            # Large GPU profiles can take about 20 minutes to start (IBM known issue).
            timeouts=ibm.IsInstanceTimeoutsArgs(create="60m", delete="30m"),
            # A fixed name: a replacement must delete the old instance first.
            opts=pulumi.ResourceOptions(parent=self, delete_before_replace=True),
        )
        self.instance_id = instance.id
        self.primary_address = instance.primary_network_interface.apply(
            lambda nic: nic.primary_ip.address if nic is not None and nic.primary_ip is not None else None
        )
        self.nic_addresses = {nic.index: pulumi.Output.from_input(str(nic.ip)) for nic in [*vnics, *cluster_nics]}
        self.register_outputs({"instance_id": self.instance_id})
