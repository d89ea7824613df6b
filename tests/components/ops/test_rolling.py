"""``pulumi up`` and ``destroy`` of an adopting sriov stack, driven through the recorded resources
(their dependencies, as the engine sends them) against the IBM and Kubernetes stand-ins."""

from __future__ import annotations

import re

import pytest

from components.ops.healthchecks import HOLDERS, PAUSED
from components.ops.ports import HealthCheck, OperationFailed
from components.ops.rolling import OUT_OF_SERVICE

from .conftest import world_of
from .engine_sim import SimEngine
from .standins import World

ATTACH = [f"attach t-cnic{k}" for k in range(1, 9)]
DETACH = [f"detach t-cnic{k}" for k in range(8, 0, -1)]
"""Reverse dependency order: the last attachment first."""
GPU_MHC = HealthCheck("gpu-workers", match_labels={"machine.openshift.io/cluster-api-machineset": "gpu"})
OTHER_MHC = HealthCheck("infra", match_labels={"machine.openshift.io/cluster-api-machineset": "infra"})


def up_sequence(node: str) -> list[str]:
    return [
        "mark",
        "cordon",
        f"evict team/{node}-app",
        "stop",
        "stopped",
        *ATTACH,
        "start",
        "running",
        "uncordon",
        "unmark",
    ]


def assert_converged(world: World, workers: list[str]) -> None:
    for name in workers:
        instance = world.by_name(name)
        assert instance.status == "running" and instance.attachments == [a.split()[1] for a in ATTACH], name
        node = world.nodes[name]
        assert not node.unschedulable and OUT_OF_SERVICE not in node.annotations, name
    for check in world.mhcs.values():
        assert PAUSED not in check.annotations and HOLDERS not in check.annotations


def test_up_takes_one_worker_at_a_time_through_the_whole_sequence(records) -> None:
    recorded = records(3)
    world = world_of(recorded)
    SimEngine(world).up(recorded)
    workers = ["t-node0", "t-node1", "t-node2"]
    for name in workers:
        assert world.events(name) == up_sequence(name)
    assert world.max_out == 1
    order = [(who, what) for who, what in world.log if what in ("cordon", "unmark")]
    assert order == [(w, e) for w in workers for e in ("cordon", "unmark")]  # worker k+1 only after k is back
    assert_converged(world, workers)


def test_max_unavailable_two_runs_two_lanes_and_never_more(records) -> None:
    recorded = records(4, **{"nodes.max_unavailable": 2})
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    SimEngine(world).up(recorded)
    assert world.max_out == 2
    paused = False  # two lanes share the MHC: it stays paused while any of their workers is down
    for _, what in world.log:
        paused = {"paused": True, "unpaused": False}.get(what, paused)
        assert paused or what not in ("stop", "stopped", "start", "running")
    assert_converged(world, [f"t-node{i}" for i in range(4)])


def test_a_drain_blocked_by_a_budget_fails_naming_the_pod_and_leaves_the_worker_serving(records) -> None:
    recorded = records(2)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    world.budget_blocked = {"team/t-node0-app"}
    with pytest.raises(OperationFailed, match=r"team/t-node0-app \(a PodDisruptionBudget allows no eviction\)"):
        SimEngine(world).up(recorded)
    assert world.by_name("t-node0").status == "running"
    assert not world.nodes["t-node0"].unschedulable and OUT_OF_SERVICE not in world.nodes["t-node0"].annotations
    assert PAUSED not in world.mhcs["gpu-workers"].annotations
    assert world.events("t-node1") == []  # the next worker was never touched


def test_the_covering_mhc_is_paused_for_each_worker_and_lifted_after_it(records) -> None:
    recorded = records(2)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC, "infra": OTHER_MHC}
    SimEngine(world).up(recorded)
    steps = [what for _, what in world.log if what in ("paused", "unpaused", "stop", "start")]
    assert steps == ["paused", "stop", "start", "unpaused"] * 2
    assert [who for who, what in world.log if what in ("paused", "unpaused")] == ["gpu-workers"] * 4
    assert_converged(world, ["t-node0", "t-node1"])


