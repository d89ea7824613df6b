"""Previews with the real engine's unknowns (``run_offline(unknowns=True)``): what a provider computes is unknown,
as in ``pulumi preview``, and the program must still run, and send no Output or unknown text anywhere, and every
Kubernetes object it declares must be known whole (it is built from the plan)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pulumi
import pulumi_ibm as ibm
import pulumi_kubernetes as k8s
import pytest
from pulumi.runtime import rpc

from experiments.offline.engine import UNKNOWN_MASK, run_offline
from experiments.stacks.stackfile import known_stacks, load_stack
from experiments.state.preview import Preview, kubernetes_manifests, run_preview

from ...conftest import cluster_config, standalone_config

H100 = "gx3d-160x1792x8h100"
OUTPUT_TEXT = ("Output[", "pulumi.output", "<pulumi.", "Calling __str__ on an Output", rpc.UNKNOWN)
"""What a value shows when an Output or an unknown was turned into text (an f-string, ``str()``, a JSON dump)."""


def _leaves(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    else:
        yield path, value


def problems(preview: Preview) -> list[str]:
    """Every Output or unknown turned into text, in any input or stack output; every unknown in a manifest."""
    found = []
    for resource in preview.result.resources:
        for path, value in _leaves(resource.inputs):
            if isinstance(value, str) and any(text in value for text in OUTPUT_TEXT):
                found.append(f"{resource.name}{path}: {value[:80]}")
    for path, value in _leaves(preview.result.outputs):
        if isinstance(value, str) and any(text in value for text in OUTPUT_TEXT):
            found.append(f"output {path}: {value[:80]}")
    for manifest in kubernetes_manifests(preview):
        for path, value in _leaves(manifest):
            if value == UNKNOWN_MASK or (isinstance(value, str) and any(text in value for text in OUTPUT_TEXT)):
                found.append(f"{manifest['kind']} {manifest['metadata'].get('name')}{path}: {str(value)[:80]}")
    return found


@pytest.mark.parametrize("stack", known_stacks())
def test_every_shipped_stack_previews_under_unknowns(stack: str) -> None:
    preview = run_preview(stack, unknowns=True)
    assert problems(preview) == []
    # The NIC inventory comes from the plan: known in a real preview too.
    nics = preview.result.outputs["nics"]
    assert nics and all(n["subnet_cidr"] != UNKNOWN_MASK and n["ip"] != UNKNOWN_MASK for n in nics)


def test_the_join_stack_knows_no_instance_id_nor_primary_address_before_up() -> None:
    """The join stack's instances are created: their IDs and the addresses IBM picks are unknown in a preview
    (the program once read ``nic.primary_ip.address`` of a block whose ``primary_ip`` IBM fills in, and crashed)."""
    preview = run_preview("h100-2n-sriov-rdma-join", unknowns=True)
    outputs = preview.result.outputs
    assert outputs["instanceIds"] == [UNKNOWN_MASK, UNKNOWN_MASK]
    assert {node["addresses"] for node in outputs["joinNodes"].values()} == {UNKNOWN_MASK}
    instances = [r for r in preview.result.resources if r.type == "ibm:index/isInstance:IsInstance"]
    assert len(instances) == 2 and all(r.id is None for r in instances)
    # The same stack with the simulated provider's answers knows them (the default mode).
    known = run_preview("h100-2n-sriov-rdma-join").result.outputs
    assert UNKNOWN_MASK not in json.dumps(known["instanceIds"]) + json.dumps(known["joinNodes"])


GENERATED = {
    **{
        f"{source}-{variant}": config
        for variant in ("pod", "vnic", "sriov", "sriov-rdma")
        for source, config in (
            (
                "adopt",
                cluster_config(
                    **{"network.variant": variant},
                    **({"nodes.profile": H100} if variant.startswith("sriov") else {}),
                    **({"network.nics_per_node": 0} if variant == "pod" else {}),
                ),
            ),
            (
                "join",
                cluster_config(
                    **{
                        "nodes.source": "join",
                        "nodes.names": ...,
                        "nodes.allow_instance_stop": ...,
                        "nodes.join": {},
                        "network.variant": variant,
                    },
                    **({"nodes.profile": H100} if variant.startswith("sriov") else {}),
                    **({"network.nics_per_node": 0} if variant == "pod" else {}),
                ),
            ),
            (
                "standalone",
                standalone_config(
                    **{"network.variant": variant},
                    **({"nodes.profile": H100} if variant.startswith("sriov") else {}),
                    **({"network.nics_per_node": 0} if variant == "pod" else {}),
                ),
            ),
        )
    },
}
GENERATED["kubernetes-only-vnic"] = cluster_config(
    layers="kubernetes",
    **{
        "network.nics_per_node": 1,
        "kubernetes.nodes": [
            {
                "name": f"worker-{i}",
                "nics": [
                    {"index": 0, "role": "primary", "subnet": "10.249.64.0/24", "ip": f"10.249.64.{10 + i}"},
                    {"index": 1, "role": "vnic", "subnet": "10.249.65.0/24", "ip": f"10.249.65.{10 + i}"},
                ],
            }
            for i in range(2)
        ],
    },
)
FAST = ("join-vnic", "standalone-sriov-rdma")
"""In the fast suite: a created instance with a secondary NIC, a whole VPC with a cluster network."""


@pytest.mark.parametrize(
    "case", [c if c in FAST else pytest.param(c, marks=pytest.mark.slow) for c in sorted(GENERATED)]
)
def test_generated_stacks_of_every_source_and_variant_preview_under_unknowns(case: str, write_stack: Any) -> None:
    stack = load_stack(str(write_stack(case, GENERATED[case])))
    preview = run_preview(stack, unknowns=True)
    assert problems(preview) == []
    assert preview.result.resources


def test_what_a_provider_computes_is_unknown_and_reads_and_invokes_are_known() -> None:
    def program() -> dict[str, Any]:
        image = ibm.get_is_image_output(name="ibm-ubuntu-24-04")
        instance = ibm.IsInstance(
            "node",
            name="node",
            image=image.id,
            profile="gx3-48x240x2l40s",
            vpc="r014-vpc",
            zone="us-east-3",
            keys=["r014-key"],
            primary_network_interface=ibm.IsInstancePrimaryNetworkInterfaceArgs(subnet="0757-subnet"),
        )
        config_map = k8s.core.v1.ConfigMap("map", metadata={"name": "map", "namespace": "ns"}, data={"a": "b"})
        reference = pulumi.StackReference("organization/gpu-cluster/other")
        return {
            "image": image.id,
            "id": instance.id,
            "crn": instance.crn,
            "status": instance.status,
            "subnet": instance.primary_network_interface.subnet,
            "address": instance.primary_network_interface.primary_ip.address,
            "whole_nic_apply": instance.primary_network_interface.apply(lambda nic: "ran"),
            "map_name": config_map.metadata.name,
            "map_uid": config_map.metadata.uid,
            "map_id": config_map.id,
            "reference": reference.outputs,
        }

    def run(unknowns: bool) -> dict[str, Any]:
        return run_offline(program, project="p", stack="s", config={}, unknowns=unknowns).outputs

    known = run(False)
    assert UNKNOWN_MASK not in json.dumps(known)
    assert known["whole_nic_apply"] == "ran"
    previewed = run(True)
    unknown = {k for k, v in previewed.items() if v == UNKNOWN_MASK}
    assert unknown == {"id", "crn", "status", "address", "whole_nic_apply", "map_uid", "map_id"}
    # An invoke, an input echoed, a name the program gave, a read: known.
    assert previewed["image"] == known["image"] and previewed["subnet"] == "0757-subnet"
    assert previewed["map_name"] == "map" and previewed["reference"] == {}


def test_the_preview_verb_shows_unknowns_on_request(tmp_path: Any) -> None:
    from experiments.cli.main import main

    assert main(["preview", "h100-2n-sriov-rdma-join", "--unknowns", "--out", str(tmp_path)]) == 0
    document = json.loads((tmp_path / "preview.json").read_text())
    assert document["outputs"]["instanceIds"] == [UNKNOWN_MASK, UNKNOWN_MASK]
    assert main(["preview", "h100-2n-sriov-rdma-join", "--out", str(tmp_path)]) == 0  # the default: simulated
    assert UNKNOWN_MASK not in json.dumps(json.loads((tmp_path / "preview.json").read_text())["outputs"]["instanceIds"])
