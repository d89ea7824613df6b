"""``python -m experiments sweep``: the matrix, the offline path end to end, and the Automation
API glue up to the CLI boundary (a fake workspace, a stub CLI, and no CLI at all)."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml
from pulumi import automation as auto
from pulumi.automation.errors import CommandError
from pulumi.automation.events import EngineEvent, OpType

from components.models.config import PROJECT
from experiments.base.console import plain_console
from experiments.base.errors import InputError
from experiments.cli import sweep as sweep_cli
from experiments.cli.parser import add_sweep_parser
from experiments.offline.engine import EngineResult, run_offline
from experiments.stacks import automation, preflight
from experiments.stacks.automation import CLI_MISSING, EventCounter, inline_program
from experiments.stacks.stackfile import load_stack
from experiments.state import preview as preview_module
from experiments.state.identity import stack_fingerprint
from experiments.state.preview import run_preview
from experiments.sweep import cells, matrix

from ...conftest import PROJECT_ROOT, cluster_config, simulated_cluster_of_config

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sweep"
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHsweepTestKey0000000000000000000000000000 sweep@test"


def sweep_main(argv: list[str], factory: Any = None) -> tuple[int, str, str]:
    """The CLI's contract for a subcommand: bad input (InputError) -> message on stderr, exit 2."""
    parser = argparse.ArgumentParser(prog="python -m experiments")
    add_sweep_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["sweep", *argv])
    out, err = io.StringIO(), io.StringIO()
    try:
        code = sweep_cli.run(args, plain_console(file=out, width=120), factory=factory)
    except InputError as error:
        print(f"error: {error}", file=err)
        code = 2
    return code, out.getvalue(), err.getvalue()


def spec(*argv: str) -> cells.SweepSpec:
    parser = argparse.ArgumentParser()
    add_sweep_parser(parser.add_subparsers(dest="command"))
    return matrix.spec_from_args(parser.parse_args(["sweep", *argv]))


def rows_by_stack(path: Path) -> dict[str, dict[str, Any]]:
    return {row["stack"]: row for row in json.loads(path.read_text())["cells"]}


# ---- the offline path, end to end --------------------------------------------------------------------


