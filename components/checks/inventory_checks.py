"""Whether the existing cluster the lookup found is the one the config describes: ``inventory_errors(cfg,
inventory)`` runs on the lookup's result, before the plan takes node names and addresses from it; each
problem is reported at the config field that chose it."""

from __future__ import annotations

import ipaddress

from pydantic_core import InitErrorDetails

from components.models.config import ClusterConfig, config_error
from components.models.workers import ClusterInventory

__all__ = ["inventory_errors"]


def inventory_errors(cfg: ClusterConfig, inventory: ClusterInventory) -> list[InitErrorDetails]:
    """Whether the looked-up cluster matches the config, each problem at the field that chose it."""
    errors: list[InitErrorDetails] = []
    secondary = ipaddress.IPv4Network(cfg.network.vpc_cidr)
    if cfg.network.variant == "vnic" and secondary.overlaps(ipaddress.IPv4Network(inventory.compute_subnet_cidr)):
        errors.append(
            config_error(
                ("network", "vpc_cidr"),
                (
                    f"{secondary} overlaps the cluster's compute subnet "
                    f"{inventory.compute_subnet_cidr}: the vNIC subnets "
                    "need a range of the VPC that no address prefix covers yet"
                ),
                cfg.network.vpc_cidr,
            )
        )
    if cfg.nodes.source == "join":
        for worker in inventory.workers:
            errors.append(
                config_error(
                    ("nodes", "names"),
                    (
                        f"an instance {worker.name} already exists in VPC {inventory.vpc_name}: join "
                        "creates its nodes; "
                        "to use existing workers, set nodes.source: adopt"
                    ),
                    worker.name,
                )
            )
        return errors
    return errors + _adopted_worker_errors(cfg, inventory)


def _adopted_worker_errors(cfg: ClusterConfig, inventory: ClusterInventory) -> list[InitErrorDetails]:
    nodes, net = cfg.nodes, cfg.network
    selector = ("nodes", "names") if nodes.names is not None else ("nodes", "machineset")
    errors: list[InitErrorDetails] = []
    for name in inventory.missing_names:
        index = (nodes.names or []).index(name)
        errors.append(
            config_error(
                ("nodes", "names", index),
                (
                    f"no instance {name} in VPC {inventory.vpc_name} (oc get machines -n openshift-machine-api lists "
                    "the workers' names)"
                ),
                name,
            )
        )
    if nodes.machineset is not None and len(inventory.workers) < nodes.count:
        found = ", ".join(w.name for w in inventory.workers) or "none"
        errors.append(
            config_error(
                selector,
                (
                    f"{len(inventory.workers)} instances of VPC {inventory.vpc_name} start with '{nodes.machineset}-' "
                    f"({found}) but nodes.count is {nodes.count}; scale the MachineSet up or lower nodes.count"
                ),
                nodes.machineset,
            )
        )
    limit = cfg.profile.max_vnics - 1
    for worker in inventory.workers:
        if worker.profile != nodes.profile:
            errors.append(
                config_error(
                    ("nodes", "profile"),
                    f"worker {worker.name} is a {worker.profile}, not a {nodes.profile}",
                    nodes.profile,
                )
            )
        if worker.zone != cfg.zone:
            errors.append(
                config_error(("zone",), f"worker {worker.name} is in {worker.zone}, not {cfg.zone}", cfg.zone)
            )
        # A stopped worker may be one this stack stopped (a failed run): the rolling step checks the Node's mark.
        resumable = net.uses_cluster_network and worker.status in ("stopping", "stopped")
        if worker.status != "running" and not resumable:
            errors.append(
                config_error(
                    selector,
                    (
                        f"worker {worker.name} is {worker.status}: NICs are added to running workers (start it, or "
                        "choose another)"
                    ),
                    worker.name,
                )
            )
        if net.variant == "vnic" and worker.foreign_secondary_nics + net.secondary_nics > limit:
            errors.append(
                config_error(
                    ("network", "attached_nics" if net.attached_nics is not None else "nics_per_node"),
                    (
                        f"worker {worker.name} already has {worker.foreign_secondary_nics} secondary "
                        "NICs this stack did "
                        f"not add; with {net.secondary_nics} more it would pass the {limit} a {nodes.profile} allows"
                    ),
                    net.secondary_nics,
                )
            )
        if net.uses_cluster_network and worker.foreign_cluster_attachments:
            errors.append(
                config_error(
                    selector,
                    (
                        f"worker {worker.name} already has {worker.foreign_cluster_attachments} "
                        "cluster network attachments "
                        "this stack did not make; detach them first (IBM: one cluster network per instance)"
                    ),
                    worker.name,
                )
            )
    return errors
