"""What changes between two experiments' desired states (the ``diff`` verb: ``experiments.cli.diff``).

Both stacks run through the offline engine; resources are keyed by their logical identity
(the URN without the stack), so the same resource lines up across stacks.  Inputs are
compared field by field: lists of named items (env vars, containers, volumes) are keyed
by name and JSON held in strings (a NAD's CNI config) is compared inside, so a change
reads as ``...env[NCCL_IB_DISABLE].value: "1" -> "0"`` rather than as a changed blob.
The stacks' own name prefixes differ by design and would mark every resource as changed:
both stacks are rendered under one neutral prefix, shown as ``{prefix}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal

from components.plan.stops import STOP_HAZARD
from experiments.offline.engine import RecordedResource
from experiments.offline.ibm_rules import REPLACE_ON_CHANGE, values_at
from experiments.offline.k8s_rules import DATA_KINDS, JOB_KINDS, KUBERNETES_REPLACE_ON_CHANGE, NODE_DISRUPTING_KINDS
from experiments.stacks.stackfile import StackFile
from experiments.state.identity import NEUTRAL_PREFIX, logical_urn, with_neutral_prefix
from experiments.state.preview import Preview
from experiments.state.privilege import new_settings, privilege_reasons
from experiments.state.render_cache import RenderCache
from experiments.state.side_by_side import cached_previews

__all__ = ["Change", "Hazard", "ResourceChange", "StackDiff", "diff_previews", "diff_stacks"]

_PREFIX_PLACEHOLDER = "{prefix}"
_NEUTRAL_IDENTIFIER = NEUTRAL_PREFIX.replace("-", "_")

# Inputs that IBM changes only on a stopped instance: cluster network attachments and resizing.
STOP_TO_CHANGE: dict[str, tuple[str, ...]] = {"IsInstance": ("clusterNetworkAttachments", "profile")}


@dataclass(frozen=True)
class Change:
    path: str
    before: Any
    after: Any

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class ResourceChange:
    urn: str
    type: str
    layer: str
    changes: tuple[Change, ...]


HazardKind = Literal[
    "replace", "data-loss", "stop-instance", "node-disruption", "node-change", "job-update", "privilege"
]
"""``privilege``: root, or capabilities added."""


@dataclass(frozen=True)
class Hazard:
    urn: str
    kind: HazardKind
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"urn": self.urn, "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True)
class StackDiff:
    a: str
    b: str
    summary: str
    added: tuple[RecordedResource, ...] = ()
    removed: tuple[RecordedResource, ...] = ()
    changed: tuple[ResourceChange, ...] = ()
    hazards: tuple[Hazard, ...] = ()

    @property
    def differs(self) -> bool:
        """Whether the desired states differ (``diff`` then exits 1, like diff(1))."""
        return bool(self.added or self.removed or self.changed or self.hazards)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "summary": self.summary,
            "added": [logical_urn(r.urn) for r in self.added],
            "removed": [logical_urn(r.urn) for r in self.removed],
            "changed": [
                {"urn": c.urn, "layer": c.layer, "changes": [x.as_json() for x in c.changes]} for c in self.changed
            ],
            "hazards": [h.as_json() for h in self.hazards],
        }


_NETWORK_COMPONENTS = ("gpu-cluster:fabric:", "gpu-cluster:nads:", "gpu-cluster:sriov:", "gpu-cluster:nodeprep:")


def layer_of(resource_type_chain: str) -> str:
    """Which layer a resource belongs to, from its own type and its parents' types."""
    if "gpu-cluster:training:" in resource_type_chain or "gpu-cluster:benchmark:" in resource_type_chain:
        return "workload"
    if any(token in resource_type_chain for token in _NETWORK_COMPONENTS):
        return "kubernetes network"
    if any(part.startswith(("kubernetes:", "pulumi:providers:kubernetes")) for part in resource_type_chain.split("$")):
        return "kubernetes network"
    return "cloud"


def kind_of(resource: RecordedResource) -> str:
    return resource.type.rsplit(":", 1)[-1]