@pytest.fixture(scope="module")
def offline_sweep(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("offline")
    l40s = sweep_main(["--offline", "--matrix", str(FIXTURES / "l40s.yaml"), "--out", str(out / "l40s.json")])
    h100 = sweep_main(
        ["--offline", "--profile", "h100", "--variant", "sriov-rdma", "--nodes", "2", "--out", str(out / "h100.json")]
    )
    return {
        "l40s": l40s,
        "h100": h100,
        "rows": {**rows_by_stack(out / "l40s.json"), **rows_by_stack(out / "h100.json")},
    }


def test_offline_sweep_runs_every_valid_cell(offline_sweep) -> None:
    assert offline_sweep["l40s"][0] == 0 and offline_sweep["h100"][0] == 0
    rows = offline_sweep["rows"]
    assert list(rows) == [
        "sweep-l40s-1n-pod",
        "sweep-l40s-2n-pod",
        "sweep-l40s-1n-vnic-1nic",
        "sweep-l40s-2n-vnic-2nic",
        "sweep-l40s-1n-sriov-1nic",
        "sweep-l40s-2n-sriov-2nic",
        "sweep-h100-2n-sriov-rdma-1nic",
    ]
    ok = {name: row for name, row in rows.items() if row["status"] == "ok"}
    assert set(ok) == set(rows) - {"sweep-l40s-1n-sriov-1nic", "sweep-l40s-2n-sriov-2nic"}
    cell = rows["sweep-l40s-2n-vnic-2nic"]
    assert (cell["profile"], cell["nodes"], cell["variant"], cell["nics"]) == ("gx3-48x240x2l40s", 2, "vnic", 2)
    assert rows["sweep-l40s-2n-pod"]["nics"] == 0
    for row in ok.values():
        assert row["resources"] > 0 and row["changes"] == {"create": row["resources"]}
        assert row["steps"] is None  # no engine events offline


def test_sriov_on_l40s_is_skipped_with_the_validation_reason(offline_sweep) -> None:
    row = offline_sweep["rows"]["sweep-l40s-2n-sriov-2nic"]
    assert row["status"] == "skipped" and row["fingerprint"] is None and row["resources"] is None
    assert row["reason"] == (
        "network.variant: sriov needs a cluster network, which gx3-48x240x2l40s does not "
        "support (H100/H200 profiles only)"
    )
    table = offline_sweep["l40s"][1]
    assert "sweep-l40s-2n-sriov-2nic" in table and "skipped [1]" in table
    assert f"[1] {row['reason']}" in " ".join(table.split())


@pytest.mark.slow
def test_offline_cells_match_the_equivalent_stack_files(offline_sweep) -> None:
    """A sweep cell and the project's stack for the same experiment: same resources, same fingerprint."""
    rows = offline_sweep["rows"]
    for cell, stack in (
        ("sweep-l40s-2n-vnic-2nic", "l40s-2n-vnic"),
        ("sweep-h100-2n-sriov-rdma-1nic", "h100-2n-sriov-rdma"),
    ):
        document = run_preview(stack).document()
        # The stack adopts the study's workers, the cell a placeholder cluster's: same shape, other names.
        assert rows[cell]["resources"] == len(document["resources"])
        # Other worker names, hence another variant than the stack file's (render_offline and
        # record_run agree on one stack: tests/experiments/state/test_identity.py).
        assert rows[cell]["fingerprint"] != stack_fingerprint(load_stack(stack))
        assert rows[cell]["fingerprint"] in offline_sweep["l40s"][1] + offline_sweep["h100"][1]


def test_fingerprints_are_distinct_per_variant(offline_sweep) -> None:
    prints = [row["fingerprint"] for row in offline_sweep["rows"].values() if row["status"] == "ok"]
    assert len(set(prints)) == len(prints) == 5
    assert all(len(p) == 16 and int(p, 16) >= 0 for p in prints)


# ---- the matrix ----------------------------------------------------------------------------------------


def test_pod_cells_use_no_nics_and_collapse() -> None:
    cells = matrix.expand(
        spec("--profile", "h100", "--variant", "pod", "--nodes", "1", "2", "--nics", "1", "2", "nodes")
    )
    assert [(c.name, c.nics) for c in cells] == [("sweep-h100-1n-pod", 0), ("sweep-h100-2n-pod", 0)]


def test_nics_nodes_means_one_nic_per_node() -> None:
    cells = matrix.expand(spec("--profile", "l40s", "--variant", "vnic", "--nodes", "2", "8", "--nics", "nodes", "2"))
    assert [c.name for c in cells] == ["sweep-l40s-2n-vnic-2nic", "sweep-l40s-8n-vnic-8nic", "sweep-l40s-8n-vnic-2nic"]


def test_profiles_by_alias_or_full_name_and_zone_default() -> None:
    s = spec("--profile", "l40s-1gpu", "gx3d-160x1792x8h200", "h200", "--variant", "vnic", "--nodes", "1")
    assert s.profiles == ("gx3-24x120x1l40s", "gx3d-160x1792x8h200")  # h200 twice is one profile
    assert s.zone == "us-east-3" and s.nics == (1,)
    assert [c.name for c in matrix.expand(s)] == ["sweep-l40s-1gpu-1n-vnic-1nic", "sweep-h200-1n-vnic-1nic"]


def test_base_stack_supplies_missing_axes_and_settings(write_stack) -> None:
    path = write_stack(
        "lab",
        cluster_config(
            **{
                "nodes.machineset": "t-x7k2p-gpu-2",
                "zone": "eu-de-2",
                "nodes.profile": "gx3d-160x1792x8h100",
                "network.variant": "sriov-rdma",
                "network.nics_per_node": 2,
                "network.attached_nics": 16,
                "tags": ["lab"],
            }
        ),
    )
    s = spec("--base", str(path), "--variant", "sriov-rdma", "vnic", "--nodes", "1", "4")
    assert s.profiles == ("gx3d-160x1792x8h100",) and s.nics == (2,) and s.zone == "eu-de-2"
    plans = {p.cell.name: p for p in matrix.plan_cells(s)}
    sriov, vnic = plans["sweep-h100-4n-sriov-rdma-2nic"], plans["sweep-h100-4n-vnic-2nic"]
    assert sriov.stack is not None and sriov.stack.cluster.network.secondary_nics == 16
    assert sriov.cluster["name_prefix"] == "sweep-h100-4n-sriov-rdma-2nic" and sriov.cluster["tags"] == ["lab"]
    # The base's 16 cluster NICs say nothing about vNICs: the vNIC cells attach what they use.
    assert vnic.stack is not None and "attached_nics" not in vnic.cluster["network"]
    assert vnic.stack.cluster.network.secondary_nics == 2


def test_matrix_file_base_and_zone(tmp_path) -> None:
    matrix = tmp_path / "m.yaml"
    matrix.write_text(
        yaml.safe_dump(
            {"zone": "eu-de-2", "base": {"tags": ["from-file"]}, "profile": ["h200"], "variant": "sriov", "nodes": [2]}
        )
    )
    s = spec("--matrix", str(matrix), "--nodes", "3")  # a flag overrides its axis in the file
    assert (s.zone, s.nodes, s.base) == ("eu-de-2", (3,), {"tags": ["from-file"]})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("profile: l40s\nvariant: pod\nnodes: [1, two]\n", "bad.yaml: nodes[1]: must be a positive integer, not 'two'"),
        (
            "profile: l40s\nvariant: [pod, sriov2]\nnodes: 1\n",
            "bad.yaml: variant[1]: unknown network variant 'sriov2' (choose from pod, vnic, sriov, sriov-rdma)",
        ),
        ("profile: a100\nvariant: pod\nnodes: 1\n", "bad.yaml: profile: unknown profile 'a100'"),
        (
            "profile: l40s\nvariant: vnic\nnodes: 1\nnics: [1, -1]\n",
            "bad.yaml: nics[1]: must be a NIC count (0 or more) or 'nodes', not -1",
        ),
        ("profile: l40s\nvariant: pod\nnodes: []\n", "bad.yaml: nodes: must list at least one value"),
        ("profile: l40s\nvariant: pod\nnode: 1\n", "bad.yaml: node: unknown key (allowed: profile, variant, nodes,"),
        ("profile: l40s\nvariant: pod\n", "bad.yaml: nodes: required"),
        ("profile: l40s\nvariant: pod\nnodes: 1\nbase: [zone]\n", "bad.yaml: base: must be a mapping"),
        ("profile: l40s\nvariant: [pod\n", "bad.yaml: YAML error at line 3"),
        ("- profile\n", "bad.yaml: a matrix file is a mapping"),
        (
            "profile: l40s\nvariant: vnic\nnodes: 1\nbase: {network: {turbo: true}}\n",
            "bad.yaml: every cell of the matrix is invalid:\n  sweep-l40s-1n-vnic-1nic: network.turbo: unknown key",
        ),
    ],
)
def test_bad_matrix_file_exits_2_and_writes_nothing(tmp_path, text, expected) -> None:
    matrix = tmp_path / "bad.yaml"
    matrix.write_text(text)
    out = tmp_path / "out" / "sweep.json"
    code, _, err = sweep_main(["--offline", "--matrix", str(matrix), "--out", str(out)])
    assert code == 2
    assert expected in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["--profile", "l40s", "--variant", "vnic", "--nodes", "2", "--nics", "many"],
            "--nics: must be a NIC count (0 or more) or 'nodes', not 'many'",
        ),
        (["--profile", "l40s", "--variant", "vnic", "--nodes", "0"], "--nodes: must be a positive integer, not 0"),
        (["--variant", "vnic", "--nodes", "2"], "--profile: required"),
        (
            ["--profile", "l40s", "--variant", "sriov", "sriov-rdma", "--nodes", "2"],
            "command line: every cell of the matrix is invalid:\n"
            "  sweep-l40s-2n-sriov-1nic: network.variant: sriov needs a cluster network",
        ),
        (["--matrix", "no-such-matrix.yaml"], "no-such-matrix.yaml: no such matrix file"),
        (["--base", "no-such-stack", "--nodes", "2"], "unknown stack 'no-such-stack'"),
    ],
)
def test_bad_flags_exit_2(tmp_path, argv, expected) -> None:
    code, _, err = sweep_main(["--offline", *argv, "--out", str(tmp_path / "out.json")])
    assert (code, expected in err) == (2, True), err
    assert not (tmp_path / "out.json").exists()


