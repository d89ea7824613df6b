"""The REST clients against a hostile server on 127.0.0.1, third round (issue 37): a deadline is a deadline
whatever ``Retry-After`` says (nothing under the clients sleeps it out), backoff never drops below its
floor, a token no header can carry is one line without the token (and the roll-back still runs), and an
answer has a size limit, with a length, without one, chunked or compressed.

Timing (issue 38): every wall-clock bound is at least 10 s and 5x the deadline it checks; the deadline's
own effect is asserted through what the client reports (attempts, requests the server saw, "in 0 s")."""

from __future__ import annotations

import gzip
import json
import math
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from email.utils import format_datetime
from typing import Any

import pytest

from components.ops.calls import (
    ANSWER_LIMIT_BYTES,
    FLOOR_S,
    CallPolicy,
    Transient,
    call_with_retries,
    retry_after_s,
)
from components.ops.kube_client import KubeClusterClient
from components.ops.ports import OperationFailed
from components.ops.rolling import NodeOps, Timeouts, Worker
from components.ops.transport import header_safe
from tests.http_standin import JsonHandler
from tests.timing import hang_bounded

from . import test_hostile_answers as first_round
from .standins import FakeClock, World
from .test_hostile_answers import IAM, INSTANCE, Hostile, json_answer

serve = first_round.serve  # the first round's hostile server, as a fixture

Answer = Callable[[JsonHandler], None]
TIGHT = CallPolicy(call_deadline_s=2.0, answer_deadline_s=1.0, backoff_s=0.2, backoff_cap_s=0.4)
"""A 2 s call: every block is bounded by ``hang_bound(2)`` (issue 38), the deadline's effect read from the message."""
NODE = {"metadata": {}, "spec": {}, "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
BAD_TOKENS = {
    "crlf": "eyJhbGciOi.secret-part\r\nX-Injected: 1",
    "lf": "eyJhbGciOi.secret-part\nmore",
    "space": "eyJhbGciOi secret-part",
    "nul": "eyJhbGciOi.secret-part\x00",
    "non-ascii": "eyJhbGciOi.secret-pärt",
}


def asking(status: int, wait: str, body: Any = None) -> Answer:
    return json_answer(status, body or {"errors": [{"message": "slow down"}], "kind": "Status"}, {"Retry-After": wait})


def hits(server: Hostile, prefix: str) -> int:
    return sum(1 for _, path, _ in server.requests if path.startswith(prefix))


# --- Retry-After that outlives the deadline -------------------------------------------------------------------


@pytest.mark.parametrize("status", [429, 503, 413])
def test_kube_gives_up_at_once_on_a_retry_after_past_its_deadline(serve, status: int) -> None:
    """urllib3's pool kept its default retries, each sleeping the whole Retry-After: 3 x 3 s here."""
    server = serve(**{"/api/v1/nodes": [asking(status, "3")]})
    kube = server.kube(TIGHT)
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        kube.node("w-1")
    if status == 413:
        assert str(failure.value).startswith("read node w-1: HTTP 413")  # not retried by us: no wait at all
    else:
        assert "(the server asked to wait 3 s); gave up after 1 attempt(s) in 0 s" in str(failure.value)
    assert hits(server, "/api/v1/nodes") == 1


def test_kube_follows_no_redirect_and_sleeps_no_retry_after_of_one(serve) -> None:
    def redirect(h: JsonHandler) -> None:
        h.send_response(307)
        h.send_header("Location", "/api/v1/nodes/w-1")
        h.send_header("Retry-After", "3")
        h.send_header("Content-Length", "0")
        h.end_headers()

    server = serve(**{"/api/v1/nodes": [redirect]})
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed, match=r"^read node w-1: HTTP 307"):
        server.kube(TIGHT).node("w-1")
    assert hits(server, "/api/v1/nodes") == 1


def test_ibm_follows_no_redirect_carrying_the_token_elsewhere(serve) -> None:
    def redirect(h: JsonHandler) -> None:
        h.send_response(302)
        h.send_header("Location", "/elsewhere/collect")
        h.send_header("Content-Length", "0")
        h.end_headers()

    server = serve(instances=[redirect], **{"/elsewhere": [json_answer(200, {"status": "running"})]})
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed, match=r"^GET /v1/instances/i-1: HTTP 302"):
        server.ibm(TIGHT).get("i-1")
    assert hits(server, "/elsewhere") == 0


