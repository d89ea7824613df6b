"""``__main__.py`` as the Pulumi CLI runs it: a process of its own started as the Python language host starts it,
config from ``PULUMI_CONFIG`` and ``PULUMI_CONFIG_SECRET_KEYS``, a resource monitor and an engine over real gRPC
(``tests/engine_standin.py``), in a preview where what providers compute is unknown.  Each stack registers the
resources its offline preview shows, and no secret reaches the monitor in plaintext."""

from __future__ import annotations

import json

import pytest

from experiments.offline.engine import SECRET_MASK
from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import run_preview

from .conftest import PROJECT_ROOT, cluster_config
from .engine_standin import LanguageHostRun, run_as_the_language_host

FAST = ("dev", "h100-2n-sriov-rdma-join")
"""In the fast suite (about 2 s each): adopted workers with vNICs, and new nodes joining with cluster NICs (the
stack whose preview once failed on a nested unknown)."""
REPRESENTATIVE = (*FAST, "h100-1n", "h100-2n-sriov", "h100-2n-sriov-rdma")
"""One shipped stack per source and network variant (checked below); the others differ from these in profile,
node and NIC counts only.  Each run is a process of its own (about 2 s, most of it imports): all fourteen would
add some 30 s to ``make test``, whose whole budget is two minutes."""


def _run(stack: str) -> LanguageHostRun:
    shipped = load_stack(stack)
    return run_as_the_language_host(
        PROJECT_ROOT,
        project="gpu-cluster",
        stack=stack,
        config=shipped.engine_config,
        secret_keys=shipped.secret_keys,
        cluster=shipped.simulated,
    )


def test_the_representatives_cover_every_source_and_variant_shipped() -> None:
    def kind(stack: str) -> tuple[str, str]:
        cluster = load_stack(stack).cluster
        return cluster.nodes.source, cluster.network.variant

    assert {kind(s) for s in REPRESENTATIVE} == {kind(s) for s in known_stacks(PROJECT_ROOT)}


@pytest.mark.parametrize("stack", [s if s in FAST else pytest.param(s, marks=pytest.mark.slow) for s in REPRESENTATIVE])
def test_main_under_the_language_host_registers_what_the_offline_preview_shows(stack: str) -> None:
    run = _run(stack)
    assert (run.returncode, run.errors()) == (0, []), run.output
    registered = sorted((r.type, r.name) for r in run.resources)
    offline = run_preview(stack, unknowns=True).result.resources
    assert registered == sorted((r.type, r.name) for r in offline)
    # Secrets arrive as secrets: their values never reach the monitor in plaintext.
    shipped = load_stack(stack)
    sent = json.dumps([r.inputs for r in run.resources])
    for key in shipped.secret_keys:
        assert shipped.engine_config[key] not in sent
    assert SECRET_MASK in sent or not shipped.secret_keys


@pytest.mark.slow  # a process of its own (about 2 s); tests/test_main_entrypoint.py checks the message in-process
def test_invalid_config_ends_the_run_with_the_programs_message_and_nothing_registered() -> None:
    bad = cluster_config(**{"network.variant": "sriov", "network.nics_per_node": 1})
    run = run_as_the_language_host(
        PROJECT_ROOT,
        project="gpu-cluster",
        stack="bad",
        config={"gpu-cluster:cluster": json.dumps(bad), "gpu-cluster:sshPublicKey": "ssh-ed25519 AAAA test"},
        secret_keys=["gpu-cluster:sshPublicKey"],
        cluster=None,
    )
    assert run.returncode == 1  # a RunError: the host shows the logged message, no traceback
    (error,) = run.errors()
    assert "gpu-cluster:cluster.network.variant: sriov needs a cluster network" in error
    assert "Traceback" not in error
    assert [r.type for r in run.resources] == []
