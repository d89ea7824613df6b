"""``make bench`` at a small size: the script runs on adopt stacks and prints every figure (never timed)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_preview_scaling_prints_its_figures_at_a_small_size() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench" / "preview_scaling.py"), "--nodes", "1", "2", "--runs", "1"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    ).stdout
    floor = re.search(
        r"^floor: the 2-worker stack's (\d+) recorded resources registered flat .*: ([\d.]+) s CPU, "
        r"[\d.]+ s wall, (\d+) MiB$",
        out,
        re.M,
    )
    assert floor, out
    typed = re.search(r"^typed floor: the same, .*: ([\d.]+) s CPU, (\d+) MiB \([\d.]+x the floor\)$", out, re.M)
    assert typed, out
    for lanes in ("4 lanes", "one lane"):  # the targets of the largest size, against both floors
        assert re.search(
            rf"^cold preview, 2 workers, {lanes}: [\d.]+x the floor \(target <= 2x: (not )?met\), [\d.]+x the typed "
            rf"floor; \d+ MiB \(target <= 350: (not )?met; the typed floor alone {typed.group(2)}\)$",
            out,
            re.M,
        ), out
    row = (
        r"^\| cold preview, (\d+) workers, (4 lanes|one lane) \| (\d+) \| ([\d.]+) \| [\d.]+ \| (\d+) \| ([\d.]+)x \|$"
    )
    rows = {(int(m.group(1)), m.group(2)): m.groups() for m in re.finditer(row, out, re.M)}
    assert sorted(rows) == [(1, "4 lanes"), (1, "one lane"), (2, "4 lanes"), (2, "one lane")], out
    for lanes in ("4 lanes", "one lane"):
        # One more worker: 8 reserved IPs and 8 attachments, its out-of-service and in-service steps, its
        # AdoptedWorker component and its claim (a Lease).
        assert int(rows[2, lanes][2]) - int(rows[1, lanes][2]) == 8 * 2 + 2 + 1 + 1
    assert int(rows[2, "4 lanes"][2]) == int(floor.group(1))  # the floor replays the largest stack's record
    assert re.search(r"^lanes: 4 and 1 \(not the issue's 16: the product refuses more than 4", out, re.M), out
    whole = ("warm preview, 2", "cold preview, 2", "cold diff of two 2-worker", "warm diff of two 2-worker")
    for measured in whole:
        assert re.search(
            rf"^\| {measured}.* \(whole command\) \|  \| [\d.]+ \| [\d.]+ \| \d+ \| [\d.]+x \|$", out, re.M
        ), out
    ratio = re.search(
        r"^cold diff / cold preview, whole commands \(best wall of 1 each, in turn\): [\d.]+ s / [\d.]+ s = "
        r"[\d.]+x wall, [\d.]+x CPU\n  that diff: (a|no) second core was free just before it.*; its CPU / wall "
        r"[\d.]+ .*; a second core free before (0|1) of 1 cold diffs .*; load average now [\d.]+$",
        out,
        re.M,
    )
    assert ratio and (ratio.group(1) == "a") == (ratio.group(2) == "1"), out
    assert re.search(
        r"^CPU per worker \(ms\): 4 lane\(s\), 1 -> 2 workers: -?[\d.]+ ms; "
        r"1 lane\(s\), 1 -> 2 workers: -?[\d.]+ ms$",
        out,
        re.M,
    ), out
    assert re.search(r"^python -m experiments --help \(whole command\): [\d.]+ s CPU$", out, re.M), out
