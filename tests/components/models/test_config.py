"""The experiment config: every stack file validates, and bad input names the field."""

from __future__ import annotations

import pytest

from components.checks.validation import ConfigurationError, validate_cluster
from components.models.config import ClusterConfig
from components.plan.inventory import host_numbers
from experiments.stacks.stackfile import known_stacks, load_stack

from ...conftest import PROJECT_ROOT, cluster_config, offline_addresses

STUDY_STACKS = [
    "l40s-1n",
    "l40s-2n-pod",
    "l40s-4n-pod",
    "l40s-8n-pod",
    "l40s-2n-vnic",
    "l40s-4n-vnic",
    "l40s-8n-vnic",
    "h100-1n",
    "h100-2n-pod",
    "h100-2n-vnic",
    "h100-2n-sriov",
    "h100-2n-sriov-rdma",
]


def errors_of(cfg: dict) -> list[str]:
    with pytest.raises(ConfigurationError) as info:
        validate_cluster(cfg)
    return info.value.lines


def test_the_project_has_exactly_the_study_stacks_and_dev() -> None:
    assert sorted(known_stacks(PROJECT_ROOT)) == sorted([*STUDY_STACKS, "dev", "h100-2n-sriov-rdma-join"])


@pytest.mark.parametrize("stack", [*STUDY_STACKS, "dev"])
def test_every_stack_file_validates(stack: str) -> None:
    cfg = load_stack(stack).cluster
    assert cfg.name_prefix == stack if stack != "dev" else cfg.name_prefix == "gpu-dev"
    family, _, rest = stack.partition("-")
    if stack != "dev":
        assert cfg.profile.family == family
        assert cfg.nodes.count == int(rest.split("n")[0])


@pytest.mark.parametrize("stack", ["l40s-2n-vnic", "l40s-4n-vnic", "l40s-8n-vnic"])
def test_l40s_vnic_stacks_use_as_many_vnics_as_nodes(stack: str) -> None:
    cfg = load_stack(stack).cluster
    assert cfg.network.nics_per_node == cfg.nodes.count == cfg.network.secondary_nics


@pytest.mark.parametrize("stack", ["h100-2n-vnic", "h100-2n-sriov", "h100-2n-sriov-rdma"])
def test_h100_stacks_use_one_secondary_nic(stack: str) -> None:
    cfg = load_stack(stack).cluster
    assert cfg.network.nics_per_node == 1
    assert cfg.network.secondary_nics == (8 if cfg.network.uses_cluster_network else 1)


def test_dev_is_two_l40s_nodes_on_vnics() -> None:
    cfg = load_stack("dev").cluster
    assert (cfg.nodes.profile, cfg.nodes.count, cfg.network.variant) == ("gx3-48x240x2l40s", 2, "vnic")


