"""Reading stack files the way the Pulumi CLI would hand them to the program.

``Pulumi.<stack>.yaml`` holds ``config:`` with namespaced keys; the engine passes every
value to the program as a string (objects as JSON).  Encrypted values (``secure:``)
cannot be decrypted without the CLI and the stack's passphrase, so an offline run sees
a placeholder that is still a Pulumi secret: it is masked everywhere it appears.  Reading a
stack file validates, looks up (on the simulated cluster) and plans it once
(``simulated_cluster.planned_offline``); the ``StackFile`` carries that to the offline engine.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.checks.source_checks import creates_ssh_key, join_secret_keys, stop_consent_errors
from components.checks.validation import ConfigurationError, PlannedCluster
from components.models.config import (
    CLUSTER_KEY,
    PROJECT,
    SECRET_KEYS,
    SSH_PUBLIC_KEY,
    ClusterConfig,
)
from components.models.secret_rules import (
    holds_private_key,
    near_secret_key_problem,
    plaintext_secret_problem,
    public_key_form_problem,
    ssh_public_key_problem,
)
from components.plan.plan import Plan
from experiments.base.errors import StackFileError
from experiments.base.paths import PROJECT_ROOT, stack_dirs
from experiments.base.safe_text import terminal_text
from experiments.offline.simulated_cluster import SimulatedCluster, planned_offline
from experiments.stacks.yaml_file import label, read_yaml_file

__all__ = [
    "PROJECT_ROOT",
    "StackFile",
    "InvalidCluster",
    "StackFileError",
    "known_stacks",
    "load_stack",
    "resolve_stack",
    "stack_from_config",
]

_PLACEHOLDERS = {
    SSH_PUBLIC_KEY: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOfflinePreviewPlaceholderKey0000000000000 preview",
}


@dataclass(frozen=True)
class StackFile:
    name: str
    path: Path
    planned: PlannedCluster
    """The config, validated and planned once when the file is read (an existing cluster's stack against
    the simulated cluster); the offline engine hands it to the program, which then neither parses nor plans."""
    simulated: SimulatedCluster | None
    """The cluster an ``adopt``/``join`` stack was planned against; the mock engine answers from it."""
    engine_config: dict[str, str]
    """``namespace:key`` -> string value, as the engine passes config to a program."""
    secret_keys: list[str]
    """The keys the program reads as secrets offline: the file's encrypted ones and stand-ins."""
    encrypted_keys: list[str]
    """The keys the file holds encrypted (``secure:``), fully qualified: only its own secrets
    provider can read them (the Automation API and PKO paths refuse or reference them)."""
    stand_ins: tuple[str, ...] = ()
    """Keys the program needs that the file does not set, fully qualified: the offline run stands in a
    placeholder (``preview`` says so); ``pulumi up`` would stop at them."""
    unset_secrets: tuple[str, ...] = ()
    """Secrets the program needs that the file does not set and no placeholder can stand in for (a ``join``
    stack's user data is built from them): running the program is refused (``require_secrets``)."""

    def require_secrets(self) -> None:
        """Refuse, in one line, to run the program of a stack whose program would stop at a missing secret."""
        if self.unset_secrets:
            first = self.unset_secrets[0]
            raise StackFileError(
                f"{label(self.path)}: {', '.join(self.unset_secrets)}: not set, and "
                f"{PROJECT}:{CLUSTER_KEY}.nodes (source: join) builds the new nodes' user data from "
                f"it; set it with 'pulumi config set --secret {first} ...'"
            )

    @property
    def cluster(self) -> ClusterConfig:
        return self.planned.cluster

    @property
    def plan(self) -> Plan:
        return self.planned.plan

    @property
    def up_refusals(self) -> list[str]:
        """Why ``pulumi up`` of this stack would be refused (it stops workers without consent, or with a consent
        to another roll-out than the plan's own); [] if it would run.  What deploys the stack elsewhere (an Argo
        sweep, a PKO Stack) refuses it before writing anything."""
        return stop_consent_errors(self.cluster, self.plan.stops, dry_run=False, rollout=self.plan.rollout)

    @property
    def job_gpus(self) -> int:
        """The GPUs (NCCL ranks) the stack's training job runs on."""
        return self.cluster.nodes.count * (self.cluster.job.nproc_per_node or self.cluster.profile.gpus)


