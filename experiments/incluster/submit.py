"""``--submit``: create the setup objects and the Workflow through the Kubernetes API, then follow it.

The same as ``kubectl apply -f setup.yaml && argo submit --wait workflow.yaml``: the exit status is 0
only when the workflow ends ``Succeeded`` (``argo submit --watch`` would exit 0 whatever the phase).
Existing objects: content-named ConfigMaps and the claim are kept as they are (a claim is never
replaced: it holds the state); the ServiceAccount is kept; RBAC objects are replaced, so the rules
follow the cells. Every answer of the API is hostile input: one line on failure, never a traceback.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rich.console import Console

from ..errors import StackFileError
from .render import Rendered

__all__ = ["FINAL_PHASES", "create_objects", "follow_workflow", "submit_and_follow"]

FINAL_PHASES = ("Succeeded", "Failed", "Error")
_GROUP, _VERSION, _PLURAL = "argoproj.io", "v1alpha1", "workflows"
_CREATE: dict[str, tuple[str, str, str | None]] = {
    # kind -> (API class, create method, replace method or None to keep an existing one)
    "ServiceAccount": ("CoreV1Api", "create_namespaced_service_account", None),
    "PersistentVolumeClaim": ("CoreV1Api", "create_namespaced_persistent_volume_claim", None),
    "ConfigMap": ("CoreV1Api", "create_namespaced_config_map", None),
    "Role": ("RbacAuthorizationV1Api", "create_namespaced_role", "replace_namespaced_role"),
    "RoleBinding": ("RbacAuthorizationV1Api", "create_namespaced_role_binding", "replace_namespaced_role_binding"),
    "ClusterRole": ("RbacAuthorizationV1Api", "create_cluster_role", "replace_cluster_role"),
    "ClusterRoleBinding": ("RbacAuthorizationV1Api", "create_cluster_role_binding", "replace_cluster_role_binding"),
}


def _label(obj: dict[str, Any]) -> str:
    meta = obj["metadata"]
    return f"{obj['kind']} {meta.get('namespace', '')}{'/' if meta.get('namespace') else ''}{meta['name']}"


def create_objects(api: Any, objects: list[dict[str, Any]], report: Callable[[str], None]) -> None:
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    for obj in objects:
        api_class, create, replace = _CREATE[obj["kind"]]
        target = getattr(client, api_class)(api)
        namespace = obj["metadata"].get("namespace")
        args = (namespace, obj) if namespace else (obj,)
        try:
            getattr(target, create)(*args, _preload_content=False)  # the answer's shape is not trusted
            report(f"created {_label(obj)}")
        except ApiException as error:
            if error.status != 409:
                raise StackFileError(f"{_label(obj)}: {error.status} {error.reason}") from None
            if replace is None:
                report(f"kept {_label(obj)}")
                continue
            name_args = (obj["metadata"]["name"], namespace, obj) if namespace else (obj["metadata"]["name"], obj)
            try:
                getattr(target, replace)(*name_args, _preload_content=False)
            except ApiException as again:
                raise StackFileError(f"{_label(obj)}: {again.status} {again.reason}") from None
            report(f"replaced {_label(obj)}")


def _phases(workflow: dict[str, Any]) -> dict[str, str]:
    """Cell -> phase, from the status's nodes (``cell-<stack>`` templates)."""
    nodes = (workflow.get("status") or {}).get("nodes") or {}
    found = {}
    for node in nodes.values() if isinstance(nodes, dict) else []:
        template = node.get("templateName") if isinstance(node, dict) else None
        if isinstance(template, str) and template.startswith("cell-"):
            found[template[len("cell-"):]] = str(node.get("phase", "Pending"))
    return found


def follow_workflow(custom: Any, namespace: str, name: str, *, poll: float, timeout: float | None,
                    report: Callable[[str], None]) -> str:
    """The workflow's final phase; cell phases are reported as they change."""
    from kubernetes.client.exceptions import ApiException

    start, seen = time.monotonic(), {}
    while True:
        try:
            workflow = custom.get_namespaced_custom_object(_GROUP, _VERSION, namespace, _PLURAL, name)
        except ApiException as error:
            raise StackFileError(f"Workflow {namespace}/{name}: {error.status} {error.reason}") from None
        if not isinstance(workflow, dict):
            raise StackFileError(f"Workflow {namespace}/{name}: the API answered no object")
        for cell, phase in sorted(_phases(workflow).items()):
            if seen.get(cell) != phase:
                report(f"{cell}: {phase}")
                seen[cell] = phase
        phase = str((workflow.get("status") or {}).get("phase") or "Pending")
        if phase in FINAL_PHASES:
            return phase
        if timeout is not None and time.monotonic() - start > timeout:
            raise StackFileError(f"Workflow {namespace}/{name} still {phase}; follow it with argo watch")
        time.sleep(poll)


def submit_and_follow(rendered: Rendered, connection: tuple[Any, str], *, console: Console, poll: float = 15.0,
                      timeout: float | None = None) -> int:
    """``connection``: the API client and the cluster's description (``kube.connect``)."""
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    def report(line: str) -> None:
        console.print(f"  {line}", highlight=False, markup=False)

    api, cluster = connection
    create_objects(api, rendered.setup, report)
    custom = client.CustomObjectsApi(api)
    namespace = rendered.main["metadata"]["namespace"]
    try:
        created = custom.create_namespaced_custom_object(_GROUP, _VERSION, namespace, _PLURAL, rendered.main)
    except ApiException as error:
        raise StackFileError(f"{cluster}: {error.status} {error.reason} submitting the Workflow (is Argo Workflows "
                             f"installed in {namespace}?)") from None
    name = str(((created or {}).get("metadata") or {}).get("name") or "")
    if not name:
        raise StackFileError(f"{cluster}: the API answered the Workflow with no name")
    console.print(f"submitted Workflow {namespace}/{name} on {cluster}", highlight=False)
    phase = follow_workflow(custom, namespace, name, poll=poll, timeout=timeout, report=report)
    console.print(f"Workflow {namespace}/{name}: {phase}", highlight=False)
    return 0 if phase == "Succeeded" else 1
