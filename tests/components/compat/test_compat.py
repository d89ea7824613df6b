"""Each workaround in components.compat, against the pinned SDK: the SDK still behaves as the workaround says
(else it is no longer needed: remove it), and the workaround still answers it."""

from __future__ import annotations

import asyncio
import gc
import inspect
import pickle
import re
import sys
from collections.abc import Iterator
from importlib.metadata import version
from types import SimpleNamespace
from typing import Any

import pulumi
import pulumi.dynamic
import pytest
from pulumi.dynamic.dynamic import serialize_provider
from pulumi.runtime import config as pulumi_config
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import resource_cycle_breaker

from components import compat
from experiments.offline.engine import run_offline

from ...conftest import PROJECT_ROOT


def test_the_pinned_sdk_is_the_one_compat_was_read_against() -> None:
    pinned = re.search(r"^pulumi==(\S+)$", (PROJECT_ROOT / "requirements.txt").read_text(), re.MULTILINE)
    assert pinned is not None
    assert pinned.group(1) == version("pulumi") == compat.CHECKED_AGAINST, (
        "the Pulumi pin moved: read every workaround in components/compat.py against the new SDK "
        "(these tests say which still apply), then set CHECKED_AGAINST"
    )


def test_a_missing_sdk_name_fails_loudly_with_the_workaround() -> None:
    with pytest.raises(compat.SdkMismatch, match=r"\.gone is gone; the workaround 'the fix' in components/compat"):
        compat._require(SimpleNamespace(), "gone", "the fix")


@pytest.fixture
def pickle_hooks() -> Iterator[tuple[Any, Any]]:
    hooks = pickle._Pickler._batch_setitems, pickle._Pickler.save_dict  # type: ignore[attr-defined]
    yield hooks
    pickle._Pickler._batch_setitems, pickle._Pickler.save_dict = hooks  # type: ignore[attr-defined]


class _Provider(pulumi.dynamic.ResourceProvider):
    pass


def test_serialize_provider_still_leaves_pickle_patched(pickle_hooks: tuple[Any, Any]) -> None:
    serialize_provider(_Provider())
    assert pickle._Pickler._batch_setitems is not pickle_hooks[0]  # type: ignore[attr-defined]
    assert pickle._Pickler.save_dict is not pickle_hooks[1]  # type: ignore[attr-defined]


def test_a_dynamic_resource_leaves_pickle_as_it_found_it(pickle_hooks: tuple[Any, Any]) -> None:
    def program() -> dict[str, Any]:
        for index in range(3):
            compat.DynamicResource(_Provider(), f"step-{index}", {"index": index})
        return {}

    result = run_offline(program, project="p", stack="s", config={})
    assert [r.name for r in result.resources] == ["step-0", "step-1", "step-2"]
    assert (pickle._Pickler._batch_setitems, pickle._Pickler.save_dict) == pickle_hooks  # type: ignore[attr-defined]


class _Node:
    """Stands for a resource: the cycle check only sets and reads an attribute on it."""


def _chain(length: int) -> list[_Node]:
    """``length`` nodes, each depending on the one before, as the SDK records resources' dependencies."""
    chain = [_Node() for _ in range(length)]
    for before, after in zip(chain, chain[1:], strict=False):
        resource_cycle_breaker._add_dep(after, before)  # type: ignore[arg-type]
    return chain


@pytest.fixture
def recursion_limit() -> Iterator[None]:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000)  # Python's default
    yield
    sys.setrecursionlimit(limit)


def test_the_sdks_cycle_check_still_recurses_through_a_chain(recursion_limit: None) -> None:
    chain = _chain(1_200)
    with pytest.raises(RecursionError):
        resource_cycle_breaker.declare_dependency(_Node(), chain[-1])  # type: ignore[arg-type]


def test_deep_chains_are_allowed_for_the_workers_of_a_stack(recursion_limit: None) -> None:
    workers = 200
    chain = _chain(7 * workers)
    compat.allow_deep_dependency_chains(workers)
    assert resource_cycle_breaker.declare_dependency(_Node(), chain[-1])  # type: ignore[arg-type]
    compat.allow_deep_dependency_chains(1)
    assert sys.getrecursionlimit() == 2_000 + 16 * workers  # never lowered


def test_the_secret_markers_are_the_wire_protocols() -> None:
    """The offline engine masks what the SDK sends as a secret: the markers still match the wire."""

    def program() -> dict[str, Any]:
        pulumi.CustomResource("test:index:Thing", "t", {"key": pulumi.Output.secret("x"), "plain": "y"})
        return {}

    (thing,) = run_offline(program, project="p", stack="s", config={}).resources
    assert thing.inputs == {"key": "[secret]", "plain": "y"}