class InvalidCluster(StackFileError):
    """The cluster mapping fails validation; ``problems`` are its lines relative to the mapping
    (``network.variant: ...``), which a sweep shows for a skipped cell."""

    def __init__(self, path: Path, key: str, lines: list[str]) -> None:
        super().__init__("\n".join(f"{label(path)}: {line}" for line in lines))
        self.problems = [line.removeprefix(key).lstrip(".") for line in lines]


def _directories(root: Path | None) -> list[Path]:
    """An explicit ``root`` alone; else the current directory, then ``PROJECT_ROOT`` (read at each call: an
    in-cluster step's tests point it at a pod's layout), so that an installed tool finds the user's stacks."""
    return [root] if root is not None else stack_dirs(PROJECT_ROOT)


def known_stacks(root: Path | None = None) -> list[str]:
    return sorted({p.name[len("Pulumi.") : -len(".yaml")] for d in _directories(root) for p in d.glob("Pulumi.*.yaml")})


def resolve_stack(stack: str, root: Path | None = None) -> Path:
    """A stack name (``Pulumi.<name>.yaml`` in the current directory, else in the project) or a path to a
    stack file."""
    candidate = Path(stack)
    if candidate.suffix in {".yaml", ".yml"} or "/" in stack:
        try:
            exists = candidate.exists()
        except OSError as error:  # a name too long for the file system
            raise StackFileError(f"{terminal_text(stack[:200])}: not a stack file ({error.strerror})") from None
        if not exists:
            dangling = " (a symbolic link to nothing, or a loop)" if candidate.is_symlink() else ""
            raise StackFileError(f"{terminal_text(stack[:200])}: no such stack file{dangling}")
        check_stack_name(_stack_name(candidate), terminal_text(stack[:200]))
        return candidate  # read_yaml_file names a directory or an unreadable file
    check_stack_name(stack, "stack")
    directories = _directories(root)
    for directory in directories:
        path = directory / f"Pulumi.{stack}.yaml"
        if path.is_file():
            return path
    raise StackFileError(
        f"unknown stack {stack!r}: there is no Pulumi.{stack}.yaml in {' or '.join(map(str, directories))} "
        f"(known stacks: {', '.join(known_stacks(root)) or 'none'})"
    )


_STACK_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
"""Pulumi's rule for a stack name (letters, digits, ``-``, ``_``, ``.``; at most 100)."""
MAX_STACK_NAME = 100


def check_stack_name(name: str, where: str, *, pulumi: bool = False) -> str:
    """A stack name no path can be made of (no separator, ``..``, leading dot or control character;
    at most ``MAX_STACK_NAME``): it names the backend's lock and checkpoint paths and the results
    store's rows. ``pulumi``: Pulumi's own rule as well (what the CLI and PKO's ``spec.stack`` take)."""
    path_trick = (
        not 0 < len(name) <= MAX_STACK_NAME
        or name.startswith(".")
        or ".." in name
        or any(c in name for c in "/\\\0")
        or not name.isprintable()
    )
    if path_trick or pulumi and not _STACK_NAME.fullmatch(name):
        raise StackFileError(
            f"{where}: {terminal_text(repr(name[: MAX_STACK_NAME + 1]))} is not a stack name "
            f"(letters, digits, '-', '_' and '.', at most {MAX_STACK_NAME}, not starting with "
            "'.' or holding '..')"
        )
    return name


def _stack_name(path: Path) -> str:
    name = path.name
    if name.startswith("Pulumi.") and name.endswith((".yaml", ".yml")):
        return name[len("Pulumi.") :].rsplit(".", 1)[0]
    return path.stem


def _read_yaml(path: Path) -> dict[str, Any]:
    document = read_yaml_file(path)
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise StackFileError(f"{label(path)}: a stack file is a mapping with a 'config' key")
    config = document.get("config") or {}
    if not isinstance(config, dict):
        raise StackFileError(f"{label(path)}: config: must be a mapping of keys to values")
    return config


