"""The pieces on their own: the selection rule, the opt-in at the step, the config fields."""

from __future__ import annotations

import pytest

from components.ops.ports import OperationFailed
from components.ops.providers import _OutOfServiceProvider
from components.ops.rolling import OUT_OF_SERVICE
from components.ops.selection import _SelectionProvider, selection_problem

from ...conftest import validation_problems
from .conftest import sriov_cluster
from .standins import World


@pytest.mark.parametrize(
    ("previous", "current", "allowed"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "b", "c", "d"], True),  # scale up
        (["a", "b", "c"], ["a", "b"], True),  # scale down
        (["a", "b"], ["a", "c"], False),  # an MHC replaced b by c
        (["a", "b"], ["c", "d"], False),
    ],
)
def test_only_a_swap_of_workers_is_refused(previous, current, allowed) -> None:
    assert (selection_problem(previous, current, allow_change=False) is None) == allowed
    assert selection_problem(previous, current, allow_change=True) is None


def test_the_selection_check_names_the_workers_and_the_flag() -> None:
    result = _SelectionProvider().check({"workers": ["w-a", "w-b"]}, {"workers": ["w-a", "w-c"], "allow_change": False})
    (failure,) = result.failures
    assert failure.property == "workers"
    assert "w-b (selected by the last pulumi up) for w-c" in failure.reason and "nodes.names" in failure.reason
    assert _SelectionProvider().check({}, {"workers": ["w-c"], "allow_change": False}).failures == []


def test_the_step_itself_refuses_to_stop_without_the_opt_in() -> None:
    world = World({"i-1": "w-1"})
    provider = _OutOfServiceProvider(lambda _: world.ops())
    props = {"node": "w-1", "instance_id": "i-1", "holder": "s/w-1", "attachments": ["s-cnic1"], "allow_stop": False}
    with pytest.raises(OperationFailed, match="nodes.allow_instance_stop: true"):
        provider.create(props)
    assert world.log == [] and world.by_name("w-1").status == "running"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"nodes.max_unavailable": 0}, "nodes.max_unavailable"),
        ({"nodes.drain_timeout_s": 5}, "nodes.drain_timeout_s"),
    ],
)
def test_rolling_settings_are_validated(changes, field) -> None:
    assert [f for f, _ in validation_problems(sriov_cluster(2, **changes))] == [field]


def test_rolling_settings_belong_to_adopt() -> None:
    problems = validation_problems(
        sriov_cluster(
            2,
            **{
                "nodes.source": "join",
                "nodes.names": ...,
                "nodes.allow_instance_stop": ...,
                "nodes.max_unavailable": 2,
            },
        )
    )
    assert [f for f, _ in problems] == ["nodes.max_unavailable"]


def test_the_provider_host_can_load_the_serialized_providers_outside_the_project(tmp_path) -> None:
    """The CLI runs dynamic providers in another process (``python -m pulumi.dynamic``); it must find
    the provider classes by import, wherever it starts (the project is installed: requirements.txt)."""
    import subprocess
    import sys

    from pulumi.dynamic.dynamic import serialize_provider

    from components.ops.providers import _InServiceProvider

    # What pulumi.dynamic's get_provider does with the resource's __provider input.
    script = (
        "import base64, sys, dill; p = dill.loads(base64.b64decode(sys.argv[1])); "
        "print(type(p).__name__, p.connect.__name__)"
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script, serialize_provider(_InServiceProvider())],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["_InServiceProvider", "connect_from_props"]


def test_a_ready_condition_older_than_the_start_does_not_count() -> None:
    """Right after the start, the Node may still show the Ready of before the stop (the node controller
    had not marked it yet): the wait goes on until it has seen the Node not Ready and Ready again."""
    from components.ops.ports import NodeState
    from components.ops.rolling import Worker

    world = World({"i-1": "w-1"})
    world.by_name("w-1").status = "stopped"
    world.nodes["w-1"].annotations[OUT_OF_SERVICE] = "s/w-1"
    script = iter(
        [NodeState(True, True, {OUT_OF_SERVICE: "s/w-1"}, 100.0)] * 3
        + [NodeState(False, True, {OUT_OF_SERVICE: "s/w-1"}, 200.0)]
        + [NodeState(True, True, {OUT_OF_SERVICE: "s/w-1"}, 300.0)] * 10
    )
    readiness: list[bool] = []

    def node(name: str) -> NodeState:
        state = next(script)
        readiness.append(state.ready)
        return state

    world.kube.node = node  # type: ignore[method-assign]
    world.ops().bring_back(Worker("w-1", "i-1", "s/w-1"))
    assert readiness[:5] == [True, True, True, False, True]  # returned only after the transition
    assert world.events("w-1") == ["start", "running", "uncordon", "unmark"]


