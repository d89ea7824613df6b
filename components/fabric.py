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
``fabric_rules.name_base``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
from pydantic import model_validator
from pydantic_core import PydanticCustomError

from .args import ComponentArgs, OutputRef
from .config import ClusterConfig
from .crosscheck import fabric_errors
from .fabric_rules import (
    IP_MAPPING_KEY,
    RDMA_RESOURCE_PREFIX,
    attachment_of,
    ipam_config,
    mapping_configmap_name,
    name_base,
    needs_ip_spoofing,
    network_name,
    rdma_resource_name,
    resolved_names,
    sriov_operator_namespace,
    sriov_resource_name,
    used_indices,
)
from .inventory import AddressPlan
from .k8s_objects import Manifest, declare
from .nads import NadSpec, SecondaryNetworks, SecondaryNetworksArgs
from .nicmap import mapping_lines, render_mapping_configmap
from .nodeprep import NodePrep, NodePrepArgs
from .rdma import RdmaResourceSpec, render_nic_cluster_policy
from .sriov import SriovNetworks, SriovNetworksArgs, SriovNicSpec
from .wiring import PodNetworkWiring

__all__ = ["Fabric", "FabricArgs"]


def _message(error_type: object) -> str:
    return error_type.message() if isinstance(error_type, PydanticCustomError) else str(error_type)


class FabricArgs(ComponentArgs):
    config: ClusterConfig
    plan: AddressPlan
    """Every node's NICs with their VPC-assigned addresses."""
    namespace_dependencies: Sequence[OutputRef] = ()
    """Resources the namespaced objects must wait for (the training namespace, when the program
    creates it)."""

    @model_validator(mode="after")
    def _consistent(self) -> FabricArgs:
        cfg, plan = self.config, self.plan
        problems = [f"{'.'.join(map(str, e['loc']))}: {_message(e['type'])}" for e in fabric_errors(cfg)]
        if len(plan.nodes) != cfg.nodes.count:
            problems.append(f"the plan has {len(plan.nodes)} nodes, the config {cfg.nodes.count}")
        if cfg.network.variant != "pod" and used_indices(plan) != list(range(1, cfg.network.nics_per_node + 1)):
            problems.append(f"the plan's used NICs {used_indices(plan)} are not 1..{cfg.network.nics_per_node}")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class Fabric(pulumi.ComponentResource):
    """Secondary networks, device resources, IP mapping and node prep of one experiment.

    Children (each only where the variant needs it): ``<name>-nads`` (SecondaryNetworks),
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
        cfg, plan = args.config, args.plan
        namespace = cfg.kubernetes.namespace
        instance = name_base(cfg)
        deps = list(args.namespace_dependencies)
        child = pulumi.ResourceOptions(parent=self)
        namespaced = pulumi.ResourceOptions(parent=self, depends_on=deps)
        attachment = attachment_of(cfg)
        indices = used_indices(plan) if attachment else []
        names = resolved_names(cfg, indices)
        rdma = cfg.network.variant == "sriov-rdma"
        manifests: list[Manifest] = []
        networks: list[str] = []
        resources: dict[str, int] = {}

        if attachment == "host-device" or attachment == "macvlan":  # narrows the type, unlike ``in``
            nads = SecondaryNetworks(f"{name}-nads", SecondaryNetworksArgs(
                namespace=namespace, instance=instance, depends_on=deps,
                networks=[NadSpec(name=network_name(cfg, k), interface=f"net{k}", device=names[k],
                                  attachment=attachment, ipam=ipam_config(cfg, plan, k)) for k in indices],
            ), opts=child)
            networks, manifests = nads.network_names, [*manifests, *nads.manifests]
        elif attachment == "sriov-operator":
            sriov = SriovNetworks(f"{name}-sriov", SriovNetworksArgs(
                operator_namespace=sriov_operator_namespace(cfg), network_namespace=namespace, instance=instance,
                rdma=rdma, node_selector=cfg.fabric.sriov.node_selector, mtu=cfg.fabric.sriov.mtu, depends_on=deps,
                nics=[SriovNicSpec(name=network_name(cfg, k), interface=f"net{k}", pf_name=names[k],
                                   resource_name=sriov_resource_name(cfg, k), ipam=ipam_config(cfg, plan, k))
                      for k in indices],
            ), opts=child)
            networks, manifests = sriov.network_names, [*manifests, *sriov.manifests]
            resources = {f"{cfg.fabric.sriov.resource_prefix}/{sriov_resource_name(cfg, k)}": 1 for k in indices}

        rdma_resources = ([RdmaResourceSpec(resource_name=rdma_resource_name(cfg, k), interface=names[k])
                           for k in indices] if rdma and attachment == "host-device" else [])
        multus = attachment is not None and not cfg.kubernetes.openshift
        if rdma_resources or multus or (rdma and cfg.fabric.rdma.ofed_driver is not None):
            policy = render_nic_cluster_policy(settings=cfg.fabric.rdma, instance=instance, resources=rdma_resources,
                                               multus_and_cni_plugins=multus)
            declare(f"{name}-nic-cluster-policy", policy, child)
            manifests.append(policy)
            resources.update({f"{RDMA_RESOURCE_PREFIX}/{r.resource_name}": 1 for r in rdma_resources})

        mapping = attachment is not None and cfg.fabric.ip_assignment == "mapping"
        if mapping:
            configmap = render_mapping_configmap(name=mapping_configmap_name(cfg), namespace=namespace,
                                                 key=IP_MAPPING_KEY, instance=instance,
                                                 lines=mapping_lines(plan, names))
            declare(f"{name}-nic-mapping", configmap, namespaced)
            manifests.append(configmap)

        prep_args = NodePrepArgs(instance=instance, settings=cfg.fabric.node_prep)
        if prep_args.enabled:
            manifests.extend(NodePrep(f"{name}-node-prep", prep_args, opts=child).manifests)

        self.wiring = PodNetworkWiring(
            variant=cfg.network.variant, namespace=namespace, networks=tuple(networks),
            interfaces=tuple(f"net{k}" for k in indices), extended_resources=resources,
            ip_mapping_configmap=mapping_configmap_name(cfg) if mapping else None, ip_mapping_key=IP_MAPPING_KEY,
            needs_net_admin=mapping, rdma=rdma,
        )
        self.needs_ip_spoofing = needs_ip_spoofing(cfg)
        self.manifests = manifests
        self.register_outputs({
            "networks": list(self.wiring.networks),
            "interfaces": list(self.wiring.interfaces),
            "extended_resources": dict(self.wiring.extended_resources),
            "ip_mapping_configmap": self.wiring.ip_mapping_configmap,
            "needs_ip_spoofing": self.needs_ip_spoofing,
        })
