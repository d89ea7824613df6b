"""``refresh`` and ``destroy`` as the engine drives the rolling steps: ``read`` reports reality (a vanished
instance leaves the state), and the credentials are the stack's configuration now, not the state's."""

from __future__ import annotations

from typing import Any

from pulumi.dynamic import ConfigureRequest
from pulumi.dynamic.config import Config

from components.ops.providers import _InServiceProvider, _OutOfServiceProvider
from components.ops.rolling import OUT_OF_SERVICE

from .standins import World

PROPS = {
    "node": "w-1",
    "instance_id": "i-1",
    "holder": "s/w-1",
    "attachments": ["s-cnic1"],
    "allow_stop": True,
    "ibm_api_key": "key-at-create",
    "kubeconfig": "kubeconfig-at-create",
    "timeouts": {"poll_s": 10.0},
}


def test_refresh_forgets_a_step_whose_instance_is_gone_and_reports_where_a_worker_is() -> None:
    world = World({"i-1": "w-1"})
    provider = _InServiceProvider(lambda _: world.ops())
    assert provider.read("s/w-1", PROPS).outs["observed"] == "in service"
    world.by_name("w-1").status = "stopped"
    world.nodes["w-1"].annotations[OUT_OF_SERVICE] = "s/w-1"
    assert provider.read("s/w-1", PROPS).outs["observed"] == "out of service"
    assert _OutOfServiceProvider(lambda _: world.ops()).read("s/w-1", PROPS).id == "s/w-1"
    del world.instances["i-1"]  # an MHC remediation or a scale-down deleted it
    gone = provider.read("s/w-1", PROPS)
    assert not gone.id and gone.outs == {}


def test_destroy_uses_the_credentials_the_stack_has_now() -> None:
    world = World({"i-1": "w-1"})
    reached: list[dict[str, Any]] = []

    def connect(props: dict[str, Any]) -> Any:
        reached.append(props)
        return world.ops()

    provider = _OutOfServiceProvider(connect)
    config = {"gpu-cluster:ibmcloudApiKey": "key-after-rotation", "gpu-cluster:kubeconfig": "kubeconfig-now"}
    provider.configure(ConfigureRequest(Config(raw_config=config, project_name="gpu-cluster")))
    provider.delete("s/w-1", PROPS)
    assert reached and all(
        p["ibm_api_key"] == "key-after-rotation" and p["kubeconfig"] == "kubeconfig-now" for p in reached
    )
    # Without them in the configuration (the provider's IC_API_KEY, the ambient kubeconfig), the recorded ones.
    bare = _OutOfServiceProvider(connect)
    bare.configure(ConfigureRequest(Config(raw_config={}, project_name="gpu-cluster")))
    reached.clear()
    bare.delete("s/w-1", PROPS)
    assert reached[0]["ibm_api_key"] == "key-at-create"
