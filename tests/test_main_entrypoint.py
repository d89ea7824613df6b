"""``__main__.py``, the program the Pulumi CLI runs, under the same mock engine."""

from __future__ import annotations

import json
import runpy

import pulumi
import pytest

from experiments.offline.engine import run_offline
from experiments.stacks.stackfile import load_stack
from experiments.state.preview import run_preview

from .conftest import PROJECT_ROOT, cluster_config, simulated_cluster_of_config

MAIN = str(PROJECT_ROOT / "__main__.py")


def run_main(stack_config: dict[str, str], secret_keys: list[str]) -> list[str]:
    result = run_offline(
        lambda: runpy.run_path(MAIN) and {},
        project="gpu-cluster",
        stack="dev",
        config=stack_config,
        secret_keys=secret_keys,
        cluster=simulated_cluster_of_config(stack_config),
    )
    return sorted(r.urn for r in result.resources)


def test_main_declares_what_the_preview_declares() -> None:
    stack = load_stack("dev")
    expected = sorted(r.urn for r in run_preview(stack).result.resources)
    assert run_main(stack.engine_config, stack.secret_keys) == expected


@pytest.fixture
def on_this_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine runs here, not on a thread of its own, so that its monitor stays readable afterwards."""
    from experiments.offline import engine

    monkeypatch.setattr(engine, "on_a_shallow_stack", lambda call: call())


@pytest.mark.usefixtures("on_this_thread")
def test_main_reports_invalid_config_as_a_run_error() -> None:
    bad = cluster_config(**{"network.variant": "sriov", "network.nics_per_node": 1})
    config = {"gpu-cluster:cluster": json.dumps(bad), "gpu-cluster:sshPublicKey": "ssh-ed25519 AAAA test"}
    with pytest.raises(pulumi.RunError, match=r"gpu-cluster:cluster\.network\.variant: sriov needs a cluster network"):
        run_main(config, ["gpu-cluster:sshPublicKey"])
    # Nothing reached the engine: config is validated before the first resource.
    assert pulumi.runtime.settings.get_monitor().get_registered_resources() == {}


@pytest.mark.usefixtures("on_this_thread")
def test_plaintext_secret_is_refused_under_the_cli_too() -> None:
    config = {
        "gpu-cluster:cluster": json.dumps(cluster_config()),
        "gpu-cluster:sshPublicKey": "ssh-ed25519 AAAA plaintext",
    }
    with pytest.raises(pulumi.RunError, match=r"gpu-cluster:sshPublicKey: holds a plaintext value"):
        run_main(config, [])
    assert pulumi.runtime.settings.get_monitor().get_registered_resources() == {}


def test_the_ibm_providers_own_api_key_config_is_used_as_a_secret() -> None:
    stack = load_stack("dev")
    config = {**stack.engine_config, "ibm:ibmcloudApiKey": "hush"}
    result = run_offline(
        lambda: runpy.run_path(MAIN) and {},
        project="gpu-cluster",
        stack="dev",
        config=config,
        secret_keys=[*stack.secret_keys, "ibm:ibmcloudApiKey"],
        cluster=stack.simulated,
    )
    provider = next(r for r in result.resources if r.type == "pulumi:providers:ibm")
    assert provider.inputs["ibmcloudApiKey"] == "[secret]"
