"""The NICs a stack adds to one existing worker, which it never creates, imports or deletes."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Literal, cast

import pulumi
import pulumi_ibm as ibm

from components.args import ComponentArgs, OutputRef
from components.ops.providers import WorkerInService, WorkerOutOfService
from components.ops.rolling import Timeouts
from components.ops.steps import StepProps
from components.plan.inventory import Nic
from components.plan.naming import cluster_attachment_name, fit_ibm_name, secondary_nic_name

__all__ = ["AdoptedWorker", "AdoptedWorkerArgs", "reserved_ip_name"]


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
    region: str = ""
    """Cluster NICs: the region of the IBM API the rolling steps call."""
    ibm_api_key: OutputRef = None
    """Cluster NICs: the stack's API key secret (None: the provider's ``IC_API_KEY``)."""
    kubeconfig: OutputRef = None
    """Cluster NICs: the stack's kubeconfig secret (None: the ambient kubeconfig)."""
    kube_context: str | None = None
    drain_timeout_s: int = 900
    drain_delete_emptydir_data: bool = False
    allow_instance_stop: bool | str = False
    """The stack's consent (``true`` or a roll-out's id); the rolling step refuses to stop the worker without it."""
    wait_for: Sequence[Any] = ()
    """What every change to this worker waits for: the selection check, and (cluster NICs) the return of
    the previous worker of its lane."""


