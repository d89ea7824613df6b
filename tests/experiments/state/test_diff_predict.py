"""``diff``, ``predict`` and ``calibrate`` from the command line."""

from __future__ import annotations

import json
import re

import pytest

from experiments.cli.main import main
from experiments.state.diff import deep_changes

from ...conftest import PROJECT_ROOT, cluster_config, standalone_config

H100 = "gx3d-160x1792x8h100"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    # diff exits 1 when the stacks differ, like diff(1); predict and calibrate exit 0.
    assert main(list(argv)) == (1 if argv[0] == "diff" else 0)
    return json.loads(capsys.readouterr().out)


def test_diff_vnic_to_sriov_on_h100(capsys) -> None:
    result = run_json(capsys, "diff", "h100-2n-vnic", "h100-2n-sriov", "--json")
    assert set(result) == {"a", "b", "summary", "added", "removed", "changed", "hazards"}
    assert (result["a"], result["b"]) == ("h100-2n-vnic", "h100-2n-sriov")
    assert "vnic → sriov" in result["summary"] and "samples/s" in result["summary"]
    added = [u.rsplit("::", 1)[1] for u in result["added"]]
    assert "gpu-cn-network" in added and sum(n.startswith("gpu-cn-subnet") for n in added) == 8
    removed = [u.rsplit("::", 1)[1] for u in result["removed"]]
    # The adopted workers lose their child vNIC and the stack its vNIC subnet; the workers stay.
    assert sorted(n for n in removed if n.endswith("-vnic1")) == [
        "gpu-h100-study-q8wzt-gpu-3-l6gzb-vnic1",
        "gpu-h100-study-q8wzt-gpu-3-pds7f-vnic1",
        "gpu-secondary-vnic1",
    ]
    changed = {c["urn"].rsplit("::", 1)[1] for c in result["changed"]}
    assert {"gpu-fabric-nads-net1", "gpu-fabric-nic-mapping"} <= changed
    stops = [h for h in result["hazards"] if h["kind"] == "stop-instance"]
    assert len(stops) == 2 and all("wipe" in h["reason"] for h in stops)


def test_diff_factors_out_the_name_prefix(write_stack, capsys) -> None:
    a = write_stack(
        "l40s-lab", standalone_config(name_prefix="l40s-lab", **{"network.variant": "pod", "network.nics_per_node": 0})
    )
    b = write_stack(
        "h100-lab",
        standalone_config(
            name_prefix="h100-lab",
            **{"network.variant": "pod", "network.nics_per_node": 0, "nodes.profile": "gx3d-160x1792x8h100"},
        ),
    )
    result = run_json(capsys, "diff", str(a), str(b), "--json")
    for change in result["changed"]:
        for item in change["changes"]:
            assert item["path"] != "name", change
    instance = next(c for c in result["changed"] if c["urn"].endswith("gpu-node0-instance"))
    assert {"path": "profile", "before": "gx3-48x240x2l40s", "after": "gx3d-160x1792x8h100"} in instance["changes"]


def test_replace_on_change_fields_are_flagged(write_stack, capsys) -> None:
    a = write_stack("a", standalone_config())
    b = write_stack("b", standalone_config(**{"network.vpc_cidr": "10.242.0.0/16"}))
    result = run_json(capsys, "diff", str(a), str(b), "--json")
    replaced = {h["urn"].rsplit("::", 1)[1] for h in result["hazards"] if h["kind"] == "replace"}
    assert {"gpu-net-prefix", "gpu-net-mgmt", "gpu-net-vnic1", "gpu-net-vnic2"} <= replaced
    # New subnets mean new instances and attachments: the replacement cascades through the IDs.
    assert {"gpu-node0-instance", "gpu-node1-instance", "gpu-node0-vnic1", "gpu-node1-vnic2"} <= replaced
    assert "gpu-net-vpc" not in replaced


def test_deep_changes_key_named_lists_and_parse_json_strings() -> None:
    before = {
        "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "x"}],
        "config": json.dumps({"type": "host-device", "device": "ens13"}),
    }
    after = {
        "env": [{"name": "B", "value": "x"}, {"name": "A", "value": "0"}],
        "config": json.dumps({"type": "macvlan", "device": "ens13"}),
    }
    changes = {c.path: (c.before, c.after) for c in deep_changes(before, after)}
    assert changes == {"env.A.value": ("1", "0"), "config.type": ("host-device", "macvlan")}


def test_text_diff_of_identical_stacks(capsys) -> None:
    assert main(["diff", "dev", "dev"]) == 0
    assert "no differences in desired state" in capsys.readouterr().out


def test_predict_json_has_the_step_breakdown(capsys) -> None:
    result = run_json(capsys, "predict", "h100-2n-sriov-rdma", "--json")
    for key in ("samples_per_s", "step_seconds", "compute_seconds", "communication_seconds", "gpu_utilization"):
        assert isinstance(result[key], float)
    assert result["transport"] == "rdma"
    assert 30 < result["samples_per_s"] < 50  # the study measured 40.58


def test_predict_ranks_the_h100_variants_like_the_study(capsys) -> None:
    rates = {
        s: run_json(capsys, "predict", s, "--json")["samples_per_s"]
        for s in ("h100-1n", "h100-2n-pod", "h100-2n-vnic", "h100-2n-sriov")
    }
    assert rates["h100-2n-pod"] < rates["h100-2n-vnic"] < rates["h100-1n"] < rates["h100-2n-sriov"]