def _normalize(value: Any) -> Any:
    """Both stacks were rendered under the neutral prefix: show it as ``{prefix}``."""
    if isinstance(value, str):
        # Also in its identifier form (``-`` -> ``_``): device-plugin resource names derive from it.
        return value.replace(NEUTRAL_PREFIX, _PREFIX_PLACEHOLDER).replace(_NEUTRAL_IDENTIFIER, _PREFIX_PLACEHOLDER)
    if isinstance(value, dict):
        return {_normalize(k): _normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v) for v in value]
    return value


def _as_json_object(value: Any) -> Any:
    """A string holding a JSON object or array is compared as structure."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _named_items(items: list[Any]) -> dict[str, Any] | None:
    names = [item.get("name") for item in items if isinstance(item, dict)]
    if len(names) == len(items) and all(isinstance(n, str) for n in names) and len(set(names)) == len(names):
        return {str(item["name"]): item for item in items}
    return None


def deep_changes(before: Any, after: Any, path: str = "") -> Iterator[Change]:
    before, after = _as_json_object(before), _as_json_object(after)
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            sub = f"{path}.{key}" if path else str(key)
            if key not in before:
                yield Change(sub, None, after[key])
            elif key not in after:
                yield Change(sub, before[key], None)
            else:
                yield from deep_changes(before[key], after[key], sub)
        return
    if isinstance(before, list) and isinstance(after, list):
        if before != after and all(isinstance(x, str) for x in before + after):
            # Capabilities, tags, selectors: one change with both whole lists, not shifted positions
            # (the text rendering names what went and what came).
            yield Change(path, before, after)
            return
        named_before, named_after = _named_items(before), _named_items(after)
        if named_before is not None and named_after is not None:
            yield from deep_changes(named_before, named_after, path)  # keyed as path.<name>
            return
        for i in range(max(len(before), len(after))):
            sub = f"{path}[{i}]"
            if i >= len(before):
                yield Change(sub, None, after[i])
            elif i >= len(after):
                yield Change(sub, before[i], None)
            else:
                yield from deep_changes(before[i], after[i], sub)
        return
    if before != after:
        yield Change(path, before, after)


def _covers(prefixes: tuple[str, ...], path: str) -> str | None:
    for prefix in prefixes:
        if path == prefix or path.startswith((prefix + ".", prefix + "[")):
            return prefix
    return None


def changed_rules(rules: tuple[str, ...], before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The rule paths whose values differ between two input sets (both already normalized)."""
    return sorted(rule for rule in rules if values_at(before, rule) != values_at(after, rule))


def _replace_paths(resource: RecordedResource) -> tuple[str, ...]:
    kind = kind_of(resource)
    if resource.type.startswith("kubernetes:"):
        return KUBERNETES_REPLACE_ON_CHANGE["*"] + KUBERNETES_REPLACE_ON_CHANGE.get(kind, ())
    return REPLACE_ON_CHANGE.get(kind, ())


def _hazards_for_change(before: RecordedResource, resource: RecordedResource, change: ResourceChange) -> list[Hazard]:
    kind = kind_of(resource)
    hazards = []
    replaced = changed_rules(_replace_paths(resource), _normalize(before.inputs), _normalize(resource.inputs))
    if replaced:
        hazards.append(Hazard(change.urn, "replace", f"{kind} is replaced when {', '.join(replaced)} change(s)"))
        if kind in DATA_KINDS:
            hazards.append(Hazard(change.urn, "data-loss", f"replaced: {DATA_KINDS[kind]}"))
    if kind in JOB_KINDS and not replaced:
        hazards.append(
            Hazard(
                change.urn,
                "job-update",
                f"a running {kind} keeps its pods as they are: delete it (or let it finish) for the change to apply",
            )
        )
    stopped = sorted({p for c in change.changes if (p := _covers(STOP_TO_CHANGE.get(kind, ()), c.path))})
    if stopped and not replaced:
        hazards.append(
            Hazard(change.urn, "stop-instance", f"IBM changes {', '.join(stopped)} only while the instance is stopped")
        )
    if kind in NODE_DISRUPTING_KINDS:
        hazards.append(Hazard(change.urn, "node-disruption", f"changed: {NODE_DISRUPTING_KINDS[kind]}"))
    hazards.extend(Hazard(change.urn, "privilege", reason) for reason in privilege_reasons(change.changes))
    return hazards


