"""The instance calls of the IBM Cloud VPC REST API that the node operations need, with an IAM
token from the API key.  Plain ``urllib``: the dynamic providers run it inside ``pulumi up``.

``GET /v1/instances/{id}`` (status, ``cluster_network_attachments``) and ``POST
/v1/instances/{id}/actions`` with ``{"type": "stop"|"start"}``; IAM's ``/identity/token`` with the
``urn:ibm:params:oauth:grant-type:apikey`` grant.  Errors become one-line ``OperationFailed``s that
never contain the key or the token.

Every step of a rolling change builds its own client (a dynamic provider call each), so the IAM
token is kept per process, keyed by the IAM URL and a digest of the key, and asked for again only
a minute before it expires: a 256-worker roll-out does not ask IAM for a thousand tokens. It lives
in memory only, never in the state or a file.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from components.ops.ports import InstanceAction, InstanceState, OperationFailed

__all__ = ["API_VERSION", "IbmInstanceClient"]

API_VERSION = "2025-06-10"
"""The VPC API version date sent with every call (cluster networks need a 2024-era one or newer)."""
IAM_URL = "https://iam.cloud.ibm.com/identity/token"
TOKEN_MARGIN_S = 60.0
"""A token this close to its expiry is not used: a call must not outlive it."""

_TOKENS: dict[tuple[str, str], tuple[str, float]] = {}
_TOKENS_LOCK = threading.Lock()  # the provider host may serve several steps at once


class IbmInstanceClient:
    """``InstanceApi`` against ``https://<region>.iaas.cloud.ibm.com`` (or ``endpoint``)."""

    def __init__(self, region: str, api_key: str, *, endpoint: str | None = None, iam_url: str = IAM_URL,
                 timeout_s: float = 60.0) -> None:
        if not api_key:
            raise OperationFailed("no IBM Cloud API key: set the secret gpu-cluster:ibmcloudApiKey")
        self._base = (endpoint or f"https://{region}.iaas.cloud.ibm.com").rstrip("/")
        self._api_key, self._iam_url, self._timeout = api_key, iam_url, timeout_s
        self._token_key = (iam_url, hashlib.sha256(api_key.encode()).hexdigest())

    def get(self, instance_id: str) -> InstanceState | None:
        status, body = self._call("GET", f"/v1/instances/{urllib.parse.quote(instance_id, safe='')}")
        if status == 404:
            return None
        attachments = body.get("cluster_network_attachments") if isinstance(body, dict) else None
        names = tuple(str(a.get("name")) for a in attachments or [] if isinstance(a, dict))
        return InstanceState(status=str(body.get("status", "unknown")), cluster_attachments=names)

    def act(self, instance_id: str, action: InstanceAction) -> None:
        status, _ = self._call("POST", f"/v1/instances/{urllib.parse.quote(instance_id, safe='')}/actions",
                               {"type": action})
        if status == 404:
            raise OperationFailed(f"{action} of instance {instance_id}: the instance no longer exists")

    def _bearer(self) -> str:
        with _TOKENS_LOCK:
            cached = _TOKENS.get(self._token_key)
            if cached is not None and cached[1] > time.time() + TOKEN_MARGIN_S:
                return cached[0]
            data = urllib.parse.urlencode({"grant_type": "urn:ibm:params:oauth:grant-type:apikey",
                                           "apikey": self._api_key}).encode()
            request = urllib.request.Request(self._iam_url, data=data, method="POST", headers={
                "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"})
            body = self._send(request, "IAM token")[1]
            token = body.get("access_token") if isinstance(body, dict) else None
            if not isinstance(token, str):
                raise OperationFailed("IAM token: the answer holds no access_token")
            try:
                lifetime = float(body.get("expires_in", 1200))
            except (TypeError, ValueError):
                lifetime = 0.0  # an odd answer: use the token for this call only
            _TOKENS[self._token_key] = (token, time.time() + lifetime)
            return token

    def _call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> tuple[int, Any]:
        query = urllib.parse.urlencode({"version": API_VERSION, "generation": 2})
        request = urllib.request.Request(
            f"{self._base}{path}?{query}", method=method,
            data=json.dumps(payload).encode() if payload is not None else None,
            headers={"Authorization": f"Bearer {self._bearer()}", "Accept": "application/json",
                     "Content-Type": "application/json"})
        return self._send(request, f"{method} {path}")

    def _send(self, request: urllib.request.Request, what: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(request, timeout=self._timeout) as response:  # noqa: S310 - https URLs
                raw = response.read()
                return response.status, json.loads(raw) if raw else {}
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return 404, {}
            raise OperationFailed(f"{what}: HTTP {error.code} {_first_message(error)}") from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise OperationFailed(f"{what}: {str(getattr(error, 'reason', error)).splitlines()[0]}") from None


def _first_message(error: urllib.error.HTTPError) -> str:
    """IBM's first error message (``errors[0].message``), never the request."""
    try:
        body = json.loads(error.read() or b"{}")
    except ValueError:
        return ""
    errors = body.get("errors") if isinstance(body, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        return str(errors[0].get("message", ""))[:300]
    return str(body.get("errorMessage", ""))[:300] if isinstance(body, dict) else ""
