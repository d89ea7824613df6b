"""Opt-in node prerequisites of GPUDirect RDMA (``fabric.node_prep``).

* ``iommu_passthrough``: an OpenShift ``MachineConfig`` adding ``iommu=pt`` (configurable) to the
  kernel command line of a MachineConfigPool role.  The machine-config operator then drains and
  reboots the pool's nodes one by one — the reason this is never on by default.
* ``gpudirect_rdma``: the GPU operator's ``ClusterPolicy`` driver settings.  ``dma-buf`` asks for
  the open GPU kernel modules (``driver.kernelModuleType: open``), which register GPU memory
  with the RDMA stack through the kernel's DMA-BUF, NVIDIA's recommended path and one that works
  with the inbox mlx5 drivers; ``peermem`` loads the legacy ``nvidia-peermem`` module
  (``driver.rdma.enabled``), which needs MOFED from the network operator or the host
  (``useHostMofed``).

The ClusterPolicy is **patched, not created**: it is a cluster singleton, normally created with
the operator install (the OpenShift console names it ``gpu-cluster-policy``), and a full one
needs nine required sections (driver, toolkit, device plugin, DCGM, ...) whose right values
belong to that install, not to a network experiment.  A ``CustomResourcePatch`` server-side
applies only the driver fields above (forcing ownership of them), and destroying the stack
releases those fields instead of deleting the GPU stack.  The patch fails if no ClusterPolicy
of that name exists, which is the wanted signal that the GPU operator is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pulumi

from components.args import ComponentArgs
from components.manifests.k8s_objects import PATCH_FORCE_ANNOTATION, Manifest, declare, part_of_labels
from components.models.fabric_config import NodePrepConfig

__all__ = ["NodePrep", "NodePrepArgs", "render_node_prep"]


class NodePrepArgs(ComponentArgs):
    instance: str
    """Experiment name: prefix of the MachineConfig's name, and its labels."""
    settings: NodePrepConfig

    @property
    def enabled(self) -> bool:
        return self.settings.iommu_passthrough or self.settings.gpudirect_rdma != "off"


def _machine_config(args: NodePrepArgs) -> Manifest:
    prep = args.settings
    labels = {"machineconfiguration.openshift.io/role": prep.machine_config_role, **part_of_labels(args.instance)}
    return Manifest(
        {
            "apiVersion": "machineconfiguration.openshift.io/v1",
            "kind": "MachineConfig",
            # MachineConfigs merge in name order: 99- sorts after the cluster's own.
            "metadata": {"name": f"99-{prep.machine_config_role}-{args.instance}-iommu-pt", "labels": labels},
            "spec": {"kernelArguments": list(prep.kernel_arguments)},
        }
    )


def _cluster_policy_patch(args: NodePrepArgs) -> Manifest:
    prep = args.settings
    driver: dict[str, Any]
    if prep.gpudirect_rdma == "dma-buf":
        driver = {"kernelModuleType": "open"}
    else:
        driver = {"rdma": {"enabled": True, "useHostMofed": prep.host_mofed}}
    return Manifest(
        {
            "apiVersion": "nvidia.com/v1",
            "kind": "ClusterPolicy",
            "metadata": {"name": prep.cluster_policy_name, "annotations": {PATCH_FORCE_ANNOTATION: "true"}},
            "spec": {"driver": driver},
        },
        patch=True,
    )


def render_node_prep(args: NodePrepArgs) -> list[tuple[str, Manifest]]:
    """``(child suffix, manifest)`` for each enabled prerequisite."""
    rendered: list[tuple[str, Manifest]] = []
    if args.settings.iommu_passthrough:
        rendered.append(("iommu", _machine_config(args)))
    if args.settings.gpudirect_rdma != "off":
        rendered.append(("gpudirect", _cluster_policy_patch(args)))
    return rendered


class NodePrep(pulumi.ComponentResource):
    """Node settings for GPUDirect RDMA; children ``<name>-iommu`` (MachineConfig) and
    ``<name>-gpudirect`` (ClusterPolicy patch), each only when enabled."""

    manifests: Sequence[Manifest]

    def __init__(self, name: str, args: NodePrepArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:nodeprep:NodePrep", name, None, opts)
        child = pulumi.ResourceOptions(parent=self)
        rendered = render_node_prep(args)
        for suffix, manifest in rendered:
            declare(f"{name}-{suffix}", manifest, child)
        self.manifests = [manifest for _, manifest in rendered]
        self.register_outputs({"objects": [f"{m.kind}/{m.name}" for m in self.manifests]})
