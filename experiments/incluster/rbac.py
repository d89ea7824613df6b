"""The least RBAC the in-cluster steps need: every API call a step makes, and a rule for each.

``calls_of`` lists the calls, each with the step that makes it (``why``); ``rbac_objects`` turns them
into rules, never a wildcard, never wider than the calls:

* **``up``/``destroy``** (the stack's Kubernetes provider, pulumi-kubernetes 4, server-side apply):
  for every rendered object, by its name: ``get``; ``patch`` and ``create`` (a create is an apply
  PATCH to the object's own URL, ``provider/pkg/await/await.go`` ``Creation``, so the API server
  authorizes its ``create`` with the name, ``apiserver/pkg/endpoints/handlers`` ``withAuthorization``,
  and ``resourceNames`` hold); ``list`` and ``watch`` (the awaits; a list or watch with a
  ``metadata.name`` field selector is authorized with that name); ``delete``. The stack's Namespace
  and SCC are the administrator's (``ADMIN_KINDS``, ``setup.yaml``): the program reads the
  namespace (``get``, ``list``, ``watch`` by name) and only names the SCC.
* **Escalation prevention**: every rule of a Role the stack renders, held where the Role is
  (``resourceNames`` kept: ``use`` of the job's own SCC).
* **``run``** (``live.jobrun``): the job by its name (apply, get, delete), its pods (``list``, by a
  label selector: unnamed) and each pod's log by the pod's name (``<job>-<type>-<index>``,
  training-operator ``GenGeneralName``). **``stack workers``**: Nodes ``list``.
* **rolling workers** (``components/ops``): Nodes get/patch, pods ``list`` in every namespace and
  ``pods/eviction`` (the drain), Machines and MachineHealthChecks in ``openshift-machine-api``.
* **a join stack** that reads the worker ignition: that one Secret, by name.
* **Argo's executor**: ``workflowtaskresults`` create, patch, in the workflow's namespace.

Where the rule lives: a Role in the namespace of every namespaced call (the stacks' own namespaces
exist before the runner does: ``setup.yaml`` creates them, ``admin.py``), so no right on a namespaced
object reaches another namespace; the ClusterRole holds only cluster-scoped objects, each by name,
and ``CLUSTER_WIDE``'s unnamed calls, with their reason: no unnamed create, delete, patch, get or log
read, and no write of any SCC.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.ops.kube_client import MACHINE_API
from experiments.base.paths import PROJECT_ROOT
from experiments.incluster.objects import APP_LABEL
from experiments.incluster.settings import InClusterSettings

__all__ = [
    "ADMIN_KINDS",
    "CLUSTER_WIDE",
    "ROLE_NAME",
    "USER_DATA_SECRET",
    "Call",
    "StackCalls",
    "calls_of",
    "rbac_objects",
    "step_calls",
]

ROLE_NAME = "gpu-cluster-runner"
USER_DATA_SECRET = ("openshift-machine-api", "worker-user-data")
"""What ``components/program.py`` reads for a join stack whose ignition comes from the cluster."""
APPLY = ("get", "list", "watch", "create", "patch", "delete")
CLUSTER_WIDE = {
    ("", "nodes", "list"): "stack workers lists the Nodes; rolling steps find a worker's Node",
    ("", "pods", "list"): "run lists its job's pods (label selector); the drain a worker's (spec.nodeName)",
    ("", "pods/eviction", "create"): "the drain evicts those pods through the Eviction API (PDBs hold)",
    ("", "nodes", "get"): "the rolling steps read a worker's Node",
    ("", "nodes", "patch"): "cordon, uncordon and the out-of-service mark of a worker",
}
"""The only unnamed grants outside a namespace: (group, resource, verb) -> why."""
_BUILTIN_PLURALS = dict(
    pair.split("=")
    for pair in (
        "ConfigMap=configmaps Secret=secrets Namespace=namespaces ServiceAccount=serviceaccounts Service=services "
        "PersistentVolumeClaim=persistentvolumeclaims Pod=pods Role=roles RoleBinding=rolebindings "
        "ClusterRole=clusterroles ClusterRoleBinding=clusterrolebindings DaemonSet=daemonsets Deployment=deployments "
        "Job=jobs SecurityContextConstraints=securitycontextconstraints Lease=leases"
    ).split()
)
ADMIN_KINDS = ("Namespace", "SecurityContextConstraints")
"""What an administrator applies for the runner (``setup.yaml``) and a stack in the cluster only reads
or names (``kubernetes.create_namespace`` and ``create_scc`` false): the runner gets no right to write them."""


@dataclass(frozen=True)
class Call:
    """One request a step makes: ``name`` None where the request carries none (a list, a POST)."""

    verb: str
    group: str
    resource: str
    namespace: str | None
    name: str | None
    why: str


@dataclass(frozen=True)
class StackCalls:
    """What one stack's steps touch."""

    manifests: list[dict[str, Any]]
    """What the stack itself applies (no ``ADMIN_KINDS``)."""
    namespace: str | None = None
    """The namespace the program reads (``Namespace.get``), which ``setup.yaml`` creates."""
    rolls_workers: bool = False
    reads_user_data: bool = False


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


