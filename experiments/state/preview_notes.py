"""What an offline preview must say before anything else: what it invented, and which workers
``pulumi up`` would stop.

The offline engine answers the lookups of an existing cluster from a cluster it imagines from the
stack file (``simulated_cluster``): its VPC, compute subnet, security groups and workers have the
installer's names but were never seen.  A reader must not mistake them for a cluster's real state.
"""

from __future__ import annotations

from typing import Any

from components.models.config import ClusterConfig
from components.plan.plan import Plan
from components.plan.stops import OFFLINE, describe_stops
from experiments.offline.simulated_cluster import simulated_cluster_for

__all__ = ["simulated_document", "simulated_lines", "stop_lines", "stops_document"]

_WORKERS_SHOWN = 3
"""Simulated workers named on the summary line (a 1,000-node stack's are in preview.json)."""


def simulated_document(cfg: ClusterConfig) -> dict[str, Any]:
    """What the offline run invented, for preview.json (empty for a stack that looks nothing up)."""
    if not cfg.uses_existing_cluster:
        return {}
    cluster = simulated_cluster_for(cfg)
    control_plane = {f"{cluster.infra_id}-master-{i}" for i in range(3)}  # the simulation's three masters
    workers = [r["name"] for r in cluster.instance_records if r["name"] not in control_plane]
    document: dict[str, Any] = {
        "source": "stack file",
        "vpc": cluster.vpc_name,
        "compute_subnet": f"{cluster.compute_subnet_name} ({cluster.compute_subnet_cidr})",
        "security_groups": list(cluster.security_groups),
        "workers": workers,
    }
    if cfg.nodes.source == "join":
        document["image"] = cluster.image_name
    return document


def simulated_lines(cfg: ClusterConfig) -> list[str]:
    """The preview's first lines: which lookups were simulated, and from what."""
    if not cfg.uses_existing_cluster:
        return [
            "offline preview: resource IDs and provider outputs are invented by the mock engine; nothing was looked up"
        ]
    sim = simulated_document(cfg)
    chosen = (
        "named in nodes.names, their state invented"
        if cfg.nodes.names is not None
        else f"names invented from nodes.machineset as {cfg.nodes.machineset}-<suffix>"
    )
    lines = [
        "offline preview: the cluster was SIMULATED from the stack file, not looked up: "
        f"VPC {sim['vpc']}, compute subnet {sim['compute_subnet']}, "
        f"security groups {', '.join(sim['security_groups']) or '-'}"
        + (f", image {sim['image']}" if "image" in sim else "")
        + " are invented",
    ]
    if cfg.nodes.source == "adopt":
        workers = sim["workers"]
        shown = ", ".join(workers[:_WORKERS_SHOWN]) + (
            f" and {len(workers) - _WORKERS_SHOWN} more (all in preview.json)" if len(workers) > _WORKERS_SHOWN else ""
        )
        lines.append(f"  workers ({chosen}: all running, child NICs only): {shown}")
    lines.append("  `pulumi preview` against the real cluster shows the workers it really selects")
    return lines


def stops_document(plan: Plan) -> list[dict[str, Any]]:
    return [
        {"worker": s.worker, "step": s.step, "lane": s.lane, "after": s.after, "minutes": s.minutes} for s in plan.stops
    ]


def stop_lines(cfg: ClusterConfig, plan: Plan) -> list[str]:
    """Every worker ``pulumi up`` would stop, in order, with the warning and the expected downtime.  Offline
    there is no stack state to tell whether the roll-out was applied already: every worker is listed, and the
    list says why (``pulumi preview`` reads the stack's ``appliedRollout``)."""
    return describe_stops(cfg, plan.stops, plan.rollout, OFFLINE)
