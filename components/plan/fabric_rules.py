"""The fabric's decisions as pure functions of the validated config and the address plan.

Everything the Kubernetes layer derives — which attachment a variant uses, the NICs' interface
names in the guest, object and resource names, the temporary IPAM ranges of the mapping
mechanism — is computed here, without Pulumi, so that the components, the cross-layer checks
(``components.checks.crosscheck``) and the cloud layer (``needs_ip_spoofing``) agree by construction.

Guest interface names (defaults; ``fabric.guest_interfaces`` or ``kubernetes.nodes`` override):

* secondary vNIC *k* → ``ens{12+k}`` (``ens13`` for NIC 1).  The study's mapping ConfigMap shows
  ``ens13``..``ens17`` carrying secondary vNICs 1..5 on its OpenShift workers; beyond NIC 5 the
  rule is extrapolated (the hypervisor hot-plugs each new vNIC into the next PCI slot).
* cluster NIC *k* (``gx3d`` H100/H200, the 8 ConnectX-7 VFs) → ``enp163s0``, ``enp173s0``, ...,
  ``enp233s0`` (PCI buses 0xa3..0xe9).  A public OpenShift GPU/RDMA guide lists exactly these
  eight names on IBM Cloud ``gx3d-160x1792x8h100`` workers, and the study's NAD for its 7th
  cluster-network port uses ``enp223s0``, the 7th of them.  Caveat: in that guide the attachment
  order and the bus order disagree for two NICs (the 6th and 7th subnets are swapped), and no
  source lists names for 16 or 32 cluster NICs: check ``ip -br addr`` on a node and set
  ``fabric.guest_interfaces`` where it differs.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from components.models.config import ClusterConfig
from components.models.fabric_config import Attachment
from components.plan.inventory import AddressPlan, Nic

__all__ = [
    "CLUSTER_NIC_GUEST_INTERFACES",
    "DHCP_IPAM",
    "IP_MAPPING_KEY",
    "mapping_lines",
    "mapping_nics",
    "RDMA_RESOURCE_PREFIX",
    "VNIC_GUEST_INTERFACE_OFFSET",
    "TemporaryRange",
    "attachment_of",
    "default_guest_interfaces",
    "guest_interface_names",
    "ipam_config",
    "mapping_configmap_name",
    "natural_key",
    "needs_ip_spoofing",
    "network_name",
    "nic_subnets",
    "nics_at",
    "nic_resource_name",
    "resolved_names",
    "sriov_operator_namespace",
    "temporary_range",
    "used_indices",
    "uses_secondary_networks",
]

VNIC_GUEST_INTERFACE_OFFSET = 12
"""Secondary vNIC k appears as ``ens{12 + k}`` in the guest (study: ens13 for NIC 1)."""
CLUSTER_NIC_GUEST_INTERFACES = (
    "enp163s0",
    "enp173s0",
    "enp183s0",
    "enp193s0",
    "enp203s0",
    "enp213s0",
    "enp223s0",
    "enp233s0",
)
"""Guest names of the 8 cluster NICs of a gx3d H100/H200 instance, NIC 1 first."""
IP_MAPPING_KEY = "nodename_ip_mapping.yaml"
"""The ConfigMap key (and mounted file name) of the study's mapping file."""
RDMA_RESOURCE_PREFIX = "rdma"
"""The RDMA shared device plugin's default resource prefix (``rdma/<resourceName>``)."""


# --------------------------------------------------------------------------------------
# Variant, attachment, IP mechanism
# --------------------------------------------------------------------------------------


def uses_secondary_networks(cfg: ClusterConfig) -> bool:
    return cfg.network.variant != "pod"


def attachment_of(cfg: ClusterConfig) -> Attachment | None:
    """The attachment in effect: the configured one, ``host-device`` by default, none for ``pod``."""
    if not uses_secondary_networks(cfg):
        return None
    return cfg.fabric.attachment or "host-device"


