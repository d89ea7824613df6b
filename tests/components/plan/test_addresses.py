"""The address plan against IBM's rule for reserved IPs: an address still reserved on a subnet is
refused.  ``up`` creates a worker's new or moved reservations (replacements create first) before it
deletes the old ones and those of dropped workers (deleted last), so every address a run reserves
must be free of every reservation the previous run left."""

from __future__ import annotations

from typing import Any

import pytest

from components.checks.validation import ConfigurationError, parse_cluster
from components.ops.selection import _SelectionProvider, address_problem, keeping_pins
from components.plan.inventory import host_numbers
from experiments.cli.main import main

from ...conftest import cluster_config, offline_addresses

H100 = "gx3d-160x1792x8h100"
WORKERS = [f"gpu-3-{suffix}" for suffix in ("l6gzb", "q2xkd", "b7mnp", "zz41c", "k0tfa")]


def addresses(names: list[str], variant: str = "sriov", hosts: dict[str, int] | None = None) -> dict[str, list[str]]:
    """Worker → its secondary addresses (``<subnet>/<ip>``) as the stack plans them (``hosts``: ``nodes.hosts``)."""
    raw = cluster_config(
        **{
            "nodes.profile": H100,
            "nodes.count": len(names),
            "nodes.names": names,
            "network.variant": variant,
            "network.nics_per_node": 1,
            **({"nodes.hosts": hosts} if hosts is not None else {}),
        }
    )
    plan = offline_addresses(parse_cluster(raw))
    return {node: [f"{n.subnet_cidr}/{n.ip}" for n in plan.nics_of(node) if n.role != "primary"] for node in names}


class Subnets:
    """IBM's cluster network subnets: one reservation per address."""

    def __init__(self, held: dict[str, list[str]]) -> None:
        self.holder: dict[str, str] = {}
        for worker, reserved in held.items():
            for address in reserved:
                self.reserve(address, worker)

    def reserve(self, address: str, worker: str) -> None:
        if address in self.holder:
            raise AssertionError(f"IBM refuses {address} for {worker}: still reserved by {self.holder[address]}")
        self.holder[address] = worker

    def up(self, before: dict[str, list[str]], after: dict[str, list[str]]) -> None:
        """Creates and create-first replacements, then the deletes."""
        for worker, reserved in after.items():
            for address in reserved:
                if address not in before.get(worker, ()):
                    self.reserve(address, worker)
        for worker, reserved in before.items():
            for address in reserved:
                if address not in after.get(worker, ()):
                    del self.holder[address]


@pytest.mark.parametrize(
    ("change", "before", "after"),
    [
        ("drop a middle worker", WORKERS[:4], [WORKERS[0], WORKERS[2], WORKERS[3]]),
        ("reorder", WORKERS[:4], list(reversed(WORKERS[:4]))),
        ("add one that sorts first", WORKERS[1:4], [WORKERS[4], *WORKERS[1:4]]),
        ("add at the end", WORKERS[:3], WORKERS[:4]),
        ("replace one (an MHC remediation)", WORKERS[:3], [WORKERS[0], WORKERS[4], WORKERS[2]]),
    ],
)
def test_no_run_reserves_an_address_still_reserved(change: str, before: list[str], after: list[str]) -> None:
    old, new = addresses(before), addresses(after)
    Subnets(old).up(old, new)
    for worker in set(before) & set(after):
        assert new[worker] == old[worker], f"{change}: {worker}'s addresses moved"
    assert address_problem(old, new) is None


@pytest.mark.parametrize("variant", ["sriov", "vnic"])
def test_every_address_is_distinct_and_below_the_temporary_range(variant: str) -> None:
    planned = addresses(WORKERS, variant)
    flat = [a for reserved in planned.values() for a in reserved]
    assert len(flat) == len(set(flat)) and flat
    for address in flat:
        assert 4 <= int(address.rsplit(".", 1)[1]) < 128  # /24: whereabouts' temporary range is the top half


def test_host_numbers_fill_a_subnet_and_depend_on_the_set_not_its_order() -> None:
    names = [f"w{i}" for i in range(251)]  # a /24 holds 256 - 5 reserved
    numbers = host_numbers(names, 24)
    assert sorted(numbers.values()) == list(range(251))
    assert host_numbers(list(reversed(names)), 24) == numbers
    with pytest.raises(ValueError, match="252 nodes do not fit the 251 addresses of a /24"):
        host_numbers([*names, "one-more"], 24)


