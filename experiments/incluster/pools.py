"""Which cells may run at the same time: the locks a cell holds while it runs.

A cell locks what it changes and another cell could change too:

* its workers: each adopted worker it names (``worker-<infra>-<name>``), or the whole MachineSet it
  adopts by prefix (``machineset-<infra>-<machineset>``; which workers a count selects is only known
  in the cluster, so the set is locked whole); a cell that creates its own instances (standalone,
  join) locks its stack (``stack-<name>``), so two workflows never run one stack at once;
* its Kubernetes objects: every namespace it creates (``namespace-<ns>``), each object it renders in
  a namespace it does not create (``object-<ns>-<kind>-<name>``: the worker claims in ``default``)
  and every cluster-scoped object by kind and name (``cluster-<kind>-<name>``): two cells that render
  the same NicClusterPolicy or the same job in the same namespace would overwrite each other.

Two cells conflict when their lock sets meet. Conflicting cells are chained one after the other in
the order of the sweep; cells in no conflict run in parallel. Argo takes a template's mutexes all
or none (``docs/synchronization.md``, "Multiple locks"), so overlapping sets cannot deadlock, and the
same names lock out another workflow's cells as well.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from components.models.config import ClusterConfig

__all__ = ["cell_locks", "chains"]

_UNSAFE = re.compile(r"[^a-z0-9.-]+")


def _lock(*parts: str) -> str:
    return _UNSAFE.sub("-", "-".join(parts).lower()).strip("-")[:253]


def cell_locks(stack_name: str, cluster: ClusterConfig, manifests: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    locks: set[str] = set()
    nodes = cluster.nodes
    if cluster.layers == "kubernetes":
        pass  # no instance is touched; its Kubernetes objects are locked below
    elif nodes.source == "adopt":
        infra = cluster.openshift.infra_id or "cluster"
        if nodes.names:
            locks.update(_lock("worker", infra, str(name)) for name in nodes.names[: nodes.count])
        else:
            locks.add(_lock("machineset", str(nodes.machineset)))  # IPI names carry the infra ID
    else:
        locks.add(_lock("stack", stack_name))
    manifests = list(manifests)
    own = {(m.get("metadata") or {}).get("name") for m in manifests if m["kind"] == "Namespace"}
    for manifest in manifests:
        metadata = manifest.get("metadata") or {}
        namespace = metadata.get("namespace")
        if namespace and namespace not in own:
            # A shared namespace (the worker claims' Leases in default): only the object itself is the cell's.
            locks.add(_lock("object", namespace, manifest["kind"], metadata.get("name", "")))
        elif namespace:
            locks.add(_lock("namespace", namespace))
        elif manifest["kind"] == "Namespace":
            locks.add(_lock("namespace", metadata.get("name", "")))
        else:
            locks.add(_lock("cluster", manifest["kind"], metadata.get("name", "")))
    return tuple(sorted(locks))


def chains(locks: Sequence[tuple[str, ...]]) -> list[list[int]]:
    """Cells (by index, in sweep order) grouped into chains: a cell joins every earlier cell it
    conflicts with, transitively, so conflicting cells always share one sequential chain."""
    parent = list(range(len(locks)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    holder: dict[str, int] = {}
    for index, names in enumerate(locks):
        for name in names:
            if name in holder:
                parent[root(index)] = root(holder[name])
            else:
                holder[name] = index
    groups: dict[int, list[int]] = {}
    for index in range(len(locks)):
        groups.setdefault(root(index), []).append(index)
    return sorted(groups.values(), key=lambda chain: chain[0])
