"""``sshPublicKey`` holds one OpenSSH public key line, never a private key (issue 37): refused in every form it
may come in (stack file, program config, component input, sweep key file), without the key in the message."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import pulumi
import pytest

from components.models.secret_rules import public_key_form_problem
from experiments.cli.main import main
from experiments.offline.engine import run_offline
from experiments.sweep.cells import SweepSpecError
from experiments.sweep.runners import read_ssh_key

from ...conftest import cluster_config, simulated_cluster_of_config, standalone_config

BODY = "SeCrEtKeyMaterial0123456789abcdefSeCrEt"
"""What no message may show: a stand-in for the private key's material."""

OPENSSH_BODY = f"b3BlbnNzaC1rZXktdjEAAAAA{BODY}"  # base64 of "openssh-key-v1", then the material


def _pem(label: str, body: str, newline: str = "\n") -> str:
    return f"-----BEGIN {label}-----{newline}{body}{newline}-----END {label}-----"


PRIVATE_KEYS = {
    "openssh": _pem("OPENSSH PRIVATE KEY", OPENSSH_BODY) + "\n",
    "pkcs1-rsa": _pem("RSA PRIVATE KEY", f"MIIEpAIBAAKCAQEA{BODY}"),
    "ec": _pem("EC PRIVATE KEY", f"MHcCAQEEI{BODY}"),
    "dsa": _pem("DSA PRIVATE KEY", f"MIIBuwIBAAKBgQ{BODY}"),
    "pkcs8": _pem("PRIVATE KEY", f"MC4CAQAwBQYDK2VwBCIEI{BODY}"),
    "pkcs8-encrypted": _pem("ENCRYPTED PRIVATE KEY", f"MIIFHDBOBgkqhkiG9w0BBQ0w{BODY}"),
    "crlf": _pem("OPENSSH PRIVATE KEY", OPENSSH_BODY, "\r\n") + "\r\n",
    "one-line": _pem("OPENSSH PRIVATE KEY", OPENSSH_BODY, " "),
    "escaped-newlines": _pem("OPENSSH PRIVATE KEY", OPENSSH_BODY, "\\n"),
    "armour-stripped": OPENSSH_BODY,
    "labelled-body": f"ssh-ed25519 {OPENSSH_BODY} me@host",
    "putty": "\n".join(
        (
            "PuTTY-User-Key-File-3: ssh-ed25519",
            "Encryption: none",
            "Public-Lines: 1",
            "AAAAC3Nza",
            "Private-Lines: 1",
            BODY,
        )
    ),
}
PRIVATE = "holds a private key, which must never leave your machine"
PUBLIC = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHsweepTestKey0000000000000000000000000000 me@host"
H100 = {"nodes.profile": "gx3d-160x1792x8h100"}


@pytest.mark.parametrize("form", sorted(PRIVATE_KEYS))
def test_every_private_key_form_is_named_as_such_and_never_quoted(form: str) -> None:
    problem = public_key_form_problem(PRIVATE_KEYS[form])
    assert problem is not None and problem.startswith(f"gpu-cluster:sshPublicKey: {PRIVATE}") and BODY not in problem
    assert "\n" not in problem


def test_a_public_key_line_passes_and_anything_else_is_refused_unquoted() -> None:
    for good in (PUBLIC, "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7 user", f"  {PUBLIC}\n"):
        assert public_key_form_problem(good) is None, good
    for bad in (
        "",
        "ssh-ed25519",
        f"ecdsa-sha2-nistp256 AAAAE2VjZHNh{BODY}",  # IBM takes rsa and ed25519 keys only
        f"{PUBLIC}\n{PUBLIC}",
        f"ssh-ed25519 {BODY}",
        f"ssh-ed25519 AAAA{BODY} comment\nmore",
    ):
        problem = public_key_form_problem(bad)
        assert problem is not None and problem.startswith("gpu-cluster:sshPublicKey: not an OpenSSH public key"), bad
        assert BODY not in problem
    for not_text in (5, None, {"key": PUBLIC}, [PUBLIC]):  # a component input of the wrong type
        problem = public_key_form_problem(not_text)
        assert problem is not None and problem.startswith("gpu-cluster:sshPublicKey: not an OpenSSH public key")


@pytest.mark.parametrize("form", ["openssh", "pkcs8", "putty"])
def test_a_stack_file_with_a_private_key_is_refused_in_one_line(write_stack, capsys, tmp_path, form: str) -> None:
    for value in (PRIVATE_KEYS[form], {"secure": PRIVATE_KEYS[form]}):  # plaintext, or pasted as the ciphertext
        path = write_stack("leak", standalone_config(), extra={"gpu-cluster:sshPublicKey": value})
        out = tmp_path / "out"
        assert main(["preview", str(path), "--out", str(out)]) == 2
        captured = capsys.readouterr()
        assert captured.err.strip().splitlines() == [f"error: {path}: gpu-cluster:sshPublicKey: {PRIVATE}" + _rest()]
        assert BODY not in captured.out + captured.err and not out.exists()


def _rest() -> str:
    problem = public_key_form_problem(PRIVATE_KEYS["openssh"])
    assert problem is not None
    return problem.split(PRIVATE, 1)[1]


@pytest.fixture
def on_this_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    from experiments.offline import engine

    monkeypatch.setattr(engine, "on_a_shallow_stack", lambda call: call())


@pytest.mark.usefixtures("on_this_thread")
@pytest.mark.parametrize(
    ("cluster", "secret"),
    [(standalone_config(), True), (standalone_config(), False), (cluster_config(), True)],
    ids=["creates-a-key", "plaintext", "adopt-creates-none"],
)
def test_the_program_refuses_a_private_key_before_any_resource(cluster: dict, secret: bool) -> None:
    """Under ``pulumi preview``/``up``: a secret holding a private key is refused even where no key is created
    (adopt), and a plaintext one is named as a private key, not merely as plaintext."""
    config = {"gpu-cluster:cluster": json.dumps(cluster), "gpu-cluster:sshPublicKey": PRIVATE_KEYS["openssh"]}
    with pytest.raises(pulumi.RunError) as raised:
        run_offline(
            lambda: runpy.run_path(str(Path(__file__).parents[3] / "__main__.py")) and {},
            project="gpu-cluster",
            stack="dev",
            config=config,
            secret_keys=["gpu-cluster:sshPublicKey"] if secret else [],
            cluster=simulated_cluster_of_config(config),
        )
    assert f"gpu-cluster:sshPublicKey: {PRIVATE}" in str(raised.value) and BODY not in str(raised.value)
    assert pulumi.runtime.settings.get_monitor().get_registered_resources() == {}


def test_the_sweep_key_file_refuses_a_private_key(tmp_path: Path) -> None:
    path = tmp_path / "id_ed25519"
    path.write_text(PRIVATE_KEYS["openssh"])
    with pytest.raises(SweepSpecError) as raised:
        read_ssh_key(path)
    assert str(raised.value).startswith(f"--ssh-public-key-file: {path}: {PRIVATE}") and BODY not in str(raised.value)
    path.write_text(PUBLIC + "\n")
    assert read_ssh_key(path) == PUBLIC
