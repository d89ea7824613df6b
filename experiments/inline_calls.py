"""Engine calls answered on the event loop's own thread, for a mock monitor that answers from memory."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from pulumi.runtime import rpc

__all__ = ["InlineExecutor", "serialize_plain"]


def serialize_plain(state: Mapping[str, Any]) -> Any:
    """``rpc.serialize_properties`` of plain data, run to its end here: with no Output or awaitable
    inside, the coroutine finishes at its first step."""
    coroutine = rpc.serialize_properties(dict(state), {})
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise TypeError("a mock answer must be plain data (it held an Output or an awaitable)")


class InlineExecutor(ThreadPoolExecutor):
    """Runs each monitor call at once on the event loop's thread.

    The SDK hands every engine call to the loop's default executor, a pool of threads; with a mock
    monitor that answers from memory, the hop to another thread (and back, through the loop's
    self-pipe) costs more than the answer, and the threads fight the loop for the interpreter lock.
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting task, as a thread would
            future.set_exception(error)
        return future
