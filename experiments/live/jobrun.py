"""``run STACK``: start the stack's training job on its cluster, follow it, collect every pod's log.

The cluster is reached through the official ``kubernetes`` client: ``--kubeconfig`` (else
``KUBECONFIG`` or ``~/.kube/config``; the stack's ``gpu-cluster:kubeconfig`` is a Pulumi secret
that only the CLI can decrypt) and the stack's ``kubernetes.context`` unless ``--context`` names
another. What runs is exactly what the stack declares: the PyTorchJob (or, with ``--benchmark``,
the NCCL benchmark job) rendered offline from the stack file, in ``kubernetes.namespace``; the
rest of the stack (ConfigMaps, claim, SCC) must have been deployed with ``pulumi up``. An existing
job of that name is deleted first (foreground propagation, waited for), so ``run`` always starts
afresh. Progress shows the job's condition, pods ready and the latest step's throughput; the run
stops on ``Succeeded``, on ``Failed`` or a failed pod (with its last log lines), or at
``--timeout``, which bounds every request too. Logs land in ``out/runs/<stack>/<UTC time>/<pod>.log``
(``--out`` elsewhere): a new folder per run (a suffix when two start in the same second), each pod's
log byte for byte (invalid UTF-8 included; parsing reads it with replacement characters) under a
file name made safe from the pod's (``safe_text.path_component``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict as _dict
from experiments.base.shapes import as_list as _list
from experiments.live.jobpods import JOB_LABEL, collect_logs, failed_pod, failure_text, job_pods, progress_text
from experiments.live.kube import Kube
from experiments.state.preview import kubernetes_manifests, run_preview

__all__ = [
    "GROUP",
    "JOB_LABEL",
    "PLURAL",
    "VERSION",
    "JobRun",
    "RunFailed",
    "job_manifest_of",
    "new_run_dir",
    "run_job",
]

GROUP, VERSION, PLURAL = "kubeflow.org", "v1", "pytorchjobs"
FIELD_MANAGER = "gpu-cluster-run"


class RunFailed(InputError):
    """The job or one of its pods failed, or the run timed out: one line, plus the pod's last log lines."""


@dataclass(frozen=True)
class JobRun:
    name: str
    namespace: str
    logs: dict[str, str]
    """Pod name -> its log, decoded with replacement characters (the files keep the bytes)."""
    log_dir: Path
    seconds: float


def job_manifest_of(stack: Any, benchmark: bool) -> dict[str, Any]:
    """The stack's PyTorchJob as it would be applied (rendered offline, exactly as ``pulumi up`` would)."""
    cfg = stack.cluster
    if cfg.job.kind != "pytorchjob":
        raise InputError(
            f"{stack.name}: job.kind {cfg.job.kind}: a LeaderWorkerSet never completes (its pods "
            "restart when training ends), so run cannot wait for it; collect the leader's log "
            "and record it with results add"
        )
    name = cfg.job.benchmark_name if benchmark else cfg.job.name
    if benchmark and not cfg.job.benchmark.enabled:
        raise InputError(f"{stack.name}: --benchmark needs job.benchmark.enabled: true in the stack")
    jobs = [
        m
        for m in kubernetes_manifests(run_preview(stack))
        if m["kind"] == "PyTorchJob" and m["metadata"]["name"] == name
    ]
    if not jobs:
        raise InputError(f"{stack.name}: the stack renders no PyTorchJob {name} (is job.enabled false?)")
    return jobs[0]


def new_run_dir(out_dir: Path) -> Path:
    """A folder of its own for this run: the UTC second, with ``-2``, ``-3``... when taken."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    for attempt in range(1, 1000):
        path = out_dir / (stamp if attempt == 1 else f"{stamp}-{attempt}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        return path
    raise InputError(f"--out {out_dir}: no free run folder for {stamp}")


def _condition(job: dict[str, Any]) -> str:
    conditions = [
        c
        for c in _list(_dict(job.get("status")).get("conditions"))
        if isinstance(c, dict) and c.get("status") == "True" and isinstance(c.get("type"), str)
    ]
    return terminal_text(conditions[-1]["type"]) if conditions else "Pending"


def _sleep(kube: Kube, poll: float) -> None:
    time.sleep(max(0.0, min(poll, kube.remaining())))


def _replace_previous(kube: Kube, custom: Any, namespace: str, name: str, report: Callable[[str], None]) -> None:
    job = f"PyTorchJob {namespace}/{name}"
    try:
        kube.read(
            custom.delete_namespaced_custom_object,
            GROUP,
            VERSION,
            namespace,
            PLURAL,
            name,
            body={"propagationPolicy": "Foreground"},
            what=f"deleting the previous {job}",
        )
        report(f"deleting the previous {name}")
        while True:
            kube.read(
                custom.get_namespaced_custom_object,
                GROUP,
                VERSION,
                namespace,
                PLURAL,
                name,
                what=f"waiting for the previous {job} to go",
            )
            if kube.remaining() <= 0:
                raise RunFailed(f"{job}: the previous run was not gone within --timeout")
            _sleep(kube, 1.0)
    except ApiException as error:
        if error.status != 404:
            raise


def run_job(
    kube: Kube,
    manifest: dict[str, Any],
    *,
    out_dir: Path,
    poll: float,
    report: Callable[[str], None],
    on_log_dir: Callable[[Path], None] = lambda _: None,
) -> JobRun:
    """Delete any job of that name, create it, follow it to the end, save every pod's log (within
    the client's deadline: ``--timeout``)."""
    custom, core = client.CustomObjectsApi(kube.api), client.CoreV1Api(kube.api)
    name, namespace = manifest["metadata"]["name"], manifest["metadata"]["namespace"]
    job_name = f"PyTorchJob {namespace}/{name}"
    start = time.monotonic()
    _replace_previous(kube, custom, namespace, name, report)
    # A server-side apply to the job's own URL, not a POST: the API server authorizes the create with
    # the job's name, so the in-cluster runner's rule can name it (experiments/incluster/rbac.py).
    kube.read(
        custom.patch_namespaced_custom_object,
        GROUP,
        VERSION,
        namespace,
        PLURAL,
        name,
        manifest,
        field_manager=FIELD_MANAGER,
        force=True,
        _content_type="application/apply-patch+yaml",
        what=f"creating {job_name}",
    )
    report(f"created {job_name}")
    seen = ""
    while True:
        job = kube.read_json(
            custom.get_namespaced_custom_object,
            GROUP,
            VERSION,
            namespace,
            PLURAL,
            name,
            what=f"the state of {job_name}",
        )
        job = _dict(job)
        pods = job_pods(kube, core, namespace, name)
        condition = _condition(job)
        failed = failed_pod(pods)
        if condition == "Failed" or failed is not None:
            culprit = failed or (pods[0] if pods else None)
            if culprit is None:
                raise RunFailed(f"{job_name} failed before any pod started")
            raise RunFailed(failure_text(kube, core, namespace, culprit, f"{job_name} failed ({condition})"))
        if condition == "Succeeded":
            break
        if kube.remaining() <= poll:
            raise RunFailed(f"{job_name} still {condition}, not done at --timeout; it keeps running in the cluster")
        line = progress_text(kube, core, namespace, condition, pods)
        if line != seen:
            report(line)
            seen = line
        _sleep(kube, poll)
    log_dir = new_run_dir(out_dir)
    on_log_dir(log_dir)
    logs = collect_logs(kube, core, namespace, name, log_dir, report)
    return JobRun(name=name, namespace=namespace, logs=logs, log_dir=log_dir, seconds=time.monotonic() - start)
