"""The SDK's mock monitor, answering every call whole on the event loop's thread: the answers of the
offline engine's mocks are plain data, serialized without a loop (``components.compat.finished``, which says
why), so the run's executor can be the calling thread (``components.compat.own_event_loop``).
"""

from __future__ import annotations

from typing import Any, cast

import pulumi
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import rpc
from pulumi.runtime.proto import resource_pb2

from components.compat import finished

__all__ = ["PlainAnswerMonitor"]


class PlainAnswerMonitor(pulumi_mocks.MockMonitor):
    """``MockMonitor`` without the loop; ``registered`` sees each registration with its deserialized inputs."""

    def registered(self, request: Any, urn: str, resource_id: str, inputs: dict[str, Any]) -> None:
        """Called once per registered resource (the stack itself aside)."""

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == "pulumi:pulumi:Stack":
            return resource_pb2.RegisterResourceResponse(urn=urn)
        inputs = rpc.deserialize_properties(request.object)
        resource_id, state = cast(
            tuple[str, dict[str, Any]],
            self.mocks.new_resource(
                pulumi.runtime.MockResourceArgs(
                    typ=request.type,
                    name=request.name,
                    inputs=inputs,
                    provider=request.provider,
                    resource_id=request.importId,
                    custom=request.custom or False,
                )
            ),
        )
        answer = finished(rpc.serialize_properties(state, {}))
        self.resources[urn] = pulumi_mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)
        self.registered(request, urn, resource_id, inputs)
        return resource_pb2.RegisterResourceResponse(urn=urn, id=resource_id, object=answer)

    def ReadResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        state = rpc.deserialize_properties(request.properties)
        resource_id, state = cast(
            tuple[str, dict[str, Any]],
            self.mocks.new_resource(
                pulumi.runtime.MockResourceArgs(
                    typ=request.type, name=request.name, inputs=state, provider=request.provider, resource_id=request.id
                )
            ),
        )
        urn = self.make_urn(request.parent, request.type, request.name)
        self.resources[urn] = pulumi_mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)
        return resource_pb2.ReadResourceResponse(urn=urn, properties=finished(rpc.serialize_properties(state, {})))

    def Invoke(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        if request.tok == "pulumi:pulumi:getResource":
            raise NotImplementedError("the offline engine does not answer pulumi:pulumi:getResource")
        args = rpc.deserialize_properties(request.args)
        answer = self.mocks.call(pulumi.runtime.MockCallArgs(token=request.tok, args=args, provider=request.provider))
        result, failures = answer if isinstance(answer, tuple) else (answer, None)
        if failures:  # the engine's mocks never fail a call
            raise NotImplementedError("the offline engine's mocks answer every call")
        return resource_pb2.ResourceInvokeResponse(**{"return": finished(rpc.serialize_properties(result, {}))})
