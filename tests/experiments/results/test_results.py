"""Run logs, the results store and ``results``: on the real log of the H100 proof run."""

from __future__ import annotations

import json
import multiprocessing
import re
import sqlite3
from pathlib import Path

import pytest

from experiments.base.safe_text import markdown_cell
from experiments.cli.main import main
from experiments.results.runlog import WARMUP_STEPS, RunLogError, parse_run_logs, step_metrics
from experiments.results.store import MIGRATIONS, SCHEMA_VERSION, ResultsStore, RunRecord
from tests.conftest import PROJECT_ROOT

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GPU_LOG = (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text()
EIGHT_RANKS = re.sub(r"nRanks \d+", "nRanks 8", GPU_LOG)
"""The proof run's log as an 8-GPU run of h100-1n would report its ranks."""
SOCKET_LOG = (FIXTURES / "nccl-logs" / "2xH200-socket.log").read_text()


def test_the_gpu_runs_steps_are_read_and_warm_up_is_left_out() -> None:
    steps = step_metrics(GPU_LOG.splitlines())
    assert [s.step for s in steps] == list(range(1, 31))
    assert steps[0].seconds > 10 * steps[1].seconds  # the first step carries CUDA and NCCL set-up
    measurement = parse_run_logs({"master": GPU_LOG})
    counted = steps[WARMUP_STEPS:]
    assert measurement.steps_counted == 25 and measurement.steps_skipped == 5
    expected = sum(s.samples for s in counted) / sum(s.seconds for s in counted)
    assert measurement.samples_per_s == pytest.approx(expected)
    assert 60 < measurement.samples_per_s < 110  # the recorded H100 run: 83.9 samples/s
    assert measurement.ranks == 1 and measurement.transport is None  # one rank: no connections at all
    assert measurement.step_time_median_s <= measurement.step_time_p90_s
    with_warmup = parse_run_logs({"master": GPU_LOG}, warmup_steps=0)
    assert with_warmup.samples_per_s < measurement.samples_per_s  # the slow first step drags it down


def test_prefixed_lines_other_ranks_and_the_nccl_transport() -> None:
    lines = [
        f'[default0]:{{"step": {k}, "rank": 0, "overall_throughput": 10.0, "batch_size": 20, "elapsed_time": 2.0}}'
        for k in range(1, 9)
    ]
    lines.append('{"step": 3, "rank": 1, "overall_throughput": 999, "batch_size": 1, "elapsed_time": 1}')
    measurement = parse_run_logs({"master": "\n".join(lines), "worker-0": SOCKET_LOG})
    assert measurement.samples_per_s == pytest.approx(10.0) and measurement.steps_counted == 3
    assert measurement.transport == "net-socket"


def test_logs_without_steps_are_an_error() -> None:
    with pytest.raises(RunLogError, match="0 training step.s. found: no throughput"):
        parse_run_logs({"master": SOCKET_LOG})


def test_a_warm_up_only_log_is_not_a_measurement() -> None:
    one_step = '{"step": 1, "rank": 0, "overall_throughput": 30.0, "batch_size": 64, "elapsed_time": 6.3}'
    with pytest.raises(RunLogError, match="1 training step.s. found, none after the 1 warm-up step.s.: a warm-up-only"):
        parse_run_logs({"master": one_step})


def record(stack: str = "h100-1n", **changes: object) -> RunRecord:
    values: dict[str, object] = {
        "recorded_at": "2026-11-23T12:00:00+00:00",
        "stack": stack,
        "fingerprint": "f" * 16,
        "git_commit": None,
        "source": "test",
        "samples_per_s": 20.0,
        "transport": None,
        "steps_counted": 25,
        "step_time_mean_s": 0.4,
        "predicted_samples_per_s": 21.97,
        **changes,
    }
    return RunRecord(**values)  # type: ignore[arg-type]


def test_the_store_creates_adds_and_lists(tmp_path) -> None:
    store = ResultsStore(tmp_path / "results.sqlite")
    added = store.add(record(ranks=16))
    assert added.id == 1
    assert store.runs() == [added]
    assert store.runs("other") == []


def test_an_old_store_is_migrated_in_place(tmp_path) -> None:
    path = tmp_path / "v1.sqlite"
    with sqlite3.connect(path) as db:  # what the first release wrote
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
        db.execute(
            "INSERT INTO runs (recorded_at, stack, fingerprint, source, samples_per_s, steps_counted, "
            "step_time_mean_s) VALUES ('2026-01-01T00:00:00+00:00', 'dev', 'abc', 'old', 3.9, 20, 1.0)"
        )
    store = ResultsStore(path)
    (old,) = store.runs()
    assert (old.stack, old.samples_per_s, old.step_time_p90_s) == ("dev", 3.9, None)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    store.add(record(step_time_p90_s=0.5))
    assert [r.step_time_p90_s for r in store.runs()] == [None, 0.5]


def _write_many(path: str, writer: int) -> None:
    store = ResultsStore(Path(path))
    for i in range(40):
        store.add(record(stack=f"writer{writer}", steps_counted=i))


@pytest.mark.slow
def test_two_writers_lose_nothing(tmp_path) -> None:
    path = str(tmp_path / "shared.sqlite")
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_write_many, args=(path, w)) for w in (1, 2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
        assert writer.exitcode == 0
    runs = ResultsStore(Path(path)).runs()
    assert len(runs) == 80
    assert sorted(r.steps_counted for r in runs if r.stack == "writer2") == list(range(40))


def test_results_add_then_list(tmp_path, capsys) -> None:
    store = tmp_path / "results.sqlite"
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(log)]) == 0
    assert "recorded run 1 of h100-1n: 83.88 samples/s over 25 steps" in capsys.readouterr().out
    assert main(["results", "--store", str(store), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["stack"] == "h100-1n" and row["study_samples_per_s"] == 21.34
    assert row["predicted_samples_per_s"] == pytest.approx(21.74, abs=0.01)
    assert row["flagged"]  # one GPU and a small model, not the study's 8B on 8 GPUs: far off, and said so
    assert len(row["fingerprint"]) == 16 and row["source"] == "results add"
    assert main(["results", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "h100-1n" in out and "more than 15% off the model's prediction" in out


def test_results_add_refuses_logs_without_steps(tmp_path, capsys) -> None:
    store = tmp_path / "results.sqlite"
    log = tmp_path / "nccl.log"
    log.write_text(SOCKET_LOG)
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --log {log}: 0 training step(s) found") and len(err.strip().splitlines()) == 1
    assert ResultsStore(store).runs() == []


@pytest.mark.slow
def test_the_report_shows_recorded_runs_and_flags_them(tmp_path, capsys) -> None:
    store = tmp_path / "results.sqlite"
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(log)]) == 0
    ResultsStore(store).add(record(stack="h100-2n-sriov", samples_per_s=40.0, predicted_samples_per_s=39.76))
    assert main(["report", "--out", str(tmp_path / "report"), "--store", str(store)]) == 0
    report = (tmp_path / "report" / "report.md").read_text()
    section = report.split("## Your recorded runs", 1)[1].split("\n## ", 1)[0]
    rows = {line.split(" | ")[1]: line for line in section.splitlines() if line.startswith("| 2026")}
    assert set(rows) == {"h100-1n", "h100-2n-sriov"}
    assert rows["h100-1n"].rstrip(" |—").endswith("!")  # +282 %: flagged
    assert "+1 %" in rows["h100-2n-sriov"] and "!" not in rows["h100-2n-sriov"]
    assert (tmp_path / "report" / "throughput-h100.png").stat().st_size > 10_000


def test_the_benchmark_jobs_bus_bandwidth_is_read_from_its_log() -> None:
    from experiments.results.runlog import bus_bandwidth

    log = (FIXTURES / "nccl-logs" / "bench-2xH200-socket.log").read_text().splitlines()
    assert bus_bandwidth(log) == {"all_reduce": 3.45, "all_gather": 3.51, "reduce_scatter": 3.82}
    assert bus_bandwidth([f"[default0]:{line}" for line in log])["all_reduce"] == 3.45  # torchrun's prefix


def test_instructlab_main_ds_metrics_in_both_of_its_forms() -> None:
    # The keys main_ds logs (no elapsed_time: the step time is batch_size / overall_throughput), as its
    # JSONL file holds them and as its console handler prints them (key=value, floats to 3 places).
    def metrics(step: int) -> dict[str, object]:
        return {
            "epoch": 0,
            "step": step,
            "rank": 0,
            "overall_throughput": 40.0,
            "lr": 2e-5,
            "num_loss_counted_tokens": 1000,
            "batch_size": 120,
            "avg_loss": 1.5,
            "samples_seen": 120 * step,
            "gradnorm": 0.9,
            "total_samples": 9872,
            "num_epoch_steps": 82,
        }

    jsonl = "\n".join(json.dumps(metrics(k)) for k in range(1, 11))
    console = "\n".join(
        "INFO     " + ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in metrics(k).items())
        for k in range(1, 11)
    )
    for text in (jsonl, console):
        measurement = parse_run_logs({"master": text})
        assert measurement.steps_counted == 5 and measurement.samples_per_s == pytest.approx(40.0)
        assert measurement.step_time_median_s == pytest.approx(3.0)  # 120 samples at 40 samples/s


def test_a_proof_on_fewer_gpus_is_recorded_as_such_and_kept_apart_from_model_and_study(tmp_path, capsys) -> None:
    """The lent-GPU proof (main_ds on 1 of h100-1n's 8 GPUs): refused as a run of the stack, recorded with
    --gpus 1 as a 1-GPU proof, listed with its label, never beside the model or the study."""

    proof = PROJECT_ROOT / "tests" / "fixtures" / "runs" / "h100-1n-main_ds-proof.jsonl"
    store = tmp_path / "r.sqlite"
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(proof)]) == 2
    assert "--gpus 1" in capsys.readouterr().err and not store.exists()
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(proof), "--gpus", "2"]) == 2
    assert "not the 2 that --gpus declares" in capsys.readouterr().err
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(proof), "--gpus", "8"]) == 2
    assert "fewer GPUs than the stack's job" in capsys.readouterr().err
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(proof), "--gpus", "1"]) == 0
    assert "as a 1-GPU proof" in capsys.readouterr().out
    assert main(["results", "--store", str(store), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["label"] == "1-GPU proof" and row["gpus"] == 1
    # Beside the stack's model prediction and the study's 21.34, never compared with them.
    assert row["predicted_samples_per_s"] > 0 and row["study_samples_per_s"] == pytest.approx(21.34, abs=0.01)
    assert row["off_prediction_pct"] is None and not row["flagged"]
    assert row["steps_counted"] > 0 and row["samples_per_s"] > 0
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.md").read_text()
    assert markdown_cell("h100-1n (1-GPU proof, not a study figure)") in text


@pytest.mark.parametrize(
    ("log", "gpus", "min_steps"),
    [
        ("h100-1n-main_ds-2gpu-proof", 2, 5),
        ("h100-1n-main_ds-2gpu-final", 2, 5),  # the final tree's workloads (formatted), on two H200s
        ("h100-1n-main_ds-4gpu-proof", 4, 5),
        ("granite8b-40layers-4gpu", 4, 3),  # the study's shape: 480 samples per GPU per step, 40 layers
    ],
)
def test_the_multi_gpu_runs_are_recorded_as_n_gpu_proofs_and_reported(tmp_path, capsys, log, gpus, min_steps) -> None:
    """The committed runs of the stack's job through the entrypoint on 2 and 4 H100s (docs/gpu-study.md)."""
    path = PROJECT_ROOT / "tests" / "fixtures" / "runs" / f"{log}.jsonl"
    store = tmp_path / "r.sqlite"
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(path), "--gpus", str(gpus)]) == 0
    assert f"as a {gpus}-GPU proof" in capsys.readouterr().out
    assert main(["results", "--store", str(store), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["gpus"] == gpus and row["label"] == f"{gpus}-GPU proof"
    assert row["steps_counted"] >= min_steps and row["samples_per_s"] > 0
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "report")]) == 0
    report = (tmp_path / "report" / "report.md").read_text()
    assert markdown_cell(f"h100-1n ({gpus}-GPU proof, not a study figure)") in report
