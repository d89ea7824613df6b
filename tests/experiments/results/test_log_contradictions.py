"""Issue 37: a recorded figure never contradicts its own log.  A log whose ``num_gpus`` disagrees with its NCCL
communicator's ``nRanks`` (or with itself) proves nothing and is refused; a run on more GPUs than its stack's
job (a pulled run, as ``results add`` would refuse it) is listed apart, never measured against the stack's
prediction, never plotted as its point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from experiments.base.safe_text import markdown_cell
from experiments.cli.main import main
from experiments.results.runlog import RunLogError, parse_run_logs
from experiments.results.runs import recorded_runs
from experiments.results.store import ResultsStore

from ...conftest import PROJECT_ROOT
from .test_results import record

PROOF = (PROJECT_ROOT / "tests" / "fixtures" / "runs" / "h100-1n-main_ds-2gpu-proof.log").read_text()


def one_error(capsys: Any) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_the_committed_proof_reads_two_gpus_both_ways() -> None:
    measurement = parse_run_logs({"proof.log": PROOF})
    assert measurement.world_size == measurement.ranks == 2


@pytest.mark.parametrize("gpus", [4, 8, 1])
def test_a_log_whose_num_gpus_was_edited_is_no_proof(tmp_path, capsys, gpus: int) -> None:
    """The 2-GPU log with num_gpus edited, its NCCL ``nRanks 2`` lines kept, was recorded as a proof on ``gpus``."""
    edited = tmp_path / "edited.log"
    edited.write_text(PROOF.replace("num_gpus=2,", f"num_gpus={gpus},"))
    store = tmp_path / "r.sqlite"
    declared = ["--gpus", str(gpus)] if gpus < 8 else []  # 8: the stack's own size, no proof to declare
    assert main(["results", "--store", str(store), "add", "h100-1n", "--log", str(edited), *declared]) == 2
    err = one_error(capsys)
    assert f"the logs contradict themselves: main_ds reports num_gpus={gpus}, but NCCL's communicator spans " in err
    assert "nRanks 2" in err
    assert not store.exists() or ResultsStore(store).runs() == []


def test_a_log_reporting_two_sizes_is_no_proof() -> None:
    twice = PROOF + "\n" + '{"num_gpus": 4, "avg_sample_len": 1483.0}\n'
    with pytest.raises(RunLogError, match=r"^the logs contradict themselves: main_ds reports num_gpus 2, 4"):
        parse_run_logs({"proof.log": twice})
    with pytest.raises(RunLogError, match="contradict themselves"):
        parse_run_logs({"a.log": PROOF, "b.log": PROOF.replace("num_gpus=2,", "num_gpus=8,")})


def test_ranks_edited_instead_are_refused_too() -> None:
    with pytest.raises(RunLogError, match=r"num_gpus=2, but NCCL's communicator spans nRanks 16"):
        parse_run_logs({"proof.log": PROOF.replace("nRanks 2 ", "nRanks 16 ")})


def rows(tmp_path: Path, **changes: Any) -> list[dict[str, Any]]:
    store = tmp_path / "pulled.sqlite"
    ResultsStore(store).add(record(**changes))
    return recorded_runs(store)


def test_a_pulled_run_on_more_gpus_than_its_stack_is_not_compared_with_its_prediction(tmp_path) -> None:
    """``h100-1n`` runs its job on 8 GPUs; the pulled run says 16, and 20 against 21.97 predicted would read -9 %."""
    (row,) = rows(tmp_path, gpus=16)
    assert row["label"] == "16 GPUs, the stack has 8"
    assert row["off_prediction_pct"] is None and row["flagged"] is False
    (own,) = rows(tmp_path / "own", gpus=8)  # the stack's own size: compared as before
    assert own["label"] is None and own["off_prediction_pct"] == pytest.approx(100 * (20.0 / 21.97 - 1))


@pytest.mark.slow  # the report draws its charts (matplotlib): seconds
def test_a_pulled_run_on_more_gpus_is_listed_apart_in_the_report_and_never_plotted(tmp_path, monkeypatch) -> None:
    from matplotlib.axes import Axes

    plotted: list[Any] = []
    scatter = Axes.scatter

    def recording(self: Axes, x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("label") == "your recorded runs":
            plotted.append((list(x), list(y)))
        return scatter(self, x, y, *args, **kwargs)

    monkeypatch.setattr(Axes, "scatter", recording)
    store = tmp_path / "pulled.sqlite"
    ResultsStore(store).add(record(gpus=16, samples_per_s=123.0))
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "report")]) == 0
    report = (tmp_path / "report" / "report.md").read_text()
    assert markdown_cell("h100-1n (16 GPUs, the stack has 8, not a study figure)") in report
    assert all(123.0 not in ys for _, ys in plotted)


def test_the_json_listing_says_so(tmp_path, capsys) -> None:
    store = tmp_path / "pulled.sqlite"
    ResultsStore(store).add(record(gpus=16))
    assert main(["results", "--store", str(store), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["label"] == "16 GPUs, the stack has 8" and row["flagged"] is False


def test_a_run_without_gpus_is_sized_by_its_ranks(tmp_path) -> None:
    (row,) = rows(tmp_path, ranks=16)  # a run of an older store: its NCCL ranks are its size
    assert row["label"] == "16 GPUs, the stack has 8" and row["off_prediction_pct"] is None


def test_a_pulled_run_whose_ranks_and_gpus_disagree_is_refused_whole(tmp_path, capsys) -> None:
    from .test_pull import document_file

    good = {**vars(record(ranks=8, gpus=8))}
    bad = {**vars(record(ranks=8, gpus=16, recorded_at="2026-11-24T12:00:00+00:00"))}
    for run in (good, bad):
        run.pop("id", None)
    local = tmp_path / "local.sqlite"
    assert main(["pull-results", str(document_file(tmp_path, [good, bad])), "--store", str(local)]) == 2
    err = one_error(capsys)
    assert "ranks 8 and gpus 16 contradict each other" in err and "nothing was imported" in err
    assert not local.exists() or ResultsStore(local).runs() == []
