"""A training job's pods as ``run`` reads them: which are the job's, their phases and logs, the one that
failed with the pod launcher's own reason, the progress line, and every log collected at the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kubernetes.client.exceptions import ApiException

from experiments.base.safe_text import path_component, terminal_text
from experiments.base.shapes import as_dict as _dict
from experiments.base.shapes import as_list as _list
from experiments.live.kube import Kube
from experiments.results.runlog import step_metrics
from workloads.launch_messages import last_error

JOB_LABEL = "training.kubeflow.org/job-name"
"""The label the training operator puts on every pod of a PyTorchJob."""
LAST_LINES = 20
MAX_LOG = 1024 * 1024 * 1024
"""The most bytes kept of one pod's log."""


def pod_name(pod: dict[str, Any]) -> str:
    return str(_dict(pod.get("metadata")).get("name") or "")


def pod_phase(pod: dict[str, Any]) -> str:
    return str(_dict(pod.get("status")).get("phase") or "")


def job_pods(kube: Kube, core: Any, namespace: str, name: str) -> list[dict[str, Any]]:
    pods = kube.items(
        core.list_namespaced_pod,
        namespace,
        label_selector=f"{JOB_LABEL}={name}",
        what=f"listing the pods of {namespace}/{name}",
    )
    # The selector is the server's to apply: a pod without the job's label is another job's.
    return [p for p in pods if pod_name(p) and _dict(_dict(p.get("metadata")).get("labels")).get(JOB_LABEL) == name]


def pod_log(kube: Kube, core: Any, namespace: str, pod: str, tail: int) -> str:
    try:
        data = kube.read(
            core.read_namespaced_pod_log,
            pod,
            namespace,
            tail_lines=tail,
            what=f"the log of {terminal_text(pod)}",
            limit=64 * 1024 * 1024,
        )
    except ApiException:
        return ""  # a pod still being created has no log yet
    return data.decode("utf-8", "replace")


def failed_pod(pods: list[dict[str, Any]]) -> dict[str, Any] | None:
    for pod in pods:
        if pod_phase(pod) == "Failed":
            return pod
        for status in _list(_dict(pod.get("status")).get("containerStatuses")):
            waiting = _dict(_dict(_dict(status).get("state")).get("waiting"))
            if waiting.get("reason") == "CrashLoopBackOff":
                return pod
    return None


def failure_text(kube: Kube, core: Any, namespace: str, pod: dict[str, Any], why: str) -> str:
    """``why``, the pod launcher's own reason when its log has one, and the pod's last lines."""
    tail = pod_log(kube, core, namespace, pod_name(pod), LAST_LINES).rstrip().splitlines()[-LAST_LINES:]
    lines = "\n".join(f"  | {terminal_text(line)}" for line in tail) or "  | (no log)"
    # The pod launcher's own reason (a failed data step, a stalled rank) leads the message.
    reason = f": {terminal_text(stop[:2000])}" if (stop := last_error(tail)) else ""
    return f"{why}{reason}; last lines of {terminal_text(pod_name(pod))}:\n{lines}"


def progress_text(kube: Kube, core: Any, namespace: str, condition: str, pods: list[dict[str, Any]]) -> str:
    """The job's condition, its pods ready, and the master's latest step throughput."""
    ready = sum(1 for p in pods if pod_phase(p) in ("Running", "Succeeded"))
    text = f"{condition}: pods {ready}/{len(pods)}"
    master = next((p for p in pods if "master" in pod_name(p)), pods[0] if pods else None)
    if master is not None:
        try:
            steps = step_metrics(pod_log(kube, core, namespace, pod_name(master), 50).splitlines())
        except (ValueError, TypeError, OverflowError, ZeroDivisionError, RecursionError):
            steps = []  # progress is a courtesy: a line the parser chokes on must not end the run
        if steps and steps[-1].seconds > 0:
            last = steps[-1]
            text += f", step {last.step} at {last.samples / last.seconds:.2f} samples/s"
    return text


def collect_logs(
    kube: Kube, core: Any, namespace: str, name: str, log_dir: Path, report: Callable[[str], None] = lambda _: None
) -> dict[str, str]:
    """Every pod's whole log, streamed to ``log_dir`` byte for byte; decoded for parsing. A pod
    whose log the API refuses is left out and said; the others are kept."""
    logs = {}
    for pod in sorted({pod_name(p) for p in job_pods(kube, core, namespace, name)}):
        path = log_dir / f"{path_component(pod)}.log"
        try:
            with path.open("xb") as sink:
                kube.read(
                    core.read_namespaced_pod_log,
                    pod,
                    namespace,
                    sink=sink,
                    limit=MAX_LOG,
                    what=f"the log of {terminal_text(pod)}",
                )
        except ApiException as error:
            path.unlink(missing_ok=True)
            report(f"the log of pod {terminal_text(pod)} could not be read ({error.status}): left out")
            continue
        logs[pod] = path.read_bytes().decode("utf-8", "replace")
    return logs
