"""The workloads ConfigMap is all the pods get: every module the launcher, the checker and the
benchmark import must be in it, importing nothing but the standard library (torch for the
benchmark), and the shipped files must run from whatever folder the volume is mounted at."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from components.program import read_workload_files

ROOT = Path(__file__).resolve().parents[2]
WORKLOADS = ROOT / "workloads"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entrypoint"
TORCH_USERS = {"nccl_bench.py", "nccl_sweep.py", "main_ds_guard.py"}
MAIN_DS_USERS = {"main_ds_guard.py"}
"""Runs inside main_ds's ranks, where instructlab.training is installed (it hooks main_ds)."""


def _imports(text: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


SHIPPED = read_workload_files().files


def test_the_config_map_carries_the_entrypoint_and_every_module_beside_it() -> None:
    assert set(SHIPPED) == {"entrypoint.sh"} | {p.name for p in WORKLOADS.glob("*.py") if p.name != "__init__.py"}
    assert {"launch.py", "launch_env.py", "launch_net.py", "nccl_transport.py", "nccl_log.py"} <= set(SHIPPED)


@pytest.mark.parametrize("name", sorted(n for n in SHIPPED if n.endswith(".py")))
def test_shipped_modules_import_only_the_standard_library_and_shipped_siblings(name: str) -> None:
    for module in sorted(_imports(SHIPPED[name])):
        top = module.split(".")[0]
        if top == "workloads":
            assert module.count(".") == 1 and f"{module.split('.')[1]}.py" in SHIPPED, f"{name}: {module} not shipped"
        elif top == "torch":
            assert name in TORCH_USERS, f"{name} imports torch"
        elif top == "instructlab":
            assert name in MAIN_DS_USERS, f"{name} imports {module}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", f"{name} imports {module}"


@pytest.fixture
def mounted(tmp_path: Path) -> Path:
    """The ConfigMap's files as the volume shows them, in a folder not called `workloads`."""
    folder = tmp_path / "cm-volume"
    folder.mkdir()
    for name, text in SHIPPED.items():
        (folder / name).write_text(text)
    return folder


def test_the_shipped_launcher_runs_from_its_volume(mounted: Path, tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "config.json", tmp_path / "config.json")
    env = {
        "PATH": os.environ["PATH"],
        "GPU_CLUSTER_DRY_RUN": "1",
        "GPU_CLUSTER_VARIANT": "pod",
        "NCCL_SOCKET_IFNAME": "eth0",
        "RANK": "0",
        "WORLD_SIZE": "1",
        "NPROC_PER_NODE": "1",
        "MASTER_ADDR": "localhost",
        "TRAINING_MODULE": "instructlab.training.main_ds",
        "CONFIG_JSON_PATH": str(tmp_path / "config.json"),
    }
    done = subprocess.run(
        ["bash", str(mounted / "entrypoint.sh")], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("entrypoint: dry-run: torchrun --nnodes=1 --nproc_per_node=1")


def test_the_shipped_checker_runs_from_its_volume(mounted: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(mounted / "nccl_transport.py"),
            "--expect",
            "socket",
            "--ifnames",
            "net1,net2",
            str(FIXTURES / "nccl_socket.log"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS expect=socket on net1,net2" in done.stdout