def _engine_config(
    path: Path, config: dict[str, Any], skip_placeholders: tuple[str, ...] = ()
) -> tuple[dict[str, str], list[str], list[str]]:
    """The engine's config strings, the keys read as secrets, and those the file holds encrypted."""
    values: dict[str, str] = {}
    secrets: list[str] = []
    encrypted: list[str] = []
    for raw_key, value in config.items():
        key = str(raw_key) if ":" in str(raw_key) else f"{PROJECT}:{raw_key}"
        namespace, _, name = key.partition(":")
        if namespace == PROJECT and name not in (CLUSTER_KEY, *SECRET_KEYS):
            known = ", ".join(f"{PROJECT}:{k}" for k in (CLUSTER_KEY, *SECRET_KEYS))
            raise StackFileError(f"{label(path)}: {key}: unknown key (this project reads {known})")
        if problem := near_secret_key_problem(key):
            raise StackFileError(f"{label(path)}: {problem}")
        if name == SSH_PUBLIC_KEY and namespace == PROJECT and (problem := _private_key_problem(value)):
            raise StackFileError(f"{label(path)}: {problem}")
        if isinstance(value, dict) and set(value) == {"secure"}:
            secrets.append(key)
            encrypted.append(key)
            values[key] = _PLACEHOLDERS.get(key.split(":", 1)[1], "offline-preview-placeholder")
            continue
        if problem := plaintext_secret_problem(key, secret=False):
            raise StackFileError(f"{label(path)}: {problem}")
        values[key] = value if isinstance(value, str) else json.dumps(value)
    for name, placeholder in _PLACEHOLDERS.items():
        key = f"{PROJECT}:{name}"
        if key not in values and name not in skip_placeholders:
            # Not needed to preview: the offline run stands in a marked secret.
            values[key] = placeholder
            secrets.append(key)
    return values, secrets, sorted(encrypted)


def _private_key_problem(value: Any) -> str | None:
    """A plaintext ``sshPublicKey`` that is no public key line (a private key above all), or a private key
    pasted where the ciphertext belongs (``secure:``): named without quoting it, before the plaintext rule."""
    if isinstance(value, dict) and set(value) == {"secure"}:
        text = value["secure"]
        return public_key_form_problem(text) if isinstance(text, str) and holds_private_key(text) else None
    return public_key_form_problem(value) if isinstance(value, str) else None


def load_stack(stack: str, root: Path | None = None) -> StackFile:
    path = resolve_stack(stack, root)
    return stack_from_config(_stack_name(path), _read_yaml(path), path)


def stack_from_config(name: str, config: dict[str, Any], path: Path) -> StackFile:
    """A stack from its ``config:`` mapping, validated as if read from ``path`` (which may not exist:
    a sweep builds its stacks in memory; ``path.name`` only labels the error messages)."""
    key = f"{PROJECT}:{CLUSTER_KEY}"
    if key not in config:
        raise StackFileError(f"{label(path)}: config: missing required key {key}")
    if not isinstance(config[key], dict):
        raise StackFileError(f"{label(path)}: {key}: must be a mapping (the experiment's settings)")
    try:
        planned, simulated = planned_offline(config[key], key)
    except ConfigurationError as error:
        raise InvalidCluster(path, key, error.lines) from None
    existing_key = planned.cluster.security.ssh_key_name is not None
    engine_config, secret_keys, encrypted_keys = _engine_config(path, config, (SSH_PUBLIC_KEY,) if existing_key else ())
    # Checked on the qualified keys: a stack file may spell the key `sshPublicKey` as well.
    if problem := ssh_public_key_problem(planned.cluster, f"{PROJECT}:{SSH_PUBLIC_KEY}" in engine_config):
        raise StackFileError(f"{label(path)}: {problem}")
    unset = tuple(
        k for k in (f"{PROJECT}:{name}" for name in join_secret_keys(planned.cluster)) if k not in engine_config
    )
    needs_key = creates_ssh_key(planned.cluster) and not _sets(config, SSH_PUBLIC_KEY)
    stand_ins = (f"{PROJECT}:{SSH_PUBLIC_KEY}",) if needs_key else ()
    return StackFile(
        name=name,
        path=path,
        planned=planned,
        simulated=simulated,
        engine_config=engine_config,
        secret_keys=secret_keys,
        encrypted_keys=encrypted_keys,
        stand_ins=stand_ins,
        unset_secrets=unset,
    )


def _sets(config: dict[str, Any], name: str) -> bool:
    """Whether the file sets ``gpu-cluster:<name>`` (qualified or not)."""
    return f"{PROJECT}:{name}" in config or name in config
