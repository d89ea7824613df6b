"""The address plan of an experiment and the per-node NIC inventory derived from it.

Every address is decided here, from validated config, before any resource exists:
subnets are carved in a fixed order from the VPC and cluster-network prefixes.  A node the
stack creates by number (``standalone``: ``<prefix>-node<i>``) gets host number ``4 + i`` in
every subnet (IBM keeps the first four addresses).  A node known by its name (``adopt``,
``join``) gets a host number keyed by that name (``host_numbers``), not by its place in a list:
IBM refuses to reserve an address that is still reserved on the subnet, and the stack replaces a
reserved IP before it deletes one it no longer needs, so an address that followed list positions
would be asked for while its old holder still has it whenever a worker is dropped, added before
others or replaced, or the list is reordered.  The cloud components request exactly these
addresses, so the Kubernetes layer, the IP-mapping file and a preview all see the same, final IPs.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from components.models.config import IBM_RESERVED_LOW_ADDRESSES, ClusterConfig
from components.models.workers import ClusterInventory

__all__ = [
    "AddressPlan",
    "Nic",
    "NicRole",
    "host_numbers",
    "host_slots",
    "join_node_names",
    "node_name",
    "plan_addresses",
]

NicRole = Literal["primary", "vnic", "cluster"]


class Nic(BaseModel):
    """One network interface of one node, as the Kubernetes layer needs to know it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    node: str
    """Node name: the instance name, which is also the Kubernetes node name."""
    index: int
    """0 for the primary interface; 1..K for secondary NICs (the pod sees NIC k as ``net<k>``)."""
    role: NicRole
    subnet_cidr: str
    ip: str | None
    """The address: planned and pinned, or the lookup's (an adopted worker's primary); None for a joining
    node's primary, which IBM assigns in the cluster's compute subnet when it creates the instance."""
    used_by_job: bool
    """Whether the training job attaches this NIC (the first ``nics_per_node`` secondary NICs)."""

    @property
    def pod_interface(self) -> str | None:
        return None if self.role == "primary" else f"net{self.index}"


class AddressPlan(BaseModel):
    """Subnets and per-node addresses of one experiment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    management_subnet: str
    """The nodes' primary subnet: the stack's own (``standalone``) or the cluster's compute subnet."""
    vnic_subnets: tuple[str, ...]
    """One VPC subnet per secondary vNIC (``vnic`` variant), NIC 1 first."""
    cluster_subnets: tuple[str, ...]
    """One cluster-network subnet per cluster NIC (``sriov*`` variants), NIC 1 first."""
    nodes: tuple[str, ...]
    nics: tuple[Nic, ...]

    def nics_of(self, node: str) -> list[Nic]:
        return [nic for nic in self.nics if nic.node == node]

    def secondary(self, *, used_only: bool = False) -> list[Nic]:
        return [n for n in self.nics if n.role != "primary" and (n.used_by_job or not used_only)]


def node_name(name_prefix: str, index: int) -> str:
    return f"{name_prefix}-node{index}"


def join_node_names(cfg: ClusterConfig) -> list[str]:
    """The instances a ``join`` stack creates: ``nodes.names``, else ``<name_prefix>-node<i>``."""
    return list(cfg.nodes.names or (node_name(cfg.name_prefix, i) for i in range(cfg.nodes.count)))


def _host(subnet: str, node_index: int) -> str:
    network = ipaddress.IPv4Network(subnet)
    return str(network.network_address + IBM_RESERVED_LOW_ADDRESSES + node_index)


def _first_choice(name: str, slots: int) -> int:
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big") % slots


