"""In-memory stand-ins for the IBM instance API and the Kubernetes API, behaving as the real ones do
where the node operations depend on it: an instance stops and starts over a few polls, IBM refuses
cluster NIC changes on a running instance and actions on a vanished one, a Node turns Ready some
polls after its instance runs, evictions honour PodDisruptionBudgets, MHC annotations change only
through read-modify-write.  One ``World`` holds both and logs every disruptive event in order."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field

from components.ops.healthchecks import PAUSED
from components.ops.ports import (
    AnnotationEdit,
    EvictionOutcome,
    HealthCheck,
    InstanceState,
    NodeState,
    OperationFailed,
    PodRef,
)
from components.ops.rolling import OUT_OF_SERVICE, NodeOps, Timeouts

TRANSITION_POLLS = 2
"""Polls an instance spends stopping or starting, and a Node spends NotReady after its instance runs."""


class FakeClock:
    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds


@dataclass
class Instance:
    name: str
    status: str = "running"
    attachments: list[str] = field(default_factory=list)
    polls: int = 0
    ready_polls: int = 0
    """Polls the Node still reads NotReady: none for a worker found running, some after each start."""
    never_ready: bool = False
    """Its Node never turns Ready (a kubelet that does not come up)."""
    stuck: bool = False
    """Never finishes starting (a start that outlives every timeout)."""


@dataclass
class Node:
    unschedulable: bool = False
    annotations: dict[str, str] = field(default_factory=dict)


class World:
    def __init__(self, workers: Mapping[str, str], labels: Mapping[str, str] | None = None) -> None:
        """``workers``: instance ID → name; every worker has a Node, a Machine with ``labels`` and two pods."""
        self.lock = threading.RLock()
        self.instances = {iid: Instance(name) for iid, name in workers.items()}
        self.nodes = {name: Node() for name in workers.values()}
        machine_labels = dict(labels or {"machine.openshift.io/cluster-api-machineset": "gpu"})
        self.machines = {f"machine-{name}": (name, dict(machine_labels)) for name in workers.values()}
        """Machine name → (its ``status.nodeRef`` name, its labels): Machines need not be named like their Node."""
        self.pods: dict[str, list[PodRef]] = {
            name: [
                PodRef("team", f"{name}-app", "ReplicaSet", "apps", uid=f"uid-{name}-app"),
                PodRef("openshift-dns", f"dns-{name}", "DaemonSet", "apps", uid=f"uid-dns-{name}"),
            ]
            for name in workers.values()
        }
        self.budget_blocked: set[str] = set()
        self.terminating: set[str] = set()
        """Namespaces being deleted: evictions there are refused (403), and their pods go on the next look."""
        self.deleting: set[str] = set()
        self.mhcs: dict[str, HealthCheck] = {}
        self.failures: dict[str, int] = {}
        """Operation → how many more calls fail (``stop``, ``start``, ``cordon``, ``uncordon``, ``evict``,
        ``pause``, ``attach``, ``get``)."""
        self.errors: dict[str, Exception] = {}
        self.log: list[tuple[str, str]] = []
        self.max_out = 0
        self.ibm = IbmStandIn(self)
        self.kube = KubeStandIn(self)

    def ops(self, **timeouts: float) -> NodeOps:
        return NodeOps(self.ibm, self.kube, FakeClock(), Timeouts(**{"poll_s": 10.0, **timeouts}))

    def fail(self, operation: str, times: int = 1, error: Exception | None = None) -> None:
        """The next ``times`` calls of ``operation`` raise ``error`` (default: an ``OperationFailed``)."""
        self.failures[operation] = times
        if error is not None:
            self.errors[operation] = error

    def _maybe_fail(self, operation: str, what: str) -> None:
        if self.failures.get(operation, 0) > 0:
            self.failures[operation] -= 1
            raise self.errors.get(operation) or OperationFailed(f"injected failure: {operation} {what}")

    def event(self, node: str, what: str) -> None:
        self.log.append((node, what))
        out = sum(1 for i in self.instances.values() if i.status != "running" or self.nodes[i.name].unschedulable)
        self.max_out = max(self.max_out, out)

    def events(self, node: str) -> list[str]:
        return [what for who, what in self.log if who == node]

    def by_name(self, name: str) -> Instance:
        return next(i for i in self.instances.values() if i.name == name)

    # What the attachment resources do (IBM refuses them on a running instance).
    def attach(self, instance_id: str, name: str) -> None:
        with self.lock:
            instance = self.instances.get(instance_id)
            if instance is None:
                raise OperationFailed(f"attach {name}: instance {instance_id} not found (404)")
            self._maybe_fail("attach", name)
            if instance.status != "stopped":
                raise OperationFailed(f"attach {name}: instance {instance.name} is {instance.status}, not stopped")
            if name not in instance.attachments:
                instance.attachments.append(name)
            self.event(instance.name, f"attach {name}")

    def detach(self, instance_id: str, name: str) -> None:
        with self.lock:
            instance = self.instances.get(instance_id)
            if instance is None:
                raise OperationFailed(f"detach {name}: instance {instance_id} not found (404)")
            if instance.status != "stopped":
                raise OperationFailed(f"detach {name}: instance {instance.name} is {instance.status}, not stopped")
            instance.attachments.remove(name)
            self.event(instance.name, f"detach {name}")

    def attached(self, instance_id: str, name: str) -> bool:
        with self.lock:
            instance = self.instances.get(instance_id)
            return instance is not None and name in instance.attachments


class IbmStandIn:
    def __init__(self, world: World) -> None:
        self.w = world

    def get(self, instance_id: str) -> InstanceState | None:
        with self.w.lock:
            self.w._maybe_fail("get", instance_id)
            instance = self.w.instances.get(instance_id)
            if instance is None:
                return None
            if instance.status in ("stopping", "starting") and not (instance.stuck and instance.status == "starting"):
                instance.polls += 1
                if instance.polls >= TRANSITION_POLLS:
                    instance.status = "stopped" if instance.status == "stopping" else "running"
                    instance.ready_polls = TRANSITION_POLLS
                    self.w.event(instance.name, instance.status)
            return InstanceState(instance.status, tuple(instance.attachments))

    def act(self, instance_id: str, action: str) -> None:
        with self.w.lock:
            instance = self.w.instances.get(instance_id)
            if instance is None:
                raise OperationFailed(f"{action}: instance {instance_id} not found")
            self.w._maybe_fail(action, instance.name)
            wanted = "running" if action == "stop" else "stopped"
            if instance.status != wanted:  # as IBM: stop needs a running, start a stopped instance
                raise OperationFailed(f"{action}: instance {instance.name} is {instance.status}")
            instance.status, instance.polls = ("stopping" if action == "stop" else "starting"), 0
            self.w.event(instance.name, action)


class KubeStandIn:
    def __init__(self, world: World) -> None:
        self.w = world

    def node(self, name: str) -> NodeState | None:
        with self.w.lock:
            node = self.w.nodes.get(name)
            if node is None:
                return None
            instance = self.w.by_name(name)
            ready = instance.status == "running" and instance.ready_polls <= 0 and not instance.never_ready
            if instance.status == "running" and instance.ready_polls > 0:
                instance.ready_polls -= 1
            return NodeState(ready=ready, unschedulable=node.unschedulable, annotations=dict(node.annotations))

    def set_unschedulable(self, name: str, value: bool) -> None:
        with self.w.lock:
            self.w._maybe_fail("cordon" if value else "uncordon", name)
            self.w.nodes[name].unschedulable = value
            self.w.event(name, "cordon" if value else "uncordon")

    def annotate_node(self, name: str, changes: Mapping[str, str | None]) -> None:
        with self.w.lock:
            annotations = self.w.nodes[name].annotations
            for key, value in changes.items():
                if value is None:
                    annotations.pop(key, None)
                else:
                    annotations[key] = value
            if OUT_OF_SERVICE in changes:
                self.w.event(name, "mark" if changes[OUT_OF_SERVICE] else "unmark")

    def pods_on(self, node: str) -> list[PodRef]:
        with self.w.lock:
            pods = self.w.pods.get(node, [])
            pods[:] = [p for p in pods if str(p) not in self.w.deleting]  # the namespace controller got to them
            return list(pods)

    def evict(self, pod: PodRef) -> EvictionOutcome:
        with self.w.lock:
            self.w._maybe_fail("evict", str(pod))
            if str(pod) in self.w.budget_blocked:
                return "blocked"
            if pod.namespace in self.w.terminating:
                self.w.deleting.add(str(pod))
                return "terminating"
            for node, pods in self.w.pods.items():  # by name, and by UID where the eviction names one
                found = next((p for p in pods if str(p) == str(pod) and (not pod.uid or p.uid == pod.uid)), None)
                if found is not None:
                    pods.remove(found)
                    self.w.event(node, f"evict {pod}")
                    return "evicted"
            return "gone"

    def machine_labels_of_node(self, node: str) -> Mapping[str, str] | None:
        with self.w.lock:
            return next((labels for ref, labels in self.w.machines.values() if ref == node), None)

    def health_checks(self) -> list[HealthCheck]:
        with self.w.lock:
            return list(self.w.mhcs.values())

    def edit_health_check(self, name: str, edit: AnnotationEdit) -> None:
        with self.w.lock:
            self.w._maybe_fail("pause", name)
            check = self.w.mhcs[name]
            annotations = dict(check.annotations)
            was_paused = PAUSED in annotations
            for key, value in edit(dict(annotations)).items():
                if value is None:
                    annotations.pop(key, None)
                else:
                    annotations[key] = value
            self.w.mhcs[name] = HealthCheck(check.name, check.match_labels, check.match_expressions, annotations)
            if was_paused != (PAUSED in annotations):
                self.w.log.append((name, "paused" if PAUSED in annotations else "unpaused"))
