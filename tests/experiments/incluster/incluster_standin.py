"""A second Kubernetes API stand-in, for the in-cluster commands: a small object store answering the official
client's create/replace/read/delete of any kind by URL, where Workflows move through scripted phases and pods
print a scripted log (the export of ``pull-results --from-cluster``)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from tests.http_standin import KUBE_VERSION, JsonHandler, ServedStandIn


@dataclass
class Store:
    workflow_phases: list[str] = field(default_factory=lambda: ["Running", "Running", "Succeeded"])
    """The phase a Workflow shows at each read (the last one stays)."""
    pod_log: str = ""
    pod_phase: str = "Succeeded"
    existing: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Objects there before the test, by collection URL + '/' + name."""
    objects: dict[str, dict[str, Any]] = field(default_factory=dict)
    reads: dict[str, int] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    forbidden: set[str] = field(default_factory=set)
    """Collection URLs answered with 403."""
    workflow_status: Any = None
    """When set, every read of a Workflow answers this as its ``status``, whatever it is (hostile)."""
    created_name: Any = None
    """When set, a created object comes back with this as its ``metadata.name`` (hostile)."""
    pod_log_bytes: bytes | None = None
    """A pod's raw log (invalid UTF-8, huge), instead of ``pod_log``."""
    stall: tuple[str, ...] = ()
    """Path prefixes the server stops answering (it holds the connection open, silent)."""
    connections: int = 0
    """Connections the clients opened (fewer than ``requests``: kept alive and reused)."""
    trickle_log: bool = False
    """A pod's log is sent a byte at a time, slowly, on a connection held open (a hostile server)."""


class _Handler(JsonHandler):
    """HTTP/1.1 with keep-alive, as an API server answers: a client's pool reuses a connection (the
    default HTTP/1.0 would close every one after its answer, so no reuse could ever be tested)."""

    protocol_version = "HTTP/1.1"
    store: Store

    def setup(self) -> None:
        super().setup()
        self.store.connections += 1

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass  # a client that closed its kept-alive connection, or gave up mid-answer

    def _route(self, method: str) -> None:
        path = urlparse(self.path).path.rstrip("/")
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"null") if length else None
        s = self.store
        s.requests.append((method, path))
        if any(path.startswith(p) for p in s.stall):
            self.close_connection = True
            time.sleep(120)  # longer than any test's hang bound (tests/timing.py): only a deadline ends the wait
            return None
        objects = {**s.existing, **s.objects}
        if path == "/version":
            return self._send(200, KUBE_VERSION)
        collection = path.rsplit("/", 1)[0]
        if method == "POST":
            if path in s.forbidden:
                return self._status(403, "Forbidden")
            meta = body.setdefault("metadata", {})
            if "name" not in meta:
                meta["name"] = meta.get("generateName", "x-") + f"{len(s.objects):05d}"
            key = f"{path}/{meta['name']}"
            if key in objects:
                return self._status(409, "AlreadyExists")
            s.objects[key] = body
            if s.created_name is not None:
                return self._send(201, {**body, "metadata": {**meta, "name": s.created_name}})
            return self._send(201, body)
        if method == "PUT":
            s.objects[path] = body
            return self._send(200, body)
        if method == "DELETE":
            gone = s.objects.pop(path, None)
            return self._send(200, gone) if gone is not None else self._status(404, "NotFound")
        if path.endswith("/log") and collection in objects:
            if s.trickle_log:
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                # Slower than the client reads, on a kept-alive connection: when the client gives up, no
                # byte is pending on it (urllib3 would take a readable socket for a dropped one and open
                # another), so a client that puts it back in its pool sends its next request on it, and
                # the answer to that request never comes: this thread is still writing the log.
                self.close_connection = True
                for _ in range(120):  # longer than any test's hang bound (tests/timing.py)
                    try:
                        self.wfile.write(b"{")
                        self.wfile.flush()
                    except OSError:
                        return None
                    time.sleep(1.0)
                return None
            if s.pod_log_bytes is not None:
                return self._send_bytes(s.pod_log_bytes)
            return self._send(200, s.pod_log, text=True)
        if path not in objects:
            return self._status(404, "NotFound")
        s.reads[path] = s.reads.get(path, 0) + 1
        obj = dict(objects[path])
        if "/workflows/" in path:
            phase = s.workflow_phases[min(s.reads[path], len(s.workflow_phases)) - 1]
            cells = [t["name"] for t in obj["spec"]["templates"] if t["name"].startswith("cell-")]
            nodes = {
                f"n{i}": {"templateName": name, "phase": "Succeeded" if phase == "Succeeded" else "Running"}
                for i, name in enumerate(cells)
            }
            obj["status"] = {"phase": phase, "nodes": nodes} if s.workflow_status is None else s.workflow_status
        if "/pods/" in path:
            obj["status"] = {"phase": s.pod_phase if s.reads[path] > 1 else "Pending"}
        return self._send(200, obj)

    def do_GET(self) -> None:  # noqa: N802
        self._route("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._route("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._route("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._route("DELETE")


EXPORT_IMAGE = "quay.io/team/gpu-cluster:1.4.0"
"""The image ``pull-results --from-cluster`` runs its export pod from."""


class ObjectStandIn(ServedStandIn):
    def __init__(self, store: Store) -> None:
        super().__init__(type("Handler", (_Handler,), {"store": store}))
        self.store = store

    def kubeconfig(self, directory: Path, *, token: str = "not-a-secret", userinfo: str = "") -> Path:
        """A kubeconfig for the stand-in (``userinfo``: ``user:password@`` put into the server URL)."""
        path = directory / "standin-kubeconfig"
        url = f"http://{userinfo}127.0.0.1:{self.server.server_address[1]}"
        path.write_text(
            json.dumps(
                {
                    "apiVersion": "v1",
                    "kind": "Config",
                    "current-context": "standin",
                    "clusters": [{"name": "standin", "cluster": {"server": url}}],
                    "users": [{"name": "u", "user": {"token": token}}],
                    "contexts": [{"name": "standin", "context": {"cluster": "standin", "user": "u"}}],
                }
            )
        )
        return path

    def pull_results(self, directory: Path, local: Path, *, timeout: int, token: str = "not-a-secret") -> list[str]:
        """The arguments of ``pull-results --from-cluster`` against this stand-in, into the store ``local``."""
        where = ["--store", str(local), "--kubeconfig", str(self.kubeconfig(directory, token=token))]
        return ["pull-results", "--from-cluster", "--image", EXPORT_IMAGE, "--timeout", str(timeout), *where]
