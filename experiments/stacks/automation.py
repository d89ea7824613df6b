"""The thin adapter between a sweep and the Pulumi Automation API.

Every Automation API call shells out to the Pulumi CLI, so this module is kept to what
a sweep and the ``stack`` verbs need, behind a ``StackFactory`` that tests replace with a fake:
create or select a stack with the inline program, set its config, run ``preview``, ``up`` or
``destroy``, count the engine's events for a progress bar and say the outcome in one line.

Two rules from the Automation API's behaviour shape it:

* the workspace is a throwaway directory whose ``Pulumi.yaml`` the API writes from
  ``ProjectSettings``; the project's own directory is never used, because saving project
  settings there would rewrite its ``Pulumi.yaml`` without the ``packages:`` block;
* the backend is chosen with ``PULUMI_BACKEND_URL`` in the workspace's environment, so
  sweep stacks live in their own state directory, never in the user's default backend.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pulumi import automation as auto
from pulumi.automation.events import EngineEvent

from components.models.config import CLUSTER_KEY, PROJECT, SSH_PUBLIC_KEY
from components.program import pulumi_program
from experiments.base.errors import InputError
from experiments.stacks.preflight import (
    CLI_MISSING,
    MIN_CLI_VERSION,
    SWEEP,
    AutomationUnavailable,
    CliUse,
    pulumi_command,
    require_cli,
    require_secrets_provider,
)
from experiments.stacks.stackfile import StackFile

__all__ = [
    "cluster_config",
    "secret_config_needed",
    "CLI_MISSING",
    "MIN_CLI_VERSION",
    "AutomationUnavailable",
    "CliUse",
    "EventCounter",
    "LocalStackFactory",
    "ManagedStack",
    "StackFactory",
    "StackLike",
    "StackRun",
    "backend_env",
    "change_text",
    "inline_program",
    "pulumi_command",
    "require_cli",
    "require_secrets_provider",
    "run_stack",
    "short_error",
    "stack_config",
]

_STACK_TYPE = "pulumi:pulumi:Stack"


class StackLike(Protocol):
    """The part of ``pulumi.automation.Stack`` a sweep uses."""

    def set_all_config(self, config: MutableMapping[str, auto.ConfigValue], *, path: bool = False) -> None: ...

    def preview(self, *, on_event: Callable[[EngineEvent], Any]) -> Any: ...

    def up(self, *, on_event: Callable[[EngineEvent], Any], refresh: bool) -> Any: ...


class ManagedStack(Protocol):
    """The part of ``pulumi.automation.Stack`` the ``stack`` verbs use."""

    def set_all_config(self, config: Any) -> None: ...

    def up(self, *, on_event: Any) -> Any: ...

    def destroy(self, *, on_event: Any) -> Any: ...

    def cancel(self) -> None: ...


class StackFactory(Protocol):
    def preflight(self) -> None:
        """Raise ``AutomationUnavailable`` if stacks cannot be created (checked before any cell runs)."""

    def create_or_select(
        self, stack_name: str, program: Callable[[], None], env_vars: Mapping[str, str], work_dir: Path
    ) -> StackLike: ...


def inline_program() -> None:
    """The inline program of every sweep stack: the project's one program function, which plans
    from the config the stack is given (the Automation API wants a program that returns nothing)."""
    pulumi_program()


@dataclass(frozen=True)
class LocalStackFactory:
    """Stacks in a ``LocalWorkspace``: the real thing, which needs the Pulumi CLI."""

    secrets_provider: str | None = None
    use: CliUse = SWEEP
    """The command that runs the CLI, as its messages name it."""

    def preflight(self) -> None:
        require_cli(self.use)
        require_secrets_provider(self.secrets_provider, use=self.use)

    def create_or_select(
        self, stack_name: str, program: Callable[[], None], env_vars: Mapping[str, str], work_dir: Path
    ) -> StackLike:
        options = auto.LocalWorkspaceOptions(
            work_dir=str(work_dir),
            env_vars=dict(env_vars),
            secrets_provider=self.secrets_provider,
            pulumi_command=pulumi_command(self.use),
            # Safe only because work_dir is a throwaway directory (see the module docstring).  `main`
            # would default to the caller's cwd; the program is in-process, so point it at the workspace.
            project_settings=auto.ProjectSettings(name=PROJECT, runtime="python", main=str(work_dir)),
        )
        try:
            return auto.create_or_select_stack(
                stack_name=stack_name, project_name=PROJECT, program=program, opts=options
            )
        except FileNotFoundError:
            # A CLI that vanished from PATH after pulumi_command() checked it lands here.
            raise AutomationUnavailable(self.use.missing()) from None


def backend_env(state_dir: Path) -> dict[str, str]:
    """The workspace environment that puts every sweep stack in ``state_dir``'s file backend."""
    return {"PULUMI_BACKEND_URL": state_dir.resolve().as_uri()}