@pytest.mark.slow
def test_calibrate_reports_in_sample_and_leave_one_out(capsys) -> None:
    result = run_json(capsys, "calibrate", "--json")
    assert len(result["rows"]) == 12
    assert result["in_sample"]["mape_pct"] < 3.5
    assert result["leave_one_out"]["mape_pct"] < 35


def test_predict_bad_stack_exits_2(capsys) -> None:
    assert main(["predict", "nope"]) == 2
    assert "unknown stack 'nope'" in capsys.readouterr().err


def test_kubernetes_replacements_and_data_loss_are_flagged(write_stack, capsys) -> None:
    a = write_stack("a", cluster_config())
    b = write_stack(
        "b", cluster_config(**{"kubernetes.namespace": "ft-test", "job.storage.storage_class": "ocs-cephfs"})
    )
    result = run_json(capsys, "diff", str(a), str(b), "--json")
    hazards = {(h["urn"].rsplit("::", 1)[1], h["kind"]) for h in result["hazards"]}
    assert ("gpu-namespace", "replace") in hazards and ("gpu-namespace", "data-loss") in hazards
    assert ("gpu-training-storage", "data-loss") in hazards
    assert ("gpu-fabric-nads-net1", "replace") in hazards
    layers = {c["urn"].rsplit("::", 1)[1]: c["layer"] for c in result["changed"]}
    assert layers["gpu-fabric-nads-net1"] == "kubernetes network"
    assert layers["gpu-training-storage"] == "workload"


def test_prediction_follows_the_job_settings(write_stack, capsys) -> None:
    base = {"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma", "network.nics_per_node": 1}
    full = run_json(capsys, "predict", str(write_stack("a", cluster_config(**base))), "--json")
    two_gpus = run_json(
        capsys, "predict", str(write_stack("b", cluster_config(**base, **{"job.nproc_per_node": 2}))), "--json"
    )
    assert two_gpus["samples_per_s"] < full["samples_per_s"] / 2


def test_predict_refuses_what_the_model_does_not_cover(write_stack, capsys) -> None:
    path = write_stack("c", cluster_config(**{"job.training.fsdp_sharding_strategy": "FULL_SHARD"}))
    assert main(["predict", str(path)]) == 2
    assert "covers FSDP HYBRID_SHARD" in capsys.readouterr().err


def test_predict_refuses_one_gpu_per_node_on_several_nodes(write_stack, capsys) -> None:
    # The lab's one-GPU proofs sent no gradient between their nodes: FSDP1's fallback (docs/lab.md).
    base = {"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov", "network.nics_per_node": 1}
    path = write_stack("d", cluster_config(**base, **{"job.nproc_per_node": 1}))
    assert main(["predict", str(path)]) == 2
    err = capsys.readouterr().err
    assert "HYBRID_SHARD with one GPU per node on 2 nodes never all-reduces the gradients" in err
    assert "pytorch/pytorch#154888" in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_string_lists_change_as_whole_lists_and_read_as_gone_and_came(capsys) -> None:
    result = run_json(capsys, "diff", "h100-2n-sriov", "h100-2n-sriov-rdma", "--json")
    scc = next(c for c in result["changed"] if c["urn"].endswith("gpu-training-scc"))
    assert {"path": "allowedCapabilities", "before": ["NET_ADMIN"], "after": ["IPC_LOCK", "NET_ADMIN"]} in scc[
        "changes"
    ]
    assert main(["diff", "h100-2n-sriov", "h100-2n-sriov-rdma"]) == 1
    assert 'allowedCapabilities: -[] +["IPC_LOCK"]' in capsys.readouterr().out


def test_diff_reports_both_bad_stacks(write_stack, capsys) -> None:
    a = write_stack("a", cluster_config(**{"network.variant": "sriov", "network.nics_per_node": 1}))
    b = write_stack("b", cluster_config(**{"nodes.count": 0}))
    assert main(["diff", str(a), str(b)]) == 2
    err = capsys.readouterr().err
    assert (
        "Pulumi.a.yaml: gpu-cluster:cluster.network.variant" in err
        and "Pulumi.b.yaml: gpu-cluster:cluster.nodes.count" in err
    )


def _doc_hazards() -> list[str]:
    """The hazard lines docs/comparing.md quotes in its prose (``! [kind] urn: reason``), joined across lines."""
    prose = " ".join((PROJECT_ROOT / "docs" / "comparing.md").read_text().split())
    return re.findall(r"`(! \[[a-z-]+\] [^`]+)`", prose)


def test_the_hazard_lines_docs_comparing_quotes_are_what_the_diff_prints(write_stack, capsys) -> None:
    quoted = _doc_hazards()
    assert len(quoted) == 2, quoted
    assert main(["diff", "h100-2n-vnic", "h100-2n-sriov"]) == 1
    adopted = [line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("  ! [")]
    a = write_stack("own-l40s", standalone_config(**{"network.variant": "pod", "network.nics_per_node": 0}))
    b = write_stack(
        "own-h100",
        standalone_config(**{"network.variant": "pod", "network.nics_per_node": 0, "nodes.profile": H100}),
    )
    assert main(["diff", str(a), str(b)]) == 1
    own = [line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("  ! [")]
    for quote, printed in zip(quoted, (adopted, own), strict=True):
        assert any(line.startswith(quote) for line in printed), (quote, printed)
