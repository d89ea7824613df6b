"""``approve-csrs``: which certificate requests of a join stack's nodes are approved (real PKCS#10
requests judged by the rules), and the command against a Kubernetes API stand-in."""

from __future__ import annotations

import ipaddress
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from experiments.cli.main import main
from experiments.live.csr_rules import CLIENT_SIGNER, Context, judge, node_facts

from ...conftest import cluster_config
from ..kube_standin import CSRS, Cluster, StandIn
from .csr_factory import bootstrap_client, node, request, serving

JOIN_STACK = "h100-2n-sriov-rdma-join"
NODE_1, NODE_2 = "h100-study-q8wzt-h100-join-1", "h100-study-q8wzt-h100-join-2"
STACK_NODES = frozenset({NODE_1, NODE_2})
IP_1 = "10.241.64.21"


def verdict(csr: dict[str, Any], *nodes: dict[str, Any], openshift: bool = True, **context: Any) -> Any:
    registered = {n["metadata"]["name"]: node_facts(n) for n in nodes}
    return judge(
        csr, Context(stack_nodes=STACK_NODES, nodes=registered, openshift=openshift, now=datetime.now(UTC), **context)
    )


def test_a_joining_nodes_first_client_request_is_approved() -> None:
    result = verdict(bootstrap_client("csr-a", NODE_1))
    assert (result.approve, result.node, result.kind) == (True, NODE_1, "client")
    assert result.reason.startswith("first client certificate of a joining node")


def test_a_request_for_any_other_node_is_not_the_stacks() -> None:
    result = verdict(bootstrap_client("csr-a", "mini-scale-cjzbq-worker-2-4k44l"))
    assert (result.approve, result.node, result.reason) == (False, None, "not for one of the stack's nodes")
    garbled = verdict(bootstrap_client("csr-b", NODE_1, spec_request="bm90IGEgcmVxdWVzdA=="))
    assert (garbled.approve, garbled.node) == (False, None)
    assert garbled.reason == (
        "spec.request is not exactly one CERTIFICATE REQUEST PEM block (a BEGIN line, base64, "
        "an END line, nothing else)"
    )


@pytest.mark.parametrize(
    ("csr", "registered", "reason"),
    [
        (
            bootstrap_client("c", NODE_1),
            [node(NODE_1, IP_1)],
            f"Node {NODE_1} is already registered, so this bootstrap request is not its kubelet's",
        ),
        (
            bootstrap_client(
                "c", NODE_1, username="system:serviceaccount:default:builder", groups=["system:authenticated"]
            ),
            [],
            "asked by system:serviceaccount:default:builder (groups ['system:authenticated']): a first client "
            "certificate must be asked by system:serviceaccount:openshift-machine-config-operator:node-bootstrapper "
            "with exactly the groups",
        ),
        (
            bootstrap_client("c", NODE_1, usages=["digital signature", "client auth", "server auth"]),
            [],
            "usages ['client auth', 'digital signature', 'server auth'] are not a kubelet's",
        ),
        (
            bootstrap_client(
                "c", NODE_1, spec_request=request(f"system:node:{NODE_1}", organizations=("system:masters",))
            ),
            [],
            "subject O=system:masters is not system:nodes",
        ),
        (
            bootstrap_client("c", NODE_1, spec_request=request(f"system:node:{NODE_1}", dns=("api.example.com",))),
            [],
            "a kubelet's client certificate has no alternative names",
        ),
        (
            bootstrap_client(
                "c", NODE_1, username=f"system:node:{NODE_1}", groups=["system:nodes", "system:authenticated"]
            ),
            [],
            f"renewal by system:node:{NODE_1}, but no Node {NODE_1} is registered",
        ),
        (serving("s", NODE_1, (IP_1,)), [], f"no Node {NODE_1} is registered yet"),
        (
            serving("s", NODE_1, (IP_1,)),
            [node(NODE_1, IP_1, initialized=False)],
            f"the cloud controller manager has not initialized Node {NODE_1} yet",
        ),
        (
            serving("s", NODE_1, ("10.0.0.9",)),
            [node(NODE_1, IP_1)],
            f"IP address 10.0.0.9 is not one of {NODE_1}'s (its Node's: {IP_1})",
        ),
        (
            serving("s", NODE_1, (IP_1,), dns=("kubernetes.default.svc",)),
            [node(NODE_1, IP_1)],
            f"DNS name kubernetes.default.svc is not one of Node {NODE_1}'s ({NODE_1})",
        ),
        (
            serving("s", NODE_1, (IP_1,), username=f"system:node:{NODE_2}"),
            [node(NODE_1, IP_1)],
            f"asked by system:node:{NODE_2}, not by system:node:{NODE_1} itself",
        ),
        (serving("s", NODE_1, (IP_1,), state="Denied"), [node(NODE_1, IP_1)], "denied"),
    ],
)
def test_requests_that_fail_a_check_are_left_pending_with_the_reason(csr, registered, reason) -> None:
    result = verdict(csr, *registered)
    assert result.approve is False and result.node == NODE_1
    assert result.reason.startswith(reason), result.reason