def _job_pods(job: Mapping[str, Any]) -> list[str]:
    """The pods the training operator creates for a PyTorchJob: ``<job>-<type in lower case>-<index>``."""
    name = job["metadata"]["name"]
    specs = (job.get("spec") or {}).get("pytorchReplicaSpecs") or {}
    return [
        f"{name}-{kind.lower()}-{index}"
        for kind, spec in sorted(specs.items())
        for index in range(int((spec or {}).get("replicas", 1)))
    ]


_MACHINE_CALLS = (
    ("list", "machines", "the Machine whose status.nodeRef is the worker (its labels select the MHCs)"),
    ("list", "machinehealthchecks", "the MachineHealthChecks that cover a worker"),
    ("get", "machinehealthchecks", "a MachineHealthCheck's annotations"),
    ("patch", "machinehealthchecks", "the pause annotation"),
)


def _held(role: Mapping[str, Any]) -> list[Call]:
    """A Role's rules as calls the runner must be allowed (it grants only what it holds)."""
    where = role["metadata"].get("namespace") if role["kind"] == "Role" else None
    why = f"held to grant it: {role['kind']} {role['metadata']['name']}"
    return [
        Call(verb, group, resource, where, held, why)
        for rule in role.get("rules") or []
        for group in rule.get("apiGroups") or [""]
        for resource in rule.get("resources") or []
        for verb in rule.get("verbs") or []
        for held in rule.get("resourceNames") or [None]
    ]


def _stack_calls(stack: StackCalls, crds: Mapping[tuple[str, str], str]) -> list[Call]:
    why = "up: the program reads the stack's namespace (the administrator's)"
    calls = [Call(v, "", "namespaces", None, stack.namespace, why) for v in ("get", "list", "watch") if stack.namespace]
    for manifest in stack.manifests:
        meta = manifest.get("metadata") or {}
        namespace, name = meta.get("namespace"), meta["name"]
        if manifest["kind"] in ADMIN_KINDS:
            raise ValueError(f"{manifest['kind']} {name}: the administrator's (setup.yaml), never the runner's")
        group = manifest["apiVersion"].rpartition("/")[0]
        plural = _plural(manifest["apiVersion"], manifest["kind"], crds)
        calls += [Call(v, group, plural, namespace, name, f"up/destroy: {manifest['kind']} {name}") for v in APPLY]
        if manifest["kind"] in ("Role", "ClusterRole"):
            calls += _held(manifest)
        if manifest["kind"] == "PyTorchJob":
            why = f"run: PyTorchJob {name}"
            calls += [Call(v, group, plural, namespace, name, why) for v in ("create", "patch", "get", "delete")]
            calls.append(Call("list", "", "pods", namespace, None, f"{why}: its pods (label selector)"))
            calls += [
                Call("get", "", "pods/log", namespace, pod, f"{why}: the log of {pod}") for pod in _job_pods(manifest)
            ]
    if stack.rolls_workers:
        calls += [
            Call(verb, group, resource, None, None, f"rolling workers: {why}")
            for (group, resource, verb), why in CLUSTER_WIDE.items()
            if resource != "nodes" or verb != "list"
        ]
        group, _version, machine_namespace = MACHINE_API
        calls += [
            Call(verb, group, resource, machine_namespace, None, f"rolling workers: {why}")
            for verb, resource, why in _MACHINE_CALLS
        ]
    if stack.reads_user_data:
        calls.append(
            Call(
                "get",
                "",
                "secrets",
                USER_DATA_SECRET[0],
                USER_DATA_SECRET[1],
                "up: a join stack reads the worker ignition",
            )
        )
    return calls


