"""``pull-results --from-cluster``: a short pod on the state PVC prints the store's export; its log is read.

The pod runs the project image's own ``export-results`` (read-only on the store), lands on the node
the claim is attached to (the same pod affinity as the workflow's pods) and is deleted afterwards,
whatever happened. Every request goes through ``kube.Kube`` (timeouts, credentials redacted). What
comes back is hostile input: a log that is not UTF-8 or larger than the caller's limit is refused,
and ``results.transfer.parse_export`` refuses a log cut short (count and sha256), so a lost connection
imports nothing and the cluster keeps every run.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from components.models.types import is_dns_subdomain
from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict
from experiments.incluster.objects import APP_LABEL, CLAIM_LABEL, pod_affinity
from experiments.incluster.settings import RESULTS_PATH, STATE_MOUNT, check_dns_label, check_image
from experiments.live.kube import DeadlineReached, Kube, KubeError, connect, deadline_alarm

__all__ = ["CLEANUP_SECONDS", "ExportRequest", "export_from_cluster", "export_pod"]

CLEANUP_SECONDS = 30.0
"""Beyond ``--timeout``: the export pod is deleted even when the command ran out of time."""


@dataclass(frozen=True)
class ExportRequest:
    """Where the store lives and how to reach it, as the command line gave it (``export_from_cluster``
    checks it)."""

    namespace: str
    state_claim: str
    image: str | None
    service_account: str
    kubeconfig: Path | None
    context: str | None
    timeout: float
    """Seconds for the whole command, every request included (``--timeout``)."""


def export_pod(namespace: str, claim: str, image: str, service_account: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "generateName": "gpu-cluster-results-export-",
            "namespace": namespace,
            "labels": {CLAIM_LABEL: claim, **APP_LABEL},
        },
        "spec": {
            "restartPolicy": "Never",
            "serviceAccountName": service_account,
            "automountServiceAccountToken": False,
            "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
            "affinity": pod_affinity(claim),
            "containers": [
                {
                    "name": "export",
                    "image": image,
                    "imagePullPolicy": "IfNotPresent",
                    "command": ["python", "-m", "experiments"],
                    "args": ["export-results", "--store", RESULTS_PATH],
                    "volumeMounts": [{"name": "state", "mountPath": STATE_MOUNT}],
                    "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
                }
            ],
            "volumes": [{"name": "state", "persistentVolumeClaim": {"claimName": claim}}],
        },
    }


def _pod_name(created: Any, where: str) -> str:
    name = as_dict(as_dict(created).get("metadata")).get("name")
    if not is_dns_subdomain(name):
        raise InputError(f"{where}: answered the export pod's creation with no pod name")
    return name


def _wait(kube: Kube, core: Any, namespace: str, name: str, timeout: float) -> str:
    """The pod's final phase (``Succeeded`` or ``Failed``), read until ``--timeout``."""
    phase = "Pending"
    while phase not in ("Succeeded", "Failed"):
        if kube.remaining() <= 0:
            raise InputError(
                f"pod {namespace}/{name} still {phase} after --timeout {timeout:g} s "
                "(is the claim bound and the image pullable?)"
            )
        time.sleep(max(0.0, min(2.0, timeout / 10, kube.remaining())))
        pod = kube.read_json(core.read_namespaced_pod, name, namespace, what=f"pod {namespace}/{name}")
        value = as_dict(as_dict(pod).get("status")).get("phase")
        phase = terminal_text(value[:40]) if isinstance(value, str) and value else "Pending"
    return phase


def _export_text(data: bytes, namespace: str, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            f"pod {namespace}/{name}: its log is not UTF-8 text (byte {error.start}): not an "
            "export; nothing was imported"
        ) from None


def export_from_cluster(request: ExportRequest, limit: int) -> str:
    """The export document's text, as the pod printed it (at most ``limit`` bytes). ``--timeout`` bounds
    the command, every request included; deleting the pod gets ``CLEANUP_SECONDS`` more, on a new
    connection, whatever happened before."""
    if not request.image:
        raise InputError("--from-cluster: --image is required (the project image the workflow ran)")
    namespace = check_dns_label(request.namespace, "--namespace")
    manifest = export_pod(
        namespace,
        check_dns_label(request.state_claim, "--state-claim"),
        check_image(request.image),
        check_dns_label(request.service_account, "--service-account"),
    )
    timeout = request.timeout
    created: list[tuple[Kube, str]] = []
    try:
        with deadline_alarm(timeout):
            return _export(request, manifest, namespace, limit, created)
    except DeadlineReached:
        raise InputError(f"--timeout {timeout:g} s reached: the cluster did not answer in time") from None
    finally:
        for kube, name in created:  # whatever happened, on a connection and a deadline of its own
            with deadline_alarm(CLEANUP_SECONDS):
                _delete(kube, namespace, name)


def _export(
    request: ExportRequest, manifest: dict[str, Any], namespace: str, limit: int, created: list[tuple[Kube, str]]
) -> str:
    timeout = request.timeout
    try:
        kube = connect(request.kubeconfig, request.context, timeout=timeout)
    except DeadlineReached:
        raise InputError(f"--timeout {timeout:g} s reached connecting to the cluster") from None
    core = client.CoreV1Api(kube.api)
    try:
        answer = kube.read_json(core.create_namespaced_pod, namespace, manifest, what="creating the export pod")
    except ApiException as error:
        raise InputError(kube.api_error(error, f"creating the export pod in {namespace}")) from None
    except DeadlineReached:
        raise InputError(
            f"--timeout {timeout:g} s reached creating the export pod in {namespace}: see "
            f"kubectl get pods -n {namespace} -l {CLAIM_LABEL}"
        ) from None
    name = _pod_name(answer, kube.server)
    created.append((kube, name))
    try:
        phase = _wait(kube, core, namespace, name, timeout)
        data = kube.read(
            core.read_namespaced_pod_log, name, namespace, limit=limit, what=f"the log of pod {namespace}/{name}"
        )
        if phase == "Failed":
            tail = " | ".join(data.decode("utf-8", "replace").strip().splitlines()[-3:]) or "no log"
            raise InputError(f"pod {namespace}/{name} failed: {kube.redact(tail[-2000:])}")
        return _export_text(data, namespace, name)
    except ApiException as error:
        raise InputError(kube.api_error(error, f"reading pod {namespace}/{name}")) from None
    except DeadlineReached:
        raise InputError(
            f"--timeout {timeout:g} s reached: the cluster did not answer in time (pod {namespace}/{name})"
        ) from None


def _delete(kube: Kube, namespace: str, name: str) -> None:
    """Delete the pod (its answer unread) through a new connection with its own ``CLEANUP_SECONDS``: the
    command's may be spent, or held by a server that trickled the log. Say so when the pod stays."""
    fresh = kube.fresh(CLEANUP_SECONDS)
    try:
        fresh.read(
            client.CoreV1Api(fresh.api).delete_namespaced_pod, name, namespace, what=f"deleting pod {namespace}/{name}"
        )
    except ApiException as error:
        if error.status != 404:  # already gone is fine
            print(
                f"warning: pod {namespace}/{name} stays ({error.status}): kubectl delete pod -n {namespace} {name}",
                file=sys.stderr,
            )
    except (KubeError, DeadlineReached):
        print(f"warning: pod {namespace}/{name} may stay: kubectl delete pod -n {namespace} {name}", file=sys.stderr)
    finally:
        fresh.close()