@pytest.mark.parametrize(
    ("changes", "path", "fragment"),
    [
        ({"network.variant": "sriov", "network.nics_per_node": 1}, ".network.variant", "does not support"),
        ({"network.variant": "sriov-rdma", "network.nics_per_node": 1}, ".network.variant", "does not support"),
        ({"network.nics_per_node": 10}, ".network.nics_per_node", "at most 9 secondary vNICs"),
        ({"network.attached_nics": 12}, ".network.attached_nics", "at most 9 secondary vNICs"),
        (
            {
                "nodes.profile": "gx3d-160x1792x8h100",
                "network.variant": "sriov",
                "network.nics_per_node": 1,
                "network.attached_nics": 4,
            },
            ".network.attached_nics",
            "8, 16, 32",
        ),
        (
            {
                "nodes.profile": "gx3d-160x1792x8h100",
                "zone": "us-south-1",
                "network.variant": "sriov",
                "network.nics_per_node": 1,
            },
            ".zone",
            "no hopper-1 cluster network",
        ),
        (
            {
                "nodes.profile": "gx3d-160x1792x8h100",
                "network.variant": "sriov-rdma",
                "network.nics_per_node": 1,
                "network.cluster_network_cidr": "10.241.128.0/17",
            },
            ".network.cluster_network_cidr",
            "overlaps",
        ),
        ({"network.nics_per_node": 3, "network.attached_nics": 2}, ".network.nics_per_node", "only 2 are attached"),
        ({"network.variant": "pod", "network.nics_per_node": 1}, ".network.nics_per_node", "must be 0"),
        ({"network.variant": "vnic", "network.nics_per_node": 0}, ".network.nics_per_node", "at least one"),
        ({"network.mtu": 9000}, ".network.mtu", "unknown key"),
        ({"nodez": 3}, ".nodez", "unknown key"),
        ({"nodes.profile": "gx2-8x64x1v100"}, ".nodes.profile", "Input should be"),
        ({"nodes.count": 0}, ".nodes.count", "greater than or equal to 1"),
        ({"zone": "useast"}, ".zone", "not an IBM Cloud zone"),
        ({"nodes.profile": "gx3d-160x1792x8h100", "zone": "eu-es-1"}, ".zone", "not offered in eu-es-1"),
        ({"network.vpc_cidr": "10.241.0.1/16"}, ".network.vpc_cidr", "not an IPv4 network"),
        ({"nodes.count": 300, "network.subnet_prefix_length": 24}, ".network.subnet_prefix_length", "holds 251 nodes"),
        ({"network.vpc_cidr": "10.241.0.0/24"}, ".network.vpc_cidr", "cannot hold 3 /24 subnets"),
        ({"name_prefix": "GPU_dev"}, ".name_prefix", "lowercase"),
        ({"zone": "us-east-7"}, ".zone", "numbered 1 to 3"),
        ({"network.vpc_cidr": "161.26.0.0/16"}, ".network.vpc_cidr", "service network"),
        ({"network.vpc_cidr": "169.254.128.0/17"}, ".network.vpc_cidr", "link-local"),
        (
            {
                "nodes.profile": "gx3d-160x1792x8h100",
                "network.variant": "sriov",
                "network.nics_per_node": 1,
                "network.cluster_network_cidr": "127.0.0.0/16",
            },
            ".network.cluster_network_cidr",
            "loopback",
        ),
        ({"tags": ["a,b"]}, ".tags[0]", "IBM tags hold"),
        (
            {
                "nodes.profile": "gx3d-160x1792x8h100",
                "nodes.count": 200,
                "network.variant": "sriov",
                "network.nics_per_node": 1,
                "network.attached_nics": 32,
                "network.subnet_prefix_length": 22,
            },
            ".nodes.count",
            "reserved IPs",
        ),
    ],
)
def test_bad_config_names_the_field(changes: dict, path: str, fragment: str) -> None:
    lines = errors_of(cluster_config(**changes))
    matching = [line for line in lines if line.startswith(f"gpu-cluster:cluster{path}:")]
    assert matching, lines
    assert any(fragment in line for line in matching), lines


def test_subnets_never_resize_themselves_and_addresses_stay_put() -> None:
    big = cluster_config(
        **{
            "nodes.profile": "gx3d-160x1792x8h100",
            "nodes.count": 256,
            "network.variant": "sriov-rdma",
            "network.nics_per_node": 8,
        }
    )
    lines = errors_of(big)
    assert any(line.startswith("gpu-cluster:cluster.network.subnet_prefix_length:") for line in lines), lines
    big_cfg = ClusterConfig.model_validate({**big, "network": {**big["network"], "subnet_prefix_length": 22}})
    plan = offline_addresses(big_cfg)
    assert len(plan.cluster_subnets) == 8 and all(s.endswith("/22") for s in plan.cluster_subnets)
    small = offline_addresses(ClusterConfig.model_validate(cluster_config(**{"nodes.count": 2})))
    assert small.nics_of("t-node1")[1].ip == f"10.241.192.{4 + host_numbers(['t-node0', 't-node1'], 24)['t-node1']}"
    # From 2 to 100 nodes: same /24 subnets, the first two nodes keep every address.
    hundred = offline_addresses(ClusterConfig.model_validate(cluster_config(**{"nodes.count": 100})))
    assert hundred.vnic_subnets == small.vnic_subnets
    assert [n for n in hundred.nics if n.node in small.nodes] == list(small.nics)


def test_inventory_roles_and_job_use() -> None:
    cfg = ClusterConfig.model_validate(
        cluster_config(
            **{"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov", "network.nics_per_node": 2}
        )
    )
    plan = offline_addresses(cfg)
    node0 = plan.nics_of("t-node0")
    assert [(n.index, n.role, n.used_by_job) for n in node0[:4]] == [
        (0, "primary", False),
        (1, "cluster", True),
        (2, "cluster", True),
        (3, "cluster", False),
    ]
    assert len(node0) == 9
    assert node0[1].pod_interface == "net1" and node0[1].subnet_cidr == "10.0.0.0/24"
    assert node0[1].ip == f"10.0.0.{4 + host_numbers(['t-node0', 't-node1'], 24)['t-node0']}"  # keyed by its name


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"nodes.count": True}, ".nodes.count"),
        ({"nodes.count": "2"}, ".nodes.count"),
        ({"network.nics_per_node": 2.0}, ".network.nics_per_node"),
    ],
)
def test_values_are_not_coerced_across_types(changes: dict, path: str) -> None:
    lines = errors_of(cluster_config(**changes))
    assert any(line.startswith(f"gpu-cluster:cluster{path}:") for line in lines), lines
