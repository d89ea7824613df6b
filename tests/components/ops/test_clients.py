"""The REST clients over the wire: the same rolling sequence driven through ``IbmInstanceClient`` and
``KubeClusterClient`` against HTTP stand-ins of the IBM VPC API (with IAM) and the Kubernetes API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from components.ops.healthchecks import PAUSED, pause_health_checks
from components.ops.ibm_client import IbmInstanceClient
from components.ops.kube_client import KubeClusterClient
from components.ops.ports import HealthCheck, OperationFailed
from components.ops.rolling import NodeOps, Timeouts

from .conftest import world_of
from .engine_sim import SimEngine
from .http_standins import API_KEY, HttpStandIn
from .standins import FakeClock, World
from .test_rolling import ATTACH, DETACH, GPU_MHC, assert_converged, up_sequence


@pytest.fixture
def served(records) -> Iterator[tuple[World, HttpStandIn, list[Any]]]:
    recorded = records(2)
    world = world_of(recorded)
    world.mhcs = {"gpu-workers": GPU_MHC}
    with HttpStandIn(world) as server:
        yield world, server, recorded


def clients(server: HttpStandIn, api_key: str = API_KEY) -> NodeOps:
    ibm = IbmInstanceClient("us-east", api_key, endpoint=server.url, iam_url=f"{server.url}/identity/token")
    return NodeOps(ibm, KubeClusterClient.connect(server.kubeconfig(), None), FakeClock(), Timeouts(poll_s=5.0))


def test_up_and_destroy_through_the_rest_clients(served) -> None:
    world, server, recorded = served
    engine = SimEngine(world, connect=lambda props: clients(server))
    engine.up(recorded)
    for name in ["t-node0", "t-node1"]:
        assert world.events(name) == up_sequence(name)
    assert world.max_out == 1
    assert_converged(world, ["t-node0", "t-node1"])
    patches = [r for r in server.state["requests"] if r[0] == "PATCH"]
    assert patches and all(content == "application/merge-patch+json" for _, _, content, _ in patches)
    world.log.clear()
    engine.destroy()
    assert world.events("t-node0") == [
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
    assert [w.attachments for w in world.instances.values()] == [[], []] and ATTACH
    # Every step built its own client; IAM was asked once for the whole roll-out and back.
    assert [r[1] for r in server.state["requests"]].count("/identity/token") == 1


@pytest.mark.slow
def test_a_budget_answered_429_fails_the_drain_naming_the_pod(served) -> None:
    world, server, _ = served
    world.budget_blocked = {"team/t-node0-app"}
    ops = clients(server)
    worker = _worker(world, "t-node0")
    with pytest.raises(OperationFailed, match=r"team/t-node0-app \(a PodDisruptionBudget allows no eviction\)"):
        ops.take_out(worker)
    assert world.by_name("t-node0").status == "running" and not world.nodes["t-node0"].unschedulable
    assert PAUSED not in world.mhcs["gpu-workers"].annotations


def test_a_wrong_api_key_fails_in_one_line_without_the_key(served) -> None:
    _, server, _ = served
    with pytest.raises(OperationFailed) as failure:
        clients(server, api_key="wrong-key-42").instances.get("any")
    assert str(failure.value) == "IAM token: HTTP 400 Provided API key could not be found."
    assert "wrong-key-42" not in str(failure.value)


def test_a_vanished_instance_reads_as_none_and_cannot_be_acted_on(served) -> None:
    _, server, _ = served
    ibm = clients(server).instances
    assert ibm.get("0757_gone") is None
    with pytest.raises(OperationFailed, match="no longer exists"):
        ibm.act("0757_gone", "stop")


def test_a_concurrent_mhc_write_is_retried_on_its_new_version(served) -> None:
    world, server, _ = served
    server.state["conflicts"] = 1
    assert pause_health_checks(clients(server).cluster, "t-node0", "t/t-node0") == ["gpu-workers"]
    assert world.mhcs["gpu-workers"].annotations[PAUSED] == ""
    assert len([r for r in server.state["requests"] if r[0] == "PATCH"]) == 2


def test_an_mhc_selecting_by_expression_is_found_and_an_unrelated_one_left_alone(served) -> None:
    world, server, _ = served
    world.mhcs = {
        "by-expression": HealthCheck(
            "by-expression",
            match_expressions=[
                {"key": "machine.openshift.io/cluster-api-machineset", "operator": "In", "values": ["gpu", "cpu"]}
            ],
        ),
        "not-masters": HealthCheck(
            "not-masters",
            match_expressions=[
                {"key": "machine.openshift.io/cluster-api-machine-role", "operator": "NotIn", "values": ["master"]}
            ],
        ),
        "infra": HealthCheck(
            "infra",
            match_expressions=[{"key": "machine.openshift.io/cluster-api-machineset", "operator": "DoesNotExist"}],
        ),
    }
    assert pause_health_checks(clients(server).cluster, "t-node0", "t/t-node0") == ["by-expression", "not-masters"]
    assert PAUSED not in world.mhcs["infra"].annotations


def test_a_kubeconfig_that_is_not_one_fails_in_one_line() -> None:
    with pytest.raises(OperationFailed, match="^the kubeconfig secret: cannot load a cluster from it"):
        KubeClusterClient.connect("clusters: [unterminated", None)


def _worker(world: World, name: str) -> Any:
    from components.ops.rolling import Worker

    instance_id = next(i for i, inst in world.instances.items() if inst.name == name)
    return Worker(node=name, instance_id=instance_id, holder=f"t/{name}")
