"""Issue 17 items 6 and 7: a stack that stops workers previews them, in order, and `pulumi up` refuses
until the stack opts in; an offline preview says first what it simulated, and preview.json records
every resource's dependencies."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from components import pulumi_program
from components.models.config import PROJECT
from experiments.cli.main import main
from experiments.offline.engine import run_offline
from experiments.stacks.stackfile import StackFile, load_stack
from experiments.state.preview import run_preview

from ...conftest import cluster_config

H100 = "gx3d-160x1792x8h100"
SRIOV = {"nodes.profile": H100, "network.variant": "sriov-rdma", "network.nics_per_node": 1}


def _program() -> dict[str, Any]:
    pulumi_program()  # exactly what __main__.py runs
    return {}


def _run(stack: StackFile, *, dry_run: bool) -> None:
    run_offline(
        _program,
        project=PROJECT,
        stack=stack.name,
        config=stack.engine_config,
        secret_keys=stack.secret_keys,
        cluster=stack.simulated,
        dry_run=dry_run,
    )


@pytest.mark.parametrize("stack", ["h100-2n-sriov", "h100-2n-sriov-rdma"])
def test_shipped_stacks_do_not_opt_in_and_up_refuses_them(stack: str) -> None:
    shipped = load_stack(stack)
    assert shipped.cluster.nodes.allow_instance_stop is False
    assert "allow_instance_stop" not in shipped.path.read_text()
    _run(shipped, dry_run=True)  # `pulumi preview` renders
    with pytest.raises(
        Exception,
        match=r"nodes\.allow_instance_stop: not set, yet pulumi up would stop 2 adopted "
        r"worker\(s\) \(h100-study-q8wzt-gpu-3-l6gzb, h100-study-q8wzt-gpu-3-pds7f\)",
    ):
        _run(shipped, dry_run=False)  # `pulumi up`


def test_up_proceeds_once_the_stack_opts_in_and_never_refuses_what_stops_nothing(write_stack) -> None:
    opted = load_stack(str(write_stack("in", cluster_config(**SRIOV, **{"nodes.allow_instance_stop": True}))))
    _run(opted, dry_run=False)
    vnic = load_stack(str(write_stack("vnic", cluster_config(**{"nodes.allow_instance_stop": ...}))))
    assert vnic.plan.stops == ()
    _run(vnic, dry_run=False)


@pytest.mark.slow
def test_preview_lists_every_stopped_worker_in_order_with_the_warning_and_downtime(capsys, tmp_path) -> None:
    assert main(["preview", "h100-2n-sriov-rdma", "--out", str(tmp_path / "p")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "offline preview: the cluster was SIMULATED from the stack file, not looked up: "
        "VPC h100-study-q8wzt-vpc, compute subnet h100-study-q8wzt-subnet-compute-us-east-3"
    )
    assert "h100-study-q8wzt-gpu-3-l6gzb, h100-study-q8wzt-gpu-3-pds7f" in lines[1] and "invented" in lines[1]
    start = next(i for i, line in enumerate(lines) if line.startswith("pulumi up STOPS 2 adopted worker(s), one at a"))
    first, second = lines[start + 1], lines[start + 2]
    assert first.startswith("  1. h100-study-q8wzt-gpu-3-l6gzb: drain, stop, attach, start, Ready (~25 min)")
    assert second.startswith("  2. h100-study-q8wzt-gpu-3-pds7f") and "after h100-study-q8wzt-gpu-3-l6gzb" in second
    rest = "\n".join(lines[start + 3 : start + 9])
    assert "erases its instance storage (NVMe)" in rest and "start ~20 min" in rest
    assert "roll-out: about 0.8 h (2 worker(s) one after another in each of 1 lane(s)" in rest
    assert "  applied: unknown here (an offline preview has no stack state), so every worker is listed" in rest
    assert "refuses this until the stack sets nodes.allow_instance_stop" in rest
    consent = next(line for line in lines if line.startswith("  consent: this roll-out is "))
    assert re.search(
        r"is (rollout-[0-9a-f]{8}); .*first roll-out, any later one needs nodes.allow_instance_stop: "
        r"\1$",
        consent,
    ), consent
    document = json.loads((tmp_path / "p" / "preview.json").read_text())
    assert [(s["worker"], s["step"], s["after"]) for s in document["stops"]] == [
        ("h100-study-q8wzt-gpu-3-l6gzb", 1, None),
        ("h100-study-q8wzt-gpu-3-pds7f", 2, "h100-study-q8wzt-gpu-3-l6gzb"),
    ]
    assert document["simulated"]["workers"] == ["h100-study-q8wzt-gpu-3-l6gzb", "h100-study-q8wzt-gpu-3-pds7f"]
    # The program itself says the same to `pulumi preview` (its Diagnostics), not only this tool; its
    # reference to the stack (no state offline) found no roll-out applied.
    (diagnostic,) = document["diagnostics"]
    shown = lines[start : start + 9]
    applied = next(i for i, line in enumerate(shown) if line.startswith("  applied: "))
    program = diagnostic.removeprefix("warning: ").split("\n")
    assert program[:applied] + program[applied + 1 :] == shown[:applied] + shown[applied + 1 :]
    assert program[applied].startswith("  applied: the stack records no roll-out applied in full")
    assert document["simulated"]["vpc"] == "h100-study-q8wzt-vpc"


def test_lanes_follow_max_unavailable_where_the_config_has_it() -> None:
    from components.models.config import ClusterConfig
    from components.plan.stops import plan_stops

    cfg = ClusterConfig.model_validate(cluster_config(**SRIOV, **{"nodes.count": 4, "nodes.names": ...}))
    workers = ["w0", "w1", "w2", "w3"]
    assert [(s.lane, s.after) for s in plan_stops(cfg, workers)] == [(1, None), (1, "w0"), (1, "w1"), (1, "w2")]
    if "max_unavailable" in type(cfg.nodes).model_fields:  # the rolling mechanism's field (issue 17 item 1)
        two = cfg.model_copy(update={"nodes": cfg.nodes.model_copy(update={"max_unavailable": 2})})
        assert [(s.lane, s.after) for s in plan_stops(two, workers)] == [(1, None), (2, None), (1, "w0"), (2, "w1")]


def test_a_stack_that_looks_nothing_up_says_so_and_lists_no_stops(write_stack, capsys, tmp_path) -> None:
    from ...conftest import standalone_config

    path = write_stack("alone", standalone_config())
    assert main(["preview", str(path), "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("offline preview: resource IDs and provider outputs are invented by the mock engine")
    assert "STOPS" not in out
    assert json.loads((tmp_path / "a" / "preview.json").read_text())["stops"] == []


def test_preview_json_records_dependencies_explicit_and_through_inputs(tmp_path) -> None:
    preview = run_preview("h100-2n-sriov-rdma")
    document = preview.document()
    by_name = {r["name"]: r for r in document["resources"]}
    assert all(
        isinstance(r["dependencies"], list) and isinstance(r["property_dependencies"], dict)
        for r in document["resources"]
    )
    attachment = by_name["gpu-h100-study-q8wzt-gpu-3-l6gzb-cnic1"]
    reserved_ip = by_name["gpu-h100-study-q8wzt-gpu-3-l6gzb-cnic1-ip"]["urn"]
    # Through an input (the reserved IP's address and ID) and explicitly (after the worker's stop).
    assert reserved_ip in attachment["property_dependencies"]["clusterNetworkInterface"]
    assert reserved_ip in attachment["dependencies"]
    assert any(urn.endswith("-out-of-service") for urn in attachment["dependencies"])


def test_a_sweep_never_opts_in_on_the_user_s_behalf(tmp_path) -> None:
    import argparse

    from experiments.stacks.automation import stack_config
    from experiments.sweep.matrix import plan_cells, spec_from_args

    args = argparse.Namespace(
        matrix=None,
        base=None,
        ssh_key_name=None,
        zone=None,
        profile=["h100"],
        variant=["sriov-rdma"],
        nodes=["2"],
        nics=["1"],
    )
    (cell,) = plan_cells(spec_from_args(args))
    assert cell.stack is not None and cell.stack.plan.stops  # the cell would stop workers...
    assert "allow_instance_stop" not in cell.cluster["nodes"]  # ...and the sweep did not consent
    assert not cell.stack.cluster.nodes.allow_instance_stop
    assert "allow_instance_stop" not in stack_config(cell.cluster, None)["gpu-cluster:cluster"].value


def test_the_order_of_disruptive_steps_reads_back_from_the_document() -> None:
    from experiments.state.dependencies import comes_after, transitive_dependencies

    document = run_preview("h100-2n-sriov-rdma").document()
    after = transitive_dependencies(document["resources"])
    urn = {r["name"]: r["urn"] for r in document["resources"]}
    workers = ("h100-study-q8wzt-gpu-3-l6gzb", "h100-study-q8wzt-gpu-3-pds7f")
    for worker in workers:
        stop, start = urn[f"gpu-{worker}-out-of-service"], urn[f"gpu-{worker}-in-service"]
        assert urn[f"gpu-claims-{worker}"] in after[stop]  # claimed before it is touched
        for nic in range(1, 9):
            attachment = urn[f"gpu-{worker}-cnic{nic}"]
            assert {stop, urn[f"gpu-{worker}-cnic{nic}-ip"], urn[f"gpu-cn-subnet{nic}"]} <= after[attachment]
            assert attachment in after[start]
        assert stop not in after[stop]
        assert comes_after(document, start, stop) and not comes_after(document, stop, start)
    # Rolling: the second worker leaves service only once the first is back.
    first_back, second_out = urn[f"gpu-{workers[0]}-in-service"], urn[f"gpu-{workers[1]}-out-of-service"]
    assert comes_after(document, second_out, first_back) and not comes_after(document, first_back, second_out)


def test_the_diffs_stop_hazard_says_the_plans_downtime() -> None:
    from components.plan.stops import STOP_HAZARD, WorkerStop
    from experiments.state import diff

    assert f"for about {WorkerStop('w', 1, 1, None).minutes} minutes" in STOP_HAZARD
    assert not hasattr(diff, "STOP_WARNING") and diff.STOP_HAZARD is STOP_HAZARD
