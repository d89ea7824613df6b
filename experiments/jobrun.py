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
``--timeout``. Logs land in ``out/runs/<stack>/<UTC time>/<pod>.log`` (``--out`` elsewhere).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import StackFileError
from .runlog import step_metrics

__all__ = ["GROUP", "JOB_LABEL", "PLURAL", "VERSION", "JobRun", "RunFailed", "job_manifest_of", "run_job"]

GROUP, VERSION, PLURAL = "kubeflow.org", "v1", "pytorchjobs"
JOB_LABEL = "training.kubeflow.org/job-name"
"""The label the training operator puts on every pod of a PyTorchJob."""
LAST_LINES = 20


class RunFailed(StackFileError):
    """The job or one of its pods failed, or the run timed out: one line, plus the pod's last log lines."""


@dataclass(frozen=True)
class JobRun:
    name: str
    namespace: str
    logs: dict[str, str]
    log_dir: Path
    seconds: float


def job_manifest_of(stack: Any, benchmark: bool) -> dict[str, Any]:
    """The stack's PyTorchJob as it would be applied (rendered offline, exactly as ``pulumi up`` would)."""
    from .preview import kubernetes_manifests, run_preview

    cfg = stack.cluster
    if cfg.job.kind != "pytorchjob":
        raise StackFileError(f"{stack.name}: job.kind {cfg.job.kind}: a LeaderWorkerSet never completes (its pods "
                             "restart when training ends), so run cannot wait for it; collect the leader's log "
                             "and record it with results add")
    name = cfg.job.benchmark_name if benchmark else cfg.job.name
    if benchmark and not cfg.job.benchmark.enabled:
        raise StackFileError(f"{stack.name}: --benchmark needs job.benchmark.enabled: true in the stack")
    jobs = [m for m in kubernetes_manifests(run_preview(stack))
            if m["kind"] == "PyTorchJob" and m["metadata"]["name"] == name]
    if not jobs:
        raise StackFileError(f"{stack.name}: the stack renders no PyTorchJob {name} (is job.enabled false?)")
    return jobs[0]


def _condition(job: dict[str, Any]) -> str:
    conditions = [c for c in (job.get("status") or {}).get("conditions") or [] if c.get("status") == "True"]
    return conditions[-1]["type"] if conditions else "Pending"


def _pods(core: Any, namespace: str, name: str) -> list[Any]:
    return list(core.list_namespaced_pod(namespace, label_selector=f"{JOB_LABEL}={name}").items)


def _log(core: Any, namespace: str, pod: str, tail: int | None = None) -> str:
    from kubernetes.client.exceptions import ApiException

    try:
        return str(core.read_namespaced_pod_log(pod, namespace, tail_lines=tail) or "")
    except ApiException:
        return ""  # a pod still being created has no log yet


def _failed_pod(pods: list[Any]) -> Any | None:
    for pod in pods:
        if pod.status.phase == "Failed":
            return pod
        for status in pod.status.container_statuses or []:
            waiting = status.state.waiting if status.state else None
            if waiting is not None and waiting.reason == "CrashLoopBackOff":
                return pod
    return None


def _failure(core: Any, namespace: str, pod: Any, why: str) -> RunFailed:
    tail = _log(core, namespace, pod.metadata.name, LAST_LINES).rstrip()
    lines = "\n".join(f"  | {line}" for line in tail.splitlines()) or "  | (no log)"
    return RunFailed(f"{why}; last lines of {pod.metadata.name}:\n{lines}")


def _progress(core: Any, namespace: str, job: dict[str, Any], pods: list[Any]) -> str:
    ready = sum(1 for p in pods if p.status.phase in ("Running", "Succeeded"))
    text = f"{_condition(job)}: pods {ready}/{len(pods)}"
    master = next((p for p in pods if "master" in p.metadata.name), pods[0] if pods else None)
    if master is not None:
        steps = step_metrics(_log(core, namespace, master.metadata.name, 50).splitlines())
        if steps:
            last = steps[-1]
            text += f", step {last.step} at {last.samples / last.seconds:.2f} samples/s"
    return text


def run_job(custom: Any, core: Any, manifest: dict[str, Any], *, out_dir: Path, timeout: float,
            poll: float, report: Callable[[str], None]) -> JobRun:
    """Delete any job of that name, create it, follow it to the end, save every pod's log."""
    from kubernetes.client.exceptions import ApiException

    name, namespace = manifest["metadata"]["name"], manifest["metadata"]["namespace"]
    start = time.monotonic()
    try:
        custom.delete_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name,
                                               body={"propagationPolicy": "Foreground"})
        report(f"deleting the previous {name}")
        while True:
            custom.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
            if time.monotonic() - start > timeout:
                raise RunFailed(f"PyTorchJob {namespace}/{name}: the previous run was not gone after {timeout:.0f} s")
            time.sleep(poll)
    except ApiException as error:
        if error.status != 404:
            raise
    custom.create_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, manifest)
    report(f"created PyTorchJob {namespace}/{name}")
    seen = ""
    while True:
        job = custom.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
        pods = _pods(core, namespace, name)
        condition = _condition(job)
        failed = _failed_pod(pods)
        if condition == "Failed" or failed is not None:
            culprit = failed or (pods[0] if pods else None)
            if culprit is None:
                raise RunFailed(f"PyTorchJob {namespace}/{name} failed before any pod started")
            raise _failure(core, namespace, culprit, f"PyTorchJob {namespace}/{name} failed ({condition})")
        if condition == "Succeeded":
            break
        if time.monotonic() - start > timeout:
            raise RunFailed(f"PyTorchJob {namespace}/{name} still {condition} after --timeout {timeout:.0f} s")
        line = _progress(core, namespace, job, pods)
        if line != seen:
            report(line)
            seen = line
        time.sleep(poll)
    logs = {p.metadata.name: _log(core, namespace, p.metadata.name) for p in _pods(core, namespace, name)}
    log_dir = out_dir / datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    log_dir.mkdir(parents=True, exist_ok=True)
    for pod, text in logs.items():
        (log_dir / f"{pod}.log").write_text(text)
    return JobRun(name=name, namespace=namespace, logs=logs, log_dir=log_dir, seconds=time.monotonic() - start)
