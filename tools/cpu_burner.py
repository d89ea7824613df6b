"""Keep every core busy for a bounded time: ``make test-loaded`` runs the test suite beside it (issue 38), so
that a hang check that holds there holds on a CI machine whose load nobody controls.

    python tools/cpu_burner.py --seconds 900 [--workers N]

One spinning process per core (``--workers``, default: every core).  The burner ends at the first of:
``--seconds`` passed (it exits by itself, however it was started); SIGTERM, SIGINT or SIGHUP (the target's
trap sends SIGTERM when the tests end, fail or are interrupted); its own parent gone.  Each spinning
process also stops once the burner is gone, even killed with SIGKILL: nothing is left spinning.  It prints
one line when it starts (its processes' ids) and one when it stops (how long it ran)."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import signal
import sys
import time
from types import FrameType

MAX_SECONDS = 3600.0
"""The longest a burner may run: longer than any run of the suite, short enough to end a forgotten one."""
CHECK_EVERY = 200_000
"""Spins between two looks at the clock and the parent: about 10 ms of one core."""


STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def spin(seconds: float, burner: int) -> None:
    """Busy until ``seconds`` have passed or the burner that started this process is gone."""
    for signum in STOPPING:  # nothing to clean up here: a signal ends this process at once
        signal.signal(signum, signal.SIG_DFL)
    until = time.monotonic() + seconds
    count = 0
    while time.monotonic() < until and os.getppid() == burner:
        for _ in range(CHECK_EVERY):
            count += 1


def _seconds(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most {MAX_SECONDS:g}")
    return value


def _workers(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 1024:
        raise argparse.ArgumentTypeError("must be a whole number from 1 to 1024")
    return value


def _stop(signum: int, frame: FrameType | None) -> None:
    # One signal is enough (Ctrl-C reaches the burner and the target's trap alike): a second one must not cut
    # the clean-up short and leave a spinning process behind.
    for other in STOPPING:
        signal.signal(other, signal.SIG_IGN)
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=_seconds, required=True, help="stop after this long at the latest")
    parser.add_argument("--workers", type=_workers, default=os.cpu_count() or 1, help="spinning processes")
    args = parser.parse_args(argv)
    # A background job of a non-interactive shell starts with SIGINT ignored: handled here all the same.
    for signum in STOPPING:
        signal.signal(signum, _stop)
    parent, start = os.getppid(), time.monotonic()
    context = multiprocessing.get_context("fork")
    spinners = [
        context.Process(target=spin, args=(args.seconds, os.getpid()), daemon=True) for _ in range(args.workers)
    ]
    try:
        for spinner in spinners:
            spinner.start()
        pids = " ".join(str(s.pid) for s in spinners)
        busy = f"{args.workers} processes busy for at most {args.seconds:g} s"
        print(f"cpu_burner: pid {os.getpid()}, {busy} (pids {pids})", flush=True)
        while any(s.is_alive() for s in spinners) and os.getppid() == parent:
            time.sleep(0.2)
    finally:
        started = [spinner for spinner in spinners if spinner.pid is not None]
        for spinner in started:
            spinner.kill()
        for spinner in started:
            spinner.join()
        print(f"cpu_burner: stopped after {time.monotonic() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
