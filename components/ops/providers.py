"""The Pulumi dynamic resources that run the node operations inside ``pulumi up`` and ``destroy``,
so that the plain CLI is as safe as ``python -m experiments``.

Per adopted worker with cluster NICs, the stack declares

``WorkerOutOfService``  create/update: pause MHCs, cordon, drain, stop   delete: start, Ready, uncordon
   ↓ (the cluster network attachments depend on it, in NIC order)
``WorkerInService``     create/update: start, Ready, uncordon, unpause   delete: pause, cordon, drain, stop

so that ``destroy`` (reverse dependency order) is rolling too; worker *k+m*'s out-of-service waits
for worker *k*'s in-service (``nodes.max_unavailable`` = *m* lanes).  Both diff against reality:
a running worker with planned attachments missing is taken out again, a worker found out of service
is brought back.  ``WorkerSelection`` (``components.ops.selection``) guards the selection and its
addresses.

Secrets (API key, kubeconfig) arrive only as secret inputs and stay secret outputs.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from typing import Any

import pulumi
from pulumi.dynamic import (
    ConfigureRequest,
    CreateResult,
    DiffResult,
    ReadResult,
    ResourceProvider,
    UpdateResult,
)

from components.compat import DynamicResource as _DynamicStep
from components.ops.lanes import LANES, Direction
from components.ops.ports import OperationFailed
from components.ops.rolling import NodeOps, Worker
from components.ops.steps import StepProps

__all__ = ["WorkerInService", "WorkerOutOfService", "connect_from_props"]

SECRET_INPUTS = ["ibm_api_key", "kubeconfig"]
CONFIG_CREDENTIALS = {"ibm_api_key": "ibmcloudApiKey", "kubeconfig": "kubeconfig"}
"""Step input → the stack configuration key (``gpu-cluster:<key>``) it comes from."""
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

    step = StepProps.of(props)
    timeouts = step.timeouts
    policy = CallPolicy(step_deadline=time.time() + timeouts.drain_s + timeouts.stop_s + timeouts.start_s + 600)
    key = step.ibm_api_key or os.environ.get("IC_API_KEY") or os.environ.get("IBMCLOUD_API_KEY") or ""
    return NodeOps(
        instances=IbmInstanceClient(step.region, key, policy=policy),
        cluster=KubeClusterClient.connect(step.kubeconfig, step.kube_context, policy=policy),
        clock=_SystemClock(),
        timeouts=timeouts,
    )


def _take_out(ops: NodeOps, props: dict[str, Any], *, missing_ok: bool = False) -> None:
    """The one way a worker is stopped, and only with the stack's consent (checked again here, at the step)."""
    step = StepProps.of(props)
    if not step.consented:
        raise OperationFailed(
            f"worker {step.node}: not stopped, because the stack does not set "
            "nodes.allow_instance_stop: true (a stop wipes a gx3d's NVMe instance storage)"
        )
    ops.take_out(step.worker(), missing_ok=missing_ok)


