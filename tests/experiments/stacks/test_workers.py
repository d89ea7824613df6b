"""``stack workers`` (the exit handler's report) asking the cluster for its Nodes through the one kube client:
bounded by ``--timeout``, names and states from the cluster escaped, credentials never printed; a failed check
is one line and the state report still stands (exit 0: the exit handler must report whatever the cluster does)."""

from __future__ import annotations

import time

import pytest

from experiments.cli.main import main

from ..incluster.test_steps import checkpoint
from ..kube_standin import Cluster, StandIn

TOKEN = "sha256~operator-token-0123456789"


def workers(tmp_path, cluster: Cluster, *extra: str) -> int:
    state = tmp_path / "state"
    checkpoint(state, "h100-2n-sriov", started=False)
    with StandIn(cluster) as standin:
        return main(["stack", "workers", "h100-2n-sriov", "--state-dir", str(state), "--context", "standin",
                     "--kubeconfig", str(standin.kubeconfig(tmp_path, token=TOKEN)), *extra])


def test_hostile_nodes_are_read_without_a_traceback_and_printed_escaped(tmp_path, capsys) -> None:
    cluster = Cluster(nodes={
        "gpu-node-0": {"metadata": {"name": "gpu-node-0"}, "spec": "garbage",
                       "status": {"conditions": [{"type": "Ready", "status": "\x1b[31mTrue"}, "x"]}},
        "other": {"metadata": {"name": "\x1b]0;owned\x07"}, "status": {"conditions": "not a list"}},
        "broken": {"metadata": "not an object"}})
    assert workers(tmp_path, cluster) == 0
    out = capsys.readouterr().out
    assert "node gpu-node-0: Ready=\\x1b[31mTrue" in out and "node gpu-node-1: not in the cluster" in out
    assert "\x1b" not in out and TOKEN not in out
    assert "worker gpu-node-1 (i-w1): STOPPED by this stack (no start recorded)" in out


@pytest.mark.slow
def test_a_stalled_cluster_ends_the_node_check_at_the_timeout_and_the_report_stands(tmp_path, capsys) -> None:
    started = time.monotonic()
    code = workers(tmp_path, Cluster(stall=("/api/v1/nodes",)), "--timeout", "2")
    out = capsys.readouterr().out
    assert code == 0 and time.monotonic() - started < 15
    (line,) = [line for line in out.splitlines() if "nodes: not checked" in line]
    assert "no answer in time" in line or "--timeout" in line
    assert "worker gpu-node-1 (i-w1): STOPPED" in out and TOKEN not in out
