"""Issue 20 item 2: a stack is parsed, looked up and planned once per preview, and the program that
does all three itself (the Pulumi CLI's run) renders exactly what the preview renders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import components.plan.plan as plan_module
import components.program as program_module
import experiments.offline.simulated_cluster as simulated_module
from components.models.config import PROJECT, ClusterConfig
from components.plan.plan import Plan
from components.program import pulumi_program
from experiments.offline.engine import run_offline
from experiments.stacks.stackfile import load_stack
from experiments.state.preview import run_preview

from ...conftest import standalone_config

Calls = Counter[str]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """How often each step ran: the config's parse, the lookup, the address plan, the plan."""
    counted: Calls = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(ClusterConfig, "model_validate", counting("parse", ClusterConfig.model_validate))
    for module in (program_module, simulated_module):
        monkeypatch.setattr(module, "discover", counting("lookup", module.discover))
    for planner in ("plan_addresses", "plan_from_existing"):
        monkeypatch.setattr(plan_module, planner, counting("address plan", getattr(plan_module, planner)))
    monkeypatch.setattr(plan_module, "plan_fabric", counting("plan", plan_module.plan_fabric))
    return counted


@pytest.fixture
def plain_stack(write_stack: Callable[..., Any]) -> str:
    return str(write_stack("plain", standalone_config()))


@pytest.mark.parametrize(
    ("stack", "lookups"), [("plain", 0), ("h100-2n-sriov-rdma", 1), ("h100-2n-sriov-rdma-join", 1)]
)
def test_a_preview_parses_looks_up_and_plans_once(stack: str, lookups: int, plain_stack: str, calls: Calls) -> None:
    preview = run_preview(plain_stack if stack == "plain" else stack)
    assert calls == Counter({"parse": 1, "address plan": 1, "plan": 1, "lookup": lookups}) - Counter()
    assert preview.result.outputs["nodes"] == list(preview.stack.plan.addresses.nodes)


def test_every_program_run_plans_anew(calls: Calls, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is cached: the program on the bare engine config (as the Pulumi CLI runs it) parses,
    looks up and plans on every run; two runs make two equal plans, not one reused."""
    stack = load_stack("h100-2n-sriov-rdma")
    calls.clear()
    made: list[Plan] = []
    plan_cluster = program_module.plan_cluster
    monkeypatch.setattr(program_module, "plan_cluster", lambda *args: made.append(plan_cluster(*args)) or made[-1])
    for _ in range(2):
        run_offline(
            pulumi_program,
            project=PROJECT,
            stack=stack.name,
            config=stack.engine_config,
            secret_keys=stack.secret_keys,
            cluster=stack.simulated,
        )
    assert calls == Counter({"parse": 2, "lookup": 2, "address plan": 2, "plan": 2})
    assert len(made) == 2 and made[0] is not made[1]
    assert made[0] == made[1] == stack.plan


@pytest.mark.parametrize("stack", ["h100-2n-sriov-rdma", "h100-2n-sriov-rdma-join", "l40s-2n-vnic"])
def test_the_program_that_looks_up_and_plans_itself_renders_what_the_preview_renders(stack: str) -> None:
    """The offline preview hands the program the stack file's plan and skips the lookups; the CLI's
    program looks the (here simulated) cluster up through the provider's data sources and plans: the
    same resources, inputs, outputs and diagnostics, to the byte."""
    shipped = load_stack(stack)
    preview = run_preview(shipped).result
    looked_up = run_offline(
        pulumi_program,
        project=PROJECT,
        stack=shipped.name,
        config=shipped.engine_config,
        secret_keys=shipped.secret_keys,
        cluster=shipped.simulated,
    )
    assert [r.as_json() for r in looked_up.resources] == [r.as_json() for r in preview.resources]
    assert [r.id for r in looked_up.resources] == [r.id for r in preview.resources]
    assert looked_up.outputs == preview.outputs
    assert looked_up.diagnostics == preview.diagnostics
