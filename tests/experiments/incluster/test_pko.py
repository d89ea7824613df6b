"""``pko STACK --out DIR``: a Pulumi Kubernetes Operator v2 Stack that validates, with no secret value in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.cli.main import main
from experiments.incluster.admin import ADMINISTERED

from ...conftest import PROJECT_ROOT
from ...manifests import validate_all

IMAGE = "registry.example.com/gpu/gpu-cluster@sha256:" + "0123456789abcdef" * 4
CIPHERTEXT = "v1:VGhpcyBpcyBub3QgYSByZWFsIGNpcGhlcnRleHQ=:c2VjcmV0"


def stack_with_secrets(tmp_path: Path) -> Path:
    """The study's SR-IOV stack, its stops consented to, plus a kubeconfig and an IBM API key set as secrets."""
    document = yaml.safe_load((PROJECT_ROOT / "Pulumi.h100-2n-sriov-rdma.yaml").read_text())
    document["config"]["gpu-cluster:cluster"]["nodes"]["allow_instance_stop"] = True
    document["config"]["gpu-cluster:kubeconfig"] = {"secure": CIPHERTEXT}
    document["config"]["gpu-cluster:ibmcloudApiKey"] = {"secure": CIPHERTEXT + "2"}
    document["encryptionsalt"] = "v1:c2FsdA==:v1:bm9uY2U=:dGFn"
    path = tmp_path / "Pulumi.sriov-kept.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def pko(tmp_path: Path, stack: str, *extra: str) -> tuple[int, Path]:
    out = tmp_path / "pko"
    return main(["pko", stack, "--out", str(out), "--image", IMAGE, *extra]), out


def load(out: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    setup = list(yaml.safe_load_all((out / "setup.yaml").read_text()))
    (stack,) = yaml.safe_load_all((out / "stack.yaml").read_text())
    return setup, stack


def test_a_stack_with_secrets_renders_a_valid_stack_holding_only_secret_references(tmp_path) -> None:
    code, out = pko(tmp_path, str(stack_with_secrets(tmp_path)), "--on-delete", "destroy")
    assert code == 0
    setup, stack = load(out)
    assert {label: errors for label, errors in validate_all([*setup, stack]).items() if errors} == {}
    text = (out / "stack.yaml").read_text() + (out / "setup.yaml").read_text()
    assert CIPHERTEXT not in text and "secure" not in text and not any(o["kind"] == "Secret" for o in setup)
    spec = stack["spec"]
    assert stack["metadata"]["name"] == "sriov-kept" and spec["stack"] == "sriov-kept"
    assert spec["destroyOnFinalize"] is True
    assert spec["backend"] == "file:///state/pulumi"
    assert spec["secretsRef"] == {
        f"gpu-cluster:{key}": {"type": "Secret", "secret": {"name": "sriov-kept-config", "key": key}}
        for key in ("ibmcloudApiKey", "kubeconfig")
    }
    assert spec["envRefs"]["PULUMI_CONFIG_PASSPHRASE"] == {
        "type": "Secret",
        "secret": {"name": "gpu-cluster-pulumi", "key": "passphrase"},
    }
    assert set(spec["config"]) == {"gpu-cluster:cluster"}
    workspace = spec["workspaceTemplate"]["spec"]
    assert workspace["image"] == IMAGE and workspace["local"] == {"dir": "/app"}
    pod = workspace["podTemplate"]["spec"]
    assert pod["containers"] == [
        {
            "name": "pulumi",
            "volumeMounts": [
                {"name": "state", "mountPath": "/state"},
                {"name": "kubeconfig", "mountPath": "/etc/gpu-cluster/kube", "readOnly": True},
            ],
        }
    ]
    assert pod["securityContext"]["fsGroup"] == 1000  # the operator's restricted profile sets none
    assert not any("valueFrom" in e for e in workspace["env"])
    # PKO's agent checks the operator's token with a TokenReview.
    delegator = next(o for o in setup if o["metadata"]["name"].endswith("-auth-delegator"))
    assert delegator["roleRef"]["name"] == "system:auth-delegator"


def test_the_cluster_mapping_is_config_the_program_reads_back(tmp_path) -> None:
    import json

    from experiments.stacks.stackfile import load_stack

    code, out = pko(tmp_path, "h100-2n-vnic", "--on-delete", "keep")
    assert code == 0
    _, stack = load(out)
    assert stack["spec"]["destroyOnFinalize"] is False
    config = json.loads(stack["spec"]["config"]["gpu-cluster:cluster"])
    laptop = json.loads(load_stack("h100-2n-vnic").engine_config["gpu-cluster:cluster"])
    # The same experiment, whose namespace and SCC are the administrator's (setup.yaml) in the cluster.
    assert config == {**laptop, "kubernetes": {**laptop.get("kubernetes", {}), **ADMINISTERED}}
    assert ADMINISTERED == {"create_namespace": False, "create_scc": False}


def test_stacks_that_follow_one_another_get_prerequisites(tmp_path) -> None:
    code, out = pko(tmp_path, "h100-2n-vnic", "--on-delete", "keep", "--after", "h100-2n-pod", "--within", "2h")
    assert code == 0
    _, stack = load(out)
    assert stack["spec"]["prerequisites"] == [{"name": "h100-2n-pod", "requirement": {"succeededWithinDuration": "2h"}}]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--on-delete", "keep", "--name", "a" * 43], "at most 42 characters"),
        (["--on-delete", "keep", "--after", "h100-2n-vnic"], "a Stack cannot wait for itself"),
        (["--on-delete", "keep", "--within", "soon"], "--within 'soon': a duration"),
        (["--on-delete", "keep", "--image", "gpu-cluster"], "name a tag or a digest"),
        (["--on-delete", "keep", "--passphrase-secret", "x:"], "write NAME:KEY"),
        (["--on-delete", "keep", "--uid", "0"], "--uid '0': a non-root uid"),
    ],
)
def test_bad_input_is_one_message_exit_2_and_nothing_written(tmp_path, capsys, extra, message) -> None:
    code, out = pko(tmp_path, "h100-2n-vnic", *extra)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err, err
    assert not out.exists()


