"""Config of the Kubernetes layer: the target cluster and how the secondary NICs reach the pods.

Two objects of ``gpu-cluster:cluster``:

* ``kubernetes``: which cluster and namespace, whether it is OpenShift, the cluster's own
  address ranges (pod and service CIDRs, OVN-Kubernetes internal ranges; checked against the
  VPC and cluster-network prefixes), and, for ``layers: kubernetes``, the NIC inventory of
  nodes that already exist (``nodes``).
* ``fabric``: how a secondary NIC is attached to a pod (``attachment``), how the pod gets the
  address the VPC assigned to that NIC (``ip_assignment``), the NICs' interface names inside
  the guest OS, and the opt-in operator and node settings (RDMA device plugin, SR-IOV
  operator, ``iommu=pt``, GPUDirect RDMA).

Rules that need the rest of the config (variant, profile, node count) live in
``components.checks.crosscheck.fabric_errors``; this module only checks what a field can check alone.
Why each default is what it is: ``docs/fabric.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from components.models.model import ConfigModel
from components.models.types import Cidr, DnsLabel, DnsSubdomain, InterfaceName, Ipv4

__all__ = [
    "Attachment",
    "ExistingNic",
    "ExistingNode",
    "FabricConfig",
    "GpuDirectRdma",
    "IpAssignment",
    "KubernetesConfig",
    "NodePrepConfig",
    "OvnRanges",
    "RdmaConfig",
    "SriovConfig",
]

Attachment = Literal["host-device", "macvlan", "sriov-operator"]
IpAssignment = Literal["mapping", "dhcp"]
GpuDirectRdma = Literal["off", "dma-buf", "peermem"]

# Linux interface names: at most 15 bytes (IFNAMSIZ - 1), no '/', ':' or whitespace.
# ':' is excluded too because it separates the fields of the IP-mapping file.
# --------------------------------------------------------------------------------------
# kubernetes
# --------------------------------------------------------------------------------------


class OvnRanges(ConfigModel):
    """OVN-Kubernetes' internal ranges (OpenShift 4.18 defaults); none may overlap a NIC's subnet."""

    join_cidr: Cidr = "100.64.0.0/16"
    """``internalJoinSubnet``: node gateway routers to the cluster router."""
    transit_cidr: Cidr = "100.88.0.0/16"
    """``internalTransitSwitchSubnet``: the transit switch of OVN interconnect."""
    masquerade_cidr: Cidr = "169.254.0.0/17"
    """``internalMasqueradeSubnet``: host-to-service masquerade addresses."""


class ExistingNic(ConfigModel):
    """One interface of an existing node, as the cloud layer would have planned it."""

    index: int = Field(ge=0, le=32)
    """0 for the primary interface, 1..K for the secondary NICs (pod interface ``net<k>``)."""
    role: Literal["primary", "vnic", "cluster"]
    subnet: Cidr
    """The VPC or cluster-network subnet the NIC is attached to."""
    ip: Ipv4
    """The address the VPC assigned to the NIC (the only one it forwards)."""
    guest_interface: InterfaceName | None = None
    """The NIC's interface name in the node's OS (``ens13``, ``enp163s0``); must agree across nodes."""


class ExistingNode(ConfigModel):
    """A node that already exists (``layers: kubernetes``)."""

    name: DnsSubdomain
    """The Kubernetes node name (``spec.nodeName`` of the pods on it)."""
    nics: list[ExistingNic] = Field(min_length=1)


class KubernetesConfig(ConfigModel):
    """The cluster the training runs on."""

    context: str | None = None
    """kubeconfig context; the kubeconfig itself is the secret ``gpu-cluster:kubeconfig``, or the ambient one."""
    namespace: DnsLabel | None = None
    """Namespace of the NADs, the IP-mapping ConfigMap and the training job; default
    ``<name_prefix>-training`` (``gpu-training`` for the default prefix), so two stacks on one cluster
    live apart.  Its objects' cluster-scoped names derive from it too (``ClusterConfig.namespace``)."""
    create_namespace: bool = True
    """``false``: the namespace exists already (an administrator made it: the in-cluster ``setup.yaml``
    does, with the runner's Role in it); the program reads it and never creates, changes or deletes it."""
    create_scc: bool = True
    """``false``: the pods' SecurityContextConstraints (``<namespace>-<job>``) exists already (the in-cluster
    ``setup.yaml`` applies it): the stack binds the job's ServiceAccount to it but does not manage it, so
    whoever runs the stack cannot change what it grants."""
    openshift: bool = True
    """OpenShift ships Multus, the reference CNI plugins and whereabouts; elsewhere the NVIDIA
    network operator deploys Multus and the CNI plugins."""
    pod_cidr: Cidr = "10.128.0.0/14"
    """The cluster network (pod) CIDR (OpenShift default)."""
    service_cidr: Cidr = "172.30.0.0/16"
    """The service network CIDR (OpenShift default)."""
    ovn: OvnRanges = OvnRanges()
    whereabouts_installed: bool = False
    """Off OpenShift only: whereabouts IPAM (which the ``mapping`` mechanism's NADs use) is not
    deployed by this project or by the NVIDIA network operator; say it is there once installed."""
    nodes: list[ExistingNode] = Field(default_factory=list)
    """With ``layers: kubernetes`` only: the existing nodes and their NICs (required then)."""


# --------------------------------------------------------------------------------------
# fabric
# --------------------------------------------------------------------------------------


NIC_CLUSTER_POLICY_NAME = "nic-cluster-policy"
"""The only NicClusterPolicy name the NVIDIA network operator reconciles: in
``Mellanox/network-operator`` ``controllers/nicclusterpolicy_controller.go``, ``Reconcile`` hands any
other name to ``handleUnsupportedInstance``, which only sets the policy's state to ``ignore``
(``consts.NicClusterPolicyResourceName`` in ``pkg/consts/consts.go``)."""


