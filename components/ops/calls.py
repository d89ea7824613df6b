"""How both REST clients call a remote API: retried where a retry can help, with backoff and jitter,
within a total deadline per call and the step's own, and with a deadline and a size limit on the whole answer.

* Retried: HTTP 5xx, 429 (waiting what ``Retry-After`` asks, when it fits the deadline), connection
  resets and refusals, timeouts and answers cut short.  Not retried: any other status, and an answer
  that is not what the API sends (HTML, a JSON array or number, nesting past any real object, more
  than ``answer_limit_bytes``).
* The deadline is ours, whatever the server says: a ``Retry-After`` that would outlast it (a delay of
  any size, or an HTTP date) ends the call at once, saying what the server asked; no library under the
  clients waits on its own (``NO_RETRIES``).
* Backoff: equal jitter (half of ``base * 2**attempt``, capped, plus a random part up to the other half),
  as AWS's "Exponential Backoff And Jitter" describes it: clients that failed together do not come back
  together, and no wait drops below a floor: half the first backoff, and never less than ``FLOOR_S``
  whatever the policy (AWS's SDKs start at 100 ms too).  A ``Retry-After`` may ask for longer, never for
  less: ``503 Retry-After: 0`` does not turn the retries into a flood.
* Whole-answer deadline: a socket timeout bounds each read, so a server trickling a byte every half
  second would hold a call as long as it liked.  ``Watchdog`` shuts the call's sockets down once its
  deadline passes, wherever the call is (connecting, the status line, the headers, the body).
* Size limit, tokens a header can carry, secrets kept out of messages: ``components.ops.transport``.
"""

from __future__ import annotations

import math
import random
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import TypeVar

from components.ops.ports import OperationFailed

__all__ = ["ANSWER_LIMIT_BYTES", "FLOOR_S", "CallPolicy", "Transient", "Watchdog", "call_with_retries", "retry_after_s"]

T = TypeVar("T")

ANSWER_LIMIT_BYTES = 16 * 1024 * 1024
"""The most of one answer read.  The largest the rolling steps ask for, the pods of one node (at most 250
on OpenShift, a few KiB each) or the Machines of a 1024-node cluster, stay well below it."""
FLOOR_S = 0.1
"""No retry comes sooner than this after a failure, whatever the policy or the server says."""
LONGEST_WAIT_S = 1e9
"""Any ``Retry-After`` longer than this (``inf``, a date centuries ahead) reads as this: far past any deadline."""


class Transient(Exception):
    """A failure worth another attempt; ``retry_after_s``: what the server asked to wait, if it did."""

    def __init__(self, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class CallPolicy:
    call_deadline_s: float = 120.0
    """All attempts of one call together, waits included."""
    answer_deadline_s: float = 60.0
    """One attempt, from connecting to the last byte of the answer."""
    backoff_s: float = 1.0
    """The first retry waits between half this and this; each later one up to twice as long as the one before."""
    backoff_cap_s: float = 30.0
    step_deadline: float | None = None
    """Epoch seconds (``time.time``) by which the step that makes the call must be done: no call outlives it."""
    answer_limit_bytes: int = ANSWER_LIMIT_BYTES
    """The most of one answer read (status line, headers and body)."""

    def __post_init__(self) -> None:
        if not (self.backoff_s > 0 and self.backoff_cap_s > 0 and self.answer_limit_bytes > 0):
            raise ValueError("a call policy needs a positive backoff, backoff cap and answer limit")

    def backoff(self, tries: int, rng: random.Random) -> float:
        """The wait after ``tries`` failed attempts: never below half the first backoff, nor ``FLOOR_S``."""
        ceiling = min(self.backoff_cap_s, self.backoff_s * 2.0 ** min(tries - 1, 64))
        return max(FLOOR_S, ceiling / 2) + rng.uniform(0, ceiling / 2)


def retry_after_s(value: str | None, now: Callable[[], float] = time.time) -> float | None:
    """What ``Retry-After`` asks to wait, in seconds: its delay form (any number from 0 up, however large:
    one that outlasts the deadline ends the call, it is not ignored), or its HTTP-date form (the time until
    then, 0 for a date past).  A repeated header (values joined by commas): the longest wait asked.  None:
    no header, or nothing readable in it (a negative or NaN delay, garbage): the backoff alone applies."""
    if value is None:
        return None
    waits = [wait for part in str(value)[:512].split(",") if (wait := _wait(part.strip(), now)) is not None]
    return max(waits) if waits else None


def _wait(text: str, now: Callable[[], float]) -> float | None:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
        try:
            date = parsedate_to_datetime(text)
            when = date.timestamp() if date.tzinfo else date.replace(tzinfo=UTC).timestamp()
            seconds = max(0.0, when - now())
        except (TypeError, ValueError, OverflowError, IndexError):
            return None
    if math.isnan(seconds) or seconds < 0:
        return None
    return min(seconds, LONGEST_WAIT_S)


def call_with_retries(
    attempt: Callable[[float], T],
    what: str,
    policy: CallPolicy,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> T:
    """``attempt(seconds_left)`` until it returns, raises anything but ``Transient``, or no attempt fits."""
    rng = rng or random.Random()
    start = time.monotonic()
    end = start + policy.call_deadline_s
    if policy.step_deadline is not None:
        end = min(end, start + policy.step_deadline - time.time())
    shortest = min(1.0, policy.answer_deadline_s / 2)
    """An attempt with less time than this would fail for want of it, hiding the reason of the one before."""
    tries = 0
    while True:
        left = end - time.monotonic()
        if left < shortest:
            raise OperationFailed(f"{what}: no time left within the step's deadline")
        tries += 1
        try:
            return attempt(min(left, policy.answer_deadline_s))
        except Transient as failure:
            asked = failure.retry_after_s
            own = policy.backoff(tries, rng)
            wait = own if asked is None else max(asked, own)  # the server may ask for longer, never for less
            if time.monotonic() + wait + shortest >= end:
                said = f" (the server asked to wait {asked:.0f} s)" if asked is not None and asked >= own else ""
                raise OperationFailed(
                    f"{what}: {failure}{said}; gave up after {tries} attempt(s) in {time.monotonic() - start:.0f} s"
                ) from None
            sleep(wait)


class Watchdog:
    """Remembers the sockets a client opens and shuts them down when a call's answer deadline passes,
    so that a blocked read returns at once, however slowly the server trickles."""

    def __init__(self) -> None:
        self._sockets: weakref.WeakSet[socket.socket] = weakref.WeakSet()
        self._lock = threading.Lock()
        self.fired = False

    def register(self, sock: socket.socket | None) -> None:
        if sock is not None:
            with self._lock:
                self._sockets.add(sock)

    def _cut(self) -> None:
        with self._lock:
            self.fired = True
            sockets = list(self._sockets)
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already closed

    @contextmanager
    def bounding(self, seconds: float) -> Iterator[None]:
        """Within: one attempt.  A failure after the deadline cut it becomes a ``Transient`` timeout."""
        self.fired = False
        timer = threading.Timer(max(seconds, 0.0), self._cut)
        timer.daemon = True
        timer.start()
        try:
            yield
        except Exception:
            if self.fired:
                raise Transient(f"no whole answer within {seconds:.0f} s") from None
            raise
        finally:
            timer.cancel()
        if self.fired:  # the answer was complete before the cut took effect, but only just: use it
            self.fired = False
