"""``python -m experiments approve-csrs STACK``: approve the certificate requests of a ``join``
stack's new nodes, and nothing else (the checks are ``csr_rules``).

The stack must say ``nodes.source: join`` and opt in with ``nodes.join.approve_csrs: true``; the
node names are the stack's (``nodes.names``, else ``<prefix>-node<i>``). One round lists the
CSRs and Nodes, approves the requests that pass, and shows every request naming a stack node with
its verdict. ``--watch`` repeats rounds until every stack node is Ready with no request of theirs
pending (a joining kubelet asks first for a client certificate, then, registered, for a serving
one), or ``--timeout``. ``--dry-run`` approves nothing. Exit 0 when nothing of the stack's nodes is
left pending (and, with ``--watch``, all are Ready), 1 otherwise, 2 for bad input or no cluster.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from rich.console import Console

from .errors import StackFileError
from .kube import add_cluster_arguments

if TYPE_CHECKING:  # the rules import ``cryptography``: only when the command runs
    from .csr_rules import NodeFacts, Verdict

__all__ = ["add_parser", "run"]

APPROVAL_REASON = "GpuClusterApproveCsrs"


def add_parser(commands: Any) -> None:
    approve = commands.add_parser(
        "approve-csrs", help="approve the pending certificate requests of a join stack's nodes, and only those")
    approve.add_argument("stack", help="stack name or stack file (nodes.source: join, nodes.join.approve_csrs: true)")
    add_cluster_arguments(approve)
    approve.add_argument("--watch", action="store_true", help="repeat until every stack node is Ready")
    approve.add_argument("--timeout", type=float, default=1800.0, help="--watch: seconds before giving up (1800)")
    approve.add_argument("--poll", type=float, default=10.0, help="--watch: seconds between rounds (default 10)")
    approve.add_argument("--dry-run", action="store_true", help="show the verdicts, approve nothing")


def stack_node_names(stack: Any) -> list[str]:
    """The join stack's node names, after the opt-in checks (exit 2 naming the field otherwise)."""
    from components.plan.inventory import join_node_names

    cfg, field = stack.cluster, f"{stack.path.name}: gpu-cluster:cluster.nodes"
    if cfg.nodes.source != "join":
        raise StackFileError(f"{field}.source is {cfg.nodes.source}: approve-csrs is for nodes.source: join "
                             "(adopted workers are already nodes; standalone instances join no cluster)")
    if not cfg.nodes.join.approve_csrs:
        raise StackFileError(f"{field}.join.approve_csrs is false: set it to true to let approve-csrs approve "
                             "the certificate requests of this stack's nodes")
    return join_node_names(cfg)


@dataclass(frozen=True)
class Round:
    verdicts: list[Verdict]
    """Every pending request naming a stack node, and those approved in this round."""
    nodes: dict[str, NodeFacts]
    others: int
    """Requests for anything else, left alone."""


def _listed(call: Any) -> list[dict[str, Any]]:
    response = call(_preload_content=False, _request_timeout=30)
    return list(json.loads(response.data)["items"])


def _approve(certificates: Any, csr: dict[str, Any], verdict: Verdict) -> None:
    condition = {"type": "Approved", "status": "True", "reason": APPROVAL_REASON,
                 "message": f"gpu-cluster approve-csrs: {verdict.reason} ({verdict.node})",
                 "lastUpdateTime": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    status = csr.get("status") or {}
    body = {**csr, "status": {**status, "conditions": [*(status.get("conditions") or []), condition]}}
    certificates.replace_certificate_signing_request_approval(csr["metadata"]["name"], body,
                                                              _preload_content=False, _request_timeout=30)


def approval_round(certificates: Any, core: Any, names: list[str], openshift: bool, dry_run: bool) -> Round:
    from .csr_rules import judge, node_facts

    stack_nodes = frozenset(names)
    nodes = {n["metadata"]["name"]: node_facts(n) for n in _listed(core.list_node)
             if n["metadata"]["name"] in stack_nodes}
    verdicts, others = [], 0
    for csr in _listed(certificates.list_certificate_signing_request):
        verdict = judge(csr, stack_nodes, nodes, openshift)
        if verdict.node is None:
            others += 1
            continue
        if verdict.state != "pending":
            continue
        if verdict.approve and not dry_run:
            _approve(certificates, csr, verdict)
        verdicts.append(verdict)
    return Round(verdicts=verdicts, nodes=nodes, others=others)


def _show(console: Console, result: Round, dry_run: bool, shown: dict[str, str]) -> None:
    """Print each verdict once, and again only when it changes (a request waiting for its Node)."""
    for v in result.verdicts:
        action = ("would approve" if dry_run else "approved") if v.approve else "left pending"
        line = f"  {v.csr}: {v.kind} certificate of {v.node}, asked by {v.requester}: {action}: {v.reason}"
        if shown.get(v.csr) != line:
            console.print(line, highlight=False, markup=False)
            shown[v.csr] = line


def _node_states(names: list[str], result: Round) -> str:
    def state(name: str) -> str:
        facts = result.nodes.get(name)
        return "not registered" if facts is None else "Ready" if facts.ready else "NotReady"

    return ", ".join(f"{name} {state(name)}" for name in names)


def run(args: argparse.Namespace, console: Console) -> int:
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    from .kube import connect
    from .stackfile import load_stack

    if args.watch and args.dry_run:
        raise StackFileError("--dry-run with --watch: nothing is approved, so the nodes never get Ready; "
                             "use one of them")
    stack = load_stack(args.stack)
    names = stack_node_names(stack)
    api, cluster = connect(args.kubeconfig, args.context or stack.cluster.kubernetes.context)
    certificates, core = client.CertificatesV1Api(api), client.CoreV1Api(api)
    openshift = stack.cluster.kubernetes.openshift
    console.print(f"{stack.name}: certificate requests of {len(names)} node(s) on {cluster}", highlight=False)
    start, shown = time.monotonic(), {}
    while True:
        try:
            result = approval_round(certificates, core, names, openshift, args.dry_run)
        except ApiException as error:
            if error.status == 409 and time.monotonic() - start <= args.timeout:
                time.sleep(args.poll)  # a request changed between list and approval: look again
                continue
            raise StackFileError(f"{cluster}: {error.status} {error.reason} listing or approving certificate "
                                 "requests (does this identity have the rights of `oc adm certificate approve`?)"
                                 ) from None
        _show(console, result, args.dry_run, shown)
        left = [v for v in result.verdicts if not v.approve or args.dry_run]
        if args.watch:  # done once every node is Ready and a round approved nothing: no request of theirs moves
            ready = all(name in result.nodes and result.nodes[name].ready for name in names)
            done = ready and not any(v.approve for v in result.verdicts)
        else:
            done = not left
        if done or not args.watch or time.monotonic() - start > args.timeout:
            break
        time.sleep(args.poll)
    console.print(f"nodes: {_node_states(names, result)}; {result.others} other request(s) left alone",
                  highlight=False)
    if left:
        console.print(f"{len(left)} request(s) naming the stack's nodes left pending: review them with "
                      "`oc describe csr <name>`", style="bold yellow", highlight=False)
    if done:
        return 0
    after = f" after --timeout {args.timeout:.0f} s" if args.watch else ""
    why = "nodes not Ready" if args.watch else "requests left pending"
    console.print(f"not done{after}: {why}", style="bold red", highlight=False)
    return 1
