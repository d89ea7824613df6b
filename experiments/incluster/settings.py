"""What every in-cluster object shares: the image, the namespace, the Secrets and the pod's paths.

All of it comes from the command line (the flags: ``experiments.cli.arguments``; their defaults are
here) and is validated here, before anything is rendered: a bad image reference or Secret name is one
message and exit 2, never a Workflow the cluster refuses.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from typing import Any

from components.models.types import is_dns_label, is_dns_subdomain
from experiments.base.errors import InputError

__all__ = [
    "BACKEND_URL",
    "DEFAULT_ACCOUNT",
    "DEFAULT_NAMESPACE",
    "DEFAULT_RUN_SECONDS",
    "DEFAULT_STATE_CLAIM",
    "DEFAULT_UID",
    "KUBECONFIG_PATH",
    "PROGRAM_DIR",
    "RESULTS_PATH",
    "RUNS_DIR",
    "STATE_DIR",
    "STATE_MOUNT",
    "InClusterSettings",
    "SecretRef",
    "check_dns_label",
    "check_image",
    "settings_from_args",
]

DEFAULT_RUN_SECONDS = 3600
"""Each cell's ``run --timeout`` unless ``--run-timeout`` says otherwise."""

STATE_MOUNT = "/state"
"""The PVC's mount point in every pod: Pulumi state, the results store and the run logs."""
STATE_DIR = f"{STATE_MOUNT}/pulumi"
BACKEND_URL = f"file://{STATE_DIR}"
RESULTS_PATH = f"{STATE_MOUNT}/results.sqlite"
RUNS_DIR = f"{STATE_MOUNT}/runs"
PROGRAM_DIR = "/app"
"""Where the Containerfile puts the project (``Pulumi.yaml``, the program, its .venv): the project root
of every in-cluster pod. A sweep's cell stack files (a ConfigMap named after their content) are mounted
here one by one (``subPath``), beside ``Pulumi.yaml``, so each step names its cell as a stack of the
project, exactly as a user would, and ``run`` records under it."""
KUBECONFIG_PATH = "/etc/gpu-cluster/kube/config"
"""A kubeconfig that points at the API server the pod runs beside, with the pod's own token file."""
DEFAULT_UID = 1000
"""The image's user (``Containerfile``); PKO's restricted profile runs its pods as 1000 too."""

_IMAGE = re.compile(
    r"^(?:(?P<host>[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*"
    r"(?::[0-9]+)?)/)?"
    r"(?P<path>[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)"
    r"(?::(?P<tag>[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}))?"
    r"(?:@(?P<digest>sha256:[0-9a-f]{64}))?$"
)
_SECRET_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")


def check_image(value: str, flag: str = "--image") -> str:
    """A pinned image reference: a registry path with a tag other than ``latest``, or a digest."""
    match = _IMAGE.fullmatch(value)
    if match is None or len(value) > 255:
        raise InputError(f"{flag} {value!r}: not an image reference (e.g. quay.io/team/gpu-cluster:1.4.0)")
    if match["tag"] is None and match["digest"] is None:
        raise InputError(
            f"{flag} {value}: name a tag or a digest; the image is the program version a cell ran, so it must not move"
        )
    if match["tag"] == "latest" and match["digest"] is None:
        raise InputError(f"{flag} {value}: 'latest' moves under running sweeps; name a version tag or a digest")
    return value


def check_dns_label(value: str, flag: str) -> str:
    if not is_dns_label(value):
        raise InputError(
            f"{flag} {value!r}: must be a DNS label (lower-case letters, digits and '-', at most 63 characters)"
        )
    return value


@dataclass(frozen=True)
class SecretRef:
    """A key of a Secret in the workflow's namespace: referenced by name, its value never read."""

    name: str
    key: str

    @classmethod
    def parse(cls, value: str, flag: str) -> SecretRef:
        name, sep, key = value.partition(":")
        if not sep or not key:
            raise InputError(f"{flag} {value!r}: write NAME:KEY (the Secret and the key that holds the value)")
        if not is_dns_subdomain(name):
            raise InputError(f"{flag} {value!r}: {name!r} is not a Secret name (a DNS subdomain)")
        if not (_SECRET_KEY.fullmatch(key) and len(key) <= 253):
            raise InputError(f"{flag} {value!r}: {key!r} is not a Secret key (letters, digits, '-', '_', '.')")
        return cls(name, key)

    def env(self, variable: str) -> dict[str, Any]:
        return {"name": variable, "valueFrom": {"secretKeyRef": {"name": self.name, "key": self.key}}}


@dataclass(frozen=True)
class InClusterSettings:
    image: str
    namespace: str
    service_account: str
    state_claim: str
    state_size: str
    storage_class: str | None
    api_key: SecretRef
    """The IBM Cloud API key: the provider reads ``IC_API_KEY`` when no stack config sets one."""
    passphrase: SecretRef
    """The file backend's secrets provider: ``PULUMI_CONFIG_PASSPHRASE``."""
    uid: int | None
    """The pod's uid (and gid, fsGroup); None leaves them to the platform (OpenShift's restricted SCC)."""


_SIZE = re.compile(r"^[1-9][0-9]{0,5}(Mi|Gi|Ti)$")


DEFAULT_NAMESPACE = "gpu-cluster"
DEFAULT_STATE_CLAIM = "gpu-cluster-state"
DEFAULT_ACCOUNT = "gpu-cluster-runner"


def _uid(value: str) -> int | None:
    if value == "auto":
        return None
    if not value.isdigit() or not 0 < int(value) < 2**31:
        raise InputError(f"--uid {value!r}: a non-root uid (1 or more) or 'auto'")
    return int(value)


def settings_from_args(args: argparse.Namespace) -> InClusterSettings:
    if not args.image:
        raise InputError("--image: required (the project image built from the Containerfile, pinned)")
    if not _SIZE.fullmatch(args.state_size):
        raise InputError(f"--state-size {args.state_size!r}: a size such as 5Gi or 500Mi")
    if args.storage_class is not None and not is_dns_subdomain(args.storage_class):
        raise InputError(f"--storage-class {args.storage_class!r}: not a storage class name")
    api_key = SecretRef.parse(args.api_key_secret, "--api-key-secret")
    passphrase = SecretRef.parse(args.passphrase_secret, "--passphrase-secret")
    return InClusterSettings(
        image=check_image(args.image),
        namespace=check_dns_label(args.namespace, "--namespace"),
        service_account=check_dns_label(args.service_account, "--service-account"),
        state_claim=check_dns_label(args.state_claim, "--state-claim"),
        state_size=args.state_size,
        storage_class=args.storage_class,
        api_key=api_key,
        passphrase=passphrase,
        uid=_uid(args.uid),
    )