def test_a_run_that_would_reserve_a_held_address_is_refused_at_the_selection() -> None:
    olds = {"workers": ["a", "b"], "addresses": {"a": ["10.0.0.0/24/10.0.0.7"], "b": ["10.0.0.0/24/10.0.0.9"]}}
    news: dict[str, Any] = {
        "workers": ["a", "c"],
        "allow_change": True,
        "addresses": {"a": ["10.0.0.0/24/10.0.0.7"], "c": ["10.0.0.0/24/10.0.0.9"]},
    }
    (failure,) = _SelectionProvider().check(olds, news).failures
    assert failure.property == "addresses"
    assert failure.reason.startswith("IBM would refuse to reserve 10.0.0.9 for c (still held by b)")
    news["addresses"]["c"] = ["10.0.0.0/24/10.0.0.11"]
    assert _SelectionProvider().check(olds, news).failures == []


def test_the_run_that_leaves_list_positions_is_checked_against_them() -> None:
    """A state from before addresses were recorded: worker *i* held host ``4 + i``."""
    olds = {"workers": ["a", "b"], "allow_change": False}
    news = {
        "workers": ["a", "b"],
        "allow_change": False,
        "addresses": {"a": ["10.0.0.0/24/10.0.0.5"], "b": ["10.0.0.0/24/10.0.0.77"]},
    }
    (failure,) = _SelectionProvider().check(olds, news).failures
    assert failure.reason.startswith("IBM would refuse to reserve 10.0.0.5 for a (still held by b)")
    news["addresses"]["a"] = ["10.0.0.0/24/10.0.0.4"]
    assert _SelectionProvider().check(olds, news).failures == []


MET = ["gpu-3-w0000", "gpu-3-w0063", "gpu-3-w0280"]
"""Three names that hash to the same host number of a /24 (they take it, and the next ones, in name order)."""


@pytest.mark.parametrize(
    ("change", "before", "after"),
    [
        ("drop the first of two that met", MET[:2], MET[1:2]),
        ("add one that meets them and sorts first", MET[1:], MET),
        ("replace one that met (an MHC remediation)", [MET[0], MET[2]], MET[1:]),
        ("reorder", MET, list(reversed(MET))),
    ],
)
def test_where_an_address_must_move_the_refusal_names_the_one_line_that_keeps_them(
    change: str, before: list[str], after: list[str]
) -> None:
    """Pulumi cannot order the old reservation's delete before the new one's create (the dropped holder is
    deleted after every create; a delete-first replacement would detach a running worker's cluster NIC), so
    the run is refused, and the nodes.hosts it names makes the next run one IBM accepts, nothing moved."""
    old, new = addresses(before), addresses(after)
    assert MET[0] < MET[1] < MET[2] and len({host_numbers([n], 24)[n] for n in MET}) == 1
    problem = address_problem(old, new)
    if change == "reorder":
        assert problem is None and new == old
        return
    assert problem is not None
    with pytest.raises(AssertionError, match="IBM refuses"):
        Subnets(old).up(old, new)  # what the refusal spares the stack
    pins = keeping_pins(old, new, {})
    assert f"set nodes.hosts: {{{', '.join(f'{w}: {h}' for w, h in pins.items())}}}" in problem
    assert "Pulumi cannot order that delete first" in problem
    fixed = addresses(after, hosts=pins)
    Subnets(old).up(old, fixed)
    assert address_problem(old, fixed, pins) is None
    for worker in set(before) & set(after):
        assert fixed[worker] == old[worker], f"{change}: {worker}'s addresses moved"
    # The pins hold for later runs too: dropping or adding another worker moves none of these.
    later = addresses([*after, WORKERS[0]], hosts=pins)
    Subnets(fixed).up(fixed, later)
    assert all(later[w] == fixed[w] for w in after)


def test_pins_of_workers_not_selected_are_ignored_and_bad_pins_refused() -> None:
    assert host_numbers(["a", "b"], 24, {"c": 3, "a": 100}) == {"a": 100, "b": host_numbers(["b"], 24)["b"]}
    raw = cluster_config(**{"nodes.profile": H100, "nodes.count": 2, "nodes.names": WORKERS[:2]})
    for hosts, message in (
        (
            {WORKERS[0]: 251},
            r"nodes\.hosts\.gpu-3-l6gzb: host 251 is past a /24 subnet's last host number for nodes, 250",
        ),
        ({WORKERS[0]: 7, WORKERS[1]: 7}, "two workers pinned to one host number"),
        ({WORKERS[0]: -1}, "greater than or equal to 0"),
    ):
        with pytest.raises(ConfigurationError, match=message):
            parse_cluster({**raw, "nodes": {**raw["nodes"], "hosts": hosts}})


