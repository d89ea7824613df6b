"""``python3 -m tools.lab``'s edges without root: the dry run prints the link and the plan, an RDMA stack
is refused in one line with exit 2, and a folder that is no rendered job says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tools.lab.run import main

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "lab"


def job_dir(tmp_path: Path, stack: str) -> Path:
    folder = tmp_path / stack
    folder.mkdir()
    shutil.copy(FIXTURES / f"{stack}.json", folder / "lab.json")
    (folder / "config.json").write_text(json.dumps({"effective_batch_size": 64, "max_batch_len": 10000}))
    return folder


def test_a_dry_run_prints_the_link_the_plan_and_each_pods_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(job_dir(tmp_path, "h100-2n-sriov")), "--dry-run", "--gpus", "0,1,2,3", "--gbps", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    # The model's figure is the rendered stack's (the fixture), whatever the fit says today.
    model = json.loads((FIXTURES / "h100-2n-sriov.json").read_text())["links"]["2"]
    assert out[:2] == [
        "lab: h100-2n-sriov (variant sriov): 2 nodes x 2 GPU(s)",
        "lab: link (override): 5.000 Gbit/s per node each way, 0.05 ms per hop; override: 5 Gbit/s, 0.05 ms "
        f"(model: tcp: 1 NIC(s) x 400 Gbit/s line rate x {model['efficiency']:.3f} efficiency (2 GPU(s) per node) "
        f"= {model['gbps']:.2f} Gbit/s; hop latency 0.05 ms)",
    ]
    assert "lab: qdisc gclab-ilab-worker-0:net1 tbf 5.000 Gbit/s burst 625000 B limit 6875000 B" in out
    assert "lab:   NODE_NAME=h100-study-q8wzt-gpu-3-pds7f" in out


def test_rdma_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(job_dir(tmp_path, "h100-2n-sriov-rdma")), "--dry-run"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("lab: error: h100-2n-sriov-rdma: variant sriov-rdma runs NCCL over RDMA devices")
    assert len(captured.err.splitlines()) == 1


def test_a_folder_without_lab_json_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path), "--dry-run"]) == 2
    assert capsys.readouterr().err == (
        f"lab: error: {tmp_path}/lab.json: No such file or directory (write it with python -m tools.lab.render)\n"
    )
