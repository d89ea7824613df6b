"""Reaching a cluster through the official ``kubernetes`` client, for the commands that act on a
deployed stack (``run``, ``approve-csrs``): one line naming the kubeconfig or the server on failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import StackFileError

__all__ = ["add_cluster_arguments", "connect"]


def add_cluster_arguments(parser: Any) -> None:
    """``--kubeconfig`` and ``--context``, the same for every command that reaches the cluster."""
    parser.add_argument("--kubeconfig", type=Path, help="kubeconfig file (default: KUBECONFIG or ~/.kube/config)")
    parser.add_argument("--context", help="kubeconfig context (default: the stack's kubernetes.context, else current)")


def connect(kubeconfig: Path | None, context: str | None) -> tuple[Any, str]:
    """An API client for ``kubeconfig`` (else ``KUBECONFIG`` or ``~/.kube/config``) and ``context``,
    checked by asking the server its version; and the server's description for messages."""
    from kubernetes import client, config

    where = f"--kubeconfig {kubeconfig}" if kubeconfig else "the ambient kubeconfig"
    try:
        api = config.new_client_from_config(config_file=str(kubeconfig) if kubeconfig else None, context=context)
    except (config.ConfigException, OSError, TypeError) as error:
        raise StackFileError(f"{where}: cannot load a cluster from it ({str(error).splitlines()[0]})") from None
    cluster = f"{api.configuration.host}" + (f" (context {context})" if context else "")
    try:
        client.VersionApi(api).get_code(_request_timeout=10)
    except Exception as error:  # urllib3's connection errors and the API's alike: one line, no traceback
        reason = str(getattr(error, "reason", None) or error).splitlines()[0]
        raise StackFileError(f"cannot reach the cluster at {cluster}: {reason}") from None
    return api, cluster
