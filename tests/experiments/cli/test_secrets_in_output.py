"""A secret in a stack file (issue 37): a refusal names the key, never the value; a near miss of a secret key is
refused rather than ignored by its provider; and the offline preview writes no secret's plaintext anywhere."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from experiments.cli.main import main

from ...conftest import PROJECT_ROOT

SECRET = "Pl41nS3cretValue-0123456789"


def _stack(tmp_path: Path, key: str, value: object) -> Path:
    document = yaml.safe_load((PROJECT_ROOT / "Pulumi.dev.yaml").read_text())
    document["config"][key] = value
    path = tmp_path / "Pulumi.secrets.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def _everything_written(root: Path) -> str:
    return "".join(p.read_text(errors="replace") for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("key", "line"),
    [
        ("ibm:ibmcloudApiKey", "ibm:ibmcloudApiKey: holds a plaintext value"),
        ("gpu-cluster:ibmcloudApiKey", "gpu-cluster:ibmcloudApiKey: holds a plaintext value"),
        ("gpu-cluster:kubeconfig", "gpu-cluster:kubeconfig: holds a plaintext value"),
        ("gpu-cluster:kubeadmToken", "gpu-cluster:kubeadmToken: holds a plaintext value"),
        ("ibm:ibmcloud_api_key", "ibm:ibmcloud_api_key: unknown key; did you mean ibm:ibmcloudApiKey?"),
        ("ibm:IbmcloudApiKey", "ibm:IbmcloudApiKey: unknown key; did you mean ibm:ibmcloudApiKey?"),
        ("ibm:ibmcloud-api-key", "ibm:ibmcloud-api-key: unknown key; did you mean ibm:ibmcloudApiKey?"),
        ("gpu-cluster:ibmCloudApiKey", "gpu-cluster:ibmCloudApiKey: unknown key"),
    ],
)
@pytest.mark.parametrize("verb", ["preview", "predict"])
def test_a_plaintext_or_misspelt_secret_is_named_never_shown(tmp_path, capsys, key: str, line: str, verb: str) -> None:
    """Before: ``ibm:ibmcloud_api_key`` (a near miss the IBM provider ignores) was accepted in plain text."""
    out = tmp_path / "out"
    argv = [verb, str(_stack(tmp_path, key, SECRET))]
    if verb == "preview":
        argv += ["--out", str(out), "--state-dir", str(tmp_path / "state")]
    assert main(argv) == 2
    captured = capsys.readouterr()
    (error,) = captured.err.strip().splitlines()
    assert line in error, error
    assert SECRET not in captured.out + captured.err
    assert not out.exists() and not (tmp_path / "state").exists()


def test_near_misses_given_as_secrets_are_refused_too(tmp_path, capsys) -> None:
    stack = _stack(tmp_path, "ibm:ibmcloud_api_key", {"secure": "v1:abc:def"})
    assert main(["predict", str(stack)]) == 2
    assert "ibm:ibmcloud_api_key: unknown key; did you mean ibm:ibmcloudApiKey?" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("kubernetes:kubeconfig", f"apiVersion: v1\nusers: [{{user: {{token: {SECRET}}}}}]"),
        ("ibm:iaasClassicApiKey", SECRET),
    ],
)
def test_the_offline_preview_writes_no_plaintext_of_a_provider_secret(tmp_path, capsys, key: str, value: str) -> None:
    """Other providers' credentials the program never reads: the preview may run, but neither its output, its
    files (preview.json, manifests) nor the render cache hold them."""
    out, state = tmp_path / "out", tmp_path / "state"
    stack = _stack(tmp_path, key, value)
    assert main(["preview", str(stack), "--out", str(out), "--state-dir", str(state)]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert (out / "preview.json").is_file()
    assert SECRET not in _everything_written(out) + _everything_written(state)


def test_the_offline_preview_writes_no_encrypted_secrets_placeholder_as_a_value(tmp_path, capsys) -> None:
    """Secrets given ``secure:``: the preview stands in placeholders, and the ciphertext is written nowhere."""
    cipher = "v1:Q2lwaGVyVGV4dA==:c2VjcmV0LWNpcGhlcnRleHQtOTk="
    stack = _stack(tmp_path, "ibm:ibmcloudApiKey", {"secure": cipher})
    out, state = tmp_path / "out", tmp_path / "state"
    assert main(["preview", str(stack), "--out", str(out), "--state-dir", str(state)]) == 0
    written = _everything_written(out) + _everything_written(state) + capsys.readouterr().out
    assert cipher not in written and "c2VjcmV0LWNpcGhlcnRleHQtOTk" not in written
