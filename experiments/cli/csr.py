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
import time
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from experiments.base.errors import StackFileError
from experiments.base.shapes import as_dict, as_list
from experiments.live.kube import add_cluster_arguments, positive_seconds

if TYPE_CHECKING:  # the rules import ``cryptography``: only when the command runs
    from experiments.live.csr_rules import Instance, NodeFacts, Verdict
    from experiments.live.kube import Kube

__all__ = ["PENDING_HEADROOM", "add_parser", "run"]

APPROVAL_REASON = "GpuClusterApproveCsrs"
PENDING_HEADROOM = 100
"""The approver's ``maxDiffBetweenPendingCSRsAndMachinesCount``."""
RECENT = timedelta(hours=1)
"""Pending requests younger than this count toward the ceiling (the approver's ``maxPendingDelta``)."""


def add_parser(commands: Any) -> None:
    approve = commands.add_parser(
        "approve-csrs", help="approve the pending certificate requests of a join stack's nodes, and only those")
    approve.add_argument("stack", help="stack name or stack file (nodes.source: join, nodes.join.approve_csrs: true)")
    add_cluster_arguments(approve)
    approve.add_argument("--stack-outputs", type=Path, metavar="FILE",
                         help="`pulumi stack output --json` of the stack: IBM's instance creation times and NIC "
                              "addresses (joinNodes), checked against the requests")
    approve.add_argument("--watch", action="store_true", help="repeat until every stack node is Ready")
    approve.add_argument("--timeout", type=positive_seconds, default=1800.0,
                         help="seconds the whole command may take, every request included (default 1800)")
    approve.add_argument("--poll", type=positive_seconds, default=10.0,
                         help="--watch: seconds between rounds (default 10)")
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


@dataclass
class Approver:
    kube: Kube
    names: list[str]
    openshift: bool
    instances: dict[str, Instance]
    dry_run: bool
    approved: dict[tuple[str, str], str]
    """(node, kind) -> the request this command approved for it: never a second one."""


