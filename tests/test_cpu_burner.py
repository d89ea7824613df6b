"""``make test-loaded``: the suite beside tools/cpu_burner.py, which the target starts and stops itself.  The
target runs in a copy of the project whose suite is a stand-in (it waits for the test's word, then exits
with a status of its own); the burner is the real one, on one core."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.timing import hang_bound

from .conftest import PROJECT_ROOT

BURNER = PROJECT_ROOT / "tools" / "cpu_burner.py"
# Waits for the file `go` (the test writes it once the burner is up), then ends as a failed suite would.
SUITE = "#!/bin/sh\nwhile [ ! -e go ]; do sleep 0.02; done\nexit 3\n"


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (a container's init may never reap an orphan)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def _burner_pids(line: str) -> list[int]:
    """The burner's own id, then its spinning processes', from the line it starts with."""
    match = re.fullmatch(r"cpu_burner: pid (\d+), 1 processes busy for at most 600 s \(pids ([\d ]+)\)\n", line)
    assert match, line
    return [int(match.group(1)), *(int(pid) for pid in match.group(2).split())]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("Makefile", "requirements.txt", "requirements-dev.txt", "pyproject.toml"):
        shutil.copy(PROJECT_ROOT / name, tmp_path / name)
    (tmp_path / "tools").mkdir()
    shutil.copy(BURNER, tmp_path / "tools" / "cpu_burner.py")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (tmp_path / ".venv" / ".installed").touch()  # newer than its prerequisites: nothing is installed
    suite = tmp_path / "suite"
    suite.write_text(SUITE)
    suite.chmod(0o755)
    return tmp_path


def _start(project: Path) -> tuple[subprocess.Popen[str], list[int]]:
    make = subprocess.Popen(
        ["make", "--no-print-directory", "test-loaded", "BURN_SECONDS=600", "BURN_WORKERS=1", f"SUITE={project}/suite"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: Ctrl-C reaches make, the shell, the suite and the burner
    )
    assert make.stdout is not None
    return make, _burner_pids(make.stdout.readline())


@pytest.mark.slow
def test_the_burner_runs_beside_the_suite_and_stops_with_it_keeping_its_status(project: Path) -> None:
    make, pids = _start(project)
    assert not any(_gone(pid) for pid in pids)  # busy while the suite runs
    (project / "go").touch()
    out, err = make.communicate(timeout=60)
    assert make.returncode == 2 and "test-loaded] Error 3" in err, err  # the suite's failure, not the burner's
    assert re.fullmatch(r"cpu_burner: stopped after \d+\.\d s\n", out), out
    assert all(_gone(pid) for pid in pids)


@pytest.mark.slow
def test_ctrl_c_stops_the_burner_too(project: Path) -> None:
    make, pids = _start(project)
    os.killpg(make.pid, signal.SIGINT)
    out, _ = make.communicate(timeout=60)
    assert make.returncode != 0 and "cpu_burner: stopped after" in out
    assert all(_gone(pid) for pid in pids)


@pytest.mark.slow
def test_the_burner_stops_by_itself_and_when_it_is_killed(tmp_path: Path) -> None:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(BURNER), "--seconds", "0.2", "--workers", "1"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and time.monotonic() - start < hang_bound(0.2)
    assert re.fullmatch(r"cpu_burner: stopped after \d+\.\d s", done.stdout.splitlines()[-1]), done.stdout
    # Killed where no trap can run: its spinning process notices its parent gone and stops.
    with subprocess.Popen(
        [sys.executable, str(BURNER), "--seconds", "600", "--workers", "1"], stdout=subprocess.PIPE, text=True
    ) as burner:
        assert burner.stdout is not None
        _, spinner = _burner_pids(burner.stdout.readline())
        burner.kill()
    deadline = time.monotonic() + hang_bound(0.5)
    while not _gone(spinner) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _gone(spinner)


@pytest.mark.parametrize("args", [["--seconds", "nan"], ["--seconds", "0"], ["--seconds", "7200"], ["--workers", "0"]])
def test_bad_bounds_are_refused(args: list[str], capsys) -> None:
    spec = importlib.util.spec_from_file_location("cpu_burner", BURNER)
    assert spec is not None and spec.loader is not None
    burner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(burner)
    with pytest.raises(SystemExit) as refused:
        burner.main(["--seconds", "1", *args])
    captured = capsys.readouterr()
    assert refused.value.code == 2 and captured.out == ""
    assert captured.err.splitlines()[-1].startswith(f"{Path(sys.argv[0]).name}: error: argument --")
