"""The argument types and groups several verbs share (argparse is the command line's business alone)."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any, Protocol

from experiments.base.errors import InputError
from experiments.incluster.settings import DEFAULT_ACCOUNT, DEFAULT_NAMESPACE, DEFAULT_STATE_CLAIM, DEFAULT_UID

__all__ = [
    "ArgumentHolder",
    "add_cluster_arguments",
    "add_settings_arguments",
    "output_path",
    "positive_count",
    "positive_rate",
    "positive_seconds",
    "store_path",
]


class ArgumentHolder(Protocol):
    """A parser or an argument group."""

    def add_argument(self, *names: str, **options: Any) -> Any: ...


def _positive_number(value: str, unit: str) -> float:
    """A finite number of ``unit`` above zero, or the argument's one-line refusal."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of {unit}") from None
    if not math.isfinite(number) or number <= 0:
        raise argparse.ArgumentTypeError(f"{value!r}: must be a finite number of {unit} above 0")
    return number


def positive_seconds(value: str) -> float:
    """``--timeout`` and ``--poll``: a finite number of seconds above zero."""
    return _positive_number(value, "seconds")


def positive_rate(value: str) -> float:
    """``predict --one-node``: a finite samples/s above zero (a rate, not seconds)."""
    return _positive_number(value, "samples/s")


def store_path(named: Path | None, *, writes: bool = False) -> Path:
    """The results store of a verb: the project's default (which may not exist yet: no runs) unless ``--store``
    names one.  A named store must exist, so that a mistyped path is refused in one line instead of listing
    nothing (or, for a verb that ``writes``, starting a new store in a folder made up on the spot): a writer
    may start one only in a folder that exists."""
    from experiments.results.store import default_store_path  # noqa: PLC0415 - the parser imports this module

    if named is None:
        return default_store_path()
    if os.path.lexists(named):
        return named  # what it holds (a directory, a FIFO, a foreign file) the store itself refuses
    if writes and named.parent.is_dir():
        return named  # a new store, in a folder the user has
    missing = f"its folder {named.parent} does not exist" if writes else "no such results database"
    raise InputError(
        f"--store {named}: {missing}; name an existing results store (the project's own, used without "
        f"--store: {default_store_path()})"
    )


def output_path(value: str) -> Path:
    """The ``type`` of every output argument: an empty string would silently mean ``.``."""
    if not value.strip():
        raise argparse.ArgumentTypeError("must not be empty: name a path (e.g. out/dev)")
    return Path(value)


def positive_count(value: str) -> int:
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {count}")
    return count


def add_cluster_arguments(parser: ArgumentHolder) -> None:
    """``--kubeconfig`` and ``--context``, the same for every command that reaches the cluster."""
    parser.add_argument("--kubeconfig", type=Path, help="kubeconfig file (default: KUBECONFIG or ~/.kube/config)")
    parser.add_argument("--context", help="kubeconfig context (default: the stack's kubernetes.context, else current)")


def add_settings_arguments(
    parser: Any, *, default_account: str = DEFAULT_ACCOUNT, image_required: bool = False
) -> None:
    """The flags of what every in-cluster object shares (``experiments.incluster.settings`` validates them);
    ``image_required`` where every use needs the image (``pko``; ``sweep`` needs it with ``--engine argo`` only)."""
    group = parser.add_argument_group("in-cluster objects")
    group.add_argument(
        "--image",
        required=image_required,
        help="the project image (Containerfile), pinned: REGISTRY/PATH:TAG or @sha256:...",
    )
    group.add_argument(
        "--namespace", default=DEFAULT_NAMESPACE, help=f"namespace of every object (default {DEFAULT_NAMESPACE})"
    )
    group.add_argument(
        "--service-account", default=default_account, help=f"ServiceAccount the pods run as (default {default_account})"
    )
    group.add_argument(
        "--state-claim",
        default=DEFAULT_STATE_CLAIM,
        help=f"PVC holding the Pulumi file backend and the results (default {DEFAULT_STATE_CLAIM})",
    )
    group.add_argument("--state-size", default="5Gi", help="size of a new state PVC (default 5Gi)")
    group.add_argument("--storage-class", help="storage class of the state PVC (default: the cluster's default)")
    group.add_argument(
        "--api-key-secret",
        default="gpu-cluster-ibm:apikey",
        metavar="NAME:KEY",
        help="Secret key holding the IBM Cloud API key (default gpu-cluster-ibm:apikey)",
    )
    group.add_argument(
        "--passphrase-secret",
        default="gpu-cluster-pulumi:passphrase",
        metavar="NAME:KEY",
        help="Secret key holding the Pulumi passphrase (default gpu-cluster-pulumi:passphrase)",
    )
    group.add_argument(
        "--uid",
        default=str(DEFAULT_UID),
        help=f"uid, gid and fsGroup of the pods (default {DEFAULT_UID}); 'auto' leaves them to the "
        "platform (OpenShift assigns them from the namespace's range)",
    )
