"""A small stand-in for the Pulumi engine's deployment of the recorded resources: each resource runs
once all the resources it depends on are done (``up``), or once all that depend on it are gone
(``destroy``), with as many in flight as are ready (threads).  Like the engine it stops launching
steps at the first failure and lets the running ones finish, and keeps a state of what succeeded.

The dynamic resources run their real providers (``components.ops.providers``) with the stand-in
clients; the cluster network attachments act on the IBM stand-in; everything else just exists."""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable
from typing import Any

from components.ops.lanes import LANES
from components.ops.providers import _InServiceProvider, _OutOfServiceProvider
from components.ops.rolling import NodeOps
from components.ops.selection import _SelectionProvider
from experiments.offline.engine import RecordedResource

from .standins import World

OUT, IN = "WorkerOutOfService", "WorkerInService"
ATTACHMENT = "IsInstanceClusterNetworkAttachment"


def kind(resource: RecordedResource) -> str:
    return resource.type.rsplit(":", 1)[-1]


class SimEngine:
    def __init__(self, world: World, connect: Callable[[dict[str, Any]], NodeOps] | None = None) -> None:
        """``connect``: how the providers reach IBM and the cluster (default: the stand-ins directly)."""
        self.world = world
        self.state: dict[str, dict[str, Any]] = {}
        """URN → (inputs, outputs) of what the last deployments created."""
        self.errors: list[str] = []
        """Every step's failure, in the order they ended (the engine reports them all)."""
        connect = connect or (lambda _: world.ops())
        self.providers = {OUT: _OutOfServiceProvider(connect), IN: _InServiceProvider(connect)}

    def refresh(self) -> None:
        """``options.refresh: always``: an attachment IBM no longer has (or whose instance is gone) leaves the state."""
        for urn, entry in list(self.state.items()):
            if entry["kind"] == ATTACHMENT and not self.world.attached(
                entry["inputs"]["instanceId"], entry["inputs"]["name"]
            ):
                del self.state[urn]

    def up(self, records: list[RecordedResource]) -> None:
        LANES.reset()  # each deployment has a provider host of its own
        self.refresh()
        custom = {r.urn: r for r in records if r.custom}
        selection = next((r for r in custom.values() if kind(r) == "WorkerSelection"), None)
        old_selection = next((e for e in self.state.values() if e["kind"] == "WorkerSelection"), None)
        if selection is not None and old_selection is not None:
            result = _SelectionProvider().check(old_selection["inputs"], _props(selection))
            if result.failures:
                raise RuntimeError(result.failures[0].reason)
        deps = {u: {d for d in r.dependencies if d in custom} for u, r in custom.items()}
        self._run(custom, deps, self._apply)
        self._delete_all([u for u in self.state if u not in custom])  # dropped from the program: deleted last

    def destroy(self) -> None:
        LANES.reset()
        self.refresh()
        self._delete_all(list(self.state))

    def _delete_all(self, urns: list[str]) -> None:
        """In reverse dependency order: a resource goes once everything that depends on it is gone."""
        entries = {u: self.state[u] for u in urns}
        dependents = {u: {v for v, e in entries.items() if u in e["deps"]} for u in entries}
        self._run(entries, dependents, lambda urn, _: self._delete(urn))

    def _run(self, items: dict[str, Any], waits_for: dict[str, set[str]], step: Callable[[str, Any], None]) -> None:
        done: set[str] = set()
        failure: BaseException | None = None
        with cf.ThreadPoolExecutor(max_workers=32) as pool:
            running: dict[cf.Future[None], str] = {}
            while True:
                if failure is None:
                    started = set(running.values())
                    for urn in items:
                        if urn not in done and urn not in started and waits_for[urn] <= done:
                            running[pool.submit(step, urn, items[urn])] = urn
                if not running:
                    break
                finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    urn = running.pop(future)
                    if future.exception() is not None:
                        failure = failure or future.exception()
                        self.errors.append(str(future.exception()))
                    else:
                        done.add(urn)
        if failure is not None:
            raise failure
        if len(done) < len(items):
            raise RuntimeError("dependency cycle")

    def _apply(self, urn: str, record: RecordedResource) -> None:
        props = _props(record)
        old = self.state.get(urn)
        if kind(record) == IN:
            out_urn = next(d for d in record.dependencies if d.endswith("-out-of-service"))
            props["out_of_service_token"] = self.state[out_urn]["outputs"]["token"]
        if kind(record) in (OUT, IN):
            provider = self.providers[kind(record)]
            if old is None:
                outputs = provider.create(props).outs
            else:
                diff = provider.diff(urn, old["outputs"], props)
                outputs = provider.update(urn, old["outputs"], props).outs if diff.changes else old["outputs"]
        else:
            if kind(record) == "WorkerSelection" and old is not None and old["inputs"] != props:
                _SelectionProvider().update(urn, old["inputs"], props)  # refuses an unconsented roll-out
            if kind(record) == ATTACHMENT:
                if old is not None and old["inputs"] != props:  # replace_on_changes, delete before replace
                    self.world.detach(old["inputs"]["instanceId"], old["inputs"]["name"])
                    old = None
                if old is None:
                    self.world.attach(props["instanceId"], props["name"])
            outputs = props
        self.state[urn] = {
            "kind": kind(record),
            "inputs": props,
            "outputs": outputs or {},
            "deps": {d for d in record.dependencies},
        }

    def _delete(self, urn: str) -> None:
        entry = self.state[urn]
        if entry["kind"] in (OUT, IN):
            self.providers[entry["kind"]].delete(urn, entry["outputs"])
        elif entry["kind"] == ATTACHMENT:
            self.world.detach(entry["inputs"]["instanceId"], entry["inputs"]["name"])
        del self.state[urn]


def _props(record: RecordedResource) -> dict[str, Any]:
    return {k: v for k, v in record.inputs.items() if k != "__provider"}