def test_offline_and_up_are_exclusive(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        sweep_main(["--offline", "--up", "--profile", "l40s", "--variant", "pod", "--nodes", "1"])
    assert info.value.code == 2


# ---- the Automation API glue, up to the CLI boundary ---------------------------------------------------


def _event(kind: str, sequence: int, urn: str, type_: str, op: str = "create") -> EngineEvent:
    return EngineEvent.from_json(
        {
            "sequence": sequence,
            "timestamp": 0,
            kind: {"metadata": {"op": op, "urn": urn, "type": type_, "provider": ""}},
        }
    )


class FakeStack:
    """Stands in for ``auto.Stack``: runs the inline program in-process, as the CLI would have it run,
    but against the mock engine, and reports the steps as engine events."""

    def __init__(
        self, name: str, program: Any, env_vars: dict[str, str], work_dir: Path, fail_with: str | None
    ) -> None:
        self.name, self.program, self.env_vars, self.work_dir = name, program, dict(env_vars), work_dir
        self.fail_with = fail_with
        self.config: dict[str, auto.ConfigValue] = {}
        self.calls: list[str] = []
        self.registered: EngineResult | None = None

    def set_all_config(self, config: dict[str, auto.ConfigValue]) -> None:
        self.calls.append("set_all_config")
        self.config = dict(config)

    def _engine(self, on_event: Any) -> int:
        if self.fail_with:
            raise CommandError(
                auto.CommandResult(stdout="Previewing update (sweep):\n", stderr=f"error: {self.fail_with}\n", code=255)
            )
        self.registered = run_offline(
            lambda: (self.program(), {})[1],
            project=PROJECT,
            stack=self.name,
            config={key: value.value for key, value in self.config.items()},
            secret_keys=[key for key, value in self.config.items() if value.secret],
            cluster=simulated_cluster_of_config({key: value.value for key, value in self.config.items()}),
        )
        stack_urn = f"urn:pulumi:{self.name}::{PROJECT}::pulumi:pulumi:Stack::{PROJECT}-{self.name}"
        steps = [(stack_urn, "pulumi:pulumi:Stack")]
        steps += [(r.urn, r.type) for r in self.registered.resources]
        sequence = 0
        for urn, type_ in steps:
            on_event(_event("resourcePreEvent", sequence, urn, type_))
            on_event(_event("resOutputsEvent", sequence + 1, urn, type_))
            sequence += 2
        return len(steps)

    def preview(self, *, on_event: Any) -> auto.PreviewResult:
        self.calls.append("preview")
        return auto.PreviewResult(stdout="", stderr="", change_summary={OpType.CREATE: self._engine(on_event)})

    def up(self, *, on_event: Any, refresh: bool) -> auto.UpResult:
        self.calls.append("up+refresh" if refresh else "up")
        summary = auto.UpdateSummary(
            kind="update",
            start_time=None,
            message="",
            environment={},
            config={},
            result="succeeded",
            resource_changes={"create": self._engine(on_event)},
        )
        return auto.UpResult(stdout="", stderr="", summary=summary, outputs={})


class FakeFactory:
    def __init__(self, fail: dict[str, str] | None = None) -> None:
        self.fail = fail or {}
        self.preflights = 0
        self.stacks: list[FakeStack] = []

    def preflight(self) -> None:
        self.preflights += 1

    def create_or_select(self, stack_name: str, program: Any, env_vars: dict[str, str], work_dir: Path) -> FakeStack:
        assert work_dir.is_dir()  # the throwaway workspace exists while the stacks run
        stack = FakeStack(stack_name, program, env_vars, work_dir, self.fail.get(stack_name))
        self.stacks.append(stack)
        return stack


MATRIX = ["--profile", "l40s", "--variant", "vnic", "sriov", "--nodes", "2", "--nics", "nodes"]


@pytest.fixture
def key_file(tmp_path) -> Path:
    path = tmp_path / "id_ed25519.pub"
    path.write_text(SSH_KEY + "\n")
    return path


JOIN_BASE: dict[str, Any] = {
    "zone": "us-east-3",
    "openshift": {"infra_id": "lab-x7k2p"},
    "nodes": {"source": "join", "profile": "gx3-48x240x2l40s", "count": 2},
    "network": {"variant": "vnic", "nics_per_node": 2, "vpc_cidr": "10.241.192.0/20"},
}
"""A sweep that creates its nodes: new instances joining the lab cluster (each cell makes its SSH key)."""


def join_base(tmp_path: Path) -> Path:
    path = tmp_path / "Pulumi.lab.yaml"
    path.write_text(json.dumps({"config": {"gpu-cluster:cluster": JOIN_BASE}}))
    return path


def real_sweep(
    tmp_path: Path, key_file: Path, factory: Any, *extra: str, matrix: list[str] = MATRIX
) -> tuple[int, str, str, dict[str, dict[str, Any]]]:
    out = tmp_path / "real.json"
    code, stdout, stderr = sweep_main(
        [
            *matrix,
            "--base",
            str(join_base(tmp_path)),
            "--state-dir",
            str(tmp_path / "state"),
            "--ssh-public-key-file",
            str(key_file),
            "--out",
            str(out),
            *extra,
        ],
        factory=factory,
    )
    return code, stdout, stderr, rows_by_stack(out) if out.exists() else {}


def test_one_preview_per_valid_cell_on_the_file_backend(tmp_path, key_file) -> None:
    factory = FakeFactory()
    code, stdout, _, rows = real_sweep(
        tmp_path,
        key_file,
        factory,
        matrix=["--profile", "l40s", "--variant", "pod", "vnic", "sriov", "--nodes", "2", "--nics", "nodes"],
    )
    assert code == 0 and factory.preflights == 1
    assert [s.name for s in factory.stacks] == ["sweep-l40s-2n-pod", "sweep-l40s-2n-vnic-2nic"]  # not the skipped one
    state = (tmp_path / "state").resolve()
    assert state.is_dir()
    work_dirs = {s.work_dir for s in factory.stacks}
    assert len(work_dirs) == 1
    work_dir = work_dirs.pop()
    assert not work_dir.exists()  # thrown away after the sweep
    assert PROJECT_ROOT not in work_dir.parents and work_dir != PROJECT_ROOT
    for stack in factory.stacks:
        assert stack.env_vars == {"PULUMI_BACKEND_URL": f"file://{state}"}
        assert stack.calls == ["set_all_config", "preview"]
    assert rows["sweep-l40s-2n-sriov-2nic"]["status"] == "skipped"
    assert json.loads((tmp_path / "real.json").read_text())["backend"] == f"file://{state}"
    assert "sweep (preview)" in stdout


def test_stack_config_is_the_cluster_json_and_a_secret_ssh_key(tmp_path, key_file) -> None:
    factory = FakeFactory()
    real_sweep(tmp_path, key_file, factory)
    (stack,) = factory.stacks
    assert set(stack.config) == {"gpu-cluster:cluster", "gpu-cluster:sshPublicKey"}
    cluster, key = stack.config["gpu-cluster:cluster"], stack.config["gpu-cluster:sshPublicKey"]
    assert not cluster.secret and key.secret and key.value == SSH_KEY
    assert json.loads(cluster.value) == {
        **JOIN_BASE,
        "name_prefix": "sweep-l40s-2n-vnic-2nic",
        "nodes": {"source": "join", "profile": "gx3-48x240x2l40s", "count": 2},
        "network": {"variant": "vnic", "nics_per_node": 2, "vpc_cidr": "10.241.192.0/20"},
    }


def test_up_only_with_the_flag(tmp_path, key_file) -> None:
    factory = FakeFactory()
    code, stdout, _, rows = real_sweep(tmp_path, key_file, factory, "--up")
    assert code == 0 and [s.calls for s in factory.stacks] == [["set_all_config", "up+refresh"]]
    assert "sweep (up)" in stdout
    assert json.loads((tmp_path / "real.json").read_text())["operation"] == "up"


def test_events_drive_the_progress_and_the_resource_count(tmp_path, key_file) -> None:
    factory = FakeFactory()
    _, _, _, rows = real_sweep(tmp_path, key_file, factory)
    row = rows["sweep-l40s-2n-vnic-2nic"]
    (stack,) = factory.stacks
    registered = len(stack.registered.resources)
    assert row["steps"] == {"started": registered + 1, "done": registered + 1, "failed": 0}  # + the Stack
    assert row["resources"] == registered
    assert row["changes"] == {"create": registered + 1}  # Pulumi counts the Stack among its changes


@pytest.mark.slow
def test_the_inline_program_registers_what_the_offline_path_previews(tmp_path, key_file, monkeypatch) -> None:
    exported: dict[str, Any] = {}
    export, preview_program = pulumi.export, preview_module.pulumi_program
    previewing: list[bool] = []

    def offline_preview(planned: Any) -> dict[str, Any]:  # the same program, run by the offline preview
        previewing.append(True)
        try:
            return preview_program(planned)
        finally:
            previewing.pop()

    monkeypatch.setattr(preview_module, "pulumi_program", offline_preview)
    # What the inline program (the Automation API's) exports; the offline previews export their own.
    monkeypatch.setattr(pulumi, "export", lambda k, v: (previewing or exported.setdefault(k, v), export(k, v)))
    factory = FakeFactory()
    _, _, _, rows = real_sweep(tmp_path, key_file, factory)
    (stack,) = factory.stacks
    assert stack.program is inline_program
    base = ["--base", str(join_base(tmp_path))]
    offline = sweep_main(["--offline", *MATRIX, *base, "--out", str(tmp_path / "offline.json")])
    assert offline[0] == 0
    offline_row = rows_by_stack(tmp_path / "offline.json")["sweep-l40s-2n-vnic-2nic"]
    (plan,) = [p for p in matrix.plan_cells(spec(*MATRIX, *base)) if p.stack is not None]
    preview = run_preview(plan.stack)
    assert [r.urn for r in stack.registered.resources] == [r.urn for r in preview.result.resources]
    assert rows["sweep-l40s-2n-vnic-2nic"]["fingerprint"] == offline_row["fingerprint"]
    assert set(exported) == set(preview.result.outputs)  # the stack outputs of __main__.py
    assert exported["nodes"] == ["sweep-l40s-2n-vnic-2nic-node0", "sweep-l40s-2n-vnic-2nic-node1"]


def test_a_failing_cell_is_reported_and_the_others_still_run(tmp_path, key_file) -> None:
    factory = FakeFactory(fail={"sweep-l40s-1n-vnic-1nic": "could not find plugin terraform-provider"})
    code, stdout, _, rows = real_sweep(
        tmp_path,
        key_file,
        factory,
        matrix=["--profile", "l40s", "--variant", "vnic", "--nodes", "1", "2", "--nics", "nodes"],
    )
    assert code == 1
    failed, ok = rows["sweep-l40s-1n-vnic-1nic"], rows["sweep-l40s-2n-vnic-2nic"]
    assert (failed["status"], failed["reason"]) == ("failed", "could not find plugin terraform-provider")
    assert failed["fingerprint"]  # rendered offline before Pulumi was asked
    assert ok["status"] == "ok"
    assert "failed [1]" in stdout and "[1] could not find plugin terraform-provider" in stdout


def test_event_counter_on_engine_event_json() -> None:
    updates: list[tuple[int, int]] = []
    counter = EventCounter(on_update=lambda c: updates.append((c.started, c.done)))
    for line in (FIXTURES / "preview-events.jsonl").read_text().splitlines():
        counter(EngineEvent.from_json(json.loads(line)))
    assert (counter.started, counter.done, counter.failed) == (4, 3, 1)
    assert counter.resource_count == 3  # the Stack is not a resource of the cell
    assert updates[:3] == [(1, 0), (2, 0), (2, 1)]  # prelude, diagnostic and summary move nothing


def test_missing_ssh_key_file_exits_2_before_any_stack(tmp_path) -> None:
    factory = FakeFactory()
    code, _, err = sweep_main([*MATRIX, "--state-dir", str(tmp_path / "state")], factory=factory)
    assert code == 2 and "--ssh-public-key-file: required unless --offline" in err
    assert factory.stacks == [] and not (tmp_path / "state").exists()


# ---- the real factory: no CLI, a stub CLI -------------------------------------------------------------


def test_no_pulumi_cli_exits_2_with_install_hint(tmp_path, key_file, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "sweep-test")
    code, _, err, rows = real_sweep(tmp_path, key_file, None)
    assert code == 2
    assert err.strip() == f"error: {CLI_MISSING}"
    assert rows == {} and not (tmp_path / "state").exists()


def test_cli_vanishing_after_which_is_caught_by_the_preflight(tmp_path, key_file, monkeypatch) -> None:
    """``PulumiCommand`` runs ``pulumi version``; its FileNotFoundError becomes the same exit-2 message."""
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "sweep-test")
    monkeypatch.setattr(preflight.shutil, "which", lambda name: f"/usr/local/bin/{name}")
    code, _, err, _ = real_sweep(tmp_path, key_file, None)
    assert code == 2 and err.strip() == f"error: {CLI_MISSING}"


