"""SR-IOV network operator objects for ``sriov``/``sriov-rdma`` with ``attachment: sriov-operator``.

Per cluster NIC the job uses, one ``SriovNetworkNodePolicy`` and one ``SriovNetwork``:

* The policy selects the NIC by vendor ``15b3`` (Mellanox/NVIDIA) and ``pfNames`` = its guest
  interface name, with ``numVfs: 1``: inside an IBM VM each cluster NIC *is* a VF the hypervisor
  passed through, which cannot be split further; the operator's virtual-machine mode treats
  such a device as a PF with exactly one VF, itself.  ``deviceType: netdevice`` keeps the mlx5
  kernel driver (RDMA verbs need it; ``vfio-pci`` would not), ``isRdma`` for ``sriov-rdma``.
  Each NIC gets its own resource, because NIC *k* sits on subnet *k*: one shared resource could
  hand a pod NIC 3 for ``net1``.
* The network makes the operator generate a NAD of the same name in the training namespace
  (``networkNamespace``), with the resource annotation and our IPAM JSON.

Caveat (documented in docs/fabric.md): the operator detects virtual platforms from OpenStack
metadata, which IBM VPC does not serve, and editing a policy can drain or reboot nodes.  The
study measured host-device, which needs neither.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi

from components.args import ComponentArgs, OutputRef
from components.manifests.k8s_objects import Manifest, declare, part_of_labels
from components.plan.specs import SriovNicSpec

__all__ = ["MELLANOX_VENDOR_ID", "SriovNetworks", "SriovNetworksArgs", "SriovNicSpec", "render_sriov"]

MELLANOX_VENDOR_ID = "15b3"
VFS_PER_PASSED_THROUGH_NIC = 1
"""A VF passed into a VM cannot create VFs of its own."""


class SriovNetworksArgs(ComponentArgs):
    operator_namespace: str
    network_namespace: str
    """Where the generated NADs go (the training pods' namespace)."""
    instance: str
    rdma: bool
    node_selector: Mapping[str, str]
    mtu: int | None = None
    nics: Sequence[SriovNicSpec]
    depends_on: Sequence[OutputRef] = ()


def render_sriov(args: SriovNetworksArgs) -> list[Manifest]:
    labels = part_of_labels(args.instance)
    manifests: list[Manifest] = []
    for nic in args.nics:
        policy_spec: dict[str, Any] = {
            "resourceName": nic.resource_name,
            "nodeSelector": dict(args.node_selector),
            "numVfs": VFS_PER_PASSED_THROUGH_NIC,
            "nicSelector": {"vendor": MELLANOX_VENDOR_ID, "pfNames": [nic.pf_name]},
            "deviceType": "netdevice",
            "isRdma": args.rdma,
            "linkType": "eth",
        }
        if args.mtu is not None:
            policy_spec["mtu"] = args.mtu
        manifests.append(
            Manifest(
                {
                    "apiVersion": "sriovnetwork.openshift.io/v1",
                    "kind": "SriovNetworkNodePolicy",
                    "metadata": {"name": nic.name, "namespace": args.operator_namespace, "labels": labels},
                    "spec": policy_spec,
                }
            )
        )
        manifests.append(
            Manifest(
                {
                    "apiVersion": "sriovnetwork.openshift.io/v1",
                    "kind": "SriovNetwork",
                    "metadata": {"name": nic.name, "namespace": args.operator_namespace, "labels": labels},
                    "spec": {
                        "resourceName": nic.resource_name,
                        "networkNamespace": args.network_namespace,
                        "ipam": json.dumps(nic.ipam),
                    },
                }
            )
        )
    return manifests


class SriovNetworks(pulumi.ComponentResource):
    """SR-IOV policies and networks; children ``<name>-policy-net<k>`` and ``<name>-network-net<k>``."""

    network_names: list[str]
    """Names of the generated NADs in ``net1``..``netK`` order."""
    manifests: list[Manifest]
    """Policies and networks exactly as applied."""

    def __init__(self, name: str, args: SriovNetworksArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:sriov:SriovNetworks", name, None, opts)
        child = pulumi.ResourceOptions(parent=self, depends_on=list(args.depends_on))
        self.manifests = render_sriov(args)
        manifests = iter(self.manifests)
        for nic in args.nics:
            policy = declare(f"{name}-policy-{nic.interface}", next(manifests), child)
            # The network's resource exists only once the policy's device plugin advertises it.
            declare(
                f"{name}-network-{nic.interface}",
                next(manifests),
                pulumi.ResourceOptions(parent=self, depends_on=[*args.depends_on, policy]),
            )
        self.network_names = [nic.name for nic in args.nics]
        self.register_outputs({"network_names": self.network_names})
