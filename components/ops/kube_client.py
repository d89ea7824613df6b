"""``ClusterApi`` through the official ``kubernetes`` client, reaching the cluster the stack's
Kubernetes provider uses: the kubeconfig secret when the stack has one, else the ambient
kubeconfig, with ``kubernetes.context``.

Answers are read as raw JSON (``_preload_content=False``) and every field is checked before use:
what a cluster says is untrusted input, and an answer that is not a JSON object is refused.  Every
call is retried and bounded as ``components.ops.calls`` says, nothing under it retries, waits or
redirects on its own, and no answer is read past its size limit (``components.ops.transport``).
Failures become one-line ``OperationFailed``s without the kubeconfig's token.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from components.ops.calls import CallPolicy, Transient, Watchdog, call_with_retries, retry_after_s
from components.ops.ports import AnnotationEdit, EvictionOutcome, HealthCheck, NodeState, OperationFailed, PodRef
from components.ops.transport import AnswerTooLarge, bound_pools, credentials, header_safe, scrub, tokens

__all__ = ["MACHINE_API", "KubeClusterClient"]

MACHINE_API = ("machine.openshift.io", "v1beta1", "openshift-machine-api")
MERGE_PATCH = "application/merge-patch+json"
MISSING, CONFLICT = "missing", "conflict"


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
    def __init__(self, api_client: Any, policy: CallPolicy | None = None) -> None:
        from kubernetes import client

        self._core = client.CoreV1Api(api_client)
        self._custom = client.CustomObjectsApi(api_client)
        self._policy = policy or CallPolicy()
        self._watchdog = Watchdog()
        self._secrets = credentials(api_client.configuration)
        bound_pools(api_client.rest_client.pool_manager, self._watchdog, self._policy.answer_limit_bytes)

    @classmethod
    def connect(
        cls, kubeconfig: str | None, context: str | None, policy: CallPolicy | None = None
    ) -> KubeClusterClient:
        import yaml
        from kubernetes import config

        loader: Any = config  # untyped
        where = "the kubeconfig secret" if kubeconfig else "the ambient kubeconfig"
        try:
            if kubeconfig:
                api = loader.new_client_from_config_dict(yaml.safe_load(kubeconfig), context=context)
            else:
                api = loader.new_client_from_config(context=context)
        except (config.ConfigException, OSError, TypeError, ValueError, yaml.YAMLError, AttributeError) as error:
            raise OperationFailed(f"{where}: cannot load a cluster from it ({str(error).splitlines()[0]})") from None
        if not all(header_safe(token) for token in tokens(api.configuration)):
            raise OperationFailed(f"{where}: its user's token holds characters an HTTP header cannot carry")
        return cls(api, policy)

    def _call(self, what: str, call: Any, *args: Any, answers: Mapping[int, Any] = {}, **kwargs: Any) -> Any:
        """``call``'s answer as a JSON object, or the name ``answers`` gives its status (404: "missing"...), or
        gives it from the error's body (a function returning None where that status is a failure after all)."""
        try:
            return call_with_retries(
                lambda left: self._attempt(what, call, args, kwargs, answers, left), what, self._policy
            )
        except OperationFailed as failure:  # a server may echo the token in a reason phrase
            raise OperationFailed(scrub(str(failure), self._secrets)) from None

    def _attempt(self, what: str, call: Any, args: Any, kwargs: Any, answers: Mapping[int, Any], seconds: float) -> Any:
        from kubernetes.client.exceptions import ApiException
        from urllib3.exceptions import HTTPError, MaxRetryError

        try:
            with self._watchdog.bounding(seconds):
                try:
                    response = call(*args, _preload_content=False, _request_timeout=seconds, **kwargs)
                    raw = response.data
                except ApiException as error:
                    answer = answers.get(error.status)
                    if callable(answer):
                        answer = answer(error.body)
                    if answer is not None:
                        return answer
                    reason = f"HTTP {error.status} {_line(error.reason)}".rstrip()
                    if error.status == 429 or (error.status or 0) >= 500:
                        headers = error.headers or {}
                        raise Transient(reason, retry_after_s(headers.get("Retry-After"))) from None
                    raise OperationFailed(f"{what}: {reason}") from None
                except (HTTPError, OSError, http.client.HTTPException) as error:  # reset, refused, timed out, cut short
                    cause = error.reason if isinstance(error, MaxRetryError) else error
                    raise Transient(f"{type(cause).__name__}: {_line(cause)}") from None
                except ValueError:  # a header http.client refuses (a token refreshed since): its message quotes it
                    raise OperationFailed(f"{what}: the request has a header HTTP cannot carry") from None
        except AnswerTooLarge as error:
            raise OperationFailed(f"{what}: {error}") from None
        try:
            body = json.loads(raw) if raw and raw.strip() else {}
        except (ValueError, RecursionError):
            raise OperationFailed(f"{what}: the answer is not JSON ({len(raw)} bytes)") from None
        if not isinstance(body, dict):
            raise OperationFailed(f"{what}: the answer is a JSON {type(body).__name__}, not an object")
        return body

    def node(self, name: str) -> NodeState | None:
        body = self._call(f"read node {name}", self._core.read_node, name, answers={404: MISSING})
        if body == MISSING:
            return None
        conditions = [c for c in _list(_dict(body.get("status")).get("conditions")) if isinstance(c, dict)]
        ready = next((c for c in conditions if c.get("type") == "Ready"), {})
        return NodeState(
            ready=ready.get("status") == "True",
            unschedulable=_dict(body.get("spec")).get("unschedulable") is True,
            annotations=_strings(_dict(body.get("metadata")).get("annotations")),
            ready_since=_epoch(ready.get("lastTransitionTime")),
        )

    def set_unschedulable(self, name: str, value: bool) -> None:
        self._call(
            f"{'cordon' if value else 'uncordon'} node {name}",
            self._core.patch_node,
            name,
            {"spec": {"unschedulable": value or None}},
            _content_type=MERGE_PATCH,
        )

    def annotate_node(self, name: str, changes: Mapping[str, str | None]) -> None:
        self._call(
            f"annotate node {name}",
            self._core.patch_node,
            name,
            {"metadata": {"annotations": dict(changes)}},
            _content_type=MERGE_PATCH,
        )

    def pods_on(self, node: str) -> list[PodRef]:
        body = self._call(
            f"list the pods of node {node}",
            self._core.list_pod_for_all_namespaces,
            field_selector=f"spec.nodeName={node}",
        )
        pods = []
        for item in _list(body.get("items")):
            meta = _dict(_dict(item).get("metadata"))
            owner = _dict(
                next((o for o in _list(meta.get("ownerReferences")) if _dict(o).get("controller") is True), None)
            )
            volumes = _list(_dict(_dict(item).get("spec")).get("volumes"))
            pods.append(
                PodRef(
                    namespace=str(meta.get("namespace")),
                    name=str(meta.get("name")),
                    owner_kind=str(owner["kind"]) if "kind" in owner else None,
                    owner_group=str(owner.get("apiVersion", "")).rpartition("/")[0] if "kind" in owner else None,
                    mirror="kubernetes.io/config.mirror" in _dict(meta.get("annotations")),
                    finished=_dict(_dict(item).get("status")).get("phase") in ("Succeeded", "Failed"),
                    emptydir=any("emptyDir" in _dict(v) for v in volumes),
                    uid=str(meta.get("uid") or ""),
                )
            )
        return pods

    def evict(self, pod: PodRef) -> EvictionOutcome:
        body: dict[str, Any] = {
            "apiVersion": "policy/v1",
            "kind": "Eviction",
            "metadata": {"name": pod.name, "namespace": pod.namespace},
        }
        if pod.uid:  # the pod that was vetted, not a namesake created since (409 then: that one is gone)
            body["deleteOptions"] = {"preconditions": {"uid": pod.uid}}
        # 429 is an answer here: a PodDisruptionBudget allows no eviction now (the drain tries again).
        outcome = self._call(
            f"evict {pod}",
            self._core.create_namespaced_pod_eviction,
            pod.name,
            pod.namespace,
            body,
            answers={429: "blocked", 404: "gone", 409: "gone", 403: _namespace_terminating},
        )
        return outcome if outcome in ("blocked", "gone", "terminating") else "evicted"

    def machine_labels_of_node(self, node: str) -> Mapping[str, str] | None:
        """Labels of the Machine whose ``status.nodeRef`` names ``node``, as the MHC controller maps them
        (machine-api-operator ``pkg/controller/machinehealthcheck``): a Machine need not be named like
        its Node.  None when no Machine backs the node (or the cluster has no machine API)."""
        group, version, namespace = MACHINE_API
        body = self._call(
            "list the Machines",
            self._custom.list_namespaced_custom_object,
            group,
            version,
            namespace,
            "machines",
            answers={404: MISSING},
        )
        if body == MISSING:
            return None
        for item in _list(body.get("items")):
            ref = _dict(_dict(_dict(item).get("status")).get("nodeRef"))
            if ref.get("name") == node and ref.get("kind", "Node") == "Node":
                return _strings(_dict(_dict(item).get("metadata")).get("labels"))
        return None

    def health_checks(self) -> list[HealthCheck]:
        group, version, namespace = MACHINE_API
        body = self._call(
            "list the MachineHealthChecks",
            self._custom.list_namespaced_custom_object,
            group,
            version,
            namespace,
            "machinehealthchecks",
            answers={404: MISSING},
        )
        if body == MISSING:
            return []  # no machine API (not OpenShift): nothing remediates
        checks = []
        for item in _list(body.get("items")):
            meta, selector = _dict(_dict(item).get("metadata")), _dict(_dict(_dict(item).get("spec")).get("selector"))
            checks.append(
                HealthCheck(
                    name=str(meta.get("name")),
                    match_labels=_strings(selector.get("matchLabels")),
                    match_expressions=[_dict(e) for e in _list(selector.get("matchExpressions"))],
                    annotations=_strings(meta.get("annotations")),
                )
            )
        return checks

    def edit_health_check(self, name: str, edit: AnnotationEdit) -> None:
        group, version, namespace = MACHINE_API
        for _ in range(5):
            body = self._call(
                f"read MachineHealthCheck {name}",
                self._custom.get_namespaced_custom_object,
                group,
                version,
                namespace,
                "machinehealthchecks",
                name,
            )
            meta = _dict(body.get("metadata"))
            changes = dict(edit(_strings(meta.get("annotations"))))
            if not changes:
                return
            patch = {"metadata": {"resourceVersion": meta.get("resourceVersion"), "annotations": changes}}
            written = self._call(
                f"annotate MachineHealthCheck {name}",
                self._custom.patch_namespaced_custom_object,
                group,
                version,
                namespace,
                "machinehealthchecks",
                name,
                patch,
                _content_type=MERGE_PATCH,
                answers={409: CONFLICT},
            )
            if written != CONFLICT:
                return
        raise OperationFailed(f"annotate MachineHealthCheck {name}: it kept changing under us (5 conflicts)")


def _line(value: object) -> str:
    return next(iter(str(value).splitlines()), "")[:300]


def _namespace_terminating(body: Any) -> str | None:
    """A 403 whose Status names the cause ``NamespaceTerminating`` (``corev1.NamespaceTerminatingCause``)."""
    try:
        status = json.loads(body or "{}")
    except (ValueError, RecursionError, TypeError):
        return None
    causes = _list(_dict(_dict(status).get("details")).get("causes"))
    return "terminating" if any(_dict(c).get("type") == "NamespaceTerminating" for c in causes) else None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
