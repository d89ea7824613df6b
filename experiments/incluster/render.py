"""From a sweep spec (or one stack) to the objects an in-cluster run needs, all checked before any file.

``sweep_objects`` renders every valid cell offline once: its Kubernetes objects give the RBAC rules
and the locks, its resources the step deadlines. ``stack_objects`` does the same for one PKO stack.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from components.models.config import PROJECT, SSH_PUBLIC_KEY
from experiments.base.errors import InputError
from experiments.incluster.admin import admin_objects, in_cluster_cluster, split_admin
from experiments.incluster.argo import ArgoCell, render_workflow
from experiments.incluster.deadlines import MARGIN_SECONDS, RUN_MARGIN_SECONDS, longest_chain_seconds
from experiments.incluster.objects import (
    kubeconfig_config_map,
    service_account,
    stack_file_text,
    stacks_config_map,
    state_claim,
)
from experiments.incluster.pko import cluster_json_of, plain_config_of, render_stack
from experiments.incluster.pools import cell_locks, chains
from experiments.incluster.rbac import StackCalls, calls_of, rbac_objects
from experiments.incluster.settings import InClusterSettings
from experiments.stacks.automation import secret_config_needed
from experiments.stacks.stackfile import StackFile
from experiments.state.preview import kubernetes_manifests, run_preview
from experiments.sweep.cells import CellPlan, SweepSpecError

SSH_KEY = f"{PROJECT}:{SSH_PUBLIC_KEY}"
__all__ = ["Rendered", "stack_objects", "sweep_objects"]

"""``destroy``: every cell after its run; ``keep-last``: all but the last cell of each chain (the
cluster stays in the last variant); ``keep``: none (only cells that share nothing)."""


@dataclass(frozen=True)
class Rendered:
    setup: list[dict[str, Any]]
    """Objects applied once (and again when they change): PVC, ServiceAccount, RBAC, ConfigMaps."""
    main: dict[str, Any]
    """The Workflow or the Stack."""
    chains: list[list[str]]


def _deadlines(stack: StackFile) -> tuple[int, int, list[dict[str, Any]]]:
    preview = run_preview(stack)
    resources = preview.result.resources
    up = longest_chain_seconds(resources, "create") + MARGIN_SECONDS
    # Detaching cluster NICs stops a worker again: a destroy may take what an up took.
    destroy = max(longest_chain_seconds(resources, "delete"), up - MARGIN_SECONDS) + MARGIN_SECONDS
    return up, destroy, kubernetes_manifests(preview)


def _needs(stack: StackFile, manifests: list[dict[str, Any]]) -> tuple[StackCalls, list[dict[str, Any]]]:
    """What the stack's steps call (its own objects; the rolling steps where it stops workers; the worker
    ignition where it joins OpenShift nodes by the cluster's own, ``components/program.py``), and what
    the administrator applies for it (``admin.py``): its namespace, read by the program, and its SCC."""
    nodes, cluster = stack.cluster.nodes, stack.cluster
    reads = nodes.source == "join" and bool(cluster.kubernetes.openshift) and nodes.join.ignition == "cluster"
    administered, own = split_admin(manifests)
    namespace = cluster.namespace if cluster.layers != "cloud" else None
    calls = StackCalls(own, namespace=namespace, rolls_workers=bool(stack.plan.stops), reads_user_data=reads)
    return calls, administered


def _keep(teardown: str, chain: Sequence[int], index: int, names: Sequence[str]) -> bool:
    if teardown == "destroy":
        return False
    if teardown == "keep-last":
        return index == chain[-1]
    if len(chain) > 1:
        raise SweepSpecError(
            f"teardown keep: {', '.join(names[i] for i in chain)} share workers or Kubernetes "
            "objects, so a kept cell would be taken over by the next; use keep-last"
        )
    return True


def sweep_objects(
    plans: Sequence[CellPlan], settings: InClusterSettings, *, teardown: str, run_seconds: int
) -> Rendered:
    valid = [p for p in plans if p.stack is not None]
    refused = [f"  {p.cell.name}: {reason}" for p in valid if p.stack and (reason := secret_config_needed(p.stack))]
    if refused:
        raise SweepSpecError(
            "--engine argo: a cell's stack file carries no secret, and these cells need one:\n" + "\n".join(refused)
        )
    rendered = []
    for plan in valid:
        assert plan.stack is not None
        up, destroy, manifests = _deadlines(plan.stack)
        rendered.append((plan, up, destroy, manifests, cell_locks(plan.cell.name, plan.stack.cluster, manifests)))
    groups = chains([locks for *_, locks in rendered])
    names = [plan.cell.name for plan, *_ in rendered]
    keep = {i: _keep(teardown, chain, i, names) for chain in groups for i in chain}
    cells = [
        ArgoCell(
            stack=plan.cell.name,
            file_name=f"Pulumi.{plan.cell.name}.yaml",
            locks=locks,
            up_seconds=up,
            destroy_seconds=destroy,
            run_seconds=run_seconds,
            keep=keep[i],
        )
        for i, (plan, up, destroy, _, locks) in enumerate(rendered)
    ]
    stacks_map = stacks_config_map(
        settings,
        {
            c.file_name: stack_file_text(in_cluster_cluster(plan.cluster))
            for c, (plan, *_) in zip(cells, rendered, strict=True)
        },
    )
    contexts = {context for p, *_ in rendered if p.stack and (context := p.stack.cluster.kubernetes.context)}
    kube_map = kubeconfig_config_map(settings, contexts)
    needs = {plan.cell.name: _needs(plan.stack, manifests) for plan, _, _, manifests, _ in rendered if plan.stack}
    calls = calls_of([n for n, _ in needs.values()], workflow_namespace=settings.namespace, argo=True)
    workflow = render_workflow(
        cells,
        groups,
        settings,
        kubeconfig_map=kube_map["metadata"]["name"],
        stacks_map=stacks_map["metadata"]["name"],
        run_margin=RUN_MARGIN_SECONDS,
    )
    setup = [
        *admin_objects({name: (stack_calls.namespace, objects) for name, (stack_calls, objects) in needs.items()}),
        service_account(settings),
        state_claim(settings),
        kube_map,
        stacks_map,
        *rbac_objects(calls, settings),
    ]
    return Rendered(setup=setup, main=workflow, chains=[[names[i] for i in chain] for chain in groups])


def stack_objects(
    stack: StackFile,
    settings: InClusterSettings,
    *,
    name: str,
    destroy_on_delete: bool,
    after: Sequence[str],
    within: str,
    config_secret: str,
) -> Rendered:
    secret_keys = stack.encrypted_keys
    reason = secret_config_needed(stack)
    if reason and stack.cluster.security.ssh_key_name is None and SSH_KEY not in secret_keys:
        raise InputError(f"{stack.path}: {reason}, or set it: pulumi config set --secret {SSH_KEY}")
    _, _, manifests = _deadlines(stack)
    context = stack.cluster.kubernetes.context
    kube_map = kubeconfig_config_map(settings, [context] if context else [])
    stack_calls, administered = _needs(stack, manifests)
    calls = calls_of([stack_calls], workflow_namespace=settings.namespace, argo=False)
    plain = plain_config_of(stack.engine_config, secret_keys, stack.path)  # no credential in plain text
    main = render_stack(
        name=name,
        stack=stack.name,
        cluster_json=json.dumps(in_cluster_cluster(json.loads(cluster_json_of(stack.engine_config))), sort_keys=True),
        plain_config=plain,
        secret_keys=secret_keys,
        config_secret=config_secret,
        settings=settings,
        kubeconfig_map=kube_map["metadata"]["name"],
        destroy_on_delete=destroy_on_delete,
        after=after,
        within=within,
    )
    setup = [
        *admin_objects({stack.name: (stack_calls.namespace, administered)}),
        service_account(settings),
        state_claim(settings),
        kube_map,
        *rbac_objects(calls, settings, token_review=True),
    ]
    return Rendered(setup=setup, main=main, chains=[[stack.name]])
