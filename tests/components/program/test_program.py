"""The whole program per stack: layers, and every rendered Kubernetes object against its schema."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import kubernetes_manifests, run_preview, write_preview

from ...conftest import PROJECT_ROOT, cluster_config, standalone_config
from ...manifests import validate_manifest


@pytest.mark.parametrize("stack", known_stacks(PROJECT_ROOT))
def test_every_stack_renders_valid_manifests(stack: str) -> None:
    manifests = kubernetes_manifests(run_preview(stack))
    kinds = {m["kind"] for m in manifests}
    assert {"Namespace", "ConfigMap", "PyTorchJob"} <= kinds
    for manifest in manifests:
        errors = validate_manifest(manifest)
        assert not errors, (manifest["kind"], manifest["metadata"]["name"], errors)


def test_manifests_directory_has_one_file_per_object(tmp_path: Path) -> None:
    preview = run_preview("h100-2n-sriov-rdma")
    write_preview(preview, tmp_path)
    files = sorted(p.name for p in (tmp_path / "manifests").glob("*.yaml"))
    assert len(files) == len(kubernetes_manifests(preview))
    assert "pytorchjob_h100-2n-sriov-rdma-training_ilab.yaml" in files
    assert "nicclusterpolicy_cluster-scoped_nic-cluster-policy.yaml" in files
    job = yaml.safe_load((tmp_path / "manifests" / "pytorchjob_h100-2n-sriov-rdma-training_ilab.yaml").read_text())
    assert job["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"] == 1
    assert not validate_manifest(job)


def test_cloud_only_stack_declares_no_kubernetes_objects(write_stack) -> None:
    stack = load_stack(str(write_stack("t", standalone_config())))
    resources = run_preview(stack).result.resources
    assert not [r for r in resources if r.type.startswith(("kubernetes:", "pulumi:providers:kubernetes"))]
    assert [r for r in resources if r.type == "ibm:index/isInstance:IsInstance"]


def test_kubernetes_only_stack_takes_the_inventory_from_config(write_stack) -> None:
    nodes = [
        {
            "name": f"worker-{i}",
            "nics": [
                {"index": 0, "role": "primary", "subnet": "10.249.64.0/24", "ip": f"10.249.64.{10 + i}"},
                {"index": 1, "role": "vnic", "subnet": "10.249.65.0/24", "ip": f"10.249.65.{10 + i}"},
            ],
        }
        for i in range(2)
    ]
    cluster = cluster_config(layers="kubernetes", **{"network.nics_per_node": 1, "kubernetes.nodes": nodes})
    preview = run_preview(load_stack(str(write_stack("t", cluster))))
    assert not [r for r in preview.result.resources if r.type.startswith("ibm:")]
    mapping = next(
        m
        for m in kubernetes_manifests(preview)
        if m["kind"] == "ConfigMap" and m["metadata"]["name"] == "t-training-nic-mapping"
    )
    assert mapping["data"]["nodename_ip_mapping.yaml"].split() == [
        "worker-0:ens13:net1:10.249.65.10",
        "worker-1:ens13:net1:10.249.65.11",
    ]
    assert preview.result.outputs["nodes"] == ["worker-0", "worker-1"]


def test_kubeconfig_secret_is_masked(write_stack) -> None:
    path = write_stack("t", cluster_config(), extra={"gpu-cluster:kubeconfig": {"secure": "v1:abc"}})
    preview = run_preview(load_stack(str(path)))
    provider = next(r for r in preview.result.resources if r.type == "pulumi:providers:kubernetes")
    assert provider.inputs["kubeconfig"] == "[secret]"


def test_manifest_files_are_byte_identical_across_runs(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    write_preview(run_preview("h100-2n-sriov-rdma"), first)
    write_preview(run_preview("h100-2n-sriov-rdma"), second)
    for path in (first / "manifests").glob("*.yaml"):
        text = path.read_text()
        assert text == (second / "manifests" / path.name).read_text(), path.name
        assert text.startswith("apiVersion: "), path.name
        assert _keys_sorted(yaml.safe_load(text)["metadata"]), path.name
        body = {k: v for k, v in yaml.safe_load(text).items() if k not in ("apiVersion", "kind", "metadata")}
        assert _keys_sorted(body), path.name


def _keys_sorted(value: object) -> bool:
    """Every mapping's keys in sorted order, recursively (the engine's own order varies by run)."""
    if isinstance(value, dict):
        return list(value) == sorted(value) and all(_keys_sorted(v) for v in value.values())
    if isinstance(value, list):
        return all(_keys_sorted(v) for v in value)
    return True
