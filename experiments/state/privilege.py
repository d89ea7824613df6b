"""Changes that give a workload more privilege than before: a container or pod set to run as root
(``runAsUser: 0``) or granted capabilities it did not have. ``diff`` lists each as a ``privilege`` hazard,
once per resource and setting, whichever replicas (Master, Worker) it applies to."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["new_settings", "privilege_reasons", "replica_neutral"]

_REPLICA = re.compile(r"(ReplicaSpecs)\.([^.]+)\.")


class _Change(Protocol):
    """A changed setting (``diff``'s ``Change``): read only."""

    @property
    def path(self) -> str: ...
    @property
    def before(self) -> Any: ...
    @property
    def after(self) -> Any: ...


def replica_neutral(path: str) -> tuple[str, str | None]:
    """The path with its replica name (``pytorchReplicaSpecs.Worker.``) taken out, and that name."""
    match = _REPLICA.search(path)
    if match is None:
        return path, None
    return path[: match.start(2)] + "{}" + path[match.end(2) :], match.group(2)


@dataclass(frozen=True)
class _Setting:
    path: str
    before: Any
    after: Any


def new_settings(value: Any, path: str = "") -> Iterator[_Setting]:
    """Every leaf of a new resource's inputs as a change from nothing (lists of strings are leaves; named
    items are keyed by name, as ``diff`` keys them)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from new_settings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and not all(isinstance(item, str) for item in value):
        for index, item in enumerate(value):
            name = item.get("name") if isinstance(item, dict) else None
            yield from new_settings(item, f"{path}.{name}" if isinstance(name, str) else f"{path}[{index}]")
    else:
        yield _Setting(path, None, value)


def _capabilities(value: Any) -> set[str]:
    return {str(item) for item in value} if isinstance(value, list) else set()


def privilege_reasons(changes: Iterable[_Change]) -> list[str]:
    """One reason per setting that gains privilege, the replicas it applies to named once."""
    found: dict[str, list[str]] = {}
    for change in changes:
        path, replica = replica_neutral(change.path)
        reason = None
        where = path.rsplit("template.", 1)[-1]  # spec.securityContext..., spec.containers.<name>...
        added = _capabilities(change.after) - _capabilities(change.before)
        if path.endswith("runAsUser") and change.after == 0 and change.before != 0:
            reason = f"{where}: 0 (runs as root)"
        elif path.endswith("capabilities.add") and added:
            reason = f"{where} gains {', '.join(sorted(added))}"
        if reason is not None:
            replicas = found.setdefault(reason, [])
            if replica is not None and replica not in replicas:
                replicas.append(replica)
    return [f"{', '.join(replicas)}: {reason}" if replicas else reason for reason, replicas in found.items()]
