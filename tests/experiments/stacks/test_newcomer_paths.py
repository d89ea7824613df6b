"""The Automation API path as a new user meets it (issue 36 item 6): ``stack up`` and ``examples/automation.py``
with no Pulumi CLI, a failing one (a stand-in ``pulumi`` on PATH), a bad stack file and no passphrase end in one
line and exit 2; a failed update in one line and exit 1.  Never a traceback, and every hint names the command in
use (``stack up`` has no ``--offline``)."""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from experiments.cli.main import main
from experiments.stacks.preflight import PASSPHRASE_VARIABLES

from ...conftest import PROJECT_ROOT, standalone_config
from ..incluster.test_steps import lock_dir

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell stand-in")

STACK = "h100-2n-sriov-rdma"  # adopts its workers: needs no secret config

STAND_IN = """#!/bin/sh
# A stand-in `pulumi`: answers `version`; logs every other call and answers it as the STUB_* variables say.
if [ "$1" = "version" ]; then echo v3.272.0; exit 0; fi
echo "$*" >> "$STUB_LOG"
case "$*" in
  *"stack select"*) if [ -n "$STUB_NEW" ]; then echo "error: no stack named 'x' found" >&2; exit 255; fi ;;
  *"stack init"*) if [ -n "$STUB_INIT_ERROR" ]; then echo "error: $STUB_INIT_ERROR" >&2; exit 255; fi ;;
  *" up "*|*" preview "*|*" destroy "*|*" cancel "*) echo "error: $STUB_RUN_ERROR" >&2; exit 255 ;;
esac
exit 0
"""


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``STAND_IN`` first on PATH as ``pulumi``, a passphrase set; returns the log of its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cli = bin_dir / "pulumi"
    cli.write_text(STAND_IN)
    cli.chmod(cli.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STUB_LOG", str(tmp_path / "cli.log"))
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "newcomer-test")
    monkeypatch.delenv("PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK", raising=False)
    return tmp_path / "cli.log"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("automation_example", PROJECT_ROOT / "examples" / "automation.py")
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


def stack_up(stack: str, state: Path) -> int:
    return main(["stack", "up", stack, "--state-dir", str(state)])


def example_up(stack: str, state: Path) -> int:
    return int(_example().main([stack, "--state-dir", str(state), "--up"]))


ENTRIES: dict[str, Callable[[str, Path], int]] = {"stack up": stack_up, "examples/automation.py": example_up}


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    (line,) = captured.err.strip().splitlines()
    assert line.startswith("error: ")
    return line


@pytest.mark.parametrize("entry", ENTRIES)
def test_no_cli_is_one_line_naming_the_command(entry: str, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "newcomer-test")
    assert ENTRIES[entry](STACK, tmp_path / "state") == 2
    line = _one_line(capsys)
    assert "the Pulumi CLI is not installed" in line and entry in line
    assert "--offline" not in line  # neither has such a flag
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("entry", ENTRIES)
def test_no_passphrase_is_one_line_before_the_cli_runs(entry: str, tmp_path, stand_in, monkeypatch, capsys) -> None:
    for name in PASSPHRASE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert ENTRIES[entry](STACK, tmp_path / "state") == 2
    line = _one_line(capsys)
    assert entry in line and "opens its stacks with the passphrase secrets provider" in line
    assert "set PULUMI_CONFIG_PASSPHRASE" in line
    assert ("--secrets-provider" in line) == (entry == "stack up")  # the example has no such flag
    assert not stand_in.exists()  # the CLI was only asked its version


@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize(
    "failure",
    [
        "could not create stack: stub backend unavailable",
        # The real CLI's, without a terminal (pulumi/pulumi pkg/secrets/passphrase/manager.go)
        "passphrase must be set with PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE environment variables",
    ],
)
def test_a_cli_that_cannot_create_the_stack_is_its_own_line(
    entry: str, failure: str, tmp_path, stand_in, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("STUB_NEW", "1")
    monkeypatch.setenv("STUB_INIT_ERROR", failure)
    assert ENTRIES[entry](STACK, tmp_path / "state") == 2
    line = _one_line(capsys)
    assert line.startswith(f"error: {STACK}: ") and line.endswith(f"could not open the stack: {failure}")
    assert "stack init" in stand_in.read_text()  # selected, not found, created: the creation failed


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_bad_stack_file_is_one_line_before_the_cli(entry: str, tmp_path, stand_in, capsys) -> None:
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": standalone_config(**{"nodes.colour": "red"})}}))
    assert ENTRIES[entry](str(bad), tmp_path / "state") == 2
    line = _one_line(capsys)
    assert "gpu-cluster:cluster.nodes.colour: unknown key" in line
    assert not stand_in.exists() and not (tmp_path / "state").exists()


def test_a_failed_update_is_exit_1(tmp_path, stand_in, monkeypatch, capsys) -> None:
    monkeypatch.setenv("STUB_RUN_ERROR", "the instance gpu-node-1 did not stop in 30m")
    assert stack_up(STACK, tmp_path / "state") == 1
    captured = capsys.readouterr()
    assert f"{STACK}: up failed: the instance gpu-node-1 did not stop in 30m" in captured.out
    assert "Traceback" not in captured.out + captured.err
    assert example_up(STACK, tmp_path / "state") == 1
    assert _one_line(capsys) == f"error: {STACK}: up failed: the instance gpu-node-1 did not stop in 30m"


@pytest.mark.parametrize("verb", ["destroy", "unlock"])
def test_the_other_verbs_fail_in_one_line_too(verb: str, tmp_path, stand_in, monkeypatch, capsys) -> None:
    state = tmp_path / "state"
    lock_dir(state, STACK).mkdir(parents=True)
    (lock_dir(state, STACK) / "held.json").write_text('{"pid": 1, "username": "ci", "hostname": "pod"}')
    monkeypatch.setenv("STUB_RUN_ERROR", "the backend refused")
    assert main(["stack", verb, STACK, "--state-dir", str(state)]) == 1
    captured = capsys.readouterr()
    assert f"{STACK}: {verb} failed: the backend refused" in captured.out
    assert "Traceback" not in captured.out + captured.err and captured.err == ""
    monkeypatch.setenv("STUB_NEW", "1")
    monkeypatch.setenv("STUB_INIT_ERROR", "could not create stack: stub backend unavailable")
    assert main(["stack", verb, STACK, "--state-dir", str(state)]) == 2
    line = _one_line(capsys)
    assert line.endswith(f"`stack {verb}` could not open the stack: could not create stack: stub backend unavailable")
