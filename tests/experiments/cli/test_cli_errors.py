"""Bad input to ``python -m experiments preview``: one clear message, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.cli.main import main

from ...conftest import cluster_config


def run_preview(capsys: pytest.CaptureFixture[str], stack: str, out: Path) -> tuple[int, str]:
    code = main(["preview", stack, "--out", str(out)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        (
            cluster_config(**{"network.variant": "sriov", "network.nics_per_node": 1}),
            "Pulumi.bad.yaml: gpu-cluster:cluster.network.variant: sriov needs a cluster network",
        ),
        (
            cluster_config(**{"network.nics_per_node": 1, "network.turbo": True}),
            "Pulumi.bad.yaml: gpu-cluster:cluster.network.turbo: unknown key",
        ),
        (
            cluster_config(
                **{
                    "nodes.profile": "gx3d-160x1792x8h100",
                    "network.variant": "sriov-rdma",
                    "network.nics_per_node": 1,
                    "network.attached_nics": 12,
                }
            ),
            "Pulumi.bad.yaml: gpu-cluster:cluster.network.attached_nics: an instance has 8, 16, 32 cluster network",
        ),
    ],
)
def test_invalid_config_exits_2_and_writes_nothing(write_stack, capsys, tmp_path, cluster, expected) -> None:
    path = write_stack("bad", cluster)
    out = tmp_path / "out"
    code, err = run_preview(capsys, str(path), out)
    assert code == 2
    assert expected in err
    assert not out.exists()


def test_yaml_syntax_error_names_file_and_line(write_stack, capsys, tmp_path) -> None:
    path = write_stack("broken", text="config:\n  gpu-cluster:cluster:\n    zone: [us-east-3\n")
    code, err = run_preview(capsys, str(path), tmp_path / "out")
    assert code == 2
    assert "Pulumi.broken.yaml: YAML error at line" in err
    assert not (tmp_path / "out").exists()


def test_missing_cluster_key(write_stack, capsys, tmp_path) -> None:
    path = write_stack("empty", text="config:\n  ibm:region: us-east\n")
    code, err = run_preview(capsys, str(path), tmp_path / "out")
    assert code == 2
    assert "Pulumi.empty.yaml: config: missing required key gpu-cluster:cluster" in err


def test_unknown_stack_name_lists_known_stacks(capsys, tmp_path) -> None:
    code, err = run_preview(capsys, "no-such-experiment", tmp_path / "out")
    assert code == 2
    assert "unknown stack 'no-such-experiment'" in err and "h100-2n-sriov-rdma" in err


def test_plaintext_secret_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack("leaky", extra={"gpu-cluster:ibmcloudApiKey": "not-so-secret"})
    code, err = run_preview(capsys, str(path), tmp_path / "out")
    assert code == 2
    assert "gpu-cluster:ibmcloudApiKey: holds a plaintext value" in err
    assert "not-so-secret" not in err


def test_bad_cli_arguments_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["preview"])
    assert info.value.code == 2


def test_duplicate_keys_are_an_error(write_stack, capsys, tmp_path) -> None:
    text = "config:\n  gpu-cluster:cluster:\n    zone: us-east-3\n    zone: us-south-1\n"
    code, err = run_preview(capsys, str(write_stack("dup", text=text)), tmp_path / "out")
    assert code == 2 and "Pulumi.dup.yaml: YAML error at line 4" in err and "duplicate key 'zone'" in err


def test_binary_file_and_directory_are_named(capsys, tmp_path) -> None:
    binary = tmp_path / "Pulumi.bin.yaml"
    binary.write_bytes(b"\xff\xfe\x00config")
    code, err = run_preview(capsys, str(binary), tmp_path / "out")
    assert code == 2 and f"{binary}: not UTF-8 text" in err
    code, err = run_preview(capsys, str(tmp_path), tmp_path / "out")
    assert code == 2 and "is a directory, not a stack file" in err


def test_unknown_project_key_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack("typo", extra={"gpu-cluster:sshPublickey": {"secure": "v1:x"}})
    code, err = run_preview(capsys, str(path), tmp_path / "out")
    assert code == 2 and "gpu-cluster:sshPublickey: unknown key" in err


def test_output_paths_are_checked_before_any_work(write_stack, capsys, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, err = run_preview(capsys, str(write_stack()), blocker)
    assert code == 2 and "exists and is not a directory" in err
    code, err = run_preview(capsys, str(write_stack()), blocker / "sub")
    assert code == 2 and "exists and is not a directory" in err
    assert main(["report", "--out", str(blocker)]) == 2
    assert (
        main(["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2", "--out", str(tmp_path)])
        == 2
    )
    assert "is a directory, not a file" in capsys.readouterr().err
    assert blocker.read_text() == "x"


def test_a_later_preview_clears_the_previous_stacks_manifests(write_stack, capsys, tmp_path) -> None:
    out = tmp_path / "out"
    assert main(["preview", str(write_stack("k8s")), "--out", str(out)]) == 0
    assert any((out / "manifests").iterdir())
    assert main(["preview", str(write_stack("cloud", cluster_config(layers="cloud"))), "--out", str(out)]) == 0
    assert not (out / "manifests").exists()
