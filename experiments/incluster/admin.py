"""What an administrator applies once for the runner, so the runner itself needs no right to make it.

A stack run on a laptop creates its namespace and, on OpenShift, the SecurityContextConstraints its
training pods need. In the cluster both come from ``setup.yaml`` instead (``ADMIN_KINDS``), applied by
someone allowed to: the namespace exists before the runner acts, so the runner's rights on the
objects in it are a Role there, and the SCC is out of the runner's reach, so a compromised runner
cannot widen what the training pods are granted. The stack file the engines ship says so
(``kubernetes.create_namespace`` and ``create_scc`` false): the program then reads the namespace
(never changing or deleting it) and only names the SCC in its Role binding.

The trade: a change of the pods' capabilities (another network variant) is an administrator's
``kubectl apply -f setup.yaml``, not the runner's ``up``; a sweep whose cells want different SCCs
under one name is refused (they cannot run against one applied object).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from typing import Any

from experiments.base.errors import InputError
from experiments.incluster.objects import APP_LABEL
from experiments.incluster.rbac import ADMIN_KINDS

__all__ = ["admin_objects", "in_cluster_cluster", "split_admin"]

ADMINISTERED = {"create_namespace": False, "create_scc": False}
"""The stack file's ``kubernetes`` keys that leave the namespace and the SCC to ``setup.yaml``."""


def in_cluster_cluster(cluster: Mapping[str, Any]) -> dict[str, Any]:
    """The cluster mapping as the engines ship it: the namespace and the SCC are the administrator's."""
    shipped = copy.deepcopy(dict(cluster))
    shipped["kubernetes"] = {**(shipped.get("kubernetes") or {}), **ADMINISTERED}
    return shipped


def split_admin(manifests: Iterable[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(what ``setup.yaml`` applies, what the stack applies) of a stack's rendered objects."""
    found = list(manifests)
    return [m for m in found if m["kind"] in ADMIN_KINDS], [m for m in found if m["kind"] not in ADMIN_KINDS]


def _namespace(name: str) -> dict[str, Any]:
    """As the program makes it on a laptop (``components/program.py``): its name and the project's label."""
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": dict(APP_LABEL)}}


def admin_objects(stacks: Mapping[str, tuple[str | None, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Each stack's namespace (None: it has no Kubernetes layer) and SCC, once each (stack name -> its
    namespace and its ``split_admin`` objects); first in ``setup.yaml``, so its Roles land in existing namespaces."""
    namespaces = sorted({namespace for namespace, _ in stacks.values() if namespace})
    sccs: dict[str, tuple[str, dict[str, Any]]] = {}
    for stack, (_, objects) in sorted(stacks.items()):
        for scc in (o for o in objects if o["kind"] == "SecurityContextConstraints"):
            name = scc["metadata"]["name"]
            first = sccs.setdefault(name, (stack, scc))
            if json.dumps(first[1], sort_keys=True) != json.dumps(scc, sort_keys=True):
                raise InputError(
                    f"{first[0]} and {stack} need different SecurityContextConstraints under one name, {name}: "
                    "in the cluster an administrator applies it once (setup.yaml); give them another "
                    "kubernetes.namespace or job.name"
                )
    return [_namespace(n) for n in namespaces] + [scc for _, (_, scc) in sorted(sccs.items())]
