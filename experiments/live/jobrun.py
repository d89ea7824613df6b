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
from experiments.base.safe_text import path_component, terminal_text
from experiments.base.shapes import as_dict as _dict
from experiments.base.shapes import as_list as _list
from experiments.live.kube import Kube
from experiments.results.runlog import step_metrics
from experiments.state.preview import kubernetes_manifests, run_preview
from workloads.launch_messages import last_error

__all__ = ["GROUP", "JOB_LABEL", "PLURAL", "VERSION", "JobRun", "RunFailed", "job_manifest_of", "new_run_dir",
           "run_job"]

GROUP, VERSION, PLURAL = "kubeflow.org", "v1", "pytorchjobs"
JOB_LABEL = "training.kubeflow.org/job-name"
FIELD_MANAGER = "gpu-cluster-run"
"""The label the training operator puts on every pod of a PyTorchJob."""
LAST_LINES = 20
MAX_LOG = 1024 * 1024 * 1024
"""The most bytes kept of one pod's log."""


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
        raise InputError(f"{stack.name}: job.kind {cfg.job.kind}: a LeaderWorkerSet never completes (its pods "
                         "restart when training ends), so run cannot wait for it; collect the leader's log "
                         "and record it with results add")
    name = cfg.job.benchmark_name if benchmark else cfg.job.name
    if benchmark and not cfg.job.benchmark.enabled:
        raise InputError(f"{stack.name}: --benchmark needs job.benchmark.enabled: true in the stack")
    jobs = [m for m in kubernetes_manifests(run_preview(stack))
            if m["kind"] == "PyTorchJob" and m["metadata"]["name"] == name]
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
    conditions = [c for c in _list(_dict(job.get("status")).get("conditions"))
                  if isinstance(c, dict) and c.get("status") == "True" and isinstance(c.get("type"), str)]
    return terminal_text(conditions[-1]["type"]) if conditions else "Pending"


def _pod_name(pod: dict[str, Any]) -> str:
    return str(_dict(pod.get("metadata")).get("name") or "")


def _phase(pod: dict[str, Any]) -> str:
    return str(_dict(pod.get("status")).get("phase") or "")


def _pods(kube: Kube, core: Any, namespace: str, name: str) -> list[dict[str, Any]]:
    pods = kube.items(core.list_namespaced_pod, namespace, label_selector=f"{JOB_LABEL}={name}",
                      what=f"listing the pods of {namespace}/{name}")
    # The selector is the server's to apply: a pod without the job's label is another job's.
    return [p for p in pods if _pod_name(p) and _dict(_dict(p.get("metadata")).get("labels")).get(JOB_LABEL) == name]


def _log(kube: Kube, core: Any, namespace: str, pod: str, tail: int) -> str:
    try:
        data = kube.read(core.read_namespaced_pod_log, pod, namespace, tail_lines=tail,
                         what=f"the log of {terminal_text(pod)}", limit=64 * 1024 * 1024)
    except ApiException:
        return ""  # a pod still being created has no log yet
    return data.decode("utf-8", "replace")


def _failed_pod(pods: list[dict[str, Any]]) -> dict[str, Any] | None:
    for pod in pods:
        if _phase(pod) == "Failed":
            return pod
        for status in _list(_dict(pod.get("status")).get("containerStatuses")):
            waiting = _dict(_dict(_dict(status).get("state")).get("waiting"))
            if waiting.get("reason") == "CrashLoopBackOff":
                return pod
    return None


def _failure(kube: Kube, core: Any, namespace: str, pod: dict[str, Any], why: str) -> RunFailed:
    tail = _log(kube, core, namespace, _pod_name(pod), LAST_LINES).rstrip().splitlines()[-LAST_LINES:]
    lines = "\n".join(f"  | {terminal_text(line)}" for line in tail) or "  | (no log)"
    # The pod launcher's own reason (a failed data step, a stalled rank) leads the message.
    reason = f": {terminal_text(stop[:2000])}" if (stop := last_error(tail)) else ""
    return RunFailed(f"{why}{reason}; last lines of {terminal_text(_pod_name(pod))}:\n{lines}")


def _progress(kube: Kube, core: Any, namespace: str, job: dict[str, Any], pods: list[dict[str, Any]]) -> str:
    ready = sum(1 for p in pods if _phase(p) in ("Running", "Succeeded"))
    text = f"{_condition(job)}: pods {ready}/{len(pods)}"
    master = next((p for p in pods if "master" in _pod_name(p)), pods[0] if pods else None)
    if master is not None:
        try:
            steps = step_metrics(_log(kube, core, namespace, _pod_name(master), 50).splitlines())
        except (ValueError, TypeError, OverflowError, ZeroDivisionError, RecursionError):
            steps = []  # progress is a courtesy: a line the parser chokes on must not end the run
        if steps and steps[-1].seconds > 0:
            last = steps[-1]
            text += f", step {last.step} at {last.samples / last.seconds:.2f} samples/s"
    return text


