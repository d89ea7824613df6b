"""The drain against ``oc adm drain`` (kubectl ``pkg/drain``): what it refuses to evict, checked every round;
owners judged by kind and API group; a terminating namespace waited out; pods known by UID."""

from __future__ import annotations

import pytest

from components.ops.ibm_client import IbmInstanceClient
from components.ops.kube_client import KubeClusterClient
from components.ops.ports import OperationFailed, PodRef
from components.ops.rolling import NodeOps, Timeouts, Worker

from .http_standins import API_KEY, HttpStandIn
from .standins import FakeClock, World

WORKER = Worker("w-1", "i-1", "s/w-1")


def evicted(world: World) -> list[str]:
    return [what.removeprefix("evict ") for _, what in world.log if what.startswith("evict ")]


def test_a_pod_with_an_emptydir_volume_is_not_evicted_without_consent() -> None:
    world = World({"i-1": "w-1"})
    world.pods["w-1"].append(PodRef("team", "cache", "ReplicaSet", "apps", emptydir=True, uid="u-cache"))
    with pytest.raises(
        OperationFailed,
        match=r"team/cache keep data in an emptyDir volume.*"
        r"nodes.drain_delete_emptydir_data: true",
    ):
        world.ops().take_out(WORKER)
    assert evicted(world) == [] and world.by_name("w-1").status == "running"
    assert not world.nodes["w-1"].unschedulable
    world.ops().take_out(Worker("w-1", "i-1", "s/w-1", delete_emptydir_data=True))
    assert sorted(evicted(world)) == ["team/cache", "team/w-1-app"]


def test_a_bare_pod_bound_after_the_first_round_is_not_evicted() -> None:
    world = World({"i-1": "w-1"})
    world.budget_blocked = {"team/w-1-app"}  # the first round cannot finish the drain
    original = world.kube.evict

    def evict(pod: PodRef):  # meanwhile somebody binds a bare pod to the cordoned node
        if not any(p.name == "debug" for p in world.pods["w-1"]):
            world.pods["w-1"].append(PodRef("team", "debug", uid="u-debug"))
        return original(pod)

    world.kube.evict = evict  # type: ignore[method-assign]
    with pytest.raises(OperationFailed, match="team/debug not managed by any controller"):
        world.ops().take_out(WORKER)
    assert "team/debug" not in evicted(world)
    assert world.by_name("w-1").status == "running" and not world.nodes["w-1"].unschedulable


def test_only_an_apps_daemonset_keeps_its_pod_on_the_node() -> None:
    world = World({"i-1": "w-1"})
    world.pods["w-1"].append(PodRef("kruise", "agent", "DaemonSet", "apps.kruise.io", uid="u-agent"))
    world.ops().take_out(WORKER)
    assert sorted(evicted(world)) == ["kruise/agent", "team/w-1-app"]  # the apps DaemonSet's dns pod stayed
    assert [p.name for p in world.pods["w-1"]] == ["dns-w-1"]


@pytest.fixture
def served():
    world = World({"i-1": "w-1"})
    with HttpStandIn(world) as server:
        ibm = IbmInstanceClient("us-east", API_KEY, endpoint=server.url, iam_url=f"{server.url}/identity/token")
        ops = NodeOps(ibm, KubeClusterClient.connect(server.kubeconfig(), None), FakeClock(), Timeouts(poll_s=5.0))
        yield world, server, ops


def test_a_terminating_namespace_is_waited_out_and_evictions_name_the_uid(served) -> None:
    world, server, ops = served
    world.terminating = {"team"}  # the API answers 403 with the cause NamespaceTerminating
    ops.take_out(WORKER)
    assert world.by_name("w-1").status == "stopped" and [p.name for p in world.pods["w-1"]] == ["dns-w-1"]
    (eviction,) = [body for method, path, _, body in server.state["requests"] if path.endswith("/eviction")]
    assert eviction["deleteOptions"] == {"preconditions": {"uid": "uid-w-1-app"}}
