"""The NIC inventory of nodes that already exist (``layers: kubernetes``).

When a stack manages only the Kubernetes layer, no cloud component plans the addresses:
``kubernetes.nodes`` lists each node's NICs (index, role, subnet, VPC-assigned IP and,
optionally, guest interface name), and ``plan_from_existing`` turns that into the same
``AddressPlan`` the cloud layer would have produced, so the fabric components cannot tell the
two apart.  ``existing_node_errors`` checks the inventory against the rest of the config: it
must match ``nodes.count``, ``network.variant`` and the number of attached NICs, and a NIC
index must mean the same subnet (and interface name) on every node, because NADs are per NIC,
not per node.
"""

from __future__ import annotations

import ipaddress
from collections import defaultdict

from pydantic_core import InitErrorDetails

from components.models.config import IBM_RESERVED_LOW_ADDRESSES, ClusterConfig, config_error
from components.plan.inventory import AddressPlan, Nic

__all__ = ["existing_node_errors", "plan_from_existing"]


def _secondary_role(cfg: ClusterConfig) -> str:
    return "cluster" if cfg.network.uses_cluster_network else "vnic"


def plan_from_existing(cfg: ClusterConfig) -> AddressPlan:
    """The address plan of ``kubernetes.nodes`` (the config must have passed validation)."""
    net = cfg.network
    nodes = cfg.kubernetes.nodes
    if not nodes:
        raise ValueError("kubernetes.nodes is empty: the NIC inventory comes from the cloud layer")
    nics: list[Nic] = []
    for node in nodes:
        for nic in sorted(node.nics, key=lambda n: n.index):
            used = nic.index <= net.nics_per_node if nic.role != "primary" else net.variant == "pod"
            nics.append(
                Nic(node=node.name, index=nic.index, role=nic.role, subnet_cidr=nic.subnet, ip=nic.ip, used_by_job=used)
            )
    subnets = {nic.index: nic.subnet_cidr for nic in nics if nic.node == nodes[0].name}
    secondary = tuple(subnets[k] for k in sorted(subnets) if k > 0)
    return AddressPlan(
        management_subnet=subnets[0],
        vnic_subnets=secondary if net.variant == "vnic" else (),
        cluster_subnets=secondary if net.uses_cluster_network else (),
        nodes=tuple(node.name for node in nodes),
        nics=tuple(nics),
    )


def existing_node_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """Problems with ``kubernetes.nodes`` given ``layers``, the variant and the node count."""
    nodes = cfg.kubernetes.nodes
    where = ("kubernetes", "nodes")
    if cfg.layers != "kubernetes":
        if nodes:
            return [
                config_error(
                    where,
                    f"only with layers: kubernetes; with layers: {cfg.layers} the cloud layer plans every NIC",
                    len(nodes),
                )
            ]
        return []
    if not nodes:
        return [config_error(where, "required with layers: kubernetes: list the existing nodes and their NICs", nodes)]
    errors: list[InitErrorDetails] = []
    if len(nodes) != cfg.nodes.count:
        errors.append(config_error(where, f"lists {len(nodes)} nodes but nodes.count is {cfg.nodes.count}", len(nodes)))
    seen_names: set[str] = set()
    for i, node in enumerate(nodes):
        if node.name in seen_names:
            errors.append(config_error((*where, i, "name"), f"node {node.name} is listed twice", node.name))
        seen_names.add(node.name)
        errors.extend(_node_errors(cfg, i))
    if not errors:
        errors.extend(_per_index_errors(cfg))
    return errors


def _node_errors(cfg: ClusterConfig, i: int) -> list[InitErrorDetails]:
    node = cfg.kubernetes.nodes[i]
    where = ("kubernetes", "nodes", i, "nics")
    errors: list[InitErrorDetails] = []
    indices = [nic.index for nic in node.nics]
    expected = list(range(cfg.network.secondary_nics + 1))
    if sorted(indices) != expected:
        errors.append(
            config_error(
                where,
                f"{node.name} must list NIC indices {expected} (the primary and "
                f"{cfg.network.secondary_nics} attached secondary NICs), not "
                f"{sorted(indices)}",
                sorted(indices),
            )
        )
    secondary_role = _secondary_role(cfg)
    for j, nic in enumerate(node.nics):
        expected_role = "primary" if nic.index == 0 else secondary_role
        if nic.role != expected_role:
            errors.append(
                config_error(
                    (*where, j, "role"),
                    f"NIC {nic.index} of {node.name} must have role "
                    f"{expected_role} for the {cfg.network.variant} variant",
                    nic.role,
                )
            )
        problem = _address_problem(nic.subnet, nic.ip)
        if problem:
            errors.append(
                config_error((*where, j, "ip"), f"{nic.ip} (NIC {nic.index} of {node.name}) {problem}", nic.ip)
            )
    return errors


def _address_problem(subnet: str, ip: str) -> str | None:
    network, address = ipaddress.IPv4Network(subnet), ipaddress.IPv4Address(ip)
    if address not in network:
        return f"is not in its subnet {network}"
    offset = int(address) - int(network.network_address)
    if offset < IBM_RESERVED_LOW_ADDRESSES or address == network.broadcast_address:
        return f"is one of the addresses IBM reserves in {network} (the first four and the broadcast)"
    return None


def _per_index_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """A NIC index must mean one subnet and one interface name on every node; IPs are unique."""
    subnets: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    names: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    owners: dict[str, str] = {}
    errors: list[InitErrorDetails] = []
    for i, node in enumerate(cfg.kubernetes.nodes):
        for j, nic in enumerate(node.nics):
            subnets[nic.index][nic.subnet].append(node.name)
            if nic.guest_interface is not None and nic.index > 0:
                names[nic.index][nic.guest_interface].append(node.name)
            if nic.ip in owners:
                errors.append(
                    config_error(
                        ("kubernetes", "nodes", i, "nics", j, "ip"), f"{nic.ip} is also NIC {owners[nic.ip]}", nic.ip
                    )
                )
            owners.setdefault(nic.ip, f"{nic.index} of {node.name}")
    where = ("kubernetes", "nodes")
    for index in sorted(subnets):
        if index > 0 and len(subnets[index]) > 1:
            seen = "; ".join(f"{s} on {', '.join(n)}" for s, n in sorted(subnets[index].items()))
            errors.append(
                config_error(
                    where,
                    f"secondary NIC {index} must be on one subnet on every node (one NAD "
                    f"per NIC serves all nodes), found {seen}",
                    index,
                )
            )
    for index in sorted(names):
        if len(names[index]) > 1:
            seen = "; ".join(f"{s} on {', '.join(n)}" for s, n in sorted(names[index].items()))
            errors.append(
                config_error(
                    where,
                    f"secondary NIC {index} must have one guest interface name on every "
                    f"node (the NAD names one device), found {seen}",
                    index,
                )
            )
    return errors
