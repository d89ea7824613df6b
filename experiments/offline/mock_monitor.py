"""The SDK's mock monitor, answering every call whole on the event loop's thread.

The SDK's ``MockMonitor`` serializes its answers through ``_sync_await``, which runs the event loop again
from inside the call; so the SDK hands each monitor call to a worker thread (``run_in_executor``), a
thread switch per registration.  The answers of the offline engine's mocks are plain data (no Outputs,
nothing to wait for): serializing them completes without the loop (``_finished``), so the run's
default executor calls the monitor right where the SDK submits the call (``own_event_loop``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import pulumi
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import rpc
from pulumi.runtime.proto import resource_pb2

__all__ = ["PlainAnswerMonitor", "own_event_loop"]

T = TypeVar("T")


class PlainAnswerMonitor(pulumi_mocks.MockMonitor):
    """``MockMonitor`` without the loop; ``registered`` sees each registration with its deserialized inputs."""

    def registered(self, request: Any, urn: str, resource_id: str, inputs: dict[str, Any]) -> None:
        """Called once per registered resource (the stack itself aside)."""

    def RegisterResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        urn = self.make_urn(request.parent, request.type, request.name)
        if request.type == "pulumi:pulumi:Stack":
            return resource_pb2.RegisterResourceResponse(urn=urn)
        inputs = rpc.deserialize_properties(request.object)
        resource_id, state = cast(tuple[str, dict[str, Any]], self.mocks.new_resource(pulumi.runtime.MockResourceArgs(
            typ=request.type, name=request.name, inputs=inputs, provider=request.provider,
            resource_id=request.importId, custom=request.custom or False)))
        answer = _finished(rpc.serialize_properties(state, {}))
        self.resources[urn] = pulumi_mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)
        self.registered(request, urn, resource_id, inputs)
        return resource_pb2.RegisterResourceResponse(urn=urn, id=resource_id, object=answer)

    def ReadResource(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        state = rpc.deserialize_properties(request.properties)
        resource_id, state = cast(tuple[str, dict[str, Any]], self.mocks.new_resource(pulumi.runtime.MockResourceArgs(
            typ=request.type, name=request.name, inputs=state, provider=request.provider, resource_id=request.id)))
        urn = self.make_urn(request.parent, request.type, request.name)
        self.resources[urn] = pulumi_mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)
        return resource_pb2.ReadResourceResponse(urn=urn, properties=_finished(rpc.serialize_properties(state, {})))

    def Invoke(self, request: Any) -> Any:  # noqa: N802 - gRPC method name
        if request.tok == "pulumi:pulumi:getResource":
            raise NotImplementedError("the offline engine does not answer pulumi:pulumi:getResource")
        args = rpc.deserialize_properties(request.args)
        answer = self.mocks.call(pulumi.runtime.MockCallArgs(token=request.tok, args=args, provider=request.provider))
        result, failures = answer if isinstance(answer, tuple) else (answer, None)
        if failures:  # the engine's mocks never fail a call
            raise NotImplementedError("the offline engine's mocks answer every call")
        return resource_pb2.ResourceInvokeResponse(**{"return": _finished(rpc.serialize_properties(result, {}))})


def _finished(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never waits (serializing plain data), without an event loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise RuntimeError("the offline engine's mocks answered with a value that is not plain data")


class _OnTheCallingThread(concurrent.futures.ThreadPoolExecutor):
    """An executor that runs what it is handed at once, where it is handed (it never starts a thread)."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting coroutine, as a worker would
            future.set_exception(error)
        return future


@contextmanager
def own_event_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A fresh event loop for one run, whose executor is the calling thread; the previous one afterwards
    (or a new one: the SDK's next run expects a current loop)."""
    try:
        previous: asyncio.AbstractEventLoop | None = asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:
        previous = None
    loop = asyncio.new_event_loop()
    loop.set_default_executor(_OnTheCallingThread())
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        loop.close()
        asyncio.set_event_loop(previous or asyncio.new_event_loop())
