"""The Pulumi dynamic resources that run the node operations inside ``pulumi up`` and ``destroy``,
so that the plain CLI is as safe as ``python -m experiments``.

Per adopted worker with cluster NICs, the stack declares

``WorkerOutOfService``  create/update: pause MHCs, cordon, drain, stop   delete: start, Ready, uncordon
   ↓ (the cluster network attachments depend on it, in NIC order)
``WorkerInService``     create/update: start, Ready, uncordon, unpause   delete: pause, cordon, drain, stop

so that ``destroy`` (reverse dependency order) is rolling too; worker *k+m*'s out-of-service waits
for worker *k*'s in-service (``nodes.max_unavailable`` = *m* lanes).  Both diff against reality:
a running worker with planned attachments missing is taken out again, a worker found out of service
is brought back.  ``WorkerSelection`` refuses, in ``check``, an ``up`` that swaps the workers a
MachineSet selection picked (the engine hands it the previous selection).

Secrets (API key, kubeconfig) arrive only as secret inputs and stay secret outputs.
"""

from __future__ import annotations

import ipaddress
import os
import pickle
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import pulumi
from pulumi.dynamic import CheckFailure, CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult

from components.ops.lanes import LANES, Direction
from components.ops.ports import OperationFailed
from components.ops.rolling import NodeOps, Timeouts, Worker

__all__ = ["WorkerInService", "WorkerOutOfService", "WorkerSelection", "address_problem", "connect_from_props",
           "selection_problem"]

SECRET_INPUTS = ["ibm_api_key", "kubeconfig"]
PLAN_KEYS = ("instance_id", "node", "attachments", "generation")
"""Inputs whose change means the worker's NICs change: the sequence runs again."""


class _SystemClock:
    def now(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def connect_from_props(props: dict[str, Any]) -> NodeOps:
    """The real clients, from the resource's inputs.  Without the stack's API key secret, the
    provider's own environment variable (as the IBM provider reads it).  No call of theirs outlives
    the step: every wait the step may make, and a margin for the calls around them."""
    from components.ops.calls import CallPolicy
    from components.ops.ibm_client import IbmInstanceClient
    from components.ops.kube_client import KubeClusterClient

    timeouts = Timeouts(**dict(props.get("timeouts") or {}))
    policy = CallPolicy(step_deadline=time.time() + timeouts.drain_s + timeouts.stop_s + timeouts.start_s + 600)
    key = props.get("ibm_api_key") or os.environ.get("IC_API_KEY") or os.environ.get("IBMCLOUD_API_KEY") or ""
    return NodeOps(instances=IbmInstanceClient(str(props["region"]), str(key), policy=policy),
                   cluster=KubeClusterClient.connect(props.get("kubeconfig") or None, props.get("kube_context"),
                                                     policy=policy),
                   clock=_SystemClock(), timeouts=timeouts)


def _take_out(ops: NodeOps, props: dict[str, Any], *, missing_ok: bool = False) -> None:
    """The one way a worker is stopped, and only with the stack's opt-in (checked again here, at the step)."""
    if props.get("allow_stop") is not True:
        raise OperationFailed(f"worker {props['node']}: not stopped, because the stack does not set "
                              "nodes.allow_instance_stop: true (a stop wipes a gx3d's NVMe instance storage)")
    ops.take_out(_worker(props), missing_ok=missing_ok)


def _worker(props: dict[str, Any]) -> Worker:
    return Worker(node=str(props["node"]), instance_id=str(props["instance_id"]), holder=str(props["holder"]),
                  attachments=tuple(str(a) for a in props.get("attachments") or ()),
                  delete_emptydir_data=props.get("delete_emptydir_data") is True)


def _plan_changed(olds: dict[str, Any], news: dict[str, Any]) -> list[str]:
    return [k for k in PLAN_KEYS if olds.get(k) != news.get(k)]


class _WorkerProvider(ResourceProvider):
    """Shared by both directions; ``connect`` builds the clients (tests hand in stand-ins)."""

    def __init__(self, connect: Callable[[dict[str, Any]], NodeOps] = connect_from_props) -> None:
        super().__init__()
        self.connect = connect

    def _forward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        raise NotImplementedError

    def _backward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        raise NotImplementedError

    def _drifted(self, ops: NodeOps, props: dict[str, Any]) -> bool:
        raise NotImplementedError

    def _outs(self, props: dict[str, Any], token: str) -> dict[str, Any]:
        return {**props, "token": token}

    def create(self, props: dict[str, Any]) -> CreateResult:
        self._forward(self.connect(props), props)
        return CreateResult(id_=str(props["holder"]), outs=self._outs(props, uuid.uuid4().hex))

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        changed = [k for k in news if not k.startswith("__") and k != "token" and olds.get(k) != news.get(k)]
        if not changed and self._drifted(self.connect(news), news):
            changed = ["instance_id"]  # reality differs from the state: run the step again
        return DiffResult(changes=bool(changed), replaces=[], delete_before_replace=True)

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        ops = self.connect(news)
        if _plan_changed(olds, news) or self._drifted(ops, news):
            self._forward(ops, news)
            return UpdateResult(outs=self._outs(news, uuid.uuid4().hex))
        return UpdateResult(outs=self._outs(news, str(olds.get("token", ""))))

    def delete(self, _id: str, props: dict[str, Any]) -> None:
        self._backward(self.connect(props), props)


def _in_lane(props: dict[str, Any], direction: Direction, step: Callable[[], None]) -> None:
    """``step`` as one lane of the stack's roll-out (``components.ops.lanes``): after a failure elsewhere no
    worker is taken out, and a failing step first waits for the other lanes' current workers."""
    timeouts = Timeouts(**dict(props.get("timeouts") or {}))
    LANES.run(str(props["holder"]).split("/")[0], str(props["node"]), direction, step,
              wait_s=timeouts.drain_s + timeouts.stop_s + timeouts.start_s)


class _OutOfServiceProvider(_WorkerProvider):
    def _forward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "out", lambda: _take_out(ops, props))

    def _backward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "back", lambda: ops.bring_back(_worker(props), missing_ok=True))

    def _drifted(self, ops: NodeOps, props: dict[str, Any]) -> bool:
        return ops.needs_sequence(_worker(props))