def test_cli_vanishing_before_the_workspace_is_caught_there(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(preflight.shutil, "which", lambda name: f"/usr/local/bin/{name}")
    with pytest.raises(automation.AutomationUnavailable, match="not installed"):
        automation.LocalStackFactory().create_or_select("s", inline_program, {}, tmp_path)


STUB_CLI = """#!/bin/sh
# A stand-in `pulumi`: answers `version`, logs every other call and fails it like a broken backend.
if [ "$1" = "version" ]; then echo ${STUB_VERSION:-v3.272.0}; exit ${STUB_VERSION_RC:-0}; fi
{ echo "argv: $*"; echo "cwd: $PWD"; echo "backend: $PULUMI_BACKEND_URL"; cat Pulumi.yaml; } >> "$STUB_LOG"
echo "error: stub backend unavailable" >&2
exit 255
"""


def stub_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, executable: bool = True) -> Path:
    """Put ``STUB_CLI`` first on PATH as ``pulumi``; returns the log its non-version calls go to."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "pulumi"
    stub.write_text(STUB_CLI)
    if executable:
        stub.chmod(stub.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "stub.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STUB_LOG", str(log))
    monkeypatch.delenv("PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK", raising=False)
    return log


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell stub")
def test_no_secrets_provider_exits_2(tmp_path, key_file, monkeypatch) -> None:
    stub_cli(tmp_path, monkeypatch)
    monkeypatch.delenv("PULUMI_CONFIG_PASSPHRASE", raising=False)
    monkeypatch.delenv("PULUMI_CONFIG_PASSPHRASE_FILE", raising=False)
    code, _, err, _ = real_sweep(tmp_path, key_file, None)
    assert code == 2 and "set PULUMI_CONFIG_PASSPHRASE" in err and "--secrets-provider" in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell stub")
def test_outdated_cli_exits_2_with_the_version_message(tmp_path, key_file, monkeypatch, capsys) -> None:
    """``PulumiCommand`` raises InvalidVersionError for a CLI below the minimum: a message, not a traceback."""
    from experiments.cli.main import main

    log = stub_cli(tmp_path, monkeypatch)
    monkeypatch.setenv("STUB_VERSION", "v3.10.0")
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "sweep-test")
    code = main(["sweep", *MATRIX, "--state-dir", str(tmp_path / "state"), "--ssh-public-key-file", str(key_file)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: the Pulumi CLI cannot run the sweep: ") and "Traceback" not in err
    assert f"requirement is {automation.MIN_CLI_VERSION}, your current CLI version is 3.10.0" in err
    assert not log.exists() and not (tmp_path / "state").exists()  # nothing ran past the preflight


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell stub")
@pytest.mark.parametrize(
    ("env", "executable", "message"),
    [
        ({"STUB_VERSION": "not-a-version"}, True, "Could not parse the Pulumi CLI version"),
        ({"STUB_VERSION_RC": "3"}, True, "`pulumi version` failed with exit status 3"),
        ({}, False, "cannot run the Pulumi CLI (Permission denied)"),
    ],
)
def test_broken_cli_exits_2_with_a_message(tmp_path, key_file, monkeypatch, env, executable, message) -> None:
    stub_cli(tmp_path, monkeypatch, executable=executable)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "sweep-test")
    if not executable:
        # shutil.which skips files without the execute bit; the CLI must look present to reach PulumiCommand.
        monkeypatch.setattr(preflight.shutil, "which", lambda name: str(tmp_path / "bin" / name))
    code, _, err, rows = real_sweep(tmp_path, key_file, None)
    assert code == 2 and message in err, err
    assert rows == {}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell stub")
def test_real_workspace_reaches_the_cli_with_the_sweep_backend(tmp_path, key_file, monkeypatch) -> None:
    log = stub_cli(tmp_path, monkeypatch)
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "sweep-test")
    project_file = (PROJECT_ROOT / "Pulumi.yaml").read_text()

    code, _, _, rows = real_sweep(tmp_path, key_file, None)

    assert code == 1
    row = rows["sweep-l40s-2n-vnic-2nic"]
    assert (row["status"], row["reason"]) == ("failed", "stub backend unavailable")
    calls = log.read_text()
    assert "argv: --non-interactive stack select --stack sweep-l40s-2n-vnic-2nic" in calls
    assert f"backend: file://{(tmp_path / 'state').resolve()}" in calls
    # The API wrote its own Pulumi.yaml into the throwaway workspace, and left the project's alone.
    cwd = next(line[len("cwd: ") :] for line in calls.splitlines() if line.startswith("cwd: "))
    assert Path(cwd).resolve() != PROJECT_ROOT.resolve() and not Path(cwd).exists()
    assert "name: gpu-cluster" in calls and "runtime: python" in calls and f"main: {cwd}" in calls
    assert (PROJECT_ROOT / "Pulumi.yaml").read_text() == project_file


def test_sweep_is_wired_into_the_cli(tmp_path, capsys) -> None:
    from experiments.cli.main import main

    out = tmp_path / "sweep.json"
    assert main(["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2", "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    rows = rows["cells"] if isinstance(rows, dict) else rows
    assert [r["stack"] for r in rows] == ["sweep-l40s-2n-pod"]


def test_sweep_rows_carry_the_model_prediction(tmp_path) -> None:
    from experiments.cli.main import main

    out = tmp_path / "sweep.json"
    assert (
        main(
            [
                "sweep",
                "--offline",
                "--profile",
                "h100",
                "--variant",
                "pod",
                "sriov-rdma",
                "--nodes",
                "2",
                "--nics",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    rows = {r["variant"]: r for r in json.loads(out.read_text())["cells"]}
    assert rows["pod"]["predicted_samples_per_s"] < rows["sriov-rdma"]["predicted_samples_per_s"]
    assert 30 < rows["sriov-rdma"]["predicted_samples_per_s"] < 50


def test_empty_zone_flag_is_refused(capsys) -> None:
    from experiments.cli.main import main

    assert main(["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2", "--zone", ""]) == 2
    assert "--zone: must be a zone name" in capsys.readouterr().err


def test_several_cells_up_with_one_public_key_are_refused(tmp_path, key_file) -> None:
    factory = FakeFactory()
    matrix = ["--profile", "l40s", "--variant", "pod", "vnic", "--nodes", "2", "--nics", "nodes"]
    code, _, stderr, _ = real_sweep(tmp_path, key_file, factory, "--up", matrix=matrix)
    assert code == 2
    assert "IBM refuses a second key with one fingerprint" in stderr and "--ssh-key-name" in stderr
    assert factory.stacks == []  # refused before any stack was touched


@pytest.mark.slow
def test_cells_can_share_an_existing_key_by_name(tmp_path) -> None:
    factory = FakeFactory()
    out = tmp_path / "real.json"
    code, _, _ = sweep_main(
        [
            "--profile",
            "l40s",
            "--variant",
            "pod",
            "vnic",
            "--nodes",
            "2",
            "--nics",
            "nodes",
            "--base",
            str(join_base(tmp_path)),
            "--state-dir",
            str(tmp_path / "state"),
            "--ssh-key-name",
            "team-key",
            "--up",
            "--out",
            str(out),
        ],
        factory=factory,
    )
    assert code == 0 and len(factory.stacks) == 2
    for stack in factory.stacks:
        assert set(stack.config) == {"gpu-cluster:cluster"}  # no public key: nothing to create
        assert json.loads(stack.config["gpu-cluster:cluster"].value)["security"] == {"ssh_key_name": "team-key"}
    assert len({json.loads(s.config["gpu-cluster:cluster"].value)["name_prefix"] for s in factory.stacks}) == 2
