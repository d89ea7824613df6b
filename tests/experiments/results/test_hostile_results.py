"""``results``, ``results add``, ``report``, ``preview --out`` and ``sweep --out`` against hostile files:
logs that are FIFOs or twins, stores that are foreign, newer, corrupt, locked or missing, names that
are markup, and output folders holding the user's own files."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli.main import main
from experiments.results import store as results_store
from experiments.results.store import ResultsStore

from ...conftest import PROJECT_ROOT, cluster_config
from .test_results import record

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GPU_LOG = (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text()
EIGHT_RANKS = re.sub(r"nRanks \d+", "nRanks 8", GPU_LOG)
SOCKET_LOG = (FIXTURES / "nccl-logs" / "2xH200-socket.log").read_text()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def add(store: Path, *logs: Path, stack: str = "h100-1n") -> int:
    return main(["results", "--store", str(store), "add", stack, *[a for log in logs for a in ("--log", str(log))]])


# --- results add -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_fifo_as_log_is_refused_without_blocking(tmp_path) -> None:
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    script = (
        f"import sys; from experiments.cli.main import main; "
        f"sys.exit(main(['results', '--store', {str(tmp_path / 's.sqlite')!r}, 'add', 'h100-1n', "
        f"'--log', {str(fifo)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "is not a regular file" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "s.sqlite").exists()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_as_log_is_refused(tmp_path, capsys, device) -> None:
    assert add(tmp_path / "s.sqlite", Path(device)) == 2
    assert "is not a regular file" in capsys.readouterr().err


def test_logs_of_one_name_in_two_folders_are_two_logs(tmp_path, capsys) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "pod.log").write_text(EIGHT_RANKS)
    (tmp_path / "b" / "pod.log").write_text(SOCKET_LOG.replace("nRanks 2", "nRanks 8"))
    assert add(tmp_path / "s.sqlite", tmp_path / "a" / "pod.log", tmp_path / "b" / "pod.log") == 0, capsys.readouterr()
    (run,) = ResultsStore(tmp_path / "s.sqlite").runs()
    assert run.steps_counted == 25 and run.transport == "net-socket"  # both files counted


def test_a_run_is_added_once(tmp_path, capsys) -> None:
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    copy = tmp_path / "copy.log"
    copy.write_text(EIGHT_RANKS)
    assert add(tmp_path / "s.sqlite", log) == 0
    capsys.readouterr()
    assert add(tmp_path / "s.sqlite", copy) == 2  # the same logs under another name
    assert "these logs are already recorded as run 1 of h100-1n" in capsys.readouterr().err
    assert len(ResultsStore(tmp_path / "s.sqlite").runs()) == 1


def test_a_stack_outside_the_project_is_refused(tmp_path, capsys, write_stack) -> None:
    path = write_stack("elsewhere", cluster_config())
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    assert add(tmp_path / "s.sqlite", log, stack=str(path)) == 2
    assert "not a stack of this project" in capsys.readouterr().err
    assert not (tmp_path / "s.sqlite").exists()


def test_a_gpu_count_the_log_contradicts_is_refused(tmp_path, capsys) -> None:
    log = tmp_path / "master.log"
    log.write_text(GPU_LOG)  # one rank, the stack's job 8
    assert add(tmp_path / "s.sqlite", log) == 2
    err = capsys.readouterr().err
    assert "the logs report 1 GPU(s), but h100-1n's job runs on 8 GPU(s) (1 node(s) x 8)" in err
    assert ResultsStore(tmp_path / "s.sqlite").runs() == []


def test_non_finite_figures_are_never_stored_nor_printed(tmp_path, capsys) -> None:
    store = ResultsStore(tmp_path / "s.sqlite")
    for bad in (math.inf, math.nan, -math.inf):
        with pytest.raises(Exception, match="is not finite"):
            store.add(record(samples_per_s=bad))
    sql(
        tmp_path / "s.sqlite",  # a store another tool wrote into
        "INSERT INTO runs (recorded_at, stack, fingerprint, source, samples_per_s, steps_counted, "
        "step_time_mean_s, predicted_samples_per_s) VALUES ('t', 'h100-1n', 'f', 'x', 1e999, 3, -1e999, 1e999)",
    )
    assert main(["results", "--store", str(tmp_path / "s.sqlite"), "--json"]) == 0
    text = capsys.readouterr().out
    assert "Infinity" not in text and "NaN" not in text
    (row,) = json.loads(text)
    assert row["samples_per_s"] is None and row["off_prediction_pct"] is None
    assert main(["results", "--store", str(tmp_path / "s.sqlite")]) == 0


# --- the store --------------------------------------------------------------------------------------------


def sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()


def foreign(path: Path) -> Path:
    sql(path, "CREATE TABLE accounts (id INTEGER, secret TEXT)")
    return path


def newer(path: Path) -> Path:
    ResultsStore(path)
    sql(path, "PRAGMA user_version = 99")
    return path


def corrupt(path: Path) -> Path:
    ResultsStore(path).add(record())
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: PROJECT_ROOT / "README.md", "is not a results store (not an SQLite database)"),
        (foreign, "is an SQLite database of another application"),
        (newer, "was written by a newer gpu-cluster (schema 99"),
        (corrupt, "cannot be used"),
        (lambda p: p.parent, "is a directory"),
        (lambda p: Path("/dev/null"), "is not a regular file"),
    ],
)
@pytest.mark.parametrize("command", [["results"], ["results", "--json"], ["report"], ["add"]])
def test_every_unusable_store_is_one_message_and_stays_untouched(tmp_path, capsys, make, message, command) -> None:
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    store = make(tmp_path / "s.sqlite")
    before = digest(store) if store.is_file() else None
    siblings = sorted(os.listdir(store.parent)) if store.parent != PROJECT_ROOT else None
    argv = {
        "report": ["report", "--store", str(store), "--out", str(tmp_path / "report")],
        "add": ["results", "--store", str(store), "add", "h100-1n", "--log", str(log)],
    }.get(command[0], ["results", "--store", str(store), *command[1:]])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: store {store}: ") and message in err and len(err.strip().splitlines()) == 1, err
    if before is not None:
        assert digest(store) == before
    if siblings is not None:
        assert sorted(os.listdir(store.parent)) == siblings  # no -wal, -shm, report folder
    assert not (tmp_path / "report").exists()


def test_read_only_commands_never_create_a_store_or_its_folder(tmp_path, capsys, monkeypatch) -> None:
    store = tmp_path / "missing" / "results.sqlite"
    # A store the user names must exist (a mistyped path is refused, issue 37) ...
    assert main(["results", "--store", str(store)]) == 2
    assert main(["results", "--store", str(store), "--json"]) == 2
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "report")]) == 2
    # ... while the project's own, not there yet, simply has no runs.
    monkeypatch.setenv("GPU_CLUSTER_RESULTS", str(store))
    assert main(["results", "--json"]) == 0 and capsys.readouterr().out.strip().endswith("[]")
    assert main(["report", "--out", str(tmp_path / "report")]) == 0
    assert not (tmp_path / "missing").exists()


def test_read_only_commands_do_not_write_to_a_store(tmp_path) -> None:
    path = tmp_path / "s.sqlite"
    sql(path, *results_store.MIGRATIONS[0].split(";"), "PRAGMA user_version = 1")  # the first release's store
    before = digest(path)
    assert main(["results", "--store", str(path)]) == 0
    assert digest(path) == before  # not migrated by a reader
    ResultsStore(path)  # a writer migrates it, and marks it as a store
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == results_store.APPLICATION_ID
    db.close()


def test_a_locked_store_waits_then_says_so(tmp_path, capsys, monkeypatch) -> None:
    path = tmp_path / "s.sqlite"
    ResultsStore(path)
    monkeypatch.setattr(results_store, "LOCK_WAIT", 0.3)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    log = tmp_path / "master.log"
    log.write_text(EIGHT_RANKS)
    try:
        assert add(path, log) == 2
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    err = capsys.readouterr().err
    assert f"store {path}: is locked by another process (waited 0.3 s)" in err


# --- names from the store, in each medium -----------------------------------------------------------------

HOSTILE_NAMES = [
    "[bold]x",
    "[/]",
    "a[/bold]",
    "\\",
    "[link=file:///etc/passwd]y[/link]",
    "<img src=x onerror=alert(1)>",
    "a | b",
    "**bold** _em_ `code`",
    "\x1b[31mred\x1b[0m",
    "line\nbreak",
    "[![x](http://e)](http://e)",
]


def hostile_store(path: Path) -> Path:
    store = ResultsStore(path)
    for i, name in enumerate(HOSTILE_NAMES):
        store.add(record(stack=name, transport=name, git_commit=name, fingerprint=name, recorded_at=f"2026-{i}"))
    return path


def test_markup_in_names_cannot_break_the_results_table(tmp_path, capsys) -> None:
    assert main(["results", "--store", str(hostile_store(tmp_path / "s.sqlite"))]) == 0
    out = capsys.readouterr().out
    assert "[bold]x" in out and "[/]" in out and "\x1b" not in out and "onerror" in out


def test_names_are_escaped_in_the_report(tmp_path, capsys) -> None:
    store = hostile_store(tmp_path / "s.sqlite")
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "r")]) == 0
    report = (tmp_path / "r" / "report.md").read_text()
    section = report.split("## Your recorded runs", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| 2026")]
    assert len(rows) == len(HOSTILE_NAMES)
    assert all(line.count(" | ") + 0 == 7 for line in rows)  # no name adds a column
    assert "<img" not in section and "&lt;img src=x onerror=alert\\(1\\)&gt;" in section
    assert "\x1b" not in section and "**bold**" not in section and "](http" not in section


def test_the_escapes_of_each_medium() -> None:
    from experiments.base.safe_text import markdown_cell, path_component, rich_text, terminal_text

    assert path_component("../../x") == path_component("../../x") and "/" not in path_component("../../x")
    assert not path_component("..").startswith(".") and path_component(".hidden") != ".hidden"
    assert len(path_component("x" * 1000)) <= 120 and path_component("x" * 1000) != path_component("x" * 1001)
    assert path_component("ilab-master-0") == "ilab-master-0"
    assert path_component("a/b") != path_component("a_b")  # a changed name carries its digest
    assert terminal_text("a\x1b]0;t\x07\u202eb") == "a\\x1b]0;t\\x07\\u202eb"
    assert rich_text("[bold]x[/]").plain == "[bold]x[/]"
    assert markdown_cell("a|b<i>") == "a\\|b&lt;i&gt;"


# --- files the tool did not write -------------------------------------------------------------------------


def test_preview_report_and_sweep_never_overwrite_a_users_file(tmp_path, capsys) -> None:
    for name, argv in (
        ("preview.json", ["preview", "dev", "--out", str(tmp_path / "p")]),
        ("report.md", ["report", "--out", str(tmp_path / "r"), "--store", str(tmp_path / "none")]),
        ("throughput-h100.png", ["report", "--out", str(tmp_path / "r2"), "--store", str(tmp_path / "n")]),
        (
            "cells.json",
            [
                "sweep",
                "--offline",
                "--profile",
                "l40s",
                "--variant",
                "pod",
                "--nodes",
                "1",
                "--out",
                str(tmp_path / "s" / "cells.json"),
            ],
        ),
    ):
        folder = Path(argv[argv.index("--out") + 1])
        folder = folder.parent if folder.suffix else folder
        folder.mkdir(exist_ok=True)
        (folder / name).write_text("the user's own notes\n")
        assert main(argv) == 2, name
        err = capsys.readouterr().err
        assert f"{folder / name} exists and this tool did not write it" in err
        assert (folder / name).read_text() == "the user's own notes\n"
        assert sorted(os.listdir(folder)) == [name]


@pytest.mark.slow
def test_output_the_tool_wrote_is_replaced_on_the_next_run(tmp_path, capsys) -> None:
    ResultsStore(tmp_path / "none")  # an empty store: one the user names must exist (issue 37)
    for _ in range(2):
        assert main(["preview", "dev", "--out", str(tmp_path / "p")]) == 0
        assert main(["report", "--out", str(tmp_path / "r"), "--store", str(tmp_path / "none")]) == 0
        assert (
            main(
                [
                    "sweep",
                    "--offline",
                    "--profile",
                    "l40s",
                    "--variant",
                    "pod",
                    "--nodes",
                    "1",
                    "--out",
                    str(tmp_path / "s.json"),
                ]
            )
            == 0
        )
    assert json.loads((tmp_path / "s.json").read_text())["operation"] == "offline"


def test_a_link_in_an_outputs_place_is_refused(tmp_path, capsys) -> None:
    target = tmp_path / "elsewhere.md"
    target.write_text("keep")
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "report.md").symlink_to(target)
    assert main(["report", "--out", str(tmp_path / "r"), "--store", str(tmp_path / "none")]) == 2
    assert "is a symbolic link" in capsys.readouterr().err and target.read_text() == "keep"


def test_ctrl_c_in_a_sweep_keeps_the_cells_done_and_says_how_to_go_on(tmp_path, capsys, monkeypatch) -> None:
    from experiments.sweep import runners

    real = runners.render_offline
    calls = {"n": 0}

    def render_then_stop(stack):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(stack)

    monkeypatch.setattr(runners, "render_offline", render_then_stop)
    out = tmp_path / "cells.json"
    code = main(
        ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "1", "2", "4", "--out", str(out)]
    )
    printed = capsys.readouterr().out
    assert code == 130
    statuses = [cell["status"] for cell in json.loads(out.read_text())["cells"]]
    assert statuses == ["ok", "interrupted", "not run"]
    assert "interrupted after 1 cell(s): their results are kept above and in" in printed
    assert "run the same command again to go on" in printed


def test_a_tampered_index_cannot_aim_the_tool_elsewhere(tmp_path, capsys) -> None:
    out = tmp_path / "p"
    assert main(["preview", "dev", "--out", str(out)]) == 0
    (tmp_path / "keep.txt").write_text("keep")
    (out / "manifests" / ".gpu-cluster-index.json").write_text(json.dumps(["..", ".", "../../keep.txt", "/etc/x"]))
    victim = tmp_path / "victim.json"
    victim.write_text("keep")
    (out / ".gpu-cluster-index.json").unlink()
    (out / ".gpu-cluster-index.json").symlink_to(victim)
    assert main(["preview", "dev", "--out", str(out)]) == 2  # preview.json is no longer listed as ours
    assert victim.read_text() == "keep" and (tmp_path / "keep.txt").read_text() == "keep"
    (out / ".gpu-cluster-index.json").unlink()
    (out / "preview.json").unlink()
    capsys.readouterr()
    # The manifests' index names paths: refused whole, before anything is deleted, naming the index.
    assert main(["preview", "dev", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "manifests/.gpu-cluster-index.json: a name in it is not a plain file name" in err
    assert len(err.splitlines()) == 1
    shutil.rmtree(out / "manifests")
    assert main(["preview", "dev", "--out", str(out)]) == 0, capsys.readouterr().err
    assert victim.read_text() == "keep" and (tmp_path / "keep.txt").read_text() == "keep"
