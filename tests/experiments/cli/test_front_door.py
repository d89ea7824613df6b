"""What a newcomer meets first: the command's name and version, ``init`` and stacks found where the user
stands, and one line (exit 2) rather than a traceback for the mistakes a first stack makes."""

from __future__ import annotations

import json

import pytest
import yaml

from experiments.cli.main import main

from ...conftest import PROJECT_ROOT, standalone_config


def test_help_names_the_command_and_version_prints_it(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("usage: gpu-cluster ")
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("gpu-cluster ")


def test_pko_image_is_required_by_the_parser(capsys, tmp_path) -> None:
    with pytest.raises(SystemExit) as done:
        main(["pko", "dev", "--out", str(tmp_path / "pko"), "--on-delete", "keep"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and "the following arguments are required: --image" in err
    assert " --image IMAGE" in err and "[--image IMAGE]" not in err


def test_init_writes_a_project_whose_stack_previews_there(tmp_path, monkeypatch, capsys) -> None:
    assert main(["init", str(tmp_path / "mine"), "--from", "l40s-2n-vnic"]) == 0
    project = tmp_path / "mine"
    assert sorted(p.name for p in project.iterdir()) == ["Pulumi.l40s-2n-vnic.yaml", "Pulumi.yaml", "__main__.py"]
    assert (project / "__main__.py").read_text().split() == [
        "from",
        "components",
        "import",
        "pulumi_program",
        "pulumi_program()",
    ]
    pulumi_yaml = yaml.safe_load((project / "Pulumi.yaml").read_text())
    assert pulumi_yaml["name"] == "gpu-cluster" and pulumi_yaml["runtime"] == {"name": "python"}
    assert pulumi_yaml["packages"] == yaml.safe_load((PROJECT_ROOT / "Pulumi.yaml").read_text())["packages"]
    assert (project / "Pulumi.l40s-2n-vnic.yaml").read_text() == (PROJECT_ROOT / "Pulumi.l40s-2n-vnic.yaml").read_text()
    capsys.readouterr()
    # The user's own stack, found in the directory they stand in (not the checkout's).
    stack = yaml.safe_load((project / "Pulumi.l40s-2n-vnic.yaml").read_text())
    stack["config"]["gpu-cluster:cluster"]["name_prefix"] = "mine"
    (project / "Pulumi.mine.yaml").write_text(yaml.safe_dump(stack))
    monkeypatch.chdir(project)
    assert main(["preview", "mine"]) == 0
    document = json.loads((project / "out" / "mine" / "preview.json").read_text())
    assert document["outputs"]["namePrefix"] == "mine"


def test_init_writes_nothing_over_a_file_nor_from_an_unknown_stack(tmp_path, capsys) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "__main__.py").write_text("mine\n")
    assert main(["init", str(tmp_path / "taken")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds __main__.py; nothing was written" in err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["__main__.py"]
    assert main(["init", str(tmp_path / "new"), "--from", "nope"]) == 2
    assert "--from nope: not a shipped stack" in capsys.readouterr().err and not (tmp_path / "new").exists()


def test_an_unknown_stack_lists_those_of_the_current_directory(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "Pulumi.local.yaml").write_text(yaml.safe_dump({"config": {"gpu-cluster:cluster": {}}}))
    monkeypatch.chdir(tmp_path)
    assert main(["preview", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown stack 'nope'" in err and "local" in err and "dev" in err


@pytest.mark.parametrize(
    ("changes", "missing"),
    [
        ({"nodes.join.ignition": "secret"}, "gpu-cluster:workerIgnition"),
        (
            {
                "kubernetes.openshift": False,
                "kubernetes.whereabouts_installed": True,
                "nodes.join.kubeadm_endpoint": "api.example.com:6443",
            },
            "gpu-cluster:kubeadmToken, gpu-cluster:kubeadmCaCertHash",
        ),
    ],
)
@pytest.mark.parametrize("verb", ["preview", "diff"])
def test_a_join_stack_without_its_secrets_is_one_line_exit_2(
    tmp_path, monkeypatch, capsys, changes, missing, verb
) -> None:
    stack = yaml.safe_load((PROJECT_ROOT / "Pulumi.h100-2n-sriov-rdma-join.yaml").read_text())
    cluster = stack["config"]["gpu-cluster:cluster"]
    for dotted, value in changes.items():
        *parents, leaf = dotted.split(".")
        node = cluster
        for part in parents:
            node = node.setdefault(part, {})
        node.pop(leaf, None) if value is ... else node.__setitem__(leaf, value)
    path = tmp_path / "Pulumi.join.yaml"
    path.write_text(yaml.safe_dump(stack))
    monkeypatch.chdir(tmp_path)
    argv = ["preview", str(path)] if verb == "preview" else ["diff", str(path), "h100-2n-sriov-rdma-join"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"Pulumi.join.yaml: {missing}: not set" in err and "pulumi config set --secret" in err
    assert not (tmp_path / "out").exists()


def test_the_offline_preview_says_when_it_stands_in_the_ssh_key(write_stack, tmp_path, capsys) -> None:
    path = write_stack("keyless", standalone_config())
    assert main(["preview", str(path), "--out", str(tmp_path / "a")]) == 0
    assert (
        "note: gpu-cluster:sshPublicKey is not set; this offline preview stands in a placeholder key"
        in capsys.readouterr().out
    )
    # Set (here encrypted), or not needed (adopted workers keep their keys): no note.
    keyed = write_stack("keyed", standalone_config(), extra={"gpu-cluster:sshPublicKey": {"secure": "v1:abc"}})
    assert main(["preview", str(keyed), "--out", str(tmp_path / "b")]) == 0
    assert main(["preview", "dev", "--out", str(tmp_path / "c")]) == 0
    assert "sshPublicKey" not in capsys.readouterr().out


def test_the_training_options_table_is_asked_for(tmp_path, capsys) -> None:
    assert main(["preview", "dev", "--out", str(tmp_path / "a")]) == 0
    default = capsys.readouterr().out
    assert "main_ds options" not in default and len(default.splitlines()) < 50
    assert main(["preview", "dev", "--out", str(tmp_path / "b"), "--training-options"]) == 0
    assert "main_ds options" in capsys.readouterr().out


def test_a_run_is_recorded_under_a_stack_of_the_project_you_stand_in(tmp_path, monkeypatch, capsys) -> None:
    assert main(["init", str(tmp_path / "mine"), "--from", "h100-1n"]) == 0
    monkeypatch.chdir(tmp_path / "mine")
    log = PROJECT_ROOT / "tests" / "fixtures" / "runs" / "h100-1n-main_ds-proof.jsonl"
    store = tmp_path / "results.sqlite"
    assert main(["results", "add", "h100-1n", "--log", str(log), "--gpus", "1", "--store", str(store)]) == 0
    assert "recorded run 1 of h100-1n as a 1-GPU proof" in capsys.readouterr().out
