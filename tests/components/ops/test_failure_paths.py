"""Whatever fails, and wherever: the worker goes back as far as is safe, the first failure's reason
is kept, the end state is said, and no pause is left that no later run would lift."""

from __future__ import annotations

import http.client
import json

import pytest
from urllib3.exceptions import ProtocolError, ReadTimeoutError

from components.ops.healthchecks import HOLDERS, PAUSED
from components.ops.ports import OperationFailed
from components.ops.rolling import OUT_OF_SERVICE, SCALE_DOWN_DISABLED, Worker

from .standins import World
from .test_rolling import GPU_MHC

HOSTILE = [
    ReadTimeoutError(None, "/api/v1/namespaces/team/pods/app/eviction", "Read timed out. (read timeout=30)"),
    http.client.IncompleteRead(b'{"kind": "Sta', 80),
    json.JSONDecodeError("Expecting value", "<html><body>502 Bad Gateway</body></html>", 0),
    AttributeError("'list' object has no attribute 'get'"),  # an array where an object was expected
    RecursionError("maximum recursion depth exceeded while decoding a JSON array"),  # [[[[...]]]]
    ProtocolError("Connection aborted.", http.client.BadStatusLine("SSH-2.0-OpenSSH_9.6")),
]
WORKER = Worker("w-1", "i-1", "s/w-1")


def world() -> World:
    w = World({"i-1": "w-1"})
    w.mhcs = {"gpu-workers": GPU_MHC}
    return w


def assert_in_service(w: World) -> None:
    assert w.by_name("w-1").status == "running"
    node = w.nodes["w-1"]
    assert not node.unschedulable and OUT_OF_SERVICE not in node.annotations
    assert PAUSED not in w.mhcs["gpu-workers"].annotations and HOLDERS not in w.mhcs["gpu-workers"].annotations


