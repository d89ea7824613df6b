"""What ``approve-csrs`` knows besides a request: the registered Nodes, IBM's instances (from the
stack's outputs), the clock; and the plain facts of a request (its state and creation time).

IBM's facts come from ``pulumi stack output --json`` saved to a file (``--stack-outputs``), key
``joinNodes``: ``{"<node>": {"createdAt": "<RFC 3339>", "addresses": ["<ip>", ...]}}`` — the
instance's creation time and the addresses of its NICs as IBM reports them. A node without an
entry, or an entry without one of the keys, falls back to the rules in ``csr_rules``.

Apart from ``csr_rules`` by concept, not size: hostile input read once into facts, judged there.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeGuard

from components.models.types import is_dns_subdomain
from experiments.base.errors import InputError
from experiments.base.shapes import as_dict, as_list

__all__ = [
    "Context",
    "Instance",
    "NodeFacts",
    "canonical_ip",
    "created_at",
    "csr_state",
    "instances_from_outputs",
    "is_node_name",
    "node_facts",
]

OUTPUTS_KEY = "joinNodes"
UNINITIALIZED_TAINT = "node.cloudprovider.kubernetes.io/uninitialized"
HOST_ADDRESS_TYPES = frozenset({"Hostname", "InternalDNS", "ExternalDNS"})
IP_ADDRESS_TYPES = frozenset({"InternalIP", "ExternalIP"})
MAX_OUTPUTS = 16 * 1024 * 1024


def is_node_name(name: object) -> TypeGuard[str]:
    return is_dns_subdomain(name)


@dataclass(frozen=True)
class NodeFacts:
    """What the checks need of a registered Node."""

    name: str
    ready: bool
    initialized: bool
    """False while the cloud provider's ``uninitialized`` taint is on the Node."""
    host_names: frozenset[str]
    ips: frozenset[str]


@dataclass(frozen=True)
class Instance:
    """What IBM says of a stack node's instance (the stack's outputs)."""

    created_at: datetime | None = None
    ips: frozenset[str] | None = None


@dataclass(frozen=True)
class Context:
    stack_nodes: frozenset[str]
    nodes: Mapping[str, NodeFacts]
    """The registered Nodes among the stack's."""
    openshift: bool
    now: datetime
    instances: Mapping[str, Instance] = field(default_factory=dict)


def node_facts(node: Mapping[str, Any]) -> NodeFacts:
    """The facts of a Node object (its JSON form); malformed entries count as absent."""
    status, spec = as_dict(node.get("status")), as_dict(node.get("spec"))
    addresses = [(a.get("type"), a.get("address")) for a in as_list(status.get("addresses")) if isinstance(a, dict)]
    conditions = {c.get("type"): c.get("status") for c in as_list(status.get("conditions")) if isinstance(c, dict)}
    taints = {t.get("key") for t in as_list(spec.get("taints")) if isinstance(t, dict)}
    return NodeFacts(
        name=str(node["metadata"]["name"]),
        ready=conditions.get("Ready") == "True",
        initialized=UNINITIALIZED_TAINT not in taints,
        host_names=frozenset(
            name
            for kind, a in addresses
            if kind in HOST_ADDRESS_TYPES and isinstance(a, str) and is_node_name(name := a.removesuffix("."))
        ),
        ips=frozenset(ip for kind, a in addresses if kind in IP_ADDRESS_TYPES and (ip := canonical_ip(a))),
    )


def canonical_ip(address: object) -> str | None:
    """The canonical text of an address, so that a Node's and a SAN's forms compare equal."""
    try:
        return str(ipaddress.ip_address(address)) if isinstance(address, str) else None
    except ValueError:
        return None


def csr_state(csr: Mapping[str, Any]) -> str:
    """``pending``, or the type of the condition that ended it (``Approved``, ``Denied``, ``Failed``)."""
    for condition in as_list(as_dict(csr.get("status")).get("conditions")):
        if (
            isinstance(condition, dict)
            and condition.get("type") in ("Approved", "Denied", "Failed")
            and condition.get("status", "True") == "True"
        ):
            return str(condition["type"])
    return "pending"


def created_at(csr: Mapping[str, Any]) -> datetime | None:
    try:
        stamp = datetime.fromisoformat(str(csr["metadata"]["creationTimestamp"]))
    except (KeyError, TypeError, ValueError):
        return None
    return stamp if stamp.tzinfo is not None else None


def _time(value: object, where: str) -> datetime:
    try:
        stamp = datetime.fromisoformat(str(value))
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None:
        raise InputError(f"{where}: {str(value)[:40]!r} is not an RFC 3339 time with a zone")
    return stamp


def instances_from_outputs(path: Path, stack_nodes: frozenset[str]) -> dict[str, Instance]:
    """IBM's facts of the stack's nodes from ``pulumi stack output --json`` (exit 2 naming the file
    and key when it is not that)."""
    if not path.is_file():
        raise InputError(f"--stack-outputs {path}: not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_OUTPUTS + 1)
        if len(data) > MAX_OUTPUTS:
            raise InputError(f"--stack-outputs {path}: over {MAX_OUTPUTS // (1024 * 1024)} MiB")
        document = json.loads(data.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        raise InputError(
            f"--stack-outputs {path}: not the JSON of `pulumi stack output --json` ({type(error).__name__})"
        ) from None
    if not isinstance(document, dict):
        raise InputError(f"--stack-outputs {path}: not a JSON object of outputs")
    nodes = document.get(OUTPUTS_KEY, {})
    if not isinstance(nodes, dict):
        raise InputError(f"--stack-outputs {path}: {OUTPUTS_KEY} is not an object of node names")
    instances = {}
    for node, facts in nodes.items():
        where = f"--stack-outputs {path}: {OUTPUTS_KEY}.{str(node)[:80]}"
        if node not in stack_nodes:
            continue  # another stack's node, or a name the stack no longer has
        if not isinstance(facts, dict):
            raise InputError(f"{where}: not an object")
        created = _time(facts["createdAt"], f"{where}.createdAt") if "createdAt" in facts else None
        addresses = facts.get("addresses")
        if addresses is not None and (not isinstance(addresses, list) or not all(canonical_ip(a) for a in addresses)):
            raise InputError(f"{where}.addresses: not a list of IP addresses")
        ips = frozenset(ip for a in addresses if (ip := canonical_ip(a))) if addresses is not None else None
        instances[node] = Instance(created_at=created, ips=ips)
    return instances
