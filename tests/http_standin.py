"""What every HTTP stand-in of the tests shares (the Kubernetes API, the IBM API, IAM): a quiet JSON
handler and a server on 127.0.0.1 that runs on a thread while the stand-in is entered."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["KUBE_VERSION", "JsonHandler", "ServedStandIn"]

KUBE_VERSION: dict[str, str] = {
    "major": "1",
    "minor": "31",
    "gitVersion": "v1.31.6",
    "gitCommit": "6" * 40,
    "gitTreeState": "clean",
    "buildDate": "2025-02-12T21:26:09Z",
    "goVersion": "go1.22.12",
    "compiler": "gc",
    "platform": "linux/amd64",
}
"""What a Kubernetes API stand-in answers on ``/version`` (the OpenShift 4.18 cluster's apiserver)."""


class JsonHandler(BaseHTTPRequestHandler):
    # Headers and body leave in separate writes: with Nagle's algorithm on, the body waits for the client's
    # delayed ACK of the headers (tens of milliseconds per answer on 127.0.0.1).
    disable_nagle_algorithm = True

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: Any, text: bool = False) -> None:
        payload = body.encode() if text else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain" if text else "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _send_bytes(self, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _status(self, code: int, reason: str) -> None:
        """A Kubernetes ``Status`` answer."""
        self._send(code, {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": reason, "code": code})


class ServedStandIn:
    """Serves ``handler`` on a free port of 127.0.0.1 between ``__enter__`` and ``__exit__``."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.block_on_close = False  # a stalled answer must not hold the test at exit
        # serve_forever notices shutdown() only between two polls: 0.5 s by default, paid by every test at exit.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"
