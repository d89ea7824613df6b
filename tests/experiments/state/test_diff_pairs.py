"""Issue 17 item 8: `diff` between any two shipped stacks, and replacements that IBM really makes."""

from __future__ import annotations

import itertools
import json

import pytest

from experiments.cli.main import main
from experiments.stacks.stackfile import known_stacks
from experiments.state import diff as diff_module
from experiments.state import preview as preview_module

from ...conftest import cluster_config

H100 = "gx3d-160x1792x8h100"


@pytest.mark.slow
def test_every_ordered_pair_of_shipped_stacks_diffs_without_a_traceback(monkeypatch, capsys) -> None:
    # Each stack is rendered once (a diff renders both sides): 14 previews instead of 364.
    render, cache = preview_module.run_preview, {}

    def cached(stack):  # noqa: ANN001, ANN202
        key = (stack.name, json.dumps(stack.engine_config, sort_keys=True))
        if key not in cache:
            cache[key] = render(stack)
        return cache[key]

    monkeypatch.setattr(diff_module, "cached_previews", lambda a, b, renders: (cached(a), cached(b)))
    stacks = known_stacks()
    assert len(stacks) == 14
    for a, b in itertools.permutations(stacks, 2):
        code = main(["diff", a, b, "--no-cache"])  # every render through cached_previews, counted here
        out = capsys.readouterr().out
        assert code == 1, (a, b)  # every two shipped stacks differ
        assert out.startswith(f"{a} → {b}") and "hazards:" in out, (a, b)
    assert len(cache) == len(stacks)
    for stack in stacks:
        assert main(["diff", stack, stack, "--no-cache"]) == 0
        assert "no differences in desired state" in capsys.readouterr().out


