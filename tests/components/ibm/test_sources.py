"""``nodes.source``: adopt an IPI cluster's workers, join new nodes to it, or stand alone."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from typing import Any

import pytest

from components.checks.discovery import discover
from components.checks.validation import ConfigurationError
from components.plan.inventory import host_numbers
from experiments.offline.engine import RecordedResource
from experiments.offline.simulated_cluster import plan_offline, simulated_cluster_for
from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import kubernetes_manifests, run_preview

from ...conftest import cluster_config, standalone_config, validation_problems

H100 = "gx3d-160x1792x8h100"
# IBM's validators (provider v2.5.0): letter first; the cluster-network family also allows a leading digit.
IBM_NAME = re.compile(r"^([a-z]|[a-z][-a-z0-9]*[a-z0-9])$")
IBM_CN_NAME = re.compile(r"^([a-z]|[a-z][-a-z0-9]*[a-z0-9]|[0-9][-a-z0-9]*([a-z]|[-a-z][-a-z0-9]*[a-z0-9]))$")
CN_KINDS = {
    "IsClusterNetwork",
    "IsClusterNetworkSubnet",
    "IsClusterNetworkSubnetReservedIp",
    "IsInstanceClusterNetworkAttachment",
    "IsInstanceNetworkAttachment",
}


def kinds(resources: list[RecordedResource]) -> Counter[str]:
    return Counter(r.type.rsplit(":", 1)[-1] for r in resources if r.type.startswith("ibm:"))


def preview(write_stack: Any, cluster: dict[str, Any], name: str = "t") -> Any:
    return run_preview(load_stack(str(write_stack(name, cluster))))


@pytest.mark.parametrize("stack", [s for s in known_stacks() if s != "h100-2n-sriov-rdma-join"])
def test_every_shipped_experiment_adopts_without_creating_instances(stack: str) -> None:
    shipped = load_stack(stack)
    assert shipped.cluster.nodes.source == "adopt"
    result = run_preview(shipped)
    counts = kinds(result.result.resources)
    nodes, net = shipped.cluster.nodes.count, shipped.cluster.network
    assert counts["IsInstance"] == 0 and counts["IsSshKey"] == 0 and counts["IsVpc"] == 0
    assert counts["IsInstanceNetworkInterface"] == nodes * (net.secondary_nics if net.variant == "vnic" else 0)
    cluster_nics = net.secondary_nics if net.uses_cluster_network else 0
    assert counts["IsInstanceClusterNetworkAttachment"] == nodes * cluster_nics
    assert counts["IsInstanceAction"] == 0  # stops and starts are the rolling steps' (components.ops)
    rolling = Counter(r.type.rsplit(":", 1)[-1] for r in result.result.resources if r.type.startswith("pulumi-python:"))
    assert (
        rolling
        == Counter(
            {
                "WorkerSelection": 1,
                "WorkerOutOfService": nodes if cluster_nics else 0,
                "WorkerInService": nodes if cluster_nics else 0,
            }
        )
        - Counter()
    )
    for r in result.result.resources:
        kind = r.type.rsplit(":", 1)[-1]
        if r.type.startswith("ibm:") and "name" in r.inputs:
            name = r.inputs["name"]
            assert len(name) <= 63 and (IBM_CN_NAME if kind in CN_KINDS else IBM_NAME).match(name), (kind, name)


def test_the_mapping_names_the_adopted_workers_with_the_cloud_layers_addresses() -> None:
    preview_ = run_preview("dev")
    workers = preview_.stack.cluster.nodes.names
    mapping = next(
        m
        for m in kubernetes_manifests(preview_)
        if m["kind"] == "ConfigMap" and m["metadata"]["name"].endswith("nic-mapping")
    )
    lines = mapping["data"]["nodename_ip_mapping.yaml"].split()
    assert [line.split(":")[0] for line in lines] == [workers[0], workers[0], workers[1], workers[1]]
    nics = {
        (r.inputs["instance"], r.inputs["primaryIp"]["address"])
        for r in preview_.result.resources
        if r.type.endswith(":IsInstanceNetworkInterface")
    }
    assert {line.split(":")[3] for line in lines} == {address for _, address in nics}


def test_cluster_nics_stop_attach_start_in_order(write_stack) -> None:
    resources = preview(
        write_stack, cluster_config(**{"nodes.profile": H100, "network.variant": "sriov", "network.nics_per_node": 1})
    ).result.resources
    by_urn = {r.urn: r for r in resources}
    worker = "t-node0"
    out = next(r for r in resources if r.name == f"gpu-{worker}-out-of-service")
    back = next(r for r in resources if r.name == f"gpu-{worker}-in-service")
    attachments = sorted(
        (
            r
            for r in resources
            if r.type.endswith(":IsInstanceClusterNetworkAttachment") and r.name.startswith(f"gpu-{worker}-")
        ),
        key=lambda r: int(r.name.rsplit("cnic", 1)[1]),
    )
    assert out.inputs["node"] == back.inputs["node"] == worker and len(attachments) == 8
    assert out.inputs["attachments"] == [a.inputs["name"] for a in attachments]
    assert out.urn in attachments[0].dependencies
    for before, after in zip(attachments, attachments[1:], strict=False):
        assert before.urn in after.dependencies  # one at a time, in NIC order
    # Back in service after the last attachment, hence (the chain above) after every one and the stop.
    assert attachments[-1].urn in back.dependencies
    reserved = by_urn[next(u for u in attachments[0].dependencies if u.endswith("cnic1-ip"))]
    assert reserved.urn in out.dependencies  # the addresses exist before the worker stops
    assert attachments[0].inputs["clusterNetworkInterface"]["primaryIp"]["address"] == reserved.inputs["address"]


def test_adopting_cluster_nics_without_allow_instance_stop_validates_and_plans_the_stops() -> None:
    # The opt-in is asked for by `pulumi up` (tests/experiments/state/test_stop_consent.py), not by validation:
    # the preview must render to show which workers would be stopped.
    raw = cluster_config(
        **{
            "nodes.profile": H100,
            "network.variant": "sriov-rdma",
            "network.nics_per_node": 1,
            "nodes.allow_instance_stop": ...,
        }
    )
    assert validation_problems(raw) == []
    _, plan = plan_offline(raw)
    assert [(s.worker, s.step, s.after) for s in plan.stops] == [("t-node0", 1, None), ("t-node1", 2, "t-node0")]


def test_standalone_with_the_kubernetes_layer_is_refused() -> None:
    ((field, message),) = validation_problems(standalone_config(layers="both"))
    assert field == "nodes.source" and "belong to no cluster" in message and "layers: cloud" in message
    assert validation_problems(standalone_config()) == []


def test_a_selection_that_does_not_match_names_the_field() -> None:
    cfg = plan_offline(cluster_config())[0]
    cluster = simulated_cluster_for(cfg)
    one_short = dataclasses.replace(cluster, instance_records=cluster.instance_records[:-1])
    from components.checks.validation import validate_cluster

    with pytest.raises(ConfigurationError) as missing:
        validate_cluster(cluster_config(), inventory=discover(cfg, one_short))
    assert missing.value.lines == [
        "gpu-cluster:cluster.nodes.names[1]: no instance t-node1 in VPC t-x7k2p-vpc (oc get machines -n "
        "openshift-machine-api lists the workers' names)"
    ]
    by_set = plan_offline(cluster_config(**{"nodes.names": ..., "nodes.machineset": "t-x7k2p-gpu-3"}))[0]
    with pytest.raises(ConfigurationError) as fewer:
        validate_cluster(
            cluster_config(**{"nodes.names": ..., "nodes.machineset": "t-x7k2p-gpu-3", "nodes.count": 3}),
            inventory=discover(by_set, simulated_cluster_for(by_set)),
        )
    assert fewer.value.lines[0].startswith("gpu-cluster:cluster.nodes.machineset: 2 instances of VPC t-x7k2p-vpc")
    other = [dict(r, profile="gx3-24x120x1l40s") if r["name"] == "t-node0" else r for r in cluster.instance_records]
    with pytest.raises(ConfigurationError) as profile:
        validate_cluster(
            cluster_config(), inventory=discover(cfg, dataclasses.replace(cluster, instance_records=tuple(other)))
        )
    assert profile.value.lines == [
        "gpu-cluster:cluster.nodes.profile: worker t-node0 is a gx3-24x120x1l40s, not a gx3-48x240x2l40s"
    ]


def test_an_unknown_cluster_names_the_infra_id(write_stack, capsys, tmp_path) -> None:
    cfg = plan_offline(cluster_config())[0]
    elsewhere = dataclasses.replace(simulated_cluster_for(cfg), vpc_name="other-vpc")
    with pytest.raises(ConfigurationError) as error:
        discover(cfg, elsewhere)
    assert error.value.lines[0].startswith("gpu-cluster:cluster.openshift.infra_id: no VPC t-x7k2p-vpc in us-east")


def test_join_creates_child_nic_instances_in_the_cluster_vpc_with_secret_user_data(write_stack) -> None:
    result = preview(
        write_stack,
        cluster_config(
            **{"nodes.source": "join", "nodes.names": ..., "nodes.join": {}, "nodes.allow_instance_stop": ...}
        ),
    ).result
    instances = [r for r in result.resources if r.type.endswith(":IsInstance")]
    assert sorted(i.inputs["name"] for i in instances) == ["t-node0", "t-node1"]
    cluster = simulated_cluster_for(
        plan_offline(cluster_config(**{"nodes.source": "join", "nodes.names": ..., "nodes.allow_instance_stop": ...}))[
            0
        ]
    )
    for instance in instances:
        assert instance.inputs["vpc"] == cluster.vpc_id and instance.inputs["userData"] == "[secret]"
        assert instance.inputs["primaryNetworkInterface"]["subnet"].startswith("0757-")
        assert len(instance.inputs["primaryNetworkInterface"]["securityGroups"]) == 2
        host = 4 + host_numbers(["t-node0", "t-node1"], 24)[instance.inputs["name"]]  # keyed by the node's name
        assert [n["primaryIp"]["address"] for n in instance.inputs["networkInterfaces"]] == [
            f"10.241.192.{host}",
            f"10.241.193.{host}",
        ]
    assert not [r for r in result.resources if r.type.endswith(":IsInstanceNetworkInterface")]


def test_join_with_kubeadm_needs_the_endpoint_and_builds_cloud_init() -> None:
    base = {
        "nodes.source": "join",
        "nodes.names": ...,
        "nodes.allow_instance_stop": ...,
        "kubernetes.openshift": False,
        "kubernetes.whereabouts_installed": True,
    }
    assert ("nodes.join.kubeadm_endpoint",) == tuple(p[0] for p in validation_problems(cluster_config(**base)))
    from components.manifests.userdata import kubeadm_cloud_init

    text = kubeadm_cloud_init(endpoint="10.0.0.5:6443", token="abcdef.0123456789abcdef", ca_cert_hash="sha256:00")
    assert text.startswith("#cloud-config\n") and "kubeadm join 10.0.0.5:6443 --token abcdef.0123456789abcdef" in text


def test_scaling_adopted_workers_adds_resources_and_renames_none(write_stack) -> None:
    two = {r.urn for r in preview(write_stack, cluster_config(), "t").result.resources}
    four = {r.urn for r in preview(write_stack, cluster_config(**{"nodes.count": 4}), "t").result.resources}
    assert two < four