@pytest.mark.parametrize("error", HOSTILE, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("step", ["evict", "cordon"])
def test_any_exception_while_taking_out_returns_the_worker_and_names_the_failure(step: str, error: Exception) -> None:
    w = world()
    w.fail(step, error=error)
    with pytest.raises(OperationFailed) as failure:
        w.ops().take_out(WORKER)
    assert str(failure.value).startswith(type(error).__name__)
    assert str(failure.value).endswith("worker w-1 is running and back in service")
    assert_in_service(w)


def test_a_drain_failure_keeps_its_reason_when_ibm_fails_next() -> None:
    w = world()
    w.budget_blocked = {"team/w-1-app"}
    w.fail("get", times=10, error=OperationFailed("GET /v1/instances/i-1: HTTP 503 Service Unavailable"))
    w.failures["get"] = 0  # the first look succeeds; IBM fails only once the drain has failed
    ops = w.ops(drain_s=30.0)
    original = w.kube.pods_on

    def pods_on(node: str):  # the drain's last look: from then on IBM answers 503
        w.failures["get"] = 10
        return original(node)

    w.kube.pods_on = pods_on  # type: ignore[method-assign]
    with pytest.raises(OperationFailed, match=r"team/w-1-app \(a PodDisruptionBudget allows no eviction\)") as failure:
        ops.take_out(WORKER)
    assert "503" not in str(failure.value)
    w.failures["get"] = 0
    assert_in_service(w)


def test_a_failure_while_putting_back_keeps_the_first_reason() -> None:
    w = world()
    w.fail("evict", error=OperationFailed("evict team/w-1-app: HTTP 500 Internal Server Error"))
    w.fail("uncordon", times=5)
    with pytest.raises(OperationFailed) as failure:
        w.ops().take_out(WORKER)
    message = str(failure.value)
    assert message.startswith("evict team/w-1-app: HTTP 500") and "putting it back failed too" in message
    # Still marked: the next run sees the worker out of service and brings it back; the pause was lifted.
    assert w.nodes["w-1"].annotations[OUT_OF_SERVICE] == "s/w-1"
    assert PAUSED not in w.mhcs["gpu-workers"].annotations


def test_an_instance_deleted_while_stopping_leaves_no_pause_behind() -> None:
    w = world()
    original = w.ibm.act

    def act(instance_id: str, action: str) -> None:
        original(instance_id, action)
        del w.instances[instance_id]  # an MHC remediation or a scale-down, right after the stop

    w.ibm.act = act  # type: ignore[method-assign]
    with pytest.raises(OperationFailed, match="no longer exists.*pauses it held were lifted"):
        w.ops().take_out(WORKER)
    assert w.mhcs["gpu-workers"].annotations == {}


def test_a_node_not_ready_after_its_start_keeps_cordon_and_pause_and_says_what_to_do() -> None:
    w = world()
    w.ops().take_out(WORKER)
    w.by_name("w-1").never_ready = True
    with pytest.raises(OperationFailed) as failure:
        w.ops(start_s=600.0).bring_back(WORKER)
    message = str(failure.value)
    assert message.startswith("node w-1 not Ready within 600 s of its start.  node w-1 runs but is not Ready")
    assert "stay paused (held by s/w-1 in gpu-cluster.ibm.com/paused-for)" in message
    assert "oc describe node w-1" in message
    assert w.by_name("w-1").status == "running" and w.nodes["w-1"].unschedulable
    assert w.mhcs["gpu-workers"].annotations[PAUSED] == ""


def test_a_worker_someone_else_stopped_is_never_started() -> None:
    w = world()
    w.by_name("w-1").status = "stopped"  # an administrator's stop, without this stack's mark
    with pytest.raises(OperationFailed, match="this stack did not stop it: not started"):
        w.ops().bring_back(WORKER)
    assert w.by_name("w-1").status == "stopped" and w.log == []


def test_the_mhc_covering_a_machine_named_unlike_its_node_is_paused() -> None:
    """Upstream maps a Machine to its Node through ``status.nodeRef``; names need not match."""
    w = world()
    w.machines = {
        "gpu-3-x9q2z": ("w-1", {"machine.openshift.io/cluster-api-machineset": "gpu"}),
        "w-1": ("other-node", {"machine.openshift.io/cluster-api-machineset": "infra"}),
    }
    w.fail("stop")
    with pytest.raises(OperationFailed):
        w.ops().take_out(WORKER)
    assert [who for who, what in w.log if what in ("paused", "unpaused")] == ["gpu-workers", "gpu-workers"]


def test_the_cluster_autoscaler_leaves_a_worker_out_of_service_alone() -> None:
    w = world()
    seen: list[dict[str, str]] = []
    original = w.ibm.act

    def act(instance_id: str, action: str) -> None:
        seen.append(dict(w.nodes["w-1"].annotations))
        original(instance_id, action)

    w.ibm.act = act  # type: ignore[method-assign]
    w.ops().take_out(WORKER)
    w.ops().bring_back(WORKER)
    assert seen[0][SCALE_DOWN_DISABLED] == "true"  # from before the stop
    assert w.nodes["w-1"].annotations == {}
    # An administrator's own opt-out stays.
    w.nodes["w-1"].annotations[SCALE_DOWN_DISABLED] = "true"
    w.ops().take_out(WORKER)
    w.ops().bring_back(WORKER)
    assert w.nodes["w-1"].annotations == {SCALE_DOWN_DISABLED: "true"}


@pytest.mark.parametrize("error", HOSTILE, ids=lambda e: type(e).__name__)
def test_any_exception_while_bringing_back_keeps_a_stopped_worker_protected(error: Exception) -> None:
    w = world()
    w.ops().take_out(WORKER)
    w.fail("start", error=error)
    with pytest.raises(OperationFailed) as failure:
        w.ops().bring_back(WORKER)
    assert str(failure.value).startswith(type(error).__name__)
    assert "worker w-1 stays stopped and cordoned" in str(failure.value)
    assert w.mhcs["gpu-workers"].annotations[HOLDERS] == "s/w-1"
    w.ops().bring_back(WORKER)  # the next run brings it back
    assert_in_service(w)


@pytest.mark.parametrize("error", HOSTILE, ids=lambda e: type(e).__name__)
def test_any_exception_while_uncordoning_a_ready_worker_still_returns_it(error: Exception) -> None:
    w = world()
    w.ops().take_out(WORKER)
    w.fail("uncordon", error=error)
    with pytest.raises(OperationFailed, match="worker w-1 is running and back in service$"):
        w.ops().bring_back(WORKER)
    assert_in_service(w)


def test_a_stop_whose_answer_was_lost_is_given_a_poll_before_the_worker_is_returned() -> None:
    """IBM may act on a stop request whose answer never arrived: the worker is not returned to service (and
    its MHC unpaused) while it is about to stop."""
    w = world()
    original_act, original_get = w.ibm.act, w.ibm.get
    late: list[str] = []

    def act(instance_id: str, action: str) -> None:
        late.append(instance_id)  # accepted, but the answer is lost
        raise ReadTimeoutError(None, "/v1/instances/i-1/actions", "Read timed out.")

    def get(instance_id: str):
        state = original_get(instance_id)
        if late and state is not None and state.status == "running" and len(late) > 1:
            original_act(late.pop(0), "stop")  # IBM gets to it a moment later
            return original_get(instance_id)
        if late:
            late.append("looked")
        return state

    w.ibm.act, w.ibm.get = act, get  # type: ignore[method-assign]
    with pytest.raises(OperationFailed, match="worker w-1 stays stopping and cordoned"):
        w.ops().take_out(WORKER)
    assert w.mhcs["gpu-workers"].annotations[HOLDERS] == "s/w-1" and w.nodes["w-1"].unschedulable