def needs_ip_spoofing(cfg: ClusterConfig) -> bool:
    """Whether the secondary VNIs must allow IP spoofing (for the cloud layer).

    A macvlan sub-interface sends with its own MAC address, not the VNI's, so IBM VPC's
    anti-spoofing drops its frames unless ``allow_ip_spoofing`` is set on the VNI.
    host-device and SR-IOV move the NIC itself: MAC and IP are the VPC's own.
    """
    return attachment_of(cfg) == "macvlan"


# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------
# The fabric's Kubernetes object names start with the training namespace (``ClusterConfig.namespace``, derived
# from the stack unless set), not a constant: SR-IOV policies, the MachineConfig and device-plugin resource
# names live outside the namespace, where two experiments sharing a cluster must not collide.


def _identifier(text: str) -> str:
    """Device-plugin resource names accept only ``[A-Za-z0-9_]``."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def network_name(cfg: ClusterConfig, index: int) -> str:
    """NAD (or SriovNetwork) name of secondary NIC ``index``: per NIC, never per node."""
    return f"{cfg.namespace}-net{index}"


def mapping_configmap_name(cfg: ClusterConfig) -> str:
    return f"{cfg.namespace}-nic-mapping"


def nic_resource_name(cfg: ClusterConfig, index: int) -> str:
    """The device-plugin resource of NIC ``index``: the RDMA shared device plugin's (without the ``rdma/``
    prefix) and the SR-IOV operator's, both of which accept only ``[A-Za-z0-9_]``."""
    return _identifier(f"{cfg.namespace}_net{index}")


def sriov_operator_namespace(cfg: ClusterConfig) -> str:
    if cfg.fabric.sriov.operator_namespace:
        return cfg.fabric.sriov.operator_namespace
    return "openshift-sriov-network-operator" if cfg.kubernetes.openshift else "sriov-network-operator"