def _reconciled_policy_name(value: str) -> str:
    if value != NIC_CLUSTER_POLICY_NAME:
        raise ValueError(
            f"the NVIDIA network operator reconciles only the NicClusterPolicy named {NIC_CLUSTER_POLICY_NAME} "
            f"and ignores one named {value!r}: leave the key out"
        )
    return value


class OfedDriverConfig(ConfigModel):
    """The network operator's DOCA/MOFED driver container (``NicClusterPolicy.spec.ofedDriver``)."""

    repository: str = Field(default="nvcr.io/nvidia/mellanox", min_length=1)
    image: str = Field(default="doca-driver", min_length=1)
    version: str = Field(min_length=1)
    """The driver tag matching the operator release and the node kernel (no default: it is
    specific to the operator version installed; see the operator's release notes)."""


class RdmaConfig(ConfigModel):
    """The NVIDIA network operator's NicClusterPolicy (``sriov-rdma`` with host-device, and
    Multus/CNI plugins off OpenShift)."""

    nic_cluster_policy: Literal["create", "patch"] = "create"
    """``create``: this stack owns the NicClusterPolicy; ``patch``: server-side-apply our
    sections into one that already exists (the operator honours a single policy)."""
    policy_name: Annotated[str, AfterValidator(_reconciled_policy_name)] = NIC_CLUSTER_POLICY_NAME
    """Always ``nic-cluster-policy``: the operator reconciles only a policy of that name
    (``Mellanox/network-operator``, ``pkg/consts``; the controller ignores any other)."""
    ofed_driver: OfedDriverConfig | None = None
    """The operator's MOFED (DOCA) driver container, rendered as the policy's ``ofedDriver``.
    Needed only by ``node_prep.gpudirect_rdma: peermem`` without ``host_mofed``: the GPU driver pod's
    ``k8s-driver-manager`` init container then waits, on every node with a Mellanox NIC, for the
    ``/run/mellanox/drivers/.driver-ready`` file that only this container writes (``docs/fabric.md``).
    With ``nic_cluster_policy: patch`` leave it unset when the existing policy deploys the driver:
    setting it takes ``ofedDriver`` over from that policy's owner."""
    device_plugin_repository: str = "ghcr.io/mellanox"
    device_plugin_image: str = "k8s-rdma-shared-dev-plugin"
    device_plugin_version: str = "v1.5.3"
    multus_repository: str = "ghcr.io/k8snetworkplumbingwg"
    multus_image: str = "multus-cni"
    multus_version: str = "v4.1.0"
    cni_plugins_repository: str = "ghcr.io/k8snetworkplumbingwg"
    cni_plugins_image: str = "plugins"
    cni_plugins_version: str = "v1.5.0"


class SriovConfig(ConfigModel):
    """The SR-IOV network operator's objects (``attachment: sriov-operator``)."""

    operator_namespace: DnsLabel | None = None
    """Where the operator watches its policies; default ``openshift-sriov-network-operator`` on
    OpenShift, ``sriov-network-operator`` elsewhere."""
    resource_prefix: DnsSubdomain = "openshift.io"
    """Prefix the SR-IOV device plugin registers resources under."""
    node_selector: dict[str, str] = Field(
        default_factory=lambda: {"feature.node.kubernetes.io/pci-15b3.present": "true"}
    )
    """Nodes the policies apply to (NFD's label for a Mellanox PCI device by default)."""
    mtu: int | None = Field(default=None, ge=576, le=9216)


class NodePrepConfig(ConfigModel):
    """Node-level prerequisites of GPUDirect RDMA; each is opt-in because it reboots or
    re-deploys drivers on every GPU node."""

    iommu_passthrough: bool = False
    """OpenShift MachineConfig adding the kernel argument(s) below (rolling reboot of the pool)."""
    machine_config_role: DnsLabel = "worker"
    """The MachineConfigPool role the MachineConfig applies to."""
    kernel_arguments: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=lambda: ["iommu=pt"], min_length=1
    )
    gpudirect_rdma: GpuDirectRdma = "off"
    """``dma-buf``: open GPU kernel modules (NVIDIA's recommendation, inbox RDMA drivers suffice);
    ``peermem``: the legacy nvidia-peermem module (needs MOFED)."""
    cluster_policy_name: DnsSubdomain = "gpu-cluster-policy"
    """The GPU operator's existing ClusterPolicy (the name the OpenShift console creates)."""
    host_mofed: bool = False
    """``peermem`` only: MOFED is installed on the host rather than by the network operator."""


class FabricConfig(ConfigModel):
    """How secondary NICs reach the training pods."""

    attachment: Attachment | None = None
    """``host-device`` (default for every variant with secondary NICs; the study's) moves the NIC
    into the pod; ``macvlan`` (vnic only) shares it through a MAC sub-interface;
    ``sriov-operator`` (sriov*) lets the SR-IOV network operator attach the VF. Not for ``pod``."""
    ip_assignment: IpAssignment = "mapping"
    """``mapping``: the pod replaces a temporary whereabouts address with the VPC-assigned one
    from the node→interface→IP ConfigMap (needs NET_ADMIN); ``dhcp``: the CNI dhcp IPAM asks the
    VPC's DHCP for the NIC's address (needs the CNI dhcp daemon; not with macvlan)."""
    guest_interfaces: list[InterfaceName] | None = None
    """Interface names of secondary NIC 1, 2, ... in the node OS; default by variant and profile."""
    rdma: RdmaConfig = RdmaConfig()
    sriov: SriovConfig = SriovConfig()
    node_prep: NodePrepConfig = NodePrepConfig()
