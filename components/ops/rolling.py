"""Taking one adopted worker out of service and bringing it back: the steps around its cluster NICs.

IBM attaches and detaches cluster network interfaces only while the instance is stopped, and the
worker is a node of a cluster people use.  So, per worker:

``take_out``   pause the MachineHealthChecks covering it → mark (and keep the cluster-autoscaler off) →
               cordon → drain → stop → wait stopped
``bring_back`` start → wait until the instance runs and the Node is Ready → uncordon → lift the pauses

Both are idempotent, so a re-run after a failure at any step converges: a worker found stopped by
this stack (the Node carries the stack's mark) goes on from there; one stopped by somebody else is
refused, and never started.  Whatever fails (an ``OperationFailed``, a timeout, a garbled answer),
the step puts the worker back as far as is safe and fails with the first failure's reason and the
worker's end state (``NodeOps._fail``): a worker never stopped returns to what it was; a running,
Ready one returns to service; a running one that is not Ready stays cordoned and paused, and a
stopped one keeps its pauses: unpaused, an MHC would delete the Machine, and with it the instance,
its boot volume and its new NICs, once its NotReady timeout passed.  A vanished instance has
nothing left to protect: its pauses are lifted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from components.ops.drain import drain
from components.ops.healthchecks import HOLDERS, pause_health_checks, resume_health_checks
from components.ops.ports import Clock, ClusterApi, InstanceApi, InstanceState, NodeState, OperationFailed

__all__ = ["OUT_OF_SERVICE", "SCALE_DOWN_DISABLED", "WAS_CORDONED", "NodeOps", "Timeouts", "Worker"]

OUT_OF_SERVICE = "gpu-cluster.ibm.com/out-of-service"
"""On the Node while a stack has it out of service: the holder (``<stack>/<worker>``)."""
WAS_CORDONED = "gpu-cluster.ibm.com/was-cordoned"
"""Set when the Node was already unschedulable before: it stays cordoned afterwards."""
SCALE_DOWN_DISABLED = "cluster-autoscaler.kubernetes.io/scale-down-disabled"
"""The cluster-autoscaler's per-Node opt-out (its FAQ: "How can I prevent Cluster Autoscaler from scaling down a
particular node?"): a drained, stopped worker looks idle, and a scale-down would delete its Machine."""
SET_SCALE_DOWN = "gpu-cluster.ibm.com/set-scale-down-disabled"
"""Set when this stack added ``SCALE_DOWN_DISABLED`` (an administrator's own stays after the worker returns)."""


@dataclass(frozen=True)
class Timeouts:
    drain_s: float = 900.0
    stop_s: float = 1800.0
    start_s: float = 3600.0
    """From the start request until the instance runs and the Node is Ready (a gx3d may take ~20 min)."""
    poll_s: float = 15.0


@dataclass(frozen=True)
class Worker:
    node: str
    """Instance name = Machine name = Node name."""
    instance_id: str
    holder: str
    """``<stack>/<worker>``: who holds the pauses and the Node's mark."""
    attachments: tuple[str, ...] = ()
    """The cluster network attachments the stack plans on it, by name."""
    delete_emptydir_data: bool = False
    """``nodes.drain_delete_emptydir_data``: the drain may evict pods with emptyDir volumes."""


def _reason(error: BaseException) -> str:
    """One line: an ``OperationFailed``'s own message, anything else named by its type (a timeout, a cut-short
    or garbled answer: what the clients did not turn into an ``OperationFailed`` themselves)."""
    if isinstance(error, OperationFailed):
        return str(error).rstrip(".")
    text = next(iter(str(error).splitlines()), "")[:300]
    return f"{type(error).__name__}{': ' if text else ''}{text}"


def _not_ready(worker: Worker) -> str:
    return (
        f"node {worker.node} runs but is not Ready: it stays cordoned and the MachineHealthChecks covering it "
        f"stay paused (held by {worker.holder} in {HOLDERS}), because an unpaused MHC would delete the Machine "
        f"with its new NICs.  Make the node Ready (oc describe node {worker.node}) and run pulumi up again; to "
        "let the MHC replace it instead, delete the Machine yourself and run pulumi up --refresh"
    )


def _marked(node: NodeState | None, worker: Worker) -> bool:
    """Whether this stack took the Node out of service (its mark, held by this worker's holder)."""
    return node is not None and node.annotations.get(OUT_OF_SERVICE) == worker.holder


