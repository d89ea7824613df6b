"""Each worker's Node as the cluster reports it (readiness, cordon), one line per worker.

What ``stack workers`` adds to the state's report when a cluster is reachable; the Node list is
hostile input, and any failure to read it is one line, so the report from the state stands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_dict, as_list
from experiments.live.kube import DeadlineReached, connect, deadline_alarm

__all__ = ["node_line", "node_lines"]


def node_line(name: str, node: dict[str, Any] | None) -> str:
    if node is None:
        return f"node {name}: not in the cluster"
    conditions = [as_dict(c) for c in as_list(as_dict(node.get("status")).get("conditions"))]
    ready = next((c.get("status") for c in conditions if c.get("type") == "Ready"), "Unknown")
    cordoned = ", cordoned" if as_dict(node.get("spec")).get("unschedulable") is True else ""
    return f"node {name}: Ready={terminal_text(str(ready)[:20])}{cordoned}"


def node_lines(names: list[str], kubeconfig: Path | None, context: str | None, timeout: float) -> list[str]:
    """Each worker's Node as the cluster reports it; any failure is one line (the report stands)."""

    kube = None
    try:
        with deadline_alarm(timeout):
            kube = connect(kubeconfig, context, timeout=timeout)
            items = kube.items(client.CoreV1Api(kube.api).list_node, what="listing the nodes")
    except InputError as error:  # KubeError: one line, credentials redacted
        return [f"nodes: not checked ({error})"]
    except ApiException as error:
        return [f"nodes: not checked ({kube.api_error(error, 'listing the nodes') if kube else error.status})"]
    except DeadlineReached:
        return [f"nodes: not checked (--timeout {timeout:g} s reached)"]
    nodes = {str(as_dict(n.get("metadata")).get("name")): n for n in items}
    return [node_line(name, nodes.get(name)) for name in names]
