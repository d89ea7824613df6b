"""The real REST clients against a hostile server on 127.0.0.1: failures worth a retry are retried
(with ``Retry-After`` honoured), every call ends within its deadlines however slowly the server
answers, an answer that is not a JSON object is one clear line, and IBM messages never carry the
API key or the token, even where the server echoes them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from components.ops.calls import CallPolicy
from components.ops.ibm_client import IbmInstanceClient
from components.ops.kube_client import KubeClusterClient
from components.ops.ports import OperationFailed, PodRef
from tests.http_standin import JsonHandler, ServedStandIn
from tests.timing import hang_bound, hang_bounded

KEY = "hostile-test-key-7f3a9c"
TOKEN = "eyJhbGciOiJIUzI1NiJ9.hostile-token.sig"
FAST = CallPolicy(call_deadline_s=3.0, answer_deadline_s=1.0, backoff_s=0.01, backoff_cap_s=0.05)
ONE_TRY = CallPolicy(call_deadline_s=1.5, answer_deadline_s=1.0, backoff_s=0.01)
Answer = Callable[[JsonHandler], None]


def json_answer(status: int, body: Any, headers: dict[str, str] | None = None) -> Answer:
    def answer(h: JsonHandler) -> None:
        payload = json.dumps(body).encode()
        h.send_response(status)
        for name, value in {"Content-Type": "application/json", **(headers or {})}.items():
            h.send_header(name, value)
        h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        h.wfile.write(payload)

    return answer


def raw(payload: bytes, status: int = 200, length: int | None = None) -> Answer:
    def answer(h: JsonHandler) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(payload) if length is None else length))
        h.end_headers()
        h.wfile.write(payload)
        h.close_connection = True

    return answer


def reset(h: JsonHandler) -> None:
    h.close_connection = True  # no answer at all: the client sees the connection closed


def trickle(h: JsonHandler) -> None:
    h.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
    for _ in range(200):
        h.wfile.write(b" ")
        h.wfile.flush()
        time.sleep(0.1)


def trickled_headers(h: JsonHandler) -> None:
    for byte in b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 200:
        h.wfile.write(bytes([byte]))
        h.wfile.flush()
        time.sleep(0.1)


def not_http(h: JsonHandler) -> None:
    h.wfile.write(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")
    h.close_connection = True


INSTANCE = json_answer(200, {"id": "i-1", "status": "running", "cluster_network_attachments": []})
IAM = json_answer(200, {"access_token": TOKEN, "expires_in": 3600})


class Hostile(ServedStandIn):
    """Answers each path with its queued answers in turn, then with its last one."""

    def __init__(self, script: dict[str, list[Answer]]) -> None:
        self.script, self.requests = script, []  # type: ignore[var-annotated]
        outer = self

        class Handler(JsonHandler):
            def _any(self) -> None:
                path = self.path.split("?")[0]
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.requests.append((self.command, path, self.headers.get("Authorization")))
                key = next(k for k in outer.script if path.startswith(k))
                answers = outer.script[key]
                (answers.pop(0) if len(answers) > 1 else answers[0])(self)

            do_GET = do_POST = do_PATCH = _any  # noqa: N815

        super().__init__(Handler)
        self.server.handle_error = lambda *_: None  # type: ignore[method-assign]  # a client that hung up: expected

    def ibm(self, policy: CallPolicy = FAST) -> IbmInstanceClient:
        return IbmInstanceClient("us-east", KEY, endpoint=self.url, iam_url=f"{self.url}/identity/token", policy=policy)

    def kube(self, policy: CallPolicy = FAST) -> KubeClusterClient:
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "current-context": "h",
            "clusters": [{"name": "h", "cluster": {"server": self.url}}],
            "users": [{"name": "u", "user": {"token": "kube-token"}}],
            "contexts": [{"name": "h", "context": {"cluster": "h", "user": "u"}}],
        }
        return KubeClusterClient.connect(json.dumps(config), None, policy=policy)


@pytest.fixture
def serve() -> Iterator[Callable[..., Hostile]]:
    servers: list[Hostile] = []

    def _serve(iam: list[Answer] | None = None, instances: list[Answer] | None = None, **more: list[Answer]) -> Hostile:
        """``more``: path prefix → answers, the longest prefix first (``/api/v1/nodes``...)."""
        paths = dict(sorted(more.items(), key=lambda kv: -len(kv[0])))
        paths |= {"/identity/token": iam or [IAM], "/v1/instances/": instances or [INSTANCE]}
        server = Hostile(paths).__enter__()
        servers.append(server)
        return server

    yield _serve
    for server in servers:
        server.__exit__()


@pytest.mark.parametrize(
    "first",
    [
        json_answer(503, {"errors": [{"message": "unavailable"}]}),
        json_answer(502, "<html>bad gateway</html>"),
        reset,
        raw(b'{"id": "i-1", "sta', length=200),
    ],
    ids=["503", "502-html", "reset", "cut-short"],
)
def test_ibm_retries_what_a_retry_can_mend(serve, first: Answer) -> None:
    server = serve(instances=[first, first, INSTANCE])
    ibm = server.ibm()  # built before the clock starts: a first client's set-up is no part of a call's deadline
    with hang_bounded(FAST.call_deadline_s):
        assert ibm.get("i-1").status == "running"  # type: ignore[union-attr]
    assert [path for _, path, _ in server.requests].count("/v1/instances/i-1") == 3


@pytest.mark.slow
def test_ibm_waits_what_retry_after_asks(serve) -> None:
    server = serve(instances=[json_answer(429, {"errors": [{"message": "slow down"}]}, {"Retry-After": "1"}), INSTANCE])
    ibm = server.ibm()
    start = time.monotonic()
    assert ibm.get("i-1").status == "running"  # type: ignore[union-attr]
    assert 1.0 <= time.monotonic() - start < hang_bound(FAST.call_deadline_s)  # waited, and within the call's deadline
    assert [path for _, path, _ in server.requests].count("/v1/instances/i-1") == 2


def test_a_retry_after_past_the_deadline_fails_at_once_saying_so(serve) -> None:
    server = serve(instances=[json_answer(429, {"errors": [{"message": "slow down"}]}, {"Retry-After": "3600"})])
    asked = r"HTTP 429 slow down \(the server asked to wait 3600 s\); gave up after 1 attempt"
    ibm = server.ibm()
    with hang_bounded(FAST.call_deadline_s), pytest.raises(OperationFailed, match=asked):
        ibm.get("i-1")


def test_the_step_deadline_bounds_every_retry(serve) -> None:
    server = serve(instances=[json_answer(503, {"errors": [{"message": "unavailable"}]})])
    policy = CallPolicy(call_deadline_s=600, answer_deadline_s=1, backoff_s=0.05, step_deadline=time.time() + 1.5)
    # The bound is far below the call's own 600 s: only the step's 1.5 s can have ended it.
    ibm = server.ibm(policy)
    with hang_bounded(1.5), pytest.raises(OperationFailed, match="HTTP 503 unavailable.*gave up after"):
        ibm.get("i-1")


@pytest.mark.parametrize("slow", [trickle, trickled_headers], ids=["body", "headers"])
@pytest.mark.slow
def test_a_trickling_server_cannot_hold_a_call_past_its_deadline(serve, slow: Answer) -> None:
    server = serve(instances=[slow])
    # The stand-in trickles for 20 s, longer than the bound: only the 1 s answer deadline ends the call.
    says = "no whole answer within 1 s.*gave up after 1 attempt"
    ibm = server.ibm(ONE_TRY)
    with hang_bounded(ONE_TRY.call_deadline_s), pytest.raises(OperationFailed, match=says):
        ibm.get("i-1")


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (raw(b"<html><body>Service Unavailable</body></html>"), "the answer is not JSON"),
        (raw(b"[1, 2]"), "the answer is a JSON list, not an object"),
        (raw(b"42"), "the answer is a JSON int, not an object"),
        (raw(b"[" * 200_000 + b"]" * 200_000), "the answer is not JSON"),
        (not_http, "not HTTP|BadStatusLine|RemoteDisconnected"),
    ],
    ids=["html", "array", "number", "deep", "status-line"],
)
def test_an_answer_that_is_not_a_json_object_is_one_line(serve, answer: Answer, says: str) -> None:
    server = serve(instances=[answer])
    ibm = server.ibm()
    with hang_bounded(FAST.call_deadline_s), pytest.raises(OperationFailed, match=says) as failure:
        ibm.get("i-1")
    assert "\n" not in str(failure.value) and str(failure.value).startswith("GET /v1/instances/i-1: ")


def test_echoed_secrets_never_reach_a_message(serve) -> None:
    echo_key = json_answer(400, {"errorMessage": f"Provided API key {KEY} could not be found. apikey={KEY}"})
    with pytest.raises(OperationFailed) as failure:
        serve(iam=[echo_key]).ibm().get("i-1")
    assert KEY not in str(failure.value) and "could not be found" in str(failure.value)
    echo_token = json_answer(401, {"errors": [{"message": f"bad header Authorization: Bearer {TOKEN}"}]})
    with pytest.raises(OperationFailed) as failure:
        serve(instances=[echo_token]).ibm().get("i-1")
    assert TOKEN not in str(failure.value) and "hostile-token" not in str(failure.value)
    assert "Bearer [redacted]" in str(failure.value)


def test_a_stop_whose_answer_was_lost_is_not_asked_twice_into_a_failure(serve) -> None:
    stopping = json_answer(200, {"id": "i-1", "status": "stopping"})
    conflict = json_answer(409, {"errors": [{"message": "instance is stopping"}]})
    server = serve(instances=[stopping], **{"/v1/instances/i-1/actions": [reset, conflict]})
    server.ibm().act("i-1", "stop")
    assert [m for m, p, _ in server.requests if p.endswith("/actions")] == ["POST", "POST"]


def test_kube_retries_and_reads_a_budget_429_as_an_answer(serve) -> None:
    node = json_answer(
        200,
        {"metadata": {"annotations": {}}, "spec": {}, "status": {"conditions": [{"type": "Ready", "status": "True"}]}},
    )
    server = serve(
        **{
            "/api/v1/nodes": [json_answer(503, {"kind": "Status"}), reset, node],
            "/api/v1/namespaces": [json_answer(429, {"kind": "Status", "reason": "TooManyRequests"})],
        }
    )
    kube = server.kube()
    with hang_bounded(2 * FAST.call_deadline_s):  # two calls
        assert kube.node("w-1").ready  # type: ignore[union-attr]
        assert kube.evict(PodRef("team", "app")) == "blocked"
    assert [p for _, p, _ in server.requests].count("/api/v1/nodes/w-1") == 3
    assert [p for _, p, _ in server.requests].count("/api/v1/namespaces/team/pods/app/eviction") == 1


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (raw(b"[]"), "read node w-1: the answer is a JSON list, not an object"),
        (raw(b"<html>proxy error</html>"), "read node w-1: the answer is not JSON"),
        (raw(b"[" * 200_000 + b"]" * 200_000), "read node w-1: the answer is not JSON"),
        pytest.param(trickle, "read node w-1: no whole answer within 1 s", marks=pytest.mark.slow),
    ],
    ids=["array", "html", "deep", "trickle"],
)
def test_kube_refuses_what_is_not_a_node(serve, answer: Answer, says: str) -> None:
    server = serve(**{"/api/v1/nodes": [answer]})
    kube = server.kube(ONE_TRY)  # its first build in a process imports the client's models: seconds when loaded
    with hang_bounded(ONE_TRY.call_deadline_s), pytest.raises(OperationFailed, match=says):
        kube.node("w-1")


def test_an_eviction_forbidden_by_a_terminating_namespace_is_an_answer_any_other_403_a_failure(serve) -> None:
    terminating = json_answer(
        403,
        {
            "kind": "Status",
            "code": 403,
            "details": {"causes": [{"type": "NamespaceTerminating", "message": "namespace team is being terminated"}]},
        },
    )
    forbidden = json_answer(403, {"kind": "Status", "code": 403, "reason": "Forbidden"})
    server = serve(**{"/api/v1/namespaces/team": [terminating, forbidden]})
    kube = server.kube()
    assert kube.evict(PodRef("team", "app", uid="u-1")) == "terminating"
    with pytest.raises(OperationFailed, match="^evict team/app: HTTP 403"):
        kube.evict(PodRef("team", "app", uid="u-1"))
