"""``python -m experiments approve-csrs STACK``: approve the certificate requests of a ``join``
stack's new nodes, and nothing else (the rules are ``live.csr_rules``, the rounds ``live.csr_approval``).

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

from rich.console import Console

from experiments.base.errors import InputError
from experiments.live.csr_approval import Approver, Round, approval_rounds, stack_node_names
from experiments.live.csr_facts import instances_from_outputs
from experiments.live.kube import DeadlineReached, connect, deadline_alarm
from experiments.stacks.stackfile import load_stack

__all__ = ["run"]


def _show(console: Console, result: Round, dry_run: bool, shown: dict[str, str]) -> None:
    """Print each verdict once, and again only when it changes (a request waiting for its Node)."""
    for v in result.verdicts:
        action = ("would approve" if dry_run else "approved") if v.approve else "left pending"
        line = f"  {v.csr}: {v.kind} certificate of {v.node}, asked by {v.requester}: {action}: {v.reason}"
        if shown.get(v.csr) != line:
            console.print(line)
            shown[v.csr] = line


def _node_states(names: list[str], result: Round) -> str:
    def state(name: str) -> str:
        facts = result.nodes.get(name)
        return "not registered" if facts is None else "Ready" if facts.ready else "NotReady"

    return ", ".join(f"{name} {state(name)}" for name in names)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.watch and args.dry_run:
        raise InputError("--dry-run with --watch: nothing is approved, so the nodes never get Ready; use one of them")
    stack = load_stack(args.stack)
    names = stack_node_names(stack)
    instances = instances_from_outputs(args.stack_outputs, frozenset(names)) if args.stack_outputs else {}
    with deadline_alarm(args.timeout):
        try:
            kube = connect(args.kubeconfig, args.context or stack.cluster.kubernetes.context, args.timeout)
            console.print(f"{stack.name}: certificate requests of {len(names)} node(s) on {kube.server}")
            approver = Approver(
                kube=kube,
                names=names,
                openshift=stack.cluster.kubernetes.openshift,
                instances=instances,
                dry_run=args.dry_run,
                approved={},
            )
            shown: dict[str, str] = {}
            result, done, left = approval_rounds(
                approver,
                watch=args.watch,
                poll=args.poll,
                show=lambda round_: _show(console, round_, args.dry_run, shown),
            )
        except DeadlineReached:
            raise InputError(
                f"--timeout {args.timeout:g} s reached: the cluster did not answer in time; "
                "approvals made so far stand, run approve-csrs again to go on"
            ) from None
        except KeyboardInterrupt:
            console.print("interrupted: approvals made so far stand; run approve-csrs again to go on")
            return 130
    console.print(f"nodes: {_node_states(names, result)}; {result.others} other request(s) left alone")
    if left:
        console.print(
            f"{len(left)} request(s) naming the stack's nodes left pending: review them with `oc describe csr <name>`",
            style="bold yellow",
        )
    if done:
        return 0
    after = f" after --timeout {args.timeout:g} s" if args.watch else ""
    why = "nodes not Ready" if args.watch else "requests left pending"
    console.print(f"not done{after}: {why}", style="bold red")
    return 1