@pytest.fixture
def no_config() -> Iterator[None]:
    pulumi_config.set_all_config({}, [])
    yield
    pulumi_config.set_all_config({}, [])


def test_secret_keys_from_the_language_host_still_escape_is_config_secret(
    monkeypatch: pytest.MonkeyPatch, no_config: None
) -> None:
    monkeypatch.setenv("PULUMI_CONFIG_SECRET_KEYS", '["gpu-cluster:ibmcloudApiKey"]')
    assert not pulumi_config.is_config_secret("gpu-cluster:ibmcloudApiKey")
    assert compat.config_is_secret("gpu-cluster:ibmcloudApiKey")
    assert not compat.config_is_secret("gpu-cluster:kubeconfig")


def test_secret_keys_set_through_the_sdk_count_too(no_config: None) -> None:
    pulumi_config.set_all_config({"gpu-cluster:kubeconfig": "x"}, ["gpu-cluster:kubeconfig"])
    assert compat.config_is_secret("gpu-cluster:kubeconfig")


class _Component(pulumi.ComponentResource):
    def __init__(self, name: str, opts: pulumi.ResourceOptions) -> None:
        super().__init__("test:index:Component", name, None, opts)
        pulumi.CustomResource("test:index:Child", f"{name}-child", {}, pulumi.ResourceOptions(parent=self))
        self.register_outputs({})


def _dependencies_of_children(options: Any) -> dict[str, tuple[str, ...]]:
    def program() -> dict[str, Any]:
        gate = pulumi.CustomResource("test:index:Gate", "gate", {})
        _Component("c", options(gate))
        return {}

    result = run_offline(program, project="p", stack="s", config={})
    return {r.name: r.dependencies for r in result.resources if r.type == "test:index:Child"}


def test_the_mock_monitor_still_runs_no_transforms() -> None:
    def transform(gate: pulumi.Resource) -> pulumi.ResourceOptions:
        def waits(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult:
            return pulumi.ResourceTransformResult(
                args.props, pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(depends_on=[gate]))
            )

        return pulumi.ResourceOptions(transforms=[waits])

    assert _dependencies_of_children(transform) == {"c-child": ()}
    assert "does not run them" in inspect.getdoc(pulumi_mocks.MockResourceArgs.__init__)  # type: ignore[operator]


def test_after_makes_a_components_whole_subtree_wait() -> None:
    found = _dependencies_of_children(lambda gate: compat.after([gate]))
    assert found == {"c-child": ("urn:pulumi:s::p::pulumi:pulumi:Stack$test:index:Gate::gate",)}


def test_the_sdks_mock_monitor_still_runs_the_loop_inside_each_call() -> None:
    assert "_sync_await" in inspect.getsource(pulumi_mocks.MockMonitor.RegisterResource)


def test_finished_answers_a_coroutine_that_never_waits_and_refuses_one_that_does() -> None:
    async def plain() -> int:
        return 7

    async def waits() -> int:
        await asyncio.sleep(0)
        return 7

    assert compat.finished(plain()) == 7
    with pytest.raises(RuntimeError, match="not plain data"):
        compat.finished(waits())


def test_the_own_loop_runs_executor_calls_on_the_calling_thread() -> None:
    import threading

    with compat.own_event_loop() as loop:
        ran_on = loop.run_until_complete(loop.run_in_executor(None, threading.get_ident))
    assert ran_on == threading.get_ident()


def test_the_gc_tuning_is_undone_after_a_run() -> None:
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    with compat.young_generation_gc():
        assert gc.get_threshold()[0] == 10_000 and gc.isenabled()
    assert (gc.get_threshold(), gc.isenabled()) == (thresholds, enabled)


def test_a_run_s_garbage_is_collected_at_its_end_without_walking_the_oldest_generation() -> None:
    import weakref

    class Node:
        pass

    collected: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(record)
    try:
        with compat.young_generation_gc():
            cycle = Node()
            cycle.self = cycle  # type: ignore[attr-defined]
            alive = weakref.ref(cycle)
            del cycle
            collected.clear()  # only the collection at the end counts
        assert alive() is None  # the run's garbage cycle is gone
        assert collected and max(collected) <= 1  # by a young collection: the oldest generation is not walked
    finally:
        gc.callbacks.remove(record)
