"""Through the Kubernetes API stand-in: ``sweep --engine argo --submit`` (create, follow, exit status by phase)
and the results coming home (``export-results``, ``pull-results``: idempotent, all or nothing)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from experiments.cli.main import main
from experiments.results.store import ResultsStore, RunRecord
from experiments.results.transfer import export_document

from .incluster_standin import ObjectStandIn, Store
from .test_argo import render, two_cells_on_one_machineset

RUN = RunRecord(
    recorded_at="2026-11-25T10:00:00+00:00",
    stack="sweep-h100-2n-sriov-1nic",
    fingerprint="0123456789abcdef",
    git_commit="f" * 40,
    source="run",
    samples_per_s=40.58,
    transport="net-ib",
    steps_counted=45,
    step_time_mean_s=1.58,
    predicted_samples_per_s=39.9,
    step_time_median_s=1.57,
    step_time_p90_s=1.61,
    ranks=16,
    gpus=16,
)


def cluster_store(tmp_path: Path, count: int = 3) -> Path:
    path = tmp_path / "cluster" / "results.sqlite"
    store = ResultsStore(path)
    for n in range(count):
        store.add(replace(RUN, recorded_at=f"2026-11-25T1{n}:00:00+00:00", samples_per_s=40.0 + n))
    return path


def submit(tmp_path: Path, store: Store) -> int:
    with ObjectStandIn(store) as standin:
        code, _ = render(
            tmp_path,
            two_cells_on_one_machineset(tmp_path),
            "--submit",
            "--poll",
            "0.01",
            "--kubeconfig",
            str(standin.kubeconfig(tmp_path)),
        )
    return code


@pytest.mark.slow
def test_submit_creates_the_setup_and_the_workflow_and_follows_it_to_success(tmp_path, capsys) -> None:
    store = Store()
    assert submit(tmp_path, store) == 0
    out = capsys.readouterr().out
    created = [path for method, path in store.requests if method == "POST"]
    # The administrator's part first: the cells' namespace (the runner's Role goes there), their SCC.
    first = created[: created.index("/api/v1/namespaces/gpu-cluster/serviceaccounts")]
    scc = "/apis/security.openshift.io/v1/securitycontextconstraints"
    assert first == ["/api/v1/namespaces"] * 2 + [scc] * (len(first) - 2) and scc in first
    assert created[-1] == "/apis/argoproj.io/v1alpha1/namespaces/gpu-cluster/workflows"
    assert "/apis/rbac.authorization.k8s.io/v1/clusterroles" in created
    assert "sweep-h100-2n-sriov-1nic: Running" in out and "sweep-h100-2n-sriov-rdma-1nic: Succeeded" in out
    assert "Workflow gpu-cluster/gpu-cluster-sweep-" in out and out.rstrip().endswith("Succeeded")


@pytest.mark.parametrize("phase", ["Failed", "Error"])
@pytest.mark.slow
def test_a_failed_workflow_exits_1_unlike_argo_submit_watch(tmp_path, capsys, phase) -> None:
    assert submit(tmp_path, Store(workflow_phases=["Running", phase])) == 1
    assert capsys.readouterr().out.rstrip().endswith(phase)


@pytest.mark.slow
def test_existing_objects_are_kept_or_replaced_by_kind(tmp_path, capsys) -> None:
    claim = "/api/v1/namespaces/gpu-cluster/persistentvolumeclaims/gpu-cluster-state"
    role = "/apis/rbac.authorization.k8s.io/v1/namespaces/gpu-cluster/roles/gpu-cluster-runner"
    ours = {
        "metadata": {"name": "gpu-cluster-state", "labels": {"app.kubernetes.io/part-of": "gpu-cluster"}},
        "spec": {"accessModes": ["ReadWriteOnce"]},
    }
    store = Store(existing={claim: ours, role: {"metadata": {}}})
    assert submit(tmp_path, store) == 0
    out = capsys.readouterr().out
    assert "kept PersistentVolumeClaim gpu-cluster/gpu-cluster-state" in out  # the state is never replaced
    assert "replaced Role gpu-cluster/gpu-cluster-runner" in out and ("PUT", role) in store.requests


def _rendered_config_maps(tmp_path: Path) -> dict[str, dict]:
    import yaml

    code, out = render(tmp_path / "plain", two_cells_on_one_machineset(tmp_path))
    assert code == 0
    return {
        f"/api/v1/namespaces/gpu-cluster/configmaps/{o['metadata']['name']}": o
        for o in yaml.safe_load_all((out / "setup.yaml").read_text())
        if o["kind"] == "ConfigMap"
    }


@pytest.mark.slow
def test_a_planted_config_map_under_the_rendered_name_stops_the_submission(tmp_path, capsys) -> None:
    maps = _rendered_config_maps(tmp_path)
    ((path, kubeconfig),) = [(p, o) for p, o in maps.items() if "kubeconfig" in p]
    capsys.readouterr()
    planted = {
        **kubeconfig,
        "data": {
            "config": kubeconfig["data"]["config"].replace("https://kubernetes.default.svc", "https://attacker.example")
        },
    }
    store = Store(existing={path: planted})
    assert submit(tmp_path, store) == 2
    err = capsys.readouterr().err
    assert f"ConfigMap gpu-cluster/{path.rsplit('/', 1)[1]} already exists and its data is not what setup.yaml" in err
    assert len(err.splitlines()) == 1 and not any(p.endswith("/workflows") for _, p in store.requests)
    # The same content, applied before (kubectl apply -f setup.yaml): read, found equal, kept.
    store = Store(existing=dict(maps))
    assert submit(tmp_path, store) == 0
    assert all(("GET", p) in store.requests for p in maps)


@pytest.mark.slow
def test_submit_keeps_no_foreign_namespace_and_puts_its_own_scc_over_a_widened_one(tmp_path, capsys) -> None:
    code, out = render(tmp_path / "plain", two_cells_on_one_machineset(tmp_path))
    assert code == 0
    setup = list(yaml.safe_load_all((out / "setup.yaml").read_text()))
    namespace = next(o for o in setup if o["kind"] == "Namespace")["metadata"]["name"]
    scc = next(o for o in setup if o["kind"] == "SecurityContextConstraints")
    capsys.readouterr()
    # A namespace of that name someone else made: the runner's Role would land among their objects.
    foreign = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace, "labels": {}}}
    store = Store(existing={f"/api/v1/namespaces/{namespace}": foreign})
    assert submit(tmp_path, store) == 2
    err = capsys.readouterr().err
    assert f"Namespace {namespace} already exists and it lacks the project's labels" in err, err
    assert len(err.splitlines()) == 1 and not any(p.endswith("/workflows") for _, p in store.requests)
    # An SCC of the rendered name, widened: replaced by the rendered one, with the resourceVersion read.
    path = f"/apis/security.openshift.io/v1/securitycontextconstraints/{scc['metadata']['name']}"
    widened = {**scc, "allowedCapabilities": ["SYS_ADMIN"], "metadata": {**scc["metadata"], "resourceVersion": "7"}}
    store = Store(existing={path: widened})
    assert submit(tmp_path, store) == 0
    assert ("PUT", path) in store.requests
    assert store.objects[path] == {**scc, "metadata": {**scc["metadata"], "resourceVersion": "7"}}


@pytest.mark.slow
def test_a_forbidden_create_is_one_line_and_no_workflow(tmp_path, capsys) -> None:
    store = Store(forbidden={"/apis/rbac.authorization.k8s.io/v1/clusterroles"})
    assert submit(tmp_path, store) == 2
    err = capsys.readouterr().err
    assert "403 Forbidden creating ClusterRole gpu-cluster-runner-gpu-cluster" in err and len(err.splitlines()) == 1
    assert not any(path.endswith("/workflows") for _, path in store.requests)


def test_pull_imports_every_run_with_its_fingerprint_and_again_adds_nothing(tmp_path, capsys) -> None:
    source, local = cluster_store(tmp_path), tmp_path / "local.sqlite"
    export = tmp_path / "runs.json"
    assert main(["export-results", "--store", str(source), "--out", str(export)]) == 0
    assert main(["pull-results", str(export), "--store", str(local)]) == 0
    assert main(["pull-results", str(source), "--store", str(local)]) == 0  # the store file itself, read-only
    out = capsys.readouterr().out
    assert "imported 3 run(s)" in out and "imported 0 run(s)" in out and "3 already there" in out
    pulled = ResultsStore(local).runs()
    assert [(r.fingerprint, r.samples_per_s, r.git_commit) for r in pulled] == [
        (RUN.fingerprint, pytest.approx(40.0 + n), RUN.git_commit) for n in range(3)
    ]


def test_a_document_cut_short_imports_nothing(tmp_path, capsys) -> None:
    local = tmp_path / "local.sqlite"
    ResultsStore(local).add(RUN)
    text = json.dumps(export_document(cluster_store(tmp_path)))
    for broken in (text[: len(text) // 2], text.replace("40.0", "41.0")):
        (tmp_path / "cut.json").write_text(broken)
        assert main(["pull-results", str(tmp_path / "cut.json"), "--store", str(local)]) == 2
        assert "nothing was imported" in capsys.readouterr().err
    assert len(ResultsStore(local).runs()) == 1


def test_a_hostile_run_is_refused_whole(tmp_path, capsys) -> None:
    document = export_document(cluster_store(tmp_path))
    document["runs"][1]["samples_per_s"] = float("nan")
    from experiments.results.transfer import _digest

    document["sha256"] = _digest(document["runs"])
    (tmp_path / "bad.json").write_text(json.dumps(document))
    local = tmp_path / "local.sqlite"
    assert main(["pull-results", str(tmp_path / "bad.json"), "--store", str(local)]) == 2
    assert "samples_per_s: nan is not a valid value" in capsys.readouterr().err
    assert ResultsStore(local).runs() == []


@pytest.mark.slow
def test_pull_from_the_cluster_reads_a_short_pods_export_and_deletes_the_pod(tmp_path, capsys) -> None:
    text = json.dumps(export_document(cluster_store(tmp_path)))
    store, local = Store(pod_log=text + "\n"), tmp_path / "local.sqlite"
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, local, timeout=5))
    assert code == 0, capsys.readouterr().err
    assert len(ResultsStore(local).runs()) == 3
    (pod,) = [p for m, p in store.requests if m == "DELETE"]
    assert pod.startswith("/api/v1/namespaces/gpu-cluster/pods/gpu-cluster-results-export-")
    assert not store.objects  # the pod is gone


@pytest.mark.slow
def test_a_connection_lost_mid_export_imports_nothing_and_keeps_nothing_running(tmp_path, capsys) -> None:
    text = json.dumps(export_document(cluster_store(tmp_path)))
    store, local = Store(pod_log=text[:200]), tmp_path / "local.sqlite"
    with ObjectStandIn(store) as standin:
        code = main(standin.pull_results(tmp_path, local, timeout=5))
    assert code == 2 and "cut short" in capsys.readouterr().err
    assert not local.exists() or ResultsStore(local).runs() == []
    assert not store.objects


@pytest.mark.slow
def test_an_unreachable_cluster_with_submit_writes_nothing(tmp_path, capsys) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": "http://127.0.0.1:9"}}],
                "users": [{"name": "u", "user": {"token": "t"}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
            }
        )
    )
    code, out = render(tmp_path, two_cells_on_one_machineset(tmp_path), "--submit", "--kubeconfig", str(kubeconfig))
    err = capsys.readouterr().err
    assert code == 2 and "cannot reach the cluster at http://127.0.0.1:9" in err and len(err.splitlines()) == 1
    assert not out.exists()
