"""The instance calls of the IBM Cloud VPC REST API that the node operations need, with an IAM
token from the API key.  Plain ``urllib``: the dynamic providers run it inside ``pulumi up``.

``GET /v1/instances/{id}`` (status, ``cluster_network_attachments``) and ``POST
/v1/instances/{id}/actions`` with ``{"type": "stop"|"start"}``; IAM's ``/identity/token`` with the
``urn:ibm:params:oauth:grant-type:apikey`` grant.  Every call is retried and bounded as
``components.ops.calls`` says, no answer read past its size limit.  Errors become one-line
``OperationFailed``s that never contain the key or the token, even where IAM or the VPC API echo them
back, or IAM answers a token no header can carry.  Redirects are not followed: the VPC API and IAM
answer in place, and urllib would carry the bearer token to wherever a redirect points.

Every step of a rolling change builds its own client (a dynamic provider call each), so the IAM
token is kept per process, keyed by the IAM URL and a digest of the key, and asked for again only
a minute before it expires: a 256-worker roll-out does not ask IAM for a thousand tokens. It lives
in memory only, never in the state or a file.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from components.ops.calls import CallPolicy, Transient, Watchdog, call_with_retries, retry_after_s
from components.ops.ports import InstanceAction, InstanceState, OperationFailed
from components.ops.transport import AnswerTooLarge, bounded_response, header_safe, scrub

__all__ = ["API_VERSION", "IbmInstanceClient"]

API_VERSION = "2025-06-10"
"""The VPC API version date sent with every call (cluster networks need a 2024-era one or newer)."""
IAM_URL = "https://iam.cloud.ibm.com/identity/token"
TOKEN_MARGIN_S = 60.0
"""A token this close to its expiry is not used: a call must not outlive it."""
ACTED = {"stop": ("stopping", "stopped"), "start": ("starting", "running")}
"""Where an instance is once IBM took the action: a retried request that finds it there is done."""

_TOKENS: dict[tuple[str, str], tuple[str, float]] = {}
_TOKENS_LOCK = threading.Lock()  # the provider host may serve several steps at once


class _WatchedHTTP(urllib.request.HTTPHandler):
    def __init__(self, watchdog: Watchdog, limit: int) -> None:
        super().__init__()
        self._connection = _watched(http.client.HTTPConnection, watchdog, limit)

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req)


class _WatchedHTTPS(urllib.request.HTTPSHandler):
    def __init__(self, watchdog: Watchdog, limit: int) -> None:
        super().__init__()
        self._connection = _watched(http.client.HTTPSConnection, watchdog, limit)

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req, context=self._context)  # type: ignore[attr-defined]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # the 3xx becomes an HTTPError: a failure naming its status


def _watched(base: type[http.client.HTTPConnection], watchdog: Watchdog, limit: int) -> Any:
    class Watched(base):  # type: ignore[misc, valid-type]
        response_class = bounded_response(limit)

        def connect(self) -> None:
            super().connect()
            watchdog.register(self.sock)

    return Watched


class IbmInstanceClient:
    """``InstanceApi`` against ``https://<region>.iaas.cloud.ibm.com`` (or ``endpoint``)."""

    def __init__(
        self,
        region: str,
        api_key: str,
        *,
        endpoint: str | None = None,
        iam_url: str = IAM_URL,
        policy: CallPolicy | None = None,
    ) -> None:
        if not api_key:
            raise OperationFailed("no IBM Cloud API key: set the secret gpu-cluster:ibmcloudApiKey")
        self._base = (endpoint or f"https://{region}.iaas.cloud.ibm.com").rstrip("/")
        self._api_key, self._iam_url, self._policy = api_key, iam_url, policy or CallPolicy()
        self._token_key = (iam_url, hashlib.sha256(api_key.encode()).hexdigest())
        self._watchdog = Watchdog()
        limit = self._policy.answer_limit_bytes
        self._opener = urllib.request.build_opener(
            _WatchedHTTP(self._watchdog, limit), _WatchedHTTPS(self._watchdog, limit), _NoRedirect()
        )

    def get(self, instance_id: str) -> InstanceState | None:
        status, body = self._call("GET", f"/v1/instances/{urllib.parse.quote(instance_id, safe='')}")
        if status == 404:
            return None
        attachments = body.get("cluster_network_attachments")
        names = (
            tuple(str(a.get("name")) for a in attachments if isinstance(a, dict))
            if isinstance(attachments, list)
            else ()
        )
        return InstanceState(status=str(body.get("status", "unknown"))[:64], cluster_attachments=names)

    def act(self, instance_id: str, action: InstanceAction) -> None:
        path = f"/v1/instances/{urllib.parse.quote(instance_id, safe='')}/actions"
        try:
            status, _ = self._call("POST", path, {"type": action})
        except OperationFailed as failure:
            # A retried request may find the action taken by an attempt whose answer was lost.
            try:
                state = self.get(instance_id)
            except OperationFailed:
                raise failure from None  # the action's own reason, not the look's
            if state is not None and state.status in ACTED[action]:
                return
            raise
        if status == 404:
            raise OperationFailed(f"{action} of instance {instance_id}: the instance no longer exists")

    def _bearer(self) -> str:
        with _TOKENS_LOCK:
            cached = _TOKENS.get(self._token_key)
            if cached is not None and cached[1] > time.time() + TOKEN_MARGIN_S:
                return cached[0]
            data = urllib.parse.urlencode(
                {"grant_type": "urn:ibm:params:oauth:grant-type:apikey", "apikey": self._api_key}
            ).encode()
            request = urllib.request.Request(
                self._iam_url,
                data=data,
                method="POST",
                headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
            )
            body = self._send(request, "IAM token")[1]
            token = body.get("access_token")
            if not isinstance(token, str) or not token:
                raise OperationFailed("IAM token: the answer holds no access_token")
            if not header_safe(token):  # never kept, never sent, never quoted
                raise OperationFailed(
                    "IAM token: the answer's access_token holds characters an HTTP header cannot carry "
                    "(a line break, a space or a control character): not a token IAM issues"
                )
            try:
                lifetime = float(body.get("expires_in", 1200))
            except (TypeError, ValueError, OverflowError):
                lifetime = 0.0  # an odd answer: use the token for this call only
            _TOKENS[self._token_key] = (token, time.time() + min(lifetime, 86_400.0))
            return token

    def _call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        query = urllib.parse.urlencode({"version": API_VERSION, "generation": 2})
        request = urllib.request.Request(
            f"{self._base}{path}?{query}",
            method=method,
            data=json.dumps(payload).encode() if payload is not None else None,
            headers={
                "Authorization": f"Bearer {self._bearer()}",
                "Accept": "application/json",
                "Content-Type": "application/json",
            },
        )
        return self._send(request, f"{method} {path}")

    def _send(self, request: urllib.request.Request, what: str) -> tuple[int, dict[str, Any]]:
        try:
            return call_with_retries(lambda left: self._attempt(request, what, left), what, self._policy)
        except OperationFailed as error:
            raise OperationFailed(self._scrub(str(error))) from None

    def _attempt(self, request: urllib.request.Request, what: str, seconds: float) -> tuple[int, dict[str, Any]]:
        try:
            status, raw = self._exchange(request, what, seconds)
        except AnswerTooLarge as error:
            raise OperationFailed(f"{what}: {error}") from None
        return status, _object(raw, what)

    def _exchange(self, request: urllib.request.Request, what: str, seconds: float) -> tuple[int, bytes]:
        with self._watchdog.bounding(seconds):
            try:
                with self._opener.open(request, timeout=seconds) as response:
                    return response.status, response.read()
            except urllib.error.HTTPError as error:
                if error.code == 404:
                    return 404, b""
                reason = f"HTTP {error.code} {_first_message(error)}".rstrip()
                if error.code == 429 or error.code >= 500:
                    asked = error.headers.get_all(
                        "Retry-After"
                    )  # every one of a repeated header, as urllib3 joins them
                    raise Transient(reason, retry_after_s(", ".join(asked) if asked else None)) from None
                raise OperationFailed(f"{what}: {reason}") from None
            except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
                cause = getattr(error, "reason", error)
                if isinstance(cause, http.client.BadStatusLine) and not isinstance(cause, ConnectionError):
                    raise OperationFailed(f"{what}: the server's answer is not HTTP") from None
                if isinstance(cause, (OSError, http.client.HTTPException)):  # reset, refused, timed out, cut short
                    raise Transient(f"{type(cause).__name__}: {_line(cause)}") from None
                raise OperationFailed(f"{what}: {_line(cause)}") from None
            except ValueError:  # a header http.client refuses; its message would quote the header, token and all
                raise OperationFailed(f"{what}: the request has a header HTTP cannot carry") from None

    def _scrub(self, text: str) -> str:
        """The message without the API key, any token this process holds, or anything shaped like one."""
        return scrub(text, [self._api_key, *(token for token, _ in _TOKENS.values())])


def _line(error: object) -> str:
    return next(iter(str(error).splitlines()), "")[:300]


def _object(raw: bytes, what: str) -> dict[str, Any]:
    """The answer as a JSON object, or one line saying it is not one."""
    try:
        body = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        raise OperationFailed(f"{what}: the answer is not JSON ({len(raw)} bytes)") from None
    if not isinstance(body, dict):
        raise OperationFailed(f"{what}: the answer is a JSON {type(body).__name__}, not an object")
    return body


def _first_message(error: urllib.error.HTTPError) -> str:
    """IBM's first error message (``errors[0].message``), never the request."""
    try:
        body = json.loads(error.read(65536) or b"{}")
    except (ValueError, RecursionError, OSError, http.client.HTTPException, AnswerTooLarge):
        return ""
    errors = body.get("errors") if isinstance(body, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        return _line(errors[0].get("message", ""))
    return _line(body.get("errorMessage", "")) if isinstance(body, dict) else ""
