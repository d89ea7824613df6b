"""What ``load`` reads besides the cluster mapping: the stack's secrets, from its ``pulumi.Config`` or from a
component's inputs (``components.package``), both through ``ConfigSource``."""

from __future__ import annotations

from typing import Any, Protocol

import pulumi

from components.checks.source_checks import creates_ssh_key, join_secret_keys
from components.checks.validation import ConfigurationError
from components.compat import config_is_secret
from components.models.config import (
    MUST_BE_SECRET,
    SSH_PUBLIC_KEY,
    ClusterConfig,
)
from components.models.secret_rules import plaintext_secret_problem, ssh_public_key_problem

__all__ = ["ConfigSource", "join_secrets", "refuse_plaintext_secrets", "ssh_public_key"]


def refuse_plaintext_secrets() -> None:
    """Secret keys must hold Pulumi secrets: a plaintext value would sit in the stack file."""
    for full_key in MUST_BE_SECRET:
        if pulumi.runtime.get_config(full_key) is None:
            continue
        if problem := plaintext_secret_problem(full_key, config_is_secret(full_key)):
            raise ConfigurationError([problem])


class ConfigSource(Protocol):
    """What ``load`` reads: the stack's ``pulumi.Config``, or a component's inputs (``components.package``)."""

    def get(self, key: str) -> str | None: ...
    def get_secret(self, key: str) -> pulumi.Output[str] | None: ...
    def require_secret(self, key: str) -> pulumi.Output[str]: ...
    def require_object(self, key: str) -> Any: ...


def ssh_public_key(config: ConfigSource, cluster: ClusterConfig) -> pulumi.Output[str] | None:
    """The key to create, unless the stack names an existing one (or manages no cloud resources)."""
    if problem := ssh_public_key_problem(cluster, config.get(SSH_PUBLIC_KEY) is not None):
        raise ConfigurationError([problem])
    if cluster.layers == "kubernetes" or cluster.nodes.source == "adopt":
        return None  # no instance is created: the adopted workers keep their keys
    if creates_ssh_key(cluster):
        return config.require_secret(SSH_PUBLIC_KEY)
    return None


def join_secrets(config: ConfigSource, cluster: ClusterConfig) -> dict[str, pulumi.Output[str]] | None:
    if cluster.nodes.source != "join":
        return None
    return {key: config.require_secret(key) for key in join_secret_keys(cluster)}
