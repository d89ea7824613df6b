"""The offline engine runs on a thread of its own (``components.compat.on_a_shallow_stack``): what the SDK records
per registration does not grow with the caller's stack, and results and errors come back to the caller."""

from __future__ import annotations

import threading
from typing import Any

import pulumi
import pytest
from pulumi.runtime import resource as runtime_resource

from components.compat import on_a_shallow_stack
from experiments.offline.engine import run_offline


class _Box(pulumi.ComponentResource):
    def __init__(self, name: str) -> None:
        super().__init__("test:index:Box", name)
        # A subclass's constructor: the SDK records a source position (and walks the stack) for these.
        _Item(f"{name}-item", opts=pulumi.ResourceOptions(parent=self))
        self.register_outputs({})


class _Item(pulumi.CustomResource):
    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("test:index:Item", name, {"size": 1}, opts)


def _stack_depths(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    depths: list[int] = []
    real = runtime_resource._get_stack_trace

    def counted() -> Any:
        trace = real()
        depths.append(len(trace.frames))
        return trace

    monkeypatch.setattr(runtime_resource, "_get_stack_trace", counted)
    return depths


def _deeper(levels: int, call: Any) -> Any:
    return call() if levels == 0 else _deeper(levels - 1, call)


def test_a_deep_caller_adds_nothing_to_what_each_registration_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    depths = _stack_depths(monkeypatch)

    def render() -> Any:
        return run_offline(lambda: _Box("box") and {}, project="p", stack="s", config={})

    shallow = _deeper(0, render)
    at_the_surface = list(depths)
    depths.clear()
    deep = _deeper(200, render)
    assert at_the_surface and depths == at_the_surface  # 200 more frames below the caller: none walked
    assert [r.urn for r in deep.resources] == [r.urn for r in shallow.resources]


def test_the_result_and_the_error_come_back_to_the_caller() -> None:
    caller, threads = threading.get_ident(), threading.active_count()
    assert on_a_shallow_stack(threading.get_ident) != caller

    class Refused(Exception):
        pass

    def refuse() -> None:
        raise Refused("no")

    with pytest.raises(Refused, match="no"):
        on_a_shallow_stack(refuse)
    assert threading.active_count() == threads  # nothing left running: `diff` forks only when alone


def test_without_a_thread_to_be_had_the_run_goes_on_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", refused)
    result = run_offline(lambda: _Box("box") and {}, project="p", stack="s", config={})
    assert [r.type for r in result.resources] == ["test:index:Box", "test:index:Item"]
    assert on_a_shallow_stack(threading.get_ident) == threading.get_ident()
