"""The NICs a stack adds to one existing worker, which it never creates, imports or deletes."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Literal

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.plan.inventory import Nic
from components.plan.naming import cluster_attachment_name, fit_ibm_name, secondary_nic_name

__all__ = ["AdoptedWorker", "AdoptedWorkerArgs"]


class AdoptedWorkerArgs(ComponentArgs):
    worker: str
    """The instance name, which is also the Kubernetes node name."""
    instance_id: str
    """From the lookup: the stack references the instance, it does not manage it."""
    nic_model: Literal["child", "attachment"]
    ibm_name_prefix: str
    nics: Sequence[Nic]
    """This worker's planned NICs (the primary, which it has, and the secondary ones to add)."""
    vnic_subnet_ids: Sequence[OutputRef] = ()
    secondary_security_group_id: OutputRef | None = None
    allow_ip_spoofing: bool = False
    cluster_network_id: OutputRef | None = None
    cluster_subnet_ids: Sequence[OutputRef] = ()


class AdoptedWorker(pulumi.ComponentResource):
    """Secondary vNICs in the model the instance already uses (child network interfaces on IPI
    workers, network attachments otherwise: IBM refuses to mix them), added while it runs, one
    at a time in NIC order because the guest names hot-plugged NICs by attach order.

    Cluster NICs: one reserved IP per NIC with the planned address, then stop → one cluster
    network attachment per NIC → start.  The two ``IsInstanceAction``s are named after the set of
    cluster subnets, so changing that set stops the worker again; deleting an action does nothing.
    """

    nic_addresses: dict[int, pulumi.Output[str]]
    """NIC index → the address IBM gave it (the planned one, pinned)."""

    def __init__(self, name: str, args: AdoptedWorkerArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:adopted:AdoptedWorker", name, None, opts)
        self._name, self._args = name, args
        self.nic_addresses = {}
        self._add_vnics([n for n in args.nics if n.role == "vnic"])
        self._add_cluster_nics([n for n in args.nics if n.role == "cluster"])
        self.register_outputs({"nic_addresses": {str(k): v for k, v in self.nic_addresses.items()}})

    def _child(self, depends_on: Sequence[pulumi.Resource] = ()) -> pulumi.ResourceOptions:
        # Fixed IBM names and pinned addresses: a replacement must delete the old resource first.
        return pulumi.ResourceOptions(parent=self, delete_before_replace=True, depends_on=list(depends_on))

    def _add_vnics(self, vnics: list[Nic]) -> None:
        args = self._args
        previous: list[pulumi.Resource] = []
        for nic, subnet_id in zip(vnics, args.vnic_subnet_ids, strict=True):
            nic_name = secondary_nic_name(args.ibm_name_prefix, nic.index)
            if args.nic_model == "child":
                interface = ibm.IsInstanceNetworkInterface(
                    f"{self._name}-vnic{nic.index}", instance=args.instance_id, name=nic_name, subnet=subnet_id,
                    security_groups=[args.secondary_security_group_id], allow_ip_spoofing=args.allow_ip_spoofing,
                    primary_ip=ibm.IsInstanceNetworkInterfacePrimaryIpArgs(address=nic.ip, auto_delete=True),
                    opts=self._child(previous),
                )
                self.nic_addresses[nic.index] = interface.primary_ip.apply(lambda ip: ip.address)
                previous = [interface]
                continue
            attachment = ibm.IsInstanceNetworkAttachment(
                f"{self._name}-vnic{nic.index}", instance=args.instance_id, name=nic_name,
                virtual_network_interface=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs(
                    name=fit_ibm_name(args.worker, nic_name), subnet=subnet_id,
                    security_groups=[args.secondary_security_group_id], allow_ip_spoofing=args.allow_ip_spoofing,
                    auto_delete=True,
                    primary_ip=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs(
                        address=nic.ip, auto_delete=True),
                ),
                opts=self._child(previous),
            )
            self.nic_addresses[nic.index] = pulumi.Output.from_input(str(nic.ip))
            previous = [attachment]

    def _add_cluster_nics(self, cluster_nics: list[Nic]) -> None:
        if not cluster_nics:
            return
        args = self._args
        # One stop/start pair per set of cluster subnets: a new set gets new actions, hence a new stop.
        generation = hashlib.sha256(",".join(n.subnet_cidr for n in cluster_nics).encode()).hexdigest()[:8]
        stop = ibm.IsInstanceAction(
            f"{self._name}-stop-{generation}", instance=args.instance_id, action="stop",
            timeouts=ibm.IsInstanceActionTimeoutsArgs(create="30m"), opts=self._child(),
        )
        attachments: list[pulumi.Resource] = [stop]
        for nic, subnet_id in zip(cluster_nics, args.cluster_subnet_ids, strict=True):
            attachment_name = cluster_attachment_name(args.ibm_name_prefix, nic.index)
            interface_name = fit_ibm_name(args.worker, f"cnic{nic.index}")  # the reserved IP's name too
            reserved = ibm.IsClusterNetworkSubnetReservedIp(
                f"{self._name}-cnic{nic.index}-ip", cluster_network_id=args.cluster_network_id,
                cluster_network_subnet_id=subnet_id, address=nic.ip, name=interface_name, opts=self._child(),
            )
            attachment = ibm.IsInstanceClusterNetworkAttachment(
                f"{self._name}-cnic{nic.index}", instance_id=args.instance_id, name=attachment_name,
                cluster_network_interface=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs(
                    name=interface_name,
                    subnet=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs(id=subnet_id),
                    primary_ip=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs(
                        address=reserved.address.apply(str), href=reserved.href,
                        id=reserved.cluster_network_subnet_reserved_ip_id, name=reserved.name.apply(str),
                    ),
                ),
                # In NIC order, on the stopped instance: the guest enumerates them in attach order.
                opts=self._child([attachments[-1]]),
            )
            self.nic_addresses[nic.index] = reserved.address.apply(str)
            attachments.append(attachment)
        ibm.IsInstanceAction(
            f"{self._name}-start-{generation}", instance=args.instance_id, action="start",
            # A gx3d can take about 20 minutes to start (IBM known issue).
            timeouts=ibm.IsInstanceActionTimeoutsArgs(create="45m"), opts=self._child(attachments[1:]),
        )
