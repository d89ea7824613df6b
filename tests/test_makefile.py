"""``make``'s first step: a Python the project does not support is one line, and a ``.venv`` one made is
replaced (with one line saying so), never reused. Stand-in interpreters play Python 3.10 and 3.12."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import PROJECT_ROOT

# A stand-in python: answers the Makefile's version check as the named version, makes a venv of itself,
# and pretends pip installed everything.
INTERPRETER = """#!/bin/sh
if [ "$1" = "-c" ]; then exit {supported}; fi
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0; fi
echo "$0 $*" >> "{log}"
exit 0
"""


def _interpreter(path: Path, supported: bool, log: Path) -> Path:
    path.write_text(INTERPRETER.format(supported=0 if supported else 1, log=log))
    path.chmod(0o755)
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("Makefile", "requirements.txt", "requirements-dev.txt", "pyproject.toml"):
        shutil.copy(PROJECT_ROOT / name, tmp_path / name)
    return tmp_path


def _make(project: Path, python: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", ".venv/.installed", f"PYTHON={python}"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_venv_made_by_python_3_10_is_replaced_with_one_line_saying_so(project: Path, tmp_path: Path) -> None:
    log = tmp_path / "pip.log"
    (project / ".venv" / "bin").mkdir(parents=True)
    _interpreter(project / ".venv" / "bin" / "python", supported=False, log=log)  # the old 3.10 venv
    (project / ".venv" / "leftover").write_text("from the 3.10 run")
    done = _make(project, _interpreter(tmp_path / "python3.12", supported=True, log=log))
    assert done.returncode == 0, done.stderr
    replacing = [line for line in done.stdout.splitlines() if line.startswith("replacing .venv")]
    assert replacing == ["replacing .venv: it was made by a Python older than 3.11, which gpu-cluster does not support"]
    assert not (project / ".venv" / "leftover").exists() and (project / ".venv" / ".installed").exists()
    assert "-m pip install" in log.read_text()
    # The next run finds the new venv supported: nothing is replaced or installed again.
    again = _make(project, tmp_path / "python3.12")
    assert "replacing" not in again.stdout and "pip" not in again.stdout


def test_an_unsupported_python_is_one_line_exit_2_and_makes_no_venv(project: Path, tmp_path: Path) -> None:
    python = _interpreter(tmp_path / "python3.10", supported=False, log=tmp_path / "pip.log")
    done = _make(project, python)
    assert done.returncode != 0
    assert [line for line in done.stderr.splitlines() if line.startswith("error:")] == [
        f"error: {python} is not Python 3.11 or newer, which gpu-cluster needs: make PYTHON=python3.11 (or newer)"
    ]
    assert not (project / ".venv").exists()
