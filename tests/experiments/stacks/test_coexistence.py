"""Issue 17 item 9: stacks that can coexist on one cluster, and stacks that cannot."""

from __future__ import annotations

import json
from typing import Any

import pytest

from components.k8s.claims import CLAIMS_NAMESPACE, claim_name
from experiments.stacks.coexistence import conflicts
from experiments.stacks.stackfile import load_stack
from experiments.state.dependencies import transitive_dependencies
from experiments.state.preview import Preview, kubernetes_manifests, run_preview

from ...conftest import cluster_config
from ..sweep.test_sweep import FakeFactory, sweep_main

H100 = "gx3d-160x1792x8h100"
SRIOV = {
    "nodes.profile": H100,
    "network.variant": "sriov-rdma",
    "network.nics_per_node": 1,
    "nodes.allow_instance_stop": True,
}


def _stack(write_stack: Any, name: str, workers: list[str], **changes: Any):  # noqa: ANN202
    return load_stack(str(write_stack(name, cluster_config(name_prefix=name, **{"nodes.names": workers}, **changes))))


def _created(preview: Preview) -> dict[tuple[str, str, str], str]:
    """Every object the stack creates (patches of others' objects excluded): identity -> kind."""
    ids = {}
    for resource in preview.result.resources:
        if resource.custom and resource.type.startswith("kubernetes:") and not resource.type.endswith("Patch"):
            meta = resource.inputs["metadata"]
            ids[
                (
                    resource.inputs["apiVersion"].split("/")[0] + "/" + resource.inputs["kind"],
                    meta.get("namespace", ""),
                    meta["name"],
                )
            ] = resource.inputs["kind"]
    return ids


def test_two_stacks_on_different_workers_share_no_object_name(write_stack) -> None:
    a = _stack(write_stack, "exp-a", ["t-node0", "t-node1"])
    b = _stack(write_stack, "exp-b", ["t-node2", "t-node3"])
    assert conflicts([a, b]) == []
    created_a, created_b = _created(run_preview(a)), _created(run_preview(b))
    assert not set(created_a) & set(created_b)
    namespaced = {k for k in created_a if k[1]}
    cluster_scoped = {k for k in created_a if not k[1]}
    assert {k[1] for k in namespaced} == {"exp-a-training", CLAIMS_NAMESPACE}
    assert ("security.openshift.io/SecurityContextConstraints", "", "exp-a-training-ilab") in cluster_scoped
    assert {k[2] for k in namespaced if k[1] == "exp-a-training"} >= {"ilab", "fine-tuning-storage"}


@pytest.mark.slow
def test_the_network_operator_s_one_policy_is_shared_only_by_patching(write_stack) -> None:
    a = _stack(write_stack, "exp-a", ["t-node0", "t-node1"], **SRIOV)
    b = _stack(write_stack, "exp-b", ["t-node2", "t-node3"], **SRIOV)
    (problem,) = conflicts([a, b])
    assert "both create the NicClusterPolicy nic-cluster-policy" in problem and "nic_cluster_policy: patch" in problem
    shared = set(_created(run_preview(a))) & set(_created(run_preview(b)))
    assert shared == {("mellanox.com/NicClusterPolicy", "", "nic-cluster-policy")}
    patched = _stack(
        write_stack, "exp-c", ["t-node2", "t-node3"], **SRIOV, **{"fabric.rdma.nic_cluster_policy": "patch"}
    )
    assert conflicts([a, patched]) == []
    assert not set(_created(run_preview(a))) & set(_created(run_preview(patched)))


def test_two_stacks_that_select_the_same_worker_are_refused(write_stack) -> None:
    a = _stack(write_stack, "exp-a", ["t-node0", "t-node1"])
    b = _stack(write_stack, "exp-b", ["t-node1", "t-node2"])
    (problem,) = conflicts([a, b])
    assert problem.startswith("exp-a and exp-b both select worker(s) t-node1: one stack per worker")
    # On the cluster: both would create the same claim, held by different stacks; the second create fails
    # (AlreadyExists), and everything of that stack that touches a worker waits for its claims.
    claims_a = {m["metadata"]["name"]: m for m in kubernetes_manifests(run_preview(a)) if m["kind"] == "Lease"}
    claims_b = {m["metadata"]["name"]: m for m in kubernetes_manifests(run_preview(b)) if m["kind"] == "Lease"}
    assert set(claims_a) & set(claims_b) == {claim_name("t-node1")}
    assert claims_a[claim_name("t-node1")]["spec"] != claims_b[claim_name("t-node1")]["spec"]


