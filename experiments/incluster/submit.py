"""``--submit``: create the setup objects and the Workflow through the Kubernetes API, then follow it.

The same as ``kubectl apply -f setup.yaml && argo submit --wait workflow.yaml``: the exit status is 0
only when the workflow ends ``Succeeded``, 1 when it ends ``Failed`` or ``Error`` (``argo submit
--watch`` would exit 0 whatever the phase). Existing objects: content-named ConfigMaps, the claim (never
replaced: it holds the state) and the ServiceAccount are kept only once read and found to be what is
rendered (``_check_kept``: a ConfigMap planted under a predictable name stops the submission), and so
is a stack's Namespace (it must carry the project's label); RBAC objects and the stacks' SCCs are
replaced, so the rules follow the cells (an SCC with the resourceVersion read: a PUT of a custom
resource needs it).

Every request goes through ``kube.Kube`` (connect and read timeouts cut to the command's deadline,
credentials redacted); ``--timeout`` bounds the whole command (default: the workflow's own longest
run, ``workflow_seconds``). Every answer is hostile input: a Workflow whose name or status is not one
Argo writes is one line (exit 2); names and phases are escaped for the terminal. Reaching the timeout,
or Ctrl-C, leaves the workflow running in the cluster and says how to follow it (``argo wait``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException
from rich.console import Console

from components.models.types import is_dns_subdomain
from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict
from experiments.incluster.deadlines import MARGIN_SECONDS
from experiments.incluster.existing import SCC_API, check_kept, label, versioned
from experiments.incluster.render import Rendered
from experiments.live.kube import DeadlineReached, Kube, KubeError

__all__ = ["FINAL_PHASES", "create_objects", "follow_workflow", "submit_and_follow", "workflow_seconds"]

FINAL_PHASES = ("Succeeded", "Failed", "Error")
PHASES = ("", "Pending", "Running", *FINAL_PHASES)
"""Every phase a Workflow can show (Argo's ``WorkflowPhase``; "" before the controller sees it)."""
_MAX_CELLS_SHOWN = 500
_GROUP, _VERSION, _PLURAL = "argoproj.io", "v1alpha1", "workflows"
_CREATE: dict[str, tuple[str, str, str | None]] = {
    # kind -> (API class, create method, replace method or None to keep an existing one, once read and compared)
    "Namespace": ("CoreV1Api", "create_namespace", None),
    "SecurityContextConstraints": ("CustomObjectsApi", "create_cluster_custom_object", "replace_cluster_custom_object"),
    "ServiceAccount": ("CoreV1Api", "create_namespaced_service_account", None),
    "PersistentVolumeClaim": ("CoreV1Api", "create_namespaced_persistent_volume_claim", None),
    "ConfigMap": ("CoreV1Api", "create_namespaced_config_map", None),
    "Role": ("RbacAuthorizationV1Api", "create_namespaced_role", "replace_namespaced_role"),
    "RoleBinding": ("RbacAuthorizationV1Api", "create_namespaced_role_binding", "replace_namespaced_role_binding"),
    "ClusterRole": ("RbacAuthorizationV1Api", "create_cluster_role", "replace_cluster_role"),
    "ClusterRoleBinding": ("RbacAuthorizationV1Api", "create_cluster_role_binding", "replace_cluster_role_binding"),
}


class FollowStopped(InputError):
    """``--timeout`` passed while the workflow still ran (it keeps running in the cluster)."""


def create_objects(kube: Kube, objects: list[dict[str, Any]], report: Callable[[str], None]) -> None:
    for obj in objects:
        api_class, create, replace = _CREATE[obj["kind"]]
        target = getattr(client, api_class)(kube.api)
        namespace = obj["metadata"].get("namespace")
        scc = SCC_API if obj["kind"] == "SecurityContextConstraints" else ()
        args = (namespace, obj) if namespace else (*scc, obj)
        try:
            kube.read(getattr(target, create), *args, what=f"creating {label(obj)}")  # the answer is not used
            report(f"created {label(obj)}")
        except ApiException as error:
            if error.status != 409:
                raise InputError(kube.api_error(error, f"creating {label(obj)}")) from None
            if replace is None:
                check_kept(kube, target, obj)
                report(f"kept {label(obj)}")
                continue
            name = obj["metadata"]["name"]
            name_args = (
                (name, namespace, obj) if namespace else (*scc, name, versioned(kube, target, obj) if scc else obj)
            )
            try:
                kube.read(getattr(target, replace), *name_args, what=f"replacing {label(obj)}")
            except ApiException as again:
                raise InputError(kube.api_error(again, f"replacing {label(obj)}")) from None
            report(f"replaced {label(obj)}")


def _phases(workflow: dict[str, Any]) -> dict[str, str]:
    """Cell -> phase, from the status's nodes (``cell-<stack>`` templates); names and phases escaped."""
    found: dict[str, str] = {}
    for node in as_dict(as_dict(workflow.get("status")).get("nodes")).values():
        template, phase = as_dict(node).get("templateName"), as_dict(node).get("phase")
        if isinstance(template, str) and template.startswith("cell-") and len(found) < _MAX_CELLS_SHOWN:
            found[terminal_text(template[len("cell-") :][:253])] = (
                terminal_text(phase[:40]) if isinstance(phase, str) and phase else "Pending"
            )
    return found


def _phase(workflow: dict[str, Any], label: str) -> str:
    status = workflow.get("status")
    if status is not None and not isinstance(status, dict):
        raise InputError(f"{label}: its status is not an object; see it with argo get")
    phase = as_dict(status).get("phase", "")
    if phase is None:
        phase = ""
    if not isinstance(phase, str) or phase not in PHASES:
        raise InputError(
            f"{label}: status.phase {terminal_text(repr(phase)[:80])} is not a phase of Argo "
            "Workflows; see it with argo get"
        )
    return phase or "Pending"


def follow_workflow(kube: Kube, namespace: str, name: str, *, poll: float, report: Callable[[str], None]) -> str:
    """The workflow's final phase; cell phases are reported as they change. ``FollowStopped`` when the
    command's deadline comes first."""

    custom, label = client.CustomObjectsApi(kube.api), f"Workflow {namespace}/{name}"
    seen: dict[str, str] = {}
    phase = "Pending"
    while True:
        try:
            workflow = kube.read_json(
                custom.get_namespaced_custom_object,
                _GROUP,
                _VERSION,
                namespace,
                _PLURAL,
                name,
                what=f"the state of {label}",
            )
        except ApiException as error:
            raise InputError(kube.api_error(error, f"reading {label}")) from None
        except KubeError as error:
            if kube.remaining() > 0:
                raise
            raise FollowStopped(f"{label} still {phase} at --timeout ({error})") from None
        if not isinstance(workflow, dict):
            raise InputError(f"{label}: the API answered no object")
        for cell, cell_phase in sorted(_phases(workflow).items()):
            if seen.get(cell) != cell_phase:
                report(f"{cell}: {cell_phase}")
                seen[cell] = cell_phase
        phase = _phase(workflow, label)
        if phase in FINAL_PHASES:
            return phase
        if kube.remaining() <= poll:
            raise FollowStopped(f"{label} still {phase} at --timeout")
        _pause(max(0.0, min(poll, kube.remaining())))


def _pause(seconds: float) -> None:
    """The wait between two reads of the workflow (where a Ctrl-C usually lands)."""
    time.sleep(seconds)


def workflow_seconds(workflow: dict[str, Any]) -> int:
    """The longest a workflow can run by its own step deadlines: its slowest chain (every step with all
    its retries), then the exit handler's groups. A cell waiting for a mutex that another sweep holds
    can take longer, which is why following ends at ``--timeout`` without touching the workflow."""
    templates = {t["name"]: t for t in workflow["spec"]["templates"]}

    def seconds(name: str) -> int:
        template = templates[name]
        if "steps" in template:  # groups one after another; a group lasts as long as its slowest step
            return sum(max(seconds(step["template"]) for step in group) for group in template["steps"])
        tries = 1 + int(as_dict(template.get("retryStrategy")).get("limit", 0))
        # Each wait between tries is at most the backoff's maxDuration (argo._retry: 15m).
        return int(template.get("activeDeadlineSeconds", 0)) * tries + (tries - 1) * 15 * 60

    # The margin: pods scheduled and started between steps.
    return seconds(workflow["spec"]["entrypoint"]) + seconds(workflow["spec"]["onExit"]) + MARGIN_SECONDS


def _created_name(created: Any, label: str) -> str:
    name = as_dict(as_dict(created).get("metadata")).get("name")
    if not is_dns_subdomain(name):
        shown = terminal_text(repr(name)[:80]) if name is not None else "no name"
        raise InputError(f"{label}: the API answered the Workflow with {shown}, not a Kubernetes name")
    return name


def follow_hint(namespace: str, name: str) -> str:
    return (
        f"Workflow {namespace}/{name} keeps running in the cluster; follow it with `argo wait -n {namespace} "
        f"{name}` (exits 1 if it fails) or `argo watch -n {namespace} {name}`"
    )


def submit_and_follow(rendered: Rendered, kube: Kube, *, console: Console, poll: float) -> int:
    """Create, submit, follow (``kube``'s deadline is the command's ``--timeout``)."""

    def report(line: str) -> None:
        console.print(f"  {line}")

    namespace = rendered.main["metadata"]["namespace"]
    try:
        create_objects(kube, rendered.setup, report)
    except DeadlineReached:
        raise InputError(
            f"--timeout reached creating the objects on {kube.server}: no Workflow was submitted "
            "(the objects created so far stay; setup.yaml creates the rest)"
        ) from None
    except KeyboardInterrupt:
        console.print(
            "interrupted: the objects created so far stay (setup.yaml creates the rest); no Workflow was submitted"
        )
        return 130
    custom = client.CustomObjectsApi(kube.api)
    try:
        created = kube.read_json(
            custom.create_namespaced_custom_object,
            _GROUP,
            _VERSION,
            namespace,
            _PLURAL,
            rendered.main,
            what="submitting the Workflow",
        )
    except ApiException as error:
        raise InputError(
            kube.api_error(error, f"submitting the Workflow (is Argo Workflows installed and watching {namespace}?)")
        ) from None
    except DeadlineReached:
        raise InputError(
            f"--timeout reached submitting the Workflow to {kube.server}: see whether it was "
            f"created with `argo list -n {namespace}`"
        ) from None
    name = _created_name(created, kube.server)
    console.print(
        f"submitted Workflow {namespace}/{name} on {kube.server}; following it for at most "
        f"{kube.remaining() / 3600:.1f} h (--timeout; Ctrl-C stops following, not the workflow)"
    )
    try:
        phase = follow_workflow(kube, namespace, name, poll=poll, report=report)
    except FollowStopped as error:
        raise InputError(f"{error}: {follow_hint(namespace, name)}") from None
    except DeadlineReached:
        raise InputError(f"--timeout reached: {follow_hint(namespace, name)}") from None
    except KeyboardInterrupt:
        console.print(f"interrupted: {follow_hint(namespace, name)}")
        return 130
    console.print(f"Workflow {namespace}/{name}: {phase}")
    return 0 if phase == "Succeeded" else 1
