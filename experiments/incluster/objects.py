"""The plain Kubernetes objects every in-cluster run needs, and the pod pieces that use them.

* The state PVC holds the Pulumi file backend (``/state/pulumi``), the results store and the run
  logs. The pods run as a non-root uid; the volume is made writable for it by ``fsGroup`` (the
  kubelet gives the volume's files that group, group-writable, on mount; ``OnRootMismatch`` skips
  the walk when the root already has it). With ``--uid auto`` the platform picks uid and fsGroup
  (OpenShift's restricted SCC does both from the namespace's range).
* The claim is ReadWriteOnce: SQLite's WAL needs a local file system, never NFS. Pods that mount
  it are drawn to the node of any running peer (pod affinity), so parallel cells share the node
  the volume is attached to.
* The kubeconfig ConfigMap holds no credential: it names the API server the pod runs beside and
  the pod's own projected token file, under every context name the stacks use, so ``run`` and the
  stack's Kubernetes provider reach the cluster they run in without editing a stack.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import yaml

from components.models.config import CLUSTER_KEY, PROJECT
from experiments.incluster.settings import KUBECONFIG_PATH, PROGRAM_DIR, RESULTS_PATH, STATE_MOUNT, InClusterSettings

__all__ = [
    "APP_LABEL",
    "CLAIM_LABEL",
    "IN_CLUSTER_CONTEXT",
    "container_env",
    "kubeconfig_config_map",
    "pod_affinity",
    "security_context",
    "service_account",
    "stack_file_text",
    "stacks_config_map",
    "state_claim",
    "volume_mounts",
    "volumes",
]

APP_LABEL = {"app.kubernetes.io/part-of": PROJECT}
CLAIM_LABEL = "gpu-cluster.io/state-claim"
IN_CLUSTER_CONTEXT = "in-cluster"
_TOKEN_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"


def _metadata(name: str, settings: InClusterSettings, **extra: Any) -> dict[str, Any]:
    return {"name": name, "namespace": settings.namespace, "labels": dict(APP_LABEL), **extra}


def state_claim(settings: InClusterSettings) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "accessModes": ["ReadWriteOnce"],
        "resources": {"requests": {"storage": settings.state_size}},
    }
    if settings.storage_class:
        spec["storageClassName"] = settings.storage_class
    return {
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": _metadata(settings.state_claim, settings),
        "spec": spec,
    }


def service_account(settings: InClusterSettings) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": _metadata(settings.service_account, settings)}


def _kubeconfig(contexts: Iterable[str], namespace: str) -> str:
    names = sorted({IN_CLUSTER_CONTEXT, *contexts})
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": IN_CLUSTER_CONTEXT,
        "clusters": [
            {
                "name": "in-cluster",
                "cluster": {
                    "server": "https://kubernetes.default.svc",
                    "certificate-authority": f"{_TOKEN_DIR}/ca.crt",
                },
            }
        ],
        "users": [{"name": "pod-service-account", "user": {"tokenFile": f"{_TOKEN_DIR}/token"}}],
        "contexts": [
            {"name": n, "context": {"cluster": "in-cluster", "user": "pod-service-account", "namespace": namespace}}
            for n in names
        ],
    }
    return yaml.safe_dump(document, sort_keys=False)


def _hashed_name(prefix: str, data: Mapping[str, str]) -> str:
    digest = hashlib.sha256(json.dumps(dict(data), sort_keys=True).encode()).hexdigest()[:10]
    return f"{prefix}-{digest}"


def kubeconfig_config_map(settings: InClusterSettings, contexts: Iterable[str]) -> dict[str, Any]:
    data = {"config": _kubeconfig(contexts, settings.namespace)}
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "immutable": True,
        "metadata": _metadata(_hashed_name("gpu-cluster-kubeconfig", data), settings),
        "data": data,
    }


def stack_file_text(cluster: Mapping[str, Any]) -> str:
    """A cell's stack file: the cluster mapping and nothing secret (the API key comes from the env)."""
    return yaml.safe_dump({"config": {f"{PROJECT}:{CLUSTER_KEY}": dict(cluster)}}, sort_keys=True)


def stacks_config_map(settings: InClusterSettings, files: Mapping[str, str]) -> dict[str, Any]:
    """The cells' stack files, named after their content (immutable: a workflow reads exactly what it
    was rendered with, whatever is applied later)."""
    data = dict(sorted(files.items()))
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "immutable": True,
        "metadata": _metadata(_hashed_name("gpu-cluster-stacks", data), settings),
        "data": data,
    }


def security_context(settings: InClusterSettings) -> dict[str, Any]:
    context: dict[str, Any] = {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}}
    if settings.uid is not None:
        context.update(
            runAsUser=settings.uid, runAsGroup=settings.uid, fsGroup=settings.uid, fsGroupChangePolicy="OnRootMismatch"
        )
    return context


def pod_affinity(claim: str) -> dict[str, Any]:
    term = {"labelSelector": {"matchLabels": {CLAIM_LABEL: claim}}, "topologyKey": "kubernetes.io/hostname"}
    return {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [term]}}


def volumes(settings: InClusterSettings, kubeconfig: str, stacks: str | None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = [
        {"name": "state", "persistentVolumeClaim": {"claimName": settings.state_claim}},
        {"name": "kubeconfig", "configMap": {"name": kubeconfig}},
    ]
    if stacks is not None:
        found.append({"name": "stacks", "configMap": {"name": stacks}})
    return found


def volume_mounts(stack_files: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The state, the kubeconfig and each of ``stack_files`` (keys of the stacks ConfigMap) as a file
    of its own beside the program's ``Pulumi.yaml`` (a ``subPath`` mount: the image's other files stay)."""
    mounts: list[dict[str, Any]] = [
        {"name": "state", "mountPath": STATE_MOUNT},
        {"name": "kubeconfig", "mountPath": KUBECONFIG_PATH.rsplit("/", 1)[0], "readOnly": True},
    ]
    mounts += [
        {"name": "stacks", "mountPath": f"{PROGRAM_DIR}/{name}", "subPath": name, "readOnly": True}
        for name in stack_files
    ]
    return mounts


def container_env(settings: InClusterSettings) -> list[dict[str, Any]]:
    """Secrets by reference only; the rest tells the tools where the state and the cluster are."""
    return [
        settings.api_key.env("IC_API_KEY"),
        settings.passphrase.env("PULUMI_CONFIG_PASSPHRASE"),
        {"name": "KUBECONFIG", "value": KUBECONFIG_PATH},
        {"name": "GPU_CLUSTER_RESULTS", "value": RESULTS_PATH},
        {"name": "PULUMI_SKIP_UPDATE_CHECK", "value": "true"},
        {"name": "HOME", "value": "/var/lib/gpu-cluster"},  # the image's home: the plugins are there
    ]