def step_calls(*, workflow_namespace: str, argo: bool) -> list[Call]:
    """What every in-cluster run calls whatever its stacks."""
    calls = [Call("list", "", "nodes", None, None, f"stack workers: {CLUSTER_WIDE[('', 'nodes', 'list')]}")]
    if argo:
        calls += [
            Call(
                v,
                "argoproj.io",
                "workflowtaskresults",
                workflow_namespace,
                None,
                "Argo's executor reports each step's outputs",
            )
            for v in ("create", "patch")
        ]
    return calls


def calls_of(stacks: Iterable[StackCalls], *, workflow_namespace: str, argo: bool) -> list[Call]:
    crds = _crd_plurals()
    calls = [call for stack in stacks for call in _stack_calls(stack, crds)]
    return calls + step_calls(workflow_namespace=workflow_namespace, argo=argo)


def _rules(calls: Iterable[Call]) -> list[dict[str, Any]]:
    """Rules for ``calls`` of one Role: a named call gets a rule limited to its names, merged only
    with names that have exactly the same verbs (never widened)."""
    verbs: dict[tuple[str, str, str | None], set[str]] = defaultdict(set)
    for call in calls:
        verbs[(call.group, call.resource, call.name)].add(call.verb)
    merged: dict[tuple[str, str, tuple[str, ...], bool], set[str]] = defaultdict(set)
    for (group, resource, name), verb_set in verbs.items():
        merged[(group, resource, tuple(sorted(verb_set)), name is not None)].add(name or "")
    rules = []
    for (group, resource, verb_list, named), names in sorted(merged.items()):
        rule: dict[str, Any] = {"apiGroups": [group], "resources": [resource]}
        if named:
            rule["resourceNames"] = sorted(names)
        rule["verbs"] = list(verb_list)
        rules.append(rule)
    return rules


def _subject(settings: InClusterSettings) -> dict[str, Any]:
    return {"kind": "ServiceAccount", "name": settings.service_account, "namespace": settings.namespace}


def rbac_objects(calls: list[Call], settings: InClusterSettings, *, token_review: bool = False) -> list[dict[str, Any]]:
    """A Role (+ binding) in the namespace of every namespaced call, the ClusterRole (+ binding) for
    cluster-scoped objects; ``token_review`` binds ``system:auth-delegator`` too (PKO's agent checks
    the operator's token with a TokenReview). Every namespace must exist first (``admin.py``)."""
    by_namespace: dict[str | None, list[Call]] = defaultdict(list)
    for call in calls:
        by_namespace[call.namespace].append(call)
    labels = dict(APP_LABEL)
    name = f"{ROLE_NAME}-{settings.namespace}"
    role_ref = {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name}
    binding = {"apiVersion": "rbac.authorization.k8s.io/v1", "subjects": [_subject(settings)]}
    objects: list[dict[str, Any]] = [
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRole",
            "metadata": {"name": name, "labels": labels},
            "rules": _rules(by_namespace.get(None, [])),
        },
        {**binding, "kind": "ClusterRoleBinding", "metadata": {"name": name, "labels": labels}, "roleRef": role_ref},
    ]
    if token_review:
        meta = {"name": f"{name}-auth-delegator", "labels": labels}
        objects.append(
            {
                **binding,
                "kind": "ClusterRoleBinding",
                "metadata": meta,
                "roleRef": {**role_ref, "name": "system:auth-delegator"},
            }
        )
    for namespace in sorted(ns for ns in by_namespace if ns is not None):
        meta = {"name": ROLE_NAME, "namespace": namespace, "labels": labels}
        objects += [
            {
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "Role",
                "metadata": meta,
                "rules": _rules(by_namespace[namespace]),
            },
            {
                **binding,
                "kind": "RoleBinding",
                "metadata": meta,
                "roleRef": {**role_ref, "kind": "Role", "name": ROLE_NAME},
            },
        ]
    return objects
