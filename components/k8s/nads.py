"""NetworkAttachmentDefinitions: one per secondary NIC the job uses (``vnic``, and ``sriov*``
with ``attachment: host-device``).

A NAD describes NIC *k* on every node at once — the guest interface name and the subnet are the
same everywhere — so adding nodes adds no NAD and renames none.  Multus attaches the NADs of a
pod's annotation in order as ``net1``..``netK``.

* ``host-device`` (the study's): the CNI plugin moves the node's interface (``device``) into the
  pod's network namespace.  The pod owns the real NIC — the VPC's MAC and, after the IP step,
  its address — and no other pod (nor the node) can use it meanwhile.  For cluster NICs the
  RDMA device comes along in RDMA's shared namespace mode; the study's extra ``isRdma`` key is
  not a host-device option and is left out.
* ``macvlan`` (``vnic`` only): a bridge-mode sub-interface of the node's interface (``master``);
  several pods could share a NIC, but the sub-interface has its own MAC (see
  ``fabric_rules.needs_ip_spoofing``).

The IPAM section comes from ``fabric_rules.ipam_config``: a temporary whereabouts range
(mapping mechanism) or CNI ``dhcp``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pulumi

from components.args import ComponentArgs, OutputRef
from components.manifests.k8s_objects import Manifest, declare, part_of_labels
from components.plan.specs import NadSpec

__all__ = ["CNI_VERSION", "NadSpec", "SecondaryNetworks", "SecondaryNetworksArgs", "cni_config", "render_nads"]

CNI_VERSION = "0.3.1"
"""The CNI spec version the study's NADs declare; every plugin used here supports it."""


class SecondaryNetworksArgs(ComponentArgs):
    namespace: str
    """Namespace of the NADs (the training pods' namespace)."""
    instance: str
    """Experiment name for the objects' labels."""
    networks: Sequence[NadSpec]
    """One entry per NIC the job uses, ``net1`` first."""
    depends_on: Sequence[OutputRef] = ()
    """Resources the NADs must wait for (e.g. the namespace)."""


def cni_config(spec: NadSpec) -> dict[str, Any]:
    config: dict[str, Any] = {"cniVersion": CNI_VERSION, "name": spec.name, "type": spec.attachment}
    if spec.attachment == "host-device":
        config["device"] = spec.device
    else:
        config.update({"master": spec.device, "mode": "bridge"})
    config["ipam"] = spec.ipam
    return config


def render_nads(args: SecondaryNetworksArgs) -> list[Manifest]:
    return [
        Manifest(
            {
                "apiVersion": "k8s.cni.cncf.io/v1",
                "kind": "NetworkAttachmentDefinition",
                "metadata": {"name": spec.name, "namespace": args.namespace, "labels": part_of_labels(args.instance)},
                "spec": {"config": json.dumps(cni_config(spec))},
            }
        )
        for spec in args.networks
    ]


class SecondaryNetworks(pulumi.ComponentResource):
    """The NADs of the NICs the job uses; children ``<name>-net<k>``, one per NIC."""

    network_names: list[str]
    """NAD names in ``net1``..``netK`` order."""
    manifests: list[Manifest]
    """The NADs exactly as applied."""

    def __init__(self, name: str, args: SecondaryNetworksArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:nads:SecondaryNetworks", name, None, opts)
        child = pulumi.ResourceOptions(parent=self, depends_on=list(args.depends_on))
        self.manifests = render_nads(args)
        for spec, manifest in zip(args.networks, self.manifests, strict=True):
            declare(f"{name}-{spec.interface}", manifest, child)
        self.network_names = [spec.name for spec in args.networks]
        self.register_outputs({"network_names": self.network_names})
