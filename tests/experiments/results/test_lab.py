"""Lab runs (issue 35): recorded as a kind of their own from a run's log and its ``<run>.lab.json``,
the sidecar checked strictly and against its own log, listed and reported beside the model's
prediction for the lab, never the study.

The logs here are FIXTURES synthesised in main_ds's metrics-JSONL form (``lab_log``), not
measurements: they prove the recording and the figure path, not a speed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main
from experiments.results.lab_points import lab_points
from experiments.results.store import ResultsStore
from experiments.results.transfer import export_document, import_runs

STACK = "h100-2n-sriov"


def lab_log(ranks: int, per_gpu: int = 64, rate: float = 10.0, steps: int = 10, **config: Any) -> str:
    """A main_ds run in its metrics-JSONL form (a fixture): its settings, its size, then one line per step."""
    settings = {"effective_batch_size": per_gpu * ranks, "max_batch_len": 35000, **config}
    lines = [json.dumps(settings), json.dumps({"num_gpus": ranks})]
    for step in range(1, steps + 1):
        lines.append(
            json.dumps(
                {
                    "epoch": 0,
                    "step": step,
                    "rank": 0,
                    "overall_throughput": rate * (0.5 if step == 1 else 1.0),
                    "batch_size": per_gpu * ranks,
                    "num_minibatches": 3,
                }
            )
        )
    return "\n".join(lines) + "\n"


def sidecar(nodes: int = 2, gbps: float | None = 5.0, **changes: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "stack": STACK,
        "variant": "sriov",
        "nodes": nodes,
        "gpus_per_node": 2,
        "gpu": "NVIDIA H100 80GB HBM3",
        "shared_gpu": False,
        "link": {"gbps": gbps, "latency_ms": 0.05, "source": "override"},
        "model_cut": {"arch": "granite-3.1-8b", "layers": 8, "samples_per_gpu_per_step": 64, "max_batch_len": 35000},
        "date": "2026-12-06T09:00:00Z",
    }
    for key, value in changes.items():
        head, _, tail = key.partition("__")
        if tail:
            document[head] = {**document[head], tail: value}
        else:
            document[key] = value
    return document


def write_run(folder: Path, name: str, log: str, side: dict[str, Any] | str) -> tuple[Path, Path]:
    (folder / f"{name}.jsonl").write_text(log)
    (folder / f"{name}.lab.json").write_text(side if isinstance(side, str) else json.dumps(side))
    return folder / f"{name}.jsonl", folder / f"{name}.lab.json"


def add(store: Path, log: Path, lab: Path, *extra: str, stack: str = STACK) -> int:
    return main(["results", "--store", str(store), "add", stack, "--log", str(log), "--lab", str(lab), *extra])


@pytest.fixture
def recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A one-node run and a three-point sweep, recorded."""
    store = tmp_path / "results.sqlite"
    runs = {
        "one-node": (lab_log(2, rate=20.0), sidecar(nodes=1, gbps=None)),
        "sweep-1": (lab_log(4, rate=3.0), sidecar(gbps=1.0)),
        "sweep-5": (lab_log(4, rate=12.0), sidecar(gbps=5.0)),
        "model-link": (lab_log(4, rate=38.0), sidecar(gbps=80.0, link__source="model")),
    }
    for name, (log, side) in runs.items():
        assert add(store, *write_run(tmp_path, name, log, side)) == 0
    capsys.readouterr()
    return store


def test_a_lab_run_is_recorded_with_its_sidecar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "results.sqlite"
    assert add(store, *write_run(tmp_path, "run", lab_log(4, rate=12.0), sidecar())) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"recorded run 1 of {STACK} as a lab run (2 emulated node(s) x 2 GPU(s), 5 Gbit/s): "
        "12.00 samples/s over 5 steps"
    )
    (run,) = ResultsStore.reader(store).runs()
    assert (run.gpus, run.predicted_samples_per_s, run.source) == (4, None, "results add")
    assert json.loads(run.lab or "")["link"] == {"gbps": 5.0, "latency_ms": 0.05, "source": "override"}