def diff_stacks(a: StackFile, b: StackFile, summary: str = "", renders: RenderCache | None = None) -> StackDiff:
    """Both stacks rendered under the neutral prefix (from ``renders`` where it holds them), then compared."""
    neutral = with_neutral_prefix(a), with_neutral_prefix(b)
    result = diff_previews(*cached_previews(*neutral, renders), summary)
    return replace(result, a=a.name, b=b.name)


def _node_changes(a: Preview, b: Preview) -> list[Hazard]:
    """Adopted or joined nodes that gain or lose the stack's NICs when the node selection changes."""
    before, after = set(a.stack.plan.addresses.nodes), set(b.stack.plan.addresses.nodes)
    if a.stack.cluster.nodes.source == "standalone" or b.stack.cluster.nodes.source == "standalone":
        return []
    return [
        Hazard(node, "node-change", "gains the stack's NICs (newly selected)") for node in sorted(after - before)
    ] + [Hazard(node, "node-change", "loses the stack's NICs (no longer selected)") for node in sorted(before - after)]


def _stops_worker(r: RecordedResource) -> bool:
    return kind_of(r) == "WorkerOutOfService"  # the rolling step (components.ops)


def diff_previews(a: Preview, b: Preview, summary: str = "") -> StackDiff:
    """Diff two previews; names are compared as rendered (``diff_stacks`` neutralizes prefixes)."""
    before = {logical_urn(r.urn): r for r in a.result.resources}
    after = {logical_urn(r.urn): r for r in b.result.resources}
    added: list[RecordedResource] = []
    removed: list[RecordedResource] = []
    changed: list[ResourceChange] = []
    hazards: list[Hazard] = []
    for urn in sorted(set(after) - set(before)):
        added.append(after[urn])
        if _stops_worker(after[urn]):
            hazards.append(Hazard(urn, "stop-instance", STOP_HAZARD))
        disruption = NODE_DISRUPTING_KINDS.get(kind_of(after[urn]))
        if disruption:
            hazards.append(Hazard(urn, "node-disruption", f"added: {disruption}"))
        new = new_settings(_normalize(after[urn].inputs))  # a new workload's own settings
        hazards.extend(Hazard(urn, "privilege", reason) for reason in privilege_reasons(new))
    for urn in sorted(set(before) - set(after)):
        removed.append(before[urn])
        if kind_of(before[urn]) in DATA_KINDS and before[urn].type.startswith("kubernetes:"):
            hazards.append(Hazard(urn, "data-loss", f"removed: {DATA_KINDS[kind_of(before[urn])]}"))
        if kind_of(before[urn]) in NODE_DISRUPTING_KINDS:
            hazards.append(Hazard(urn, "node-disruption", f"removed: {NODE_DISRUPTING_KINDS[kind_of(before[urn])]}"))
    for urn in sorted(set(before) & set(after)):
        if before[urn].inputs == after[urn].inputs:
            continue  # equal inputs have no changes: most of two stacks' resources, compared without walking them
        changes = tuple(deep_changes(_normalize(before[urn].inputs), _normalize(after[urn].inputs)))
        if not changes:
            continue
        type_chain = urn.split("::")[1]
        change = ResourceChange(urn=urn, type=after[urn].type, layer=layer_of(type_chain), changes=changes)
        changed.append(change)
        hazards.extend(_hazards_for_change(before[urn], after[urn], change))
        if _stops_worker(after[urn]) and {c.path.split(".")[0] for c in changes} & {"attachments", "generation"}:
            hazards.append(Hazard(urn, "stop-instance", f"runs again: {STOP_HAZARD}"))
    hazards.extend(_node_changes(a, b))
    return StackDiff(
        a=a.stack.name,
        b=b.stack.name,
        summary=summary,
        added=tuple(added),
        removed=tuple(removed),
        changed=tuple(changed),
        hazards=tuple(hazards),
    )
