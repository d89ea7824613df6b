"""``WorkerSelection``: the adopted workers and their planned secondary addresses, kept in the stack's state.
Its ``check`` (the engine hands it the previous selection) refuses an ``up`` that swaps the workers a MachineSet
selection picked, and one that would ask IBM for an address another worker still holds; its ``update`` (``up``
only) refuses a roll-out after the first that ``nodes.allow_instance_stop`` does not name."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
from pulumi.dynamic import CheckFailure, CheckResult, CreateResult, DiffResult, ResourceProvider, UpdateResult

from components.compat import DynamicResource as _DynamicStep
from components.models.config import IBM_RESERVED_LOW_ADDRESSES
from components.ops.ports import OperationFailed
from components.plan.inventory import host_numbers, host_slots

__all__ = ["WorkerSelection", "address_problem", "consent_problem", "keeping_pins", "selection_problem"]


def selection_problem(previous: Sequence[str], current: Sequence[str], allow_change: bool) -> str | None:
    """Why ``up`` must not go from ``previous`` to ``current`` (None: it may).  Adding workers or
    dropping some is a scale; dropping some *and* adding others is a different selection, which
    would stop new workers and detach running ones: only with ``nodes.allow_worker_change``."""
    dropped = [w for w in previous if w not in current]
    added = [w for w in current if w not in previous]
    if not (dropped and added) or allow_change:
        return None
    return (
        f"the stack would swap workers: {', '.join(dropped)} (selected by the last pulumi up) for "
        f"{', '.join(added)}.  A MachineSet scale or an MHC replacement changes which instances match; "
        "list the workers in nodes.names, or set nodes.allow_worker_change: true to move the NICs"
    )


def address_problem(
    previous: dict[str, Sequence[str]], current: dict[str, Sequence[str]], pinned: Mapping[str, int] | None = None
) -> str | None:
    """Why IBM would refuse ``up`` from the addresses ``previous`` to ``current`` (worker → its
    secondary addresses, ``<subnet>/<ip>``), None if it would not.  A new or moved address is
    reserved before the old reservations go (replacements create first, dropped workers' resources
    are deleted last), and IBM refuses an address still reserved on its subnet.  The refusal names
    the ``nodes.hosts`` line that keeps every address in place (``pinned``: the stack's own pins)."""
    held = {address: worker for worker, addresses in previous.items() for address in addresses}
    clashes = [
        f"{address.split('/', 2)[-1]} for {worker} (still held by {held[address]})"
        for worker, addresses in current.items()
        for address in addresses
        if address not in previous.get(worker, ()) and held.get(address, worker) != worker
    ]
    if not clashes:
        return None
    pins = keeping_pins(previous, current, dict(pinned or {}))
    fix = (
        f"keep every address where it is: set nodes.hosts: {{{', '.join(f'{w}: {h}' for w, h in pins.items())}}} "
        "(one line in the stack's config; the workers keep these host numbers from then on), then pulumi up"
        if pins
        else "run pulumi up once with the old holder still selected (or without the new worker), then again"
    )
    return (
        f"IBM would refuse to reserve {'; '.join(sorted(clashes))}: an address is reserved for its new worker "
        "before the old reservation is deleted, and Pulumi cannot order that delete first (a dropped worker's "
        "reservations are deleted after every create, and deleting a replaced one first would take the cluster "
        f"NIC off a worker that is still running).  To {fix}"
    )


def _hosts(addresses: dict[str, Sequence[str]]) -> tuple[dict[str, int], int]:
    """Per worker its host number (past IBM's reserved addresses; the same in every subnet), and the subnets'
    prefix length."""
    hosts, prefix = {}, 24
    for worker, planned in addresses.items():
        if planned:
            subnet, ip = planned[0].rsplit("/", 1)[0], planned[0].rsplit("/", 1)[1]
            network = ipaddress.ip_network(subnet)
            hosts[worker] = int(ipaddress.ip_address(ip)) - int(network.network_address) - IBM_RESERVED_LOW_ADDRESSES
            prefix = network.prefixlen
    return hosts, prefix


def keeping_pins(
    previous: dict[str, Sequence[str]], current: dict[str, Sequence[str]], pinned: dict[str, int]
) -> dict[str, int]:
    """The ``nodes.hosts`` under which no worker asks for an address another one holds: each worker that would
    move keeps its host, each new worker that would take a held one gets the first host nobody holds; then
    again, since a pin can move the workers that hash around it.  Empty where the previous run's addresses
    are not one host number per worker (or no such pins exist)."""
    before, prefix = _hosts(previous)
    wanted, _ = _hosts(current)
    lower, usable = host_slots(prefix)
    holder = {host: worker for worker, host in before.items()}
    pins = {worker: host for worker, host in pinned.items() if worker in wanted}
    if host_numbers(list(wanted), prefix, pins) != wanted:
        return {}  # not what the plan makes of these names and pins: no fix to offer from here
    for _round in range(len(wanted) + 1):
        plan = host_numbers(list(wanted), prefix, pins)
        moving = sorted(w for w, h in plan.items() if before.get(w) != h and holder.get(h, w) != w)
        if not moving:
            return dict(sorted(pins.items()))
        for worker in moving:
            busy = set(holder) | set(plan.values()) | set(pins.values())
            free = next((h for h in [*range(lower), *range(lower, usable)] if h not in busy), None)
            keep = before.get(worker, free)
            if keep is None or keep in {h for w, h in pins.items() if w != worker}:
                return {}
            pins[worker] = keep
    return {}


def _previous_addresses(olds: dict[str, Any], news: dict[str, Any]) -> dict[str, Sequence[str]]:
    """The addresses the last ``up`` planned.  A state from before they were recorded planned them by list
    position (worker *i*: host ``4 + i`` of every subnet), which the check needs to see for the one run
    that moves them to name-keyed hosts."""
    if olds.get("addresses") is not None or not olds.get("workers"):
        return dict(olds.get("addresses") or {})
    subnets = sorted({a.rsplit("/", 1)[0] for addresses in (news.get("addresses") or {}).values() for a in addresses})
    return {
        str(worker): [f"{s}/{ipaddress.ip_network(s).network_address + 4 + i}" for s in subnets]
        for i, worker in enumerate(olds["workers"])
    }


def consent_problem(olds: dict[str, Any], news: dict[str, Any]) -> str | None:
    """Why this ``up`` may not stop workers: it is a roll-out after the stack's first (another id than the last
    one recorded), and ``nodes.allow_instance_stop`` does not name it."""
    rollout = news.get("rollout") or ""
    if not rollout or rollout == olds.get("rollout") or news.get("consent") == rollout:
        return None
    return (
        f"this pulumi up is a new roll-out ({rollout}: the cluster NIC plan or the workers changed since "
        f"{olds.get('rollout') or 'the last roll-out'}), and it stops workers again; nodes.allow_instance_stop "
        f"consents to one roll-out at a time.  Read the preview's list of workers to be stopped, then set "
        f"nodes.allow_instance_stop: {rollout} and run pulumi up again"
    )


class _SelectionProvider(ResourceProvider):
    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        failures = []
        if olds.get("workers") is not None:
            problem = selection_problem(
                list(olds["workers"]), list(news.get("workers") or []), bool(news.get("allow_change"))
            )
            if problem:
                failures.append(CheckFailure("workers", problem))
        pinned = {str(w): int(h) for w, h in (news.get("hosts") or {}).items()}
        clash = address_problem(_previous_addresses(olds, news), dict(news.get("addresses") or {}), pinned)
        if clash:
            failures.append(CheckFailure("addresses", clash))
        return CheckResult(news, failures)

    def create(self, props: dict[str, Any]) -> CreateResult:
        return CreateResult(id_="selection", outs=props)  # the stack's first roll-out: ``true`` consents to it

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        return DiffResult(
            changes=any(olds.get(k) != news.get(k) for k in ("workers", "addresses", "rollout", "consent"))
        )

    def update(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        """Runs in ``up`` (never in a preview), before any step that touches a worker: they all wait for it."""
        problem = consent_problem(olds, news)
        if problem:
            raise OperationFailed(problem)
        return UpdateResult(outs=news)


class WorkerSelection(_DynamicStep, module="gpu-cluster", name="WorkerSelection"):
    """The adopted workers and their planned secondary addresses, kept in the stack's state; every
    disruptive step depends on it."""

    def __init__(
        self,
        name: str,
        workers: Sequence[str],
        allow_change: bool,
        opts: pulumi.ResourceOptions | None = None,
        addresses: dict[str, Sequence[str]] | None = None,
        consent: bool | str = False,
        rollout: str = "",
        hosts: dict[str, int] | None = None,
    ) -> None:
        super().__init__(
            _SelectionProvider(),
            name,
            {
                "workers": list(workers),
                "allow_change": allow_change,
                "consent": consent,
                "rollout": rollout,
                "addresses": {w: list(a) for w, a in (addresses or {}).items()},
                "hosts": dict(hosts or {}),  # the stack's nodes.hosts, which the refusal's fix adds to
            },
            opts,
        )