class _InServiceProvider(_WorkerProvider):
    def _forward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "back", lambda: ops.bring_back(_worker(props)))

    def _backward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "out", lambda: _take_out(ops, props, missing_ok=True))

    def _drifted(self, ops: NodeOps, props: dict[str, Any]) -> bool:
        return ops.out_of_service(_worker(props))

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        # A new token means the worker was taken out again: it must come back whatever else changed.
        if olds.get("out_of_service_token") != news.get("out_of_service_token"):
            self._forward(self.connect(news), news)
            return UpdateResult(outs=self._outs(news, uuid.uuid4().hex))
        return super().update(_id, olds, news)


class _DynamicStep(pulumi.dynamic.Resource):
    """A dynamic resource whose construction leaves ``pickle`` as it found it.  The SDK's
    ``serialize_provider`` wraps ``pickle._Pickler._batch_setitems`` once more at every call and never
    unwraps it, so a program with hundreds of these (two per adopted worker) nests that many wrappers
    and ends in a RecursionError: under ``pulumi up`` as in the offline preview."""

    def __init__(self, provider: ResourceProvider, name: str, props: dict[str, Any],
                 opts: pulumi.ResourceOptions | None = None) -> None:
        hooks = pickle._Pickler._batch_setitems, pickle._Pickler.save_dict  # type: ignore[attr-defined]
        try:
            super().__init__(provider, name, props, opts)  # serializes the provider, synchronously
        finally:
            pickle._Pickler._batch_setitems, pickle._Pickler.save_dict = hooks  # type: ignore[attr-defined]


class WorkerOutOfService(_DynamicStep, module="gpu-cluster", name="WorkerOutOfService"):
    token: pulumi.Output[str]
    """A new value each time the worker is taken out of service."""

    def __init__(self, name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None = None,
                 provider: ResourceProvider | None = None) -> None:
        super().__init__(provider or _OutOfServiceProvider(), name, {**props, "token": None},
                         _secret_outputs(opts))


class WorkerInService(_DynamicStep, module="gpu-cluster", name="WorkerInService"):
    def __init__(self, name: str, props: dict[str, Any], opts: pulumi.ResourceOptions | None = None,
                 provider: ResourceProvider | None = None) -> None:
        super().__init__(provider or _InServiceProvider(), name, {**props, "token": None}, _secret_outputs(opts))


