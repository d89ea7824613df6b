"""The rolling steps' providers in the SDK's own dynamic-provider host (``python -m pulumi.dynamic``, the process the
engine starts for ``pulumi-python:dynamic`` resources), driven over gRPC as the engine drives them (Configure, Check,
Create, Diff, Read, Update, Delete) against the HTTP stand-ins of the IBM VPC API and the Kubernetes API; and the
names the state holds them by, pinned."""

from __future__ import annotations

import base64
import io
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from pulumi.dynamic import ResourceProvider
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from components.compat import finished
from components.ops.providers import _InServiceProvider, _OutOfServiceProvider
from components.ops.rolling import OUT_OF_SERVICE
from components.ops.selection import _SelectionProvider

from ...conftest import PROJECT_ROOT
from .conftest import world_of
from .http_standins import API_KEY, HttpStandIn
from .standin_connect import STANDIN_URL, connect_to_standins
from .test_rolling import ATTACH, GPU_MHC

HOST_START_S = 30.0
"""How long the host may take to print its port (it imports the SDK; about a second here)."""


def serialized(provider: ResourceProvider) -> str:
    """``__provider`` as ``pulumi.dynamic.Resource`` writes it (pickle left as found: components.compat says why)."""
    hooks = pickle._Pickler._batch_setitems, pickle._Pickler.save_dict  # type: ignore[attr-defined]
    try:
        return serialize_provider(provider)
    finally:
        pickle._Pickler._batch_setitems, pickle._Pickler.save_dict = hooks  # type: ignore[attr-defined]


def _struct(values: dict[str, Any]) -> Any:
    return finished(rpc.serialize_properties(values, {}))


