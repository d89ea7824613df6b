"""The IBM Cloud layer per variant, as the offline engine records it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from experiments.offline.engine import RecordedResource
from experiments.stacks.stackfile import load_stack
from experiments.state.preview import run_preview, write_preview

from ...conftest import standalone_config

H100 = "gx3d-160x1792x8h100"


def preview_of(write_stack, **changes: Any) -> list[RecordedResource]:
    return run_preview(load_stack(str(write_stack("t", standalone_config(**changes))))).result.resources


def of_type(resources: list[RecordedResource], kind: str) -> list[RecordedResource]:
    return [r for r in resources if r.type == f"ibm:index/{kind[0].lower()}{kind[1:]}:{kind}"]


def test_vnic_variant_subnets_attachments_and_security(write_stack) -> None:
    resources = preview_of(write_stack, **{"nodes.count": 3, "network.nics_per_node": 2})
    instances = of_type(resources, "IsInstance")
    assert sorted(i.inputs["name"] for i in instances) == ["t-node0", "t-node1", "t-node2"]
    assert {i.inputs["profile"] for i in instances} == {"gx3-48x240x2l40s"}
    subnets = of_type(resources, "IsSubnet")
    assert {s.inputs["zone"] for s in subnets} == {"us-east-3"}
    assert sorted(s.inputs["ipv4CidrBlock"] for s in subnets) == ["10.241.0.0/24", "10.241.1.0/24", "10.241.2.0/24"]
    attachments = of_type(resources, "IsInstanceNetworkAttachment")
    assert len(attachments) == 3 * 2
    per_instance = Counter(a.inputs["instance"] for a in attachments)
    assert sorted(per_instance.values()) == [2, 2, 2]
    node1_nic2 = next(a for a in attachments if a.name == "gpu-node1-vnic2")
    vni = node1_nic2.inputs["virtualNetworkInterface"]
    assert vni["primaryIp"]["address"] == "10.241.2.5"
    subnet_ids = {s.name: s for s in subnets}
    assert vni["subnet"] == _id_of(resources, subnet_ids["gpu-net-vnic2"])
    assert not of_type(resources, "IsClusterNetwork")
    # vNIC traffic is admitted only from members of the secondary security group.
    secondary = next(g for g in of_type(resources, "IsSecurityGroup") if g.name == "gpu-net-sg-secondary")
    sg_id = _id_of(resources, secondary)
    assert set(vni["securityGroups"]) == {sg_id}
    rules = [r for r in of_type(resources, "IsSecurityGroupRule") if r.inputs["group"] == sg_id]
    assert {(r.inputs["direction"], r.inputs["remote"]) for r in rules} == {("inbound", sg_id), ("outbound", sg_id)}


def _id_of(resources: list[RecordedResource], resource: RecordedResource) -> str:
    """The ID the engine handed to dependents (bare: cluster subnets' resource ID is composite)."""
    assert resource.id is not None
    return resource.id.rsplit("/", 1)[-1]


@pytest.mark.parametrize("variant", ["sriov", "sriov-rdma"])
def test_cluster_network_variants(write_stack, variant: str) -> None:
    resources = preview_of(
        write_stack,
        **{"nodes.profile": H100, "network.variant": variant, "network.nics_per_node": 1, "network.attached_nics": 16},
    )
    (network,) = of_type(resources, "IsClusterNetwork")
    assert network.inputs["profile"] == "hopper-1" and network.inputs["zone"] == "us-east-3"
    assert network.inputs["subnetPrefixes"] == {"cidr": "10.0.0.0/16"}
    subnets = of_type(resources, "IsClusterNetworkSubnet")
    assert len(subnets) == 16
    subnet_ids = {_id_of(resources, s) for s in subnets}
    for instance in of_type(resources, "IsInstance"):
        attachments = instance.inputs["clusterNetworkAttachments"]
        assert len(attachments) == 16
        assert {a["clusterNetworkInterface"]["subnet"]["id"] for a in attachments} == subnet_ids
        first = attachments[0]["clusterNetworkInterface"]
        assert first["primaryIp"]["address"].startswith("10.0.0.")
    assert not of_type(resources, "IsInstanceNetworkAttachment")
    assert len(of_type(resources, "IsSubnet")) == 1  # management only


@pytest.mark.parametrize("variant", ["pod", "vnic"])
def test_no_cluster_network_without_sriov(write_stack, variant: str) -> None:
    nics = 0 if variant == "pod" else 1
    resources = preview_of(
        write_stack, **{"nodes.profile": H100, "network.variant": variant, "network.nics_per_node": nics}
    )
    assert not of_type(resources, "IsClusterNetwork") and not of_type(resources, "IsClusterNetworkSubnet")
    assert all("clusterNetworkAttachments" not in i.inputs for i in of_type(resources, "IsInstance"))


def test_every_child_is_parented_and_uses_the_edge_provider(write_stack) -> None:
    resources = preview_of(write_stack)
    top_level = {r.type for r in resources if r.parent and r.parent.endswith("::gpu-cluster-t")}
    assert top_level == {
        "gpu-cluster:cluster:GpuCluster",
        "pulumi:providers:ibm",
    }
    ibm_provider = next(r for r in resources if r.type == "pulumi:providers:ibm")
    assert ibm_provider.inputs["region"] == "us-east"
    for r in resources:
        if r.custom and r.type.startswith("ibm:"):
            assert r.provider and r.provider.startswith(ibm_provider.urn), r.name


def test_scaling_adds_resources_and_renames_none(write_stack) -> None:
    two = {r.urn for r in preview_of(write_stack, **{"nodes.count": 2})}
    four = {r.urn for r in preview_of(write_stack, **{"nodes.count": 4})}
    assert two < four
    assert {u.rsplit("::", 1)[1] for u in four - two} >= {"gpu-node2", "gpu-node3-instance", "gpu-node3-vnic2"}


def test_preview_document_is_deterministic_and_masks_secrets(write_stack, tmp_path: Path) -> None:
    stack = load_stack(str(write_stack("t", standalone_config())))
    first = write_preview(run_preview(stack), tmp_path / "a")[0].read_text()
    second = write_preview(run_preview(stack), tmp_path / "b")[0].read_text()
    assert first == second
    document = json.loads(first)
    assert set(document) == {"project", "stack", "simulated", "stops", "diagnostics", "resources", "outputs"}
    assert (document["project"], document["stack"]) == ("gpu-cluster", "t")
    assert {"urn", "type", "name", "parent", "custom", "inputs", "dependencies", "property_dependencies"} <= set(
        document["resources"][0]
    )
    (key,) = [r for r in document["resources"] if r["type"] == "ibm:index/isSshKey:IsSshKey"]
    assert key["inputs"]["publicKey"] == "[secret]"
    assert "ssh-ed25519" not in first
    nic_rows = document["outputs"]["nics"]
    assert {(n["node"], n["index"]) for n in nic_rows} == {(f"t-node{i}", k) for i in range(2) for k in range(3)}


def test_vnics_attach_one_at_a_time_in_nic_order(write_stack) -> None:
    resources = preview_of(write_stack, **{"nodes.count": 1, "network.nics_per_node": 3})
    attachments = {r.name: r for r in of_type(resources, "IsInstanceNetworkAttachment")}

    def waits_for(name: str) -> list[str]:
        return [u.rsplit("::", 1)[1] for u in attachments[name].dependencies if ":IsInstanceNetworkAttachment::" in u]

    assert [waits_for(f"gpu-node0-vnic{k}") for k in (1, 2, 3)] == [[], ["gpu-node0-vnic1"], ["gpu-node0-vnic2"]]


def test_security_group_rules_have_derived_ibm_names(write_stack) -> None:
    rules = of_type(preview_of(write_stack), "IsSecurityGroupRule")
    assert sorted(r.inputs["name"] for r in rules) == [
        "t-mgmt-egress",
        "t-mgmt-members",
        "t-secondary-in",
        "t-secondary-out",
    ]