def _secret_outputs(opts: pulumi.ResourceOptions | None) -> pulumi.ResourceOptions:
    return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(additional_secret_outputs=SECRET_INPUTS))


def selection_problem(previous: Sequence[str], current: Sequence[str], allow_change: bool) -> str | None:
    """Why ``up`` must not go from ``previous`` to ``current`` (None: it may).  Adding workers or
    dropping some is a scale; dropping some *and* adding others is a different selection, which
    would stop new workers and detach running ones: only with ``nodes.allow_worker_change``."""
    dropped = [w for w in previous if w not in current]
    added = [w for w in current if w not in previous]
    if not (dropped and added) or allow_change:
        return None
    return (f"the stack would swap workers: {', '.join(dropped)} (selected by the last pulumi up) for "
            f"{', '.join(added)}.  A MachineSet scale or an MHC replacement changes which instances match; "
            "list the workers in nodes.names, or set nodes.allow_worker_change: true to move the NICs")


def address_problem(previous: dict[str, Sequence[str]], current: dict[str, Sequence[str]]) -> str | None:
    """Why IBM would refuse ``up`` from the addresses ``previous`` to ``current`` (worker → its
    secondary addresses, ``<subnet>/<ip>``), None if it would not.  A new or moved address is
    reserved before the old reservations go (replacements create first, dropped workers' resources
    are deleted last), and IBM refuses an address still reserved on its subnet."""
    held = {address: worker for worker, addresses in previous.items() for address in addresses}
    clashes = [f"{address.split('/', 2)[-1]} for {worker} (still held by {held[address]})"
               for worker, addresses in current.items() for address in addresses
               if address not in previous.get(worker, ()) and held.get(address, worker) != worker]
    if not clashes:
        return None
    return (f"IBM would refuse to reserve {'; '.join(sorted(clashes))}: an address is reserved for its new worker "
            "before the old reservation is deleted.  Run pulumi up once with the old holder still selected (or "
            "without the new worker), then again with the change")


def _previous_addresses(olds: dict[str, Any], news: dict[str, Any]) -> dict[str, Sequence[str]]:
    """The addresses the last ``up`` planned.  A state from before they were recorded planned them by list
    position (worker *i*: host ``4 + i`` of every subnet), which the check needs to see for the one run
    that moves them to name-keyed hosts."""
    if olds.get("addresses") is not None or not olds.get("workers"):
        return dict(olds.get("addresses") or {})
    subnets = sorted({a.rsplit("/", 1)[0] for addresses in (news.get("addresses") or {}).values() for a in addresses})
    return {str(worker): [f"{s}/{ipaddress.ip_network(s).network_address + 4 + i}" for s in subnets]
            for i, worker in enumerate(olds["workers"])}


class _SelectionProvider(ResourceProvider):
    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        failures = []
        if olds.get("workers") is not None:
            problem = selection_problem(list(olds["workers"]), list(news.get("workers") or []),
                                        bool(news.get("allow_change")))
            if problem:
                failures.append(CheckFailure("workers", problem))
        clash = address_problem(_previous_addresses(olds, news), dict(news.get("addresses") or {}))
        if clash:
            failures.append(CheckFailure("addresses", clash))
        return CheckResult(news, failures)

    def create(self, props: dict[str, Any]) -> CreateResult:
        return CreateResult(id_="selection", outs=props)

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        return DiffResult(changes=any(olds.get(k) != news.get(k) for k in ("workers", "addresses")))

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        return UpdateResult(outs=news)


class WorkerSelection(_DynamicStep, module="gpu-cluster", name="WorkerSelection"):
    """The adopted workers and their planned secondary addresses, kept in the stack's state; every
    disruptive step depends on it."""

    def __init__(self, name: str, workers: Sequence[str], allow_change: bool,
                 opts: pulumi.ResourceOptions | None = None,
                 addresses: dict[str, Sequence[str]] | None = None) -> None:
        super().__init__(_SelectionProvider(), name, {"workers": list(workers), "allow_change": allow_change,
                                                      "addresses": {w: list(a) for w, a in (addresses or {}).items()}},
                         opts)
