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
    PROJECT,
    SSH_PUBLIC_KEY,
    ClusterConfig,
)
from components.models.secret_rules import plaintext_secret_problem, public_key_form_problem, ssh_public_key_problem

__all__ = ["ConfigSource", "join_secrets", "refuse_plaintext_secrets", "ssh_public_key"]


def refuse_plaintext_secrets() -> None:
    """Secret keys must hold Pulumi secrets: a plaintext value would sit in the stack file.  A private key
    where the public one belongs is named as such first: stored as a secret, it would still be sent to IBM."""
    for full_key in MUST_BE_SECRET:
        value = pulumi.runtime.get_config(full_key)
        if value is None:
            continue
        if full_key == f"{PROJECT}:{SSH_PUBLIC_KEY}" and (problem := public_key_form_problem(value)):
            raise ConfigurationError([problem])
        if problem := plaintext_secret_problem(full_key, config_is_secret(full_key)):
            raise ConfigurationError([problem])


class ConfigSource(Protocol):
    """What ``load`` reads: the stack's ``pulumi.Config``, or a component's inputs (``components.package``)."""

    def get(self, key: str) -> str | None:
        """The value as text when it is known now (a secret's too), else None (unset, or known only later)."""
        ...

    def get_secret(self, key: str) -> pulumi.Output[str] | None: ...
    def require_secret(self, key: str) -> pulumi.Output[str]: ...
    def require_object(self, key: str) -> Any: ...


def ssh_public_key(config: ConfigSource, cluster: ClusterConfig) -> pulumi.Output[str] | None:
    """The key to create, unless the stack names an existing one (or manages no cloud resources).  Whatever the
    stack creates, a given key must be one public key line: a private key is refused before anything is sent."""
    given = config.get_secret(SSH_PUBLIC_KEY)
    if problem := ssh_public_key_problem(cluster, given is not None):
        raise ConfigurationError([problem])
    known = config.get(SSH_PUBLIC_KEY)
    if known is not None and (problem := public_key_form_problem(known)):
        raise ConfigurationError([problem])
    if not creates_ssh_key(cluster):
        return None  # adopted workers keep their keys; no instance without the cloud layer
    # A key known only later (a component input from another resource) is held to the same rule when it resolves.
    return config.require_secret(SSH_PUBLIC_KEY).apply(_public_key_only)


def _public_key_only(value: str) -> str:
    if problem := public_key_form_problem(value):
        raise ConfigurationError([problem])
    return value


def join_secrets(config: ConfigSource, cluster: ClusterConfig) -> dict[str, pulumi.Output[str]] | None:
    if cluster.nodes.source != "join":
        return None
    return {key: config.require_secret(key) for key in join_secret_keys(cluster)}
