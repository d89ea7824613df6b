"""``run`` against pods with hostile names and logs, an API that stops mid-run, and Ctrl-C."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main
from experiments.live import jobrun
from experiments.results.store import ResultsStore
from tests.timing import hang_bound

from ..kube_standin import Cluster, StandIn

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GPU_LOG = re.sub(r"nRanks \d+", "nRanks 16", (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text())


def run(cluster: Cluster, tmp_path: Path, *extra: str) -> int:
    with StandIn(cluster) as standin:
        return main(
            [
                "run",
                "h100-2n-sriov",
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


def written(tmp_path: Path) -> list[Path]:
    return sorted(p for p in tmp_path.rglob("*") if p.is_file() and p.name != "kubeconfig")


@pytest.mark.parametrize(
    "pod",
    [
        "../../escaped",
        "/etc/evil",
        "..",
        ".hidden",
        "a/../../b",
        "x" * 400,
        "a" * 253,
        "ilab-master-0\x1b]0;owned\x07",
        "ilab-master-0/../../../escaped",
    ],
)
def test_pod_names_cannot_leave_the_run_folder(tmp_path, capsys, pod) -> None:
    cluster = Cluster(master_log=GPU_LOG, worker_log=GPU_LOG, pod_names=[pod, "ilab-worker-0"])
    code = run(cluster, tmp_path)
    out = capsys.readouterr()
    assert code == 0, out
    logs = tmp_path / "logs"
    for path in written(tmp_path):
        assert path.resolve().is_relative_to(tmp_path.resolve())
        if path.suffix == ".log":
            assert path.parent.parent == logs and len(path.name.encode()) <= 255 and not path.name.startswith(".")
    kept = [p for p in written(tmp_path) if p.suffix == ".log"]
    assert len(kept) == 2 or pod == ".." and len(kept) == 1 and "could not be read (404): left out" in out.out
    assert "\x1b" not in out.out


def test_a_log_that_is_not_utf8_is_kept_byte_for_byte(tmp_path, capsys) -> None:
    raw = GPU_LOG.encode() + b"\xff\xfe broken \xc3\x28 bytes\n"
    cluster = Cluster(master_log=GPU_LOG, worker_log=GPU_LOG, log_bytes={"ilab-master-0": raw})
    assert run(cluster, tmp_path) == 0, capsys.readouterr()
    (master,) = (tmp_path / "logs").glob("*/ilab-master-0.log")
    assert master.read_bytes() == raw
    (record,) = ResultsStore(tmp_path / "results.sqlite").runs()
    assert record.steps_counted == 25


def test_two_runs_in_one_second_get_two_folders(tmp_path) -> None:
    from experiments.live.jobrun import new_run_dir

    first, second = new_run_dir(tmp_path), new_run_dir(tmp_path)
    assert first != second and first.is_dir() and second.is_dir()
    assert second.name.startswith(first.name[:16])


@pytest.mark.slow
def test_an_api_that_stops_mid_run_ends_at_the_timeout(tmp_path, capsys) -> None:
    cluster = Cluster(scenario="never-finishes", master_log=GPU_LOG, stall=("/apis/kubeflow.org",), stall_after=4)
    start = time.monotonic()
    code = run(cluster, tmp_path, "--timeout", "3")
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err
    assert code == 2 and elapsed < hang_bound(3), (elapsed, err)
    assert len(err.strip().splitlines()) == 1 and ("--timeout" in err or "timed out" in err), err


@pytest.mark.slow
def test_ctrl_c_keeps_what_is_done_and_says_how_to_go_on(tmp_path, capsys, monkeypatch) -> None:
    real_sleep = time.sleep
    calls = {"n": 0}

    def interrupting_sleep(seconds: float) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        real_sleep(seconds)

    monkeypatch.setattr(jobrun.time, "sleep", interrupting_sleep)
    code = run(Cluster(scenario="never-finishes", master_log=GPU_LOG), tmp_path)
    out = capsys.readouterr().out
    assert code == 130
    assert "interrupted: PyTorchJob h100-2n-sriov-training/ilab keeps running in the cluster" in out
    assert "python -m experiments run h100-2n-sriov` starts it afresh" in out


def test_ctrl_c_while_logs_are_collected_keeps_those_written(tmp_path, capsys, monkeypatch) -> None:
    real = jobrun.collect_logs

    def collect_then_stop(kube: Any, core: Any, namespace: str, name: str, log_dir: Path, report: Any) -> Any:
        (log_dir / "ilab-master-0.log").write_text("partial")
        raise KeyboardInterrupt

    monkeypatch.setattr(jobrun, "collect_logs", collect_then_stop)
    code = run(Cluster(master_log=GPU_LOG, worker_log=GPU_LOG), tmp_path)
    out = capsys.readouterr().out
    assert code == 130 and real is not collect_then_stop
    (kept,) = (tmp_path / "logs").glob("*/ilab-master-0.log")
    assert f"logs collected so far are in {kept.parent}" in out and "results add h100-2n-sriov --log" in out


def test_a_run_whose_ranks_contradict_the_stack_is_not_recorded(tmp_path, capsys) -> None:
    one_rank = re.sub(r"nRanks \d+", "nRanks 1", GPU_LOG)
    assert run(Cluster(master_log=one_rank, worker_log=one_rank), tmp_path) == 2
    err = capsys.readouterr().err
    assert "the logs report 1 GPU(s), but h100-2n-sriov's job runs on 16 GPU(s) (2 node(s) x 8)" in err
    assert ResultsStore(tmp_path / "results.sqlite").runs() == []
    assert os.listdir(tmp_path / "logs")  # the logs themselves are kept


def test_pods_of_another_job_are_not_collected(tmp_path, capsys) -> None:
    cluster = Cluster(master_log=GPU_LOG, worker_log=GPU_LOG, foreign_pods=["other-master-0"])
    assert run(cluster, tmp_path) == 0, capsys.readouterr()
    assert sorted(p.name for p in (tmp_path / "logs").glob("*/*.log")) == ["ilab-master-0.log", "ilab-worker-0.log"]