class AdoptedWorker(pulumi.ComponentResource):
    """Secondary vNICs in the model the instance already uses (child network interfaces on IPI
    workers, network attachments otherwise: IBM refuses to mix them), added while it runs, one
    at a time in NIC order because the guest names hot-plugged NICs by attach order.

    Cluster NICs: one reserved IP per NIC with the planned address, then ``WorkerOutOfService``
    (pause MHCs, cordon, drain, stop) → one cluster network attachment per NIC → ``WorkerInService``
    (start, Ready, uncordon, unpause); ``destroy`` runs the same steps the other way round
    (``components.ops.providers``).  A change of the worker's cluster NIC plan runs them again.
    """

    nic_addresses: dict[int, pulumi.Output[str]]
    """NIC index → the address IBM gave it (the planned one, pinned)."""
    in_service: pulumi.Resource | None
    """Cluster NICs: the step that returns the worker to service (the next worker of the lane waits for it)."""

    def __init__(self, name: str, args: AdoptedWorkerArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:adopted:AdoptedWorker", name, None, opts)
        self._name, self._args = name, args
        self.nic_addresses = {}
        self.in_service = None
        self._add_vnics([n for n in args.nics if n.role == "vnic"])
        self._add_cluster_nics([n for n in args.nics if n.role == "cluster"])
        self.register_outputs({"nic_addresses": {str(k): v for k, v in self.nic_addresses.items()}})

    def _child(self, depends_on: Sequence[pulumi.Resource] = ()) -> pulumi.ResourceOptions:
        # Fixed IBM names and pinned addresses: a replacement must delete the old resource first.
        return pulumi.ResourceOptions(parent=self, delete_before_replace=True, depends_on=list(depends_on))

    def _add_vnics(self, vnics: list[Nic]) -> None:
        args = self._args
        previous: list[pulumi.Resource] = list(args.wait_for)
        for nic, subnet_id in zip(vnics, args.vnic_subnet_ids, strict=True):
            nic_name = secondary_nic_name(args.ibm_name_prefix, nic.index)
            if args.nic_model == "child":
                interface = ibm.IsInstanceNetworkInterface(
                    f"{self._name}-vnic{nic.index}",
                    instance=args.instance_id,
                    name=nic_name,
                    subnet=subnet_id,
                    security_groups=[args.secondary_security_group_id],
                    allow_ip_spoofing=args.allow_ip_spoofing,
                    primary_ip=ibm.IsInstanceNetworkInterfacePrimaryIpArgs(address=nic.ip, auto_delete=True),
                    opts=self._child(previous),
                )
                # The lifted attribute, not an apply on the whole block: in a preview the block's computed fields
                # (its reserved IP, href) are unknown and an apply would not run, but the address is the
                # planned one the block was given, known then too (the mapping ConfigMap stays readable).
                self.nic_addresses[nic.index] = interface.primary_ip.address
                previous = [interface]
                continue
            attachment = ibm.IsInstanceNetworkAttachment(
                f"{self._name}-vnic{nic.index}",
                instance=args.instance_id,
                name=nic_name,
                virtual_network_interface=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs(
                    name=fit_ibm_name(args.worker, nic_name),
                    subnet=subnet_id,
                    security_groups=[args.secondary_security_group_id],
                    allow_ip_spoofing=args.allow_ip_spoofing,
                    auto_delete=True,
                    primary_ip=ibm.IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs(
                        address=nic.ip, auto_delete=True
                    ),
                ),
                opts=self._child(previous),
            )
            self.nic_addresses[nic.index] = pulumi.Output.from_input(str(nic.ip))
            previous = [attachment]

    def _add_cluster_nics(self, cluster_nics: list[Nic]) -> None:
        if not cluster_nics:
            return
        args = self._args
        reserved_ips = []
        for nic, subnet_id in zip(cluster_nics, args.cluster_subnet_ids, strict=True):
            # Created before the worker stops (a quota or zone failure then costs no downtime), and
            # replaced create-before-delete: the old one stays bound to its attachment until the
            # worker is stopped and that attachment is replaced.  The name carries the address, so
            # both may exist at once.
            reserved = ibm.IsClusterNetworkSubnetReservedIp(
                f"{self._name}-cnic{nic.index}-ip",
                cluster_network_id=args.cluster_network_id,
                cluster_network_subnet_id=subnet_id,
                address=nic.ip,
                name=reserved_ip_name(args.worker, nic.index, nic.subnet_cidr, str(nic.ip)),
                opts=pulumi.ResourceOptions(parent=self),
            )
            self.nic_addresses[nic.index] = _always_set(reserved.address)
            reserved_ips.append(reserved)
        out = WorkerOutOfService(
            f"{self._name}-out-of-service",
            self._worker_props(cluster_nics),
            opts=pulumi.ResourceOptions(parent=self, depends_on=[*reserved_ips, *args.wait_for]),
        )
        attachments: list[pulumi.Resource] = [out]
        for nic, subnet_id, reserved in zip(cluster_nics, args.cluster_subnet_ids, reserved_ips, strict=True):
            attachments.append(
                ibm.IsInstanceClusterNetworkAttachment(
                    f"{self._name}-cnic{nic.index}",
                    instance_id=args.instance_id,
                    name=cluster_attachment_name(args.ibm_name_prefix, nic.index),
                    cluster_network_interface=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs(
                        name=fit_ibm_name(args.worker, f"cnic{nic.index}"),
                        subnet=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs(id=subnet_id),
                        primary_ip=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs(
                            address=_always_set(reserved.address),
                            href=reserved.href,
                            id=reserved.cluster_network_subnet_reserved_ip_id,
                            name=_always_set(reserved.name),
                        ),
                    ),
                    # On the stopped worker, in NIC order (the guest enumerates them in attach order).  The
                    # provider's update sends only the name: a new interface must be a new attachment.
                    opts=pulumi.ResourceOptions(
                        parent=self,
                        delete_before_replace=True,
                        depends_on=[attachments[-1]],
                        replace_on_changes=["clusterNetworkInterface"],
                    ),
                )
            )
        # The attachments are one chain (each waits for the one before): waiting for the last is waiting for
        # all, said once (the SDK walks each dependency it is given).
        self.in_service = WorkerInService(
            f"{self._name}-in-service",
            {**self._worker_props(cluster_nics), "out_of_service_token": out.token},
            opts=pulumi.ResourceOptions(parent=self, depends_on=[attachments[-1]]),
        )

    def _worker_props(self, cluster_nics: list[Nic]) -> dict[str, Any]:
        """What the rolling steps need (``StepProps``, the type their provider reads back); the secrets stay
        Pulumi secrets."""
        args = self._args
        plan = ",".join(f"{n.index}:{n.subnet_cidr}:{n.ip}" for n in cluster_nics)
        return StepProps(
            node=args.worker,
            instance_id=args.instance_id,
            holder=f"{args.ibm_name_prefix}/{args.worker}",
            region=args.region,
            attachments=tuple(cluster_attachment_name(args.ibm_name_prefix, n.index) for n in cluster_nics),
            generation=hashlib.sha256(plan.encode()).hexdigest()[:12],
            timeouts=Timeouts(drain_s=args.drain_timeout_s),
            kube_context=args.kube_context,
            allow_stop=args.allow_instance_stop,
            delete_emptydir_data=args.drain_delete_emptydir_data,
            ibm_api_key=_secret_or_none(args.ibm_api_key),
            kubeconfig=_secret_or_none(args.kubeconfig),
        ).inputs()


def _always_set(value: pulumi.Output[str | None]) -> pulumi.Output[str]:
    """A reserved IP's ``address`` and ``name``: optional inputs, always set once it exists (both are given
    here).  The SDK types them optional; a typed view costs no ``apply`` (an Output and a task per NIC)."""
    return cast(pulumi.Output[str], value)


def _secret_or_none(value: OutputRef) -> OutputRef:
    return None if value is None else pulumi.Output.secret(value)


def reserved_ip_name(worker: str, index: int, subnet_cidr: str, address: str) -> str:
    """``<worker>-cnic<i>-<digest of subnet and address>``: unique per planned address."""
    digest = hashlib.sha256(f"{subnet_cidr}/{address}".encode()).hexdigest()[:6]
    return fit_ibm_name(worker, f"cnic{index}-{digest}")
