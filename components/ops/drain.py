"""Cordon and drain through the Eviction API, the way ``oc adm drain`` does (kubectl
``pkg/drain``), bounded by a timeout.

* Evictions respect PodDisruptionBudgets (the API answers 429 while a budget allows no disruption).
* A pod an ``apps`` DaemonSet controls and a static pod's mirror stay: they belong to the node.  The
  owner is judged by its kind *and* API group (a ``DaemonSet`` of another group is just a controller).
* A pod no controller owns, or one with an ``emptyDir`` volume (unless
  ``nodes.drain_delete_emptydir_data``, kubectl's ``--delete-emptydir-data``), stops the drain before
  it is evicted: its data would be gone for good.  Checked every round, not once: a bare pod bound
  between two rounds is not evicted either.  Finished pods (Succeeded, Failed) hold nothing.
* A pod is gone when no pod of its UID is on the node (a pod recreated under the same name is
  another pod), and the eviction names the UID it vetted (``preconditions``).
* An eviction refused because the pod's namespace is terminating is waited out: the namespace
  controller deletes the pod.
"""

from __future__ import annotations

from components.ops.ports import Clock, ClusterApi, OperationFailed, PodRef

__all__ = ["drain"]

WHY = {"blocked": "a PodDisruptionBudget allows no eviction", "terminating": "its namespace is terminating"}


def _movable(pod: PodRef) -> bool:
    return not pod.mirror and not (pod.owner_kind == "DaemonSet" and pod.owner_group == "apps")


def _refusals(node: str, pods: list[PodRef], delete_emptydir_data: bool) -> list[str]:
    bare = [str(p) for p in pods if p.owner_kind is None and not p.finished]
    local = [str(p) for p in pods if p.emptydir and not p.finished and not delete_emptydir_data]
    problems = []
    if bare:
        problems.append(f"{', '.join(bare)} not managed by any controller; it would be lost, so move or delete it")
    if local:
        problems.append(
            f"{', '.join(local)} keep data in an emptyDir volume, which an eviction deletes; move them, "
            "or set nodes.drain_delete_emptydir_data: true (kubectl's --delete-emptydir-data)"
        )
    return [f"drain of {node}: {'; '.join(problems)}; then run pulumi up again"] if problems else []


def drain(
    cluster: ClusterApi, clock: Clock, node: str, *, timeout_s: float, poll_s: float, delete_emptydir_data: bool = False
) -> None:
    """Evict every movable pod of ``node`` and wait until they are gone; OperationFailed naming the
    pods that may not be evicted, or those still there (and why) after ``timeout_s``."""
    deadline = clock.now() + timeout_s
    waiting: dict[str, str] = {}
    """UID (or name) → why its eviction did not go through yet."""
    while True:
        pods = [p for p in cluster.pods_on(node) if _movable(p)]
        refused = _refusals(node, pods, delete_emptydir_data)
        if refused:
            raise OperationFailed(refused[0])
        if not pods:
            return
        if clock.now() >= deadline:
            reasons = [f"{p} ({WHY.get(waiting.get(p.key, ''), 'still terminating')})" for p in pods]
            raise OperationFailed(
                f"drain of {node} did not finish within {timeout_s:.0f} s: {'; '.join(reasons)}; free the pods (or "
                "raise nodes.drain_timeout_s), then run pulumi up again"
            )
        for pod in pods:
            outcome = cluster.evict(pod)
            if outcome in WHY:
                waiting[pod.key] = outcome
            else:
                waiting.pop(pod.key, None)
        clock.sleep(poll_s)