def test_more_lanes_than_the_provider_host_runs_at_once_are_refused() -> None:
    (problem,) = validation_problems(sriov_cluster(8, **{"nodes.max_unavailable": 5}))
    assert problem[0] == "nodes.max_unavailable"
    assert "dynamic-provider host" in problem[1] and "set at most 4" in problem[1]
    assert validation_problems(sriov_cluster(8, **{"nodes.max_unavailable": 4})) == []


def test_the_lane_limit_is_the_pinned_sdks_thread_pool() -> None:
    """The host's pool size, read from the pinned SDK's source (``pulumi/dynamic/__main__.py``)."""
    import re
    from importlib.util import find_spec

    from components.models.config import DYNAMIC_PROVIDER_THREADS

    spec = find_spec("pulumi.dynamic.__main__")
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as source:
        pools = re.findall(r"ThreadPoolExecutor\(max_workers=(\d+)\)", source.read())
    assert pools == [str(DYNAMIC_PROVIDER_THREADS)]


def test_the_roll_out_estimate_counts_the_lanes_that_run() -> None:
    from components.checks.validation import parse_cluster
    from components.plan.stops import describe_stops, plan_stops

    cfg = parse_cluster(sriov_cluster(2, **{"nodes.max_unavailable": 4}))
    lines = describe_stops(cfg, plan_stops(cfg, ["w-a", "w-b"]))
    assert "(1 worker(s) one after another in each of 2 lane(s)" in next(x for x in lines if "roll-out" in x)
    # A config that skipped validation still plans only the lanes the host runs, and estimates from them.
    eight = cfg.model_copy(update={"nodes": cfg.nodes.model_copy(update={"max_unavailable": 8})})
    stops = plan_stops(eight, [f"w-{i}" for i in range(16)])
    assert {stop.lane for stop in stops} == {1, 2, 3, 4}
    assert "(4 worker(s) one after another in each of 4 lane(s)" in next(
        x for x in describe_stops(eight, stops) if "roll-out" in x
    )


def test_the_step_inputs_the_program_writes_are_the_type_the_provider_reads(records) -> None:
    """``StepProps`` both ways: the recorded inputs of every rolling step parse back into it, field for field."""
    from components.ops.steps import StepProps

    steps = [r for r in records(2) if r.type.endswith((":WorkerOutOfService", ":WorkerInService"))]
    assert len(steps) == 4
    for record in steps:
        inputs = {k: v for k, v in record.inputs.items() if k not in ("__provider", "token", "out_of_service_token")}
        step = StepProps.of(inputs)
        written = {k: v for k, v in step.inputs().items() if v is not None}  # the engine drops None inputs
        assert written == inputs and step.worker().node == record.inputs["node"]
        assert step.consented and step.timeouts.drain_s == 900


@pytest.mark.parametrize(
    "broken",
    [
        {"node": 7},
        {"holder": ""},
        {"attachments": "t-cnic1"},
        {"timeouts": {"drain_s": "soon"}},
        {"kubeconfig": ["not", "text"]},
    ],
)
def test_step_inputs_that_are_not_what_the_program_writes_are_one_line(broken) -> None:
    from components.ops.steps import StepProps

    good = {"node": "w-1", "instance_id": "i-1", "holder": "s/w-1", "region": "us-east", "attachments": ["s-cnic1"]}
    StepProps.of(good)
    with pytest.raises(OperationFailed, match="^rolling step: its inputs are not the ones the program writes"):
        StepProps.of({**good, **broken})