@dataclass(frozen=True)
class NodeOps:
    instances: InstanceApi
    cluster: ClusterApi
    clock: Clock
    timeouts: Timeouts = Timeouts()

    def needs_sequence(self, worker: Worker) -> bool:
        """Running with some planned attachment missing: the whole stop → attach → start again."""
        state = self.instances.get(worker.instance_id)
        if state is None or state.status != "running":
            return False
        return not set(worker.attachments) <= set(state.cluster_attachments)

    def out_of_service(self, worker: Worker) -> bool:
        """Stopped, or still carrying this stack's out-of-service mark: to be brought back."""
        state = self.instances.get(worker.instance_id)
        if state is None:
            return False
        node = self.cluster.node(worker.node)
        marked = _marked(node, worker)
        return state.status != "running" or marked

    def take_out(self, worker: Worker, *, missing_ok: bool = False) -> None:
        state = self._instance(worker, missing_ok)
        if state is None:
            return
        node = self.cluster.node(worker.node)
        marked = _marked(node, worker)
        if state.status in ("stopping", "stopped"):
            if not marked:
                raise OperationFailed(
                    f"worker {worker.node} is {state.status} and this stack did not stop it: start it (ibmcloud is "
                    "instance-start) or choose another worker, then run pulumi up again"
                )
            pause_health_checks(self.cluster, worker.node, worker.holder)
            self._wait_status(worker, "stopped", self.timeouts.stop_s)
            return
        if state.status != "running":
            raise OperationFailed(
                f"worker {worker.node} is {state.status}: only a running worker is taken out of "
                "service; wait until IBM reports it running, then run pulumi up again"
            )
        if node is None:
            raise OperationFailed(
                f"worker {worker.node}: no such Node in the cluster the stack reaches (check "
                "gpu-cluster:kubeconfig and kubernetes.context); nothing was stopped"
            )
        stop_asked = False
        try:
            pause_health_checks(self.cluster, worker.node, worker.holder)
            if not marked:
                marks: dict[str, str | None] = {OUT_OF_SERVICE: worker.holder}
                if node.unschedulable:
                    marks[WAS_CORDONED] = "true"
                if node.annotations.get(SCALE_DOWN_DISABLED) != "true":
                    marks |= {SCALE_DOWN_DISABLED: "true", SET_SCALE_DOWN: "true"}
                self.cluster.annotate_node(worker.node, marks)
            self.cluster.set_unschedulable(worker.node, True)
            drain(
                self.cluster,
                self.clock,
                worker.node,
                timeout_s=self.timeouts.drain_s,
                poll_s=self.timeouts.poll_s,
                delete_emptydir_data=worker.delete_emptydir_data,
            )
            stop_asked = True
            self.instances.act(worker.instance_id, "stop")
        except Exception as error:  # noqa: BLE001 - whatever failed, the worker goes back to what it was
            self._fail(worker, error, never_stopped=not stop_asked, settle=stop_asked)
        try:
            self._wait_status(worker, "stopped", self.timeouts.stop_s)
        except Exception as error:  # noqa: BLE001
            self._fail(worker, error)

    def bring_back(self, worker: Worker, *, missing_ok: bool = False) -> None:
        state = self._instance(worker, missing_ok)
        if state is None:
            resume_health_checks(self.cluster, worker.holder)
            return
        if state.status in ("stopping", "stopped") and not _marked(self.cluster.node(worker.node), worker):
            raise OperationFailed(
                f"worker {worker.node} is {state.status} and this stack did not stop it: not started (whoever "
                "stopped it may need it stopped); start it yourself (ibmcloud is instance-start), then run pulumi up "
                "again"
            )
        deadline = self.clock.now() + self.timeouts.start_s
        try:
            started = False
            if state.status == "stopping":
                state = self._wait_status(worker, "stopped", self.timeouts.stop_s)
            if state.status == "stopped":
                started = True
                self.instances.act(worker.instance_id, "start")
            self._wait_status(worker, "running", deadline - self.clock.now())
            self._wait_ready(worker, deadline, started)
            self._return_node(worker)
        except Exception as error:  # noqa: BLE001 - whatever failed, a running, Ready worker goes back to service
            self._fail(worker, error)

    def _fail(
        self, worker: Worker, first: BaseException, *, never_stopped: bool = False, settle: bool = False
    ) -> NoReturn:
        """Put the worker back as far as it is safe, then fail with ``first``'s reason and the worker's end
        state.  A worker never stopped (``never_stopped``) returns to what it was; a running, Ready one returns
        to service; a running one that is not Ready stays cordoned and paused (unpaused, its MHC would delete
        the Machine with its new NICs); a stopped one keeps its pauses; a vanished one has nothing to protect.
        ``settle``: a stop request whose answer was lost may still take effect; look again after a poll."""
        end = ""
        try:
            state = InstanceState("running") if never_stopped else self.instances.get(worker.instance_id)
            if settle and state is not None and state.status == "running":
                self.clock.sleep(self.timeouts.poll_s)
                state = self.instances.get(worker.instance_id)
            if state is None:
                resume_health_checks(self.cluster, worker.holder)
                end = (
                    f"worker {worker.node}: the instance no longer exists; the MachineHealthCheck pauses it "
                    "held were lifted"
                )
            elif state.status != "running":
                end = (
                    f"worker {worker.node} stays {state.status} and cordoned, the MachineHealthChecks covering "
                    "it paused (an unpaused MHC would delete it); run pulumi up again to bring it back"
                )
            else:
                node = self.cluster.node(worker.node)
                if node is not None and not node.ready and not never_stopped:
                    end = _not_ready(worker)
                else:
                    self._return_node(worker)
                    end = f"worker {worker.node} is running and back in service"
        except Exception as undo:  # noqa: BLE001 - the first failure's reason is the one to keep
            end = (
                f"worker {worker.node}: putting it back failed too ({_reason(undo)}); it may stay cordoned or "
                "paused by this stack: run pulumi up again"
            )
        raise OperationFailed(f"{_reason(first)}.  {end}") from None

    def _return_node(self, worker: Worker) -> None:
        """Uncordon (unless it was cordoned before) and drop the marks; lift the pauses even if that failed."""
        first: Exception | None = None
        try:
            node = self.cluster.node(worker.node)
            if node is not None and _marked(node, worker):
                if node.annotations.get(WAS_CORDONED) != "true":
                    self.cluster.set_unschedulable(worker.node, False)
                marks: dict[str, str | None] = {OUT_OF_SERVICE: None, WAS_CORDONED: None}
                if node.annotations.get(SET_SCALE_DOWN) == "true":
                    marks |= {SCALE_DOWN_DISABLED: None, SET_SCALE_DOWN: None}
                self.cluster.annotate_node(worker.node, marks)
        except Exception as error:  # noqa: BLE001 - the pauses are lifted all the same
            first = error
        resume_health_checks(self.cluster, worker.holder)
        if first is not None:
            raise first

    def _instance(self, worker: Worker, missing_ok: bool) -> InstanceState | None:
        state = self.instances.get(worker.instance_id)
        if state is None and not missing_ok:
            resume_health_checks(self.cluster, worker.holder)  # nothing left to protect: no pause stays behind
            raise OperationFailed(
                f"worker {worker.node}: instance {worker.instance_id} no longer exists (a "
                "MachineSet scale-down or remediation?); run pulumi up --refresh to forget it"
            )
        return state

    def _wait_status(self, worker: Worker, status: str, timeout_s: float) -> InstanceState:
        deadline = self.clock.now() + max(timeout_s, 0.0)
        while True:
            state = self._instance(worker, missing_ok=False)
            assert state is not None
            if state.status == status:
                return state
            if state.status == "failed":
                raise OperationFailed(
                    f"worker {worker.node}: IBM reports the instance failed while waiting for {status}"
                )
            if self.clock.now() >= deadline:
                raise OperationFailed(
                    f"worker {worker.node} not {status} within {timeout_s:.0f} s (it is "
                    f"{state.status}); run pulumi up again to wait on"
                )
            self.clock.sleep(self.timeouts.poll_s)

    def _wait_ready(self, worker: Worker, deadline: float, started: bool) -> None:
        """Until the Node is Ready.  After a start, a Ready that predates it is stale (the node controller
        may not have marked the stopped node yet): it counts once the Node was seen not Ready, or its
        Ready condition changed since the first look (no clock of ours is compared with the server's)."""
        first = self.cluster.node(worker.node)
        seen_down = first is None or not first.ready
        while True:
            node = self.cluster.node(worker.node)
            if node is not None and not node.ready:
                seen_down = True
            fresh = (
                not started
                or seen_down
                or (node is not None and first is not None and node.ready_since != first.ready_since)
            )
            if node is not None and node.ready and fresh:
                return
            if self.clock.now() >= deadline:
                raise OperationFailed(f"node {worker.node} not Ready within {self.timeouts.start_s:.0f} s of its start")
            self.clock.sleep(self.timeouts.poll_s)
