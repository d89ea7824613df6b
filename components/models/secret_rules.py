"""The two rules on the stack's secret config keys that both the program and the stack file reader apply
(``components.config_source``, ``experiments.stacks.stackfile``): one wording, one place."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from components.models.config import CLUSTER_KEY, MUST_BE_SECRET, PROJECT, SSH_PUBLIC_KEY

if TYPE_CHECKING:  # a type only
    from components.models.config import ClusterConfig

__all__ = [
    "holds_private_key",
    "near_secret_key_problem",
    "plaintext_secret_problem",
    "public_key_form_problem",
    "ssh_public_key_problem",
]


def plaintext_secret_problem(full_key: str, secret: bool) -> str | None:
    """Why a value under ``full_key`` is refused (None: it is not): a key of ``MUST_BE_SECRET`` holding a
    plaintext value would sit in the stack file.  The program and the stack file reader both ask this."""
    if full_key in MUST_BE_SECRET and not secret:
        return f"{full_key}: holds a plaintext value; set it with 'pulumi config set --secret {full_key} ...'"
    return None


def _folded(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def near_secret_key_problem(full_key: str) -> str | None:
    """Why ``full_key`` is refused (None: it is not): a near miss of a key of ``MUST_BE_SECRET``
    (``ibm:ibmcloud_api_key``, ``ibm:IbmcloudApiKey``), which its provider ignores, so that the key the user meant
    is unset while the value sits in the file.  Names the key, never the value."""
    namespace, _, name = full_key.partition(":")
    for secret_key in MUST_BE_SECRET:
        secret_namespace, _, secret_name = secret_key.partition(":")
        if namespace == secret_namespace and name != secret_name and _folded(name) == _folded(secret_name):
            return (
                f"{full_key}: unknown key; did you mean {secret_key}? (set it with "
                f"'pulumi config set --secret {secret_key} ...')"
            )
    return None


def ssh_public_key_problem(cluster: ClusterConfig, given: bool) -> str | None:
    """Why a given ``sshPublicKey`` is refused (None: it is not): with ``security.ssh_key_name`` naming an
    existing key, one of the two is a mistake.  The program and the stack file reader both ask this."""
    if given and cluster.security.ssh_key_name is not None:
        return (
            f"{PROJECT}:{SSH_PUBLIC_KEY}: unused, because {PROJECT}:{CLUSTER_KEY}.security.ssh_key_name names "
            "an existing key; remove one of them"
        )
    return None


_PUBLIC_KEY_LINE = re.compile(r"(ssh-rsa|ssh-ed25519) AAAA[A-Za-z0-9+/]*={0,2}( [^\r\n]*)?")
"""One line of a ``.pub`` file of the two kinds IBM takes (``ibm_is_ssh_key``: rsa or ed25519): every OpenSSH
public key blob opens with a small length prefix, hence ``AAAA``."""
_PRIVATE_KEY_SIGNS = (
    re.compile(r"PRIVATE KEY", re.IGNORECASE),  # PEM: OPENSSH, RSA, EC, DSA, PKCS#8 and ENCRYPTED forms
    re.compile(r"PuTTY-User-Key-File|Private-Lines|Private-MAC", re.IGNORECASE),  # PuTTY's .ppk
    re.compile(r"b3BlbnNzaC1rZXktdjE"),  # base64 of "openssh-key-v1": an OpenSSH private key's body, armour stripped
)


def holds_private_key(text: str) -> bool:
    """Whether ``text`` carries a private key in any of its usual forms (PEM, OpenSSH, PuTTY, bare base64 body)."""
    return any(sign.search(text) for sign in _PRIVATE_KEY_SIGNS)


def public_key_form_problem(value: object, where: str = f"{PROJECT}:{SSH_PUBLIC_KEY}") -> str | None:
    """Why ``value`` is refused as the nodes' public key (None: it is not): a private key in any form (sent to
    IBM, it would sit in the account's key list) or anything but one OpenSSH public key line.  The message
    never quotes the value: a private key must not reach a log."""
    if isinstance(value, str) and holds_private_key(value):
        return (
            f"{where}: holds a private key, which must never leave your machine; give the public key, the one line "
            "of its .pub file (ssh-keygen -y -f <private key file> prints it)"
        )
    if not isinstance(value, str) or not _PUBLIC_KEY_LINE.fullmatch(value.strip()):
        return (
            f"{where}: not an OpenSSH public key: expected one line 'ssh-ed25519 AAAA... [comment]' or "
            "'ssh-rsa AAAA... [comment]' (IBM takes ed25519 and rsa keys), the contents of a .pub file"
        )
    return None
