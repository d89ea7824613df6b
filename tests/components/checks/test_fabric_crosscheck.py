"""fabric_errors: every cross-layer problem is reported at the field to change."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from components.checks.validation import address_plan_and_errors
from components.models.config import ClusterConfig
from experiments.stacks.stackfile import known_stacks, load_stack

from ...conftest import PROJECT_ROOT, cluster_config, offline_inventory

H100 = "gx3d-160x1792x8h100"


def unchecked(**changes: Any) -> ClusterConfig:
    """BASE_CLUSTER with ``changes``, every field validated but not ClusterConfig's own cross-field
    validator, which runs ``fabric_errors`` once hooked in: the errors are what we look at here."""
    raw = cluster_config(**changes)
    fields = {
        name: TypeAdapter(ClusterConfig.model_fields[name].rebuild_annotation()).validate_python(value)
        for name, value in raw.items()
    }
    return ClusterConfig.model_construct(**fields)


config = unchecked


def h100(variant: str = "sriov-rdma", nics: int = 2, **changes: Any) -> ClusterConfig:
    return config(**{"nodes.profile": H100, "network.variant": variant, "network.nics_per_node": nics, **changes})


def pod(**changes: Any) -> ClusterConfig:
    return config(**{"network.variant": "pod", "network.nics_per_node": 0, **changes})


def problems(cfg: ClusterConfig) -> list[tuple[str, str]]:
    """``(dotted field, message)`` per error."""
    _, found = address_plan_and_errors(cfg, offline_inventory(cfg))
    return [(".".join(map(str, e["loc"])), e["type"].message()) for e in found]  # type: ignore[union-attr]


def fields(cfg: ClusterConfig) -> list[str]:
    return [field for field, _ in problems(cfg)]


@pytest.mark.parametrize("stack", sorted(known_stacks(PROJECT_ROOT)))
def test_every_stack_file_passes(stack: str) -> None:
    assert problems(load_stack(stack).cluster) == []


def test_unchecked_configs_still_validate_each_field() -> None:
    with pytest.raises(ValidationError, match="is not a valid Linux interface name"):
        unchecked(**{"fabric.guest_interfaces": ["no/slash"]})
    with pytest.raises(ValidationError, match="not an IPv4 network"):
        unchecked(**{"kubernetes.pod_cidr": "10.128.0.1/14"})


@pytest.mark.parametrize(
    "cfg",
    [
        pytest.param(lambda: config(), id="vnic"),
        pytest.param(lambda: config(**{"fabric.attachment": "macvlan"}), id="vnic-macvlan"),
        pytest.param(lambda: config(**{"fabric.ip_assignment": "dhcp"}), id="vnic-dhcp"),
        pytest.param(lambda: h100("sriov", 8, **{"fabric.attachment": "sriov-operator"}), id="sriov-operator"),
        pytest.param(
            lambda: h100(
                **{
                    "fabric.node_prep.gpudirect_rdma": "peermem",
                    "fabric.node_prep.host_mofed": True,
                    "fabric.node_prep.iommu_passthrough": True,
                }
            ),
            id="sriov-rdma-node-prep",
        ),
        pytest.param(lambda: pod(), id="pod"),
    ],
)
def test_valid_combinations_pass(cfg: Any) -> None:
    assert problems(cfg()) == []


# --------------------------------------------------------------------------------------
# Attachment and IP mechanism for the variant
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cfg", "field", "fragment"),
    [
        pytest.param(
            lambda: pod(**{"fabric.attachment": "host-device"}),
            "fabric.attachment",
            "pod network",
            id="pod-host-device",
        ),
        pytest.param(lambda: pod(**{"fabric.ip_assignment": "dhcp"}), "fabric.ip_assignment", "OVN", id="pod-dhcp"),
        pytest.param(
            lambda: config(**{"fabric.attachment": "sriov-operator"}),
            "fabric.attachment",
            "virtio",
            id="vnic-sriov-operator",
        ),
        pytest.param(
            lambda: h100("sriov", **{"fabric.attachment": "macvlan"}),
            "fabric.attachment",
            "macvlan is for vNICs",
            id="sriov-macvlan",
        ),
        pytest.param(
            lambda: h100(**{"fabric.attachment": "macvlan"}),
            "fabric.attachment",
            "macvlan is for vNICs",
            id="sriov-rdma-macvlan",
        ),
        pytest.param(
            lambda: config(**{"fabric.attachment": "macvlan", "fabric.ip_assignment": "dhcp"}),
            "fabric.ip_assignment",
            "own MAC",
            id="macvlan-dhcp",
        ),
    ],
)
def test_attachment_and_ip_mechanism_must_fit_the_variant(cfg: Any, field: str, fragment: str) -> None:
    found = problems(cfg())
    assert [f for f, _ in found] == [field]
    assert fragment in found[0][1]


# --------------------------------------------------------------------------------------
# Address ranges
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "field", "fragment"),
    [
        ({"kubernetes.pod_cidr": "10.240.0.0/12"}, "network.vpc_cidr", "pod CIDR"),
        ({"network.vpc_cidr": "172.30.0.0/16"}, "network.vpc_cidr", "service CIDR"),
        ({"network.vpc_cidr": "100.64.0.0/16"}, "network.vpc_cidr", "join subnet"),
        ({"kubernetes.ovn.transit_cidr": "10.241.128.0/17"}, "network.vpc_cidr", "transit subnet"),
        ({"kubernetes.service_cidr": "10.130.0.0/16"}, "kubernetes.service_cidr", "pod CIDR"),
        ({"kubernetes.ovn.masquerade_cidr": "172.30.0.0/24"}, "kubernetes.ovn.masquerade_cidr", "service CIDR"),
    ],
)
def test_vpc_and_cluster_ranges_must_not_overlap(changes: dict[str, Any], field: str, fragment: str) -> None:
    found = problems(config(**changes))
    assert [f for f, _ in found] == [field]
    assert fragment in found[0][1]


def test_the_cluster_network_prefix_must_not_overlap_ovn_ranges() -> None:
    found = problems(h100(**{"network.cluster_network_cidr": "100.88.0.0/16"}))
    assert found == [
        (
            "network.cluster_network_cidr",
            "100.88.0.0/16 (the cluster-network prefix) overlaps OVN's transit subnet "
            "(kubernetes.ovn.transit_cidr) 100.88.0.0/16: a pod could not tell a node's NIC from a "
            "cluster-internal address",
        )
    ]


def test_temporary_ranges_must_fit_above_the_node_addresses() -> None:
    # A /29 has 8 addresses: .0-.3 reserved, nodes at .4 and .5, temporary range .4-.6 minus nodes = 1 < 2 pods.
    found = problems(config(**{"network.subnet_prefix_length": 29}))
    assert [f for f, _ in found] == ["network.subnet_prefix_length", "network.subnet_prefix_length"]
    assert "leaves 1 temporary addresses" in found[0][1]
    assert problems(config(**{"network.subnet_prefix_length": 29, "fabric.ip_assignment": "dhcp"})) == []


def test_the_default_subnet_size_leaves_room_for_every_node() -> None:
    assert problems(config(**{"nodes.count": 120, "network.nics_per_node": 1})) == []


# --------------------------------------------------------------------------------------
# Resource arithmetic and interface names
# --------------------------------------------------------------------------------------


def test_cluster_nics_beyond_the_documented_eight_need_names() -> None:
    found = problems(h100(nics=10, **{"network.attached_nics": 16}))
    assert found == [
        (
            "fabric.guest_interfaces",
            "no guest interface name for secondary NIC(s) 9, 10: the documented "
            "defaults cover NIC 1..8 of this variant; list the names in the node "
            "OS (ip -br link)",
        )
    ]
    names = [f"enp{n}s0" for n in range(100, 116)]
    assert problems(h100(nics=10, **{"network.attached_nics": 16, "fabric.guest_interfaces": names})) == []


def test_guest_interfaces_cannot_name_more_nics_than_are_attached() -> None:
    found = problems(config(**{"fabric.guest_interfaces": ["ens13", "ens14", "ens15"]}))
    assert found == [("fabric.guest_interfaces", "names 3 NICs but 2 secondary NICs are attached")]


def test_guest_interfaces_must_be_distinct() -> None:
    found = problems(config(**{"fabric.guest_interfaces": ["ens13", "ens13"]}))
    assert found == [("fabric.guest_interfaces", "names ens13 more than once")]


def test_too_few_guest_interfaces_for_the_used_nics() -> None:
    found = problems(config(**{"fabric.guest_interfaces": ["ens13"]}))
    assert [f for f, _ in found] == ["fabric.guest_interfaces"]
    assert "secondary NIC(s) 2" in found[0][1]


# --------------------------------------------------------------------------------------
# Node preparation
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cfg", "field"),
    [
        pytest.param(
            lambda: h100(
                **{
                    "fabric.node_prep.iommu_passthrough": True,
                    "kubernetes.openshift": False,
                    "kubernetes.whereabouts_installed": True,
                }
            ),
            "fabric.node_prep.iommu_passthrough",
            id="iommu-off-openshift",
        ),
        pytest.param(
            lambda: h100("sriov", **{"fabric.node_prep.gpudirect_rdma": "dma-buf"}),
            "fabric.node_prep.gpudirect_rdma",
            id="gpudirect-without-rdma",
        ),
        pytest.param(
            lambda: config(**{"fabric.node_prep.gpudirect_rdma": "peermem"}),
            "fabric.node_prep.gpudirect_rdma",
            id="gpudirect-on-vnic",
        ),
        pytest.param(
            lambda: h100(**{"fabric.node_prep.gpudirect_rdma": "dma-buf", "fabric.node_prep.host_mofed": True}),
            "fabric.node_prep.host_mofed",
            id="host-mofed-without-peermem",
        ),
    ],
)
def test_node_prep_only_where_it_applies(cfg: Any, field: str) -> None:
    assert fields(cfg()) == [field]


def test_errors_accumulate_across_checks() -> None:
    cfg = config(
        **{
            "fabric.attachment": "sriov-operator",
            "kubernetes.service_cidr": "10.128.0.0/16",
            "fabric.node_prep.gpudirect_rdma": "dma-buf",
        }
    )
    assert sorted(fields(cfg)) == ["fabric.attachment", "fabric.node_prep.gpudirect_rdma", "kubernetes.service_cidr"]


def test_off_openshift_the_mapping_mechanism_needs_whereabouts() -> None:
    from ...conftest import cluster_config, validation_problems

    problems = validation_problems(cluster_config(**{"kubernetes.openshift": False}))
    assert [field for field, _ in problems] == ["kubernetes.whereabouts_installed"]
    assert "only OpenShift ships" in problems[0][1]
    assert (
        validation_problems(cluster_config(**{"kubernetes.openshift": False, "kubernetes.whereabouts_installed": True}))
        == []
    )
    assert validation_problems(cluster_config(**{"kubernetes.openshift": False, "fabric.ip_assignment": "dhcp"})) == []