def _in(seconds: float) -> str:
    return format_datetime(datetime.fromtimestamp(time.time() + seconds, UTC), usegmt=True)


@pytest.mark.parametrize(
    ("wait", "says"),
    [
        ("1e9", "1000000000"),
        ("inf", "1000000000"),
        ("3600.5", "3600"),
        ("5, 3600", "3600"),
        ("date", "3599|3600"),
    ],
    ids=["1e9", "inf", "fraction", "repeated", "http-date"],
)
@pytest.mark.parametrize("client", ["ibm", "kube"])
def test_a_retry_after_of_any_form_past_the_deadline_ends_the_call_at_once(
    serve, client: str, wait: str, says: str
) -> None:
    """``1e9`` and the HTTP-date form read as no header at all: the call went on retrying."""
    path = "/v1/instances/" if client == "ibm" else "/api/v1/nodes"
    answer = asking(429, _in(3600) if wait == "date" else wait)
    server = serve(instances=[answer]) if client == "ibm" else serve(**{path: [answer]})
    call = (lambda: server.ibm(TIGHT).get("i-1")) if client == "ibm" else (lambda: server.kube(TIGHT).node("w-1"))
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        call()
    text = str(failure.value)
    assert re.search(rf"\(the server asked to wait ({says}) s\); gave up after 1 attempt\(s\) in 0 s$", text), text
    assert hits(server, path) == 1


@pytest.mark.parametrize("client", ["ibm", "kube"])
def test_a_repeated_retry_after_is_read_whole(serve, client: str) -> None:
    """Two headers, ``0`` then ``3600``: the longest wait asked decides, in both clients."""

    def twice(h: JsonHandler) -> None:
        h.send_response(429)
        h.send_header("Retry-After", "0")
        h.send_header("Retry-After", "3600")
        h.send_header("Content-Length", "0")
        h.end_headers()

    path = "/v1/instances/" if client == "ibm" else "/api/v1/nodes"
    server = serve(instances=[twice]) if client == "ibm" else serve(**{path: [twice]})
    call = (lambda: server.ibm(TIGHT).get("i-1")) if client == "ibm" else (lambda: server.kube(TIGHT).node("w-1"))
    with (
        hang_bounded(TIGHT.call_deadline_s),
        pytest.raises(OperationFailed, match=r"asked to wait 3600 s\); gave up after 1 "),
    ):
        call()
    assert hits(server, path) == 1


# --- backoff never drops below a floor ------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("client", ["ibm", "kube"])
def test_retry_after_zero_gets_the_backoff_floor(serve, client: str) -> None:
    """503 Retry-After: 0 gave about a thousand requests in 2 s.  The floor is half the first backoff (0.1 s):
    within the 2 s call at most 2 / 0.1 + 1 attempts."""
    path = "/v1/instances/" if client == "ibm" else "/api/v1/nodes"
    server = serve(instances=[asking(503, "0")]) if client == "ibm" else serve(**{path: [asking(503, "0")]})
    call = (lambda: server.ibm(TIGHT).get("i-1")) if client == "ibm" else (lambda: server.kube(TIGHT).node("w-1"))
    with (
        hang_bounded(TIGHT.call_deadline_s),
        pytest.raises(OperationFailed, match=r"HTTP 503.*gave up after (\d+) attempt") as failure,
    ):
        call()
    attempts = int(failure.value.args[0].rsplit("gave up after ", 1)[1].split(" ")[0])
    assert attempts == hits(server, path) <= TIGHT.call_deadline_s / (TIGHT.backoff_s / 2) + 1
    assert "asked to wait" not in str(failure.value)  # it asked for less than the backoff: the backoff ruled


