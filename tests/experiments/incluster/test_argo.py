"""``sweep SPEC --engine argo --out DIR``: the Workflow and its setup objects, validated against the engines'
CRDs and Kubernetes' own schemas; the step graph checked for order, locks, retries and deadlines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from experiments.cli.main import main
from experiments.incluster.pools import chains

from ...manifests import validate_all

IMAGE = "quay.io/team/gpu-cluster:1.4.0"
ADOPTING_BASE: dict[str, Any] = {
    "openshift": {"infra_id": "h100-study-q8wzt"},
    "nodes": {"source": "adopt", "machineset": "h100-study-q8wzt-gpu-3", "allow_instance_stop": True},
}


def spec_file(tmp_path: Path, **document: Any) -> Path:
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def render(tmp_path: Path, spec: Path, *extra: str) -> tuple[int, Path]:
    out = tmp_path / "out"
    return main(["sweep", str(spec), "--engine", "argo", "--out", str(out), "--image", IMAGE, *extra]), out


def objects(out: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    setup = list(yaml.safe_load_all((out / "setup.yaml").read_text()))
    (workflow,) = yaml.safe_load_all((out / "workflow.yaml").read_text())
    return setup, workflow


def templates(workflow: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in workflow["spec"]["templates"]}


def two_cells_on_one_machineset(tmp_path: Path, **extra: Any) -> Path:
    return spec_file(
        tmp_path, profile=["h100"], variant=["sriov", "sriov-rdma"], nodes=[2], base=ADOPTING_BASE, **extra
    )


@pytest.mark.slow
def test_two_cells_on_the_same_workers_run_strictly_one_after_the_other(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    setup, workflow = objects(out)
    assert {label: errors for label, errors in validate_all([*setup, workflow]).items() if errors} == {}
    by_name = templates(workflow)
    # One chain, one step group per cell, in the sweep's order: never a loop.
    assert by_name["sweep"]["steps"] == [[{"name": "chain-0", "template": "chain-0"}]]
    assert by_name["chain-0"]["steps"] == [
        [{"name": "sweep-h100-2n-sriov-1nic", "template": "cell-sweep-h100-2n-sriov-1nic"}],
        [{"name": "sweep-h100-2n-sriov-rdma-1nic", "template": "cell-sweep-h100-2n-sriov-rdma-1nic"}],
    ]
    first, second = by_name["cell-sweep-h100-2n-sriov-1nic"], by_name["cell-sweep-h100-2n-sriov-rdma-1nic"]
    assert [[s["name"] for s in group] for group in first["steps"]] == [["up"], ["run"], ["record"], ["destroy"]]
    # Both hold the MachineSet's mutex: another workflow's cells wait for them too.  Each holds its own
    # namespace (named after the stack), and the shared default namespace only object by object.
    mutexes = [{m["name"] for m in cell["synchronization"]["mutexes"]} for cell in (first, second)]
    assert "machineset-h100-study-q8wzt-gpu-3" in mutexes[0] & mutexes[1]
    assert "namespace-sweep-h100-2n-sriov-1nic-training" in mutexes[0] - mutexes[1]
    assert not any(m.startswith("namespace-default") for m in mutexes[0] | mutexes[1])
    text = (out / "workflow.yaml").read_text()
    assert "withItems" not in text and "withParam" not in text


@pytest.mark.slow
def test_each_step_runs_the_projects_cli_in_the_image_with_the_stack_file_of_its_cell(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    setup, workflow = objects(out)
    by_name = templates(workflow)
    stacks = next(o for o in setup if o["metadata"]["name"].startswith("gpu-cluster-stacks"))
    assert stacks["kind"] == "ConfigMap" and stacks["immutable"] is True
    assert sorted(stacks["data"]) == [
        "Pulumi.sweep-h100-2n-sriov-1nic.yaml",
        "Pulumi.sweep-h100-2n-sriov-rdma-1nic.yaml",
    ]
    cell = yaml.safe_load(stacks["data"]["Pulumi.sweep-h100-2n-sriov-1nic.yaml"])["config"]["gpu-cluster:cluster"]
    assert cell["network"] == {"variant": "sriov", "nics_per_node": 1} and cell["nodes"]["count"] == 2
    up = by_name["up-sweep-h100-2n-sriov-1nic"]["container"]
    assert up["image"] == IMAGE and up["command"] == ["python", "-m", "experiments"]
    # The cell's stack file lies beside the image's Pulumi.yaml: the steps name the cell as a project stack.
    assert up["args"] == ["stack", "up", "sweep-h100-2n-sriov-1nic", "--state-dir", "/state/pulumi"]
    assert {
        "name": "stacks",
        "mountPath": "/app/Pulumi.sweep-h100-2n-sriov-1nic.yaml",
        "subPath": "Pulumi.sweep-h100-2n-sriov-1nic.yaml",
        "readOnly": True,
    } in up["volumeMounts"]
    assert by_name["run-sweep-h100-2n-sriov-1nic"]["container"]["args"][:2] == ["run", "sweep-h100-2n-sriov-1nic"]
    # Secrets by reference only: no value of any Secret is in the files.
    env = {e["name"]: e for e in up["env"]}
    assert env["IC_API_KEY"]["valueFrom"] == {"secretKeyRef": {"name": "gpu-cluster-ibm", "key": "apikey"}}
    assert env["PULUMI_CONFIG_PASSPHRASE"]["valueFrom"] == {
        "secretKeyRef": {"name": "gpu-cluster-pulumi", "key": "passphrase"}
    }
    assert not any(o["kind"] == "Secret" for o in setup)
    # The state volume is writable for the non-root uid through fsGroup.
    context = workflow["spec"]["securityContext"]
    assert context["runAsNonRoot"] is True and context["runAsUser"] == context["fsGroup"] == 1000


@pytest.mark.slow
def test_retries_only_where_a_retry_repeats_nothing_half_done(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    by_name = templates(objects(out)[1])
    retried = {name for name, t in by_name.items() if "retryStrategy" in t}
    kinds = {name.split("-", 1)[0] for name in retried}
    assert kinds == {"run", "record", "unlock", "workers"}
    assert not any(name.startswith(("up-", "destroy-")) for name in retried)
    assert all(t["retryStrategy"]["limit"] <= 3 for t in by_name.values() if "retryStrategy" in t)


@pytest.mark.slow
def test_step_deadlines_come_from_the_stacks_own_timeouts(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path), "--run-timeout", "1800")
    assert code == 0
    by_name = templates(objects(out)[1])
    # Rolling: both workers one after the other, each drained (15m), stopped (30m) and started until
    # Ready (60m), plus the 15 min margin.
    assert by_name["up-sweep-h100-2n-sriov-1nic"]["activeDeadlineSeconds"] == (2 * (15 + 30 + 60) + 15) * 60
    assert by_name["run-sweep-h100-2n-sriov-1nic"]["activeDeadlineSeconds"] == 1800 + 300
    assert "--timeout" in by_name["run-sweep-h100-2n-sriov-1nic"]["container"]["args"]
    leaves = [t for t in by_name.values() if "container" in t]
    assert all(isinstance(t["activeDeadlineSeconds"], int) for t in leaves)
    assert not any("activeDeadlineSeconds" in t for t in by_name.values() if "steps" in t)  # leaf templates only


@pytest.mark.slow
def test_the_exit_handler_unlocks_and_reports_every_cell_under_its_locks(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    workflow = objects(out)[1]
    by_name = templates(workflow)
    assert workflow["spec"]["onExit"] == "leave-clean"
    unlocks, reports = by_name["leave-clean"]["steps"]
    assert [s["name"] for s in unlocks] == ["unlock-sweep-h100-2n-sriov-1nic", "unlock-sweep-h100-2n-sriov-rdma-1nic"]
    assert [s["name"] for s in reports] == ["workers-sweep-h100-2n-sriov-1nic", "workers-sweep-h100-2n-sriov-rdma-1nic"]
    unlock = by_name["unlock-sweep-h100-2n-sriov-1nic"]
    assert unlock["container"]["args"][:2] == ["stack", "unlock"]
    assert unlock["synchronization"] == by_name["cell-sweep-h100-2n-sriov-1nic"]["synchronization"]
    assert workflow["spec"]["podGC"] == {"strategy": "OnPodSuccess"}


def test_teardown_keep_last_keeps_only_the_last_cell_of_a_chain(tmp_path) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path, teardown="keep-last"))
    assert code == 0
    by_name = templates(objects(out)[1])
    assert "destroy-sweep-h100-2n-sriov-1nic" in by_name
    assert "destroy-sweep-h100-2n-sriov-rdma-1nic" not in by_name
    assert [[s["name"] for s in g] for g in by_name["cell-sweep-h100-2n-sriov-rdma-1nic"]["steps"]] == [
        ["up"],
        ["run"],
        ["record"],
    ]


def test_cells_that_share_nothing_run_in_parallel_chains(tmp_path) -> None:
    base = {"layers": "cloud", "nodes": {"source": "standalone"}, "security": {"ssh_key_name": "team-key"}}
    spec = spec_file(tmp_path, profile=["l40s"], variant=["vnic"], nodes=[1, 2], nics=[1], base=base)
    code, out = render(tmp_path, spec, "--teardown", "keep")
    assert code == 0
    setup, workflow = objects(out)
    assert {label: errors for label, errors in validate_all([*setup, workflow]).items() if errors} == {}
    by_name = templates(workflow)
    (group,) = by_name["sweep"]["steps"]
    assert [s["name"] for s in group] == ["chain-0", "chain-1"]  # one group: both chains at once
    assert [[s["name"] for s in g] for g in by_name["chain-0"]["steps"]] == [["sweep-l40s-1n-vnic-1nic"]]
    assert {m["name"] for m in by_name["cell-sweep-l40s-1n-vnic-1nic"]["synchronization"]["mutexes"]} == {
        "stack-sweep-l40s-1n-vnic-1nic"
    }


def test_chains_join_every_cell_that_shares_a_lock() -> None:
    assert chains([("a",), ("b",), ("a", "c"), ("c",), ("d",)]) == [[0, 2, 3], [1], [4]]
    assert chains([("a",), ("b",), ("a", "b")]) == [[0, 1, 2]]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--image", "quay.io/team/gpu-cluster"], "--image quay.io/team/gpu-cluster: name a tag or a digest"),
        (["--image", "quay.io/team/gpu-cluster:latest"], "'latest' moves under running sweeps"),
        (["--image", "Not An Image"], "not an image reference"),
        (["--namespace", "Bad_NS"], "--namespace 'Bad_NS': must be a DNS label"),
        (["--namespace", "team\n"], "--namespace 'team\\n': must be a DNS label"),
        (["--image", "quay.io/team/gpu-cluster:v1\n"], "not an image reference"),
        (["--api-key-secret", "gpu-cluster-ibm"], "--api-key-secret 'gpu-cluster-ibm': write NAME:KEY"),
        (["--up"], "--up: not with --engine argo"),
        (["--teardown", "keep"], "teardown keep: sweep-h100-2n-sriov-1nic, sweep-h100-2n-sriov-rdma-1nic share"),
        (["--run-timeout", "5"], "--run-timeout 5: between 60 s and a week"),
    ],
)
def test_bad_input_is_one_message_exit_2_and_nothing_written(tmp_path, capsys, extra, message) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path), *extra)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err, err
    assert not out.exists()


def test_a_sweep_without_a_cluster_to_adopt_is_refused(tmp_path, capsys) -> None:
    code, out = render(tmp_path, spec_file(tmp_path, profile=["h100"], variant=["sriov"], nodes=[2]))
    assert code == 2 and "name your cluster with --base STACK" in capsys.readouterr().err
    assert not out.exists()


def test_a_bad_teardown_in_the_spec_is_named(tmp_path, capsys) -> None:
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path, teardown="later"))
    err = capsys.readouterr().err
    assert code == 2 and "sweep.yaml: teardown: 'later' is not one of destroy, keep-last, keep" in err
    assert not out.exists()


def test_rbac_is_derived_from_what_the_cells_render_without_wildcards(tmp_path) -> None:
    from experiments.stacks.stackfile import load_stack
    from experiments.state.preview import kubernetes_manifests, run_preview

    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path))
    assert code == 0
    setup, _ = objects(out)
    cluster_role = next(o for o in setup if o["kind"] == "ClusterRole")
    roles = {o["metadata"]["namespace"]: o for o in setup if o["kind"] == "Role"}
    rules = cluster_role["rules"] + [rule for role in roles.values() for rule in role["rules"]]
    assert not any("*" in value for rule in rules for key in ("apiGroups", "resources", "verbs") for value in rule[key])
    granted = {(g, r) for rule in rules for g in rule["apiGroups"] for r in rule["resources"]}
    # Every kind the study's SR-IOV stack renders (its Kubernetes layer is what `up` applies) is granted.
    for manifest in kubernetes_manifests(run_preview(load_stack("h100-2n-sriov-rdma"))):
        group = manifest["apiVersion"].rpartition("/")[0]
        assert any(g == group for g, _ in granted), manifest["kind"]
    # Each job's SCC Role grants `use` of its one SCC: held exactly so, never widened to every SCC.
    scc_uses = [r for r in rules if "use" in r["verbs"]]
    assert sorted(name for r in scc_uses for name in r["resourceNames"]) == [
        "sweep-h100-2n-sriov-1nic-training-ilab",
        "sweep-h100-2n-sriov-rdma-1nic-training-ilab",
    ]

    # The cells stop adopted workers: the rolling steps cordon, evict (through PDBs) and pause MHCs.
    def verbs(namespace: str | None, group: str, resource: str) -> set[str]:
        where = cluster_role["rules"] if namespace is None else roles[namespace]["rules"]
        return {v for r in where if group in r["apiGroups"] and resource in r["resources"] for v in r["verbs"]}

    assert {"patch"} <= verbs(None, "", "nodes") and verbs(None, "", "pods/eviction") == {"create"}
    # get: the pause annotation is read before it is patched (components/ops/kube_client.edit_health_check).
    assert verbs("openshift-machine-api", "machine.openshift.io", "machinehealthchecks") == {"get", "list", "patch"}
    assert verbs("openshift-machine-api", "machine.openshift.io", "machines") == {"list"}  # by status.nodeRef
    assert "delete" not in verbs(None, "", "pods")  # a drain evicts, it never deletes
    # The worker claims live in default: the Leases and the stack's list of them are granted there, nothing else.
    assert {r for rule in roles["default"]["rules"] for r in rule["resources"]} == {"leases", "configmaps"}
    # Argo's executor reports results in the workflow's namespace only.
    assert roles["gpu-cluster"]["rules"] == [
        {"apiGroups": ["argoproj.io"], "resources": ["workflowtaskresults"], "verbs": ["create", "patch"]}
    ]
    binding = next(o for o in setup if o["kind"] == "ClusterRoleBinding")
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "gpu-cluster-runner", "namespace": "gpu-cluster"}]


def test_cells_whose_up_would_be_refused_are_refused_before_anything_is_written(tmp_path, capsys) -> None:
    base = {**ADOPTING_BASE, "nodes": {k: v for k, v in ADOPTING_BASE["nodes"].items() if k != "allow_instance_stop"}}
    spec = spec_file(tmp_path, profile=["h100"], variant=["sriov"], nodes=[2], base=base)
    code, out = render(tmp_path, spec)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "pulumi up would be refused for sweep-h100-2n-sriov-1nic" in err and "nodes.allow_instance_stop" in err
    assert not out.exists()
