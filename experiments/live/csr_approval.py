"""One approval round of approve-csrs: list the requests and Nodes, judge each request alone
(``csr_rules``), hold back what the machine-approver would, approve the rest (unless a dry run);
and the rounds of a run: once, or with ``--watch`` until the stack's nodes are Ready.

Everything listed is hostile input: a request is judged by its own bytes, and a node is approved
at most once per round, never while two requests compete for it.

Apart from ``csr_rules`` by concept, not size: this talks to the API server, the rules never do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from components.plan.inventory import join_node_names
from experiments.base.errors import InputError
from experiments.base.shapes import as_dict, as_list
from experiments.live.csr_rules import (
    NODE_USER_PREFIX,
    OPENSHIFT_BOOTSTRAPPER,
    Context,
    Instance,
    NodeFacts,
    Verdict,
    created_at,
    csr_state,
    is_node_name,
    judge,
    node_facts,
)
from experiments.live.kube import Kube, KubeError
from experiments.stacks.stackfile import StackFile

__all__ = [
    "APPROVAL_REASON",
    "PENDING_HEADROOM",
    "Approver",
    "Round",
    "approval_round",
    "approval_rounds",
    "stack_node_names",
]

APPROVAL_REASON = "GpuClusterApproveCsrs"
PENDING_HEADROOM = 100
"""The approver's ``maxDiffBetweenPendingCSRsAndMachinesCount``."""
RECENT = timedelta(hours=1)
"""Pending requests younger than this count toward the ceiling (the approver's ``maxPendingDelta``)."""


def stack_node_names(stack: StackFile) -> list[str]:
    """The join stack's node names, after the opt-in checks (exit 2 naming the field otherwise)."""
    cfg, field = stack.cluster, f"{stack.path.name}: gpu-cluster:cluster.nodes"
    if cfg.nodes.source != "join":
        raise InputError(
            f"{field}.source is {cfg.nodes.source}: approve-csrs is for nodes.source: join "
            "(adopted workers are already nodes; standalone instances join no cluster)"
        )
    if not cfg.nodes.join.approve_csrs:
        raise InputError(
            f"{field}.join.approve_csrs is false: set it to true to let approve-csrs approve "
            "the certificate requests of this stack's nodes"
        )
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
    condition = {
        "type": "Approved",
        "status": "True",
        "reason": APPROVAL_REASON,
        "message": f"gpu-cluster approve-csrs: {verdict.reason} ({verdict.node})",
        "lastUpdateTime": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    status = as_dict(csr.get("status"))
    conditions = as_list(status.get("conditions"))
    body = {**csr, "status": {**status, "conditions": [*conditions, condition]}}
    approver.kube.read(
        certificates.replace_certificate_signing_request_approval,
        csr["metadata"]["name"],
        body,
        what=f"approving {verdict.csr}",
    )


def _recent_node_requests(csrs: list[dict[str, Any]], now: datetime) -> int:
    def from_a_node(csr: dict[str, Any]) -> bool:
        user = as_dict(csr.get("spec")).get("username")
        return isinstance(user, str) and (
            user == OPENSHIFT_BOOTSTRAPPER or user.startswith((NODE_USER_PREFIX, "system:bootstrap:"))
        )

    return sum(
        1
        for csr in csrs
        if from_a_node(csr)
        and csr_state(csr) == "pending"
        and (created := created_at(csr)) is not None
        and now - RECENT <= created <= now + RECENT
    )


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
            v = replace(
                v,
                approve=False,
                reason=f"{pending} recent node requests are pending, more than the "
                f"ceiling of {ceiling} (nodes + {PENDING_HEADROOM}): none is "
                "approved until they are cleared",
            )
        elif rivals:
            v = replace(
                v,
                approve=False,
                reason=f"competes with {', '.join(rivals)} for {v.node}: none is approved "
                "while two pass (one is not its kubelet's; delete the stray one)",
            )
        elif earlier is not None and earlier != v.csr:
            v = replace(
                v,
                approve=False,
                reason=f"this command already approved {earlier}, a {v.kind} certificate "
                f"of {v.node}: a second one is not its kubelet's",
            )
        decided.append(v)
    return decided


def approval_round(approver: Approver, certificates: Any, core: Any) -> Round:
    kube, stack_nodes, now = approver.kube, frozenset(approver.names), datetime.now(UTC)
    all_nodes = [
        n
        for n in kube.items(core.list_node, what="listing Nodes")
        if isinstance(n.get("metadata"), dict) and isinstance(n["metadata"].get("name"), str)
    ]
    nodes = {n["metadata"]["name"]: node_facts(n) for n in all_nodes if n["metadata"]["name"] in stack_nodes}
    csrs = kube.items(certificates.list_certificate_signing_request, what="listing certificate requests")
    context = Context(
        stack_nodes=stack_nodes, nodes=nodes, openshift=approver.openshift, now=now, instances=approver.instances
    )
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


def approval_rounds(
    approver: Approver, *, watch: bool, poll: float, show: Callable[[Round], None]
) -> tuple[Round, bool, list[Verdict]]:
    """Rounds until done (``watch``: every stack node Ready and a round approved nothing, so no request
    of theirs moves; else nothing left pending), or the client's deadline is near. Each round is shown
    with ``show``; a request that changed between listing and approval (409) is looked at again.
    Returns the last round, whether it is done, and the requests left pending."""
    kube = approver.kube
    certificates, core = client.CertificatesV1Api(kube.api), client.CoreV1Api(kube.api)
    result: Round | None = None
    while True:
        try:
            result = approval_round(approver, certificates, core)
        except KubeError:
            if result is None or kube.remaining() > 0:
                raise
            return result, False, [v for v in result.verdicts if not v.approve]  # the clock ran out mid-round
        except ApiException as error:
            if error.status == 409 and kube.remaining() > poll:
                time.sleep(poll)  # a request changed between list and approval: look again
                continue
            raise InputError(
                kube.api_error(
                    error,
                    "listing or approving certificate requests (does this "
                    "identity have the rights of `oc adm certificate approve`?)",
                )
            ) from None
        show(result)
        left = [v for v in result.verdicts if not v.approve or approver.dry_run]
        if watch:  # done once every node is Ready and a round approved nothing: no request of theirs moves
            ready = all(name in result.nodes and result.nodes[name].ready for name in approver.names)
            done = ready and not any(v.approve for v in result.verdicts)
        else:
            done = not left
        if done or not watch or kube.remaining() <= poll:
            return result, done, left
        time.sleep(poll)
