"""``ClusterApi`` through the official ``kubernetes`` client, reaching the cluster the stack's
Kubernetes provider uses: the kubeconfig secret when the stack has one, else the ambient
kubeconfig, with ``kubernetes.context``.

Answers are read as raw JSON (``_preload_content=False``) and every field is checked before use:
what a cluster says is untrusted input.  Failures become one-line ``OperationFailed``s.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from components.ops.ports import AnnotationEdit, EvictionOutcome, HealthCheck, NodeState, OperationFailed, PodRef

__all__ = ["MACHINE_API", "KubeClusterClient"]

MACHINE_API = ("machine.openshift.io", "v1beta1", "openshift-machine-api")
MERGE_PATCH = "application/merge-patch+json"
TIMEOUT = 30


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in _dict(value).items()}


def _epoch(stamp: Any) -> float | None:
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class KubeClusterClient:
    def __init__(self, api_client: Any) -> None:
        from kubernetes import client

        self._core = client.CoreV1Api(api_client)
        self._custom = client.CustomObjectsApi(api_client)

    @classmethod
    def connect(cls, kubeconfig: str | None, context: str | None) -> KubeClusterClient:
        import yaml
        from kubernetes import config

        loader: Any = config  # untyped
        try:
            if kubeconfig:
                api = loader.new_client_from_config_dict(yaml.safe_load(kubeconfig), context=context)
            else:
                api = loader.new_client_from_config(context=context)
        except (config.ConfigException, OSError, TypeError, ValueError, yaml.YAMLError, AttributeError) as error:
            where = "the kubeconfig secret" if kubeconfig else "the ambient kubeconfig"
            raise OperationFailed(f"{where}: cannot load a cluster from it ({str(error).splitlines()[0]})") from None
        api.configuration.retries = 0  # a retry would multiply every timeout
        return cls(api)

    @contextmanager
    def _asking(self, what: str, missing_ok: bool = False) -> Iterator[None]:
        from kubernetes.client.exceptions import ApiException
        from urllib3.exceptions import HTTPError

        try:
            yield
        except ApiException as error:
            if missing_ok and error.status == 404:
                raise _Missing from None
            raise OperationFailed(f"{what}: HTTP {error.status} {error.reason}") from None
        except (OSError, ValueError, HTTPError) as error:  # unreachable, timed out, a garbled answer
            raise OperationFailed(f"{what}: {str(getattr(error, 'reason', error)).splitlines()[0]}") from None

    def _json(self, call: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        response = call(*args, _preload_content=False, _request_timeout=TIMEOUT, **kwargs)
        return _dict(json.loads(response.data or b"{}"))

    def node(self, name: str) -> NodeState | None:
        try:
            with self._asking(f"read node {name}", missing_ok=True):
                body = self._json(self._core.read_node, name)
        except _Missing:
            return None
        conditions = [c for c in _dict(body.get("status")).get("conditions") or [] if isinstance(c, dict)]
        ready = next((c for c in conditions if c.get("type") == "Ready"), {})
        return NodeState(ready=ready.get("status") == "True",
                         unschedulable=_dict(body.get("spec")).get("unschedulable") is True,
                         annotations=_strings(_dict(body.get("metadata")).get("annotations")),
                         ready_since=_epoch(ready.get("lastTransitionTime")))

    def set_unschedulable(self, name: str, value: bool) -> None:
        with self._asking(f"{'cordon' if value else 'uncordon'} node {name}"):
            self._json(self._core.patch_node, name, {"spec": {"unschedulable": value or None}},
                       _content_type=MERGE_PATCH)

    def annotate_node(self, name: str, changes: Mapping[str, str | None]) -> None:
        with self._asking(f"annotate node {name}"):
            self._json(self._core.patch_node, name, {"metadata": {"annotations": dict(changes)}},
                       _content_type=MERGE_PATCH)

    def pods_on(self, node: str) -> list[PodRef]:
        with self._asking(f"list the pods of node {node}"):
            body = self._json(self._core.list_pod_for_all_namespaces, field_selector=f"spec.nodeName={node}")
        pods = []
        for item in body.get("items") or []:
            meta = _dict(_dict(item).get("metadata"))
            owner = next((o for o in meta.get("ownerReferences") or [] if _dict(o).get("controller")), None)
            pods.append(PodRef(
                namespace=str(meta.get("namespace")), name=str(meta.get("name")),
                owner_kind=str(owner["kind"]) if owner and "kind" in owner else None,
                mirror="kubernetes.io/config.mirror" in _dict(meta.get("annotations")),
                finished=_dict(_dict(item).get("status")).get("phase") in ("Succeeded", "Failed")))
        return pods

    def evict(self, pod: PodRef) -> EvictionOutcome:
        from kubernetes.client.exceptions import ApiException

        body = {"apiVersion": "policy/v1", "kind": "Eviction",
                "metadata": {"name": pod.name, "namespace": pod.namespace}}
        try:
            self._json(self._core.create_namespaced_pod_eviction, pod.name, pod.namespace, body)
        except ApiException as error:
            if error.status == 429:
                return "blocked"
            if error.status == 404:
                return "gone"
            raise OperationFailed(f"evict {pod}: HTTP {error.status} {error.reason}") from None
        return "evicted"

    def machine_labels(self, name: str) -> Mapping[str, str] | None:
        group, version, namespace = MACHINE_API
        try:
            with self._asking(f"read machine {name}", missing_ok=True):
                body = self._json(self._custom.get_namespaced_custom_object, group, version, namespace,
                                  "machines", name)
        except _Missing:
            return None
        return _strings(_dict(body.get("metadata")).get("labels"))

    def health_checks(self) -> list[HealthCheck]:
        group, version, namespace = MACHINE_API
        try:
            with self._asking("list the MachineHealthChecks", missing_ok=True):
                body = self._json(self._custom.list_namespaced_custom_object, group, version, namespace,
                                  "machinehealthchecks")
        except _Missing:
            return []  # no machine API (not OpenShift): nothing remediates
        checks = []
        for item in body.get("items") or []:
            meta, selector = _dict(_dict(item).get("metadata")), _dict(_dict(_dict(item).get("spec")).get("selector"))
            checks.append(HealthCheck(
                name=str(meta.get("name")), match_labels=_strings(selector.get("matchLabels")),
                match_expressions=[_dict(e) for e in selector.get("matchExpressions") or []],
                annotations=_strings(meta.get("annotations"))))
        return checks

    def edit_health_check(self, name: str, edit: AnnotationEdit) -> None:
        from kubernetes.client.exceptions import ApiException

        group, version, namespace = MACHINE_API
        for _ in range(5):
            with self._asking(f"read MachineHealthCheck {name}"):
                body = self._json(self._custom.get_namespaced_custom_object, group, version, namespace,
                                  "machinehealthchecks", name)
            meta = _dict(body.get("metadata"))
            changes = dict(edit(_strings(meta.get("annotations"))))
            if not changes:
                return
            patch = {"metadata": {"resourceVersion": meta.get("resourceVersion"), "annotations": changes}}
            try:
                self._json(self._custom.patch_namespaced_custom_object, group, version, namespace,
                           "machinehealthchecks", name, patch, _content_type=MERGE_PATCH)
                return
            except ApiException as error:
                if error.status != 409:
                    raise OperationFailed(f"annotate MachineHealthCheck {name}: HTTP {error.status} "
                                          f"{error.reason}") from None
        raise OperationFailed(f"annotate MachineHealthCheck {name}: it kept changing under us (5 conflicts)")


class _Missing(Exception):
    """A 404 where absence is an answer."""
