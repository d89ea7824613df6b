"""The package's provider as the engine runs it: ``provider/__main__.py`` in a process of its own, given the
engine's address, printing its port and answering ``GetSchema`` and ``Construct`` over gRPC.  The engine and the
resource monitor are bare gRPC servers on 127.0.0.1 (every method unimplemented, as the SDK tolerates for its
feature probes): a refused Construct registers nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2
from pulumi.runtime.proto import engine_pb2_grpc, provider_pb2, provider_pb2_grpc, resource_pb2, resource_pb2_grpc

from components.package import PACKAGE, TOKEN
from components.package.package_provider import NOT_PLAIN

from ...conftest import PROJECT_ROOT, standalone_config
from .test_package_inputs import package_inputs

pytestmark = pytest.mark.slow  # a Python process that imports the SDK and the project: about two seconds

START_DEADLINE_S = 120
"""Kill the provider if it has not printed its port by then (a hung start must not hang the suite)."""


class _Monitor(resource_pb2_grpc.ResourceMonitorServicer):
    """Supports no feature, registers nothing: what a refused Construct needs of a monitor."""

    def GetDeploymentInfo(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 - gRPC name
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "GetDeploymentInfo")  # the SDK probes each feature then

    def SupportsFeature(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 - gRPC name
        return resource_pb2.SupportsFeatureResponse(hasSupport=False)


@pytest.fixture(scope="module")
def engine() -> Iterator[str]:
    """A stand-in engine and resource monitor on one port: the addresses Construct is given."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    engine_pb2_grpc.add_EngineServicer_to_server(engine_pb2_grpc.EngineServicer(), server)
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(_Monitor(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield f"127.0.0.1:{port}"
    server.stop(None)


@pytest.fixture(scope="module")
def plugin(engine: str) -> Iterator[provider_pb2_grpc.ResourceProviderStub]:
    process = subprocess.Popen(
        [sys.executable, str(PROJECT_ROOT / "provider" / "__main__.py"), engine],
        cwd=PROJECT_ROOT / "provider",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(START_DEADLINE_S, process.kill)
    watchdog.start()
    try:
        port = process.stdout.readline().strip() if process.stdout else ""
    finally:
        watchdog.cancel()
    assert port.isdigit(), f"no port: {port!r} {process.stderr.read() if process.stderr else ''}"
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield provider_pb2_grpc.ResourceProviderStub(channel)
    finally:
        channel.close()
        process.kill()
        process.communicate()  # reaped, its pipes closed


def _struct(value: dict[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(value)
    return struct


def _construct(
    stub: provider_pb2_grpc.ResourceProviderStub, engine: str, inputs: dict[str, Any], **dependencies: list[str]
) -> grpc.RpcError:
    request = provider_pb2.ConstructRequest(
        project="consumer",
        stack="dev",
        organization="organization",
        type=TOKEN,
        name="exp",
        inputs=_struct(inputs),
        monitorEndpoint=engine,
        dryRun=True,
    )
    for key, urns in dependencies.items():
        request.inputDependencies[key].urns.extend(urns)
    with pytest.raises(grpc.RpcError) as refused:
        stub.Construct(request, timeout=60)
    return refused.value


def test_the_served_schema_has_the_union_the_secrets_and_the_roll_out(plugin: Any) -> None:
    schema = json.loads(plugin.GetSchema(provider_pb2.GetSchemaRequest()).schema)
    resource = schema["resources"][TOKEN]
    nodes = schema["types"][f"{PACKAGE}:index:NodesInputs"]["properties"]
    assert nodes["allowInstanceStop"]["oneOf"] == [{"type": "boolean"}, {"type": "string"}]
    assert resource["inputProperties"]["kubeadmToken"]["secret"] is True
    assert resource["properties"]["appliedRollout"]["type"] == "string"


def test_construct_refuses_a_typo_with_did_you_mean(plugin: Any, engine: str) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey="ssh-ed25519 AAAA test")
    inputs["cluster"]["network"]["vpcCidrr"] = "10.1.0.0/16"
    error = _construct(plugin, engine, inputs)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == (
        "GpuCluster exp: invalid inputs:\ncluster.network.vpcCidrr: unknown key; did you mean vpcCidr?"
    )


def test_construct_names_a_cluster_that_depends_on_a_resource(plugin: Any, engine: str) -> None:
    inputs = package_inputs(standalone_config(), sshPublicKey="ssh-ed25519 AAAA test")
    vpc = "urn:pulumi:dev::consumer::ibm:index/isVpc:IsVpc::vpc"
    error = _construct(plugin, engine, inputs, cluster=[vpc])
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == f"GpuCluster exp: invalid inputs:\ncluster: {NOT_PLAIN}"
