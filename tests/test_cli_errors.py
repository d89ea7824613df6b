"""Bad input to ``python -m experiments preview``: one clear message, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.cli import main

from .conftest import cluster_config


def run_preview(capsys: pytest.CaptureFixture[str], stack: str, out: Path) -> tuple[int, str]:
    code = main(["preview", stack, "--out", str(out)])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("cluster", "expected"),
    [
        (cluster_config(**{"network.variant": "sriov", "network.nics_per_node": 1}),
         "Pulumi.bad.yaml: gpu-cluster:cluster.network.variant: sriov needs a cluster network"),
        (cluster_config(**{"network.nics_per_node": 1, "network.turbo": True}),
         "Pulumi.bad.yaml: gpu-cluster:cluster.network.turbo: unknown key"),
        (cluster_config(**{"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma",
                           "network.nics_per_node": 1, "network.attached_nics": 12}),
         "Pulumi.bad.yaml: gpu-cluster:cluster.network.attached_nics: an instance has 8, 16, 32 cluster network"),
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
    assert "Pulumi.broken.yaml: YAML syntax error at line" in err
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
