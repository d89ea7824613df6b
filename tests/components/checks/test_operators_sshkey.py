"""Objects the operators act on, and SSH keys IBM accepts: rules read from the operators' and IBM's behaviour."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from experiments.base.paths import PROJECT_ROOT
from experiments.cli.main import main
from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import run_preview

from ...conftest import cluster_config, standalone_config
from ...manifests import validate_manifest

H100_RDMA = {"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma", "network.nics_per_node": 1}


def preview_error(capsys: pytest.CaptureFixture[str], path: Path, out: Path) -> str:
    assert main(["preview", str(path), "--out", str(out)]) == 2
    assert not out.exists()
    return capsys.readouterr().err


def test_a_nic_cluster_policy_under_another_name_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack("bad", cluster_config(**H100_RDMA, **{"fabric.rdma.policy_name": "my-policy"}))
    err = preview_error(capsys, path, tmp_path / "out")
    assert (
        "gpu-cluster:cluster.fabric.rdma.policy_name: the NVIDIA network operator reconciles only the "
        "NicClusterPolicy named nic-cluster-policy" in err
    )


def test_peermem_without_a_mofed_driver_container_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack("bad", cluster_config(**H100_RDMA, **{"fabric.node_prep.gpudirect_rdma": "peermem"}))
    err = preview_error(capsys, path, tmp_path / "out")
    assert (
        "gpu-cluster:cluster.fabric.node_prep.gpudirect_rdma: peermem without host_mofed waits for the "
        "network operator's MOFED driver container" in err
    )
    assert "fabric.rdma.ofed_driver.version" in err and "dma-buf" in err
    # What actually stalls (k8s-driver-manager's waitForMofedDriver): the whole GPU driver, not only peermem.
    assert "the GPU driver pod would never leave its init container on nodes with Mellanox NICs" in err


def test_peermem_with_the_sriov_operator_gets_a_policy_that_only_deploys_the_driver(write_stack) -> None:
    # The SR-IOV operator attaches the VFs and its device plugin mounts the RDMA devices: no device
    # plugin section, yet peermem still needs the network operator's MOFED container.
    cluster = cluster_config(
        **H100_RDMA,
        **{
            "fabric.attachment": "sriov-operator",
            "fabric.node_prep.gpudirect_rdma": "peermem",
            "fabric.rdma.ofed_driver": {"version": "doca3.4.1-26.04-1.1.0.0-1"},
        },
    )
    resources = run_preview(load_stack(str(write_stack("ok", cluster)))).result.resources
    (policy,) = [r.inputs for r in resources if r.type == "kubernetes:mellanox.com/v1alpha1:NicClusterPolicy"]
    assert policy["metadata"]["name"] == "nic-cluster-policy"
    assert policy["spec"] == {
        "ofedDriver": {
            "image": "doca-driver",
            "repository": "nvcr.io/nvidia/mellanox",
            "version": "doca3.4.1-26.04-1.1.0.0-1",
        }
    }
    assert validate_manifest({k: policy[k] for k in ("apiVersion", "kind", "metadata", "spec")}) == []


@pytest.mark.parametrize(
    "extra",
    [
        {"fabric.node_prep.host_mofed": True},
        {"fabric.rdma.nic_cluster_policy": "patch"},
        {"fabric.rdma.ofed_driver": {"version": "25.04-0.6.1.0-2"}},
    ],
)
def test_peermem_is_accepted_where_mofed_comes_from_somewhere(write_stack, extra) -> None:
    cluster = cluster_config(**H100_RDMA, **{"fabric.node_prep.gpudirect_rdma": "peermem"}, **extra)
    manifests = run_preview(load_stack(str(write_stack("ok", cluster)))).result.resources
    (policy,) = [r.inputs for r in manifests if "NicClusterPolicy" in r.type]
    assert policy["metadata"]["name"] == "nic-cluster-policy"
    assert ("ofedDriver" in policy["spec"]) == ("fabric.rdma.ofed_driver" in extra)


def test_ofed_driver_is_only_for_rdma(write_stack, capsys, tmp_path) -> None:
    path = write_stack("bad", cluster_config(**{"fabric.rdma.ofed_driver": {"version": "x"}}))
    assert "gpu-cluster:cluster.fabric.rdma.ofed_driver: the MOFED driver container serves RDMA NICs" in preview_error(
        capsys, path, tmp_path / "out"
    )


def test_an_existing_ssh_key_replaces_the_created_one(write_stack, tmp_path) -> None:
    path = write_stack("shared", standalone_config(**{"security.ssh_key_name": "team-key"}))
    resources = run_preview(load_stack(str(path))).result.resources
    assert not [r for r in resources if r.type == "ibm:index/isSshKey:IsSshKey"]
    instances = [r for r in resources if r.type == "ibm:index/isInstance:IsInstance"]
    keys = {json.dumps(r.inputs["keys"]) for r in instances}
    assert len(instances) == 2 and len(keys) == 1 and json.loads(keys.pop())[0].startswith("r0")


def test_a_public_key_beside_an_existing_key_name_is_refused(write_stack, capsys, tmp_path) -> None:
    path = write_stack(
        "both",
        cluster_config(**{"security.ssh_key_name": "team-key"}),
        extra={"gpu-cluster:sshPublicKey": {"secure": "v1:abc"}},
    )
    err = preview_error(capsys, path, tmp_path / "out")
    assert (
        "gpu-cluster:sshPublicKey: unused, because gpu-cluster:cluster.security.ssh_key_name names an existing key"
        in err
    )


def test_an_unqualified_public_key_beside_an_existing_key_name_is_refused(write_stack, capsys, tmp_path) -> None:
    # Stack files may spell project keys without the namespace (`sshPublicKey:`); the rule must see it.
    path = write_stack(
        "both", cluster_config(**{"security.ssh_key_name": "team-key"}), extra={"sshPublicKey": {"secure": "v1:abc"}}
    )
    err = preview_error(capsys, path, tmp_path / "out")
    assert err.strip().splitlines() == [
        f"error: {path}: gpu-cluster:sshPublicKey: unused, because gpu-cluster:cluster.security.ssh_key_name "
        "names an existing key; remove one of them"
    ]


def test_the_shipped_stacks_use_distinct_ibm_name_prefixes() -> None:
    # IBM names are unique per account and region: two stacks with one prefix would fight over them.
    prefixes: dict[str, list[str]] = {}
    for stack in known_stacks(PROJECT_ROOT):
        text = yaml.safe_load((PROJECT_ROOT / f"Pulumi.{stack}.yaml").read_text())
        prefix = text["config"]["gpu-cluster:cluster"].get("name_prefix", "gpu")
        prefixes.setdefault(prefix, []).append(stack)
    assert {p: s for p, s in prefixes.items() if len(s) > 1} == {}
