"""Pausing the MachineHealthChecks that cover an adopted worker while it is out of service.

A MachineHealthCheck remediates a Machine whose Node stays NotReady past its timeout by deleting
the Machine; the IBM machine controller then deletes the instance and its boot volume, and the
MachineSet builds a replacement without the stack's NICs.  A stop, attach and start takes longer
than typical timeouts, so every MHC whose selector matches the worker's Machine is paused with
``cluster.x-k8s.io/paused`` first.  Several workers (lanes, stacks) may share one MHC: the stack
lists who holds the pause in its own annotation and removes the pause only when the last holder
leaves, and never touches a pause somebody else set.
"""

from __future__ import annotations

from collections.abc import Mapping

from components.ops.ports import ClusterApi, HealthCheck

__all__ = ["HOLDERS", "PAUSED", "covering", "pause_health_checks", "resume_health_checks"]

PAUSED = "cluster.x-k8s.io/paused"
HOLDERS = "gpu-cluster.ibm.com/paused-for"
"""Comma-separated ``<stack>/<worker>`` entries that hold this stack's pause."""


def _matches(check: HealthCheck, labels: Mapping[str, str]) -> bool:
    """A label selector (matchLabels and matchExpressions) applied to the Machine's labels.  An empty
    selector counts as covering: the controller lists Machines with it, and that lists them all."""
    if any(labels.get(k) != v for k, v in check.match_labels.items()):
        return False
    for expression in check.match_expressions:
        key, operator = str(expression.get("key")), str(expression.get("operator"))
        values = [str(v) for v in expression.get("values") or []]  # type: ignore[attr-defined]
        present = key in labels
        if operator == "In" and not (present and labels[key] in values):
            return False
        if operator == "NotIn" and present and labels[key] in values:
            return False
        if operator == "Exists" and not present:
            return False
        if operator == "DoesNotExist" and present:
            return False
        if operator not in ("In", "NotIn", "Exists", "DoesNotExist"):
            return True  # a selector the controller would reject: assume it covers, pausing is safe
    return True


def covering(cluster: ClusterApi, node: str) -> list[str]:
    """Names of the MHCs whose selector matches the Machine backing ``node`` (found through its
    ``status.nodeRef``, as the MHC controller does; none without a Machine: nothing remediates it)."""
    labels = cluster.machine_labels_of_node(node)
    if labels is None:
        return []
    return sorted(check.name for check in cluster.health_checks() if _matches(check, labels))


def _holders(annotations: Mapping[str, str]) -> set[str]:
    return {h for h in annotations.get(HOLDERS, "").split(",") if h}


def pause_health_checks(cluster: ClusterApi, node: str, holder: str) -> list[str]:
    """Pause every MHC covering ``node``'s Machine on behalf of ``holder``; the names paused (or already paused)."""
    names = covering(cluster, node)

    def add(annotations: Mapping[str, str]) -> Mapping[str, str | None]:
        holders = _holders(annotations)
        if PAUSED in annotations and not holders:
            return {}  # paused by someone else: theirs to lift
        return {PAUSED: "", HOLDERS: ",".join(sorted(holders | {holder}))}

    for name in names:
        cluster.edit_health_check(name, add)
    return names


def resume_health_checks(cluster: ClusterApi, holder: str) -> None:
    """Drop ``holder``'s pause wherever it is; lift a pause when nobody else holds it."""

    def remove(annotations: Mapping[str, str]) -> Mapping[str, str | None]:
        holders = _holders(annotations)
        if holder not in holders:
            return {}
        holders.discard(holder)
        if holders:
            return {HOLDERS: ",".join(sorted(holders))}
        return {PAUSED: None, HOLDERS: None}

    # Every MHC the holder appears on, not only those covering the Machine now: its labels may have changed.
    for check in cluster.health_checks():
        if holder in _holders(check.annotations):
            cluster.edit_health_check(check.name, remove)
