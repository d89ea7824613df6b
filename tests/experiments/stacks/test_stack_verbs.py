"""``stack up|destroy|unlock|workers``: the verbs the in-cluster steps call, up to the Pulumi CLI boundary."""

from __future__ import annotations

import gzip
import json
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from pulumi.automation.errors import CommandError

from experiments.cli.main import main
from experiments.incluster.deadlines import go_duration_seconds, longest_chain_seconds
from experiments.incluster.objects import kubeconfig_config_map
from experiments.stacks import automation
from experiments.stacks.backend import read_stack_state, worker_report

from ...conftest import PROJECT_ROOT, standalone_config
from ..incluster.test_steps import checkpoint, lock_dir


class FailingStack:
    def set_all_config(self, config: Any) -> None:
        pass

    def up(self, *, on_event: Any) -> Any:
        raise CommandError(
            SimpleNamespace(  # the shape pulumi.automation gives a failed CLI run
                command="pulumi up", code=255, stdout="", stderr="error: the instance gpu-node-1 did not stop in 30m"
            )
        )


@pytest.fixture
def failing(monkeypatch) -> None:
    class Factory:
        def __init__(self, secrets_provider: str | None = None, use: Any = None) -> None:
            pass

        def preflight(self) -> None:
            pass

        def create_or_select(self, *args: Any) -> Any:
            return FailingStack()

    monkeypatch.setattr(automation, "LocalStackFactory", Factory)


def test_a_failed_up_is_one_line_exit_1_and_points_at_the_worker_report(tmp_path, capsys, failing) -> None:
    code = main(["stack", "up", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "h100-2n-sriov-rdma: up failed: the instance gpu-node-1 did not stop in 30m" in out
    assert "python -m experiments stack workers h100-2n-sriov-rdma" in out


def test_a_stack_file_with_encrypted_values_is_refused_before_the_cli(tmp_path, capsys) -> None:
    document = yaml.safe_load((PROJECT_ROOT / "Pulumi.h100-2n-sriov-rdma.yaml").read_text())
    document["config"]["gpu-cluster:kubeconfig"] = {"secure": "v1:abc"}
    path = tmp_path / "Pulumi.kept.yaml"
    path.write_text(yaml.safe_dump(document))
    assert main(["stack", "up", str(path), "--state-dir", str(tmp_path / "state")]) == 2
    err = capsys.readouterr().err
    assert "gpu-cluster:kubeconfig: encrypted under that file's own secrets provider" in err
    assert not (tmp_path / "state").exists()


def test_a_standalone_stack_without_a_named_key_is_refused(tmp_path, capsys) -> None:
    path = tmp_path / "Pulumi.alone.yaml"
    path.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": standalone_config()}}))
    assert main(["stack", "up", str(path), "--state-dir", str(tmp_path / "state")]) == 2
    assert "name an existing key in security.ssh_key_name" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()


def test_unlock_without_a_lock_needs_no_cli(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no pulumi anywhere
    assert main(["stack", "unlock", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path)]) == 0
    assert "h100-2n-sriov-rdma: not locked" in capsys.readouterr().out


def test_unlock_of_a_lock_without_the_cli_is_exit_2(tmp_path, capsys, monkeypatch) -> None:
    lock_dir(tmp_path, "h100-2n-sriov-rdma").mkdir(parents=True)
    (lock_dir(tmp_path, "h100-2n-sriov-rdma") / "x.json").write_text("{}")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["stack", "unlock", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path)]) == 2
    assert "the Pulumi CLI is not installed" in capsys.readouterr().err


def test_the_worker_report_reads_a_gzipped_checkpoint_and_names_operations_in_flight(tmp_path) -> None:
    checkpoint(tmp_path, "s", started=False)
    plain = tmp_path / ".pulumi" / "stacks" / "gpu-cluster" / "s.json"
    document = json.loads(plain.read_text())
    document["checkpoint"]["latest"]["pending_operations"] = [
        {"type": "creating", "resource": {"urn": "urn:pulumi:s::gpu-cluster::x::w1-start-1a2b3c4d"}}
    ]
    plain.unlink()
    plain.with_suffix(".json.gz").write_bytes(gzip.compress(json.dumps(document).encode()))
    lines = worker_report(read_stack_state(tmp_path, "s"))
    assert any(line.startswith("worker gpu-node-1 (i-w1): OUT OF SERVICE, left by this stack") for line in lines)
    assert "INTERRUPTED creating: urn:pulumi:s::gpu-cluster::x::w1-start-1a2b3c4d" in lines


