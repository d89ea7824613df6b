"""Existing nodes (``layers: kubernetes``): the inventory becomes the same AddressPlan, and every
inconsistency with the rest of the config is reported at the inventory field."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from components.checks.validation import address_plan_and_errors
from components.models.config import ClusterConfig
from components.plan.existing import plan_from_existing

from ...conftest import cluster_config, offline_addresses, offline_inventory, standalone_config
from .test_fabric_crosscheck import unchecked


def vnic_node(name: str, host: int, **nic_changes: Any) -> dict[str, Any]:
    nics = [{"index": 0, "role": "primary", "subnet": "10.241.0.0/24", "ip": f"10.241.0.{host}"}]
    nics += [
        {
            "index": k,
            "role": "vnic",
            "subnet": f"10.241.{k}.0/24",
            "ip": f"10.241.{k}.{host}",
            "guest_interface": f"ens{12 + k}",
        }
        for k in (1, 2)
    ]
    for dotted, value in nic_changes.items():
        index, field = dotted.split(".")
        nics[int(index)][field] = value
    return {"name": name, "nics": nics}


def existing(nodes: list[dict[str, Any]] | None = None, **changes: Any) -> ClusterConfig:
    nodes = nodes if nodes is not None else [vnic_node("worker-0", 10), vnic_node("worker-1", 11)]
    return unchecked(**{"layers": "kubernetes", "kubernetes.nodes": nodes, **changes})


def problems(cfg: ClusterConfig) -> list[tuple[str, str]]:
    _, found = address_plan_and_errors(cfg, offline_inventory(cfg))
    return [(".".join(map(str, e["loc"])), e["type"].message()) for e in found]  # type: ignore[union-attr]


def test_a_consistent_inventory_passes() -> None:
    assert problems(existing()) == []
    nodes = [vnic_node("worker-0", 10), vnic_node("worker-1", 11)]
    ClusterConfig.model_validate(cluster_config(**{"layers": "kubernetes", "kubernetes.nodes": nodes}))


def test_the_plan_of_existing_nodes_has_the_cloud_plans_shape() -> None:
    plan = plan_from_existing(existing())
    assert plan.nodes == ("worker-0", "worker-1")
    assert plan.management_subnet == "10.241.0.0/24"
    assert plan.vnic_subnets == ("10.241.1.0/24", "10.241.2.0/24") and plan.cluster_subnets == ()
    assert [(n.node, n.index, n.role, n.ip, n.used_by_job) for n in plan.nics_of("worker-1")] == [
        ("worker-1", 0, "primary", "10.241.0.11", False),
        ("worker-1", 1, "vnic", "10.241.1.11", True),
        ("worker-1", 2, "vnic", "10.241.2.11", True),
    ]
    planned = offline_addresses(ClusterConfig.model_validate(standalone_config()))
    assert type(plan) is type(planned)
    assert [(n.index, n.role, n.subnet_cidr) for n in plan.nics_of("worker-0")] == [
        (n.index, n.role, n.subnet_cidr) for n in planned.nics_of(planned.nodes[0])
    ]


def test_nics_beyond_nics_per_node_are_not_used_by_the_job() -> None:
    plan = plan_from_existing(existing(**{"network.nics_per_node": 1, "network.attached_nics": 2}))
    assert [(n.index, n.used_by_job) for n in plan.nics_of("worker-0")] == [(0, False), (1, True), (2, False)]


def test_plan_from_existing_refuses_an_empty_inventory() -> None:
    with pytest.raises(ValueError, match="kubernetes.nodes is empty"):
        plan_from_existing(ClusterConfig.model_validate(cluster_config()))


def test_the_inventory_is_required_with_layers_kubernetes() -> None:
    assert problems(existing(nodes=[])) == [
        ("kubernetes.nodes", "required with layers: kubernetes: list the existing nodes and their NICs")
    ]


@pytest.mark.parametrize("layers", ["both", "cloud"])
def test_the_inventory_is_refused_when_the_cloud_layer_plans_the_nics(layers: str) -> None:
    found = problems(existing(layers=layers))
    assert [f for f, _ in found] == ["kubernetes.nodes"]
    assert "only with layers: kubernetes" in found[0][1]


def test_the_inventory_must_match_the_node_count() -> None:
    found = problems(existing(**{"nodes.count": 3}))
    assert found == [("kubernetes.nodes", "lists 2 nodes but nodes.count is 3")]


def test_node_names_are_unique() -> None:
    found = problems(existing(nodes=[vnic_node("worker-0", 10), vnic_node("worker-0", 11)]))
    assert found == [("kubernetes.nodes.1.name", "node worker-0 is listed twice")]


def test_every_attached_nic_is_listed() -> None:
    short = vnic_node("worker-1", 11)
    short["nics"] = short["nics"][:2]
    found = problems(existing(nodes=[vnic_node("worker-0", 10), short]))
    assert [f for f, _ in found] == ["kubernetes.nodes.1.nics"]
    assert "NIC indices [0, 1, 2]" in found[0][1]


def test_roles_must_match_the_variant() -> None:
    found = problems(existing(nodes=[vnic_node("worker-0", 10, **{"2.role": "cluster"}), vnic_node("worker-1", 11)]))
    assert found == [("kubernetes.nodes.0.nics.2.role", "NIC 2 of worker-0 must have role vnic for the vnic variant")]


@pytest.mark.parametrize(
    ("ip", "fragment"),
    [
        ("10.241.9.10", "is not in its subnet"),
        ("10.241.1.2", "IBM reserves"),
        ("10.241.1.255", "IBM reserves"),
    ],
)
def test_addresses_must_be_usable_in_their_subnet(ip: str, fragment: str) -> None:
    found = problems(existing(nodes=[vnic_node("worker-0", 10, **{"1.ip": ip}), vnic_node("worker-1", 11)]))
    assert [f for f, _ in found] == ["kubernetes.nodes.0.nics.1.ip"]
    assert fragment in found[0][1]


def test_a_nic_index_means_one_subnet_on_every_node() -> None:
    other = vnic_node("worker-1", 11, **{"1.subnet": "10.241.7.0/24", "1.ip": "10.241.7.11"})
    found = problems(existing(nodes=[vnic_node("worker-0", 10), other]))
    assert [f for f, _ in found] == ["kubernetes.nodes"]
    assert "secondary NIC 1 must be on one subnet on every node" in found[0][1]


def test_a_nic_index_means_one_guest_interface_on_every_node() -> None:
    other = vnic_node("worker-1", 11, **{"1.guest_interface": "ens5"})
    found = problems(existing(nodes=[vnic_node("worker-0", 10), other]))
    assert found == [
        (
            "kubernetes.nodes",
            "secondary NIC 1 must have one guest interface name on every node (the "
            "NAD names one device), found ens13 on worker-0; ens5 on worker-1",
        )
    ]


def test_addresses_are_unique() -> None:
    found = problems(existing(nodes=[vnic_node("worker-0", 10), vnic_node("worker-1", 10)]))
    assert {f for f, _ in found} == {
        "kubernetes.nodes.1.nics.0.ip",
        "kubernetes.nodes.1.nics.1.ip",
        "kubernetes.nodes.1.nics.2.ip",
    }


def test_existing_subnets_are_checked_against_the_cluster_ranges() -> None:
    nodes = [
        vnic_node("worker-0", 10, **{"2.subnet": "172.30.2.0/24", "2.ip": "172.30.2.10"}),
        vnic_node("worker-1", 11, **{"2.subnet": "172.30.2.0/24", "2.ip": "172.30.2.11"}),
    ]
    found = problems(existing(nodes=nodes))
    assert [f for f, _ in found] == ["kubernetes.nodes.0.nics.2.subnet"]
    assert "service CIDR" in found[0][1]


def test_existing_subnets_must_not_overlap_each_other() -> None:
    nodes = [
        vnic_node("worker-0", 10, **{"2.subnet": "10.241.0.0/16"}),
        vnic_node("worker-1", 11, **{"2.subnet": "10.241.0.0/16"}),
    ]
    found = problems(existing(nodes=nodes))
    assert {f for f, _ in found} == {"kubernetes.nodes.0.nics.2.subnet"}


def test_inventory_guest_interfaces_override_the_defaults_and_must_agree_with_the_fabric() -> None:
    nodes = [
        vnic_node("worker-0", 10, **{"1.guest_interface": "eth1"}),
        vnic_node("worker-1", 11, **{"1.guest_interface": "eth1"}),
    ]
    assert problems(existing(nodes=copy.deepcopy(nodes))) == []
    found = problems(existing(nodes=nodes, **{"fabric.guest_interfaces": ["ens13", "ens14"]}))
    assert found == [
        ("fabric.guest_interfaces", "disagrees with the node inventory (NIC 1: ens13 here, eth1 in kubernetes.nodes)")
    ]


def test_existing_node_addresses_inside_the_temporary_range_are_excluded() -> None:
    from components.plan.fabric_rules import ipam_config

    nodes = [vnic_node("worker-0", 200), vnic_node("worker-1", 11)]
    cfg = existing(nodes=nodes)
    assert problems(cfg) == []
    ipam = ipam_config(cfg, plan_from_existing(cfg), 1)
    assert ipam["exclude"] == ["10.241.1.200/32"]