def test_a_pause_someone_else_set_is_left_in_place(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": HealthCheck(GPU_MHC.name, GPU_MHC.match_labels, annotations={PAUSED: ""})}
    SimEngine(world).up(recorded)
    assert world.mhcs["gpu-workers"].annotations == {PAUSED: ""}


@pytest.mark.parametrize(
    ("step", "left_stopped"),
    [
        ("pause", False),
        ("cordon", False),
        ("evict", False),
        ("stop", False),
        ("attach", True),
        ("start", True),
        ("uncordon", False),
    ],
)
def test_a_failure_at_any_step_then_a_rerun_converges(records, step: str, left_stopped: bool) -> None:
    recorded = records(2)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    engine = SimEngine(world)
    world.fail(step)
    with pytest.raises(OperationFailed, match="injected failure"):
        engine.up(recorded)
    stopped = world.by_name("t-node0").status == "stopped"
    assert stopped == left_stopped
    # Left stopped, the worker keeps the pause (unpaused, the MHC would delete it); running, it is back in service.
    assert (PAUSED in world.mhcs["gpu-workers"].annotations) == left_stopped
    assert world.nodes["t-node0"].unschedulable == left_stopped
    assert world.events("t-node1") == []
    engine.up(recorded)
    assert_converged(world, ["t-node0", "t-node1"])
    assert world.max_out == 1


def test_a_start_that_outlives_the_wait_fails_and_the_rerun_waits_on(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    world.by_name("t-node0").stuck = True
    engine = SimEngine(world)
    with pytest.raises(OperationFailed, match="t-node0 not running within 3600 s"):
        engine.up(recorded)
    assert PAUSED in world.mhcs["gpu-workers"].annotations  # not running: still protected
    world.by_name("t-node0").stuck = False
    engine.up(recorded)
    assert_converged(world, ["t-node0"])


def test_a_running_worker_with_attachments_missing_gets_the_whole_sequence_again(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    engine = SimEngine(world)
    world.fail("attach")
    with pytest.raises(OperationFailed):
        engine.up(recorded)
    instance = world.by_name("t-node0")
    instance.status = "running"  # someone started it by hand
    world.pods["t-node0"].append(world.pods["t-node0"][0].__class__("team", "t-node0-app2", "ReplicaSet"))
    engine.up(recorded)
    assert world.events("t-node0")[-len(up_sequence("t-node0")) + 1 :] == [
        "cordon",
        "evict team/t-node0-app2",
        "stop",
        "stopped",
        *ATTACH,
        "start",
        "running",
        "uncordon",
        "unmark",
    ]
    assert_converged(world, ["t-node0"])


def test_a_worker_someone_else_stopped_is_refused(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    world.by_name("t-node0").status = "stopped"
    with pytest.raises(OperationFailed, match="t-node0 is stopped and this stack did not stop it"):
        SimEngine(world).up(recorded)
    assert world.by_name("t-node0").status == "stopped" and world.log == []


def test_destroy_is_rolling_and_leaves_the_workers_running_without_cluster_nics(records) -> None:
    recorded = records(3)
    world = world_of(recorded)
    engine = SimEngine(world)
    world.mhcs = {"gpu-workers": GPU_MHC}
    engine.up(recorded)
    world.log.clear()
    world.max_out = 0
    engine.destroy()
    for name in ["t-node0", "t-node1", "t-node2"]:
        assert world.events(name) == [
            "mark",
            "cordon",
            "stop",
            "stopped",
            *DETACH,
            "start",
            "running",
            "uncordon",
            "unmark",
        ]
        assert world.by_name(name).attachments == [] and world.by_name(name).status == "running"
    assert [who for who, what in world.log if what == "cordon"] == ["t-node2", "t-node1", "t-node0"]
    assert world.max_out == 1 and engine.state == {}
    assert PAUSED not in world.mhcs["gpu-workers"].annotations


def test_a_vanished_instance_is_tolerated_by_destroy(records) -> None:
    recorded = records(2)
    world = world_of(recorded)
    engine = SimEngine(world)
    engine.up(recorded)
    gone = next(iid for iid, i in world.instances.items() if i.name == "t-node1")
    del world.instances[gone]  # an MHC remediation or a scale-down deleted it
    engine.destroy()
    assert engine.state == {}
    assert world.by_name("t-node0").attachments == [] and world.by_name("t-node0").status == "running"


def test_changed_cluster_addresses_replace_the_attachments_on_the_stopped_workers_one_at_a_time(records) -> None:
    before = records(2)
    moved = records(2, **{"network.cluster_network_cidr": "10.1.0.0/16"})  # every planned address moves
    rollout = next(r.inputs["rollout"] for r in moved if r.type.endswith(":WorkerSelection"))
    after = records(2, **{"network.cluster_network_cidr": "10.1.0.0/16", "nodes.allow_instance_stop": rollout})
    world = world_of(before)
    engine = SimEngine(world)
    engine.up(before)
    world.log.clear()
    world.max_out = 0
    engine.up(after)  # the stand-in refuses any detach or attach on a running instance
    for name in ["t-node0", "t-node1"]:
        events = world.events(name)
        assert events[:4] == ["mark", "cordon", "stop", "stopped"] and events[-4:] == [
            "start",
            "running",
            "uncordon",
            "unmark",
        ]
        assert sorted(e for e in events if e.startswith("detach")) == sorted(DETACH)
    assert world.max_out == 1
    assert_converged(world, ["t-node0", "t-node1"])


def test_a_selection_that_swaps_workers_is_refused_without_the_flag(records) -> None:
    first = records(2)
    swapped = records(2, **{"nodes.names": ["t-node0", "t-node2"]})
    world = world_of(first, swapped)
    engine = SimEngine(world)
    engine.up(first)
    with pytest.raises(RuntimeError, match="swap workers: t-node1 .* for t-node2.*allow_worker_change"):
        engine.up(swapped)
    assert world.events("t-node2") == []
    allowed = records(2, **{"nodes.names": ["t-node0", "t-node2"], "nodes.allow_worker_change": True})
    rollout = next(r.inputs["rollout"] for r in allowed if r.type.endswith(":WorkerSelection"))  # a new roll-out
    engine.up(
        records(
            2,
            **{
                "nodes.names": ["t-node0", "t-node2"],
                "nodes.allow_worker_change": True,
                "nodes.allow_instance_stop": rollout,
            },
        )
    )
    assert world.by_name("t-node1").attachments == [] and world.by_name("t-node1").status == "running"
    assert world.by_name("t-node2").attachments == [a.split()[1] for a in ATTACH]


def test_a_node_cordoned_before_stays_cordoned_after(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    world.nodes["t-node0"].unschedulable = True  # an administrator's cordon
    SimEngine(world).up(recorded)
    assert world.nodes["t-node0"].unschedulable and world.nodes["t-node0"].annotations == {}
    assert world.by_name("t-node0").attachments == [a.split()[1] for a in ATTACH]


def test_a_worker_without_a_node_in_the_reached_cluster_is_not_stopped(records) -> None:
    recorded = records(1)
    world = world_of(recorded)
    del world.nodes["t-node0"]  # a kubeconfig or context of another cluster
    with pytest.raises(OperationFailed, match="no such Node .* kubernetes.context\\); nothing was stopped"):
        SimEngine(world).up(recorded)
    assert world.by_name("t-node0").status == "running" and world.log == []


def test_one_lanes_failure_lets_the_other_lanes_bring_their_current_worker_back(records) -> None:
    import threading
    import time

    from components.ops.lanes import LANES

    recorded = records(4, **{"nodes.max_unavailable": 2})
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    other_stopped = threading.Event()
    original = world.ibm.act

    def act(instance_id: str, action: str) -> None:
        name = world.instances[instance_id].name
        if name == "t-node0" and action == "start":
            assert other_stopped.wait(30)  # the other lane's worker is out of service when this one fails
            raise OperationFailed("injected failure: start t-node0")
        if name == "t-node1" and action == "start":  # only once t-node0's failure is known to the lanes
            deadline = time.monotonic() + 30
            while "t" not in LANES._failed and time.monotonic() < deadline:
                time.sleep(0.01)
        original(instance_id, action)
        if name == "t-node1" and action == "stop":
            other_stopped.set()

    world.ibm.act = act  # type: ignore[method-assign]
    engine = SimEngine(world)
    with pytest.raises(OperationFailed):
        engine.up(recorded)
    (message,) = [e for e in engine.errors if e.startswith("injected failure")]
    assert set(engine.errors) - {message} <= {
        "worker t-node3 was not taken out of service, because the rolling step of worker t-node0 failed; it stays "
        "in service.  Run pulumi up again once that is fixed"
    }
    assert message.startswith("injected failure: start t-node0.  worker t-node0 stays stopped and cordoned")
    assert message.endswith(
        "Meanwhile t-node1 (other lanes) finished and are back in service; no other worker was taken out."
    )
    assert world.events("t-node1") == up_sequence("t-node1")
    assert world.events("t-node2") == world.events("t-node3") == []
    # t-node0 keeps the shared MHC paused for itself alone.
    assert world.mhcs["gpu-workers"].annotations[HOLDERS] == "t/t-node0"


def test_a_later_roll_out_needs_its_own_consent(records) -> None:
    first = records(2)
    world = world_of(first)
    engine = SimEngine(world)
    engine.up(first)  # `true`: the stack's first roll-out
    world.log.clear()
    changed = records(2, **{"network.cluster_network_cidr": "10.1.0.0/16"})
    rollout = next(r.inputs["rollout"] for r in changed if r.type.endswith(":WorkerSelection"))
    assert re.fullmatch(r"rollout-[0-9a-f]{8}", rollout)
    with pytest.raises(OperationFailed, match=rf"new roll-out \({rollout}.*set nodes.allow_instance_stop: {rollout}"):
        engine.up(changed)
    assert world.log == []  # nothing touched a worker
    engine.up(records(2, **{"network.cluster_network_cidr": "10.1.0.0/16", "nodes.allow_instance_stop": rollout}))
    assert all(world.events(w)[:2] == ["mark", "cordon"] for w in ["t-node0", "t-node1"])
    # The consent covers that roll-out only: the next change is refused again, and an up that changes nothing
    # needs nothing new.
    engine.up(records(2, **{"network.cluster_network_cidr": "10.1.0.0/16", "nodes.allow_instance_stop": rollout}))
    with pytest.raises(OperationFailed, match="new roll-out"):
        engine.up(records(2, **{"network.cluster_network_cidr": "10.2.0.0/16", "nodes.allow_instance_stop": rollout}))
