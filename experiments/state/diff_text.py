"""A ``StackDiff`` as text: resources grouped by kind, changed fields one per line (once for every replica they
are alike in), values shortened, hazards, then the totals."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from experiments.offline.engine import RecordedResource
from experiments.state.diff import Change, StackDiff, kind_of, layer_of
from experiments.state.identity import NEUTRAL_PREFIX, logical_urn
from experiments.state.privilege import replica_neutral

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


GROUP_AT = 4
"""Added or removed resources of one kind shown one per line up to this many; more are one line (a NIC,
subnet or NAD per node and NIC would otherwise fill the screen: every one is in ``--json``)."""


def _resource_lines(sign: str, resources: Sequence[RecordedResource]) -> Iterator[tuple[str, str]]:
    """(layer, line) per resource, or per kind where a layer adds or removes more than GROUP_AT of it."""
    by_kind: dict[tuple[str, str], list[str]] = {}
    for resource in resources:
        urn = logical_urn(resource.urn)
        by_kind.setdefault((_layer(urn), kind_of(resource)), []).append(_name(urn))
    for (layer, kind), names in by_kind.items():
        if len(names) > GROUP_AT:
            yield layer, f"  {sign} {len(names)} x {kind}: {names[0]} … {names[-1]}"
        else:
            yield from ((layer, f"  {sign} {name} ({kind})") for name in names)


def _entry_groups(changes: tuple[Change, ...]) -> tuple[tuple[Change, ...], dict[str, list[str]]]:
    """The changes to show one by one, and the maps (a path's head) with more than GROUP_AT changed entries
    (one per worker, say), shown as one line each: every entry is in ``--json``."""
    heads: dict[str, list[str]] = {}
    for change in changes:
        head, dot, key = change.path.rpartition(".")
        if dot:
            heads.setdefault(head, []).append(key)
    wide = {head: keys for head, keys in heads.items() if len(keys) > GROUP_AT}
    return tuple(c for c in changes if c.path.rpartition(".")[0] not in wide), wide


def _change_lines(changes: tuple[Change, ...]) -> list[str]:
    """One line per changed field; a field changed alike in every replica (Master, Worker) once; a map with
    many changed entries in one line."""
    changes, wide = _entry_groups(changes)
    merged: dict[tuple[str, str, str], list[str]] = {}
    for change in changes:
        path, replica = replica_neutral(change.path)
        key = (path, json.dumps(change.before, sort_keys=True), json.dumps(change.after, sort_keys=True))
        merged.setdefault(key, []).append(replica or "")
    lines = [f"      {head}: {len(keys)} entries changed ({keys[0]} … {keys[-1]})" for head, keys in wide.items()]
    for change in changes:
        path, replica = replica_neutral(change.path)
        replicas = merged.pop(
            (path, json.dumps(change.before, sort_keys=True), json.dumps(change.after, sort_keys=True)), None
        )
        if replicas is None:
            continue  # shown with its first replica
        shown = (
            path.replace("{}", replicas[0] if len(replicas) == 1 else "{" + ",".join(replicas) + "}")
            if replica is not None
            else change.path
        )
        lines.append(f"      {_change_text(Change(shown, change.before, change.after))}")
    return lines


def render_text(diff: StackDiff) -> list[str]:
    """The diff as plain lines, grouped by layer, hazards, then the totals."""
    lines = [diff.summary, ""] if diff.summary else []
    layers: dict[str, list[str]] = {}
    for layer, line in [*_resource_lines("+", diff.added), *_resource_lines("-", diff.removed)]:
        layers.setdefault(layer, []).append(line)
    for change in diff.changed:
        block = layers.setdefault(change.layer, [])
        block.append(f"  ~ {_name(change.urn)} ({change.type.rsplit(':', 1)[-1]})")
        block.extend(_change_lines(change.changes))
    for layer in ("cloud", "kubernetes network", "workload"):
        if layer in layers:
            lines.append(f"{layer}:")
            lines.extend(layers[layer])
    if not layers:
        lines.append("no differences in desired state")
    if diff.hazards:
        lines.append("hazards:")
        lines.extend(f"  ! [{h.kind}] {_name(h.urn)}: {h.reason}" for h in diff.hazards)
    lines.append(
        f"{len(diff.added)} to add, {len(diff.removed)} to remove, {len(diff.changed)} to change, "
        f"{len(diff.hazards)} hazard(s)"
    )
    return lines
