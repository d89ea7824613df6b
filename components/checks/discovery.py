"""Looking up the existing cluster once, at the edge of the program, before anything is planned.

``discover(cfg, lookups)`` asks the cloud, through any ``CloudLookups`` (``components.ibm.lookup.SdkLookups``
runs the provider's data sources in a Pulumi program; offline, ``experiments.offline.simulated_cluster``
answers them), for the cluster's VPC, worker subnet and security groups, the RHCOS image (``join``) and
the instances that ``nodes.names``/``nodes.machineset`` select (``adopt``), and returns a frozen
``ClusterInventory``.  A name that finds nothing is a ``ConfigurationError`` naming the field that chose
it.  Nothing here imports Pulumi: planning a stack file offline (``results``, ``calibrate``, ``report``)
never loads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from components.checks.validation import ConfigurationError
from components.models.config import CLUSTER_KEY, PROJECT, ClusterConfig
from components.models.workers import ClusterInventory, NicModel, Worker
from components.plan.fabric_rules import natural_key
from components.plan.inventory import join_node_names
from components.plan.naming import cluster_attachment_name, secondary_nic_name

__all__ = ["CloudLookups", "LookupFailed", "discover", "worker_from_lookup"]


class LookupFailed(Exception):
    """A lookup found nothing (or the provider refused it); the message says what."""


class CloudLookups(Protocol):
    """The five lookups ``discover`` needs; results are mappings with snake_case keys."""

    def vpc(self, name: str) -> Mapping[str, Any]: ...
    def subnet(self, name: str, vpc_id: str) -> Mapping[str, Any]: ...
    def security_group(self, name: str, vpc_id: str) -> Mapping[str, Any]: ...
    def image(self, name: str) -> Mapping[str, Any]: ...
    def instances(self, vpc_name: str) -> Sequence[Mapping[str, Any]]: ...


def _first(items: Any) -> Mapping[str, Any]:
    return items[0] if isinstance(items, list) and items and isinstance(items[0], Mapping) else {}


def worker_from_lookup(raw: Mapping[str, Any], name_prefix: str) -> Worker:
    """One ``instances[]`` entry as a ``Worker``.  The NIC model test follows the reference: an
    instance with a primary network attachment uses VNIs (the API also shows those instances a
    read-only child-NIC view), any other one child NICs."""
    attachment = _first(raw.get("primary_network_attachments"))
    model: NicModel = "attachment" if attachment else "child"
    if attachment:
        primary_ip = _first(attachment.get("primary_ips")).get("address")
        secondary = [a for a in raw.get("network_attachments") or [] if a.get("id") != attachment.get("id")]
    else:
        interface = _first(raw.get("primary_network_interfaces"))
        primary_ip = _first(interface.get("primary_ips")).get("address") or interface.get("primary_ipv4_address")
        secondary = list(raw.get("network_interfaces") or [])
    own_nics = {secondary_nic_name(name_prefix, k) for k in range(1, 33)}
    own_attachments = {cluster_attachment_name(name_prefix, k) for k in range(1, 33)}
    return Worker(
        name=str(raw.get("name")),
        id=str(raw.get("id")),
        profile=str(raw.get("profile")),
        zone=str(raw.get("zone")),
        status=str(raw.get("status")),
        nic_model=model,
        primary_ip=str(primary_ip),
        foreign_secondary_nics=sum(1 for nic in secondary if nic.get("name") not in own_nics),
        foreign_cluster_attachments=sum(
            1 for a in raw.get("cluster_network_attachments") or [] if a.get("name") not in own_attachments
        ),
    )


def _field(*parts: str) -> str:
    return f"{PROJECT}:{CLUSTER_KEY}.{'.'.join(parts)}"


def _openshift_field(cfg: ClusterConfig, override: str) -> str:
    """The field that chose a name: ``openshift.<override>`` when set, else the ``infra_id`` it derives from."""
    return _field("openshift", override if getattr(cfg.openshift, override) else "infra_id")


def discover(cfg: ClusterConfig, lookups: CloudLookups) -> ClusterInventory:
    """The existing cluster as ``cfg`` names it (``cfg.uses_existing_cluster`` must hold and the
    source checks must have passed, so every name below is set)."""
    ocp = cfg.openshift
    vpc_name = str(ocp.vpc_name())
    problems: list[str] = []
    try:
        vpc = lookups.vpc(vpc_name)
    except LookupFailed as error:
        raise ConfigurationError(
            [f"{_openshift_field(cfg, 'vpc')}: no VPC {vpc_name} in {cfg.region} ({error})"]
        ) from None
    subnet: Mapping[str, Any] = {}
    subnet_name = str(ocp.compute_subnet_name(cfg.zone))
    try:
        subnet = lookups.subnet(subnet_name, str(vpc["id"]))
    except LookupFailed as error:
        problems.append(
            f"{_openshift_field(cfg, 'compute_subnet')}: no subnet {subnet_name} in VPC {vpc_name} "
            f"({error}); the workers of zone {cfg.zone} live in the cluster's compute subnet of that zone"
        )
    groups: list[str] = []
    for name in ocp.security_group_names() or ():
        try:
            groups.append(str(lookups.security_group(name, str(vpc["id"]))["id"]))
        except LookupFailed as error:
            problems.append(
                f"{_openshift_field(cfg, 'security_groups')}: no security group {name} in VPC {vpc_name} ({error})"
            )
    image_id = None
    if cfg.nodes.source == "join":
        image = str(cfg.image_name)
        try:
            image_id = str(lookups.image(image)["id"])
        except LookupFailed as error:
            chosen_by = _field("nodes", "image") if cfg.nodes.image else _openshift_field(cfg, "image")
            problems.append(f"{chosen_by}: no image {image} ({error})")
    try:
        instances = lookups.instances(vpc_name)
    except LookupFailed as error:
        problems.append(f"{_openshift_field(cfg, 'vpc')}: cannot list the instances of VPC {vpc_name} ({error})")
        instances = []
    if problems:
        raise ConfigurationError(problems)
    workers, missing = _select(cfg, instances)
    return ClusterInventory(
        vpc_id=str(vpc["id"]),
        vpc_name=vpc_name,
        compute_subnet_id=str(subnet["id"]),
        compute_subnet_cidr=str(subnet["ipv4_cidr_block"]),
        security_group_ids=tuple(groups),
        image_id=image_id,
        workers=workers,
        missing_names=missing,
    )


def _select(cfg: ClusterConfig, instances: Sequence[Mapping[str, Any]]) -> tuple[tuple[Worker, ...], tuple[str, ...]]:
    """``adopt``: the instances ``nodes.names`` lists (in its order) or ``nodes.machineset`` matches (by name);
    ``join``: the instances that already carry a name the stack would create (the checks refuse them)."""
    by_name = {str(raw.get("name")): raw for raw in instances}
    names = cfg.nodes.names
    if cfg.nodes.source == "join":
        taken = [n for n in join_node_names(cfg) if n in by_name]
        return tuple(worker_from_lookup(by_name[n], cfg.name_prefix) for n in taken), ()
    if names is not None:
        chosen = [by_name[n] for n in names if n in by_name]
        return (
            tuple(worker_from_lookup(raw, cfg.name_prefix) for raw in chosen),
            tuple(n for n in names if n not in by_name),
        )
    start = f"{cfg.nodes.machineset}-"
    # More matches than nodes.count: the first ones by name (a sweep uses 1, 2, 4... of the same pool).
    matched = sorted((n for n in by_name if n.startswith(start)), key=natural_key)[: cfg.nodes.count]
    return tuple(worker_from_lookup(by_name[n], cfg.name_prefix) for n in matched), ()
