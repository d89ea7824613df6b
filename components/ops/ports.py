"""What the rolling node operations need from IBM Cloud and from the cluster, as small typed ports.

The operations (``components.ops.rolling``) speak only to these protocols: the dynamic providers
plug in the REST clients (``ibm_client``, ``kube_client``), the tests in-memory stand-ins.  Every
value read through them comes from a cloud or a cluster and is treated as untrusted data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

__all__ = [
    "AnnotationEdit",
    "Clock",
    "ClusterApi",
    "EvictionOutcome",
    "HealthCheck",
    "InstanceAction",
    "InstanceApi",
    "InstanceState",
    "NodeState",
    "OperationFailed",
    "PodRef",
]

InstanceAction = Literal["stop", "start"]
AnnotationEdit = Callable[[Mapping[str, str]], Mapping[str, str | None]]
EvictionOutcome = Literal["evicted", "blocked", "gone", "terminating"]
"""``blocked``: the API answered 429, a PodDisruptionBudget allows no disruption now; ``gone``: no such pod (of
that UID); ``terminating``: refused because the pod's namespace is being deleted (which deletes the pod)."""


class OperationFailed(Exception):
    """One step of a node operation failed; the message names the worker, the step and what to do."""


@dataclass(frozen=True)
class InstanceState:
    status: str
    """IBM's instance status: ``running``, ``stopping``, ``stopped``, ``starting``, ``pending``, ``failed``..."""
    cluster_attachments: tuple[str, ...] = ()
    """Names of the instance's cluster network attachments."""


@dataclass(frozen=True)
class NodeState:
    ready: bool
    unschedulable: bool
    annotations: Mapping[str, str] = field(default_factory=dict)
    ready_since: float | None = None
    """When the Ready condition last changed (epoch seconds), if the Node says."""


@dataclass(frozen=True)
class PodRef:
    namespace: str
    name: str
    owner_kind: str | None = None
    """Kind of the controlling owner (``DaemonSet``, ``ReplicaSet``...), None for a bare pod."""
    owner_group: str | None = None
    """API group of the controlling owner (``apps``; ``""`` for the core group)."""
    mirror: bool = False
    """A static pod's mirror: the kubelet owns it, the API cannot evict it."""
    finished: bool = False
    """Phase Succeeded or Failed: nothing runs any more."""
    emptydir: bool = False
    """Has an ``emptyDir`` volume: node-local data an eviction deletes."""
    uid: str = ""

    def __str__(self) -> str:
        return f"{self.namespace}/{self.name}"

    @property
    def key(self) -> str:
        """What tells this pod from another of the same name: its UID (its name where the API gave none)."""
        return self.uid or str(self)


@dataclass(frozen=True)
class HealthCheck:
    """A MachineHealthCheck (machine.openshift.io/v1beta1) of ``openshift-machine-api``."""

    name: str
    match_labels: Mapping[str, str] = field(default_factory=dict)
    match_expressions: Sequence[Mapping[str, object]] = ()
    annotations: Mapping[str, str] = field(default_factory=dict)


class InstanceApi(Protocol):
    def get(self, instance_id: str) -> InstanceState | None:
        """The instance, or None when it no longer exists."""
        ...

    def act(self, instance_id: str, action: InstanceAction) -> None: ...


class ClusterApi(Protocol):
    def node(self, name: str) -> NodeState | None: ...
    def set_unschedulable(self, name: str, value: bool) -> None: ...
    def annotate_node(self, name: str, changes: Mapping[str, str | None]) -> None:
        """Set (a string) or remove (None) annotations of the Node."""
        ...

    def pods_on(self, node: str) -> list[PodRef]: ...
    def evict(self, pod: PodRef) -> EvictionOutcome: ...
    def machine_labels_of_node(self, node: str) -> Mapping[str, str] | None:
        """Labels of the Machine in ``openshift-machine-api`` whose ``status.nodeRef`` is ``node``; None when
        no Machine backs it."""
        ...

    def health_checks(self) -> list[HealthCheck]: ...
    def edit_health_check(self, name: str, edit: AnnotationEdit) -> None:
        """Read the MachineHealthCheck's annotations, apply ``edit``'s changes (None removes), and
        write them back only if nobody changed the object in between (retried on conflict)."""
        ...


class Clock(Protocol):
    def now(self) -> float: ...
    def sleep(self, seconds: float) -> None: ...