def test_a_serving_request_for_the_nodes_own_addresses_is_approved() -> None:
    result = verdict(serving("s", NODE_1, (IP_1,)), node(NODE_1, IP_1))
    assert (result.approve, result.kind, result.requester) == (True, "serving", f"system:node:{NODE_1}")


def test_kubeadm_stacks_expect_a_bootstrap_token_and_no_cloud_controller() -> None:
    token_user = bootstrap_client(
        "c",
        NODE_1,
        username="system:bootstrap:abcdef",
        groups=["system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token"],
    )
    assert verdict(token_user, openshift=False).approve
    refused = verdict(bootstrap_client("c", NODE_1), openshift=False)
    assert not refused.approve and "must be asked by a system:bootstrap:<token> user" in refused.reason
    # Without a cloud controller manager nobody removes the taint: the Node's addresses are what it has.
    assert verdict(serving("s", NODE_1, (IP_1,)), node(NODE_1, IP_1, initialized=False), openshift=False).approve


def test_a_renewal_by_the_registered_node_itself_is_approved() -> None:
    renewal = bootstrap_client(
        "c", NODE_1, username=f"system:node:{NODE_1}", groups=["system:nodes", "system:authenticated"]
    )
    result = verdict(renewal, node(NODE_1, IP_1, ready=True))
    assert result.approve and result.reason == "client certificate renewal, asked by the node itself"
    assert result.kind == "client" and renewal["spec"]["signerName"] == CLIENT_SIGNER


# --- the command -------------------------------------------------------------------------------


def approve(cluster: Cluster, tmp_path: Path, *extra: str, stack: str = JOIN_STACK) -> tuple[int, StandIn]:
    with StandIn(cluster) as standin:
        code = main(["approve-csrs", stack, "--kubeconfig", str(standin.kubeconfig(tmp_path)), *extra])
    return code, standin


def approved(cluster: Cluster) -> list[str]:
    return [path.split("/")[-2] for method, path, _ in cluster.requests if method == "PUT"]


@pytest.mark.slow
def test_one_round_approves_the_stacks_requests_and_leaves_every_other_alone(tmp_path, capsys) -> None:
    foreign = bootstrap_client("csr-foreign", "mini-scale-cjzbq-worker-2-4k44l")
    forged = bootstrap_client(
        "csr-forged", NODE_2, username="system:serviceaccount:default:builder", groups=["system:authenticated"]
    )
    done = bootstrap_client("csr-old", NODE_1, state="Approved")
    cluster = Cluster(
        csrs={c["metadata"]["name"]: c for c in (bootstrap_client("csr-1", NODE_1), foreign, forged, done)}
    )
    code, _ = approve(cluster, tmp_path)
    out = capsys.readouterr().out
    assert code == 1, out  # the forged request stays pending, so not everything is done
    assert approved(cluster) == ["csr-1"]
    condition = cluster.csrs["csr-1"]["status"]["conditions"][-1]
    assert condition["type"] == "Approved" and condition["reason"] == "GpuClusterApproveCsrs"
    assert NODE_1 in condition["message"]
    assert cluster.csrs["csr-forged"]["status"] == {} and cluster.csrs["csr-foreign"]["status"] == {}
    assert "approved: first client certificate of a joining node" in out
    assert "left pending: asked by system:serviceaccount:default:builder" in out
    assert f"{NODE_1} not registered, {NODE_2} not registered; 1 other request(s) left alone" in out


@pytest.mark.slow
def test_dry_run_approves_nothing(tmp_path, capsys) -> None:
    cluster = Cluster(csrs={"csr-1": bootstrap_client("csr-1", NODE_1)})
    code, _ = approve(cluster, tmp_path, "--dry-run")
    assert code == 1 and approved(cluster) == []
    assert "would approve: first client certificate" in capsys.readouterr().out


def kubelet(cluster: Cluster, csr: dict[str, Any]) -> None:
    """A joining kubelet (its requests are named ``client-<node>`` and ``serving-<node>``): a client
    certificate → it registers (the CCM sets its address) and asks for a serving one; that approved
    → it reports Ready."""
    name = csr["metadata"]["name"].split("-", 1)[1]
    ip = str(ipaddress.ip_address(IP_1) + (name == NODE_2))
    if csr["spec"]["signerName"] == CLIENT_SIGNER:
        cluster.nodes[name] = node(name, ip)
        cluster.csrs[f"serving-{name}"] = serving(f"serving-{name}", name, (ip,))
    else:
        cluster.nodes[name] = node(name, ip, ready=True)


