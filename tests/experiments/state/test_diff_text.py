"""``diff``'s text: resources of a kind grouped, a change alike in every replica shown once, privilege gains
flagged as hazards, and the totals last."""

from __future__ import annotations

import json

from experiments.cli.main import main
from experiments.state.privilege import privilege_reasons, replica_neutral


def _diff(capsys, a: str, b: str, *extra: str) -> str:
    assert main(["diff", a, b, *extra]) == 1
    return capsys.readouterr().out


def test_a_wide_diff_groups_kinds_and_ends_with_the_totals(capsys) -> None:
    text = _diff(capsys, "l40s-8n-pod", "l40s-8n-vnic").splitlines()
    result = json.loads(_diff(capsys, "l40s-8n-pod", "l40s-8n-vnic", "--json"))
    nics = [
        u for u in result["added"] if u.endswith(tuple(f"-vnic{i}" for i in range(1, 9))) and "gpu-secondary" not in u
    ]
    assert len(nics) == 64
    grouped = [line for line in text if "IsInstanceNetworkInterface" in line]
    assert len(grouped) == 1 and grouped[0].startswith("  + 64 x IsInstanceNetworkInterface: ")
    # The selection's addresses, one entry per worker, changed in one line (each is in --json).
    (selection,) = [c for c in result["changed"] if c["urn"].endswith("gpu-selection")]
    workers = [c for c in selection["changes"] if c["path"].startswith("addresses.")]
    assert len(workers) == 8 and [line for line in text if "addresses" in line] == [
        f"      addresses: 8 entries changed ({workers[0]['path'][10:]} … {workers[-1]['path'][10:]})"
    ]
    assert text[-1] == (
        f"{len(result['added'])} to add, {len(result['removed'])} to remove, "
        f"{len(result['changed'])} to change, {len(result['hazards'])} hazard(s)"
    )
    assert len(text) < 40


def test_a_change_alike_in_master_and_worker_is_shown_once(capsys) -> None:
    text = _diff(capsys, "l40s-8n-pod", "l40s-8n-vnic")
    assert (
        "spec.pytorchReplicaSpecs.{Master,Worker}.template.spec.containers.pytorch.env.NCCL_SOCKET_IFNAME.value" in text
    )
    assert "pytorchReplicaSpecs.Master." not in text and "pytorchReplicaSpecs.Worker." not in text


def test_root_and_added_capabilities_are_hazards_only_when_gained(capsys) -> None:
    gained = json.loads(_diff(capsys, "l40s-8n-pod", "l40s-8n-vnic", "--json"))["hazards"]
    privilege = sorted(h["reason"] for h in gained if h["kind"] == "privilege")
    assert privilege == [
        "Master, Worker: spec.containers.pytorch.securityContext.capabilities.add gains NET_ADMIN",
        "Master, Worker: spec.securityContext.runAsUser: 0 (runs as root)",
    ]
    dropped = json.loads(_diff(capsys, "l40s-8n-vnic", "l40s-8n-pod", "--json"))["hazards"]
    assert [h for h in dropped if h["kind"] == "privilege"] == []


def test_privilege_reasons_of_single_settings() -> None:
    class C:
        def __init__(self, path: str, before: object, after: object) -> None:
            self.path, self.before, self.after = path, before, after

    assert replica_neutral("spec.pytorchReplicaSpecs.Worker.template.x") == (
        "spec.pytorchReplicaSpecs.{}.template.x",
        "Worker",
    )
    assert privilege_reasons(
        [
            C("spec.template.spec.containers.c.securityContext.capabilities.add", ["A"], ["A", "B"]),
            C("spec.template.spec.securityContext.runAsUser", 1000, 0),
        ]
    ) == [
        "spec.containers.c.securityContext.capabilities.add gains B",
        "spec.securityContext.runAsUser: 0 (runs as root)",
    ]
    assert (
        privilege_reasons(
            [C("spec.template.spec.securityContext.runAsUser", 0, 1000), C("x.capabilities.add", ["A", "B"], ["A"])]
        )
        == []
    )
