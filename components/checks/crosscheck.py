"""Cross-layer checks of the fabric config, run by ``validation`` on the config and its address plan.

``fabric_errors(cfg)`` returns one field-level error per problem, before any resource exists:

* attachment and IP mechanism valid for the variant (``fabric.attachment``,
  ``fabric.ip_assignment``);
* a guest interface name for every NIC the job uses, no duplicates (``fabric.guest_interfaces``);
* no overlap between the VPC prefix, the cluster-network prefix (or, for existing nodes, their
  subnets), the cluster's pod and service CIDRs and OVN-Kubernetes' internal ranges;
* resource arithmetic: host-device NICs, RDMA device resources (``rdmaHcaMax`` 1) and the one VF
  the hypervisor passes per cluster NIC each serve one pod per node, and the VPC forwards only
  one address per NIC, so every NIC the job uses serves exactly one pod per node;
* the mapping mechanism's temporary whereabouts ranges fit inside their subnets, above the
  node addresses (``network.subnet_prefix_length``);
* opt-in node preparation only where it applies (``fabric.node_prep.*``).

Called once by ``components.checks.validation``, with the one address plan the plan is then made from
(None when the node inventory is broken).
"""

from __future__ import annotations

import ipaddress

from pydantic_core import InitErrorDetails

from components.models.config import ClusterConfig, config_error
from components.plan.fabric_rules import (
    default_guest_interfaces,
    guest_interface_names,
    nic_subnets,
    nics_at,
    temporary_range,
    used_indices,
)
from components.plan.inventory import AddressPlan

__all__ = ["fabric_errors"]

Loc = tuple[str | int, ...]


def fabric_errors(cfg: ClusterConfig, plan: AddressPlan | None) -> list[InitErrorDetails]:
    """Every fabric problem of ``cfg``, each reported at the field to change; the checks that
    read addresses run only with a ``plan`` (None when the node inventory is broken, which
    ``existing.existing_node_errors`` reports)."""
    errors = _attachment_errors(cfg)
    errors += _overlap_errors(cfg)
    errors += _node_prep_errors(cfg)
    if cfg.network.variant == "pod":
        return errors
    errors += _guest_interface_errors(cfg)
    if plan is not None and cfg.fabric.ip_assignment == "mapping":
        errors += _temporary_range_errors(cfg, plan)
    if cfg.fabric.ip_assignment == "mapping" and not (cfg.kubernetes.openshift or cfg.kubernetes.whereabouts_installed):
        errors.append(
            _error(
                ("kubernetes", "whereabouts_installed"),
                "the mapping mechanism's NADs use whereabouts IPAM, which only OpenShift ships: install "
                "it and set kubernetes.whereabouts_installed: true, or use fabric.ip_assignment: dhcp",
                cfg.kubernetes.whereabouts_installed,
            )
        )
    return errors


def _error(loc: Loc, message: str, value: object) -> InitErrorDetails:
    return config_error(loc, message, value)


# --------------------------------------------------------------------------------------
# Attachment and IP mechanism
# --------------------------------------------------------------------------------------


def _attachment_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    variant, fabric = cfg.network.variant, cfg.fabric
    errors: list[InitErrorDetails] = []
    attachment = ("fabric", "attachment")
    if variant == "pod":
        if fabric.attachment is not None:
            errors.append(
                _error(attachment, "the pod network attaches no secondary NICs: leave it unset", fabric.attachment)
            )
        if "ip_assignment" in fabric.model_fields_set and fabric.ip_assignment != "mapping":
            errors.append(
                _error(
                    ("fabric", "ip_assignment"),
                    "the pod network's addresses come from OVN-Kubernetes",
                    fabric.ip_assignment,
                )
            )
        return errors
    if variant == "vnic" and fabric.attachment == "sriov-operator":
        errors.append(
            _error(
                attachment,
                "sriov-operator attaches cluster-network VFs (sriov, sriov-rdma); a vNIC "
                "is a virtio device: use host-device or macvlan",
                fabric.attachment,
            )
        )
    if cfg.network.uses_cluster_network and fabric.attachment == "macvlan":
        errors.append(
            _error(
                attachment,
                f"macvlan is for vNICs; {variant} attaches the cluster NIC itself: use host-device or sriov-operator",
                fabric.attachment,
            )
        )
    if fabric.attachment == "macvlan" and fabric.ip_assignment == "dhcp":
        errors.append(
            _error(
                ("fabric", "ip_assignment"),
                "a macvlan interface has its own MAC, which the VPC's DHCP does not know: use mapping",
                fabric.ip_assignment,
            )
        )
    return errors


# --------------------------------------------------------------------------------------
# Address ranges
# --------------------------------------------------------------------------------------