def test_watch_follows_both_nodes_through_both_certificates_until_ready(tmp_path, capsys) -> None:
    forged = bootstrap_client(
        "csr-forged", NODE_2, username="system:serviceaccount:default:builder", groups=["system:authenticated"]
    )
    cluster = Cluster(
        csrs={"csr-forged": forged, **{f"client-{n}": bootstrap_client(f"client-{n}", n) for n in sorted(STACK_NODES)}},
        on_approve=kubelet,
    )
    code, _ = approve(cluster, tmp_path, "--watch", "--poll", "0.01", "--timeout", "30")
    out = capsys.readouterr().out
    assert code == 0, out
    assert sorted(approved(cluster)) == sorted(
        [f"client-{NODE_1}", f"client-{NODE_2}", f"serving-{NODE_1}", f"serving-{NODE_2}"]
    )
    assert f"nodes: {NODE_1} Ready, {NODE_2} Ready" in out
    assert out.count("csr-forged:") == 1  # shown once, however many rounds
    assert "1 request(s) naming the stack's nodes left pending: review them" in out


@pytest.mark.slow
def test_watch_gives_up_at_the_timeout_naming_the_nodes(tmp_path, capsys) -> None:
    cluster = Cluster(csrs={"client-1": bootstrap_client("client-1", NODE_1)})
    code, _ = approve(cluster, tmp_path, "--watch", "--poll", "0.01", "--timeout", "1")
    out = capsys.readouterr().out
    assert code == 1 and approved(cluster) == ["client-1"]
    assert f"{NODE_1} not registered, {NODE_2} not registered" in out
    assert "not done after --timeout 1 s: nodes not Ready" in out


def test_an_identity_without_approval_rights_is_one_line(tmp_path, capsys) -> None:
    code, _ = approve(Cluster(forbidden=True), tmp_path)
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "403 Forbidden listing or approving certificate requests" in err


@pytest.mark.parametrize(
    ("stack", "changes", "message"),
    [
        (
            "adopted",
            {},
            "Pulumi.adopted.yaml: gpu-cluster:cluster.nodes.source is adopt: approve-csrs is for nodes.source: join",
        ),
        (
            "no-opt-in",
            {"nodes.source": "join", "nodes.names": ..., "nodes.allow_instance_stop": ...},
            "Pulumi.no-opt-in.yaml: gpu-cluster:cluster.nodes.join.approve_csrs is false: set it to true",
        ),
    ],
)
def test_stacks_that_did_not_opt_in_are_refused_before_the_cluster_is_asked(
    tmp_path, capsys, write_stack, stack, changes, message
) -> None:
    path = write_stack(stack, cluster_config(**changes))
    cluster = Cluster()
    code, _ = approve(cluster, tmp_path, stack=str(path))
    assert code == 2 and message in capsys.readouterr().err
    assert not [p for _, p, _ in cluster.requests if p.startswith(CSRS)] and cluster.requests == []


def test_dry_run_and_watch_together_are_refused(tmp_path, capsys) -> None:
    code, _ = approve(Cluster(), tmp_path, "--dry-run", "--watch")
    assert code == 2 and "--dry-run with --watch" in capsys.readouterr().err


def test_a_kubeadm_stack_approves_bootstrap_token_requests_for_its_default_node_names(
    tmp_path, capsys, write_stack
) -> None:
    path = write_stack(
        "kubeadm",
        cluster_config(
            **{
                "nodes.source": "join",
                "nodes.names": ...,
                "nodes.allow_instance_stop": ...,
                "kubernetes.openshift": False,
                "kubernetes.whereabouts_installed": True,
                "nodes.join.kubeadm_endpoint": "10.241.0.5:6443",
                "nodes.join.approve_csrs": True,
            }
        ),
    )
    token = {"username": "system:bootstrap:abcdef", "groups": ["system:bootstrappers", "system:authenticated"]}
    cluster = Cluster(
        csrs={
            "node-csr-0": bootstrap_client("node-csr-0", "t-node0", **token),
            "node-csr-x": bootstrap_client("node-csr-x", "t-node7", **token),
        }
    )
    code, _ = approve(cluster, tmp_path, stack=str(path))
    out = capsys.readouterr().out
    assert code == 0, out
    assert approved(cluster) == ["node-csr-0"]  # t-node7 is not one of the stack's 2 nodes
    assert "t-node0 not registered, t-node1 not registered; 1 other request(s) left alone" in out


def test_the_join_stacks_outputs_are_what_approve_csrs_reads(tmp_path) -> None:
    """`pulumi stack output --json` of a join stack carries joinNodes: the addresses IBM gave each node's NICs
    (primary first), which approve-csrs --stack-outputs checks serving certificates against."""
    from experiments.live.csr_facts import instances_from_outputs
    from experiments.state.preview import run_preview

    outputs = run_preview("h100-2n-sriov-rdma-join").document()["outputs"]
    nodes = frozenset(outputs["nodes"])
    path = tmp_path / "outputs.json"
    path.write_text(json.dumps(outputs))
    instances = instances_from_outputs(path, nodes)
    assert set(instances) == nodes
    for name in nodes:
        assert instances[name].ips is not None and len(instances[name].ips) == 9  # primary + 8 cluster NICs
        assert outputs["joinNodes"][name]["addresses"][0] in instances[name].ips