def test_with_the_workers_listed_a_pin_for_a_name_outside_the_list_is_refused(write_stack, capsys, tmp_path) -> None:
    """A typo in a ``nodes.hosts`` key pins nothing: ignored, the address it was meant to keep would move."""
    raw = cluster_config(**{"nodes.profile": H100, "nodes.count": 2, "nodes.names": WORKERS[:2]})
    typo, stranger = "gpu-3-l6gzc", "spare-worker"
    with pytest.raises(ConfigurationError) as raised:
        parse_cluster({**raw, "nodes": {**raw["nodes"], "hosts": {typo: 7, stranger: 9, WORKERS[1]: 8}}})
    assert raised.value.lines == [
        "gpu-cluster:cluster.nodes.hosts.gpu-3-l6gzc: pins a worker that is not in nodes.names; "
        "did you mean gpu-3-l6gzb?",
        "gpu-cluster:cluster.nodes.hosts.spare-worker: pins a worker that is not in nodes.names; "
        "remove the pin or add the worker to nodes.names",
    ]
    path = write_stack("typo", {**raw, "nodes": {**raw["nodes"], "hosts": {typo: 7}}})
    assert main(["preview", str(path), "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        f"error: {path}: gpu-cluster:cluster.nodes.hosts.gpu-3-l6gzc: pins a worker that is not in nodes.names; "
        "did you mean gpu-3-l6gzb?"
    ]
    assert not (tmp_path / "out").exists()
    # Listed workers' pins, and pins under a machineset (whose selection changes by itself), stay accepted.
    parse_cluster({**raw, "nodes": {**raw["nodes"], "hosts": {WORKERS[0]: 7}}})
    by_set = {k: v for k, v in raw["nodes"].items() if k != "names"}
    parse_cluster({**raw, "nodes": {**by_set, "machineset": "gpu-3", "hosts": {typo: 7}}})


def test_the_selection_check_offers_the_pins_on_top_of_the_stack_s_own() -> None:
    """What ``pulumi preview`` shows: the check of the selection step, with the stack's nodes.hosts as the wire
    carries them (numbers as doubles)."""
    before, after = MET[:2], MET[1:2]
    stay = {WORKERS[0]: 200}
    olds = {"workers": [*before, WORKERS[0]], "addresses": addresses([*before, WORKERS[0]], hosts=stay)}
    news = {
        "workers": [*after, WORKERS[0]],
        "allow_change": False,
        "hosts": {WORKERS[0]: 200.0},
        "addresses": addresses([*after, WORKERS[0]], hosts=stay),
    }
    (failure,) = _SelectionProvider().check(olds, news).failures
    pins = keeping_pins(olds["addresses"], news["addresses"], stay)
    assert pins[WORKERS[0]] == 200 and pins[MET[1]] == host_numbers(before, 24)[MET[1]]
    assert failure.property == "addresses"
    assert f"set nodes.hosts: {{{', '.join(f'{w}: {h}' for w, h in pins.items())}}}" in failure.reason
    news["addresses"] = addresses([*after, WORKERS[0]], hosts=pins)
    news["hosts"] = {w: float(h) for w, h in pins.items()}
    assert _SelectionProvider().check(olds, news).failures == []


def test_no_fix_is_offered_for_addresses_the_plan_would_not_make() -> None:
    olds = {"workers": ["a", "b"], "addresses": {"a": ["10.0.0.0/24/10.0.0.7"], "b": ["10.0.0.0/24/10.0.0.9"]}}
    news = {
        "workers": ["a", "c"],
        "allow_change": True,
        "addresses": {"a": ["10.0.0.0/24/10.0.0.7"], "c": ["10.0.0.0/24/10.0.0.9"]},
    }
    (failure,) = _SelectionProvider().check(olds, news).failures
    assert (
        "nodes.hosts" not in failure.reason
        and "run pulumi up once with the old holder still selected" in failure.reason
    )