def _cloud_ranges(cfg: ClusterConfig) -> list[tuple[str, Loc, ipaddress.IPv4Network]]:
    if cfg.layers == "kubernetes":
        ranges: list[tuple[str, Loc, ipaddress.IPv4Network]] = []
        seen: set[str] = set()
        for i, node in enumerate(cfg.kubernetes.nodes):
            for j, nic in enumerate(node.nics):
                if nic.subnet not in seen:
                    seen.add(nic.subnet)
                    ranges.append(
                        (
                            f"subnet {nic.subnet} of NIC {nic.index}",
                            ("kubernetes", "nodes", i, "nics", j, "subnet"),
                            ipaddress.IPv4Network(nic.subnet),
                        )
                    )
        return ranges
    net = cfg.network
    ranges = [("the VPC prefix", ("network", "vpc_cidr"), ipaddress.IPv4Network(net.vpc_cidr))]
    if net.uses_cluster_network:
        ranges.append(
            (
                "the cluster-network prefix",
                ("network", "cluster_network_cidr"),
                ipaddress.IPv4Network(net.cluster_network_cidr),
            )
        )
    return ranges


def _cluster_ranges(cfg: ClusterConfig) -> list[tuple[str, Loc, ipaddress.IPv4Network]]:
    k8s = cfg.kubernetes
    return [
        ("the pod CIDR (kubernetes.pod_cidr)", ("kubernetes", "pod_cidr"), ipaddress.IPv4Network(k8s.pod_cidr)),
        (
            "the service CIDR (kubernetes.service_cidr)",
            ("kubernetes", "service_cidr"),
            ipaddress.IPv4Network(k8s.service_cidr),
        ),
        (
            "OVN's join subnet (kubernetes.ovn.join_cidr)",
            ("kubernetes", "ovn", "join_cidr"),
            ipaddress.IPv4Network(k8s.ovn.join_cidr),
        ),
        (
            "OVN's transit subnet (kubernetes.ovn.transit_cidr)",
            ("kubernetes", "ovn", "transit_cidr"),
            ipaddress.IPv4Network(k8s.ovn.transit_cidr),
        ),
        (
            "OVN's masquerade subnet (kubernetes.ovn.masquerade_cidr)",
            ("kubernetes", "ovn", "masquerade_cidr"),
            ipaddress.IPv4Network(k8s.ovn.masquerade_cidr),
        ),
    ]


def _overlap_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """Cloud ranges are blamed for clashing with the cluster's (an experiment picks its VPC
    layout; the cluster's ranges are given); among the cluster's, the later one is blamed."""
    cloud, cluster = _cloud_ranges(cfg), _cluster_ranges(cfg)
    errors: list[InitErrorDetails] = []
    for label, loc, network in cloud:
        for other_label, _, other in cluster:
            if network.overlaps(other):
                errors.append(
                    _error(
                        loc,
                        f"{network} ({label}) overlaps {other_label} {other}: a pod could not "
                        "tell a node's NIC from a cluster-internal address",
                        str(network),
                    )
                )
    if cfg.layers == "kubernetes":
        for a, (label, loc, network) in enumerate(cloud):
            for other_label, _, other in cloud[:a]:
                if network.overlaps(other):
                    errors.append(_error(loc, f"{network} ({label}) overlaps {other} ({other_label})", str(network)))
    for a, (label, loc, network) in enumerate(cluster):
        for other_label, _, other in cluster[:a]:
            if network.overlaps(other):
                errors.append(_error(loc, f"{network} ({label}) overlaps {other_label} {other}", str(network)))
    return errors


def _temporary_range_errors(cfg: ClusterConfig, plan: AddressPlan) -> list[InitErrorDetails]:
    errors: list[InitErrorDetails] = []
    subnets = nic_subnets(plan)
    needed = len(plan.nodes)  # one training pod per node
    loc: Loc = ("kubernetes", "nodes") if cfg.layers == "kubernetes" else ("network", "subnet_prefix_length")
    for index in used_indices(plan):
        subnet = ipaddress.IPv4Network(subnets[index])
        temporary = temporary_range(str(subnet), [n.ip for n in nics_at(plan, index) if n.ip])
        start, end = ipaddress.IPv4Address(temporary.start), ipaddress.IPv4Address(temporary.end)
        if not (start in subnet and end in subnet and end != subnet.broadcast_address):
            errors.append(_error(loc, f"the temporary range {start}-{end} of NIC {index} leaves {subnet}", str(subnet)))
        elif temporary.capacity < needed:
            errors.append(
                _error(
                    loc,
                    f"NIC {index}'s subnet {subnet} leaves {temporary.capacity} temporary addresses "
                    f"({start}-{end} without node addresses) for {needed} pods: use a larger "
                    "subnet or ip_assignment: dhcp",
                    cfg.subnet_prefix_length,
                )
            )
    return errors


