"""What the Pulumi Python SDK makes us do, in one place.

Each workaround below names the SDK code (as pinned in requirements.txt, ``CHECKED_AGAINST``) or the upstream
issue it answers.  Two kinds of guard keep them honest:

- on import, ``_require`` checks that every SDK name a workaround reaches into still exists, and fails with
  the workaround's name where it does not (an SDK version where it no longer fits);
- ``tests/components/compat/`` reproduces each SDK behaviour on the pinned SDK, and fails where the SDK no
  longer behaves so (a version where the workaround is no longer needed), and where the pin moves past
  ``CHECKED_AGAINST`` without this module being read again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import pickle
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import pulumi
import pulumi.dynamic
import pulumi.resource
from pulumi.runtime import config as pulumi_config
from pulumi.runtime import resource as runtime_resource
from pulumi.runtime import resource_cycle_breaker, rpc

__all__ = [
    "CHECKED_AGAINST",
    "SECRET_SIG",
    "SECRET_SIG_KEY",
    "DynamicResource",
    "SdkMismatch",
    "after",
    "allow_deep_dependency_chains",
    "config_is_secret",
    "finished",
    "on_a_shallow_stack",
    "own_event_loop",
    "unwalked",
    "young_generation_gc",
]

T = TypeVar("T")

CHECKED_AGAINST = "3.272.0"
"""The ``pulumi`` version every workaround here was read against (tests pin requirements.txt to it)."""


class SdkMismatch(RuntimeError):
    """The installed Pulumi SDK no longer has what a workaround in ``components.compat`` reaches into."""


def _require(owner: object, name: str, workaround: str) -> None:
    if not hasattr(owner, name):
        raise SdkMismatch(
            f"pulumi SDK: {getattr(owner, '__name__', owner)}.{name} is gone; the workaround "
            f"'{workaround}' in components/compat.py (read against pulumi {CHECKED_AGAINST}) no longer fits"
        )


# --------------------------------------------------------------------------------------------------------------
# Dynamic resources: serialize_provider leaves pickle patched
# --------------------------------------------------------------------------------------------------------------
# pulumi/dynamic/dynamic.py ``serialize_provider`` (added for pulumi/pulumi#9652, PR #9656, after
# uqfoundation/dill#481) wraps ``pickle._Pickler._batch_setitems`` and replaces ``save_dict`` to sort dicts, at
# every call, and restores only ``pickle.Pickler``: the wrappers nest once per dynamic resource until a program
# with hundreds of them (two per adopted worker) ends in a RecursionError, under ``pulumi up`` as offline.

_require(pickle._Pickler, "_batch_setitems", "DynamicResource")
_require(pickle._Pickler, "save_dict", "DynamicResource")


class DynamicResource(pulumi.dynamic.Resource):
    """A dynamic resource whose construction leaves ``pickle`` as it found it."""

    def __init__(
        self,
        provider: pulumi.dynamic.ResourceProvider,
        name: str,
        props: dict[str, Any],
        opts: pulumi.ResourceOptions | None = None,
    ) -> None:
        hooks = pickle._Pickler._batch_setitems, pickle._Pickler.save_dict  # type: ignore[attr-defined]
        try:
            super().__init__(provider, name, props, opts)  # serializes the provider, synchronously
        finally:
            pickle._Pickler._batch_setitems, pickle._Pickler.save_dict = hooks  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------------------------------
# Deep dependency chains: the SDK's cycle check recurses
# --------------------------------------------------------------------------------------------------------------
# pulumi/runtime/resource_cycle_breaker.py ``_with_transitive_deps`` checks every new dependency for a cycle
# by a recursive walk of all it depends on (upstream made ``_add_dependency`` iterative for the same reason,
# pulumi/pulumi#16328, PR #16669, but not this walk).  A lane of the rolling sequence is one chain, some 7
# frames per worker deep: past some 140 workers it exceeds Python's default recursion limit.  The lane's links
# are now ``unwalked`` (below: the SDK no longer walks them), but what reads the recorded chain
# recursively (``experiments.state.dependencies``) still does, so the limit is still raised with the workers.

_require(resource_cycle_breaker, "_with_transitive_deps", "allow_deep_dependency_chains")


def allow_deep_dependency_chains(workers: int) -> None:
    """Raise the recursion limit (never lower it) for a dependency chain through ``workers`` workers."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2_000 + 16 * workers))


# --------------------------------------------------------------------------------------------------------------
# The wire form of a secret
# --------------------------------------------------------------------------------------------------------------
# pulumi/runtime/rpc.py keeps the markers of the engine's wire protocol private (``_special_sig_key``,
# ``_special_secret_sig``); the offline engine reads the wire form its mock monitor receives.

