"""``approve-csrs`` and ``run`` against a cluster that lies, stalls, or leaks: the stand-in API plays
the hostile side (forged and competing requests, poison objects, silent or trickling answers,
pod names that are paths, logs that are not UTF-8), and the kubeconfig carries real-looking secrets."""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main
from tests.timing import hang_bound

from ..kube_standin import Cluster, StandIn
from .csr_factory import bootstrap_client, node, request, serving

JOIN_STACK = "h100-2n-sriov-rdma-join"
NODE_1, NODE_2 = "h100-study-q8wzt-h100-join-1", "h100-study-q8wzt-h100-join-2"
IP_1 = "10.241.64.21"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GPU_LOG = re.sub(r"nRanks \d+", "nRanks 16", (FIXTURES / "runs" / "h100-1n-pod-fsdp.log").read_text())
TOKEN, PASSWORD = "eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LXRva2Vu.sig-0123456789abcdef", "hunter2-Pa55word"


def approve(cluster: Cluster, tmp_path: Path, *extra: str, **kubeconfig: Any) -> tuple[int, StandIn]:
    with StandIn(cluster) as standin:
        code = main(
            ["approve-csrs", JOIN_STACK, "--kubeconfig", str(standin.kubeconfig(tmp_path, **kubeconfig)), *extra]
        )
    return code, standin


def approved(cluster: Cluster) -> list[str]:
    return [path.split("/")[-2] for method, path, _ in cluster.requests if method == "PUT"]


def test_two_requests_for_one_node_are_both_left_pending(tmp_path, capsys) -> None:
    rival = bootstrap_client("csr-b", NODE_1, spec_request=request(f"system:node:{NODE_1}"))
    cluster = Cluster(
        csrs={"csr-a": bootstrap_client("csr-a", NODE_1), "csr-b": rival, "csr-c": bootstrap_client("csr-c", NODE_2)}
    )
    code, _ = approve(cluster, tmp_path)
    out = capsys.readouterr().out
    assert code == 1 and approved(cluster) == ["csr-c"]
    assert f"csr-a: client certificate of {NODE_1}, asked by" in out
    assert f"left pending: competes with csr-b for {NODE_1}: none is approved while two pass" in out


def test_one_poison_request_leaves_the_round_going(tmp_path, capsys) -> None:
    poison = [
        {"metadata": {"name": "p1"}, "spec": {"request": 5}},
        {"metadata": None, "spec": []},
        {"kind": "garbage"},
        {
            "metadata": {"name": "p4"},
            "spec": {"request": request(f"system:node:{NODE_2}"), "groups": "x", "signerName": 7},
        },
    ]
    cluster = Cluster(csrs={**{f"p{i}": p for i, p in enumerate(poison)}, "csr-1": bootstrap_client("csr-1", NODE_1)})
    code, _ = approve(cluster, tmp_path)
    captured = capsys.readouterr()
    assert approved(cluster) == ["csr-1"] and code == 1, captured
    assert "Traceback" not in captured.err


def test_no_approval_above_the_pending_ceiling(tmp_path, capsys) -> None:
    flood = {f"flood-{i}": bootstrap_client(f"flood-{i}", f"worker-{i}") for i in range(103)}
    cluster = Cluster(csrs={**flood, "csr-1": bootstrap_client("csr-1", NODE_1)})
    code, _ = approve(cluster, tmp_path)
    out = capsys.readouterr().out
    assert code == 1 and approved(cluster) == []
    assert "104 recent node requests are pending, more than the ceiling of 102 (nodes + 100)" in out


def test_old_flood_does_not_count_toward_the_ceiling(tmp_path, capsys) -> None:
    flood = {f"old-{i}": bootstrap_client(f"old-{i}", f"worker-{i}", age=timedelta(hours=3)) for i in range(103)}
    cluster = Cluster(csrs={**flood, "csr-1": bootstrap_client("csr-1", NODE_1)})
    approve(cluster, tmp_path)
    assert approved(cluster) == ["csr-1"]


@pytest.mark.slow
def test_stack_outputs_give_ibms_addresses_and_creation_time(tmp_path, capsys) -> None:
    outputs = tmp_path / "outputs.json"
    outputs.write_text(
        json.dumps({"joinNodes": {NODE_1: {"createdAt": "2026-01-01T00:00:00Z", "addresses": ["10.241.64.50"]}}})
    )
    cluster = Cluster(
        csrs={"csr-1": bootstrap_client("csr-1", NODE_1)},
        nodes={NODE_2: node(NODE_2, IP_1)},
    )
    cluster.csrs["s-2"] = serving("s-2", NODE_2, (IP_1,))
    code, _ = approve(cluster, tmp_path, "--stack-outputs", str(outputs))
    out = capsys.readouterr().out
    assert approved(cluster) == ["s-2"]  # NODE_2 has no IBM facts: its Node's addresses, as before
    assert "outside the 2:00:00 bootstrap window (IBM created the instance at 00:00:00Z)" in out
    outputs.write_text('{"joinNodes": {"%s": {"addresses": ["not-an-ip"]}}}' % NODE_1)
    assert approve(Cluster(), tmp_path, "--stack-outputs", str(outputs))[0] == 2
    assert "joinNodes.h100-study-q8wzt-h100-join-1.addresses: not a list of IP addresses" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "soon"])
