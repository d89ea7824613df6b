"""The fabric's pure decisions: guest interface names, temporary IPAM ranges, mapping lines, names."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from components.models.config import ClusterConfig
from components.plan.fabric_rules import (
    attachment_of,
    default_guest_interfaces,
    guest_interface_names,
    mapping_lines,
    needs_ip_spoofing,
    nic_resource_name,
    temporary_range,
)
from components.plan.inventory import host_numbers

from ...conftest import cluster_config, offline_addresses

H100 = "gx3d-160x1792x8h100"


def config(**changes: Any) -> ClusterConfig:
    return ClusterConfig.model_validate(cluster_config(**changes))


def test_vnic_defaults_follow_the_studys_ens13_for_the_first_secondary_vnic() -> None:
    cfg = config(**{"network.attached_nics": 5, "network.nics_per_node": 5})
    assert default_guest_interfaces(cfg) == ("ens13", "ens14", "ens15", "ens16", "ens17")


def test_cluster_nic_defaults_are_the_eight_gx3d_vf_names_in_bus_order() -> None:
    cfg = config(**{"nodes.profile": H100, "network.variant": "sriov", "network.nics_per_node": 1})
    names = default_guest_interfaces(cfg)
    assert names == ("enp163s0", "enp173s0", "enp183s0", "enp193s0", "enp203s0", "enp213s0", "enp223s0", "enp233s0")
    assert names[6] == "enp223s0"  # the study's NAD for cluster-network port 07
    wide = config(
        **{"nodes.profile": H100, "network.variant": "sriov", "network.nics_per_node": 1, "network.attached_nics": 16}
    )
    assert len(default_guest_interfaces(wide)) == 8  # no documented names beyond the eighth


def test_the_pod_network_has_no_guest_interfaces_and_no_attachment() -> None:
    cfg = config(**{"network.variant": "pod", "network.nics_per_node": 0})
    assert default_guest_interfaces(cfg) == () and attachment_of(cfg) is None


def test_configured_names_replace_the_defaults() -> None:
    assert guest_interface_names(config(**{"fabric.guest_interfaces": ["a1", "a2"]})) == {1: "a1", 2: "a2"}


@pytest.mark.parametrize(("attachment", "spoofing"), [(None, False), ("host-device", False), ("macvlan", True)])
def test_only_macvlan_needs_ip_spoofing(attachment: str | None, spoofing: bool) -> None:
    assert needs_ip_spoofing(config(**{"fabric.attachment": attachment})) is spoofing


def test_nic_resource_names_keep_to_the_operators_alphabet_and_follow_the_stack() -> None:
    # Cluster-wide names derive from the stack's namespace, itself from name_prefix unless set: two
    # experiments on one cluster never share a device-plugin resource.
    names = {nic_resource_name(config(name_prefix=prefix), 3) for prefix in ("h100-2n-sriov-rdma", "t")}
    assert names == {"h100_2n_sriov_rdma_training_net3", "t_training_net3"}
    explicit = config(name_prefix="t", **{"kubernetes.namespace": "gpu-training"})
    assert nic_resource_name(explicit, 3) == "gpu_training_net3"  # explicit config keeps winning


def test_temporary_range_is_the_top_half_without_broadcast() -> None:
    planned = ["10.241.192.4", "10.241.192.5"]
    temporary = temporary_range("10.241.192.0/24", planned)
    assert (temporary.start, temporary.end, temporary.exclude, temporary.capacity) == (
        "10.241.192.128",
        "10.241.192.254",
        (),
        127,
    )
    network = ipaddress.IPv4Network("10.241.192.0/24")
    handed_out = list(temporary.addresses())
    assert all(a in network for a in handed_out)
    assert not {str(a) for a in handed_out} & {
        *planned,
        "10.241.192.0",
        "10.241.192.1",
        "10.241.192.2",
        "10.241.192.3",
        "10.241.192.255",
    }


def test_temporary_range_does_not_move_when_nodes_are_added() -> None:
    two = temporary_range("10.0.3.0/24", ["10.0.3.4", "10.0.3.5"])
    eight = temporary_range("10.0.3.0/24", [f"10.0.3.{4 + i}" for i in range(8)])
    assert two == eight


def test_node_addresses_in_the_top_half_are_excluded() -> None:
    temporary = temporary_range("10.0.0.0/16", ["10.0.0.18", "10.0.200.7"])
    assert temporary.start == "10.0.128.0" and temporary.end == "10.0.255.254"
    assert temporary.exclude == ("10.0.200.7/32",)
    assert temporary.ipam()["exclude"] == ["10.0.200.7/32"]
    assert temporary.capacity == 32767 - 1


def test_mapping_lines_are_in_natural_node_order() -> None:
    cfg = config(**{"nodes.count": 11, "network.nics_per_node": 1})
    lines = mapping_lines(offline_addresses(cfg), {1: "ens13", 2: "ens14"})
    assert [line.split(":")[0] for line in lines] == [f"t-node{i}" for i in range(11)]
    host = 4 + host_numbers([f"t-node{i}" for i in range(11)], 24)["t-node10"]  # keyed by the node's name
    assert lines[10] == f"t-node10:ens13:net1:10.241.192.{host}"
    assert all(len(line.split(":")) == 4 for line in lines)
