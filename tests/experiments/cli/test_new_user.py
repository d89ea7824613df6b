"""What a new user outside the checkout meets (issue 37): hints that paste back into a shell, the shipped stacks
within reach, nothing rewritten inside the installed package, and every path the user names either used as
named or refused in one line (exit 2, nothing written)."""

from __future__ import annotations

import ast
import json
import subprocess
import tomllib
from pathlib import Path

import pytest

from experiments.base import paths
from experiments.cli.main import main
from experiments.stacks.stackfile import load_stack
from experiments.throughput.parameters import DEFAULT_PARAMS_PATH

from ...conftest import PROJECT_ROOT

READ_ONLY = Path("/proc/1")
"""A directory nothing can be created in, even by root."""


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    return err.strip()


# ---- init -----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "word"),
    [("my project", "'my project'"), ("it's $(here)", "'it'\"'\"'s $(here)'"), ("-dash", "./-dash")],
)
def test_the_cd_hint_is_one_shell_word(tmp_path, monkeypatch, capsys, name: str, word: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--", name]) == 0
    hint = capsys.readouterr().out.splitlines()[-1]
    assert hint.startswith(f"next: cd {word} && gpu-cluster preview dev ")
    # The hint, pasted into a shell, lands in the project.
    done = subprocess.run(["sh", "-c", hint.split("next: ", 1)[1].split(" && ")[0] + " && pwd"], capture_output=True)
    assert done.returncode == 0 and Path(done.stdout.decode().strip()) == (tmp_path / name).resolve()


def test_a_second_init_adds_a_shipped_stack_to_the_project_and_the_two_diff_there(
    tmp_path, monkeypatch, capsys
) -> None:
    project = tmp_path / "study"
    assert main(["init", str(project), "--from", "h100-2n-sriov"]) == 0
    (project / "Pulumi.yaml").write_text((project / "Pulumi.yaml").read_text() + "# mine\n")
    capsys.readouterr()
    assert main(["init", str(project), "--from", "h100-2n-sriov-rdma"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"wrote {project / 'Pulumi.h100-2n-sriov-rdma.yaml'}"
    assert sorted(p.name for p in project.iterdir()) == [
        "Pulumi.h100-2n-sriov-rdma.yaml",
        "Pulumi.h100-2n-sriov.yaml",
        "Pulumi.yaml",
        "__main__.py",
    ]
    assert (project / "Pulumi.yaml").read_text().endswith("# mine\n")  # the user's own file, untouched
    # Added once: again is refused, nothing written.
    assert main(["init", str(project), "--from", "h100-2n-sriov-rdma"]) == 2
    assert one_error(capsys).endswith("already holds Pulumi.h100-2n-sriov-rdma.yaml; nothing was written")
    monkeypatch.chdir(project)  # where `gpu-cluster diff h100-2n-sriov h100-2n-sriov-rdma` finds both
    for name in ("h100-2n-sriov", "h100-2n-sriov-rdma"):
        assert load_stack(name).path == project / f"Pulumi.{name}.yaml"


def test_init_never_adds_a_stack_to_another_project(tmp_path, capsys) -> None:
    for text in ("name: other\nruntime: python\n", "{not: [yaml\n", "- a list\n"):
        other = tmp_path / "other"
        other.mkdir(exist_ok=True)
        (other / "Pulumi.yaml").write_text(text)
        assert main(["init", str(other), "--from", "l40s-1n"]) == 2
        assert "nothing was written" in one_error(capsys)
        assert [p.name for p in other.iterdir()] == ["Pulumi.yaml"]


def test_the_shipped_stacks_are_listed_with_where_they_lie(capsys) -> None:
    assert main(["init", "--list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"shipped stacks, in {paths.PROJECT_ROOT}:"
    shipped = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in PROJECT_ROOT.glob("Pulumi.*.yaml"))
    assert [line.strip() for line in out[1:-1]] == shipped and "h100-2n-sriov-rdma" in shipped
    assert main(["init"]) == 2
    assert one_error(capsys) == "error: init: name DIR, the project's directory (or --list the shipped stacks)"


def test_docs_name_where_the_installed_stacks_lie_and_how_to_diff_two() -> None:
    install = (PROJECT_ROOT / "docs" / "install.md").read_text()
    assert "<venv>/share/gpu-cluster/" in install and "gpu-cluster init --list" in install
    assert "gpu-cluster diff h100-2n-sriov h100-2n-sriov-rdma" in install


# ---- calibrate --save -----------------------------------------------------------------------------------------------


def test_calibrate_save_never_rewrites_the_installed_package(monkeypatch, tmp_path, capsys) -> None:
    before = DEFAULT_PARAMS_PATH.read_bytes(), DEFAULT_PARAMS_PATH.stat().st_mtime_ns
    monkeypatch.setattr(paths, "PROJECT_ROOT", tmp_path / "site-packages")  # as installed from the wheel
    assert main(["calibrate", "--save"]) == 2
    err = one_error(capsys)
    assert f"calibrate --save: predict reads the fit from {DEFAULT_PARAMS_PATH}, a file of the installed" in err
    assert "gpu-cluster calibrate --json > calibration.json" in err
    assert (DEFAULT_PARAMS_PATH.read_bytes(), DEFAULT_PARAMS_PATH.stat().st_mtime_ns) == before


def test_calibrate_save_never_rewrites_a_fit_inside_site_packages(monkeypatch, tmp_path, capsys) -> None:
    from experiments.throughput import parameters

    installed = tmp_path / "lib" / "site-packages" / "experiments" / "throughput" / "parameters.json"
    installed.parent.mkdir(parents=True)
    installed.write_bytes(DEFAULT_PARAMS_PATH.read_bytes())
    monkeypatch.setattr(parameters, "DEFAULT_PARAMS_PATH", installed)
    assert main(["calibrate", "--save"]) == 2
    assert f"predict reads the fit from {installed}, a file of the installed package" in one_error(capsys)
    assert installed.read_bytes() == DEFAULT_PARAMS_PATH.read_bytes()


# ---- stack workers --------------------------------------------------------------------------------------------------


def test_the_worker_report_names_the_stack_once_and_a_missing_backend_is_refused(tmp_path, capsys) -> None:
    assert main(["stack", "workers", "dev", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out == "dev: no checkpoint in the backend (never deployed, or destroyed and removed)\n"
    for verb in ("workers", "unlock"):
        assert main(["stack", verb, "dev", "--state-dir", str(tmp_path / "typo")]) == 2
        assert (
            one_error(capsys)
            == f"error: --state-dir {tmp_path / 'typo'}: no such directory (the file backend of the stack's up)"
        )


@pytest.mark.parametrize(
    "argv",
    [
        ["stack", "workers", "dev", "--no-nodes"],
        ["pull-results", str(PROJECT_ROOT / "tests/fixtures/runs/h100-1n-main_ds-proof.jsonl")],
    ],
)
def test_a_named_kubeconfig_is_used_or_refused_never_ignored(tmp_path, capsys, argv: list[str]) -> None:
    missing = tmp_path / "kubeconfig"
    assert main([*argv, "--kubeconfig", str(missing)]) == 2
    assert one_error(capsys) == f"error: --kubeconfig {missing}: {missing} is not a regular file"


def test_a_named_public_key_file_is_read_even_offline(tmp_path, capsys) -> None:
    sweep = ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2"]
    assert main([*sweep, "--ssh-public-key-file", str(tmp_path / "id.pub")]) == 2
    assert (
        one_error(capsys)
        == f"error: --ssh-public-key-file {tmp_path / 'id.pub'}: cannot read (No such file or directory)"
    )


# ---- output paths ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["sweep", "--offline", "--profile", "l40s", "--variant", "pod", "--nodes", "2", "--out"],
        ["export-results", "--out"],
    ],
)
def test_an_out_file_in_a_read_only_folder_is_named_as_given(capsys, argv: list[str]) -> None:
    assert main([*argv, str(READ_ONLY / "sweep.json")]) == 2
    err = one_error(capsys)
    assert err.startswith(f"error: --out {READ_ONLY / 'sweep.json'}: {READ_ONLY} ")


@pytest.mark.parametrize(
    ("argv", "default"), [(["preview", str(PROJECT_ROOT / "Pulumi.dev.yaml")], "out/dev"), (["report"], "out/report")]
)
def test_a_read_only_working_directory_is_named_not_an_out_never_given(
    monkeypatch, capsys, argv: list[str], default: str
) -> None:
    monkeypatch.chdir(READ_ONLY)
    assert main(argv) == 2
    err = one_error(capsys)
    assert err.startswith(f"error: {default} (the default of --out): {READ_ONLY} (the working directory) ")
    assert ". is" not in err and "--out out" not in err and err.endswith("; name a writable place with --out")


# ---- results stores -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["results"],
        ["results", "--json"],
        ["report", "--out", "{tmp}/report"],
        ["export-results"],
        ["results", "add", "h100-1n", "--log", str(PROJECT_ROOT / "tests/fixtures/runs/h100-1n-main_ds-proof.jsonl")],
        ["pull-results", str(PROJECT_ROOT / "tests/fixtures/runs/h100-1n-main_ds-proof.jsonl")],
    ],
)
@pytest.mark.parametrize("store", ["/nonexistent/x.sqlite", "{tmp}/typo/results.sqlite"])
def test_a_store_the_user_names_must_exist(tmp_path, capsys, argv: list[str], store: str) -> None:
    named = store.format(tmp=tmp_path)
    assert main([*(a.format(tmp=tmp_path) for a in argv), "--store", named]) == 2
    err = one_error(capsys)
    writes = argv[0] == "pull-results" or argv[1:2] == ["add"]
    why = f"its folder {Path(named).parent} does not exist" if writes else "no such results database"
    assert err.startswith(f"error: --store {named}: {why}; name an existing results store")
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written: no report, no store, no folder


def test_a_writer_may_start_a_store_in_a_folder_that_exists(tmp_path, capsys) -> None:
    from experiments.results.store import ResultsStore

    ResultsStore(tmp_path / "source.sqlite")
    assert (
        main(["export-results", "--store", str(tmp_path / "source.sqlite"), "--out", str(tmp_path / "runs.json")]) == 0
    )
    store = tmp_path / "new.sqlite"
    assert main(["pull-results", str(tmp_path / "runs.json"), "--store", str(store)]) == 0
    assert f"imported 0 run(s) into {store}" in capsys.readouterr().out and store.is_file()


def test_an_empty_results_says_what_to_do(tmp_path, capsys) -> None:
    store = tmp_path / "results.sqlite"
    assert main(["results", "--store", str(tmp_path / "absent.sqlite")]) == 2  # named, so it must exist
    capsys.readouterr()
    from experiments.results.store import ResultsStore

    ResultsStore(store)  # an empty store
    assert main(["results", "--store", str(store)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"no recorded runs in {store}"
    assert "gpu-cluster run STACK" in out[1] and "gpu-cluster results add STACK --log FILE" in out[1]
    assert main(["results", "--store", str(store), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


# ---- the repository -------------------------------------------------------------------------------------------------


def test_what_install_builds_is_ignored_by_git() -> None:
    paths_ = ["wheels/gpu_cluster-0.1.0-py3-none-any.whl", "provider/venv/bin/python"]
    done = subprocess.run(["git", "check-ignore", *paths_], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.stdout.split() == paths_


TEST_ONLY = {"jsonschema": "jsonschema", "kubernetes-validate": "kubernetes_validate"}


def test_the_test_only_packages_are_no_dependency_of_the_tool() -> None:
    declared = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    runtime = (PROJECT_ROOT / "requirements.txt").read_text().split()
    dev = (PROJECT_ROOT / "requirements-dev.txt").read_text().split()
    for distribution in TEST_ONLY:
        assert not [d for d in declared if d.startswith(distribution)], distribution
        assert not [p for p in runtime if p.startswith(f"{distribution}==")], distribution
        assert [p for p in dev if p.startswith(f"{distribution}==")], distribution
    imported = set()
    for folder in ("components", "experiments", "workloads", "examples", "provider"):
        for source in (PROJECT_ROOT / folder).rglob("*.py"):
            text = source.read_text()
            if not any(name in text for name in TEST_ONLY.values()):
                continue  # no such name in it: nothing to parse
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Import):
                    imported |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    imported.add(node.module.split(".")[0])
    assert imported.isdisjoint(TEST_ONLY.values())
