"""What a stack's file backend says, read without the Pulumi CLI: its locks and its last checkpoint.

The layout is the DIY backend's (pulumi/pulumi ``pkg/backend/diy``): a lock is one JSON file in
``.pulumi/locks/<org>/<project>/<stack>/``, written at the start of an update and deleted at its
end, so a file left there means a CLI died mid-update; the checkpoint is
``.pulumi/stacks/<project>/<stack>.json`` (``.json.gz`` when gzip is on), whose ``pending_operations``
name what was in flight. Both are hostile input: any file that does not parse is one message.

The worker report reads the checkpoint's instance actions: a ``stop`` recorded without the
``start`` of the same set means the stack left that worker stopped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.models.config import PROJECT
from experiments.base.bounded import gunzip, parse_json
from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.base.shapes import as_list

__all__ = ["LockFile", "StackState", "lock_files", "read_stack_state", "worker_report"]

_ACTION_TYPE = "ibm:index/isInstanceAction:IsInstanceAction"
_STACK_TYPE = "pulumi:pulumi:Stack"
MAX_STATE_BYTES = 512 * 1024 * 1024
MAX_LOCK_BYTES = 64 * 1024


@dataclass(frozen=True)
class LockFile:
    path: Path
    holder: str
    """``user@host (pid N) since TIME``, as far as the file tells."""


@dataclass(frozen=True)
class StackState:
    stack: str
    exists: bool
    locks: list[LockFile] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)
    resources: list[dict[str, Any]] = field(default_factory=list)
    pending: list[dict[str, Any]] = field(default_factory=list)


def _bookkeeping(state_dir: Path) -> Path:
    return state_dir / ".pulumi"


def _lock_holder(path: Path) -> str:
    try:
        with path.open("rb") as handle:  # a lock file is small: read no more than a lock can hold
            info = json.loads(handle.read(MAX_LOCK_BYTES).decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError):
        return "an unreadable lock file"
    if not isinstance(info, dict):
        return "an unreadable lock file"
    def field(key: str) -> str:  # foreign text: short and printable
        value = info.get(key, "?")
        return terminal_text(value if isinstance(value, (str, int)) and not isinstance(value, bool) else "?")[:80]

    return f"{field('username')}@{field('hostname')} (pid {field('pid')}) since {field('timestamp')}"


def lock_files(state_dir: Path, stack: str) -> list[LockFile]:
    """The stack's lock files in the file backend (no checkpoint is read)."""
    root = _bookkeeping(state_dir) / "locks"
    candidates = [root / "organization" / PROJECT / stack, root / PROJECT / stack, root / stack]
    found = []
    for directory in candidates:
        if directory.is_dir():
            found += [LockFile(p, _lock_holder(p)) for p in sorted(directory.glob("*.json")) if p.is_file()]
    return found


def _checkpoint_path(state_dir: Path, stack: str) -> Path | None:
    stacks = _bookkeeping(state_dir) / "stacks"
    for folder in (stacks / PROJECT, stacks / "organization" / PROJECT, stacks):
        for suffix in (".json", ".json.gz"):
            path = folder / f"{stack}{suffix}"
            if path.is_file():
                return path
    return None


def _mapping(value: Any) -> dict[str, Any]:
    """A checkpoint's object, or nothing: the file is foreign input."""
    return value if isinstance(value, dict) else {}


def _read_checkpoint(path: Path) -> dict[str, Any]:
    where = terminal_text(path)
    try:
        if path.stat().st_size > MAX_STATE_BYTES:
            raise InputError(f"{where}: larger than {MAX_STATE_BYTES // 2**20} MiB; not a stack checkpoint")
        raw = path.read_bytes()
    except OSError as error:
        raise InputError(f"{where}: not a readable stack checkpoint ({error.strerror})") from None
    # The cap holds after inflating too: a small .json.gz can inflate to gigabytes.
    text = gunzip(raw, MAX_STATE_BYTES, where) if path.suffix == ".gz" else raw
    document = parse_json(text, where, "a readable stack checkpoint")
    checkpoint = document.get("checkpoint") if isinstance(document, dict) else None
    latest = checkpoint.get("latest") if isinstance(checkpoint, dict) else None
    if latest is None:
        return {}
    if not isinstance(latest, dict):
        raise InputError(f"{path}: checkpoint.latest is not a deployment")
    return latest


def read_stack_state(state_dir: Path, stack: str) -> StackState:
    locks = lock_files(state_dir, stack)
    path = _checkpoint_path(state_dir, stack)
    if path is None:
        return StackState(stack=stack, exists=False, locks=locks)
    latest = _read_checkpoint(path)
    resources = [r for r in as_list(latest.get("resources")) if isinstance(r, dict)]
    pending = [p for p in as_list(latest.get("pending_operations")) if isinstance(p, dict)]
    root = next((r for r in resources if r.get("type") == _STACK_TYPE), {})
    outputs = _mapping(root.get("outputs"))
    return StackState(stack=stack, exists=True, locks=locks, outputs=outputs, resources=resources, pending=pending)


def _worker_names(outputs: dict[str, Any]) -> dict[str, str]:
    """instance id -> node name, where the outputs pair them (``instanceIds`` and ``nodes`` in order)."""
    ids, nodes = outputs.get("instanceIds"), outputs.get("nodes")
    if isinstance(ids, dict):
        return {_scalar(v): _scalar(k) for k, v in ids.items()}
    if isinstance(ids, list) and isinstance(nodes, list) and len(ids) == len(nodes):
        return {_scalar(i): _scalar(n) for i, n in zip(ids, nodes, strict=True)}
    return {}


def _scalar(value: Any) -> str:
    """A name from the checkpoint: a string or number as text, anything else (a nested object) "?"."""
    return value[:253] if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else "?"


def _actions(resources: list[dict[str, Any]]) -> dict[str, dict[str, set[str]]]:
    """instance id -> action -> generations recorded (``<worker>-stop-<generation>``)."""
    found: dict[str, dict[str, set[str]]] = {}
    for resource in resources:
        if resource.get("type") != _ACTION_TYPE:
            continue
        inputs = _mapping(resource.get("inputs"))
        instance, action = _scalar(inputs.get("instance", "?")), _scalar(inputs.get("action", "?"))
        generation = _scalar(resource.get("urn", "")).rsplit("-", 1)[-1]
        found.setdefault(instance, {}).setdefault(action, set()).add(generation)
    return found


def worker_report(state: StackState) -> list[str]:
    """One line per worker the stack acts on, plus one per operation left in flight."""
    if not state.exists:
        return [f"{state.stack}: no checkpoint in the backend (never deployed, or destroyed and removed)"]
    names = _worker_names(state.outputs)
    lines = []
    for instance, actions in sorted(_actions(state.resources).items()):
        label = f"{names[instance]} ({instance})" if instance in names else instance
        stopped = actions.get("stop", set()) - actions.get("start", set())
        lines.append(f"worker {label}: " + ("STOPPED by this stack (no start recorded)" if stopped
                                            else "stopped and started again (running)"))
    for operation in state.pending:
        resource = _mapping(operation.get("resource"))
        lines.append(f"INTERRUPTED {_scalar(operation.get('type', '?'))}: {_scalar(resource.get('urn', '?'))}")
    for lock in state.locks:
        lines.append(f"LOCKED by {lock.holder}: {lock.path.name}")
    if not lines:
        lines.append(f"{state.stack}: no worker action recorded, nothing in flight, not locked")
    return lines
