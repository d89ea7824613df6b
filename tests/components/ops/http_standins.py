"""The ``World`` stand-ins behind HTTP, as the IBM VPC API (with IAM) and the Kubernetes API answer
the calls of ``IbmInstanceClient`` and ``KubeClusterClient``: the real clients then drive the same
rolling sequence over the wire.  Requests are checked as the servers would (bearer token, API
version query, merge-patch content type, resourceVersion preconditions)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlparse

from components.ops.ports import OperationFailed, PodRef
from tests.http_standin import JsonHandler, ServedStandIn

from .standins import World

API_KEY = "test-api-key-0123"
TOKEN = "iam-access-token-xyz"
MACHINE_API = "/apis/machine.openshift.io/v1beta1/namespaces/openshift-machine-api/"


class _Handler(JsonHandler):
    world: World
    server_state: dict[str, Any]

    def _body(self) -> Any:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
            return {k: v[0] for k, v in parse_qs(raw.decode()).items()}
        return json.loads(raw or b"null")

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        body = self._body() if method in ("POST", "PATCH") else None
        self.server_state["requests"].append((method, url.path, self.headers.get("Content-Type"), body))
        try:
            if url.path == "/identity/token":
                return self._iam(body)
            if url.path.startswith("/v1/instances/"):
                return self._ibm(method, url.path.split("/")[3:], parse_qs(url.query), body)
            return self._kube(method, url.path, parse_qs(url.query), body)
        except OperationFailed as error:
            return self._send(409, {"errors": [{"code": "conflict", "message": str(error)}]})

    def _iam(self, form: dict[str, str]) -> None:
        if form.get("grant_type") != "urn:ibm:params:oauth:grant-type:apikey" or form.get("apikey") != API_KEY:
            return self._send(400, {"errorCode": "BXNIM0415E", "errorMessage": "Provided API key could not be found."})
        self._send(200, {"access_token": TOKEN, "expires_in": 3600, "token_type": "Bearer"})

    def _ibm(self, method: str, parts: list[str], query: dict[str, list[str]], body: Any) -> None:
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            return self._send(401, {"errors": [{"message": "not authorized"}]})
        if not query.get("version") or query.get("generation") != ["2"]:
            return self._send(400, {"errors": [{"message": "version and generation=2 are required"}]})
        instance_id = parts[0]
        if len(parts) == 2 and parts[1] == "actions" and method == "POST":
            if instance_id not in self.world.instances:
                return self._send(404, {"errors": [{"message": "instance not found"}]})
            self.world.ibm.act(instance_id, body["type"])
            return self._send(201, {"type": body["type"], "status": "pending"})
        state = self.world.ibm.get(instance_id)
        if state is None:
            return self._send(404, {"errors": [{"message": "instance not found"}]})
        attachments = [{"name": n, "id": f"a-{n}"} for n in state.cluster_attachments]
        self._send(200, {"id": instance_id, "status": state.status, "cluster_network_attachments": attachments})

    def _kube(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> None:
        kube, parts = self.world.kube, path.strip("/").split("/")
        if method == "PATCH" and self.headers.get("Content-Type") != "application/merge-patch+json":
            return self._send(415, {"kind": "Status", "code": 415})
        if parts[:3] == ["api", "v1", "nodes"] and len(parts) == 4:
            return self._node(method, parts[3], body)
        if path == "/api/v1/pods":
            node = query["fieldSelector"][0].removeprefix("spec.nodeName=")
            return self._send(200, {"items": [_pod_json(p) for p in kube.pods_on(node)]})
        if parts[:3] == ["api", "v1", "namespaces"] and parts[-1] == "eviction" and method == "POST":
            uid = ((body or {}).get("deleteOptions") or {}).get("preconditions", {}).get("uid", "")
            outcome = kube.evict(PodRef(parts[3], parts[5], uid=uid))
            if outcome == "terminating":
                return self._send(
                    403,
                    {
                        "kind": "Status",
                        "code": 403,
                        "reason": "Forbidden",
                        "details": {
                            "causes": [{"type": "NamespaceTerminating", "message": "namespace is being terminated"}]
                        },
                    },
                )
            return self._send({"evicted": 201, "blocked": 429, "gone": 404}[outcome], {"kind": "Status"})
        if path == MACHINE_API + "machines":
            return self._send(
                200,
                {
                    "items": [
                        {
                            "metadata": {"name": name, "labels": labels},
                            "status": {"nodeRef": {"kind": "Node", "name": node}},
                        }
                        for name, (node, labels) in self.world.machines.items()
                    ]
                },
            )
        if path.startswith(MACHINE_API + "machinehealthchecks"):
            return self._health_checks(method, parts, body)
        self._send(404, {"kind": "Status", "code": 404})

    def _node(self, method: str, name: str, body: Any) -> None:
        kube = self.world.kube
        if method == "PATCH":
            if "spec" in body:
                kube.set_unschedulable(name, body["spec"]["unschedulable"] is True)
            if "metadata" in body:
                kube.annotate_node(name, body["metadata"]["annotations"])
        node = kube.node(name)
        if node is None:
            return self._send(404, {"kind": "Status", "code": 404})
        self._send(
            200,
            {
                "metadata": {"name": name, "annotations": dict(node.annotations)},
                "spec": {"unschedulable": True} if node.unschedulable else {},
                "status": {
                    "conditions": [
                        {
                            "type": "Ready",
                            "status": "True" if node.ready else "False",
                            "lastTransitionTime": "2026-11-25T12:00:00Z",
                        }
                    ]
                },
            },
        )

    def _health_checks(self, method: str, parts: list[str], body: Any) -> None:
        checks, state = self.world.mhcs, self.server_state
        if len(parts) == 6:
            return self._send(200, {"items": [_mhc_json(c, state["versions"].get(c.name, 1)) for c in checks.values()]})
        name = parts[6]
        version = state["versions"].setdefault(name, 1)
        if method == "PATCH":
            if state["conflicts"] > 0:  # somebody else wrote in between
                state["conflicts"] -= 1
                state["versions"][name] = version + 1
                return self._send(409, {"kind": "Status", "code": 409, "reason": "Conflict"})
            if body["metadata"].get("resourceVersion") != str(version):
                return self._send(409, {"kind": "Status", "code": 409, "reason": "Conflict"})
            self.world.kube.edit_health_check(name, lambda _: body["metadata"]["annotations"])
            state["versions"][name] = version + 1
        self._send(200, _mhc_json(checks[name], state["versions"][name]))

    def do_GET(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def do_PATCH(self) -> None:  # noqa: N802
        self._route("PATCH")


def _pod_json(pod: PodRef) -> dict[str, Any]:
    group = f"{pod.owner_group}/v1" if pod.owner_group else "v1"
    owners = [{"apiVersion": group, "kind": pod.owner_kind, "name": "x", "controller": True}] if pod.owner_kind else []
    annotations = {"kubernetes.io/config.mirror": "abc"} if pod.mirror else {}
    volumes = [{"name": "scratch", "emptyDir": {}}] if pod.emptydir else []
    return {
        "metadata": {
            "namespace": pod.namespace,
            "name": pod.name,
            "uid": pod.uid,
            "ownerReferences": owners,
            "annotations": annotations,
        },
        "spec": {"volumes": volumes},
        "status": {"phase": "Succeeded" if pod.finished else "Running"},
    }


def _mhc_json(check: Any, version: int) -> dict[str, Any]:
    return {
        "metadata": {"name": check.name, "annotations": dict(check.annotations), "resourceVersion": str(version)},
        "spec": {
            "selector": {"matchLabels": dict(check.match_labels), "matchExpressions": list(check.match_expressions)}
        },
    }


class HttpStandIn(ServedStandIn):
    """Serves ``world`` on 127.0.0.1: ``url`` is the IBM endpoint, the IAM host and the API server."""

    def __init__(self, world: World) -> None:
        self.state: dict[str, Any] = {"requests": [], "versions": {}, "conflicts": 0}
        super().__init__(type("Handler", (_Handler,), {"world": world, "server_state": self.state}))

    def kubeconfig(self) -> str:
        return json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "standin",
                "clusters": [{"name": "standin", "cluster": {"server": self.url}}],
                "users": [{"name": "u", "user": {"token": "kube-token"}}],
                "contexts": [{"name": "standin", "context": {"cluster": "standin", "user": "u"}}],
            }
        )
