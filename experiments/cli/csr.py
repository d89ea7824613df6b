"""``python -m experiments approve-csrs STACK``: approve the certificate requests of a ``join``
stack's new nodes, and nothing else (the rules are ``live.csr_rules``, a round ``live.csr_approval``).

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

from kubernetes import client
from kubernetes.client.exceptions import ApiException
from rich.console import Console

from experiments.base.errors import InputError
from experiments.live.csr_approval import Approver, Round, approval_round, stack_node_names
from experiments.live.csr_facts import instances_from_outputs
from experiments.live.csr_rules import Verdict
from experiments.live.kube import DeadlineReached, KubeError, connect, deadline_alarm
from experiments.stacks.stackfile import load_stack

__all__ = ["run"]


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
            raise InputError(kube.api_error(error, "listing or approving certificate requests (does this "
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
    if args.watch and args.dry_run:
        raise InputError("--dry-run with --watch: nothing is approved, so the nodes never get Ready; "
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
            raise InputError(f"--timeout {args.timeout:g} s reached: the cluster did not answer in time; "
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
