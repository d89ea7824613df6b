"""The least RBAC the in-cluster steps need, derived from what the stacks render.

A step runs ``pulumi up``/``destroy`` of a stack, whose Kubernetes layer creates exactly the objects
``preview`` renders, so the rules are computed from those objects, kind by kind and namespace by
namespace, never a wildcard:

* every rendered kind: ``get list watch create update patch delete`` (the provider reads, applies,
  awaits and deletes what it owns);
* every Role or ClusterRole the stack creates: its rules as well, because Kubernetes lets an
  identity grant only what it holds (RBAC escalation prevention); a rule limited by
  ``resourceNames`` (``use`` of the job's own SCC) stays limited;
* namespaced kinds in a namespace that exists before the stack go in a Role of that namespace; in a
  namespace the stack creates itself (no Role can exist there beforehand) they go in the ClusterRole,
  the one place the grant is wider than the objects (pre-create the namespace to narrow it);
* ``run``: PyTorchJobs (get, create, delete), the job's pods (list) and their logs (get);
* the worker report of the exit handler: Nodes (get, list);
* Argo's executor: ``workflowtaskresults`` (create, patch) in the workflow's namespace.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from components.ops.kube_client import MACHINE_API
from experiments.base.paths import PROJECT_ROOT
from experiments.incluster.objects import APP_LABEL
from experiments.incluster.settings import InClusterSettings

__all__ = ["Grants", "ROLE_NAME", "grants_of", "rbac_objects"]

ROLE_NAME = "gpu-cluster-runner"
MANAGE = ("get", "list", "watch", "create", "update", "patch", "delete")
_BUILTIN_PLURALS = {
    "ConfigMap": "configmaps", "Secret": "secrets", "Namespace": "namespaces", "ServiceAccount": "serviceaccounts",
    "Service": "services", "PersistentVolumeClaim": "persistentvolumeclaims", "Pod": "pods",
    "Role": "roles", "RoleBinding": "rolebindings", "ClusterRole": "clusterroles",
    "ClusterRoleBinding": "clusterrolebindings", "DaemonSet": "daemonsets", "Deployment": "deployments",
    "Job": "jobs", "SecurityContextConstraints": "securitycontextconstraints", "Lease": "leases",
}
_RBAC_KINDS = ("Role", "ClusterRole")

Rule = tuple[str, str, tuple[str, ...]]
"""(API group, resource, verbs)."""


def _crd_plurals(root: Path = PROJECT_ROOT) -> dict[tuple[str, str], str]:
    """(group, kind) -> plural, from the shipped CRD schema index (file ``<group>_<plural>_<version>.json``)."""
    plurals = {}
    for folder in ("crds", "engines"):
        index = root / "schemas" / folder / "index.json"
        if index.is_file():
            for key, file_name in json.loads(index.read_text()).items():
                group, _version, kind = key.rsplit("/", 2)
                plurals[(group, kind)] = file_name.split("_")[1]
    return plurals


def _plural(api_version: str, kind: str, crds: Mapping[tuple[str, str], str]) -> str:
    group = api_version.rpartition("/")[0]
    if (group, kind) in crds:
        return crds[(group, kind)]
    if kind in _BUILTIN_PLURALS:
        return _BUILTIN_PLURALS[kind]
    raise ValueError(f"no resource name known for {kind} ({api_version}): add it to rbac._BUILTIN_PLURALS")


class Grants:
    """Rules per namespace (None: cluster-wide), merged verb by verb."""

    def __init__(self) -> None:
        self.rules: dict[str | None, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        self.named: dict[str | None, list[dict[str, Any]]] = defaultdict(list)
        """Rules limited to named objects (``resourceNames``), kept as they are: never widened."""

    def add(self, namespace: str | None, group: str, resource: str, verbs: Iterable[str]) -> None:
        self.rules[namespace][(group, resource)].update(verbs)

    def add_rule_objects(self, namespace: str | None, rules: Iterable[Mapping[str, Any]]) -> None:
        for rule in rules:
            if rule.get("resourceNames"):
                named = {k: sorted(rule.get(k) or []) for k in ("apiGroups", "resources", "resourceNames", "verbs")}
                if named not in self.named[namespace]:
                    self.named[namespace].append(named)
                continue
            for group in rule.get("apiGroups") or [""]:
                for resource in rule.get("resources") or []:
                    self.add(namespace, group, resource, rule.get("verbs") or [])

    def rendered(self, namespace: str | None) -> list[dict[str, Any]]:
        by_verbs: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
        for (group, resource), verbs in sorted(self.rules.get(namespace, {}).items()):
            by_verbs[(group, tuple(sorted(verbs)))].append(resource)
        merged = [{"apiGroups": [group], "resources": sorted(resources), "verbs": list(verbs)}
                  for (group, verbs), resources in sorted(by_verbs.items())]
        return merged + sorted(self.named.get(namespace, []), key=lambda r: str(sorted(r.items())))

    def namespaces(self) -> list[str]:
        return sorted(ns for ns in {*self.rules, *self.named} if ns is not None)


def grants_of(manifests: Iterable[Mapping[str, Any]], *, workflow_namespace: str, argo: bool,
              rolls_workers: bool = False) -> Grants:
    """What the steps touch: every rendered object, the job's pods and logs, and, where a stack stops
    adopted workers (``rolls_workers``), what the rolling steps (components/ops) call."""
    manifests = list(manifests)
    crds = _crd_plurals()
    created = {m["metadata"]["name"] for m in manifests if m["kind"] == "Namespace"}
    grants = Grants()

    def where(namespace: str | None) -> str | None:
        return None if namespace in created else namespace

    for manifest in manifests:
        namespace = (manifest.get("metadata") or {}).get("namespace")
        group = manifest["apiVersion"].rpartition("/")[0]
        grants.add(where(namespace), group, _plural(manifest["apiVersion"], manifest["kind"], crds), MANAGE)
        if manifest["kind"] in _RBAC_KINDS:
            grants.add_rule_objects(where(namespace) if manifest["kind"] == "Role" else None,
                                    manifest.get("rules") or [])
        if manifest["kind"] == "PyTorchJob":
            grants.add(where(namespace), "kubeflow.org", "pytorchjobs", ("get", "create", "delete"))
            grants.add(where(namespace), "", "pods", ("list",))
            grants.add(where(namespace), "", "pods/log", ("get",))
    grants.add(None, "", "nodes", ("get", "list"))
    if rolls_workers:
        grants.add(None, "", "nodes", ("patch",))  # cordon, uncordon, the out-of-service mark
        grants.add(None, "", "pods", ("list",))  # the worker's pods, in every namespace
        grants.add(None, "", "pods/eviction", ("create",))  # the drain, through the Eviction API (PDBs hold)
        group, _version, machine_namespace = MACHINE_API
        grants.add(machine_namespace, group, "machines", ("list",))  # the worker's Machine (status.nodeRef), its labels
        grants.add(machine_namespace, group, "machinehealthchecks", ("get", "list", "patch"))  # the pause annotation
    if argo:
        grants.add(workflow_namespace, "argoproj.io", "workflowtaskresults", ("create", "patch"))
    return grants


def _subject(settings: InClusterSettings) -> dict[str, Any]:
    return {"kind": "ServiceAccount", "name": settings.service_account, "namespace": settings.namespace}


def rbac_objects(grants: Grants, settings: InClusterSettings, *, token_review: bool = False) -> list[dict[str, Any]]:
    """One ClusterRole (+ binding) and a Role (+ binding) per namespace; ``token_review`` binds
    ``system:auth-delegator`` too (PKO's agent checks the operator's token with a TokenReview)."""
    labels = dict(APP_LABEL)
    name = f"{ROLE_NAME}-{settings.namespace}"
    role_ref = {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name}
    objects: list[dict[str, Any]] = [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
         "metadata": {"name": name, "labels": labels}, "rules": grants.rendered(None)},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
         "metadata": {"name": name, "labels": labels}, "roleRef": role_ref, "subjects": [_subject(settings)]},
    ]
    if token_review:
        objects.append({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                        "metadata": {"name": f"{name}-auth-delegator", "labels": labels},
                        "roleRef": {**role_ref, "name": "system:auth-delegator"}, "subjects": [_subject(settings)]})
    for namespace in grants.namespaces():
        meta = {"name": ROLE_NAME, "namespace": namespace, "labels": labels}
        objects += [
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta,
             "rules": grants.rendered(namespace)},
            {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta,
             "roleRef": {**role_ref, "kind": "Role", "name": ROLE_NAME}, "subjects": [_subject(settings)]},
        ]
    return objects
