"""How both REST clients call a remote API: retried where a retry can help, with backoff and jitter,
within a total deadline per call and the step's own, and with a deadline on the whole answer.

* Retried: HTTP 5xx, 429 (waiting what ``Retry-After`` asks, when it fits the deadline), connection
  resets and refusals, timeouts and answers cut short.  Not retried: any other status, and an answer
  that is not what the API sends (HTML, a JSON array or number, nesting past any real object).
* Backoff: full jitter (a random wait below ``base * 2**attempt``, capped), as AWS's "Exponential
  Backoff And Jitter" describes it: clients that failed together do not come back together.
* Whole-answer deadline: a socket timeout bounds each read, so a server trickling a byte every half
  second would hold a call as long as it liked.  ``Watchdog`` shuts the call's sockets down once its
  deadline passes, wherever the call is (connecting, the status line, the headers, the body).
"""

from __future__ import annotations

import random
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from components.ops.ports import OperationFailed

__all__ = ["CallPolicy", "Transient", "Watchdog", "call_with_retries", "retry_after_s"]

T = TypeVar("T")


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
    backoff_cap_s: float = 30.0
    step_deadline: float | None = None
    """Epoch seconds (``time.time``) by which the step that makes the call must be done: no call outlives it."""


def retry_after_s(value: str | None) -> float | None:
    """``Retry-After`` in seconds (the delay form; a date or garbage counts as absent)."""
    try:
        seconds = float(str(value).strip())
    except ValueError:
        return None
    return seconds if 0 <= seconds < 86_400 else None


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
            wait = failure.retry_after_s
            if wait is None:
                wait = rng.uniform(0, min(policy.backoff_cap_s, policy.backoff_s * 2 ** (tries - 1)))
            if time.monotonic() + wait + shortest >= end:
                asked = f" (the server asked to wait {wait:.0f} s)" if failure.retry_after_s is not None else ""
                raise OperationFailed(
                    f"{what}: {failure}{asked}; gave up after {tries} attempt(s) in {time.monotonic() - start:.0f} s"
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
