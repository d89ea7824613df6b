"""Every step of a rendered Workflow, run as written (its container's args) against the Kubernetes API stand-in
and a fake Automation API workspace: the pod's paths point into a temporary directory, nothing else changes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

from experiments.cli.main import main
from experiments.incluster.argo import RECORD_PATH
from experiments.incluster.settings import PROGRAM_DIR, STATE_MOUNT
from experiments.results.store import ResultsStore
from experiments.stacks import automation

from ..kube_standin import Cluster, StandIn
from .test_argo import render, templates, two_cells_on_one_machineset

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# The proof run's log as the 16 ranks of a cell's job (2 nodes x 8 GPUs) would report them.
GPU_LOG = re.sub(r"nRanks \d+", "nRanks 16", (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text())
OUT_TYPE = "pulumi-python:dynamic/gpu-cluster:WorkerOutOfService"
IN_TYPE = "pulumi-python:dynamic/gpu-cluster:WorkerInService"


def checkpoint(state: Path, stack: str, *, started: bool) -> None:
    """What an ``up`` of an adopting cell leaves in the file backend: the rolling steps of two workers, each taken
    out of service; w0 brought back, w1 too once ``started`` (as the program's steps record them)."""
    resources = [
        {
            "urn": f"urn:pulumi:{stack}::gpu-cluster::pulumi:pulumi:Stack::gpu-cluster-{stack}",
            "type": "pulumi:pulumi:Stack",
            "outputs": {"nodes": ["gpu-node-0", "gpu-node-1"], "instanceIds": ["i-w0", "i-w1"]},
        }
    ]
    for i, back in enumerate([True, started]):
        worker = {"node": f"gpu-node-{i}", "instance_id": f"i-w{i}", "holder": f"gpu/gpu-node-{i}"}
        resources.append(
            {
                "urn": f"urn:pulumi:{stack}::gpu-cluster::{OUT_TYPE}::gpu-gpu-node-{i}-out-of-service",
                "type": OUT_TYPE,
                "inputs": worker,
                "outputs": {**worker, "token": f"t{i}"},
            }
        )
        if back:
            inputs = {**worker, "out_of_service_token": f"t{i}"}
            resources.append(
                {
                    "urn": f"urn:pulumi:{stack}::gpu-cluster::{IN_TYPE}::gpu-gpu-node-{i}-in-service",
                    "type": IN_TYPE,
                    "inputs": inputs,
                    "outputs": {**inputs, "token": f"u{i}"},
                }
            )
    path = state / ".pulumi" / "stacks" / "gpu-cluster" / f"{stack}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 3, "checkpoint": {"stack": stack, "latest": {"resources": resources}}}))


def lock_dir(state: Path, stack: str) -> Path:
    return state / ".pulumi" / "locks" / "organization" / "gpu-cluster" / stack


class FakeStack:
    def __init__(self, calls: list[tuple[str, str]], name: str, state: Path) -> None:
        self.calls, self.name, self.state = calls, name, state

    def set_all_config(self, config: dict[str, Any]) -> None:
        cluster = json.loads(config["gpu-cluster:cluster"].value)
        self.calls.append(("config", f"{self.name}:{cluster['network']['variant']}"))

    def up(self, *, on_event: Any) -> Any:
        self.calls.append(("up", self.name))
        checkpoint(self.state, self.name, started=True)
        return SimpleNamespace(summary=SimpleNamespace(resource_changes={"create": 12}))

    def destroy(self, *, on_event: Any) -> Any:
        self.calls.append(("destroy", self.name))
        return SimpleNamespace(summary=SimpleNamespace(resource_changes={"delete": 12}))

    def cancel(self) -> None:
        self.calls.append(("cancel", self.name))
        for lock in lock_dir(self.state, self.name).glob("*.json"):
            lock.unlink()


@pytest.fixture
def workspace(monkeypatch, tmp_path) -> Any:
    calls: list[tuple[str, str]] = []

    class Factory:
        def __init__(self, secrets_provider: str | None = None, use: Any = None) -> None:
            pass

        def preflight(self) -> None:
            calls.append(("preflight", ""))

        def create_or_select(self, stack_name: str, program: Any, env_vars: dict[str, str], work_dir: Path) -> Any:
            assert program is automation.inline_program
            state = Path(env_vars["PULUMI_BACKEND_URL"].removeprefix("file://"))
            return FakeStack(calls, stack_name, state)

    monkeypatch.setattr(automation, "LocalStackFactory", Factory)
    return calls


PROJECT = Path(__file__).resolve().parents[3]


def pod_args(template: dict[str, Any], root: Path, stacks: dict[str, str]) -> list[str]:
    """The container's args with the pod's mounts pointing into ``root``: the state under ``root/state``,
    and the image's project (``root/app``: the program's Pulumi.yaml) with exactly the stack files this
    template mounts beside it (``subPath``), as the pod sees them."""
    app = root / "app"
    for stale in app.glob("Pulumi.*.yaml"):
        stale.unlink()
    for mount in template["container"]["volumeMounts"]:
        if mount["name"] == "stacks":
            assert mount["mountPath"] == f"{PROGRAM_DIR}/{mount['subPath']}" and mount["readOnly"]
            (app / mount["subPath"]).write_text(stacks[mount["subPath"]])
    mapped = [
        a.replace(RECORD_PATH, str(root / "record.json")).replace(STATE_MOUNT + "/", str(root / "state") + "/")
        for a in template["container"]["args"]
    ]
    return [*mapped, "--poll", "0.01"] if mapped[0] == "run" else mapped


def test_each_step_names_its_cell_as_a_project_stack_mounted_beside_pulumi_yaml(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    (workflow,) = yaml.safe_load_all((out / "workflow.yaml").read_text())
    steps = [t for t in workflow["spec"]["templates"] if "container" in t]
    assert steps
    for template in steps:
        cell = template["name"].split("-", 1)[1]
        mounts = [m for m in template["container"]["volumeMounts"] if m["name"] == "stacks"]
        assert mounts == [
            {
                "name": "stacks",
                "mountPath": f"{PROGRAM_DIR}/Pulumi.{cell}.yaml",
                "subPath": f"Pulumi.{cell}.yaml",
                "readOnly": True,
            }
        ]
        args = template["container"]["args"]
        assert cell in args and not any(a.endswith(".yaml") for a in args)


@pytest.mark.slow
def test_every_step_runs_offline_in_order_and_the_exit_handler_unlocks_and_reports(
    tmp_path, monkeypatch, workspace, capsys
) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    setup = list(yaml.safe_load_all((out / "setup.yaml").read_text()))
    (workflow,) = yaml.safe_load_all((out / "workflow.yaml").read_text())
    stacks = next(o for o in setup if o["metadata"]["name"].startswith("gpu-cluster-stacks"))["data"]
    root = tmp_path / "pod"
    (root / "app").mkdir(parents=True)
    (root / "app" / "Pulumi.yaml").write_text((PROJECT / "Pulumi.yaml").read_text())
    monkeypatch.setattr("experiments.stacks.stackfile.PROJECT_ROOT", root / "app")  # the image's /app
    by_name = templates(workflow)
    cluster = Cluster(
        master_log=GPU_LOG,
        worker_log=GPU_LOG,
        nodes={
            "gpu-node-0": {
                "metadata": {"name": "gpu-node-0"},
                "spec": {},
                "status": {"conditions": [{"type": "Ready", "status": "True"}]},
            },
            "gpu-node-1": {
                "metadata": {"name": "gpu-node-1"},
                "spec": {"unschedulable": True},
                "status": {"conditions": [{"type": "Ready", "status": "False"}]},
            },
        },
    )
    with StandIn(cluster) as standin:
        # The pod's KUBECONFIG is set before the process starts; the client reads it once, at import.
        kubeconfig = str(standin.kubeconfig(tmp_path))
        monkeypatch.setenv("KUBECONFIG", kubeconfig)
        monkeypatch.setattr("kubernetes.config.kube_config.KUBE_CONFIG_DEFAULT_LOCATION", kubeconfig)
        for chain in by_name["sweep"]["steps"][0]:
            for (cell_step,) in by_name[chain["template"]]["steps"]:
                cluster.worker_log = f"{GPU_LOG}worker of {cell_step['name']}\n"  # each run's own logs
                for (step,) in by_name[cell_step["template"]]["steps"]:
                    args = pod_args(by_name[step["template"]], root, stacks)
                    assert main(args) == 0, (args, capsys.readouterr())
                    if step["name"] == "record":
                        record = json.loads((root / "record.json").read_text())
                        assert [r["stack"] for r in record["runs"]] == [cell_step["name"]]
        # A step killed mid-update: the second cell left a worker stopped and its lock behind.
        second = "sweep-h100-2n-sriov-rdma-1nic"
        checkpoint(root / "state" / "pulumi", second, started=False)
        lock_dir(root / "state" / "pulumi", second).mkdir(parents=True)
        (lock_dir(root / "state" / "pulumi", second) / "abc.json").write_text(
            json.dumps({"pid": 7, "username": "app", "hostname": "up-pod", "timestamp": "2026-11-25T10:00:00Z"})
        )
        capsys.readouterr()
        for group in by_name["leave-clean"]["steps"]:
            for step in group:
                assert main(pod_args(by_name[step["template"]], root, stacks)) == 0
    report = capsys.readouterr().out
    first = "sweep-h100-2n-sriov-1nic"
    operations = [c for c in workspace if c[0] in ("up", "destroy", "cancel")]
    assert operations == [("up", first), ("destroy", first), ("up", second), ("destroy", second), ("cancel", second)]
    assert ("config", f"{first}:sriov") in workspace and ("config", f"{second}:sriov-rdma") in workspace
    runs = ResultsStore(root / "state" / "results.sqlite").runs()
    assert [r.stack for r in runs] == [first, second] and all(len(r.fingerprint) == 16 for r in runs)
    assert f"{first}: not locked" in report and "removing the lock of app@up-pod (pid 7)" in report
    assert f"{second}: worker gpu-node-1 (i-w1): OUT OF SERVICE, left by this stack" in report
    assert f"{second}: worker gpu-node-0 (i-w0): taken out and brought back (in service)" in report
    assert f"{second}: node gpu-node-1: Ready=False, cordoned" in report
    assert not list(lock_dir(root / "state" / "pulumi", second).glob("*.json"))
