"""The order the engine will follow, read from the dependencies the shipped sriov stacks record
(``RecordedResource.dependencies``: ``depends_on`` and the resources inputs come from)."""

from __future__ import annotations

import pytest

from experiments.offline.engine import RecordedResource
from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import run_preview

from .conftest import sriov_cluster

SHIPPED_ADOPTING_SRIOV = [s for s in known_stacks() if "sriov" in s and load_stack(s).cluster.nodes.source == "adopt"]


def ancestors(resources: list[RecordedResource], urn: str) -> set[str]:
    """Everything ``urn`` waits for, directly or through what it waits for."""
    by_urn = {r.urn: r for r in resources}
    seen: set[str] = set()
    todo = list(by_urn[urn].dependencies)
    while todo:
        dep = todo.pop()
        if dep not in seen:
            seen.add(dep)
            todo.extend(by_urn[dep].dependencies if dep in by_urn else ())
    return seen


def named(resources: list[RecordedResource], suffix: str) -> RecordedResource:
    (found,) = [r for r in resources if r.name.endswith(suffix)]
    return found


def test_the_shipped_sriov_stacks_are_covered() -> None:
    assert SHIPPED_ADOPTING_SRIOV == ["h100-2n-sriov", "h100-2n-sriov-rdma"]


@pytest.mark.parametrize("stack", SHIPPED_ADOPTING_SRIOV)
def test_each_stop_waits_for_its_addresses_and_the_previous_worker_back(stack: str) -> None:
    preview = run_preview(stack)
    resources = preview.result.resources
    workers = list(preview.stack.plan.addresses.nodes)
    subnets = {r.urn for r in resources if r.type.endswith(":IsClusterNetworkSubnet")}
    assert len(workers) == 2 and len(subnets) == 8
    for k, worker in enumerate(workers):
        stop = named(resources, f"{worker}-out-of-service")
        before_stop = ancestors(resources, stop.urn)
        reserved = {
            r.urn
            for r in resources
            if r.type.endswith(":IsClusterNetworkSubnetReservedIp") and r.name.startswith(f"gpu-{worker}-cnic")
        }
        assert len(reserved) == 8 and reserved | subnets <= before_stop
        back = named(resources, f"{worker}-in-service")
        attachments = {
            r.urn
            for r in resources
            if r.type.endswith(":IsInstanceClusterNetworkAttachment") and r.name.startswith(f"gpu-{worker}-cnic")
        }
        assert attachments <= ancestors(resources, back.urn)  # through the chain: the last one is waited for
        assert all(stop.urn in ancestors(resources, a) for a in attachments)
        if k:
            previous_back = named(resources, f"{workers[k - 1]}-in-service")
            assert previous_back.urn in stop.dependencies  # worker k+1 stops only once worker k is back
        else:
            assert not any(
                r.name.endswith("-in-service")
                for r in map({r.urn: r for r in resources}.get, before_stop)
                if r is not None
            )


def test_the_rolling_steps_get_the_api_key_and_kubeconfig_only_as_secrets(write_stack) -> None:
    secret = {"secure": "v1:c2VjcmV0LW5vdC1kZWNyeXB0YWJsZS1oZXJl"}
    path = write_stack(
        "secrets", sriov_cluster(1), extra={"gpu-cluster:ibmcloudApiKey": secret, "gpu-cluster:kubeconfig": secret}
    )
    steps = [
        r
        for r in run_preview(load_stack(str(path))).result.resources
        if r.type.rsplit(":", 1)[-1] in ("WorkerOutOfService", "WorkerInService")
    ]
    assert len(steps) == 2
    for step in steps:
        assert step.inputs["ibm_api_key"] == step.inputs["kubeconfig"] == step.inputs["__provider"] == "[secret]"


def test_destroy_keeps_the_training_claim_and_its_namespace() -> None:
    resources = run_preview(load_stack("h100-2n-sriov-rdma")).result.resources
    kept = sorted(
        r.inputs["kind"] if "kind" in r.inputs else r.type.rsplit(":", 1)[-1] for r in resources if r.retain_on_delete
    )
    assert kept == ["Namespace", "PersistentVolumeClaim"]


@pytest.mark.parametrize("stack", ["h100-2n-sriov", "l40s-2n-vnic"])
def test_the_selected_workers_are_a_stack_output_and_guarded(stack: str) -> None:
    preview = run_preview(load_stack(stack))
    workers = list(preview.stack.plan.addresses.nodes)
    assert preview.result.outputs["adoptedWorkers"] == workers
    (selection,) = [r for r in preview.result.resources if r.type.endswith(":WorkerSelection")]
    assert selection.inputs["workers"] == workers and selection.inputs["allow_change"] is False
    # Nothing touches a worker before the selection is checked.
    first_changes = [
        r
        for r in preview.result.resources
        if r.name.endswith(("-out-of-service", "-vnic1"))
        and r.type.startswith(("pulumi-python:", "ibm:index/isInstanceNetworkInterface"))
    ]
    assert first_changes and all(selection.urn in r.dependencies for r in first_changes)


@pytest.mark.slow
def test_a_long_rolling_lane_previews_without_hitting_the_recursion_limit(tmp_path) -> None:
    """A lane of n workers is a dependency chain the SDK's cycle check walks recursively at every
    registration, some 7 frames a worker: past Python's default limit of 1,000 from about 140 workers.
    Shown at a smaller scale (40 workers against a limit of 250, which they exceed) to keep the test short."""
    import sys

    import yaml

    from experiments.stacks.stackfile import load_stack
    from experiments.state.preview import run_preview

    cluster = {
        "name_prefix": "lane",
        "zone": "us-east-3",
        "openshift": {"infra_id": "lane-q8wzt"},
        "nodes": {"source": "adopt", "machineset": "lane-q8wzt-gpu-3", "profile": "gx3d-160x1792x8h100", "count": 40},
        "network": {"variant": "sriov-rdma", "nics_per_node": 1},
    }
    stack = tmp_path / "Pulumi.lane.yaml"
    stack.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": cluster}}))
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(250)
        preview = run_preview(load_stack(str(stack)))
    finally:
        sys.setrecursionlimit(limit)
    assert len(preview.stack.plan.stops) == 40 and preview.stack.plan.stops[-1].after is not None
    assert sum(r.name.endswith("-out-of-service") for r in preview.result.resources) == 40
