"""Cordon and drain through the Eviction API, the way ``oc adm drain`` does, bounded by a timeout.

Evictions respect PodDisruptionBudgets (the API answers 429 while a budget allows no disruption),
DaemonSet pods and static pods' mirrors stay (they belong to the node), and a pod no controller
owns stops the drain before anything is evicted: it would be gone for good.
"""

from __future__ import annotations

from components.ops.ports import Clock, ClusterApi, OperationFailed, PodRef

__all__ = ["drain"]


def _movable(pod: PodRef) -> bool:
    return not pod.mirror and pod.owner_kind != "DaemonSet"


def drain(cluster: ClusterApi, clock: Clock, node: str, *, timeout_s: float, poll_s: float) -> None:
    """Evict every movable pod of ``node`` and wait until they are gone; OperationFailed naming the
    pods still there (and why) after ``timeout_s``."""
    pods = [p for p in cluster.pods_on(node) if _movable(p)]
    bare = [str(p) for p in pods if p.owner_kind is None and not p.finished]
    if bare:
        raise OperationFailed(
            f"drain of {node}: {', '.join(bare)} not managed by any controller; it would be lost, so move or "
            "delete it, then run pulumi up again")
    deadline = clock.now() + timeout_s
    blocked: set[str] = set()
    remaining = pods
    while True:
        if not remaining:
            return
        for pod in remaining:
            outcome = cluster.evict(pod)
            if outcome == "blocked":
                blocked.add(str(pod))
            else:
                blocked.discard(str(pod))
        if clock.now() >= deadline:
            still = [str(p) for p in cluster.pods_on(node) if _movable(p)]
            if not still:
                return
            reasons = [f"{p} ({'a PodDisruptionBudget allows no eviction' if p in blocked else 'still terminating'})"
                       for p in still]
            raise OperationFailed(
                f"drain of {node} did not finish within {timeout_s:.0f} s: {'; '.join(reasons)}; free the pods (or "
                "raise nodes.drain_timeout_s), then run pulumi up again")
        clock.sleep(poll_s)
        remaining = [p for p in cluster.pods_on(node) if _movable(p)]
