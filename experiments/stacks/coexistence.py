"""Whether several stacks can live on one cluster at once, judged offline from their plans.

On a real cluster the per-worker claims (``components.k8s.claims``) refuse the second stack that
selects a worker; a tool that sees several stacks before any of them runs (a sweep's cells) says
so first, naming both stacks and what they share:

* workers: the same node selected by two stacks (their claims, NICs and stop/start would collide);
* the training namespace: both would own it (and, with it, every object name derived from it);
* the NVIDIA network operator's one ``NicClusterPolicy``, when both create it rather than patch it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from experiments.stacks.stackfile import StackFile

__all__ = ["conflicts"]

_SHOWN = 4
"""Shared workers named per conflict (the count says the rest)."""


def _owns_nic_cluster_policy(stack: StackFile) -> bool:
    return stack.plan.fabric.nic_cluster_policy and stack.cluster.fabric.rdma.nic_cluster_policy == "create"


def _k8s(stack: StackFile) -> bool:
    return stack.cluster.layers != "cloud"


def _pair(a: StackFile, b: StackFile) -> list[str]:
    problems = []
    shared = [node for node in a.plan.addresses.nodes if node in set(b.plan.addresses.nodes)]
    if shared:
        names = ", ".join(shared[:_SHOWN]) + (f" and {len(shared) - _SHOWN} more" if len(shared) > _SHOWN else "")
        problems.append(
            f"{a.name} and {b.name} both select worker(s) {names}: one stack per worker (the second "
            "one's claim would be refused on the cluster); give them different nodes.names or "
            "deploy one, destroy it, then the other"
        )
    if _k8s(a) and _k8s(b) and a.cluster.namespace == b.cluster.namespace:
        problems.append(
            f"{a.name} and {b.name} both use namespace {a.cluster.namespace} (kubernetes.namespace): "
            "leave it unset (each stack then gets <name_prefix>-training) or set different ones"
        )
    if _k8s(a) and _k8s(b) and _owns_nic_cluster_policy(a) and _owns_nic_cluster_policy(b):
        problems.append(
            f"{a.name} and {b.name} both create the NicClusterPolicy {a.cluster.fabric.rdma.policy_name} "
            "(the network operator has one): set fabric.rdma.nic_cluster_policy: patch in one of them"
        )
    return problems


def conflicts(stacks: Sequence[StackFile]) -> list[str]:
    """Every pair of ``stacks`` that cannot be deployed side by side on one cluster, one line per problem."""
    return [line for a, b in itertools.combinations(stacks, 2) for line in _pair(a, b)]