def _approve(approver: Approver, certificates: Any, csr: dict[str, Any], verdict: Verdict) -> None:
    condition = {"type": "Approved", "status": "True", "reason": APPROVAL_REASON,
                 "message": f"gpu-cluster approve-csrs: {verdict.reason} ({verdict.node})",
                 "lastUpdateTime": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    status = as_dict(csr.get("status"))
    conditions = as_list(status.get("conditions"))
    body = {**csr, "status": {**status, "conditions": [*conditions, condition]}}
    approver.kube.read(certificates.replace_certificate_signing_request_approval, csr["metadata"]["name"], body,
                       what=f"approving {verdict.csr}")


def _recent_node_requests(csrs: list[dict[str, Any]], now: datetime) -> int:
    from experiments.live.csr_rules import NODE_USER_PREFIX, OPENSHIFT_BOOTSTRAPPER, created_at, csr_state

    def from_a_node(csr: dict[str, Any]) -> bool:
        user = as_dict(csr.get("spec")).get("username")
        return isinstance(user, str) and (user == OPENSHIFT_BOOTSTRAPPER
                                          or user.startswith((NODE_USER_PREFIX, "system:bootstrap:")))

    return sum(1 for csr in csrs if from_a_node(csr) and csr_state(csr) == "pending"
               and (created := created_at(csr)) is not None and now - RECENT <= created <= now + RECENT)


def _held_back(verdicts: list[Verdict], approver: Approver, pending: int, ceiling: int) -> list[Verdict]:
    """The round's rules over single verdicts: the ceiling, one request per node, never a second."""
    by_node: dict[str, list[Verdict]] = {}
    for v in verdicts:
        if v.approve and v.node is not None:
            by_node.setdefault(v.node, []).append(v)
    decided = []
    for v in verdicts:
        if not v.approve or v.node is None:
            decided.append(v)
            continue
        rivals = [r.csr for r in by_node[v.node] if r is not v]
        earlier = approver.approved.get((v.node, v.kind))
        if pending > ceiling:
            v = replace(v, approve=False, reason=f"{pending} recent node requests are pending, more than the "
                                                 f"ceiling of {ceiling} (nodes + {PENDING_HEADROOM}): none is "
                                                 "approved until they are cleared")
        elif rivals:
            v = replace(v, approve=False, reason=f"competes with {', '.join(rivals)} for {v.node}: none is approved "
                                                 "while two pass (one is not its kubelet's; delete the stray one)")
        elif earlier is not None and earlier != v.csr:
            v = replace(v, approve=False, reason=f"this command already approved {earlier}, a {v.kind} certificate "
                                                 f"of {v.node}: a second one is not its kubelet's")
        decided.append(v)
    return decided


def approval_round(approver: Approver, certificates: Any, core: Any) -> Round:
    from experiments.live.csr_rules import Context, is_node_name, judge, node_facts

    kube, stack_nodes, now = approver.kube, frozenset(approver.names), datetime.now(UTC)
    all_nodes = [n for n in kube.items(core.list_node, what="listing Nodes")
                 if isinstance(n.get("metadata"), dict) and isinstance(n["metadata"].get("name"), str)]
    nodes = {n["metadata"]["name"]: node_facts(n) for n in all_nodes if n["metadata"]["name"] in stack_nodes}
    csrs = kube.items(certificates.list_certificate_signing_request, what="listing certificate requests")
    context = Context(stack_nodes=stack_nodes, nodes=nodes, openshift=approver.openshift, now=now,
                      instances=approver.instances)
    judged = [(csr, judge(csr, context)) for csr in csrs]
    ceiling = len(stack_nodes | {n["metadata"]["name"] for n in all_nodes}) + PENDING_HEADROOM
    mine = [(csr, v) for csr, v in judged if v.node is not None and v.state == "pending"]
    decided = _held_back([v for _, v in mine], approver, _recent_node_requests(csrs, now), ceiling)
    verdicts = []
    for (csr, _), verdict in zip(mine, decided, strict=True):
        if verdict.approve and not is_node_name(as_dict(csr.get("metadata")).get("name")):
            verdict = replace(verdict, approve=False, reason="its object name is not a valid Kubernetes name")
        if verdict.approve and not approver.dry_run:
            _approve(approver, certificates, csr, verdict)
            approver.approved[(str(verdict.node), verdict.kind)] = verdict.csr
        verdicts.append(verdict)
    return Round(verdicts=verdicts, nodes=nodes, others=sum(1 for _, v in judged if v.node is None))


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


def _rounds(approver: Approver, args: argparse.Namespace, console: Console) -> tuple[Round, bool, list[Verdict]]:
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    from experiments.live.kube import KubeError

    kube = approver.kube
    certificates, core = client.CertificatesV1Api(kube.api), client.CoreV1Api(kube.api)
    shown: dict[str, str] = {}
    result: Round | None = None
    while True:
        try:
            result = approval_round(approver, certificates, core)
        except KubeError:
            if result is None or kube.remaining() > 0:
                raise
            return result, False, [v for v in result.verdicts if not v.approve]  # the clock ran out mid-round
        except ApiException as error:
            if error.status == 409 and kube.remaining() > args.poll:
                time.sleep(args.poll)  # a request changed between list and approval: look again
                continue
            raise StackFileError(kube.api_error(error, "listing or approving certificate requests (does this "
                                                       "identity have the rights of `oc adm certificate approve`?)"
                                                       )) from None
        _show(console, result, args.dry_run, shown)
        left = [v for v in result.verdicts if not v.approve or args.dry_run]
        if args.watch:  # done once every node is Ready and a round approved nothing: no request of theirs moves
            ready = all(name in result.nodes and result.nodes[name].ready for name in approver.names)
            done = ready and not any(v.approve for v in result.verdicts)
        else:
            done = not left
        if done or not args.watch or kube.remaining() <= args.poll:
            return result, done, left
        time.sleep(args.poll)


def run(args: argparse.Namespace, console: Console) -> int:
    from experiments.live.csr_facts import instances_from_outputs
    from experiments.live.kube import DeadlineReached, connect, deadline_alarm
    from experiments.stacks.stackfile import load_stack

    if args.watch and args.dry_run:
        raise StackFileError("--dry-run with --watch: nothing is approved, so the nodes never get Ready; "
                             "use one of them")
    stack = load_stack(args.stack)
    names = stack_node_names(stack)
    instances = instances_from_outputs(args.stack_outputs, frozenset(names)) if args.stack_outputs else {}
    with deadline_alarm(args.timeout):
        try:
            kube = connect(args.kubeconfig, args.context or stack.cluster.kubernetes.context, args.timeout)
            console.print(f"{stack.name}: certificate requests of {len(names)} node(s) on {kube.server}",
                          highlight=False, markup=False)
            approver = Approver(kube=kube, names=names, openshift=stack.cluster.kubernetes.openshift,
                                instances=instances, dry_run=args.dry_run, approved={})
            result, done, left = _rounds(approver, args, console)
        except DeadlineReached:
            raise StackFileError(f"--timeout {args.timeout:g} s reached: the cluster did not answer in time; "
                                 "approvals made so far stand, run approve-csrs again to go on") from None
        except KeyboardInterrupt:
            console.print("interrupted: approvals made so far stand; run approve-csrs again to go on",
                          highlight=False, markup=False)
            return 130
    console.print(f"nodes: {_node_states(names, result)}; {result.others} other request(s) left alone",
                  highlight=False, markup=False)
    if left:
        console.print(f"{len(left)} request(s) naming the stack's nodes left pending: review them with "
                      "`oc describe csr <name>`", style="bold yellow", highlight=False, markup=False)
    if done:
        return 0
    after = f" after --timeout {args.timeout:g} s" if args.watch else ""
    why = "nodes not Ready" if args.watch else "requests left pending"
    console.print(f"not done{after}: {why}", style="bold red", highlight=False, markup=False)
    return 1
