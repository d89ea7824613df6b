"""The one bound a hang check in the tests compares wall-clock time with (issue 38).

A hang check asks "did the call end, or would it have hung?", not "was the machine fast?".  Its bound sits
far above the deadline it checks: ``HANG_FACTOR`` times it and ``HANG_FLOOR_S`` more than it, whichever is
larger, so that a loaded CI machine (xdist workers on every core, a burner beside them) never trips it, while
a call that ignores its deadline (a stand-in stalls or trickles far longer than the bound) still does.  That
the call ended *because of* its deadline is asserted through what the code reports: the attempt count, the
"within N s" or "--timeout" in its message.  ``tests/test_timing_rule.py`` refuses any other bound."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["HANG_FACTOR", "HANG_FLOOR_S", "hang_bound", "hang_bounded"]

HANG_FACTOR = 10
HANG_FLOOR_S = 10.0


def hang_bound(deadline_s: float) -> float:
    """Seconds within which a call whose own deadline is ``deadline_s`` must have ended."""
    return max(HANG_FACTOR * deadline_s, deadline_s + HANG_FLOOR_S)


@contextmanager
def hang_bounded(deadline_s: float) -> Iterator[None]:
    """The block ends within ``hang_bound(deadline_s)`` (checked when it ends, raising or not)."""
    start = time.monotonic()
    try:
        yield
    finally:
        elapsed = time.monotonic() - start
        assert elapsed < hang_bound(deadline_s), f"took {elapsed:.1f} s with a deadline of {deadline_s} s"
