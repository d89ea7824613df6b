"""The project files a Pulumi CLI user relies on agree with each other."""

from __future__ import annotations

import json
import re

import yaml

from .conftest import PROJECT_ROOT


def test_pulumi_yaml_declares_the_parameterized_ibm_package() -> None:
    project = yaml.safe_load((PROJECT_ROOT / "Pulumi.yaml").read_text())
    assert project["name"] == "gpu-cluster"
    assert project["runtime"]["name"] == "python"
    assert project["backend"]["url"].startswith("file://")
    plugin = json.loads((PROJECT_ROOT / "sdks/ibm/pulumi_ibm/pulumi-plugin.json").read_text())
    ibm = project["packages"]["ibm"]
    assert ibm["source"] == plugin["name"] == "terraform-provider"
    assert ibm["version"] == plugin["version"]
    assert ibm["parameters"] == ["ibm-cloud/ibm", plugin["parameterization"]["version"]] == ["ibm-cloud/ibm", "2.5.0"]


def test_requirements_link_the_local_sdk_as_pulumi_package_add_does() -> None:
    lines = (PROJECT_ROOT / "requirements.txt").read_text().split()
    assert "sdks/ibm" in lines


def test_ci_runs_the_readme_test_command() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    block = re.search(r"## Two commands.*?```bash\n(.*?)```", readme, re.S)
    assert block, "README lost its two-commands block"
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert len(commands) == 2
    ci = (PROJECT_ROOT / ".ci/run").read_text()
    assert commands[1] in ci.splitlines()