def stack_config(cluster: Mapping[str, Any], ssh_public_key: str | None) -> dict[str, auto.ConfigValue]:
    """The stack's config: the cluster object as JSON (``load()`` parses it) and the SSH key as a
    secret (none when the cluster names an existing key)."""
    config = {f"{PROJECT}:{CLUSTER_KEY}": auto.ConfigValue(value=json.dumps(cluster, sort_keys=True))}
    if ssh_public_key is not None:
        config[f"{PROJECT}:{SSH_PUBLIC_KEY}"] = auto.ConfigValue(value=ssh_public_key, secret=True)
    return config


@dataclass
class EventCounter:
    """Engine events -> progress: steps started (``resource_pre_event``) against steps done."""

    on_update: Callable[[EventCounter], None] | None = None
    started: int = 0
    done: int = 0
    failed: int = 0
    urns: set[str] = field(default_factory=set)

    def __call__(self, event: EngineEvent) -> None:
        if event.resource_pre_event is not None:
            self.started += 1
            metadata = event.resource_pre_event.metadata
            if metadata.type != _STACK_TYPE:
                self.urns.add(metadata.urn)
        elif event.res_outputs_event is not None:
            self.done += 1
        elif event.res_op_failed_event is not None:
            self.failed += 1
        else:
            return
        if self.on_update is not None:
            self.on_update(self)

    @property
    def resource_count(self) -> int:
        """Resources the engine stepped through, the stack itself left out (as in the offline count)."""
        return len(self.urns)


@dataclass(frozen=True)
class StackRun:
    operation: str
    changes: dict[str, int]
    """Operation (``create``, ``same``, ...) -> resources, as the engine's summary counts them."""


def _op_name(op: Any) -> str:
    return str(getattr(op, "value", op))


def change_text(changes: Any) -> str:
    """An engine summary's resource changes as ``create 3, same 2`` (``no change`` when none)."""
    counted = {_op_name(op): int(n) for op, n in (changes or {}).items() if n}
    return ", ".join(f"{op} {n}" for op, n in sorted(counted.items())) or "no change"


_ERROR_LINE = re.compile(r"error:\s*(.+)")


def short_error(error: Exception) -> str:
    """The CLI's first ``error:`` message when there is one, else the last line (a CommandError carries
    the whole output: stdout's diagnostics, which name the failing resource, come before stderr)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in lines:
        match = _ERROR_LINE.search(line)
        if match:
            return match.group(1)
    return lines[-1] if lines else type(error).__name__


def run_stack(
    stack: StackLike, config: Mapping[str, auto.ConfigValue], *, up: bool, on_event: Callable[[EngineEvent], Any]
) -> StackRun:
    """Set the config, then ``preview`` (the default) or ``up``."""
    stack.set_all_config(dict(config))
    if up:
        # As Pulumi.yaml's options.refresh does for the CLI (the throwaway workspace has no such file):
        # adopted workers' NICs are read back before anything is changed.
        result = stack.up(on_event=on_event, refresh=True)
        changes = result.summary.resource_changes or {}
    else:
        changes = stack.preview(on_event=on_event).change_summary or {}
    return StackRun(
        operation="up" if up else "preview",
        changes={_op_name(op): int(n) for op, n in sorted(changes.items(), key=lambda i: _op_name(i[0]))},
    )


def secret_config_needed(stack: StackFile) -> str | None:
    """Why the stack cannot run on its cluster mapping alone (the program's own secret rules), or None."""
    cluster = stack.cluster
    if cluster.layers == "kubernetes" or cluster.nodes.source == "adopt":
        return None  # no instance is created: no SSH key, no join material
    if cluster.security.ssh_key_name is None:
        return f"new nodes need {PROJECT}:sshPublicKey; name an existing key in security.ssh_key_name"
    if cluster.nodes.source == "join" and (not cluster.kubernetes.openshift or cluster.nodes.join.ignition == "secret"):
        return "joining nodes need their join secrets (kubeadm token and CA hash, or the worker ignition) as config"
    return None


def cluster_config(stack: StackFile) -> dict[str, Any]:
    """The stack's cluster mapping as the Automation API sets it; refused when it needs secrets."""
    if stack.encrypted_keys:
        raise InputError(
            f"{stack.path}: {', '.join(stack.encrypted_keys)}: encrypted under that file's own "
            "secrets provider, which this stack does not share; use `pulumi up -s` in the project, "
            "or drop them (the IBM API key can come from IC_API_KEY)"
        )
    reason = secret_config_needed(stack)
    if reason:
        raise InputError(f"{stack.path}: {reason}")
    return dict(json.loads(stack.engine_config[f"{PROJECT}:{CLUSTER_KEY}"]))
