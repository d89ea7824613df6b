"""How the training-log parser's time grows with its input: it must grow linearly.

    .venv/bin/python tools/bench/runlog_scaling.py

For each kind of input (the real GPU proof log repeated, and lines built to make a backtracking
regular expression or a quadratic join show), the parse of 1x, 4x and 16x the base size is timed,
and the time per megabyte printed with its ratio to the smallest size. Linear parsing keeps the
ratio near 1; quadratic parsing multiplies it by about 4 at each step (the 40 KB line that took 21 s
before issue 18 would show a ratio in the hundreds). A benchmark that prints, never a test.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from experiments.results.runlog import RunLogError, parse_run_logs  # noqa: E402

PROOF = (ROOT / "tests" / "fixtures" / "runs" / "h100-1n-main_ds-proof.log").read_text()

INPUTS: dict[str, Callable[[int], str]] = {
    "real main_ds log, repeated": lambda n: PROOF * n,
    "one line of word characters": lambda n: "a" * (40_000 * n),
    "one line of 'k=' pairs": lambda n: "overall_throughput=1, " * (2_000 * n),
    "NCCL line, inner spaces": lambda n: "x:1:2 [0] NCCL INFO Channel 00 : via " + " " * (40_000 * n) + "y",
    "whitespace-indented rows": lambda n: ("                    step=1, " * 50 + "\n") * (40 * n),
    "unclosed JSON": lambda n: '{"overall_throughput": [' * (2_000 * n),
}


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        try:
            parse_run_logs({"pod": text})
        except RunLogError:
            pass
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    print(f"{'input':32} {'size':>10} {'seconds':>9} {'s/MB':>8} {'ratio':>6}")
    for name, build in INPUTS.items():
        base = None
        for scale in (1, 4, 16):
            text = build(scale)
            seconds = _seconds(text)
            per_mb = seconds / (len(text) / 1e6)
            base = base or per_mb
            print(f"{name:32} {len(text):>10} {seconds:>9.4f} {per_mb:>8.4f} {per_mb / base:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
