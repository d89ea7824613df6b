"""Step deadlines from the stack's own timeouts.

The resources a stack renders carry the timeouts that are enforced: the IBM provider's (an instance
create 60m...) and the rolling node steps' own (drain, stop, start until Ready, in seconds).  An
``up`` can last at most as long as its longest chain of dependent resources, each taking its whole
``create`` timeout; a ``destroy`` likewise with ``delete``.  Resources without a timeout of their
own, the CLI's start and the refresh share a fixed margin.  The chain follows the engine's
dependencies, and a component waits for all its children, so a rolling stop/start chained worker
after worker adds up while independent workers do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, Protocol

__all__ = ["MARGIN_SECONDS", "RUN_MARGIN_SECONDS", "go_duration_seconds", "longest_chain_seconds"]

MARGIN_SECONDS = 15 * 60
RUN_MARGIN_SECONDS = 5 * 60
"""``run`` stops itself at ``--timeout``; the step's deadline leaves it time to say why."""
_PART = re.compile(r"(\d+(?:\.\d+)?)(h|m|s)")
_UNIT = {"h": 3600, "m": 60, "s": 1}


class ResourceLike(Protocol):
    """What a recorded resource offers (read only: ``RecordedResource`` is frozen)."""

    @property
    def urn(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def parent(self) -> str | None: ...
    @property
    def custom(self) -> bool: ...
    @property
    def inputs(self) -> dict[str, Any]: ...
    @property
    def dependencies(self) -> tuple[str, ...]: ...


def go_duration_seconds(value: str) -> int:
    """``"1h30m"`` -> 5400; the provider's timeouts are Go durations."""
    text = value.strip()
    parts = _PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"not a duration: {value!r}")
    return round(sum(float(n) * _UNIT[u] for n, u in parts))


_ROLLING_WAITS = {
    # The rolling steps' own waits (components/ops), in seconds: each direction undoes the other.
    "WorkerOutOfService": {"create": ("drain_s", "stop_s"), "update": ("drain_s", "stop_s"), "delete": ("start_s",)},
    "WorkerInService": {"create": ("start_s",), "update": ("start_s",), "delete": ("drain_s", "stop_s")},
}


def _timeout(resource_type: str, inputs: Mapping[str, Any], operation: str) -> int:
    timeouts = inputs.get("timeouts")
    if not isinstance(timeouts, Mapping):
        return 0
    waits = _ROLLING_WAITS.get(resource_type.rsplit(":", 1)[-1])
    if waits is not None:
        return round(sum(float(timeouts.get(key) or 0) for key in waits[operation]))
    value = timeouts.get(operation)
    return go_duration_seconds(value) if isinstance(value, str) else 0


def longest_chain_seconds(resources: Iterable[ResourceLike], operation: str) -> int:
    """The longest sum of ``operation`` timeouts along a chain of dependent resources."""
    by_urn = {r.urn: r for r in resources}
    children: dict[str, list[str]] = {}
    for resource in by_urn.values():
        if resource.parent in by_urn:
            children.setdefault(resource.parent, []).append(resource.urn)

    visiting: set[str] = set()

    @lru_cache(maxsize=None)
    def finish(urn: str) -> int:
        resource = by_urn[urn]
        visiting.add(urn)  # the engine refuses cycles; one here must not recurse forever
        waits = [u for u in (*resource.dependencies, *children.get(urn, ())) if u in by_urn and u not in visiting]
        own = _timeout(resource.type, resource.inputs, operation) if resource.custom else 0
        longest = own + max((finish(u) for u in waits), default=0)
        visiting.discard(urn)
        return longest

    return max((finish(urn) for urn in by_urn), default=0)
