"""Lab runs against hostile input (issue 37's principles on issue 35's surfaces): a sidecar that is
ambiguous JSON, ``predict --one-node`` values that are no rate, and a store edited by hand so that a
lab run's samples/s is no figure a run can have.  Each is one line and exit 2, or (a store, read
again) the run stays listed without a prediction; never a traceback."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.results.lab_points import lab_points
from experiments.results.store import ResultsStore

from .test_lab import STACK, add, lab_log, recorded, sidecar, write_run

__all__ = ["recorded"]  # the fixture, shared


def test_a_sidecar_that_names_a_key_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The decoder keeps the last "nodes" silently; a reader that keeps the first sees another run.
    text = json.dumps(sidecar())[:-1] + ', "nodes": 1}'
    store = tmp_path / "s.sqlite"
    log, lab = write_run(tmp_path, "run", lab_log(2), text)
    assert add(store, log, lab) == 2
    assert capsys.readouterr().err == f'error: --lab {lab}: not a lab sidecar (JSON) (the key "nodes" appears twice)\n'
    nested = json.dumps(sidecar()).replace('"latency_ms": 0.05', '"latency_ms": 0.05, "latency_ms": 9')
    lab.write_text(nested)
    assert add(store, log, lab) == 2
    assert 'the key "latency_ms" appears twice' in capsys.readouterr().err
    assert not store.exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "'0': must be a finite number of samples/s above 0"),
        ("-3", "'-3': must be a finite number of samples/s above 0"),
        ("nan", "'nan': must be a finite number of samples/s above 0"),
        ("inf", "'inf': must be a finite number of samples/s above 0"),
        ("1e400", "'1e400': must be a finite number of samples/s above 0"),
        ("abc", "'abc' is not a number of samples/s"),
    ],
)
def test_one_node_is_a_rate_above_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    _, lab = write_run(tmp_path, "next", lab_log(4), sidecar(gbps=10.0))
    with pytest.raises(SystemExit) as exit_:
        main(["predict", "--lab", str(lab), f"--one-node={value}"])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"gpu-cluster predict: error: argument --one-node: {message}"


@pytest.mark.parametrize("stored", ["'NaN'", "'x'", "-5", "0", "1e999", "1e300"])
@pytest.mark.parametrize("row", [1, 2])  # the one-node run the compute comes from, and a sweep point
def test_a_lab_run_whose_stored_rate_is_no_figure_stays_listed_without_a_prediction(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], stored: str, row: int
) -> None:
    with sqlite3.connect(recorded) as db:
        db.execute(f"UPDATE runs SET samples_per_s = {stored} WHERE id = ?", (row,))
    points = lab_points(ResultsStore.reader(recorded).runs())
    assert points[row - 1].predicted is None and points[row - 1].error_pct is None
    assert points[row - 1].note == "its stored samples/s is not a figure a run can have"
    # With the one-node run gone, no sweep point has a compute to read; otherwise the others hold.
    assert [p.predicted is not None for p in points] == ([False] * 4 if row == 1 else [True, False, True, True])
    assert main(["results", "--store", str(recorded)]) == 0
    assert STACK in capsys.readouterr().out
    assert main(
        ["predict", "--lab", str(write_run(tmp_path, "n", lab_log(4), sidecar())[1]), "--store", str(recorded)]
    ) == (2 if row == 1 else 0)


def test_the_lab_table_of_the_report_shows_a_rate_that_is_no_figure_as_a_dash(recorded: Path) -> None:
    from experiments.results.lab_report import lab_section

    with sqlite3.connect(recorded) as db:
        db.execute("UPDATE runs SET samples_per_s = 'NaN' WHERE id = 2")
    rows = [line for line in lab_section(lab_points(ResultsStore.reader(recorded).runs())) if line.startswith("| 2 |")]
    assert rows == [
        f"| 2 | {STACK} | lab: 2 x 2 GPU\\(s\\), 8 layers | 1 Gbit/s, 0.05 ms \\(override\\) | — | — | — | "
        "its stored samples/s is not a figure a run can have |"
    ]
