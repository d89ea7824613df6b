"""The training-log parser on the real InstructLab ``main_ds`` logs of the lent H100 (2026-11-25,
``tests/fixtures/runs/gpu-session-20261125.txt`` has the versions), and on hostile input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from experiments.results.runlog import (
    WARMUP_STEPS,
    RunLogError,
    bus_bandwidth,
    parse_run_logs,
    scan_log,
    step_metrics,
    warmup_for,
)
from experiments.results.runlog_lines import MAX_RECORD_CHARS

RUNS = Path(__file__).resolve().parents[2] / "fixtures" / "runs"
PROOF_LOG = (RUNS / "h100-1n-main_ds-proof.log").read_text()
PROOF_JSONL = (RUNS / "h100-1n-main_ds-proof.jsonl").read_text()
WRAPPED_LOG = (RUNS / "granite8b-2layers-offload-80col.log").read_text()
WRAPPED_JSONL = (RUNS / "granite8b-2layers-offload.jsonl").read_text()


def _jsonl_steps(text: str) -> dict[int, dict[str, object]]:
    return {r["step"]: r for r in map(json.loads, text.splitlines()) if "overall_throughput" in r}


def test_the_proof_runs_main_ds_through_the_entrypoint() -> None:
    assert "entrypoint: launching: torchrun --nnodes=1 --nproc_per_node=1" in PROOF_LOG
    assert "-m instructlab.training.main_ds" in PROOF_LOG
    assert "entrypoint: data step: python3 -m instructlab.training.data_process" in PROOF_LOG
    measurement = parse_run_logs({"master": PROOF_LOG})
    assert measurement.steps_counted + measurement.steps_skipped == 32
    assert measurement.steps_skipped == WARMUP_STEPS
    assert measurement.world_size == 1 and measurement.ranks == 1
    assert measurement.malformed_lines == 0
    assert 25 < measurement.samples_per_s < 50  # 36.7 on the H100
    assert measurement.rank0_tokens_per_s is not None and 40_000 < measurement.rank0_tokens_per_s < 100_000


@pytest.mark.parametrize("run", ["h100-1n-main_ds-proof-2", "granite8b-4layers-offload-80col"])
def test_every_real_run_reads_the_same_from_its_console_and_its_jsonl(run: str) -> None:
    jsonl = (RUNS / (run.removesuffix("-80col") + ".jsonl")).read_text()
    console = (RUNS / f"{run}.log").read_text() if (RUNS / f"{run}.log").exists() else None
    from_jsonl = parse_run_logs({"metrics": jsonl})
    assert from_jsonl.world_size == 1 and from_jsonl.malformed_lines == 0
    if console is not None:
        from_console = parse_run_logs({"pod": console})
        assert from_console.steps_counted == from_jsonl.steps_counted
        assert from_console.samples_per_s == pytest.approx(from_jsonl.samples_per_s, rel=1e-3)
        assert from_console.rank0_tokens_per_s == pytest.approx(from_jsonl.rank0_tokens_per_s, rel=1e-3)


def test_console_and_jsonl_agree_step_for_step() -> None:
    console = step_metrics(PROOF_LOG.splitlines())
    recorded = _jsonl_steps(PROOF_JSONL)
    assert [s.step for s in console] == sorted(recorded) == list(range(1, 33))
    for step in console:
        record = recorded[step.step]
        assert step.samples == record["batch_size"] and step.tokens == record["num_tokens_rank0"]
        # The console rounds overall_throughput to three decimals (FormatDictFilter).
        assert step.seconds == pytest.approx(record["batch_size"] / record["overall_throughput"], rel=1e-3)
    from_jsonl = parse_run_logs({"metrics.jsonl": PROOF_JSONL})
    assert parse_run_logs({"master": PROOF_LOG}).samples_per_s == pytest.approx(from_jsonl.samples_per_s, rel=1e-3)


def test_rich_rows_wrapped_at_80_columns_are_joined() -> None:
    assert "\n                    overall_throughput=" in WRAPPED_LOG  # the split that lost every step before
    steps = step_metrics(WRAPPED_LOG.splitlines())
    assert [s.step for s in steps] == sorted(_jsonl_steps(WRAPPED_JSONL)) == [1, 2, 3, 4, 5, 6]
    assert all(s.samples == 480 and s.tokens and s.tokens > 700_000 for s in steps)
    measurement = parse_run_logs({"master": WRAPPED_LOG})
    assert measurement.steps_skipped == 1 and measurement.world_size == 1  # fewer than eight steps: one left out
    assert measurement.samples_per_s == pytest.approx(parse_run_logs({"m": WRAPPED_JSONL}).samples_per_s, rel=1e-3)


def test_jsonl_is_preferred_to_the_rounded_console_for_the_same_step() -> None:
    console = "[13:00:00] INFO     epoch=0, step=7, rank=0, overall_throughput=1.00e+03, batch_size=480  main_ds.py:343"
    jsonl = '{"step": 7, "rank": 0, "overall_throughput": 1004.5, "batch_size": 480}'
    (step,) = step_metrics([jsonl, console])
    assert step.seconds == pytest.approx(480 / 1004.5)


def test_the_world_size_comes_from_main_ds_else_from_nccl() -> None:
    lines = [f'{{"step": {k}, "rank": 0, "overall_throughput": 4.0, "batch_size": 8}}' for k in range(1, 4)]
    assert parse_run_logs({"m": "\n".join(lines)}).world_size is None
    with_gpus = ['{"num_gpus": 16, "avg_sample_len": 1483.0}', *lines]
    assert parse_run_logs({"m": "\n".join(with_gpus)}).world_size == 16
    nccl = "vm:1:2 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 1 localRanks 8 localRank 0 MNNVL 0"
    assert parse_run_logs({"m": "\n".join([nccl, *lines])}).world_size == 8


def test_warm_up_follows_the_run_length() -> None:
    assert [warmup_for(n) for n in (0, 1, 2, 7, 8, 40)] == [0, 1, 1, 1, WARMUP_STEPS, WARMUP_STEPS]
    with pytest.raises(RunLogError, match="0 training step"):
        parse_run_logs({"m": "nothing here"})


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "NaN", "Infinity", "1e999", "-1e999", "0", "-3"])
def test_a_non_finite_or_non_positive_throughput_is_never_a_measurement(value: str) -> None:
    bad = [f"epoch=0, step={k}, rank=0, overall_throughput={value}, batch_size=8" for k in range(1, 4)]
    bad += [f'{{"step": {k}, "rank": 0, "overall_throughput": {value}, "batch_size": 8}}' for k in range(4, 7)]
    scan = scan_log(bad)
    assert scan.steps == [] and scan.counts["malformed"] == 6
    with pytest.raises(RunLogError):
        parse_run_logs({"m": "\n".join(bad)})


@pytest.mark.parametrize(
    "line",
    [
        '{"step": true, "rank": 0, "overall_throughput": 2.0, "batch_size": 4}',
        '{"step": 1, "rank": "zero", "overall_throughput": 2.0, "batch_size": 4}',
        '{"step": 1, "rank": 0, "overall_throughput": 2.0, "batch_size": -4}',
        '{"step": 1, "rank": 0, "overall_throughput": "fast", "batch_size": 4}',
        '{"step": 1, "rank": 0, "overall_throughput": 2.0, "batch_size": 4, "elapsed_time": 1e300}',
        '{"step": 1e300, "rank": 0, "overall_throughput": 2.0, "batch_size": 4}',
        '{"step": ' + "9" * 5000 + ', "overall_throughput": 2.0, "batch_size": 4}',
        '{"step": 1, "overall_throughput": 2.0, "batch_size": 4' + "," * 3,
        '{"a": [' * 50_000 + '"overall_throughput"',  # deeper than the JSON decoder's recursion
        "epoch=0, step=1, rank=0, overall_throughput=2.0=3, batch_size=4",
        "epoch=0, step=-1, rank=0, overall_throughput=2.0, batch_size=4",
        "step=" + "1" * 40 + ", overall_throughput=2.0, batch_size=4",
    ],
)
def test_malformed_metrics_are_skipped_and_counted(line: str) -> None:
    scan = scan_log([line])
    assert scan.steps == [] and scan.counts["lines"] == 1 and scan.counts["malformed"] == 1


def test_an_overlong_console_record_is_dropped_not_kept_growing() -> None:
    rows = ["[13:00:00] INFO     epoch=0, step=1, rank=0,                main_ds.py:343"]
    rows += ["                    overall_throughput=2.0, batch_size=4,"] * (MAX_RECORD_CHARS // 20)
    scan = scan_log(rows)
    assert scan.steps == [] and scan.counts["malformed"] == 1


def test_bus_bandwidth_summary_lines_and_garbage() -> None:
    lines = [
        "[rank0]:# all_reduce: avg busbw 10.0 GB/s; 1073741824 B: 42.5 GB/s",
        "# all_gather: avg busbw 1.0 GB/s; 1024 B: 1.2.3 GB/s",
        "# x: avg busbw; B: inf GB/s",
        "# all_gather: avg busbw 1.0 GB/s; 1024 B: nan GB/s",
        "#" + " " * 50_000 + "GB/s",
    ]
    assert bus_bandwidth(lines) == {"all_reduce": 42.5}


def _hostile_lines(rng: random.Random) -> list[str]:
    pieces = [
        "{",
        "}",
        "[",
        "]",
        '"step": 1',
        '"overall_throughput": ',
        "overall_throughput=",
        "step=",
        "rank=0",
        "num_gpus=",
        "NaN",
        "Infinity",
        "1e999",
        ",",
        " ",
        "=",
        "INFO     ",
        "[13:00:00] ",
        "main_ds.py:343",
        "\t",
        "\x00",
        "é",
        "\udcff",
        "NCCL INFO ",
        "Channel 00 : 0[0] -> 1[1] via ",
        "# all_reduce: avg busbw ",
    ]
    lines = []
    for _ in range(60):
        size = rng.choice([0, 1, 10, 200, 5_000, 100_000])
        lines.append("".join(rng.choice(pieces) for _ in range(max(1, size // 8))))
    for char in " ,={[0a":
        lines.append(char * (1 << 20))  # 1 MB of one character: where backtracking would show
    lines.append("NCCL INFO Channel 00 : via " + " " * 200_000 + "x")
    lines.append("                    " + "overall_throughput=1.0, " * 40_000)
    return lines


@pytest.mark.parametrize("seed", range(3))
def test_fuzz_never_raises_and_accounts_for_every_line(seed: int) -> None:
    lines = _hostile_lines(random.Random(seed))
    scan = scan_log(lines)
    assert scan.counts["lines"] == len(lines)
    for step in scan.steps:
        assert step.samples > 0 and 0 < step.seconds < 1e9
    try:
        measurement = parse_run_logs({"pod": "\n".join(lines)})
    except RunLogError:
        return
    assert measurement.samples_per_s > 0
