"""The examples run: the component program under Pulumi's mocks, the Automation API script up to the CLI
(its stack stands in, and runs the inline program under the mocks with the config the script set)."""

from __future__ import annotations

import importlib.util
import json
import runpy
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml
from pulumi.runtime import settings as pulumi_settings

from .conftest import PROJECT_ROOT, RecordingMocks, standalone_config

EXAMPLES = PROJECT_ROOT / "examples"


def _run_program(program: Any, project: str, config: dict[str, str], secret_keys: list[str]) -> RecordingMocks:
    mocks = RecordingMocks()
    pulumi.runtime.set_mocks(mocks, project=project, stack="dev", preview=True)
    pulumi.runtime.set_all_config(config, secret_keys)
    pulumi.runtime.test(program)()
    return mocks


def test_the_component_example_declares_the_experiment_as_one_component() -> None:
    project = yaml.safe_load((EXAMPLES / "component" / "Pulumi.yaml").read_text())["name"]
    key = f"{project}:sshPublicKey"

    def program() -> None:  # returns nothing: the mocks' test wrapper awaits what a program returns
        runpy.run_path(str(EXAMPLES / "component" / "__main__.py"))

    mocks = _run_program(
        program,
        project,
        {key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample example"},
        [key],
    )
    assert [r.name for r in mocks.registered if r.typ == "gpu-cluster:index:GpuCluster"] == ["experiment"]
    instances = sorted(r.inputs["name"] for r in mocks.registered if r.typ == "ibm:index/isInstance:IsInstance")
    assert instances == ["my-l40s-node0", "my-l40s-node1"]
    types = [urn.split("::")[2] for urn in pulumi_settings.get_monitor().get_registered_resources()]
    assert "gpu-cluster:index:GpuCluster$pulumi:providers:ibm" in types


class _StandInStack:
    """What ``auto.create_or_select_stack`` returns, without the CLI: preview runs the inline program."""

    def __init__(self, program: Any) -> None:
        self.program, self.config, self.mocks = program, {}, None

    def set_all_config(self, config: dict[str, Any]) -> None:
        self.config.update(config)

    def preview(self, on_output: Any) -> Any:
        values = {key: value.value for key, value in self.config.items()}
        secrets = [key for key, value in self.config.items() if value.secret]
        self.mocks = _run_program(self.program, "gpu-cluster", values, secrets)
        return type("Preview", (), {"change_summary": {"create": len(self.mocks.registered)}})()


def test_the_automation_script_previews_a_stack_file_through_the_inline_program(tmp_path, monkeypatch, capsys) -> None:
    spec = importlib.util.spec_from_file_location("automation_example", EXAMPLES / "automation.py")
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    made: list[_StandInStack] = []

    def create_or_select_stack(stack_name: str, project_name: str, program: Any, opts: Any) -> _StandInStack:
        assert (stack_name, project_name) == ("mine", "gpu-cluster")
        assert opts.env_vars["PULUMI_BACKEND_URL"] == (tmp_path / "state").resolve().as_uri()
        made.append(_StandInStack(program))
        return made[-1]

    monkeypatch.setattr(example.auto, "create_or_select_stack", create_or_select_stack)
    monkeypatch.setattr(example, "pulumi_command", lambda use: None)  # the CLI the workspace would run
    monkeypatch.setenv("PULUMI_CONFIG_PASSPHRASE", "example-test")
    monkeypatch.setenv("SSH_PUBLIC_KEY", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample example")
    stack_file = tmp_path / "Pulumi.mine.yaml"
    stack_file.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": standalone_config()}}))
    assert example.main([str(stack_file), "--state-dir", str(tmp_path / "state")]) == 0
    (stack,) = made
    assert json.loads(stack.config["gpu-cluster:cluster"].value) == standalone_config()
    assert stack.config["gpu-cluster:sshPublicKey"].secret is True
    instances = sorted(r.inputs["name"] for r in stack.mocks.registered if r.typ == "ibm:index/isInstance:IsInstance")
    assert instances == ["t-node0", "t-node1"]
    assert "'create':" in capsys.readouterr().out


def test_the_automation_script_refuses_a_bad_stack_file_before_any_stack(tmp_path, monkeypatch, capsys) -> None:
    spec = importlib.util.spec_from_file_location("automation_example", EXAMPLES / "automation.py")
    assert spec and spec.loader
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    monkeypatch.setattr(example.auto, "create_or_select_stack", lambda **_: pytest.fail("a stack was made"))
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": standalone_config(layers="both")}}))
    assert example.main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: ") and "nodes.source" in err and "Traceback" not in err


def test_every_example_file_is_run_by_a_test() -> None:
    shown = {p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*.py")}
    assert shown == {"component/__main__.py", "automation.py"}
    assert Path(__file__).read_text().count("EXAMPLES /") >= 3