@pytest.mark.parametrize("content", [b"{not json", b"\x1f\x8b broken", b"[1, 2]"])
def test_a_damaged_checkpoint_is_one_message(tmp_path, capsys, content) -> None:
    path = tmp_path / ".pulumi" / "stacks" / "gpu-cluster" / "h100-2n-sriov-rdma.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    code = main(["stack", "workers", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path), "--no-nodes"])
    err = capsys.readouterr().err
    if content == b"[1, 2]":
        assert code == 0  # no deployment in it: reported as nothing recorded
    else:
        assert code == 2 and "not a readable stack checkpoint" in err and "Traceback" not in err


def test_a_stack_never_deployed_is_reported_as_such(tmp_path, capsys) -> None:
    assert main(["stack", "workers", "h100-2n-sriov-rdma", "--state-dir", str(tmp_path)]) == 0
    assert "no checkpoint in the backend" in capsys.readouterr().out


def test_durations_and_the_longest_chain() -> None:
    assert go_duration_seconds("1h30m") == 5400 and go_duration_seconds("45m") == 2700
    with pytest.raises(ValueError):
        go_duration_seconds("45 minutes")

    def resource(
        urn: str, create: str | None = None, deps: tuple[str, ...] = (), parent: str | None = None, custom: bool = True
    ) -> Any:
        inputs = {"timeouts": {"create": create}} if create else {}
        return SimpleNamespace(
            urn=urn,
            type="ibm:index/isInstance:IsInstance",
            parent=parent,
            custom=custom,
            inputs=inputs,
            dependencies=deps,
        )

    resources = [
        resource("worker0", custom=False),
        resource("stop0", "30m", parent="worker0"),
        resource("start0", "45m", ("stop0",), parent="worker0"),
        resource("stop1", "30m", ("worker0",)),  # after the whole first worker: a rolling chain adds up
        resource("start1", "45m", ("stop1",)),
        resource("vpc", "10m"),
    ]
    assert longest_chain_seconds(resources, "create") == (30 + 45 + 30 + 45) * 60
    assert longest_chain_seconds(resources, "delete") == 0

    # The rolling steps carry their waits in seconds; each direction's delete is the other's create.
    waits = {"timeouts": {"drain_s": 900, "stop_s": 1800, "start_s": 3600, "poll_s": 15}}
    rolling = [
        SimpleNamespace(
            urn="out0",
            type="pulumi-python:dynamic/gpu-cluster:WorkerOutOfService",
            parent=None,
            custom=True,
            inputs=waits,
            dependencies=(),
        ),
        SimpleNamespace(
            urn="in0",
            type="pulumi-python:dynamic/gpu-cluster:WorkerInService",
            parent=None,
            custom=True,
            inputs=waits,
            dependencies=("out0",),
        ),
    ]
    assert longest_chain_seconds(rolling, "create") == 900 + 1800 + 3600
    assert longest_chain_seconds(rolling, "delete") == 3600 + 900 + 1800


def test_the_pods_kubeconfig_names_every_stack_context_and_holds_no_credential(tmp_path) -> None:
    from kubernetes import config

    from experiments.incluster.settings import InClusterSettings, SecretRef

    settings = InClusterSettings(
        image="x/y:1",
        namespace="ns",
        service_account="sa",
        state_claim="c",
        state_size="1Gi",
        storage_class=None,
        api_key=SecretRef("a", "b"),
        passphrase=SecretRef("c", "d"),
        uid=1000,
    )
    text = kubeconfig_config_map(settings, ["admin", "study"])["data"]["config"]
    token, ca = tmp_path / "token", tmp_path / "ca.crt"
    token.write_text("projected-token")
    ca.write_text("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n")
    directory = "/var/run/secrets/kubernetes.io/serviceaccount"
    (tmp_path / "config").write_text(
        text.replace(f"{directory}/token", str(token)).replace(f"{directory}/ca.crt", str(ca))
    )
    contexts, current = config.list_kube_config_contexts(str(tmp_path / "config"))
    assert sorted(c["name"] for c in contexts) == ["admin", "in-cluster", "study"] and current["name"] == "in-cluster"
    client = config.new_client_from_config(str(tmp_path / "config"), context="study")
    assert client.configuration.host == "https://kubernetes.default.svc"
    assert client.configuration.api_key["BearerToken"] == "Bearer projected-token"  # read from the file
    assert "token:" not in text and "projected-token" not in text