def natural_key(name: str) -> tuple[Any, ...]:
    """Sort key that orders ``node2`` before ``node10``."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


# --------------------------------------------------------------------------------------
# Guest interface names
# --------------------------------------------------------------------------------------


def default_guest_interfaces(cfg: ClusterConfig) -> tuple[str, ...]:
    """Documented default names of secondary NIC 1, 2, ... for the variant (see module doc)."""
    net = cfg.network
    if net.uses_cluster_network:
        return CLUSTER_NIC_GUEST_INTERFACES[: net.secondary_nics]
    if net.variant == "vnic":
        return tuple(f"ens{VNIC_GUEST_INTERFACE_OFFSET + k}" for k in range(1, net.secondary_nics + 1))
    return ()


def _inventory_names(cfg: ClusterConfig) -> dict[int, str]:
    names: dict[int, str] = {}
    for node in cfg.kubernetes.nodes:
        for nic in node.nics:
            if nic.role != "primary" and nic.guest_interface is not None:
                names.setdefault(nic.index, nic.guest_interface)
    return names


def guest_interface_names(cfg: ClusterConfig) -> dict[int, str]:
    """NIC index → interface name in the node OS, for every secondary NIC that has one.

    Precedence: the existing nodes' inventory (``kubernetes.nodes``), then
    ``fabric.guest_interfaces``, then the defaults.  Disagreements are reported by
    ``components.checks.crosscheck``; this function only resolves.
    """
    names = dict(enumerate(default_guest_interfaces(cfg), start=1))
    if cfg.fabric.guest_interfaces is not None:
        names = dict(enumerate(cfg.fabric.guest_interfaces, start=1))
    names.update(_inventory_names(cfg))
    return names


# --------------------------------------------------------------------------------------
# IPAM
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TemporaryRange:
    """Whereabouts range of the mapping mechanism for one NIC's subnet.

    The pod keeps its whereabouts address only until the entrypoint swaps in the VPC-assigned
    one, but while it holds it, it must not be an address the VPC gave to anything.  The cloud
    layer assigns node addresses from the bottom half of every subnet (``plan.inventory``), so the
    temporary addresses come from the top half, without the broadcast address, and any node
    address that lies there anyway (existing nodes) is excluded.  The range stays the same
    when nodes are added, so scaling never rewrites a NAD's range.
    """

    subnet: str
    start: str
    end: str
    exclude: tuple[str, ...]
    capacity: int
    """Addresses whereabouts can hand out."""

    def ipam(self) -> dict[str, Any]:
        config: dict[str, Any] = {
            "type": "whereabouts",
            "range": self.subnet,
            "range_start": self.start,
            "range_end": self.end,
        }
        if self.exclude:
            config["exclude"] = list(self.exclude)
        return config

    def addresses(self) -> Iterable[ipaddress.IPv4Address]:
        excluded = {ipaddress.IPv4Network(e).network_address for e in self.exclude}
        first, last = ipaddress.IPv4Address(self.start), ipaddress.IPv4Address(self.end)
        return (
            ipaddress.IPv4Address(a)
            for a in range(int(first), int(last) + 1)
            if ipaddress.IPv4Address(a) not in excluded
        )


def temporary_range(subnet: str, taken: Iterable[str]) -> TemporaryRange:
    network = ipaddress.IPv4Network(subnet)
    start = network.network_address + network.num_addresses // 2
    end = network.broadcast_address - 1
    in_range = sorted({ip for ip in map(ipaddress.IPv4Address, taken) if start <= ip <= end})
    exclude = tuple(f"{ip}/32" for ip in in_range)
    capacity = max(0, int(end) - int(start) + 1 - len(exclude))
    return TemporaryRange(subnet=str(network), start=str(start), end=str(end), exclude=exclude, capacity=capacity)


DHCP_IPAM: dict[str, Any] = {"type": "dhcp", "request": [{"skipDefault": True, "option": "subnet-mask"}]}
"""CNI dhcp IPAM asking only for the subnet mask: without the router option the plugin adds no
second default route into the pod (eth0's stays the only one)."""


def nic_subnets(plan: AddressPlan) -> dict[int, str]:
    """NIC index → subnet of every secondary NIC (the same on every node)."""
    return {nic.index: nic.subnet_cidr for nic in plan.secondary()}


def used_indices(plan: AddressPlan) -> list[int]:
    return sorted({nic.index for nic in plan.secondary(used_only=True)})


def nics_at(plan: AddressPlan, index: int) -> list[Nic]:
    return [nic for nic in plan.nics if nic.index == index]


def ipam_config(cfg: ClusterConfig, plan: AddressPlan, index: int) -> dict[str, Any]:
    """The IPAM section of NIC ``index``'s NAD for the configured IP mechanism."""
    if cfg.fabric.ip_assignment == "dhcp":
        return dict(DHCP_IPAM)
    return temporary_range(nic_subnets(plan)[index], [n.ip for n in nics_at(plan, index) if n.ip]).ipam()


def resolved_names(cfg: ClusterConfig, indices: Iterable[int]) -> Mapping[int, str]:
    """Guest names for ``indices``; raises KeyError for a NIC without one (checked earlier)."""
    names = guest_interface_names(cfg)
    return {k: names[k] for k in indices}


def _mapped(plan: AddressPlan) -> list[Nic]:
    return sorted(plan.secondary(used_only=True), key=lambda nic: (natural_key(nic.node), nic.index))


def mapping_lines(plan: AddressPlan, guest_interfaces: Mapping[int, str]) -> list[str]:
    """``node:hostif:netN:ip`` for every NIC the job uses."""
    return [f"{nic.node}:{guest_interfaces[nic.index]}:{nic.pod_interface}:{nic.ip}" for nic in _mapped(plan)]


def mapping_nics(plan: AddressPlan) -> list[tuple[str, int]]:
    """(node, NIC index) of every ``mapping_lines`` line, in the same order."""
    return [(nic.node, nic.index) for nic in _mapped(plan)]