@pytest.mark.slow
def test_pairs_across_profile_and_node_source_read_the_node_changes(capsys) -> None:
    assert main(["diff", "dev", "h100-2n-sriov-rdma-join", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    changes = {(h["urn"], h["reason"].split(" (")[0]) for h in result["hazards"] if h["kind"] == "node-change"}
    assert ("h100-study-q8wzt-h100-join-1", "gains the stack's NICs") in changes
    assert ("mini-scale-cjzbq-l40s-3-4k44l", "loses the stack's NICs") in changes
    assert main(["diff", "l40s-2n-vnic", "h100-2n-sriov-rdma"]) == 1
    text = capsys.readouterr().out
    assert "! [node-change] h100-study-q8wzt-gpu-3-l6gzb: gains the stack's NICs" in text


def _replaced(capsys, write_stack, before: dict, after: dict) -> set[str]:
    a, b = write_stack("a", cluster_config(**before)), write_stack("b", cluster_config(**after))
    assert main(["diff", str(a), str(b), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    return {h["urn"].rsplit("::", 1)[1] for h in result["hazards"] if h["kind"] == "replace"}


def test_a_child_nic_subnet_change_replaces_the_child_nics(write_stack, capsys) -> None:
    replaced = _replaced(capsys, write_stack, {}, {"network.vpc_cidr": "10.241.208.0/20"})
    # New vNIC subnets, hence new child network interfaces (instance, subnet and address force new).
    assert {"gpu-secondary-vnic1", "gpu-secondary-vnic2"} <= replaced
    assert {"gpu-t-node0-vnic1", "gpu-t-node0-vnic2", "gpu-t-node1-vnic1", "gpu-t-node1-vnic2"} <= replaced


def test_a_cluster_subnet_change_replaces_reserved_ips_and_attachments(write_stack, capsys) -> None:
    sriov = {"nodes.profile": H100, "network.variant": "sriov-rdma", "network.nics_per_node": 1}
    replaced = _replaced(capsys, write_stack, sriov, {**sriov, "network.cluster_network_cidr": "10.1.0.0/16"})
    for worker in ("t-node0", "t-node1"):
        for nic in range(1, 9):
            # The reserved IP's address and subnet force a new one; the attachment's cluster NIC is never
            # updated by the provider, so it is replaced too.
            assert {f"gpu-{worker}-cnic{nic}-ip", f"gpu-{worker}-cnic{nic}"} <= replaced
    assert {f"gpu-cn-subnet{k}" for k in range(1, 9)} <= replaced and "gpu-cn-network" in replaced


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        ("IsInstanceNetworkInterface", "primaryIp.address"),
        ("IsInstanceNetworkInterface", "subnet"),
        ("IsClusterNetworkSubnetReservedIp", "clusterNetworkSubnetId"),
        ("IsInstanceClusterNetworkAttachment", "instanceId"),
        ("IsInstanceClusterNetworkAttachment", "clusterNetworkInterface"),
    ],
)
def test_replace_rules_cover_the_kinds_the_issue_names(kind: str, path: str) -> None:
    from experiments.offline.ibm_rules import REPLACE_ON_CHANGE

    assert path in REPLACE_ON_CHANGE[kind]


def test_the_ibm_replace_table_is_the_provider_schema_s_force_new() -> None:
    """experiments/offline/ibm_force_new.json is generated (tools/extract_ibm_reference.py, its table in
    tools/ibm_reference_tables.py), never hand-edited: it must be
    exactly the ForceNew inputs of the schema fixture, for every IBM kind the stacks use."""
    import importlib.util
    import sys
    from pathlib import Path

    from experiments.offline.ibm_rules import NOT_APPLIED_ON_UPDATE, REPLACE_ON_CHANGE

    root = Path(__file__).resolve().parents[3]
    spec = importlib.util.spec_from_file_location("ibm_reference_tables", root / "tools" / "ibm_reference_tables.py")
    assert spec is not None and spec.loader is not None
    extractor = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = extractor  # its dataclasses look their module up
    try:
        spec.loader.exec_module(extractor)
    finally:
        del sys.modules[spec.name]
    fixture = json.loads((root / "tests" / "fixtures" / "ibm_reference.json").read_text(encoding="utf-8"))
    table_file = root / "experiments" / "offline" / "ibm_force_new.json"
    table = json.loads(table_file.read_text(encoding="utf-8"))["force_new"]
    assert table == extractor.force_new_table(fixture)
    for kind, paths in table.items():
        assert set(paths) <= set(REPLACE_ON_CHANGE[kind])
    assert set(NOT_APPLIED_ON_UPDATE) <= set(REPLACE_ON_CHANGE)
    # Every IBM kind a shipped stack declares has the schema's rules (golden keys carry each type chain).
    chains = [
        urn.split("::")[1]
        for stack in known_stacks()
        for urn in json.loads((root / "tests" / "golden" / f"{stack}.json").read_text())["resources"]
    ]
    tokens = {chain.rsplit("$", 1)[-1] for chain in chains}
    used = {token.rsplit(":", 1)[-1] for token in tokens if token.startswith("ibm:")}
    assert used and used <= set(table), used - set(table)


def test_rules_reach_into_lists_of_named_items(write_stack, capsys) -> None:
    # A joining instance carries its child NICs in `networkInterfaces` (a list the diff keys by NIC name):
    # `networkInterfaces.subnet` is ForceNew on the instance, so a new vNIC range replaces the instance.
    join = {"nodes.source": "join", "nodes.names": ..., "nodes.join": {}, "nodes.allow_instance_stop": ...}
    replaced = _replaced(capsys, write_stack, join, {**join, "network.vpc_cidr": "10.241.208.0/20"})
    # (join nodes are named after the prefix, which the diff renders under its neutral one)
    assert {n for n in replaced if n.endswith("-instance")} == {
        "gpu-fingerprint-neutral-prefix-node0-instance",
        "gpu-fingerprint-neutral-prefix-node1-instance",
    }


def test_a_bigger_claim_is_expanded_in_place_a_new_class_replaces_it(write_stack, capsys) -> None:
    a, b = write_stack("a", cluster_config()), write_stack("b", cluster_config(**{"job.storage.size": "400Gi"}))
    assert main(["diff", str(a), str(b), "--json"]) == 1
    hazards = {(h["urn"].rsplit("::", 1)[1], h["kind"]) for h in json.loads(capsys.readouterr().out)["hazards"]}
    assert not {h for h in hazards if h[0] == "gpu-training-storage"}  # pulumi-kubernetes patches the size
    c = write_stack("c", cluster_config(**{"job.storage.access_mode": "ReadWriteOnce", "nodes.count": 1}))
    assert main(["diff", str(write_stack("d", cluster_config(**{"nodes.count": 1}))), str(c), "--json"]) == 1
    hazards = {(h["urn"].rsplit("::", 1)[1], h["kind"]) for h in json.loads(capsys.readouterr().out)["hazards"]}
    assert {("gpu-training-storage", "replace"), ("gpu-training-storage", "data-loss")} <= hazards
