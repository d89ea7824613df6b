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
    assert project["options"] == {"refresh": "always"}  # adopted workers' NICs are re-read before every up
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


def _tracked_text_files() -> list[str]:
    import subprocess

    names = subprocess.run(["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True).stdout
    return [n for n in names.splitlines() if not n.endswith((".png", ".sqlite")) and (PROJECT_ROOT / n).is_file()]


def test_no_tracked_file_names_a_machine_path() -> None:
    # A clone elsewhere has its own layout: shared references are found as ../shared beside the project.
    machine_path = re.compile(r"(?<![\w.])/(work|home/\w+|Users/\w+)/[\w.-]+")
    offenders = []
    for name in _tracked_text_files():
        try:
            text = (PROJECT_ROOT / name).read_text()
        except UnicodeDecodeError:
            continue
        offenders += [
            f"{name}:{i}: {m.group(0)}"
            for i, line in enumerate(text.splitlines(), 1)
            for m in machine_path.finditer(line)
        ]
    assert offenders == []


def test_readme_lists_every_shipped_stack() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()
    stacks = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in PROJECT_ROOT.glob("Pulumi.*.yaml"))
    # The table abbreviates a family: `l40s-2n-pod` / `-4n-pod` / `-8n-pod`.
    missing = [s for s in stacks if f"`{s}`" not in readme and f"`-{s.split('-', 1)[1]}`" not in readme]
    assert missing == []
