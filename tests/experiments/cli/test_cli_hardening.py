"""Output arguments, the files a preview owns, and one CLI convention (``--json`` prints, ``--out`` writes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from experiments.base.owned_files import INDEX_FILE
from experiments.cli.main import main

from ...conftest import cluster_config

ROOT = Path(__file__).resolve().parents[3]
SWEEP = ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2"]


@pytest.mark.parametrize(
    "argv",
    [
        ["preview", "dev", "--out", ""],
        ["report", "--out", ""],
        [*SWEEP, "--out", ""],
        ["preview", "dev", "--out", "  "],
    ],
)
def test_an_empty_out_is_refused(capsys, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "--out: must not be empty" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["preview", "dev"], ["report"]])
def test_an_out_dir_on_a_read_only_file_system_is_refused_before_any_work(capsys, command: list[str]) -> None:
    # /proc/1 exists and nothing can be created in it, even by root.
    code = main([*command, "--out", "/proc/1/gpu-cluster-out"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--out /proc/1/gpu-cluster-out: /proc/1" in err
    assert ("read-only file system" in err) or ("is not writable" in err)


def test_an_out_dir_under_a_file_is_refused_for_report(tmp_path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["report", "--out", str(blocker / "sub")]) == 2
    assert f"{blocker} exists and is not a directory" in capsys.readouterr().err


def test_preview_never_deletes_files_it_did_not_write(write_stack, capsys, tmp_path) -> None:
    out = tmp_path / "out"
    manifests = out / "manifests"
    manifests.mkdir(parents=True)
    mine = manifests / "my-notes.yaml"
    mine.write_text("keep: me\n")
    assert main(["preview", str(write_stack()), "--out", str(out)]) == 2
    assert "holds files this tool did not write" in capsys.readouterr().err
    assert mine.read_text() == "keep: me\n"
    assert not (out / "preview.json").exists()


def test_a_later_preview_replaces_only_its_own_files(write_stack, capsys, tmp_path) -> None:
    out = tmp_path / "out"
    assert main(["preview", str(write_stack("k8s")), "--out", str(out)]) == 0
    manifests = out / "manifests"
    index = json.loads((manifests / INDEX_FILE).read_text())["files"]
    assert index and all((manifests / name).is_file() for name in index)
    added_later = manifests / "user-added.yaml"
    added_later.write_text("mine: true\n")
    pod = write_stack("pod", cluster_config(**{"network.variant": "pod", "network.nics_per_node": 0}))
    assert main(["preview", str(pod), "--out", str(out)]) == 0
    assert added_later.read_text() == "mine: true\n"
    new_index = json.loads((manifests / INDEX_FILE).read_text())["files"]
    assert sorted(p.name for p in manifests.glob("*.yaml")) == sorted([*new_index, "user-added.yaml"])
    assert not any("networkattachmentdefinition" in name for name in new_index)


def test_sweep_json_prints_to_stdout_and_out_writes_a_file(capsys, tmp_path) -> None:
    assert main([*SWEEP, "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert [cell["stack"] for cell in document["cells"]] == ["sweep-l40s-2n-pod"]
    out = tmp_path / "sweep.json"
    assert main([*SWEEP, "--out", str(out)]) == 0
    assert json.loads(out.read_text())["cells"] == document["cells"]


def test_calibrate_save_says_which_file_it_wrote(capsys, monkeypatch, tmp_path) -> None:
    from experiments.cli import throughput as verb
    from experiments.throughput import calibration

    target = tmp_path / "params.json"
    # Where the verb looks the writer up: the real one, pointed at a scratch file.
    monkeypatch.setattr(verb, "save_params", lambda fitted: calibration.save_params(fitted, target))
    assert main(["calibrate", "--save"]) == 0
    assert f"wrote {target}" in capsys.readouterr().out
    assert set(json.loads(target.read_text())["fitted"]) == set(calibration.FITTED)


def test_the_project_declares_a_console_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["gpu-cluster"] == "experiments.cli.main:main"
    # Subpackages too (a wheel, not only the editable install), and the data the code reads beside it.
    assert set(project["tool"]["setuptools"]["packages"]["find"]["include"]) == {
        "components*",
        "experiments*",
        "workloads*",
        "schemas*",
    }
    data = project["tool"]["setuptools"]["package-data"]
    for package, names in data.items():
        for name in names:
            assert (ROOT / package.replace(".", "/") / name).is_file(), f"{package}: {name}"
    read_beside = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "experiments").rglob("*") if p.suffix in (".json", ".csv")
    }
    shipped = {f"{package.replace('.', '/')}/{name}" for package, names in data.items() for name in names}
    assert read_beside == {path for path in shipped if path.startswith("experiments/")}
    # The job's launcher script, the CRD plurals the in-cluster RBAC reads, and the type marker.
    assert {
        "workloads/entrypoint.sh",
        "schemas/crds/index.json",
        "schemas/engines/index.json",
        "components/py.typed",
    } <= shipped


@pytest.mark.slow
def test_runs_from_any_directory_with_out_relative_to_it(tmp_path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "experiments", "preview", "dev", "--out", "here"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "here" / "preview.json").is_file()
    assert not (ROOT / "here").exists()


def test_the_preview_summary_lists_a_bounded_nic_inventory(write_stack, capsys, tmp_path) -> None:
    path = write_stack("six", cluster_config(**{"nodes.count": 6}))
    assert main(["preview", str(path), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "first 4 of 6 nodes; every NIC is in preview.json" in out
    assert "t-node3" in out and "t-node4" not in out
    document = json.loads((tmp_path / "out" / "preview.json").read_text())
    assert {nic["node"] for nic in document["outputs"]["nics"]} == {f"t-node{i}" for i in range(6)}


def test_a_stack_name_with_rich_markup_is_shown_literally(tmp_path, capsys) -> None:
    """The stack name comes from the file name: markup in it is text, never a style or a crash."""
    stack = tmp_path / "Pulumi.x[bold]y[_].yaml"
    stack.write_text((Path(__file__).resolve().parents[3] / "Pulumi.dev.yaml").read_text())
    assert main(["preview", str(stack), "--out", str(tmp_path / "out")]) == 0
    assert "gpu-cluster/x[bold]y[_]: 2 x gx3-48x240x2l40s" in capsys.readouterr().out