_require(rpc, "_special_sig_key", "SECRET_SIG_KEY")
_require(rpc, "_special_secret_sig", "SECRET_SIG")
SECRET_SIG_KEY: str = rpc._special_sig_key
"""The key that marks a wire value as special (``{SECRET_SIG_KEY: SECRET_SIG, "value": ...}`` is a secret)."""
SECRET_SIG: str = rpc._special_secret_sig


# --------------------------------------------------------------------------------------------------------------
# Secret config keys under the plain CLI
# --------------------------------------------------------------------------------------------------------------
# pulumi/runtime/config.py ``is_config_secret`` reads only the keys ``set_all_config`` set (the Automation API
# and mocks); under ``pulumi up`` the language host passes them in PULUMI_CONFIG_SECRET_KEYS, which only the
# semi-internal ``get_config_secret_keys_env`` reads.

_require(pulumi_config, "get_config_secret_keys_env", "config_is_secret")
_require(pulumi_config, "is_config_secret", "config_is_secret")


def config_is_secret(full_key: str) -> bool:
    """Whether the stack holds ``full_key`` (``project:key``) as a secret, however the program was started."""
    return pulumi_config.is_config_secret(full_key) or full_key in pulumi_config.get_config_secret_keys_env()


# --------------------------------------------------------------------------------------------------------------
# A dependency for a component's whole subtree: transformations, not transforms
# --------------------------------------------------------------------------------------------------------------
# ``transforms=`` (the successor of ``transformations=``) runs in the engine; the SDK's mock monitor does not
# run them (pulumi/runtime/mocks.py ``MockResourceArgs.transforms``: "The mock monitor does not run them"), so
# the offline preview would not show what ``pulumi up`` does.  The legacy ``transformations=`` run in the SDK,
# under both.

_require(pulumi, "ResourceTransformation", "after")


def after(gate: Sequence[pulumi.Input[pulumi.Resource]]) -> pulumi.ResourceOptions:
    """Options that make every resource they reach (a component's whole subtree: children inherit them)
    depend on ``gate``."""
    waits = list(gate)

    def wait_for_gate(args: pulumi.ResourceTransformationArgs) -> pulumi.ResourceTransformationResult:
        return pulumi.ResourceTransformationResult(
            args.props, pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(depends_on=waits))
        )

    return pulumi.ResourceOptions(transformations=[wait_for_gate])


# --------------------------------------------------------------------------------------------------------------
# Waits the engine records and the SDK's cycle check does not walk
# --------------------------------------------------------------------------------------------------------------
# Waits the engine records and the SDK does not walk: ``unwalked(resource)``.
#
# The Python SDK checks every dependency it is given for a cycle before it sends it
# (``pulumi/runtime/rpc.py``, ``_add_dependency`` -> ``runtime/resource_cycle_breaker.py``,
# ``declare_dependency``): it walks everything the dependency already waits for, by nested generators,
# so one edge costs the size (and the depth) of the target's past.  A lane of the rolling sequence is
# one chain (worker k+1 leaves service once worker k is back), so every edge into it walks the whole
# lane so far, and a stack of one lane costs the cube of its workers; every resource waiting for the
# claims gate walks every claim.
#
# ``unwalked(resource)`` is the dependency the engine gets for ``depends_on=[resource]`` (the same URN in
# the registration's ``dependencies``, awaited the same way: the SDK sends nothing before the resource is
# registered, which under ``pulumi up`` is once it exists), handed over as the SDK's own
# ``DependencyResource`` (``pulumi/resource.py``: a resource known only by its URN, which it makes for
# remote components), which has no past to walk.  What it gives up is the SDK's cycle check on that
# edge: use it only where the order is a plan's (the rolling order, the claims gate, the cloud layer
# before the Kubernetes one), which cannot form a cycle.

_require(pulumi.resource, "DependencyResource", "unwalked")


def unwalked(resource: pulumi.Resource) -> pulumi.Output[pulumi.Resource]:
    """For ``depends_on``: wait for ``resource`` (a custom resource) without the SDK's walk of its past."""
    if not isinstance(resource, pulumi.CustomResource):
        # A component stands for its children (the SDK expands it); by its URN alone it would stand for nothing.
        raise TypeError(f"unwalked() takes a custom resource, not {type(resource).__name__}")

    async def dependency() -> pulumi.Resource:
        urn = await resource.urn.future()
        if urn is None:  # never: a URN is known from the registration on, in a preview too
            raise RuntimeError(f"{resource} has no URN to wait for")
        return pulumi.resource.DependencyResource(urn)

    known: asyncio.Future[bool] = asyncio.get_event_loop().create_future()
    known.set_result(True)
    # No resources of its own: the SDK would walk those (``Output.resources``, ``_resolve_depends_on``).
    return pulumi.Output(set(), asyncio.ensure_future(dependency()), known)


