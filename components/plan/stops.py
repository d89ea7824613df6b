"""Which adopted workers a stack stops, in which order, and for about how long.

IBM attaches cluster network interfaces only to a stopped instance, so an ``adopt`` stack with a
cluster network takes each selected worker out of service once: drain, stop, attach, start, Ready.
The order is rolling: worker *k* goes back into service before worker *k + lanes* leaves it, with
``nodes.max_unavailable`` lanes (default 1: one worker at a time).  The preview lists this plan when it is
a new roll-out (``components.ops.applied`` reads the one last applied); ``pulumi up`` refuses it until the
stack sets ``nodes.allow_instance_stop``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from components.models.config import DYNAMIC_PROVIDER_THREADS, ClusterConfig

__all__ = [
    "DOWNTIME_NOTE",
    "NVME_WARNING",
    "OFFLINE",
    "STOP_HAZARD",
    "WorkerStop",
    "describe_stops",
    "plan_stops",
    "rollout_id",
    "stops_again",
    "stops_workers",
]

START_MINUTES = 20
"""IBM: the new (cluster network) instance profiles "take about 20 minutes to start"
(cn-limitations-known-issues.md), a gx3d included."""
STOP_AND_ATTACH_MINUTES = 5
"""Stopping a running instance and attaching its cluster NICs: a few minutes (an estimate, not measured)."""
NVME_WARNING = (
    "stopping a gx3d erases its instance storage (NVMe): anything kept there (datasets, caches, "
    "checkpoints) is gone when the worker comes back"
)
DOWNTIME_NOTE = (
    f"about {STOP_AND_ATTACH_MINUTES + START_MINUTES} min out of service per worker (stop and attach "
    f"~{STOP_AND_ATTACH_MINUTES} min, start ~{START_MINUTES} min per IBM's known issue for these "
    "profiles), plus the drain, which waits for the worker's pods to be evicted"
)

STOP_HAZARD = (
    "stops the adopted worker to attach its cluster NICs, then starts it (cordoned and drained first, one "
    "worker at a time per nodes.max_unavailable): a stop wipes a gx3d's instance storage (NVMe) and takes the "
    f"node out of the cluster for about {STOP_AND_ATTACH_MINUTES + START_MINUTES} minutes"
)
"""The same, in one line, for a diff's hazard."""


@dataclass(frozen=True)
class WorkerStop:
    """One adopted worker's stop, in the rolling order."""

    worker: str
    step: int
    """1-based position in the rolling order."""
    lane: int
    """Workers of one lane are out of service one after another; lanes run side by side."""
    after: str | None
    """The worker that must be back in service first (the previous one of the lane), if any."""
    minutes: int = STOP_AND_ATTACH_MINUTES + START_MINUTES


def stops_workers(cfg: ClusterConfig) -> bool:
    """Whether ``pulumi up`` stops the selected workers: ``adopt`` with cluster NICs, cloud layer on."""
    return cfg.nodes.source == "adopt" and cfg.network.uses_cluster_network and cfg.layers != "kubernetes"


def plan_stops(cfg: ClusterConfig, workers: Sequence[str]) -> tuple[WorkerStop, ...]:
    """The rolling stop order of ``workers`` (in selection order), or nothing if none is stopped."""
    if not stops_workers(cfg):
        return ()
    lanes = min(cfg.nodes.max_unavailable, DYNAMIC_PROVIDER_THREADS)  # validated so; what the provider host runs
    return tuple(
        WorkerStop(worker=worker, step=i + 1, lane=i % lanes + 1, after=workers[i - lanes] if i >= lanes else None)
        for i, worker in enumerate(workers)
    )


def rollout_id(stops: Sequence[WorkerStop], plan: Sequence[tuple[str, str]]) -> str:
    """What one consent covers: the workers stopped and the cluster NICs each gets (``plan``: worker, and its
    NICs as ``index:subnet:address``).  Any change to either is another roll-out, with an id of its own."""
    stopped = {stop.worker for stop in stops}
    text = "\n".join(f"{worker} {nics}" for worker, nics in sorted(plan) if worker in stopped)
    return "rollout-" + hashlib.sha256(text.encode()).hexdigest()[:8] if stopped else ""


OFFLINE = "offline"
"""``describe_stops``'s ``applied`` in an offline preview: there is no stack state to read it from."""


def stops_again(rollout: str, applied: str | None) -> bool:
    """Whether ``pulumi up`` stops the planned workers: the roll-out it plans is not the one last applied in
    full (``components.ops.applied``), or nothing records one."""
    return bool(rollout) and rollout != applied


def describe_stops(
    cfg: ClusterConfig, stops: Sequence[WorkerStop], rollout: str = "", applied: str | None = OFFLINE
) -> list[str]:
    """Every worker ``pulumi up`` would stop, in order, with the warning and the expected downtime: what the
    offline preview prints and what the program tells ``pulumi preview`` / ``pulumi up``.  ``applied``: the
    roll-out the stack last applied in full (None: it records none; ``OFFLINE``: an offline preview, with
    no state to tell); when it is the planned one, nothing stops, and the one line says so."""
    if not stops:
        return []
    if rollout and not stops_again(rollout, applied):
        return [
            f"pulumi up stops no worker: {rollout}, the roll-out this plan makes (the same {len(stops)} worker(s) "
            "with the same cluster NICs), is the one the stack last applied in full (its appliedRollout "
            "output); a change of either would be a new roll-out, listed here with its stops"
        ]
    lanes = cfg.nodes.max_unavailable
    at_once = "one at a time" if lanes == 1 else f"at most {lanes} at a time"
    lines = [
        f"pulumi up STOPS {len(stops)} adopted worker(s), {at_once} (nodes.max_unavailable {lanes}), "
        "to attach their cluster NICs (IBM attaches them only to a stopped instance):"
    ]
    for stop in stops:
        after = f", after {stop.after} is back in service" if stop.after else ""
        lines.append(f"  {stop.step}. {stop.worker}: drain, stop, attach, start, Ready (~{stop.minutes} min{after})")
    lines.append(f"  warning: {NVME_WARNING}")
    lines.append(f"  downtime: {DOWNTIME_NOTE}")
    running = len({stop.lane for stop in stops})  # the lanes that really run: never more than the workers
    per_lane = -(-len(stops) // running)
    lines.append(
        f"  roll-out: about {per_lane * stops[0].minutes / 60:.1f} h ({per_lane} worker(s) one after "
        f"another in each of {running} lane(s), drains not counted; nodes.max_unavailable "
        "sets the lanes)"
    )
    lines.append(f"  applied: {_applied_note(rollout, applied)}")
    if rollout:
        lines.append(
            f"  consent: this roll-out is {rollout}; nodes.allow_instance_stop: true covers only the stack's "
            f"first roll-out, any later one needs nodes.allow_instance_stop: {rollout}"
        )
    if not cfg.nodes.allow_instance_stop:
        lines.append(
            "  pulumi up refuses this until the stack sets nodes.allow_instance_stop (true: its first roll-out)"
        )
    return lines


def _applied_note(rollout: str, applied: str | None) -> str:
    """Which case the list is: why ``pulumi up`` stops these workers."""
    if applied == OFFLINE:
        return (
            "unknown here (an offline preview has no stack state), so every worker is listed; pulumi preview "
            "reads the stack's appliedRollout output and lists the stops only when the roll-out differs"
        )
    if applied is None:
        return (
            "the stack records no roll-out applied in full (its first, or one that failed midway: a worker "
            "already done is not stopped again), so every worker listed is stopped"
        )
    return f"the stack's last roll-out was {applied}; this plan is {rollout}, so the workers are stopped again"