def test_explicit_namespaces_keep_winning_and_clash_when_equal(write_stack) -> None:
    a = _stack(write_stack, "exp-a", ["t-node0", "t-node1"], **{"kubernetes.namespace": "gpu-training"})
    b = _stack(write_stack, "exp-b", ["t-node2", "t-node3"], **{"kubernetes.namespace": "gpu-training"})
    assert a.cluster.namespace == "gpu-training"
    (problem,) = conflicts([a, b])
    assert "both use namespace gpu-training" in problem
    default = load_stack(str(write_stack("d", {k: v for k, v in cluster_config().items() if k != "name_prefix"})))
    assert default.cluster.namespace == "gpu-training"  # the default prefix keeps the old default


def test_every_claimed_worker_is_claimed_before_anything_touches_it() -> None:
    preview = run_preview("h100-2n-sriov-rdma")
    leases = [r for r in preview.result.resources if r.type == "kubernetes:coordination.k8s.io/v1:Lease"]
    assert sorted(r.inputs["metadata"]["name"] for r in leases) == [
        claim_name(n) for n in preview.stack.plan.addresses.nodes
    ]
    claims = {r.urn for r in leases}
    after = transitive_dependencies(preview.document()["resources"])
    # Every cloud resource and rolling step waits for all the claims: through one gate (the stack's list of
    # its claims, made once every Lease is held), so a resource carries one dependency, not one per worker.
    (gate,) = [r for r in preview.result.resources if r.name == "gpu-claims-held"]
    assert claims <= set(gate.dependencies)
    touching = [r for r in preview.result.resources if r.type.startswith(("ibm:", "pulumi-python:dynamic"))]
    assert touching and all(claims <= after[r.urn] and gate.urn in r.dependencies for r in touching)
    assert all(not (claims & set(r.dependencies)) for r in touching)
    provider = next(r for r in preview.result.resources if r.type == "pulumi:providers:kubernetes")
    assert provider.inputs["upsertExistingObjects"] in (False, "false")


def test_sweep_up_refuses_cells_that_share_workers(tmp_path) -> None:
    base = tmp_path / "Pulumi.lab.yaml"
    base.write_text(json.dumps({"config": {"gpu-cluster:cluster": cluster_config(name_prefix="lab")}}))
    factory = FakeFactory()
    code, _, err = sweep_main(
        [
            "--profile",
            "l40s",
            "--variant",
            "pod",
            "vnic",
            "--nodes",
            "2",
            "--nics",
            "nodes",
            "--base",
            str(base),
            "--state-dir",
            str(tmp_path / "s"),
            "--ssh-key-name",
            "k",
            "--up",
        ],
        factory=factory,
    )
    assert code == 2 and factory.stacks == []
    assert "cannot be deployed side by side" in err
    assert "sweep-l40s-2n-pod and sweep-l40s-2n-vnic-2nic both select worker(s) t-node0, t-node1" in err


def test_a_cloud_only_stack_that_stops_workers_claims_them_first(write_stack) -> None:
    stack = _stack(write_stack, "cloudonly", ["gpu-3-a1b2c", "gpu-3-d3e4f"], layers="cloud", **SRIOV)
    preview = run_preview(stack)
    leases = [r for r in preview.result.resources if r.type == "kubernetes:coordination.k8s.io/v1:Lease"]
    assert sorted(r.inputs["metadata"]["name"] for r in leases) == [
        claim_name("gpu-3-a1b2c"),
        claim_name("gpu-3-d3e4f"),
    ]
    (gate,) = [r for r in preview.result.resources if r.name == "gpu-claims-held"]
    steps = [r for r in preview.result.resources if r.type.endswith(("WorkerOutOfService", "WorkerInService"))]
    assert len(steps) == 4 and all(gate.urn in r.dependencies for r in steps)
    # Nothing of the Kubernetes layer: only the claims reach the cluster.
    kinds = {
        r.inputs.get("kind")
        for r in preview.result.resources
        if r.type.startswith("kubernetes:") and r.custom and not r.type.startswith("kubernetes:coordination")
    }
    assert kinds <= {"ConfigMap"}