@pytest.mark.parametrize("command", [["approve-csrs", JOIN_STACK], ["run", "h100-2n-sriov"]])
@pytest.mark.parametrize("flag", ["--timeout", "--poll"])
def test_nan_negative_and_zero_seconds_are_refused(command, flag, value, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*command, flag, value])
    assert stop.value.code == 2 and f"argument {flag}" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["stall", "trickle"])
def test_a_silent_or_trickling_api_ends_at_the_timeout(tmp_path, capsys, mode) -> None:
    cluster = Cluster(**{mode: ("/api/v1/nodes",)})
    start = time.monotonic()
    code, _ = approve(cluster, tmp_path, "--timeout", "2")
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err
    assert code == 2 and elapsed < hang_bound(2), (elapsed, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "--timeout" in err, err  # ended by the deadline, and says so


def test_credentials_never_reach_the_terminal(tmp_path, capsys) -> None:
    cluster = Cluster(csrs={"csr-1": bootstrap_client("csr-1", NODE_1)})
    code, _ = approve(cluster, tmp_path, token=TOKEN + "\n", userinfo=f"admin:{PASSWORD}@")
    captured = capsys.readouterr()
    assert code == 0, captured
    for secret in (TOKEN, PASSWORD):
        assert secret not in captured.out + captured.err
    assert "http://127.0.0.1:" in captured.out  # the server, without its user information
    request_headers = approved(cluster)
    assert request_headers == ["csr-1"]  # the token, stripped of its newline, was accepted


def test_credentials_stay_out_of_an_unreachable_clusters_message(tmp_path, capsys) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": f"http://admin:{PASSWORD}@127.0.0.1:9"}}],
                "users": [{"name": "u", "user": {"token": TOKEN + "\n"}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
            }
        )
    )
    for command in (["run", "h100-2n-sriov"], ["approve-csrs", JOIN_STACK]):
        assert main([*command, "--kubeconfig", str(kubeconfig), "--timeout", "5"]) == 2
        err = capsys.readouterr().err
        assert TOKEN not in err and PASSWORD not in err and "cannot reach the cluster at http://127.0.0.1:9" in err


def test_a_broken_client_key_is_not_echoed(tmp_path, capsys) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:9"}}],
                "users": [
                    {
                        "name": "u",
                        "user": {
                            "client-certificate-data": "bm90LWEtY2VydA==",
                            "client-key-data": "c2VjcmV0LWtleS1tYXRlcmlhbA==",
                            "password": PASSWORD,
                        },
                    }
                ],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
            }
        )
    )
    assert main(["approve-csrs", JOIN_STACK, "--kubeconfig", str(kubeconfig), "--timeout", "5"]) == 2
    err = capsys.readouterr().err
    assert "secret-key-material" not in err and "c2VjcmV0LWtleS1tYXRlcmlhbA" not in err and PASSWORD not in err


def test_a_valid_request_in_a_malformed_object_is_not_approved(tmp_path, capsys) -> None:
    nameless = bootstrap_client("x", NODE_1)
    nameless["metadata"] = None
    bad_name = bootstrap_client("../approval", NODE_2)
    cluster = Cluster(csrs={"nameless": nameless, "bad": bad_name})
    code, _ = approve(cluster, tmp_path)
    captured = capsys.readouterr()
    assert code == 1 and approved(cluster) == [] and "Traceback" not in captured.err
    assert "its object name is not a valid Kubernetes name" in captured.out


@pytest.mark.parametrize(
    "kubeconfig",
    [
        "fifo",
        "directory",
        pytest.param("deep", marks=pytest.mark.slow),
        pytest.param("aliases", marks=pytest.mark.slow),
        "not-a-mapping",
    ],
)
def test_a_hostile_kubeconfig_is_one_line(tmp_path, capsys, kubeconfig) -> None:
    import os

    path = tmp_path / "kubeconfig"
    if kubeconfig == "fifo":
        os.mkfifo(path)
    elif kubeconfig == "directory":
        path.mkdir()
    elif kubeconfig == "deep":
        path.write_text("users: " + "[" * 100_000 + "]" * 100_000)
    elif kubeconfig == "aliases":  # a billion laughs: shared lists, 9 ** 12 paths
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 13)]
        path.write_text("\n".join(lines) + "\nusers: [{name: u, user: *a12}]\n")
    else:
        path.write_text("- just\n- a list\n")
    # The aliases expand until the deadline ends them (CPU burnt all along): the shortest deadline will do.
    timeout = 1 if kubeconfig == "aliases" else 5
    start = time.monotonic()
    assert main(["approve-csrs", JOIN_STACK, "--kubeconfig", str(path), "--timeout", str(timeout)]) == 2
    err = capsys.readouterr().err
    assert time.monotonic() - start < hang_bound(timeout) and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err, err
    if kubeconfig == "aliases":
        assert f"--timeout {timeout} s reached" in err, err


@pytest.mark.parametrize(
    "server", [f"http://127.0.0.1:9/?token={TOKEN}", f"http://u:{PASSWORD}@[::1:9", f"http://127.0.0.1:9/#{TOKEN}"]
)
def test_a_server_url_carrying_credentials_is_never_shown_whole(tmp_path, capsys, server) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "current-context": "c",
                "clusters": [{"name": "c", "cluster": {"server": server}}],
                "users": [{"name": "u", "user": {"token": "t0k3n-value"}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
            }
        )
    )
    assert main(["approve-csrs", JOIN_STACK, "--kubeconfig", str(kubeconfig), "--timeout", "5"]) == 2
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert TOKEN not in text and PASSWORD not in text and "t0k3n-value" not in text and "Traceback" not in text