def _worker(props: dict[str, Any]) -> Worker:
    return StepProps.of(props).worker()


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

    def _observed(self, ops: NodeOps, props: dict[str, Any]) -> str:
        raise NotImplementedError

    def _outs(self, props: dict[str, Any], token: str) -> dict[str, Any]:
        return {**props, "token": token}

    def configure(self, req: ConfigureRequest) -> None:
        """The stack's configuration as it is now (pulumi/pulumi#17673: the host configures each provider it
        deserializes): its credentials win over those recorded at create time, so that a ``destroy`` after a
        key rotation or a new kubeconfig uses the new ones."""
        self.current = {prop: req.config.get(key) for prop, key in CONFIG_CREDENTIALS.items()}

    def _reach(self, props: dict[str, Any]) -> NodeOps:
        current = {k: v for k, v in (getattr(self, "current", None) or {}).items() if v}
        return self.connect({**props, **current})

    def read(self, id_: str, props: dict[str, Any]) -> ReadResult:
        """What ``refresh`` records: the step as reality has it.  A vanished instance takes the step out of the
        state (an empty id), as the refresh takes its attachments; otherwise ``observed`` says where it is."""
        ops = self._reach(props)
        if ops.instances.get(_worker(props).instance_id) is None:
            return ReadResult(id_="", outs={})
        return ReadResult(id_=id_, outs={**props, "observed": self._observed(ops, props)})

    def create(self, props: dict[str, Any]) -> CreateResult:
        self._forward(self._reach(props), props)
        return CreateResult(id_=StepProps.of(props).holder, outs=self._outs(props, uuid.uuid4().hex))

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        changed = [k for k in news if not k.startswith("__") and k != "token" and olds.get(k) != news.get(k)]
        if not changed and self._drifted(self._reach(news), news):
            changed = ["instance_id"]  # reality differs from the state: run the step again
        return DiffResult(changes=bool(changed), replaces=[], delete_before_replace=True)

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        ops = self._reach(news)
        if _plan_changed(olds, news) or self._drifted(ops, news):
            self._forward(ops, news)
            return UpdateResult(outs=self._outs(news, uuid.uuid4().hex))
        return UpdateResult(outs=self._outs(news, str(olds.get("token", ""))))

    def delete(self, _id: str, props: dict[str, Any]) -> None:
        self._backward(self._reach(props), props)


def _in_lane(props: dict[str, Any], direction: Direction, step: Callable[[], None]) -> None:
    """``step`` as one lane of the stack's roll-out (``components.ops.lanes``): after a failure elsewhere no
    worker is taken out, and a failing step first waits for the other lanes' current workers."""
    inputs = StepProps.of(props)
    timeouts = inputs.timeouts
    LANES.run(inputs.stack, inputs.node, direction, step, wait_s=timeouts.drain_s + timeouts.stop_s + timeouts.start_s)


class _OutOfServiceProvider(_WorkerProvider):
    def _forward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "out", lambda: _take_out(ops, props))

    def _backward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "back", lambda: ops.bring_back(_worker(props), missing_ok=True))

    def _drifted(self, ops: NodeOps, props: dict[str, Any]) -> bool:
        return ops.needs_sequence(_worker(props))

    def _observed(self, ops: NodeOps, props: dict[str, Any]) -> str:
        return "planned attachments missing" if ops.needs_sequence(_worker(props)) else "attached or stopped"


class _InServiceProvider(_WorkerProvider):
    def _forward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "back", lambda: ops.bring_back(_worker(props)))

    def _backward(self, ops: NodeOps, props: dict[str, Any]) -> None:
        _in_lane(props, "out", lambda: _take_out(ops, props, missing_ok=True))

    def _drifted(self, ops: NodeOps, props: dict[str, Any]) -> bool:
        return ops.out_of_service(_worker(props))

    def _observed(self, ops: NodeOps, props: dict[str, Any]) -> str:
        return "out of service" if ops.out_of_service(_worker(props)) else "in service"

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        # A new token means the worker was taken out again: it must come back whatever else changed.
        if olds.get("out_of_service_token") != news.get("out_of_service_token"):
            self._forward(self._reach(news), news)
            return UpdateResult(outs=self._outs(news, uuid.uuid4().hex))
        return super().update(_id, olds, news)


class _WorkerStep(_DynamicStep):
    """A rolling step: its props, a ``token`` output, its credentials kept secret in the state."""

    default_provider: type[ResourceProvider]

    def __init__(
        self,
        name: str,
        props: dict[str, Any],
        opts: pulumi.ResourceOptions | None = None,
        provider: ResourceProvider | None = None,
    ) -> None:
        super().__init__(provider or self.default_provider(), name, {**props, "token": None}, _secret_outputs(opts))


class WorkerOutOfService(_WorkerStep, module="gpu-cluster", name="WorkerOutOfService"):
    token: pulumi.Output[str]
    """A new value each time the worker is taken out of service."""

    default_provider = _OutOfServiceProvider


class WorkerInService(_WorkerStep, module="gpu-cluster", name="WorkerInService"):
    default_provider = _InServiceProvider


def _secret_outputs(opts: pulumi.ResourceOptions | None) -> pulumi.ResourceOptions:
    return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(additional_secret_outputs=SECRET_INPUTS))
