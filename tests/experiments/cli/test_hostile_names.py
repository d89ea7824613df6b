"""Names and output a careless user or a hostile store hands the CLI: stack names that are paths or
too long, a newline in a name, a tampered owned-file index, plaintext credentials for ``pko``, and a
reader (``head``) that goes away. Each is one line and exit 2 (or silence), never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import yaml

from experiments.cli.main import main
from experiments.results.store import ResultsStore

from ...conftest import PROJECT_ROOT
from ..results.test_results import record

IMAGE = "quay.io/team/gpu-cluster:1.4.0"


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_a_store_row_naming_a_5000_character_stack_lists_and_reports(tmp_path, capsys) -> None:
    store = tmp_path / "r.sqlite"
    ResultsStore(store).add(record(stack="s" * 5000))
    assert main(["results", "--store", str(store)]) == 0
    capsys.readouterr()
    assert main(["results", "--json", "--store", str(store)]) == 0
    assert json.loads(capsys.readouterr().out)[0]["stack"] == "s" * 5000
    assert main(["report", "--store", str(store), "--out", str(tmp_path / "rep")]) == 0


def test_an_over_long_or_multi_line_stack_name_is_one_line_exit_2(tmp_path, capsys) -> None:
    assert main(["run", "x" * 300]) == 2
    assert "is not a stack name" in one_line(capsys)
    assert main(["preview", "a\nb"]) == 2
    assert "'a\\nb' is not a stack name" in one_line(capsys)
    assert main(["preview", str(tmp_path / ("y" * 300 + ".yaml"))]) == 2
    one_line(capsys)


def test_a_stack_file_whose_name_is_a_path_trick_is_refused(tmp_path, capsys) -> None:
    trick = tmp_path / "Pulumi....yaml"
    shutil.copy(PROJECT_ROOT / "Pulumi.h100-2n-sriov.yaml", trick)
    state = tmp_path / "state"
    (state / ".pulumi" / "locks" / "organization" / "gpu-cluster").mkdir(parents=True)
    (state / ".pulumi" / "locks" / "organization" / "gpu-cluster" / "x.json").write_text("{}")
    assert main(["stack", "unlock", str(trick), "--state-dir", str(state)]) == 2
    assert "'..' is not a stack name" in one_line(capsys)


def test_pko_refuses_a_stack_name_pulumi_would_not_take(tmp_path, capsys) -> None:
    odd = tmp_path / "Pulumi.a{{b}} $(id).yaml"
    shutil.copy(PROJECT_ROOT / "Pulumi.l40s-1n.yaml", odd)
    out = tmp_path / "pko"
    assert main(["pko", str(odd), "--out", str(out), "--image", IMAGE, "--on-delete", "keep", "--name", "ok"]) == 2
    assert "is not a stack name" in one_line(capsys) and not out.exists()


def test_pko_refuses_plaintext_credentials_and_writes_nothing(tmp_path, capsys) -> None:
    document = yaml.safe_load((PROJECT_ROOT / "Pulumi.l40s-1n.yaml").read_text())
    for key, value in (
        ("kubernetes:kubeconfig", "apiVersion: v1\nusers: [{user: {token: s3cr3t-t0ken}}]"),
        ("ibm:iaasClassicApiKey", "classic-s3cr3t"),
    ):
        config = {**document["config"], key: value}
        path = tmp_path / "Pulumi.plain.yaml"
        path.write_text(yaml.safe_dump({"config": config}))
        out = tmp_path / "pko"
        assert main(["pko", str(path), "--out", str(out), "--image", IMAGE, "--on-delete", "keep"]) == 2
        err = one_line(capsys)
        assert f"{key}: a credential in plain text" in err and "s3cr3t" not in err and not out.exists()


def test_a_tampered_index_never_deletes_a_file_the_tool_did_not_write(tmp_path, capsys) -> None:
    out = tmp_path / "pko"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    (out / ".gpu-cluster-index.json").write_text(json.dumps(["notes.txt"]))
    assert main(["pko", "l40s-1n", "--out", str(out), "--image", IMAGE, "--on-delete", "keep"]) == 0
    assert (out / "notes.txt").read_text() == "mine\n"
    # The tool's own files, edited since: neither deleted nor overwritten; a forged digest changes nothing.
    (out / "setup.yaml").write_text("edited\n")
    assert main(["pko", "l40s-1n", "--out", str(out), "--image", IMAGE, "--on-delete", "keep"]) == 2
    assert "setup.yaml exists and this tool did not write it" in one_line(capsys)
    index = json.loads((out / ".gpu-cluster-index.json").read_text())
    index["files"]["notes.txt"] = "0" * 64
    (out / ".gpu-cluster-index.json").write_text(json.dumps(index))
    (out / "setup.yaml").unlink()
    assert main(["pko", "l40s-1n", "--out", str(out), "--image", IMAGE, "--on-delete", "keep"]) == 0
    assert (out / "notes.txt").read_text() == "mine\n" and (out / "setup.yaml").read_text() != "edited\n"
    (out / ".gpu-cluster-index.json").write_text("[" * 100_000)
    assert main(["pko", "l40s-1n", "--out", str(out), "--image", IMAGE, "--on-delete", "keep"]) == 2
    assert "not an index this tool wrote" in one_line(capsys) and (out / "notes.txt").exists()


def test_output_piped_into_a_reader_that_went_away_is_silent(tmp_path) -> None:
    store = tmp_path / "r.sqlite"
    ResultsStore(store).add(record(stack="l40s-1n"))
    # Plain writes (export, --json) and the console's tables alike (Rich would exit 1 on its own).
    for command in (
        ["export-results", "--store", str(store)],
        ["results", "--json", "--store", str(store)],
        ["results", "--store", str(store)],
        ["predict", "l40s-2n-vnic"],
    ):
        with subprocess.Popen(
            [sys.executable, "-m", "experiments", *command],
            cwd=PROJECT_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as child:
            assert child.stdout is not None and child.stderr is not None
            child.stdout.close()  # `| head -0`: the reader is gone before the first line
            err = child.stderr.read().decode()
            assert child.wait(timeout=60) == 141 and err == "", (command, err)