def test_lab_runs_are_listed_as_such_beside_the_model_for_the_lab(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["results", "--store", str(recorded), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["kind"] for row in rows} == {"lab"}
    assert all(row["study_samples_per_s"] is None for row in rows)  # never the study's figure
    one_node, slow, mid, fast = rows
    assert one_node["predicted_samples_per_s"] == pytest.approx(20.0, rel=1e-6)  # its own compute
    assert one_node["lab_note"] == "one-node run: the compute of this host"
    assert slow["label"] == "lab: 2 x 2 GPU(s), 8 layers" and (one_node["nodes"], slow["nodes"]) == (1, 2)
    # the model adds only what the link costs: less bandwidth, fewer samples/s, under twice one node
    assert slow["predicted_samples_per_s"] < mid["predicted_samples_per_s"] < fast["predicted_samples_per_s"] < 40.0
    assert fast["lab_link"] == "80 Gbit/s, 0.05 ms (model)"
    assert main(["results", "--store", str(recorded)]) == 0
    out = capsys.readouterr().out
    assert out.count("(lab: ") == 4 and "never the study's figure" in out


def test_a_point_off_by_more_than_15_percent_names_the_term(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    assert add(store, *write_run(tmp_path, "one", lab_log(2, rate=20.0), sidecar(nodes=1, gbps=None))) == 0
    assert add(store, *write_run(tmp_path, "slow", lab_log(4, rate=6.0), sidecar(gbps=80.0))) == 0
    assert add(store, *write_run(tmp_path, "fast", lab_log(4, rate=20.0), sidecar(gbps=1.0))) == 0
    one, slow, fast = lab_points(ResultsStore.reader(store).runs())
    assert one.term is None
    assert slow.error_pct is not None and slow.error_pct > 15 and slow.term == "overlap"  # the model hides the traffic
    assert fast.error_pct is not None and fast.error_pct < -15 and fast.term == "bytes per step"


def test_a_one_node_run_may_be_recorded_under_a_one_node_stack(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    one = sidecar(nodes=1, gbps=None, stack="h100-1n", variant="pod")
    assert add(store, *write_run(tmp_path, "one", lab_log(2, rate=20.0), one), stack="h100-1n") == 0
    assert add(store, *write_run(tmp_path, "two", lab_log(4, rate=12.0), sidecar())) == 0
    one_node, two = lab_points(ResultsStore.reader(store).runs())
    assert two.baseline_samples_per_s == 20.0 and two.predicted is not None  # the same host shape lends its compute


def test_a_lab_point_without_a_one_node_run_says_why(tmp_path: Path) -> None:
    store = tmp_path / "results.sqlite"
    assert add(store, *write_run(tmp_path, "sweep", lab_log(4), sidecar())) == 0
    (point,) = lab_points(ResultsStore.reader(store).runs())
    assert point.predicted is None and point.note.startswith("no one-node lab run of this GPU")


BAD_SIDECARS = [
    ("{not json", "not a lab sidecar (JSON)"),
    (json.dumps([1, 2]), "(the document): Input should be a valid dictionary"),
    (json.dumps(sidecar(colour="red")), "colour: Extra inputs are not permitted"),
    (json.dumps({k: v for k, v in sidecar().items() if k != "link"}), "link: Field required"),
    (json.dumps(sidecar(nodes="2")), "nodes: Input should be a valid integer"),
    (json.dumps(sidecar(nodes=True)), "nodes: Input should be a valid integer"),
    (json.dumps(sidecar(nodes=0)), "nodes: Input should be greater than or equal to 1"),
    (json.dumps(sidecar(link__gbps=-1)), "link.gbps: Input should be greater than 0"),
    (json.dumps(sidecar(link__latency_ms=float("nan"))), "link.latency_ms: Input should be a finite number"),
    (json.dumps(sidecar(link__source="guess")), "link.source: Input should be 'model' or 'override'"),
    (json.dumps(sidecar(variant="sriov-rdma")), "variant: the lab emulates no RDMA"),
    (json.dumps(sidecar(gpu="H100\x1b[2J")), "gpu: String should match pattern"),
    (json.dumps(sidecar(model_cut__layers=0)), "model_cut.layers: Input should be greater than or equal to 1"),
    (json.dumps(sidecar(date="yesterday")), "date: String should"),
]


@pytest.mark.parametrize(("text", "message"), BAD_SIDECARS)
def test_a_bad_sidecar_is_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    store = tmp_path / "results.sqlite"
    log, lab = write_run(tmp_path, "run", lab_log(4), text)
    assert add(store, log, lab) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --lab {lab}: ") and message in err, err
    assert len(err.strip().splitlines()) == 1
    assert not store.exists()


CONTRADICTIONS = [
    (lab_log(8), sidecar(), "--log: the log reports 8 rank(s), but the sidecar's 2 node(s) x 2 GPU(s) make 4"),
    (
        lab_log(4, per_gpu=32),
        sidecar(),
        "--log: the log's steps carry up to 128 samples, but the sidecar's 64 per GPU x 4 rank(s) make 256",
    ),
    (lab_log(4, max_batch_len=4096), sidecar(), "--log: main_ds ran with max_batch_len 4096, but the sidecar makes it"),
    (lab_log(4, steps=5), sidecar(), "--log: 4 step(s) after warm-up; a lab run needs at least 5"),
    (lab_log(4), sidecar(stack="h100-2n-vnic"), f"--lab: the sidecar is a run of h100-2n-vnic, not of {STACK}"),
    (lab_log(4), sidecar(variant="pod"), f"--lab: the sidecar says variant pod, but {STACK} is sriov"),
    (lab_log(8), sidecar(nodes=4), f"--lab: 4 emulated nodes, more than {STACK}'s 2"),
    (lab_log(18), sidecar(nodes=2, gpus_per_node=9), f"--lab: 9 GPUs per node, more than {STACK}'s 8"),
    (lab_log(2), sidecar(nodes=1, shared_gpu=True), "--lab: shared_gpu is for several emulated nodes"),
]


@pytest.mark.parametrize(("log", "side", "message"), CONTRADICTIONS)
def test_a_sidecar_that_contradicts_its_stack_or_its_log_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log: str, side: dict[str, Any], message: str
) -> None:
    store = tmp_path / "results.sqlite"
    assert add(store, *write_run(tmp_path, "run", log, side)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {message}") and len(err.strip().splitlines()) == 1, err
    assert ResultsStore.reader(store).runs() == []


def test_a_log_that_names_no_size_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = "\n".join(line for line in lab_log(4).splitlines() if "num_gpus" not in line)
    assert add(tmp_path / "s.sqlite", *write_run(tmp_path, "run", log, sidecar())) == 2
    assert "the log reports no world size" in capsys.readouterr().err


def test_the_sidecar_file_itself_is_checked_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, lab = write_run(tmp_path, "run", lab_log(4), sidecar())
    folder = tmp_path / "folder.lab.json"
    folder.mkdir()
    assert add(tmp_path / "s.sqlite", log, folder) == 2
    assert capsys.readouterr().err == f"error: --lab {folder}: is not a regular file\n"
    fifo = tmp_path / "fifo.lab.json"
    os.mkfifo(fifo)
    assert add(tmp_path / "s.sqlite", log, fifo) == 2  # refused before an open could block
    assert "is not a regular file" in capsys.readouterr().err
    lab.write_text(" " * (64 * 1024 + 1))
    assert add(tmp_path / "s.sqlite", log, lab) == 2
    assert "over 64 KiB: not a lab sidecar" in capsys.readouterr().err
    assert add(tmp_path / "s.sqlite", log, lab, "--gpus", "1") == 2
    assert "--gpus and --lab" in capsys.readouterr().err
    assert not (tmp_path / "s.sqlite").exists()


def test_a_lab_run_travels_through_export_and_pull(recorded: Path, tmp_path: Path) -> None:
    document = export_document(recorded)
    assert all(json.loads(run["lab"])["stack"] == STACK for run in document["runs"])
    other = tmp_path / "other.sqlite"
    assert import_runs(other, document["runs"]) == (4, 0)
    assert [r.lab for r in ResultsStore.reader(other).runs()] == [r.lab for r in ResultsStore.reader(recorded).runs()]


def test_a_stored_sidecar_that_no_longer_parses_leaves_its_run_listed(recorded: Path) -> None:
    import sqlite3

    with sqlite3.connect(recorded) as db:
        db.execute("UPDATE runs SET lab = '{\"stack\": 1}' WHERE id = 2")
    points = lab_points(ResultsStore.reader(recorded).runs())
    assert points[1].sidecar is None and points[1].note == "its stored sidecar does not parse"
    assert [p.predicted is not None for p in points] == [True, False, True, True]


@pytest.mark.slow
def test_the_report_shows_lab_runs_apart_with_their_figure(recorded: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert main(["report", "--out", str(out), "--store", str(recorded)]) == 0
    report = (out / "report.md").read_text()
    recorded_section = report.split("## Your recorded runs", 1)[1].split("\n## ", 1)[0]
    assert STACK not in recorded_section  # lab runs are not cluster runs
    section = report.split("## Lab runs: emulated nodes on one host", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 4
    assert "| 80 Gbit/s, 0.05 ms \\(model\\) | 38.00 |" in rows[3]
    assert "![lab runs against link bandwidth](throughput-lab.png)" in section
    assert (out / "throughput-lab.png").read_bytes().startswith(b"\x89PNG")
    assert (out / "throughput-lab.png").stat().st_size > 10_000


def test_predict_a_lab_point(recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, lab = write_run(tmp_path, "next", lab_log(4), sidecar(gbps=10.0))
    assert main(["predict", "--lab", str(lab), "--store", str(recorded), "--json"]) == 0
    predicted = json.loads(capsys.readouterr().out)
    assert predicted["one_node_samples_per_s"] == 20.0 and 12.0 < predicted["samples_per_s"] < 38.0
    assert main(["predict", "--lab", str(lab), "--one-node", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{STACK} in the lab: 2 emulated node(s) x 2 GPU(s), 8 layers, link 10 Gbit/s and 0.05 ms")
    assert f"predicted {predicted['samples_per_s']:.2f} samples/s from a one-node run at 20.00" in out
    ResultsStore(tmp_path / "empty.sqlite")  # a store the user names must exist (issue 37): an empty one
    assert main(["predict", "--lab", str(lab), "--store", str(tmp_path / "empty.sqlite")]) == 2
    assert "no one-node lab run of this GPU" in capsys.readouterr().err
    assert main(["predict", STACK, "--lab", str(lab)]) == 2
    assert "give a stack, or --lab FILE" in capsys.readouterr().err


LAB_RUNS = Path(__file__).resolve().parents[2] / "fixtures" / "runs" / "lab"
PROOFS = {
    "proof-pod": ("h100-2n-pod", 24.75),
    "proof-pod-1g": ("h100-2n-pod", 31.01),
    "proof-pod-2g": ("h100-2n-pod", 31.17),
    "proof-pod-5g": ("h100-2n-pod", 34.75),
    "proof-pod-unshaped": ("h100-2n-pod", 29.17),
    "proof-vnic": ("h100-2n-vnic", 34.23),
}


def test_the_labs_one_gpu_proofs_are_recorded_and_say_what_they_cannot_test(tmp_path: Path) -> None:
    # The lab's real runs (2026-12-06, one H100 shared by both emulated nodes, tiny Granite): recorded as
    # lab runs; without a one-node run the model predicts none of them, and with one GPU per node the
    # job sends no gradient between the nodes, which each point says.
    store = tmp_path / "results.sqlite"
    for name, (stack, _) in PROOFS.items():
        assert add(store, LAB_RUNS / f"{name}.jsonl", LAB_RUNS / f"{name}.lab.json", stack=stack) == 0
    points = lab_points(ResultsStore.reader(store).runs())
    assert [round(p.run.samples_per_s, 2) for p in points] == [rate for _, rate in PROOFS.values()]
    for point in points:
        assert point.sidecar is not None and point.sidecar.shared_gpu and point.run.steps_counted == 8
        assert point.predicted is None
        assert point.note.startswith("no one-node lab run") and "pytorch/pytorch#154888" in point.note