# --------------------------------------------------------------------------------------------------------------
# The offline engine: the mock monitor's coroutines, its thread switches and its garbage
# --------------------------------------------------------------------------------------------------------------
# pulumi/runtime/mocks.py ``MockMonitor`` serializes each answer through ``_sync_await``, which runs the event
# loop again from inside the call, so pulumi/runtime/resource.py hands every monitor call to a worker thread
# (``run_in_executor``): a thread switch per registration.  The offline engine's answers are plain data, so
# serializing them finishes without a loop (``finished``) and the run's executor can be the calling thread
# (``own_event_loop``).


def finished(coroutine: Coroutine[Any, Any, T]) -> T:
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
    (or, on the main thread, a new one: the SDK's next run there expects a current loop)."""
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
        if previous is None and threading.current_thread() is not threading.main_thread():
            asyncio.set_event_loop(None)  # the engine's own thread (``on_a_shallow_stack``), which ends here
        else:
            asyncio.set_event_loop(previous or asyncio.new_event_loop())


_YOUNG_ALLOCATIONS = 10_000
"""Net allocations between two collections of the youngest generation during a run (Python's default: 700)."""
_NEVER = 1_000_000
"""As a count of younger collections: an older generation is not collected during a run."""


@contextmanager
def young_generation_gc() -> Iterator[None]:
    """A mock run allocates millions of objects, most of them alive until it ends, many of them garbage in
    reference cycles (the SDK's closures, finished tasks).  Only the youngest generation is collected during
    the run, so the garbage goes early and the live objects are walked once, not again and again in the older
    generations; what is left is collected once, at the end, in the two younger generations, which hold every
    object the run made: the oldest (the modules, whatever the process held before) is not walked, which a
    full collection did in 64 of the 92 ms a small stack's render took."""
    thresholds = gc.get_threshold()
    collecting = gc.isenabled()
    gc.set_threshold(_YOUNG_ALLOCATIONS, _NEVER, _NEVER)
    gc.enable()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.collect(1)
        if not collecting:
            gc.disable()


# --------------------------------------------------------------------------------------------------------------
# The offline engine: the SDK's source position per registration
# --------------------------------------------------------------------------------------------------------------
# pulumi/runtime/resource.py ``register_resource`` calls ``_get_stack_trace`` for every resource: it extracts
# the whole Python stack and makes a source position (``pathlib.Path(filename).as_uri()``) of every frame below
# the resource's constructors, so a registration costs the depth of whatever called the program.  Under
# ``pulumi up`` the language host runs the program near the bottom of its stack; the offline engine is called
# from the CLI, a sweep, a test runner: 23 frames a registration from the CLI, 49 under pytest.  The engine
# runs on a thread of its own, whose stack starts with the run.  (Its pulumi settings and config are context
# variables, which a new thread starts without: the run sets them all, and leaves the caller's as they were.)

_require(runtime_resource, "_get_stack_trace", "on_a_shallow_stack")

_ENGINE_THREAD_STACK = 64 * 1024 * 1024
"""Bytes of stack for the engine's thread: more than a main thread's usual 8 MiB, for the deep dependency
chains ``allow_deep_dependency_chains`` lets Python recurse through (address space, used only as needed)."""


def on_a_shallow_stack(call: Callable[[], T]) -> T:
    """``call()`` on a new thread (the caller waits): its result, or its exception raised here."""
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread, below
            outcome.append((False, error))

    # A daemon: an interrupted caller (Ctrl-C while it waits) exits without waiting for the run.
    worker = threading.Thread(target=run, name="gpu-cluster-offline-engine", daemon=True)
    try:
        previous = threading.stack_size(_ENGINE_THREAD_STACK)
    except (ValueError, RuntimeError):  # a platform that sets no thread stack size: its default
        previous = None
    try:
        worker.start()
    except RuntimeError:  # no thread to be had (a process limit): the run goes on here, on the caller's stack
        run()
    finally:
        if previous is not None:
            threading.stack_size(previous)
    if worker.ident is not None:
        worker.join()
    succeeded, value = outcome[0]
    if not succeeded:
        raise value
    return cast(T, value)
