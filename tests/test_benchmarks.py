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
        check=True, capture_output=True, text=True, cwd=ROOT, timeout=300,
    ).stdout
    row = r"^\| (\d+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| [\d.]+ \| (\d+)x \| ([\d.-]*) \| ([\d.]+) \| (\d+) \|$"
    rows = {int(m.group(1)): m.groups() for m in re.finditer(row, out, re.M)}
    assert sorted(rows) == [1, 2], out
    # One more worker: 8 reserved IPs and 8 attachments, its out-of-service and in-service steps, its
    # AdoptedWorker component and its claim (a Lease).
    assert int(rows[2][1]) - int(rows[1][1]) == 8 * 2 + 2 + 1 + 1
    assert rows[1][5] == "" and re.fullmatch(r"-?\d+\.\d", rows[2][5])  # per node, from the size before (noisy)
    assert re.search(r"^diff of two 2-node stacks \(whole command\): [\d.]+ s$", out, re.M), out
    assert re.search(r"^python -m experiments --help \(whole command\): [\d.]+ s$", out, re.M), out
    assert "issue 20 item 7" not in out  # the targets are judged at 256 nodes only
