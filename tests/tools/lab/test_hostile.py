"""``python3 -m tools.lab`` against hostile options and a hostile job folder, without root: the lab runs as
root, so whatever reaches a namespace, an interface, an address, the hosts file, a path or a command line
is checked first.  Each case is one line and exit 2 (argparse's own usage and one error line for an
option), and the plan layer (``make_plan``) refuses the same job with the same line."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tools.lab import run
from tools.lab.plan import LabRefused, make_plan, model_link

from .test_plan import CPUS, PATHS, job
from .test_run import job_dir


def dry(folder: Path, *options: str) -> list[str]:
    return [str(folder), "--dry-run", "--gpus", "0,1,2,3", *options]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            ["--gbps", "-1"],
            "argument --gbps: '-1': must be above 0 and at most 100000 Gbit/s (--unshaped for no limit)",
        ),
        (["--gbps", "0"], "argument --gbps: '0': must be above 0"),
        (["--gbps", "nan"], "argument --gbps: 'nan' is not a finite number"),
        (["--gbps", "inf"], "argument --gbps: 'inf' is not a finite number"),
        (["--gbps", "1e400"], "argument --gbps: '1e400' is not a finite number"),
        (["--gbps", "1e9"], "argument --gbps: '1e9': must be above 0"),
        (["--latency-ms", "-1"], "argument --latency-ms: '-1': must be 0 to 10000 ms"),
        (["--latency-ms", "nan"], "argument --latency-ms: 'nan' is not a finite number"),
        (["--name", "a/b"], "argument --name: 'a/b': a run name is letters"),
        (["--name", ".."], "argument --name: '..': a run name is letters"),
        (["--name", "x..y"], "argument --name: 'x..y': a run name is letters"),
        (["--name", ""], "argument --name: '': a run name is letters"),
        (["--timeout", "0"], "argument --timeout: '0': must be above 0"),
        (["--grace", "-5"], "argument --grace: '-5': must be above 0"),
        (["--layers", "x"], "argument --layers: 'x' is not a whole number"),
    ],
)
def test_an_option_out_of_range_is_refused_by_the_parser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run.main(dry(job_dir(tmp_path, "h100-2n-sriov"), *option))
    assert exit_.value.code == 2
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith(f"python3 -m tools.lab: error: {message}"), last


@pytest.mark.parametrize(
    ("gpus", "message"),
    [
        ("0,0", "--gpus '0,0': a GPU appears twice"),
        ("", "--gpus '': not a comma-separated list of GPU ids"),
        ("a", "--gpus 'a': not a comma-separated list of GPU ids"),
        ("-1", "--gpus '-1': not a comma-separated list of GPU ids"),
        ("0,1,2,3,4,5", "--gpus '0,1,2,3,4,5': this host has 4 GPU(s), ids 0..3"),
    ],
)
def test_gpu_ids_that_are_not_this_hosts_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, gpus: str, message: str
) -> None:
    monkeypatch.setattr(run, "_present", lambda: 4)
    assert run.main([str(job_dir(tmp_path, "h100-2n-sriov")), "--dry-run", "--gpus", gpus]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"lab: error: {message}"), captured.err
    assert len(captured.err.splitlines()) == 1


def test_out_naming_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("mine")
    assert run.main([*dry(job_dir(tmp_path, "h100-2n-sriov")), "--out", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == f"lab: error: --out {tmp_path / 'file'}: is not a folder\n"
    assert (tmp_path / "file").read_text() == "mine"


def _set(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    *head, last = path.split(".")
    target: Any = changed
    for part in head:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[int(last) if isinstance(target, list) else last] = value
    return changed


SRIOV = job("h100-2n-sriov")
HOSTILE_JOBS = [
    (_set(SRIOV, "nnodes", "two"), "nnodes: not a whole number in 1..64"),
    (_set(SRIOV, "nnodes", True), "nnodes: not a whole number in 1..64"),
    (_set(SRIOV, "nnodes", 10**9), "nnodes: not a whole number in 1..64"),
    (_set(SRIOV, "nnodes", 3), "replicas: not a list of 3 (nnodes) pods"),
    (_set(SRIOV, "replicas.1.pod", "../etc"), "replicas[1].pod: not a DNS label"),
    (_set(SRIOV, "replicas.1.pod", "a/b"), "replicas[1].pod: not a DNS label"),
    (_set(SRIOV, "replicas.1.pod", "ilab-master-0"), "replicas: a pod name appears twice"),
    (_set(SRIOV, "replicas.1.pod", "x\n1.2.3.4 evil"), "replicas[1].pod: not a DNS label"),
    (_set(SRIOV, "replicas.1.rank", 0), "replicas: the ranks are not 0..nnodes-1, each once"),
    (_set(SRIOV, "replicas.1.rank", "1; rm -rf /"), "replicas[1].rank: not a whole number in 0..1"),
    (_set(SRIOV, "node_names.1", SRIOV["node_names"][0]), "node_names: a name appears twice"),
    (_set(SRIOV, "node_names.1", "bad name"), "node_names[1]: not a DNS name"),
    (_set(SRIOV, "networks.0.ifname", "net/1"), "networks[0].ifname: not an interface name"),
    (_set(SRIOV, "networks.0.ifname", "eth0"), "networks[0].ifname: eth0 appears twice"),
    (_set(SRIOV, "networks.0.ifname", "averylongname"), "networks[0].ifname: not an interface name"),
    (_set(SRIOV, "networks.0.range_start", "10.0.0.x"), "networks[0]: range or range_start is not an IPv4"),
    (_set(SRIOV, "networks.0.range", "evil"), "networks[0]: range or range_start is not an IPv4"),
    (_set(SRIOV, "networks.0.range_start", "10.0.1.5"), "networks[0].range_start: leaves no room for the nodes"),
    (_set(SRIOV, "networks.0.range_start", "10.0.0.255"), "networks[0].range_start: leaves no room for the nodes"),
    (_set(SRIOV, "replicas.0.env.1", ["A=B", "x"]), "replicas[0].env: 'A=B' is not an environment variable name"),
    (_set(SRIOV, "replicas.0.env.1", ["X", "a\u0000b"]), "replicas[0].env: X: not a string"),
    (_set(SRIOV, "replicas.0.env.1", ["X", 5]), "replicas[0].env: X: not a string"),
    (_set(SRIOV, "replicas.0.env.0", ["N", {"fieldRef": "spec.secret"}]), "replicas[0].env: N: a downward-API field"),
    (_set(SRIOV, "port", 0), "port: not a whole number in 1..65535"),
    (_set(SRIOV, "stack", "../x"), "stack: not a stack name"),
    (_set(SRIOV, "variant", "ib"), "variant: not one of pod, vnic, sriov, sriov-rdma"),
    (_set(SRIOV, "links.2.gbps", -1), "links.2.gbps: -1 is outside 0.001..100000"),
    (_set(SRIOV, "links.2.gbps", 0), "links.2.gbps: 0 is outside 0.001..100000"),
    (_set(SRIOV, "links.2.hop_latency_ms", "1"), "links.2.hop_latency_ms: not a finite number"),
    (_set(SRIOV, "mapping", "text"), "mapping: not null or an object with its text"),
    ([1, 2], "not a JSON object"),
]


@pytest.mark.parametrize(("document", "message"), HOSTILE_JOBS)
def test_a_hostile_lab_json_is_one_line_and_the_plan_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: Any, message: str
) -> None:
    folder = job_dir(tmp_path, "h100-2n-sriov")
    (folder / "lab.json").write_text(json.dumps(document))
    assert run.main(dry(folder)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"lab: error: lab.json: {message}"), captured.err
    assert len(captured.err.splitlines()) == 1
    link = model_link(SRIOV, 2)
    with pytest.raises(LabRefused, match="^" + re.escape(f"lab.json: {message}")):
        make_plan(document, [0, 1, 2, 3], CPUS, link, PATHS)


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (lambda p: p.write_text('{"nnodes": NaN}'), "not JSON (NaN is not JSON)"),
        (lambda p: p.write_text("{not json"), "not JSON (Expecting property name"),
        (lambda p: p.write_bytes(b"\xff\xfe"), "not JSON ("),
        (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "not JSON (nested too deeply)"),
        (lambda p: p.write_text(" " * (4 * 2**20 + 1)), "over 4 MiB: not a lab.json"),
        (lambda p: os.mkfifo(p), "is not a regular file"),  # refused before an open could block
        (lambda p: p.mkdir(), "is not a regular file"),
    ],
)
def test_a_lab_json_that_is_not_one_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], write: Any, message: str
) -> None:
    folder = job_dir(tmp_path, "h100-2n-sriov")
    (folder / "lab.json").unlink()
    write(folder / "lab.json")
    assert run.main(dry(folder)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lab: error: {folder / 'lab.json'}: {message}") and len(err.splitlines()) == 1, err


def test_render_refuses_an_out_that_is_a_file_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.lab.render import main as render

    (tmp_path / "file").write_text("mine")
    assert render(["h100-2n-pod", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == f"lab render: {tmp_path / 'file'}: is not a folder (the job's files go into it)\n"
    assert (tmp_path / "file").read_text() == "mine"