def test_the_choice_on_delete_is_the_users(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        pko(tmp_path, "h100-2n-sriov-rdma")
    assert exit_info.value.code == 2 and "--on-delete" in capsys.readouterr().err


def test_a_standalone_stack_needs_its_ssh_key_as_a_secret_reference(tmp_path, capsys) -> None:
    from ...conftest import standalone_config

    path = tmp_path / "Pulumi.alone.yaml"
    path.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": standalone_config()}}))
    code, out = pko(tmp_path, str(path), "--on-delete", "destroy")
    assert code == 2 and "pulumi config set --secret gpu-cluster:sshPublicKey" in capsys.readouterr().err
    assert not out.exists()
    path.write_text(
        yaml.safe_dump(
            {"config": {"gpu-cluster:cluster": standalone_config(), "gpu-cluster:sshPublicKey": {"secure": CIPHERTEXT}}}
        )
    )
    code, out = pko(tmp_path, str(path), "--on-delete", "destroy")
    assert code == 0
    setup, stack = load(out)
    assert {label: errors for label, errors in validate_all([*setup, stack]).items() if errors} == {}
    assert stack["spec"]["secretsRef"] == {
        "gpu-cluster:sshPublicKey": {"type": "Secret", "secret": {"name": "alone-config", "key": "sshPublicKey"}}
    }
    assert CIPHERTEXT not in (out / "stack.yaml").read_text()


def test_a_stack_whose_up_would_be_refused_is_refused_before_anything_is_written(tmp_path, capsys) -> None:
    # The study's SR-IOV stack stops its adopted workers and does not consent: the operator would fail forever.
    code, out = pko(tmp_path, "h100-2n-sriov-rdma", "--on-delete", "keep")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "nodes.allow_instance_stop: not set" in err
    assert not out.exists()
