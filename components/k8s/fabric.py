"""The Kubernetes side of the network: how the nodes' secondary NICs reach the training pods.

``Fabric`` turns the validated config and the address plan (from the cloud layer, or from
``kubernetes.nodes`` for existing nodes) into Kubernetes objects, and hands the training job a
``PodNetworkWiring`` of plain values: the NADs to annotate, the pod interfaces, the device
resources to request, the mapping ConfigMap and whether the pod needs NET_ADMIN.

Objects per variant (``docs/fabric.md`` explains the choices):

========================  ==================================================================
``pod``                   none (NCCL uses the pod network's ``eth0``)
``vnic``                  one NAD per vNIC the job uses (host-device, or macvlan)
``sriov``                 host-device: one NAD per cluster NIC the job uses;
                          sriov-operator: SriovNetworkNodePolicy + SriovNetwork per NIC
``sriov-rdma``            as ``sriov``; with host-device also a NicClusterPolicy whose RDMA
                          shared device plugin exposes one resource per NIC
any but ``pod``           the node→interface→IP ConfigMap (``ip_assignment: mapping``); a
                          NicClusterPolicy with Multus and CNI plugins off OpenShift
opt-in                    MachineConfig ``iommu=pt``, GPU operator ClusterPolicy patch
========================  ==================================================================

The component never builds a provider: the Kubernetes provider arrives through ``opts`` and
every child inherits it through ``parent``.  Child names derive from the component's name and
a NIC's pod interface (``<name>-nads-net1``), so adding nodes adds mapping lines and renames
nothing; object names in the cluster derive from the namespace (``gpu-training-net1``), see
``FabricPlan.instance``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pulumi

from components.args import ComponentArgs, OutputRef
from components.k8s.nads import SecondaryNetworks, SecondaryNetworksArgs
from components.k8s.nodeprep import NodePrep, NodePrepArgs
from components.k8s.rdma import render_nic_cluster_policy
from components.k8s.sriov import SriovNetworks, SriovNetworksArgs
from components.manifests.k8s_objects import Manifest, declare
from components.manifests.nicmap import render_mapping_configmap
from components.models.fabric_config import FabricConfig
from components.plan.fabric_rules import IP_MAPPING_KEY
from components.plan.plan import FabricPlan
from components.plan.wiring import PodNetworkWiring

__all__ = ["Fabric", "FabricArgs"]


class FabricArgs(ComponentArgs):
    plan: FabricPlan
    """The fabric's decisions (``Plan.fabric``): networks, resources, mapping lines, wiring."""
    settings: FabricConfig
    """Operator-facing settings rendered as given: NicClusterPolicy images, SR-IOV options, node prep."""
    mapping_text: OutputRef | None = None
    """The mapping file as the cloud layer reports the addresses (an ``Output``), when this stack
    creates the NICs; else the plan's lines are the file."""
    namespace_dependencies: Sequence[OutputRef] = ()
    """Resources the namespaced objects must wait for (the training namespace, when the program
    creates it)."""


class Fabric(pulumi.ComponentResource):
    """Secondary networks, device resources, IP mapping and node prep of one experiment.

    Children (each only where the plan has them): ``<name>-nads`` (SecondaryNetworks),
    ``<name>-sriov`` (SriovNetworks), ``<name>-nic-cluster-policy``, ``<name>-nic-mapping``
    (ConfigMap) and ``<name>-node-prep`` (NodePrep).
    """

    wiring: PodNetworkWiring
    """What the training pods must carry to use the fabric (plain values)."""
    needs_ip_spoofing: bool
    """Whether the cloud layer must set ``allow_ip_spoofing`` on the secondary VNIs (macvlan)."""
    manifests: list[Manifest]
    """Every object exactly as applied, for the preview's manifest files."""

    def __init__(self, name: str, args: FabricArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:fabric:Fabric", name, None, opts)
        plan, settings = args.plan, args.settings
        deps = list(args.namespace_dependencies)
        child = pulumi.ResourceOptions(parent=self)
        namespaced = pulumi.ResourceOptions(parent=self, depends_on=deps)
        manifests: list[Manifest] = []

        if plan.nads:
            nads = SecondaryNetworks(
                f"{name}-nads",
                SecondaryNetworksArgs(
                    namespace=plan.namespace,
                    instance=plan.instance,
                    depends_on=deps,
                    networks=list(plan.nads),
                ),
                opts=child,
            )
            manifests.extend(nads.manifests)
        if plan.sriov_nics:
            sriov = SriovNetworks(
                f"{name}-sriov",
                SriovNetworksArgs(
                    operator_namespace=plan.sriov_operator_namespace,
                    network_namespace=plan.namespace,
                    instance=plan.instance,
                    rdma=plan.wiring.rdma,
                    node_selector=settings.sriov.node_selector,
                    mtu=settings.sriov.mtu,
                    depends_on=deps,
                    nics=list(plan.sriov_nics),
                ),
                opts=child,
            )
            manifests.extend(sriov.manifests)
        if plan.nic_cluster_policy:
            policy = render_nic_cluster_policy(
                settings=settings.rdma,
                instance=plan.instance,
                resources=plan.rdma_resources,
                multus_and_cni_plugins=plan.multus_and_cni_plugins,
            )
            declare(f"{name}-nic-cluster-policy", policy, child)
            manifests.append(policy)
        if plan.mapping_configmap is not None:
            configmap = render_mapping_configmap(
                name=plan.mapping_configmap,
                namespace=plan.namespace,
                key=IP_MAPPING_KEY,
                instance=plan.instance,
                lines=list(plan.mapping_lines),
            )
            applied = (
                configmap
                if args.mapping_text is None
                else Manifest({**configmap.body, "data": {IP_MAPPING_KEY: args.mapping_text}})
            )
            declare(f"{name}-nic-mapping", applied, namespaced)
            manifests.append(configmap)
        prep_args = NodePrepArgs(instance=plan.instance, settings=settings.node_prep)
        if prep_args.enabled:
            manifests.extend(NodePrep(f"{name}-node-prep", prep_args, opts=child).manifests)

        self.wiring = plan.wiring
        self.needs_ip_spoofing = plan.needs_ip_spoofing
        self.manifests = manifests
        self.register_outputs(
            {
                "networks": list(self.wiring.networks),
                "interfaces": list(self.wiring.interfaces),
                "extended_resources": dict(self.wiring.extended_resources),
                "ip_mapping_configmap": self.wiring.ip_mapping_configmap,
                "needs_ip_spoofing": self.needs_ip_spoofing,
            }
        )
