"""The tool as a user outside the checkout gets it: the wheel, installed into a fresh virtual environment,
scaffolds a project of the user's own (``gpu-cluster init``) and previews its stack there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from .conftest import PROJECT_ROOT


def _run(command: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def test_the_wheel_declares_what_the_code_imports() -> None:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]
    declared = {
        d.split("=")[0].split(">")[0].split("<")[0].strip().lower().replace("_", "-") for d in project["dependencies"]
    }
    pinned = {
        line.split("==")[0].lower().replace("_", "-")
        for line in (PROJECT_ROOT / "requirements.txt").read_text().splitlines()
        if "==" in line
    }
    assert pinned <= declared and "pulumi-ibm" in declared


@pytest.mark.slow
def test_the_installed_wheel_scaffolds_a_project_and_previews_it(tmp_path: Path) -> None:
    wheels, source = tmp_path / "wheels", tmp_path / "source"
    # Built from a copy: setuptools leaves build/ beside the sources, and a stale one would ship deleted files.
    ignored = (".venv", ".git", "build", "out", "*.egg-info", "__pycache__", ".pulumi-state", ".gpu-cluster")
    shutil.copytree(PROJECT_ROOT, source, ignore=shutil.ignore_patterns(*ignored))
    # The IBM SDK subset builds as its own wheel (a user's comes from `pulumi package add`).
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels)]
    built = _run([*pip_wheel, str(source), str(source / "sdks" / "ibm")], cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("gpu_cluster-*.whl")
    env_dir = tmp_path / "env"
    # No pip of its own (ensurepip would install and byte-compile one): this pip installs into it (--python).
    venv.create(env_dir, with_pip=False)
    python, tool = env_dir / "bin" / "python", env_dir / "bin" / "gpu-cluster"
    # The dependencies come from pip's cache and the configured indexes; the two wheels from here. Nothing is
    # byte-compiled ahead (--no-compile): what the commands below import compiles as they import it.
    pip_install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile"]
    installed = _run([*pip_install, "--find-links", str(wheels), str(wheel)], cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr

    version = _run([str(tool), "--version"], cwd=tmp_path)
    assert version.stdout.strip() == "gpu-cluster 0.1.0"
    init = _run([str(tool), "init", "mine", "--from", "l40s-2n-vnic"], cwd=tmp_path)
    assert init.returncode == 0, init.stderr
    project = tmp_path / "mine"
    assert sorted(p.name for p in project.iterdir()) == ["Pulumi.l40s-2n-vnic.yaml", "Pulumi.yaml", "__main__.py"]
    assert (project / "__main__.py").read_text().strip().splitlines()[0] == "from components import pulumi_program"

    preview = _run([str(tool), "preview", "l40s-2n-vnic"], cwd=project)
    assert preview.returncode == 0, preview.stderr
    document = json.loads((project / "out" / "l40s-2n-vnic" / "preview.json").read_text())
    # The job's files came with the wheel: the launcher script is in the training ConfigMap.
    assert "entrypoint.sh" in json.dumps(document)
    assert (project / "out" / "l40s-2n-vnic" / "manifests").is_dir()
    # Nothing was looked up or written in the checkout, nor in site-packages.
    assert not list(env_dir.rglob(".pulumi-state")) and not list(env_dir.rglob("results.sqlite"))

    # The shipped stacks are listed where the wheel put them, and a second one joins the project (issue 37).
    listed = _run([str(tool), "init", "--list"], cwd=tmp_path)
    assert listed.returncode == 0 and listed.stdout.splitlines()[0].endswith("/share/gpu-cluster:")
    assert "  h100-2n-sriov-rdma" in listed.stdout.splitlines()
    second = _run([str(tool), "init", "mine", "--from", "l40s-2n-pod"], cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert (project / "Pulumi.l40s-2n-pod.yaml").is_file() and (project / "Pulumi.l40s-2n-vnic.yaml").is_file()
    # calibrate --save never rewrites the installed package's fit.
    (params,) = env_dir.rglob("experiments/throughput/parameters.json")
    fit = params.read_bytes()
    save = _run([str(tool), "calibrate", "--save"], cwd=project)
    assert save.returncode == 2 and save.stderr.startswith("error: calibrate --save: ") and params.read_bytes() == fit

    # The in-cluster verbs find the CRD names the wheel carries.
    pko = _run(
        [
            str(tool),
            "pko",
            "l40s-2n-vnic",
            "--out",
            "pko",
            "--on-delete",
            "keep",
            "--image",
            "registry.example.com/gpu-cluster@sha256:" + "0" * 64,
        ],
        cwd=project,
    )
    assert pko.returncode == 0, pko.stderr
    assert "kind: Role" in (project / "pko" / "setup.yaml").read_text()
    schema = _run([str(tool), "package-schema"], cwd=project)
    assert json.loads(schema.stdout)["resources"]["gpu-cluster:index:GpuCluster"]["isComponent"] is True
    # Proven: the environment's 40,000 files go now, in this slow test, not at the start of a later test run
    # (pytest deletes an old run's temporary folder as it starts the next: 3 s of the quick loop's CPU).
    shutil.rmtree(env_dir)
