"""A Kubernetes API stand-in: a local HTTP server answering the requests the official client makes
for a PyTorchJob's life cycle (create, poll, list pods, read logs, delete), with scripted outcomes,
and for certificate requests and Nodes (list, approve), where ``on_approve`` plays the kubelet."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from tests.http_standin import KUBE_VERSION, JsonHandler, ServedStandIn

JOBS = "/apis/kubeflow.org/v1/namespaces/{ns}/pytorchjobs"
CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests"


@dataclass
class Cluster:
    scenario: str = "success"
    """success | pod-fails | never-finishes | no-crd"""
    master_log: str = ""
    worker_log: str = ""
    existing: set[str] = field(default_factory=set)
    """Jobs that already exist before the run (a previous run)."""
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    polls: dict[str, int] = field(default_factory=dict)
    requests: list[tuple[str, str, Any]] = field(default_factory=list)
    csrs: dict[str, dict[str, Any]] = field(default_factory=dict)
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    on_approve: Callable[[Cluster, dict[str, Any]], None] | None = None
    """What the approval of a request sets off (a kubelet registering, asking for more)."""
    forbidden: bool = False
    """Answer every certificate request call with 403, as for an identity without approval rights."""
    stall: tuple[str, ...] = ()
    """Paths (prefixes) the server stops answering: it holds the connection open, silent."""
    trickle: tuple[str, ...] = ()
    """Paths answered one byte every half second: each read succeeds, the answer never ends."""
    stall_after: int = 0
    """With ``stall``: answer this many requests to those paths first (an API that stops mid-run)."""
    pod_names: list[str] | None = None
    """The names the cluster gives the job's pods (default ``<job>-master-0``, ``<job>-worker-0``)."""
    foreign_pods: list[str] = field(default_factory=list)
    """Pods of another job the list answers with too (a server that ignores the label selector)."""
    log_bytes: dict[str, bytes] = field(default_factory=dict)
    """A pod's raw log bytes, by pod name (else the master or worker log as UTF-8)."""

    def job_status(self, name: str) -> tuple[str, str]:
        """(job condition, pod phase) after this many polls."""
        polls = self.polls[name]
        if self.scenario == "success":
            return (
                ("Created", "Pending")
                if polls < 2
                else ("Running", "Running")
                if polls < 4
                else ("Succeeded", "Succeeded")
            )
        if self.scenario == "pod-fails":
            return ("Running", "Running") if polls < 3 else ("Running", "Failed")
        return "Running", "Running"