@pytest.mark.parametrize(
    "header", ["0", "0.0", "-0", "-5", "nan", "-inf", "soon", "", "Wed, 21 Oct 2015 07:28:00 GMT", "0, 0"]
)
def test_no_retry_after_brings_a_wait_below_the_floor(header: str) -> None:
    policy = CallPolicy(call_deadline_s=60.0, answer_deadline_s=1.0, backoff_s=0.4, backoff_cap_s=3.0)
    waits: list[float] = []

    def attempt(_: float) -> None:
        if len(waits) == 8:
            raise OperationFailed("enough")
        raise Transient("HTTP 503", retry_after_s(header))

    with pytest.raises(OperationFailed, match="enough"):
        call_with_retries(attempt, "GET x", policy, sleep=waits.append, rng=random.Random(7))
    assert len(waits) == 8 and min(waits) >= 0.2  # half the first backoff


class _Lowest(random.Random):
    def uniform(self, a: float, b: float) -> float:
        return a


def test_every_wait_is_at_least_the_floor_whatever_the_server_or_the_dice_say() -> None:
    policy = CallPolicy(call_deadline_s=60.0, answer_deadline_s=1.0, backoff_s=0.4, backoff_cap_s=3.0)
    waits: list[float] = []
    asked = iter([0.0, None, -1.0, 0.0, None, 0.0, 100.0])

    def attempt(_: float) -> None:
        raise Transient("HTTP 503", next(asked))

    with pytest.raises(OperationFailed, match=r"asked to wait 100 s\); gave up after 7 attempt"):
        call_with_retries(attempt, "GET x", policy, sleep=waits.append, rng=_Lowest())
    assert waits == [0.2, 0.4, 0.8, 1.5, 1.5, 1.5]  # half of 0.4 x 2^n, capped at 3: never the server's 0


def test_no_policy_brings_a_wait_below_the_absolute_floor() -> None:
    """A policy of 1 ms backoffs (a test's, a mistake's) still leaves ``FLOOR_S`` between attempts."""
    tiny = CallPolicy(call_deadline_s=60.0, answer_deadline_s=1.0, backoff_s=0.001, backoff_cap_s=0.005)
    waits: list[float] = []

    def attempt(_: float) -> None:
        if len(waits) == 10:
            raise OperationFailed("enough")
        raise Transient("HTTP 503", retry_after_s("0"))

    with pytest.raises(OperationFailed, match="enough"):
        call_with_retries(attempt, "GET x", tiny, sleep=waits.append, rng=_Lowest())
    assert waits == [FLOOR_S] * 10


def test_a_policy_without_a_positive_backoff_is_refused() -> None:
    for bad in [{"backoff_s": 0.0}, {"backoff_s": math.nan}, {"backoff_cap_s": 0.0}, {"answer_limit_bytes": 0}]:
        with pytest.raises(ValueError, match="positive backoff"):
            CallPolicy(**bad)  # type: ignore[arg-type]


def test_retry_after_reads_every_form() -> None:
    now = lambda: 1_790_000_000.0  # noqa: E731  (2026)
    assert retry_after_s("5", now) == 5.0
    assert retry_after_s(" 2.5 ", now) == 2.5
    assert retry_after_s("1e9", now) == 1e9
    assert retry_after_s("1e300", now) == 1e9
    assert retry_after_s("inf", now) == 1e9
    assert retry_after_s("5, 10", now) == 10.0
    assert retry_after_s(format_datetime(datetime.fromtimestamp(1_790_000_090, UTC), usegmt=True), now) == 90.0
    assert retry_after_s("Sun, 06 Nov 1994 08:49:37 GMT", now) == 0.0  # a date past: no wait asked
    assert retry_after_s("Sunday, 06-Nov-94 08:49:37 GMT", now) == 0.0
    assert retry_after_s("Sun Nov  6 08:49:37 1994", now) == 0.0
    for garbage in [None, "", "-1", "nan", "-inf", "soon", "5 s", "\x00", "9" * 5000]:
        value = retry_after_s(garbage, now)
        assert value is None or value == 1e9, garbage  # 9...9 reads as a number past any deadline


# --- a token never appears in a message -----------------------------------------------------------------------


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_an_iam_token_no_header_can_carry_is_one_line_without_it_and_never_kept(serve, token: str) -> None:
    server = serve(iam=[json_answer(200, {"access_token": token, "expires_in": 3600}), IAM])
    ibm = server.ibm(TIGHT)
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        ibm.get("i-1")
    text = str(failure.value)
    assert text.startswith("IAM token: the answer's access_token holds characters an HTTP header cannot carry")
    assert "secret-part" not in text and "\n" not in text
    assert hits(server, "/v1/instances/") == 0  # never sent
    assert ibm.get("i-1").status == "running"  # type: ignore[union-attr]  # never kept: the next call asks again