def host_slots(prefix_length: int) -> tuple[int, int]:
    """How many host numbers a subnet of size ``/prefix_length`` has for nodes, and how many of them lie in its
    lower half (below the temporary whereabouts range): ``(lower, usable)``."""
    usable = 2 ** (32 - prefix_length) - IBM_RESERVED_LOW_ADDRESSES - 1  # less the broadcast address
    return max(1, min(usable, 2 ** (32 - prefix_length) // 2 - IBM_RESERVED_LOW_ADDRESSES)), usable


def host_numbers(names: Sequence[str], prefix_length: int, pinned: Mapping[str, int] | None = None) -> dict[str, int]:
    """Per node name, its host offset past IBM's reserved low addresses, the same in every subnet of
    size ``/prefix_length``.  Each name hashes to a slot of the subnet's lower half (the upper half
    is the temporary whereabouts range, ``fabric_rules.temporary_range``); names that meet on a slot
    take the next free one in name order, and only when the lower half is full does the upper half
    fill.  The result depends on the set of names, never on their order, and a name keeps its slot
    whatever is added or dropped unless it met another name on the way to it (one chance in ~120
    per pair of workers in a /24): ``WorkerSelection`` refuses the run where that would make IBM
    reserve an address twice, and names the ``pinned`` numbers (``nodes.hosts``: validated distinct and
    within the subnet; a pin of a name not among ``names`` is ignored) that keep every address in place."""
    lower, usable = host_slots(prefix_length)
    if len(set(names)) > usable:
        raise ValueError(f"{len(set(names))} nodes do not fit the {usable} addresses of a /{prefix_length} subnet")
    numbers = {name: host for name, host in (pinned or {}).items() if name in set(names)}
    taken = set(numbers.values())
    for name in sorted(set(names) - set(numbers)):
        start = _first_choice(name, lower)
        probe = [(start + k) % lower for k in range(lower)] + list(range(lower, usable))
        numbers[name] = next(slot for slot in probe if slot not in taken)
        taken.add(numbers[name])
    return numbers


def _carve(cidr: str, prefix_length: int, count: int) -> list[str]:
    subnets = ipaddress.IPv4Network(cidr).subnets(new_prefix=prefix_length)
    return [str(next(subnets)) for _ in range(count)]


def plan_addresses(cfg: ClusterConfig, inventory: ClusterInventory | None = None) -> AddressPlan:
    """Every NIC of every node.  Secondary NICs get host ``4 + i`` (``standalone``: node *i*) or the
    host keyed by the node's name (``adopt``, ``join``: ``host_numbers``) of subnets carved from the
    configured prefixes; primary NICs are the stack's own (``standalone``), the adopted workers'
    (lookup) or IBM's choice (``join``)."""
    net = cfg.network
    prefix = cfg.subnet_prefix_length
    vnic_count = net.secondary_nics if net.variant == "vnic" else 0
    source = cfg.nodes.source if cfg.layers != "kubernetes" else "standalone"
    own_primary = source == "standalone"
    vpc_subnets = _carve(net.vpc_cidr, prefix, int(own_primary) + vnic_count)
    management = vpc_subnets[0] if own_primary else _compute_subnet(inventory)
    vnic_subnets = vpc_subnets[1:] if own_primary else vpc_subnets
    cluster_subnets = _carve(net.cluster_network_cidr, prefix, net.secondary_nics) if net.uses_cluster_network else []
    secondary_role: NicRole = "cluster" if net.uses_cluster_network else "vnic"
    secondary_subnets = cluster_subnets or vnic_subnets
    if source == "adopt":
        assert inventory is not None
        primaries: list[tuple[str, str | None]] = [(w.name, w.primary_ip) for w in inventory.workers]
    elif source == "join":
        primaries = [(name, None) for name in join_node_names(cfg)]
    else:
        primaries = [
            (name, _host(management, i))
            for i, name in enumerate(node_name(cfg.name_prefix, i) for i in range(cfg.nodes.count))
        ]
    by_name = host_numbers([node for node, _ in primaries], prefix, cfg.nodes.hosts) if source != "standalone" else {}
    nics: list[Nic] = []
    for i, (node, primary_ip) in enumerate(primaries):
        host = by_name.get(node, i)
        nics.append(
            Nic(
                node=node,
                index=0,
                role="primary",
                subnet_cidr=management,
                ip=primary_ip,
                used_by_job=net.variant == "pod",
            )
        )
        nics.extend(
            Nic(
                node=node,
                index=k,
                role=secondary_role,
                subnet_cidr=subnet,
                ip=_host(subnet, host),
                used_by_job=k <= net.nics_per_node,
            )
            for k, subnet in enumerate(secondary_subnets, start=1)
        )
    return AddressPlan(
        management_subnet=management,
        vnic_subnets=tuple(vnic_subnets),
        cluster_subnets=tuple(cluster_subnets),
        nodes=tuple(node for node, _ in primaries),
        nics=tuple(nics),
    )


def _compute_subnet(inventory: ClusterInventory | None) -> str:
    if inventory is None:
        raise ValueError("adopt and join plan with the cluster's inventory (the lookup's result)")
    return inventory.compute_subnet_cidr