class _Handler(JsonHandler):
    cluster: Cluster

    def _not_found(self) -> None:
        self._status(404, "NotFound")

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"null")

    def _items(self, kind: str, objects: dict[str, dict[str, Any]]) -> None:
        self._send(200, {"kind": kind, "apiVersion": "v1", "metadata": {}, "items": list(objects.values())})

    def _certificates(self, method: str, parts: list[str], body: Any) -> None:
        c = self.cluster
        if c.forbidden:
            return self._send(
                403, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Forbidden", "code": 403}
            )
        if method == "GET" and len(parts) == 4:
            return self._items("CertificateSigningRequestList", c.csrs)
        if method == "PUT" and len(parts) == 6 and parts[5] == "approval" and parts[4] in c.csrs:
            c.csrs[parts[4]] = body
            if c.on_approve is not None:
                c.on_approve(c, body)
            return self._send(200, body)
        return self._not_found()

    def _hold(self, path: str) -> bool:
        """Stall or trickle when the scenario says so; True when the request was answered here."""
        c = self.cluster
        if any(path.startswith(p) for p in c.stall):
            c.stall_after -= 1
            if c.stall_after < 0:
                time.sleep(120)  # longer than any test's hang bound (tests/timing.py): only a deadline ends the wait
                return True
        if any(path.startswith(p) for p in c.trickle):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            for _ in range(120):
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    break
                time.sleep(0.5)
            return True
        return False

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        parts = url.path.strip("/").split("/")
        body = self._body() if method in ("POST", "DELETE", "PUT", "PATCH") else None
        self.cluster.requests.append((method, url.path, body))
        c = self.cluster
        if self._hold(url.path):
            return
        if url.path.startswith(CSRS):
            return self._certificates(method, parts, body)
        if url.path.rstrip("/") == "/api/v1/nodes":
            return self._items("NodeList", c.nodes)
        if url.path.rstrip("/") == "/version":
            return self._send(200, KUBE_VERSION)
        if parts[:3] == ["apis", "kubeflow.org", "v1"] and len(parts) >= 6 and parts[5] == "pytorchjobs":
            if c.scenario == "no-crd":
                return self._not_found()
            name = parts[6] if len(parts) > 6 else None
            if method in ("POST", "PATCH"):  # a create, or a server-side apply that creates
                c.jobs[body["metadata"]["name"]] = body
                c.polls[body["metadata"]["name"]] = 0
                return self._send(201, body)
            if method == "DELETE":
                if name in c.existing:
                    c.existing.discard(name)
                    return self._send(200, {"kind": "Status", "status": "Success"})
                return self._not_found()
            if name in c.existing:
                return self._send(200, {"metadata": {"name": name}, "status": {}})
            if name not in c.jobs:
                return self._not_found()
            c.polls[name] += 1
            condition, _ = c.job_status(name)
            return self._send(200, {**c.jobs[name], "status": {"conditions": [{"type": condition, "status": "True"}]}})
        if parts[:4] == ["api", "v1", "namespaces", parts[3] if len(parts) > 3 else ""] and "pods" in parts:
            if parts[-1] == "log":
                tail = parse_qs(url.query).get("tailLines")
                pod = unquote(parts[-2])
                raw = c.log_bytes.get(pod)
                if raw is None:
                    raw = (c.master_log if "master" in pod else c.worker_log).encode()
                lines = raw.splitlines(keepends=True)
                return self._send_bytes(b"".join(lines[-int(tail[0]) :] if tail else lines))
            selector = parse_qs(url.query).get("labelSelector", [""])[0]
            name = selector.split("=", 1)[1] if "=" in selector else ""
            if name not in c.jobs:
                return self._send(200, {"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": []})
            _, phase = c.job_status(name) if c.polls[name] else ("Created", "Pending")
            names = c.pod_names or [f"{name}-master-0", f"{name}-worker-0"]
            labels = {"training.kubeflow.org/job-name": name}
            pods = [
                {
                    "metadata": {"name": pod, "labels": labels},
                    "status": {"phase": phase if i == 0 else "Running" if phase == "Failed" else phase},
                }
                for i, pod in enumerate(names)
            ]
            pods += [
                {"metadata": {"name": pod, "labels": {"app": "other"}}, "status": {"phase": "Running"}}
                for pod in c.foreign_pods
            ]
            return self._send(200, {"kind": "PodList", "apiVersion": "v1", "metadata": {}, "items": pods})
        return self._not_found()

    def do_GET(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def do_DELETE(self) -> None:  # noqa: N802
        self._route("DELETE")

    def do_PATCH(self) -> None:  # noqa: N802
        self._route("PATCH")

    def do_PUT(self) -> None:  # noqa: N802
        self._route("PUT")


class StandIn(ServedStandIn):
    def __init__(self, cluster: Cluster) -> None:
        super().__init__(type("Handler", (_Handler,), {"cluster": cluster}))
        self.cluster = cluster

    def kubeconfig(self, directory: Path, *, token: str = "not-a-secret", userinfo: str = "") -> Path:
        """A kubeconfig for the stand-in (``userinfo``: ``user:password@`` put into the server URL)."""
        path = directory / "kubeconfig"
        server = self.url.replace("http://", f"http://{userinfo}")
        path.write_text(
            json.dumps(
                {
                    "apiVersion": "v1",
                    "kind": "Config",
                    "current-context": "standin",
                    "clusters": [{"name": "standin", "cluster": {"server": server}}],
                    "users": [{"name": "u", "user": {"token": token}}],
                    "contexts": [{"name": "standin", "context": {"cluster": "standin", "user": "u"}}],
                }
            )
        )
        return path