def _sleep(kube: Kube, poll: float) -> None:
    time.sleep(max(0.0, min(poll, kube.remaining())))


def _replace_previous(kube: Kube, custom: Any, namespace: str, name: str, report: Callable[[str], None]) -> None:
    job = f"PyTorchJob {namespace}/{name}"
    try:
        kube.read(custom.delete_namespaced_custom_object, GROUP, VERSION, namespace, PLURAL, name,
                  body={"propagationPolicy": "Foreground"}, what=f"deleting the previous {job}")
        report(f"deleting the previous {name}")
        while True:
            kube.read(custom.get_namespaced_custom_object, GROUP, VERSION, namespace, PLURAL, name,
                      what=f"waiting for the previous {job} to go")
            if kube.remaining() <= 0:
                raise RunFailed(f"{job}: the previous run was not gone within --timeout")
            _sleep(kube, 1.0)
    except ApiException as error:
        if error.status != 404:
            raise


def collect_logs(kube: Kube, core: Any, namespace: str, name: str, log_dir: Path,
                 report: Callable[[str], None] = lambda _: None) -> dict[str, str]:
    """Every pod's whole log, streamed to ``log_dir`` byte for byte; decoded for parsing. A pod
    whose log the API refuses is left out and said; the others are kept."""
    logs = {}
    for pod in sorted({_pod_name(p) for p in _pods(kube, core, namespace, name)}):
        path = log_dir / f"{path_component(pod)}.log"
        try:
            with path.open("xb") as sink:
                kube.read(core.read_namespaced_pod_log, pod, namespace, sink=sink, limit=MAX_LOG,
                          what=f"the log of {terminal_text(pod)}")
        except ApiException as error:
            path.unlink(missing_ok=True)
            report(f"the log of pod {terminal_text(pod)} could not be read ({error.status}): left out")
            continue
        logs[pod] = path.read_bytes().decode("utf-8", "replace")
    return logs


def run_job(kube: Kube, manifest: dict[str, Any], *, out_dir: Path, poll: float,
            report: Callable[[str], None], on_log_dir: Callable[[Path], None] = lambda _: None) -> JobRun:
    """Delete any job of that name, create it, follow it to the end, save every pod's log (within
    the client's deadline: ``--timeout``)."""
    custom, core = client.CustomObjectsApi(kube.api), client.CoreV1Api(kube.api)
    name, namespace = manifest["metadata"]["name"], manifest["metadata"]["namespace"]
    job_name = f"PyTorchJob {namespace}/{name}"
    start = time.monotonic()
    _replace_previous(kube, custom, namespace, name, report)
    # A server-side apply to the job's own URL, not a POST: the API server authorizes the create with
    # the job's name, so the in-cluster runner's rule can name it (experiments/incluster/rbac.py).
    kube.read(custom.patch_namespaced_custom_object, GROUP, VERSION, namespace, PLURAL, name, manifest,
              field_manager=FIELD_MANAGER, force=True, _content_type="application/apply-patch+yaml",
              what=f"creating {job_name}")
    report(f"created {job_name}")
    seen = ""
    while True:
        job = kube.read_json(custom.get_namespaced_custom_object, GROUP, VERSION, namespace, PLURAL, name,
                             what=f"the state of {job_name}")
        job = _dict(job)
        pods = _pods(kube, core, namespace, name)
        condition = _condition(job)
        failed = _failed_pod(pods)
        if condition == "Failed" or failed is not None:
            culprit = failed or (pods[0] if pods else None)
            if culprit is None:
                raise RunFailed(f"{job_name} failed before any pod started")
            raise _failure(kube, core, namespace, culprit, f"{job_name} failed ({condition})")
        if condition == "Succeeded":
            break
        if kube.remaining() <= poll:
            raise RunFailed(f"{job_name} still {condition}, not done at --timeout; it keeps running in the cluster")
        line = _progress(kube, core, namespace, job, pods)
        if line != seen:
            report(line)
            seen = line
        _sleep(kube, poll)
    log_dir = new_run_dir(out_dir)
    on_log_dir(log_dir)
    logs = collect_logs(kube, core, namespace, name, log_dir, report)
    return JobRun(name=name, namespace=namespace, logs=logs, log_dir=log_dir, seconds=time.monotonic() - start)
