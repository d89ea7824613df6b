"""A sweep as an Argo Workflow: per cell ``up`` -> ``run`` -> ``record`` -> ``destroy`` (or keep).

Shape (``docs/walk-through/steps.md``: outer lists run one after another, inner lists in parallel):

* ``sweep``: one group holding one step per chain, so chains run in parallel;
* ``chain-N``: one group per cell, in sweep order: the cells that conflict (``pools``) one after
  the other, never a loop (loops start in parallel with no order);
* ``cell-<stack>``: holds the cell's mutexes for its whole life, then up, run, record and, unless
  the cell is kept, destroy, each in its own group.

A failed step stops its chain and leaves the cell deployed for a look (the exit handler says in
what state). Retries only where a retry repeats nothing half done: ``run`` once (it deletes any
earlier job first; each attempt has the whole deadline), ``record`` and the exit handler's steps;
never ``up`` or ``destroy``, which stop and start workers in turn: a retried attempt would start a
second update over a half-stopped pool.

Each step's ``activeDeadlineSeconds`` comes from the stack's own timeouts (``deadlines``). The exit
handler runs for every cell, holding the cell's mutexes: ``stack unlock`` (the locks a killed step
left) and then ``stack workers`` (each worker's state), whatever the sweep's outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from experiments.incluster.objects import (
    APP_LABEL,
    CLAIM_LABEL,
    container_env,
    pod_affinity,
    security_context,
    volume_mounts,
    volumes,
)
from experiments.incluster.settings import RESULTS_PATH, RUNS_DIR, STATE_DIR, InClusterSettings

__all__ = ["ArgoCell", "RECORD_PATH", "render_workflow"]

RECORD_PATH = "/tmp/record.json"  # noqa: S108 - the record step's output parameter, inside its own pod
SHORT_STEP_SECONDS = 600
TTL_SECONDS = 7 * 24 * 3600
"""Finished workflows (and their record outputs) stay a week."""


@dataclass(frozen=True)
class ArgoCell:
    stack: str
    file_name: str
    """The cell's stack file in the stacks ConfigMap (``Pulumi.<stack>.yaml``), mounted beside the
    program's ``Pulumi.yaml`` in each of the cell's pods: the steps name the cell by its stack name."""
    locks: tuple[str, ...]
    up_seconds: int
    destroy_seconds: int
    run_seconds: int
    """``run --timeout``; the step's deadline adds a margin."""
    keep: bool


def _retry(limit: int) -> dict[str, Any]:
    return {"limit": limit, "retryPolicy": "Always", "backoff": {"duration": "30s", "factor": 2, "maxDuration": "15m"}}


def _step_template(
    name: str,
    settings: InClusterSettings,
    cell: ArgoCell,
    args: list[str],
    deadline: int,
    retries: int | None = None,
    outputs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    template: dict[str, Any] = {
        "name": name,
        "activeDeadlineSeconds": deadline,
        "container": {
            "image": settings.image,
            "imagePullPolicy": "IfNotPresent",
            "command": ["python", "-m", "experiments"],
            "args": args,
            "env": container_env(settings),
            "volumeMounts": volume_mounts([cell.file_name]),
            "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
            "resources": {"requests": {"cpu": "250m", "memory": "1Gi"}, "limits": {"memory": "4Gi"}},
        },
    }
    if retries:
        template["retryStrategy"] = _retry(retries)
    if outputs:
        template["outputs"] = outputs
    return template


def _cell_templates(cell: ArgoCell, settings: InClusterSettings, run_margin: int) -> list[dict[str, Any]]:
    state = ["--state-dir", STATE_DIR]
    name = cell.stack
    steps = [
        _step_template(f"up-{name}", settings, cell, ["stack", "up", name, *state], cell.up_seconds),
        _step_template(
            f"run-{name}",
            settings,
            cell,
            ["run", name, "--timeout", str(cell.run_seconds), "--out", f"{RUNS_DIR}/{name}", "--store", RESULTS_PATH],
            cell.run_seconds + run_margin,
            retries=1,
        ),
        _step_template(
            f"record-{name}",
            settings,
            cell,
            ["export-results", "--store", RESULTS_PATH, "--stack", name, "--last", "1", "--out", RECORD_PATH],
            SHORT_STEP_SECONDS,
            retries=3,
            outputs={"parameters": [{"name": "record", "valueFrom": {"path": RECORD_PATH}}]},
        ),
    ]
    if not cell.keep:
        steps.append(
            _step_template(f"destroy-{name}", settings, cell, ["stack", "destroy", name, *state], cell.destroy_seconds)
        )
    sequence = {
        "name": f"cell-{name}",
        "synchronization": {"mutexes": [{"name": lock} for lock in cell.locks]},
        "steps": [[{"name": step["name"].split("-", 1)[0], "template": step["name"]}] for step in steps],
    }
    return [sequence, *steps]


def _exit_templates(cells: Sequence[ArgoCell], settings: InClusterSettings) -> list[dict[str, Any]]:
    templates: list[dict[str, Any]] = []
    unlocks, reports = [], []
    for cell in cells:
        unlock = _step_template(
            f"unlock-{cell.stack}",
            settings,
            cell,
            ["stack", "unlock", cell.stack, "--state-dir", STATE_DIR],
            SHORT_STEP_SECONDS,
            3,
        )
        # Never beside a running update of the same stack: another workflow's cell may hold it now.
        unlock["synchronization"] = {"mutexes": [{"name": lock} for lock in cell.locks]}
        report = _step_template(
            f"workers-{cell.stack}",
            settings,
            cell,
            ["stack", "workers", cell.stack, "--state-dir", STATE_DIR],
            SHORT_STEP_SECONDS,
            3,
        )
        templates += [unlock, report]
        unlocks.append({"name": f"unlock-{cell.stack}", "template": unlock["name"]})
        reports.append({"name": f"workers-{cell.stack}", "template": report["name"]})
    return [{"name": "leave-clean", "steps": [unlocks, reports]}, *templates]


def render_workflow(
    cells: Sequence[ArgoCell],
    chains: Sequence[Sequence[int]],
    settings: InClusterSettings,
    *,
    kubeconfig_map: str,
    stacks_map: str,
    run_margin: int,
) -> dict[str, Any]:
    templates: list[dict[str, Any]] = [
        {"name": "sweep", "steps": [[{"name": f"chain-{n}", "template": f"chain-{n}"} for n in range(len(chains))]]},
    ]
    for number, chain in enumerate(chains):
        templates.append(
            {
                "name": f"chain-{number}",
                "steps": [[{"name": cells[i].stack, "template": f"cell-{cells[i].stack}"}] for i in chain],
            }
        )
    for cell in cells:
        templates += _cell_templates(cell, settings, run_margin)
    templates += _exit_templates(cells, settings)
    return {
        "apiVersion": "argoproj.io/v1alpha1",
        "kind": "Workflow",
        "metadata": {"generateName": "gpu-cluster-sweep-", "namespace": settings.namespace, "labels": dict(APP_LABEL)},
        "spec": {
            "entrypoint": "sweep",
            "onExit": "leave-clean",
            "serviceAccountName": settings.service_account,
            "podGC": {"strategy": "OnPodSuccess"},
            "ttlStrategy": {"secondsAfterCompletion": TTL_SECONDS},
            "podMetadata": {"labels": {CLAIM_LABEL: settings.state_claim, **APP_LABEL}},
            "securityContext": security_context(settings),
            "affinity": pod_affinity(settings.state_claim),
            "volumes": volumes(settings, kubeconfig_map, stacks_map),
            "templates": templates,
        },
    }
