"""``export-results`` and ``pull-results`` against the results store's rules: read-only where only reading,
foreign / newer / corrupt stores refused in one message, the schema's optional fields and ``logs_digest``
carried, and export files that never overwrite a file the tool did not write."""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.results.store import SCHEMA_VERSION, ResultsStore
from experiments.results.transfer import _digest, export_document

from ..incluster.test_transfer import RUN, cluster_store


def errors(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def document_file(tmp_path: Path, runs: list[dict]) -> Path:
    path = tmp_path / "export.json"
    path.write_text(
        json.dumps({"format": "gpu-cluster-results/1", "count": len(runs), "sha256": _digest(runs), "runs": runs})
    )
    return path


def foreign_db(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE runs (id INTEGER, recorded_at TEXT, stack TEXT)")  # a "runs" table, not ours
    db.execute("INSERT INTO runs VALUES (1, 'x', 'y')")
    db.commit()
    db.close()
    return path


def newer_store(path: Path) -> Path:
    ResultsStore(path).add(RUN)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    return path


def test_export_reads_the_store_read_only(tmp_path, capsys) -> None:
    store = cluster_store(tmp_path)
    for extra in (store.with_name(store.name + "-wal"), store.with_name(store.name + "-shm")):
        extra.unlink(missing_ok=True)
    before = store.read_bytes()
    assert main(["export-results", "--store", str(store)]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 3
    assert store.read_bytes() == before and sorted(p.name for p in store.parent.iterdir()) == ["results.sqlite"]


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (foreign_db, "an SQLite database of another application"),
        (newer_store, "written by a newer gpu-cluster"),
        (lambda p: (p.write_text("# README\n"), p)[1], "not a results store (not an SQLite database)"),
    ],
)
def test_a_foreign_newer_or_corrupt_store_is_one_message_and_left_as_it_was(tmp_path, capsys, make, said) -> None:
    path = make(tmp_path / "other.sqlite")
    before = path.read_bytes()
    assert main(["export-results", "--store", str(path)]) == 2
    assert said in errors(capsys)
    export = document_file(tmp_path, export_document(cluster_store(tmp_path))["runs"])
    assert main(["pull-results", str(export), "--store", str(path)]) == 2  # as the local store
    assert said in errors(capsys)
    assert main(["pull-results", str(path), "--store", str(tmp_path / "local.sqlite")]) == 2  # as the source
    errors(capsys)
    assert path.read_bytes() == before and not (tmp_path / "local.sqlite").exists()


def test_a_run_with_its_logs_digest_is_pulled_and_the_same_logs_are_never_pulled_twice(tmp_path, capsys) -> None:
    source = tmp_path / "cluster.sqlite"
    ResultsStore(source).add(replace(RUN, logs_digest="a" * 64))
    local = tmp_path / "local.sqlite"
    ResultsStore(local).add(replace(RUN, logs_digest="b" * 64, samples_per_s=1.0))
    assert main(["pull-results", str(source), "--store", str(local)]) == 0
    assert [r.logs_digest for r in ResultsStore(local).runs()] == ["b" * 64, "a" * 64]
    # The same logs recorded locally under another record (results add of the logs you collected): there.
    again = document_file(tmp_path, [{**export_document(source)["runs"][0], "source": "results add"}])
    assert main(["pull-results", str(again), "--store", str(local)]) == 0
    assert "imported 0 run(s)" in capsys.readouterr().out and len(ResultsStore(local).runs()) == 2


def test_an_older_export_without_the_newer_fields_is_pulled_and_an_unknown_field_refused(tmp_path, capsys) -> None:
    run = export_document(cluster_store(tmp_path, 1))["runs"][0]
    older = {k: v for k, v in run.items() if k not in ("logs_digest", "ranks", "gpus", "step_time_p90_s")}
    local = tmp_path / "local.sqlite"
    assert main(["pull-results", str(document_file(tmp_path, [older])), "--store", str(local)]) == 0
    (pulled,) = ResultsStore(local).runs()
    assert pulled.ranks is None and pulled.logs_digest is None and pulled.samples_per_s == pytest.approx(40.0)
    newer = {**run, "energy_joules": 12.5}
    assert main(["pull-results", str(document_file(tmp_path, [newer])), "--store", str(local)]) == 2
    assert "energy_joules this gpu-cluster does not know" in errors(capsys)
    assert len(ResultsStore(local).runs()) == 1


def test_export_out_never_overwrites_a_file_the_tool_did_not_write(tmp_path, capsys) -> None:
    store, out = cluster_store(tmp_path), tmp_path / "exports" / "runs.json"
    out.parent.mkdir()
    out.write_text("my notes\n")
    assert main(["export-results", "--store", str(store), "--out", str(out)]) == 2
    assert "exists and this tool did not write it" in errors(capsys) and out.read_text() == "my notes\n"
    out.unlink()
    assert main(["export-results", "--store", str(store), "--out", str(out)]) == 0
    assert main(["export-results", "--store", str(store), "--out", str(out), "--last", "1"]) == 0  # its own file
    assert json.loads(out.read_text())["count"] == 1
    missing = tmp_path / "exports" / "other.json"
    assert main(["export-results", "--store", str(tmp_path / "none.sqlite"), "--out", str(missing)]) == 2
    assert "no such results database" in errors(capsys) and not missing.exists()


def test_a_fifo_source_is_refused_without_blocking_and_names_are_printed_literally(tmp_path, capsys) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert main(["pull-results", str(fifo), "--store", str(tmp_path / "local.sqlite")]) == 2
    assert "not a regular file" in errors(capsys)
    marked = tmp_path / "[bold]runs[red].json"
    marked.write_text(json.dumps(export_document(cluster_store(tmp_path, 1))))
    assert main(["pull-results", str(marked), "--store", str(tmp_path / "local.sqlite")]) == 0
    assert "[bold]runs[red].json: imported 1 run(s)" in capsys.readouterr().out
