"""``stack workers`` (the exit handler's report) asking the cluster for its Nodes through the one kube client:
bounded by ``--timeout``, names and states from the cluster escaped, credentials never printed; a failed check
is one line and the state report still stands (exit 0: the exit handler must report whatever the cluster does)."""

from __future__ import annotations

import time

import pytest

from experiments.cli.main import main
from tests.timing import hang_bound

from ..incluster.test_steps import checkpoint
from ..kube_standin import Cluster, StandIn

TOKEN = "sha256~operator-token-0123456789"


def workers(tmp_path, cluster: Cluster, *extra: str) -> int:
    state = tmp_path / "state"
    checkpoint(state, "h100-2n-sriov", started=False)
    with StandIn(cluster) as standin:
        return main(
            [
                "stack",
                "workers",
                "h100-2n-sriov",
                "--state-dir",
                str(state),
                "--context",
                "standin",
                "--kubeconfig",
                str(standin.kubeconfig(tmp_path, token=TOKEN)),
                *extra,
            ]
        )


def test_hostile_nodes_are_read_without_a_traceback_and_printed_escaped(tmp_path, capsys) -> None:
    cluster = Cluster(
        nodes={
            "gpu-node-0": {
                "metadata": {"name": "gpu-node-0"},
                "spec": "garbage",
                "status": {"conditions": [{"type": "Ready", "status": "\x1b[31mTrue"}, "x"]},
            },
            "other": {"metadata": {"name": "\x1b]0;owned\x07"}, "status": {"conditions": "not a list"}},
            "broken": {"metadata": "not an object"},
        }
    )
    assert workers(tmp_path, cluster) == 0
    out = capsys.readouterr().out
    assert "node gpu-node-0: Ready=\\x1b[31mTrue" in out and "node gpu-node-1: not in the cluster" in out
    assert "\x1b" not in out and TOKEN not in out
    assert "worker gpu-node-1 (i-w1): OUT OF SERVICE, left by this stack" in out


@pytest.mark.slow
def test_a_stalled_cluster_ends_the_node_check_at_the_timeout_and_the_report_stands(tmp_path, capsys) -> None:
    started = time.monotonic()
    code = workers(tmp_path, Cluster(stall=("/api/v1/nodes",)), "--timeout", "2")
    out = capsys.readouterr().out
    assert code == 0 and time.monotonic() - started < hang_bound(2)
    (line,) = [line for line in out.splitlines() if "nodes: not checked" in line]
    assert "no answer in time" in line or "--timeout" in line
    assert "worker gpu-node-1 (i-w1): OUT OF SERVICE" in out and TOKEN not in out


def test_the_report_reads_the_checkpoint_the_current_program_writes(tmp_path) -> None:
    """The rolling steps as the program registers them (types, URNs, inputs from its preview), recorded as an
    ``up`` records them: each worker taken out, the first brought back, the second not (a failed run)."""
    import json

    from experiments.stacks.backend import read_stack_state, worker_report
    from experiments.stacks.stackfile import load_stack
    from experiments.state.preview import run_preview

    steps = [
        r
        for r in run_preview(load_stack("h100-2n-sriov")).result.resources
        if r.type.rsplit(":", 1)[-1] in ("WorkerOutOfService", "WorkerInService")
    ]
    workers = sorted({r.inputs["node"] for r in steps})
    assert len(workers) == 2 and len(steps) == 4
    resources = []
    for r in steps:
        inputs = {k: v for k, v in r.inputs.items() if k != "__provider"}
        token = f"token-{inputs['node']}"
        if r.type.endswith(":WorkerInService"):
            if inputs["node"] == workers[1]:
                continue  # the run failed before this worker came back
            inputs["out_of_service_token"] = token
        outputs = {**inputs, "token": token if r.type.endswith(":WorkerOutOfService") else "again"}
        resources.append({"urn": r.urn, "type": r.type, "inputs": inputs, "outputs": outputs})
    path = tmp_path / ".pulumi" / "stacks" / "gpu-cluster" / "h100-2n-sriov.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 3, "checkpoint": {"latest": {"resources": resources}}}))
    lines = worker_report(read_stack_state(tmp_path, "h100-2n-sriov"))
    ids = {r.inputs["node"]: r.inputs["instance_id"] for r in steps}
    assert lines[0] == f"worker {workers[0]} ({ids[workers[0]]}): taken out and brought back (in service)"
    assert lines[1].startswith(f"worker {workers[1]} ({ids[workers[1]]}): OUT OF SERVICE, left by this stack")
    assert len(lines) == 2