class ProviderHost:
    """``python -m pulumi.dynamic`` started as the engine starts a plugin: it prints its port, then serves."""

    def __init__(self, standin_url: str) -> None:
        environment = {**os.environ, "PULUMI_PROJECT": "gpu-cluster", STANDIN_URL: standin_url}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pulumi.dynamic"],
            cwd=PROJECT_ROOT,  # where the pickled references (components, tests) import from
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        port = self.process.stdout.readline().strip()  # type: ignore[union-attr]
        assert port.isdigit(), self.process.stderr.read()  # type: ignore[union-attr]
        self.channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(self.channel).result(timeout=HOST_START_S)
        self.stub = provider_pb2_grpc.ResourceProviderStub(self.channel)

    def close(self) -> None:
        self.channel.close()
        self.process.kill()
        self.process.communicate()

    def configure(self, config: dict[str, str]) -> None:
        self.stub.Configure(provider_pb2.ConfigureRequest(args=_struct(config), acceptSecrets=False))

    def check(self, urn: str, olds: dict[str, Any], news: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        answer = self.stub.Check(provider_pb2.CheckRequest(urn=urn, olds=_struct(olds), news=_struct(news)))
        return rpc.deserialize_properties(answer.inputs), [f"{f.property}: {f.reason}" for f in answer.failures]

    def create(self, urn: str, props: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        answer = self.stub.Create(provider_pb2.CreateRequest(urn=urn, properties=_struct(props)))
        return answer.id, rpc.deserialize_properties(answer.properties)

    def diff(self, urn: str, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> Any:
        return self.stub.Diff(provider_pb2.DiffRequest(id=id_, urn=urn, olds=_struct(olds), news=_struct(news)))

    def read(self, urn: str, id_: str, props: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        answer = self.stub.Read(provider_pb2.ReadRequest(id=id_, urn=urn, properties=_struct(props)))
        return answer.id, rpc.deserialize_properties(answer.properties)

    def update(self, urn: str, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> dict[str, Any]:
        answer = self.stub.Update(provider_pb2.UpdateRequest(id=id_, urn=urn, olds=_struct(olds), news=_struct(news)))
        return rpc.deserialize_properties(answer.properties)

    def delete(self, urn: str, id_: str, props: dict[str, Any]) -> None:
        self.stub.Delete(provider_pb2.DeleteRequest(id=id_, urn=urn, properties=_struct(props)))


@pytest.fixture
def served(records: Any) -> Iterator[tuple[Any, HttpStandIn, ProviderHost, dict[str, Any]]]:
    """One adopted worker of an sriov stack, its stand-ins served, a provider host, and the step's inputs as the
    program declares them (the stack's credentials as the engine hands them over: plain, acceptSecrets off)."""
    recorded = records(1)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    step = next(r for r in recorded if r.type.endswith(":WorkerOutOfService"))
    with HttpStandIn(world) as server:
        host = ProviderHost(server.url)
        try:
            props = {**step.inputs, "ibm_api_key": API_KEY, "kubeconfig": server.kubeconfig()}
            props["timeouts"] = {**props["timeouts"], "poll_s": 5.0}
            yield world, server, host, props
        finally:
            host.close()


def test_the_rolling_steps_run_their_whole_life_in_the_sdks_provider_host(served: Any) -> None:
    world, server, host, declared = served
    urn = "urn:pulumi:ops::gpu-cluster::pulumi-python:dynamic/gpu-cluster:WorkerOutOfService::t-node0-out-of-service"
    host.configure({"gpu-cluster:ibmcloudApiKey": API_KEY, "gpu-cluster:kubeconfig": server.kubeconfig()})
    news = {**declared, "__provider": serialized(_OutOfServiceProvider(connect_to_standins))}
    checked, failures = host.check(urn, {}, news)
    assert failures == [] and checked == news

    id_, outs = host.create(urn, checked)  # pulumi up: pause the health checks, cordon, drain, stop
    assert id_ == declared["holder"] == "t/t-node0" and outs["token"] and outs["node"] == "t-node0"
    assert world.events("t-node0") == ["mark", "cordon", "evict team/t-node0-app", "stop", "stopped"]
    assert world.by_name("t-node0").status == "stopped" and world.nodes["t-node0"].annotations[OUT_OF_SERVICE]

    # Stopped, its attachments still to come (the IBM resources' part): nothing for this step to do again.
    assert host.diff(urn, id_, outs, news).changes == provider_pb2.DiffResponse.DIFF_NONE
    assert host.read(urn, id_, outs) == (id_, {**outs, "observed": "attached or stopped"})

    for name in ATTACH:  # what the cluster network attachments do; the worker comes back with them
        world.attach(next(iter(world.instances)), name.removeprefix("attach "))
    world.log.clear()
    host.delete(urn, id_, outs)  # pulumi destroy: start, Ready, uncordon, resume the checks
    assert world.events("t-node0") == ["start", "running", "uncordon", "unmark"]

    # A new plan for the worker (another generation) runs the sequence again, through Update.
    world.log.clear()
    changed = {**news, "generation": "another"}
    assert host.diff(urn, id_, outs, changed).changes == provider_pb2.DiffResponse.DIFF_SOME
    updated = host.update(urn, id_, outs, changed)
    assert updated["generation"] == "another" and updated["token"] != outs["token"]
    assert world.events("t-node0")[:2] == ["mark", "cordon"] and world.by_name("t-node0").status == "stopped"
    # Every call reached the stand-ins through the real clients, with the stack's key.
    assert ("POST", "/identity/token") in [(m, p) for m, p, _, _ in server.state["requests"]]

    # The selection guard, in the same host (one process per deployment): a changed selection fails Check with
    # the provider's own message, which the engine shows against the property.
    urn = "urn:pulumi:ops::gpu-cluster::pulumi-python:dynamic/gpu-cluster:WorkerSelection::ops-selection"
    olds = {"workers": ["t-node0"], "allow_change": False, "addresses": {}, "hosts": {}}
    olds["__provider"] = serialized(_SelectionProvider())
    _, failures = host.check(urn, olds, {**olds, "workers": ["t-node1"]})
    assert len(failures) == 1 and failures[0].startswith("workers: ") and "t-node0" in failures[0]
    assert host.check(urn, olds, olds)[1] == []


def _references(provider: ResourceProvider) -> set[str]:
    """Every global the pickled provider names from this project (module and qualified name)."""
    found: set[str] = set()

    class Recording(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if module.split(".")[0] in ("components", "experiments", "tests"):
                found.add(f"{module}.{name}")
            return super().find_class(module, name)

    Recording(io.BytesIO(base64.b64decode(serialized(provider)))).load()
    return found


def test_the_pickled_provider_paths_are_pinned() -> None:
    """The state of every deployed stack holds each step's provider pickled *by reference*: the module and qualified
    name of its class and of ``connect_from_props``.  ``refresh`` and ``destroy`` unpickle those names, so renaming
    or moving any of them breaks every existing stack (its steps could then neither be read nor deleted).  Change
    this list only together with a migration (an alias module that keeps the old names importable)."""
    assert _references(_OutOfServiceProvider()) == {
        "components.ops.providers._OutOfServiceProvider",
        "components.ops.providers.connect_from_props",
    }
    assert _references(_InServiceProvider()) == {
        "components.ops.providers._InServiceProvider",
        "components.ops.providers.connect_from_props",
    }
    assert _references(_SelectionProvider()) == {"components.ops.selection._SelectionProvider"}
