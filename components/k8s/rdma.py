"""The NVIDIA network operator's NicClusterPolicy (``mellanox.com/v1alpha1``).

Rendered when the fabric needs one of its sections:

* ``rdmaSharedDevicePlugin`` (``sriov-rdma`` with host-device): one resource per cluster NIC
  the job uses, ``rdma/<experiment>-net<k>``, selecting that NIC by vendor ``15b3`` and its
  guest interface name, with ``rdmaHcaMax: 1``.  A pod requesting the resource gets the NIC's
  ``/dev/infiniband`` devices mounted, and because each resource has capacity 1 per node the
  scheduler — not a failing CNI call — keeps a second pod off a NIC host-device already moved.
* ``secondaryNetwork`` (Multus and the reference CNI plugins) off OpenShift only: OpenShift's
  cluster network operator already runs Multus with host-device, macvlan, whereabouts and the
  dhcp IPAM.  This CRD version has no whereabouts section: elsewhere install it separately.

The operator reconciles one policy (``nic-cluster-policy``).  ``fabric.rdma.nic_cluster_policy:
patch`` server-side-applies our sections into an existing one (e.g. one that also deploys the
DOCA/MOFED driver) instead of owning it: deleting the stack then releases our fields rather
than deleting the driver.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from components.k8s.sriov import MELLANOX_VENDOR_ID
from components.manifests.k8s_objects import PATCH_FORCE_ANNOTATION, Manifest, part_of_labels
from components.models.fabric_config import RdmaConfig
from components.plan.specs import RdmaResourceSpec

__all__ = ["RdmaResourceSpec", "device_plugin_config", "render_nic_cluster_policy"]

HCA_MAX = 1
"""Pods per node per resource: host-device gives the NIC (and its RDMA device) to one pod."""


def device_plugin_config(resources: Sequence[RdmaResourceSpec]) -> dict[str, Any]:
    return {
        "configList": [
            {
                "resourceName": r.resource_name,
                "rdmaHcaMax": HCA_MAX,
                "selectors": {"vendors": [MELLANOX_VENDOR_ID], "ifNames": [r.interface]},
            }
            for r in resources
        ]
    }


def render_nic_cluster_policy(
    *, settings: RdmaConfig, instance: str, resources: Sequence[RdmaResourceSpec], multus_and_cni_plugins: bool
) -> Manifest:
    """The policy with the device plugin (if ``resources``) and Multus/CNI plugins (if asked)."""
    spec: dict[str, Any] = {}
    if resources:
        spec["rdmaSharedDevicePlugin"] = {
            "image": settings.device_plugin_image,
            "repository": settings.device_plugin_repository,
            "version": settings.device_plugin_version,
            "config": json.dumps(device_plugin_config(resources)),
        }
    if settings.ofed_driver is not None:
        driver = settings.ofed_driver
        spec["ofedDriver"] = {"image": driver.image, "repository": driver.repository, "version": driver.version}
    if multus_and_cni_plugins:
        spec["secondaryNetwork"] = {
            "multus": {
                "image": settings.multus_image,
                "repository": settings.multus_repository,
                "version": settings.multus_version,
            },
            "cniPlugins": {
                "image": settings.cni_plugins_image,
                "repository": settings.cni_plugins_repository,
                "version": settings.cni_plugins_version,
            },
        }
    patch = settings.nic_cluster_policy == "patch"
    metadata: dict[str, Any] = {"name": settings.policy_name}
    if patch:
        metadata["annotations"] = {PATCH_FORCE_ANNOTATION: "true"}
    else:
        metadata["labels"] = part_of_labels(instance)
    return Manifest(
        {"apiVersion": "mellanox.com/v1alpha1", "kind": "NicClusterPolicy", "metadata": metadata, "spec": spec},
        patch=patch,
    )