# --------------------------------------------------------------------------------------
# Interface names
# --------------------------------------------------------------------------------------


def _guest_interface_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    loc: Loc = ("fabric", "guest_interfaces")
    configured = cfg.fabric.guest_interfaces
    attached = cfg.network.secondary_nics
    errors: list[InitErrorDetails] = []
    if configured is not None:
        if len(configured) > attached:
            errors.append(
                _error(loc, f"names {len(configured)} NICs but {attached} secondary NICs are attached", configured)
            )
        duplicates = sorted({name for name in configured if configured.count(name) > 1})
        if duplicates:
            errors.append(_error(loc, f"names {', '.join(duplicates)} more than once", configured))
        inventory = {
            nic.index: nic.guest_interface
            for node in cfg.kubernetes.nodes
            for nic in node.nics
            if nic.index > 0 and nic.guest_interface is not None
        }
        clashes = [
            f"NIC {k}: {configured[k - 1]} here, {name} in kubernetes.nodes"
            for k, name in sorted(inventory.items())
            if k <= len(configured) and configured[k - 1] != name
        ]
        if clashes:
            errors.append(_error(loc, f"disagrees with the node inventory ({'; '.join(clashes)})", configured))
    names = guest_interface_names(cfg)
    missing = [k for k in range(1, cfg.network.nics_per_node + 1) if k not in names]
    if missing:
        known = len(default_guest_interfaces(cfg))
        errors.append(
            _error(
                loc,
                f"no guest interface name for secondary NIC(s) {', '.join(map(str, missing))}: the "
                f"documented defaults cover NIC 1..{known} of this variant; list the names in the "
                "node OS (ip -br link)",
                configured,
            )
        )
    used = [names[k] for k in range(1, cfg.network.nics_per_node + 1) if k in names]
    repeated = sorted({name for name in used if used.count(name) > 1})
    if repeated and configured is None:
        errors.append(_error(loc, f"NICs the job uses share the name(s) {', '.join(repeated)}", used))
    return errors


def _node_prep_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    prep = cfg.fabric.node_prep
    errors: list[InitErrorDetails] = []
    if prep.iommu_passthrough and not cfg.kubernetes.openshift:
        errors.append(
            _error(
                ("fabric", "node_prep", "iommu_passthrough"),
                "is an OpenShift MachineConfig; on other clusters set the kernel argument in the node image",
                prep.iommu_passthrough,
            )
        )
    if prep.gpudirect_rdma != "off" and cfg.network.variant != "sriov-rdma":
        errors.append(
            _error(
                ("fabric", "node_prep", "gpudirect_rdma"),
                f"GPUDirect RDMA needs RDMA NICs (sriov-rdma), not {cfg.network.variant}",
                prep.gpudirect_rdma,
            )
        )
    if prep.host_mofed and prep.gpudirect_rdma != "peermem":
        errors.append(
            _error(("fabric", "node_prep", "host_mofed"), "only matters for gpudirect_rdma: peermem", prep.host_mofed)
        )
    rdma = cfg.fabric.rdma
    if rdma.ofed_driver is not None and cfg.network.variant != "sriov-rdma":
        errors.append(
            _error(
                ("fabric", "rdma", "ofed_driver"),
                f"the MOFED driver container serves RDMA NICs (sriov-rdma), not {cfg.network.variant}",
                None,
            )
        )
    # driver.rdma.enabled with useHostMofed: false makes the GPU driver pod's k8s-driver-manager init
    # container wait for /run/mellanox/drivers/.driver-ready on every node with a Mellanox NIC
    # (NVIDIA/k8s-driver-manager cmd/driver-manager/main.go, waitForMofedDriver; the GPU operator sets
    # its env in controllers/object_controls.go).  Only the network operator's OFED driver container
    # writes that file (Mellanox/network-operator manifests/state-ofed-driver), and it runs only for a
    # NicClusterPolicy with ofedDriver.  A patched policy's ofedDriver belongs to its owner: not checked.
    if (
        prep.gpudirect_rdma == "peermem"
        and not prep.host_mofed
        and rdma.nic_cluster_policy == "create"
        and rdma.ofed_driver is None
        and cfg.network.variant == "sriov-rdma"
    ):
        errors.append(
            _error(
                ("fabric", "node_prep", "gpudirect_rdma"),
                "peermem without host_mofed waits for the network operator's MOFED driver container, "
                "which the NicClusterPolicy this stack creates would not deploy (the GPU driver pod "
                "would never leave its init container on nodes with Mellanox NICs): set "
                "fabric.rdma.ofed_driver.version (the DOCA driver of your operator release), or "
                "host_mofed: true if MOFED is on the nodes, or use dma-buf (inbox drivers suffice)",
                prep.gpudirect_rdma,
            )
        )
    return errors
