"""``run`` against a Kubernetes API stand-in: the client's real requests for a PyTorchJob's life cycle."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.live.jobrun import job_manifest_of
from experiments.results.store import ResultsStore
from experiments.stacks.stackfile import load_stack

from ..kube_standin import Cluster, StandIn

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# The proof run's logs as the 16 ranks of h100-2n-sriov's job would report them (record_run refuses
# logs whose rank count contradicts the stack).
GPU_LOG = re.sub(r"nRanks \d+", "nRanks 16", (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text())
SOCKET_LOG = re.sub(r"nRanks \d+", "nRanks 16", (FIXTURES / "nccl-logs" / "2xH200-socket.log").read_text())


def run(cluster: Cluster, tmp_path: Path, *extra: str, stack: str = "h100-2n-sriov") -> tuple[int, StandIn]:
    with StandIn(cluster) as standin:
        code = main(
            [
                "run",
                stack,
                "--kubeconfig",
                str(standin.kubeconfig(tmp_path)),
                "--poll",
                "0.01",
                "--out",
                str(tmp_path / "logs"),
                "--store",
                str(tmp_path / "results.sqlite"),
                *extra,
            ]
        )
    return code, standin


@pytest.mark.slow
def test_a_run_creates_the_stacks_job_follows_it_and_records_the_result(tmp_path, capsys) -> None:
    cluster = Cluster(master_log=GPU_LOG, worker_log=SOCKET_LOG, existing={"ilab"})
    code, _ = run(cluster, tmp_path)
    out = capsys.readouterr().out
    assert code == 0, out
    methods = [(m, p) for m, p, _ in cluster.requests if not p.startswith("/api/v1")]
    jobs = "/apis/kubeflow.org/v1/namespaces/h100-2n-sriov-training/pytorchjobs"
    assert methods[:3] == [("GET", "/version/"), ("DELETE", f"{jobs}/ilab"), ("GET", f"{jobs}/ilab")]
    delete = next(b for m, _, b in cluster.requests if m == "DELETE")
    assert delete["propagationPolicy"] == "Foreground"
    (created,) = [b for m, _, b in cluster.requests if m == "PATCH"]
    assert created == job_manifest_of(load_stack("h100-2n-sriov"), benchmark=False)  # exactly what the stack declares
    assert "Running: pods 2/2" in out and "succeeded after" in out
    logs = sorted(p.name for p in (tmp_path / "logs").glob("*/*.log"))
    assert logs == ["ilab-master-0.log", "ilab-worker-0.log"]
    (record,) = ResultsStore(tmp_path / "results.sqlite").runs()
    assert record.stack == "h100-2n-sriov" and record.source == "run"
    assert record.samples_per_s == pytest.approx(83.88, abs=0.01) and record.transport == "net-socket"
    assert f"recorded run 1: {record.samples_per_s:.2f} samples/s" in out


@pytest.mark.slow
def test_a_failing_pod_stops_the_run_with_its_last_lines(tmp_path, capsys) -> None:
    code, _ = run(Cluster(scenario="pod-fails", master_log="starting\nRuntimeError: CUDA out of memory\n"), tmp_path)
    err = capsys.readouterr().err
    assert code == 2
    assert "PyTorchJob h100-2n-sriov-training/ilab failed (Running); last lines of ilab-master-0:" in err
    assert "| RuntimeError: CUDA out of memory" in err and "Traceback" not in err
    assert ResultsStore(tmp_path / "results.sqlite").runs() == []


def test_a_stalled_training_is_reported_with_the_launchers_reason(tmp_path, capsys) -> None:
    stall = (
        "gpu-cluster: stall: rank 1 made no progress for 1800 s (GPU_CLUSTER_STALL_SECONDS 1800) in step 2, "
        "forward/backward of 6 minibatch(es) and the loss all-reduce; waiting in collective nccl:all_reduce #5"
    )
    log = f"Epoch 0: 1/4\n[rank1]: {stall}\nentrypoint: error: training stopped: {stall}\n"
    code, _ = run(Cluster(scenario="pod-fails", master_log=log), tmp_path)
    err = capsys.readouterr().err
    assert code == 2
    assert f"PyTorchJob h100-2n-sriov-training/ilab failed (Running): training stopped: {stall}; last lines" in err


@pytest.mark.slow
def test_a_run_that_does_not_finish_times_out(tmp_path, capsys) -> None:
    code, _ = run(Cluster(scenario="never-finishes", master_log=GPU_LOG), tmp_path, "--timeout", "2")
    assert code == 2
    err = capsys.readouterr().err
    assert "PyTorchJob h100-2n-sriov-training/ilab" in err and "not done at --timeout" in err and "keeps running" in err


def test_a_missing_training_operator_is_named(tmp_path, capsys) -> None:
    code, _ = run(Cluster(scenario="no-crd"), tmp_path)
    err = capsys.readouterr().err
    assert code == 2 and "404 Not Found for PyTorchJob h100-2n-sriov-training/ilab" in err
    assert "training operator installed" in err


def test_an_unreachable_cluster_is_one_line_naming_it(tmp_path, capsys) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        '{"apiVersion": "v1", "kind": "Config", "current-context": "c", '
        '"clusters": [{"name": "c", "cluster": {"server": "http://127.0.0.1:9"}}], '
        '"users": [{"name": "u", "user": {"token": "t"}}], '
        '"contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}]}'
    )
    assert main(["run", "dev", "--kubeconfig", str(kubeconfig), "--context", "c"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot reach the cluster at http://127.0.0.1:9 (context c):")
    assert len(err.splitlines()) == 1


def test_a_leaderworkerset_is_refused_with_the_reason(write_stack, capsys) -> None:
    from ...conftest import cluster_config

    path = write_stack("lws", cluster_config(**{"job.kind": "leaderworkerset"}))
    kubeconfig = path.parent / "kubeconfig"  # named, so it must exist; refused before it is read
    kubeconfig.write_text("not: a kubeconfig\n")
    assert main(["run", str(path), "--kubeconfig", str(kubeconfig)]) == 2
    err = capsys.readouterr().err
    assert "a LeaderWorkerSet never completes" in err and "results add" in err
