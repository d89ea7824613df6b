"""Taking one adopted worker out of service and bringing it back: the steps around its cluster NICs.

IBM attaches and detaches cluster network interfaces only while the instance is stopped, and the
worker is a node of a cluster people use.  So, per worker:

``take_out``   pause the MachineHealthChecks covering it → cordon → drain → stop → wait stopped
``bring_back`` start → wait until the instance runs and the Node is Ready → uncordon → lift the pauses

Both are idempotent, so a re-run after a failure at any step converges: a worker found stopped by
this stack (the Node carries the stack's mark) goes on from there; one stopped by somebody else is
refused.  A drain that fails leaves the worker running and schedulable; a start that fails with
the instance running lifts the pauses (the worker is then an ordinary node the MHC may judge),
while a worker left stopped keeps them: unpaused, an MHC would delete the Machine, and with it
the instance and its boot volume, once its NotReady timeout passed.
"""

from __future__ import annotations

from dataclasses import dataclass

from components.ops.drain import drain
from components.ops.healthchecks import pause_health_checks, resume_health_checks
from components.ops.ports import Clock, ClusterApi, InstanceApi, InstanceState, NodeState, OperationFailed

__all__ = ["OUT_OF_SERVICE", "WAS_CORDONED", "NodeOps", "Timeouts", "Worker"]

OUT_OF_SERVICE = "gpu-cluster.ibm.com/out-of-service"
"""On the Node while a stack has it out of service: the holder (``<stack>/<worker>``)."""
WAS_CORDONED = "gpu-cluster.ibm.com/was-cordoned"
"""Set when the Node was already unschedulable before: it stays cordoned afterwards."""


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
                    "instance-start) or choose another worker, then run pulumi up again")
            pause_health_checks(self.cluster, worker.node, worker.holder)
            self._wait_status(worker, "stopped", self.timeouts.stop_s)
            return
        if state.status != "running":
            raise OperationFailed(f"worker {worker.node} is {state.status}: only a running worker is taken out of "
                                  "service; wait until IBM reports it running, then run pulumi up again")
        if node is None:
            raise OperationFailed(f"worker {worker.node}: no such Node in the cluster the stack reaches (check "
                                  "gpu-cluster:kubeconfig and kubernetes.context); nothing was stopped")
        try:
            pause_health_checks(self.cluster, worker.node, worker.holder)
            if not marked:
                marks: dict[str, str | None] = {OUT_OF_SERVICE: worker.holder}
                if node.unschedulable:
                    marks[WAS_CORDONED] = "true"
                self.cluster.annotate_node(worker.node, marks)
            self.cluster.set_unschedulable(worker.node, True)
            drain(self.cluster, self.clock, worker.node, timeout_s=self.timeouts.drain_s, poll_s=self.timeouts.poll_s)
            self.instances.act(worker.instance_id, "stop")
        except OperationFailed:
            still = self.instances.get(worker.instance_id)
            if still is not None and still.status == "running":
                self._return_node(worker)  # not stopped: the worker goes on serving
            raise
        self._wait_status(worker, "stopped", self.timeouts.stop_s)

    def bring_back(self, worker: Worker, *, missing_ok: bool = False) -> None:
        state = self._instance(worker, missing_ok)
        if state is None:
            resume_health_checks(self.cluster, worker.holder)
            return
        deadline = self.clock.now() + self.timeouts.start_s
        started = False
        if state.status == "stopping":
            state = self._wait_status(worker, "stopped", self.timeouts.stop_s)
        if state.status == "stopped":
            started = True
            self.instances.act(worker.instance_id, "start")
        try:
            self._wait_status(worker, "running", deadline - self.clock.now())
            self._wait_ready(worker, deadline, started)
        except OperationFailed:
            now = self.instances.get(worker.instance_id)
            if now is not None and now.status == "running":
                resume_health_checks(self.cluster, worker.holder)
            raise
        self._return_node(worker)

    def _return_node(self, worker: Worker) -> None:
        """Uncordon (unless it was cordoned before), drop the marks, lift the pauses."""
        node = self.cluster.node(worker.node)
        if node is not None and _marked(node, worker):
            if node.annotations.get(WAS_CORDONED) != "true":
                self.cluster.set_unschedulable(worker.node, False)
            self.cluster.annotate_node(worker.node, {OUT_OF_SERVICE: None, WAS_CORDONED: None})
        resume_health_checks(self.cluster, worker.holder)

    def _instance(self, worker: Worker, missing_ok: bool) -> InstanceState | None:
        state = self.instances.get(worker.instance_id)
        if state is None and not missing_ok:
            raise OperationFailed(f"worker {worker.node}: instance {worker.instance_id} no longer exists (a "
                                  "MachineSet scale-down or remediation?); run pulumi up --refresh to forget it")
        return state

    def _wait_status(self, worker: Worker, status: str, timeout_s: float) -> InstanceState:
        deadline = self.clock.now() + max(timeout_s, 0.0)
        while True:
            state = self._instance(worker, missing_ok=False)
            assert state is not None
            if state.status == status:
                return state
            if state.status == "failed":
                raise OperationFailed(f"worker {worker.node}: IBM reports the instance failed while waiting for "
                                      f"{status}")
            if self.clock.now() >= deadline:
                raise OperationFailed(f"worker {worker.node} not {status} within {timeout_s:.0f} s (it is "
                                      f"{state.status}); run pulumi up again to wait on")
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
            fresh = not started or seen_down or (node is not None and first is not None
                                                  and node.ready_since != first.ready_since)
            if node is not None and node.ready and fresh:
                return
            if self.clock.now() >= deadline:
                raise OperationFailed(f"node {worker.node} not Ready within {self.timeouts.start_s:.0f} s of its "
                                      "start; it stays cordoned: look at the node (oc describe node), then run "
                                      "pulumi up again")
            self.clock.sleep(self.timeouts.poll_s)