@pytest.mark.parametrize("token", BAD_TOKENS.values(), ids=BAD_TOKENS.keys())
def test_a_kubeconfig_token_no_header_can_carry_is_one_line_without_it(token: str) -> None:
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": "h",
        "clusters": [{"name": "h", "cluster": {"server": "http://127.0.0.1:9"}}],
        "users": [{"name": "u", "user": {"token": token}}],
        "contexts": [{"name": "h", "context": {"cluster": "h", "user": "u"}}],
    }
    with pytest.raises(OperationFailed) as failure:
        KubeClusterClient.connect(json.dumps(config), None, policy=TIGHT)
    text = str(failure.value)
    assert text == "the kubeconfig secret: its user's token holds characters an HTTP header cannot carry"
    assert "secret-part" not in text and "\n" not in text


def test_a_token_refreshed_into_one_no_header_can_carry_fails_the_call_without_it(serve) -> None:
    """An exec plugin or a token file may hand the client a new token after it connected."""
    server = serve(**{"/api/v1/nodes": [json_answer(200, NODE)]})
    kube = server.kube(TIGHT)
    configuration = kube._core.api_client.configuration
    configuration.refresh_api_key_hook = lambda c: c.api_key.update(BearerToken="Bearer " + BAD_TOKENS["crlf"])
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        kube.node("w-1")
    assert str(failure.value) == "read node w-1: the request has a header HTTP cannot carry"


def test_a_kube_reason_phrase_echoing_the_token_is_scrubbed(serve) -> None:
    def echo(h: JsonHandler) -> None:
        h.send_response(401, "Unauthorized token kube-token rejected")
        h.send_header("Content-Length", "0")
        h.end_headers()

    server = serve(**{"/api/v1/nodes": [echo]})
    with pytest.raises(OperationFailed) as failure:
        server.kube(TIGHT).node("w-1")
    assert "kube-token" not in str(failure.value) and "[redacted]" in str(failure.value)


def test_a_bad_iam_token_mid_roll_out_still_rolls_the_worker_back(serve) -> None:
    """The stop's token is one no header can carry: the take-out fails in one line without it, and the worker
    (cordoned, drained, marked) goes back into service: the roll-back is not skipped."""
    world = World({"i-1": "w-1"})
    fresh = json_answer(200, {"access_token": "good-token", "expires_in": 0})  # asked again for every call
    bad = json_answer(200, {"access_token": BAD_TOKENS["crlf"], "expires_in": 3600})
    server = serve(iam=[fresh, bad, fresh], instances=[INSTANCE])
    ops = NodeOps(server.ibm(TIGHT), world.kube, FakeClock(), Timeouts(poll_s=5.0))
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        ops.take_out(Worker(node="w-1", instance_id="i-1", holder="s/w-1"))
    text = str(failure.value)
    assert "secret-part" not in text and "\n" not in text
    assert text.startswith("IAM token: the answer's access_token holds characters")
    assert text.endswith("worker w-1 is running and back in service")
    assert world.events("w-1")[-2:] == ["uncordon", "unmark"] and not world.nodes["w-1"].unschedulable
    assert [m for m, p, _ in server.requests if p.endswith("/actions")] == []  # the stop was never sent


def test_header_safe_admits_real_token_shapes_only() -> None:
    assert header_safe("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln")
    assert header_safe("sha256~AbC-dEf_123")  # an OpenShift OAuth token
    assert not any(header_safe(token) for token in [*BAD_TOKENS.values(), "", "tok\t"])


# --- an answer has a size limit --------------------------------------------------------------------------------

SMALL = CallPolicy(call_deadline_s=2.0, answer_deadline_s=1.0, backoff_s=0.2, answer_limit_bytes=64 * 1024)


