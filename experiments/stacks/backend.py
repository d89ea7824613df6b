"""What a stack's file backend says, read without the Pulumi CLI: its locks and its last checkpoint.

The layout is the DIY backend's (pulumi/pulumi ``pkg/backend/diy``): a lock is one JSON file in
``.pulumi/locks/<org>/<project>/<stack>/``, written at the start of an update and deleted at its
end, so a file left there means a CLI died mid-update; the checkpoint is
``.pulumi/stacks/<project>/<stack>.json`` (``.json.gz`` when gzip is on), whose ``pending_operations``
name what was in flight. Both are hostile input: any file that does not parse is one message.

The worker report reads the checkpoint's rolling steps (``components.ops.providers``): per adopted
worker a ``WorkerOutOfService`` (its ``token`` changes each time the worker is taken out) and a
``WorkerInService`` recording the token of the taking-out it undid.  An out-of-service step with no
in-service step, or one that undid an older taking-out, means the stack left that worker out of
service (stopped, or cordoned with its MachineHealthChecks paused).
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

_STEP_TYPES = {
    "out": "pulumi-python:dynamic/gpu-cluster:WorkerOutOfService",
    "in": "pulumi-python:dynamic/gpu-cluster:WorkerInService",
}
"""The type tokens ``pulumi.dynamic.Resource`` gives the rolling steps (``pulumi-python:dynamic/<module>:<name>``)."""
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


def _steps(resources: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """(node, instance id) -> "out"/"in" -> that step's recorded outputs (inputs where none were written)."""
    found: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for resource in resources:
        kind = next((k for k, t in _STEP_TYPES.items() if resource.get("type") == t), None)
        if kind is None:
            continue
        values = _mapping(resource.get("outputs")) or _mapping(resource.get("inputs"))
        worker = (_scalar(values.get("node", "?")), _scalar(values.get("instance_id", "?")))
        found.setdefault(worker, {})[kind] = values
    return found


def _scalar(value: Any) -> str:
    """A name from the checkpoint: a string or number as text, anything else (a nested object) "?"."""
    return value[:253] if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else "?"


def worker_report(state: StackState) -> list[str]:
    """One line per worker the stack takes out of service, plus one per operation left in flight."""
    if not state.exists:
        return ["no checkpoint in the backend (never deployed, or destroyed and removed)"]  # callers name the stack
    lines = []
    for (node, instance), steps in sorted(_steps(state.resources).items()):
        taken_out, back = steps.get("out"), steps.get("in")
        if taken_out is None:
            status = "brought back, no taking-out recorded (in service)"
        elif back is None or back.get("out_of_service_token") != taken_out.get("token"):
            status = (
                "OUT OF SERVICE, left by this stack (taken out, not brought back): stopped, or cordoned "
                "with its MachineHealthChecks paused; run up again to bring it back"
            )
        else:
            status = "taken out and brought back (in service)"
        lines.append(f"worker {node} ({instance}): {status}")
    for operation in state.pending:
        resource = _mapping(operation.get("resource"))
        lines.append(f"INTERRUPTED {_scalar(operation.get('type', '?'))}: {_scalar(resource.get('urn', '?'))}")
    for lock in state.locks:
        lines.append(f"LOCKED by {lock.holder}: {lock.path.name}")
    if not lines:
        lines.append(f"{state.stack}: no rolling step recorded, nothing in flight, not locked")
    return lines
