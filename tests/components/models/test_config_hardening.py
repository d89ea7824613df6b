"""Inputs that used to crash or confuse: each is one line naming the file and field, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.models.job_config import parse_quantity
from experiments.cli.main import main

from ...conftest import cluster_config

HUGE = 10**25  # far past every bound, short enough for the YAML reader (longer ones: see the last test)


def preview_error(capsys: pytest.CaptureFixture[str], path: Path, out: Path) -> str:
    code = main(["preview", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert not out.exists(), "a refused stack wrote output"
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "field", ["job.shm_size", "job.resources.cpu_limit", "job.resources.memory", "job.storage.size"]
)
@pytest.mark.parametrize("value", ["1e999999999", "1e400", "99999999999999999999999Ei"])
def test_huge_quantities_are_field_errors(write_stack, capsys, tmp_path, field: str, value: str) -> None:
    path = write_stack("bad", cluster_config(**{field: value}))
    err = preview_error(capsys, path, tmp_path / "out")
    assert f"Pulumi.bad.yaml: gpu-cluster:cluster.{field}: '{value}'" in err


@pytest.mark.parametrize("value", ["10Gi", "500m", "1.5", "2e3", "1Ei"])
def test_ordinary_quantities_still_parse(value: str) -> None:
    assert parse_quantity(value) > 0


@pytest.mark.parametrize(
    "field",
    [
        "job.backoff_limit",
        "job.elastic.max_restarts",
        "job.training.max_batch_len",
        "job.training.num_epochs",
        "job.training.seed",
        "job.training.save_samples",
        "job.nproc_per_node",
        "job.benchmark.iters",
        "job.benchmark.warmup",
    ],
)
def test_integers_have_an_upper_bound(write_stack, capsys, tmp_path, field: str) -> None:
    changes: dict[str, object] = {field: HUGE}
    if field.startswith("job.elastic"):
        changes["job.elastic.min_nodes"] = 1
    path = write_stack("bad", cluster_config(**changes))
    err = preview_error(capsys, path, tmp_path / "out")
    assert f"gpu-cluster:cluster.{field}: Input should be less than or equal to" in err


def test_every_config_integer_is_bounded() -> None:
    # A new integer field without `le=` would let a 300-digit number reach the program.
    from pydantic import BaseModel

    from components.models.config import ClusterConfig
    from components.models.messages import _model_in

    unbounded: list[str] = []

    def walk(model: type[BaseModel], prefix: str) -> None:
        for name, field in model.model_fields.items():
            nested = _model_in(field.annotation)
            if nested is not None:
                walk(nested, f"{prefix}{name}.")
            elif "int" in str(field.annotation) and not any(hasattr(m, "le") for m in field.metadata):
                if "Le(le=" in str(field.annotation):  # the integers inside a dict or list are bounded
                    continue
                unbounded.append(prefix + name)

    walk(ClusterConfig, "")
    assert unbounded == []


def test_plaintext_ibm_provider_api_key_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack("leaky", extra={"ibm:ibmcloudApiKey": "not-so-secret"})
    err = preview_error(capsys, path, tmp_path / "out")
    assert "Pulumi.leaky.yaml: ibm:ibmcloudApiKey: holds a plaintext value" in err
    assert "pulumi config set --secret ibm:ibmcloudApiKey" in err
    assert "not-so-secret" not in err


def test_dotted_keys_are_explained_once(write_stack, capsys, tmp_path) -> None:
    cluster = cluster_config(nodes=...)
    cluster["nodes.profile"] = "gx3-48x240x2l40s"
    cluster["nodes.count"] = 2
    err = preview_error(capsys, write_stack("dotted", cluster), tmp_path / "out")
    lines = err.strip().splitlines()
    assert len(lines) == 2, lines
    assert "gpu-cluster:cluster.nodes.profile: dotted keys must be nested: write 'nodes:' with 'profile: ...'" in err
    assert "Field required" not in err


def test_misspelled_key_names_the_closest_one(write_stack, capsys, tmp_path) -> None:
    cluster = cluster_config(**{"network.nics_per_node": ...})
    cluster["network"]["nics_per_nod"] = 2
    err = preview_error(capsys, write_stack("typo", cluster), tmp_path / "out")
    assert "gpu-cluster:cluster.network.nics_per_nod: unknown key; did you mean nics_per_node?" in err
    assert "Field required" not in err  # the required key is the one misspelled


def test_unknown_key_far_from_any_field_says_only_that(write_stack, capsys, tmp_path) -> None:
    err = preview_error(capsys, write_stack("odd", cluster_config(**{"network.turbo": True})), tmp_path / "out")
    assert err.strip().endswith("gpu-cluster:cluster.network.turbo: unknown key")


def test_messages_carry_no_pydantic_prefix(write_stack, capsys, tmp_path) -> None:
    err = preview_error(capsys, write_stack("bad", cluster_config(name_prefix="Bad")), tmp_path / "out")
    assert "gpu-cluster:cluster.name_prefix: must be lowercase letters" in err
    assert "Value error" not in err


def test_an_integer_too_long_to_convert_is_a_yaml_error(write_stack, capsys, tmp_path) -> None:
    text = (
        "config:\n  gpu-cluster:cluster:\n    zone: us-east-3\n    nodes: {profile: gx3-48x240x2l40s, count: "
        + "9" * 5000
        + "}\n    network: {variant: vnic, nics_per_node: 2}\n"
    )
    err = preview_error(capsys, write_stack("huge", text=text), tmp_path / "out")
    assert "Pulumi.huge.yaml: YAML error at line 4" in err and "an integer of 5000 digits" in err


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("kubernetes.namespace", "training\n"),
        ("name_prefix", "lab\n"),
        ("job.storage.storage_class", "ocs-cephfs\n"),
        ("job.env", {"MY_VAR\n": "1"}),
        ("job.storage.size", "100Gi\n"),
    ],
)
def test_a_trailing_newline_is_not_part_of_a_valid_name(
    write_stack, capsys, tmp_path, field: str, value: object
) -> None:
    """``$`` matches before a final newline: every name is matched whole (a YAML block scalar ends
    in one), so the cluster never receives ``training\\n``."""
    path = write_stack("bad", cluster_config(**{field: value}))
    err = preview_error(capsys, path, tmp_path / "out")
    assert f"gpu-cluster:cluster.{field.split('.')[0]}" in err
