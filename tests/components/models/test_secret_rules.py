"""The two config rules the program and the stack file reader share (``components.models.config``)."""

from __future__ import annotations

from components.checks.validation import parse_cluster
from components.models.config import MUST_BE_SECRET
from components.models.secret_rules import plaintext_secret_problem, ssh_public_key_problem

from ...conftest import cluster_config, standalone_config


def test_a_plaintext_value_under_a_secret_key_is_refused_and_only_there() -> None:
    for key in MUST_BE_SECRET:
        assert plaintext_secret_problem(key, secret=False) == (
            f"{key}: holds a plaintext value; set it with 'pulumi config set --secret {key} ...'"
        )
        assert plaintext_secret_problem(key, secret=True) is None
    assert plaintext_secret_problem("gpu-cluster:cluster", secret=False) is None


def test_a_public_key_beside_an_existing_key_name_is_refused_whatever_the_stack_creates() -> None:
    named = {"security.ssh_key_name": "team-key"}
    for config in (standalone_config(**named), cluster_config(**named)):
        cluster = parse_cluster(config)
        assert ssh_public_key_problem(cluster, given=True) == (
            "gpu-cluster:sshPublicKey: unused, because gpu-cluster:cluster.security.ssh_key_name names an existing "
            "key; remove one of them"
        )
        assert ssh_public_key_problem(cluster, given=False) is None
    assert ssh_public_key_problem(parse_cluster(standalone_config()), given=True) is None
