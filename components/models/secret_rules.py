"""The two rules on the stack's secret config keys that both the program and the stack file reader apply
(``components.config_source``, ``experiments.stacks.stackfile``): one wording, one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.models.config import CLUSTER_KEY, MUST_BE_SECRET, PROJECT, SSH_PUBLIC_KEY

if TYPE_CHECKING:  # a type only
    from components.models.config import ClusterConfig

__all__ = ["plaintext_secret_problem", "ssh_public_key_problem"]


def plaintext_secret_problem(full_key: str, secret: bool) -> str | None:
    """Why a value under ``full_key`` is refused (None: it is not): a key of ``MUST_BE_SECRET`` holding a
    plaintext value would sit in the stack file.  The program and the stack file reader both ask this."""
    if full_key in MUST_BE_SECRET and not secret:
        return f"{full_key}: holds a plaintext value; set it with 'pulumi config set --secret {full_key} ...'"
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