def big(length: str, chunked: bool = False, status: int = 200, encoding: str | None = None) -> Answer:
    """About 4 MiB of JSON (a list of strings), announced as ``length`` ("exact", "none", "lie-small")."""
    body = json.dumps({"items": ["x" * 1000] * 4096}).encode()
    payload = gzip.compress(body) if encoding else body

    def answer(h: JsonHandler) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        if encoding:
            h.send_header("Content-Encoding", encoding)
        if chunked:
            h.send_header("Transfer-Encoding", "chunked")
        elif length == "exact":
            h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        try:
            if chunked:
                for start in range(0, len(payload), 65536):
                    piece = payload[start : start + 65536]
                    h.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                h.wfile.write(b"0\r\n\r\n")
            else:
                h.wfile.write(payload)
        except OSError:
            pass  # the client read no further and hung up
        h.close_connection = True

    return answer


@pytest.mark.parametrize(
    ("client", "answer"),
    [
        ("ibm", big("exact")),
        ("ibm", big("none")),
        ("ibm", big("none", chunked=True)),
        ("kube", big("exact")),
        ("kube", big("none")),
        ("kube", big("none", chunked=True)),
        ("kube", big("exact", status=503)),  # the kubernetes client reads an error's body whole
        ("kube", big("none", chunked=True, status=400)),
    ],
    ids=["ibm-length", "ibm-no-length", "ibm-chunked", "length", "no-length", "chunked", "503-body", "400-chunked"],
)
def test_an_answer_past_the_size_limit_is_refused_in_one_line(serve, client: str, answer: Answer) -> None:
    path = "/v1/instances/" if client == "ibm" else "/api/v1/nodes"
    server = serve(instances=[answer]) if client == "ibm" else serve(**{path: [answer]})
    call = (lambda: server.ibm(SMALL).get("i-1")) if client == "ibm" else (lambda: server.kube(SMALL).node("w-1"))
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed) as failure:
        call()
    assert str(failure.value).endswith(f": the answer is larger than {64 * 1024} bytes: not read any further")
    assert "\n" not in str(failure.value)
    assert hits(server, path) == 1  # not retried: the same server would send the same


def test_an_ibm_error_answer_is_read_no_further_than_its_message(serve) -> None:
    server = serve(instances=[big("none", status=400)])
    with (
        hang_bounded(TIGHT.call_deadline_s),
        pytest.raises(OperationFailed, match=r"^GET /v1/instances/i-1: HTTP 400$"),
    ):
        server.ibm(SMALL).get("i-1")


def test_a_compressed_answer_is_not_inflated_into_memory(serve) -> None:
    """4 MiB compress to a few KiB: nothing here asks for compression, so the answer is read as sent."""
    server = serve(**{"/api/v1/nodes": [big("exact", encoding="gzip")]})
    with (
        hang_bounded(TIGHT.call_deadline_s),
        pytest.raises(OperationFailed, match=r"^read node w-1: the answer is not JSON \(\d+ bytes\)"),
    ):
        server.kube(SMALL).node("w-1")


def test_an_answer_within_the_limit_is_read_whole(serve) -> None:
    pods = {"items": [{"metadata": {"namespace": "team", "name": f"p{i}"}} for i in range(300)]}
    server = serve(**{"/api/v1/pods": [json_answer(200, pods)]}, instances=[INSTANCE])
    assert len(server.kube(SMALL).pods_on("w-1")) == 300
    assert server.ibm(SMALL).get("i-1").status == "running"  # type: ignore[union-attr]


def test_the_default_limit_is_16_mib(serve) -> None:
    assert CallPolicy().answer_limit_bytes == ANSWER_LIMIT_BYTES == 16 * 1024 * 1024
    over = json.dumps({"items": ["x" * 1024] * (16 * 1024 + 1)}).encode()

    def answer(h: JsonHandler) -> None:
        h.send_response(200)
        h.end_headers()
        try:
            h.wfile.write(over)
        except OSError:
            pass

    server = serve(instances=[answer])
    with hang_bounded(TIGHT.call_deadline_s), pytest.raises(OperationFailed, match="larger than 16777216 bytes"):
        server.ibm(CallPolicy(call_deadline_s=2.0, answer_deadline_s=1.0, backoff_s=0.2)).get("i-1")
