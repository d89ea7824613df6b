"""A ``StackDiff`` as text: changed fields one per line, values shortened, hazards last."""

from __future__ import annotations

import json
from typing import Any

from experiments.state.diff import Change, StackDiff, kind_of, layer_of
from experiments.state.identity import NEUTRAL_PREFIX, logical_urn

__all__ = ["render_text"]


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _as_items(value: Any) -> list[str] | None:
    """String lists, and multi-line strings as their lines: compared as what went and what came."""
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return value
    if isinstance(value, str) and "\n" in value:
        return value.splitlines()
    return None


def _change_text(change: Change) -> str:
    old, new = _as_items(change.before), _as_items(change.after)
    if old is not None and new is not None:
        gone, came = [x for x in old if x not in new], [x for x in new if x not in old]
        if gone or came:
            return f"{change.path}: -{_short(gone)} +{_short(came)}"
    return f"{change.path}: {_short(change.before)} → {_short(change.after)}"


def _name(urn: str) -> str:
    """The resource's name (the last URN part; a hazard about a node carries the node's name alone),
    the neutral prefix shown as ``{prefix}`` as in the values."""
    return urn.rsplit("::", 1)[-1].replace(NEUTRAL_PREFIX, "{prefix}")


def _layer(logical: str) -> str:
    parts = logical.split("::")
    return layer_of(parts[1] if len(parts) > 2 else parts[0])


def render_text(diff: StackDiff) -> list[str]:
    """The diff as plain lines, grouped by layer, hazards last."""
    lines = [diff.summary, ""] if diff.summary else []
    layers: dict[str, list[str]] = {}
    for resource in diff.added:
        urn = logical_urn(resource.urn)
        layers.setdefault(_layer(urn), []).append(f"  + {_name(urn)} ({kind_of(resource)})")
    for resource in diff.removed:
        urn = logical_urn(resource.urn)
        layers.setdefault(_layer(urn), []).append(f"  - {_name(urn)} ({kind_of(resource)})")
    for change in diff.changed:
        block = layers.setdefault(change.layer, [])
        block.append(f"  ~ {_name(change.urn)} ({change.type.rsplit(':', 1)[-1]})")
        block.extend(f"      {_change_text(c)}" for c in change.changes)
    for layer in ("cloud", "kubernetes network", "workload"):
        if layer in layers:
            lines.append(f"{layer}:")
            lines.extend(layers[layer])
    if not layers:
        lines.append("no differences in desired state")
    if diff.hazards:
        lines.append("hazards:")
        lines.extend(f"  ! [{h.kind}] {_name(h.urn)}: {h.reason}" for h in diff.hazards)
    return lines
