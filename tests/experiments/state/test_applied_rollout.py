"""Issue 27 item 8's remainder: the stop warning only when something will stop.  The program reads the roll-out
the stack last applied in full (its ``appliedRollout`` output, through a ``StackReference`` of the stack itself)
and lists the workers ``pulumi up`` stops only when the planned roll-out differs; the offline preview, which
has no state, keeps listing them and says why."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from components import pulumi_program
from components.models.config import PROJECT
from experiments.offline.engine import EngineResult, run_offline
from experiments.stacks.stackfile import StackFile, load_stack

STACK = "h100-2n-sriov-rdma"


def _run(stack: StackFile, outputs: dict[str, Any] | None, *, dry_run: bool = True) -> EngineResult:
    return run_offline(
        lambda: pulumi_program(stack.planned),
        project=PROJECT,
        stack=stack.name,
        config=stack.engine_config,
        secret_keys=stack.secret_keys,
        cluster=stack.simulated,
        dry_run=dry_run,
        stack_outputs=outputs,
    )


@pytest.fixture(scope="module")
def shipped() -> StackFile:
    return load_stack(STACK)


def test_the_program_reads_its_own_stack_for_the_applied_roll_out(shipped: StackFile) -> None:
    """The mock answers a reference to this stack (``organization/<project>/<stack>``) with the outputs given,
    any other with none: only a reference to the stack itself finds the roll-out applied."""
    from experiments.offline.engine import IbmCloudMocks

    rollout = shipped.plan.rollout
    (line,) = _run(shipped, {"appliedRollout": rollout}).diagnostics
    assert line.startswith("info: pulumi up stops no worker")
    mocks = IbmCloudMocks(None, {"appliedRollout": rollout}, f"organization/{PROJECT}/{shipped.name}")
    for name, found in ((f"organization/{PROJECT}/{shipped.name}", rollout), (f"organization/{PROJECT}/x", None)):
        args = pulumi.runtime.MockResourceArgs("pulumi:pulumi:StackReference", "r", {}, None, name)
        assert mocks.new_resource(args)[1]["outputs"].get("appliedRollout") == found


def test_a_roll_out_already_applied_stops_nothing_and_the_preview_says_so(shipped: StackFile) -> None:
    rollout = shipped.plan.rollout
    (line,) = _run(shipped, {"appliedRollout": rollout, "nodes": ["x"]}).diagnostics
    assert line.startswith(f"info: pulumi up stops no worker: {rollout}, the roll-out this plan makes (the same 2 ")
    assert "STOPS" not in line and "warning" not in line


def test_another_applied_roll_out_lists_the_stops_and_names_both(shipped: StackFile) -> None:
    (line,) = _run(shipped, {"appliedRollout": "rollout-0badc0de"}).diagnostics
    assert line.startswith("warning: pulumi up STOPS 2 adopted worker(s)")
    assert (
        f"  applied: the stack's last roll-out was rollout-0badc0de; this plan is {shipped.plan.rollout}, "
        "so the workers are stopped again"
    ) in line.split("\n")


@pytest.mark.parametrize(
    "outputs",
    [None, {}, {"appliedRollout": None}, {"appliedRollout": 7}, {"appliedRollout": ["x"]}, {"appliedRollout": "yes"}],
)
def test_no_record_or_a_hostile_one_keeps_the_warning(shipped: StackFile, outputs: Any) -> None:
    (line,) = _run(shipped, outputs).diagnostics
    assert line.startswith("warning: pulumi up STOPS 2 adopted worker(s)")
    assert "  applied: the stack records no roll-out applied in full" in line


def test_up_records_the_roll_out_it_applied(shipped: StackFile, write_stack) -> None:
    from ...conftest import cluster_config

    raw = cluster_config(
        **{
            "nodes.profile": "gx3d-160x1792x8h100",
            "network.variant": "sriov-rdma",
            "network.nics_per_node": 1,
            "nodes.allow_instance_stop": True,
        }
    )
    opted = load_stack(str(write_stack("opted", raw)))
    result = _run(opted, None, dry_run=False)
    assert result.outputs["appliedRollout"] == opted.plan.rollout
    # The next run reads it back: nothing stops again.
    (line,) = _run(opted, result.outputs, dry_run=False).diagnostics
    assert line.startswith("info: pulumi up stops no worker")


def test_a_stack_that_stops_nothing_reads_no_state(write_stack) -> None:
    from ...conftest import cluster_config

    vnic = load_stack(str(write_stack("vnic", cluster_config())))
    result = _run(vnic, None)
    assert not [r for r in result.resources if r.type == "pulumi:pulumi:StackReference"]
    assert "appliedRollout" not in result.outputs and result.diagnostics == []
