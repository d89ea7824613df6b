"""From flags or a matrix file to validated cells, each with the cluster config it would deploy."""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from components.models.catalog import PROFILES
from components.models.config import CLUSTER_KEY, NETWORK_VARIANTS, PROJECT
from experiments.base.errors import InputError
from experiments.stacks.stackfile import InvalidCluster, load_stack, stack_from_config
from experiments.stacks.yaml_file import label, read_yaml_file
from experiments.sweep.cells import (
    AXES,
    DEFAULT_NICS,
    DEFAULT_ZONE,
    MATRIX_KEYS,
    NICS_AS_NODES,
    PROFILE_ALIASES,
    TEARDOWNS,
    Cell,
    CellPlan,
    SweepSpec,
    SweepSpecError,
)


def _as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _parse_axis(axis: str, raw: Any, where: str) -> tuple[Any, ...]:
    """``where`` names the flag or the file and key; list items get their index appended."""
    values = _as_list(raw)
    if not values:
        raise SweepSpecError(f"{where}: must list at least one value")
    indexed = isinstance(raw, list) and not where.startswith("--")
    parsed = [_AXIS_PARSERS[axis](value, f"{where}[{i}]" if indexed else where) for i, value in enumerate(values)]
    return tuple(dict.fromkeys(parsed))  # repeated values would make duplicate cells


def _parse_profile(value: Any, where: str) -> str:
    text = str(value)
    if text in PROFILES:
        return text
    if text in PROFILE_ALIASES:
        return PROFILE_ALIASES[text]
    raise SweepSpecError(
        f"{where}: unknown profile {text!r} (choose from {', '.join(PROFILE_ALIASES)} "
        f"or a full profile name: {', '.join(PROFILES)})"
    )


def _parse_variant(value: Any, where: str) -> str:
    if value in NETWORK_VARIANTS:
        return str(value)
    raise SweepSpecError(f"{where}: unknown network variant {value!r} (choose from {', '.join(NETWORK_VARIANTS)})")


def _parse_count(value: Any, where: str, minimum: int, what: str) -> int:
    if isinstance(value, bool):
        raise SweepSpecError(f"{where}: must be {what}, not {value!r}")
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or value < minimum:
        raise SweepSpecError(f"{where}: must be {what}, not {value!r}")
    return value


def _parse_nodes(value: Any, where: str) -> int:
    return _parse_count(value, where, 1, "a positive integer")


def _parse_nics(value: Any, where: str) -> int | str:
    if value == NICS_AS_NODES:
        return NICS_AS_NODES
    return _parse_count(value, where, 0, f"a NIC count (0 or more) or {NICS_AS_NODES!r}")


_AXIS_PARSERS: dict[str, Callable[[Any, str], Any]] = {
    "profile": _parse_profile,
    "variant": _parse_variant,
    "nodes": _parse_nodes,
    "nics": _parse_nics,
}


def read_matrix(path: Path) -> dict[str, Any]:
    """The matrix file's top-level mapping, with its keys checked."""
    name = label(path)
    try:
        document = read_yaml_file(path, "matrix file")
    except InputError as error:
        raise SweepSpecError(str(error)) from None
    if not isinstance(document, dict):
        raise SweepSpecError(f"{name}: a matrix file is a mapping with the keys {', '.join(MATRIX_KEYS)}")
    for key in document:
        if key not in MATRIX_KEYS:
            raise SweepSpecError(f"{name}: {key}: unknown key (allowed: {', '.join(MATRIX_KEYS)})")
    if "base" in document and not isinstance(document["base"], dict):
        raise SweepSpecError(f"{name}: base: must be a mapping of cluster settings (like gpu-cluster:cluster)")
    if "zone" in document and not isinstance(document["zone"], str):
        raise SweepSpecError(f"{name}: zone: must be a zone name such as {DEFAULT_ZONE}")
    return document


def _merge(base: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _base_cluster(stack: str | None) -> dict[str, Any]:
    if stack is None:
        return {}
    # Only the settings the file spells out: defaults stay defaults, so the cell can change what they follow.
    return load_stack(stack).cluster.model_dump(mode="json", exclude_unset=True)


def spec_from_args(args: argparse.Namespace) -> SweepSpec:
    """Flags override the matrix file axis by axis; ``--base`` settings come under the file's ``base:``."""
    document = read_matrix(args.matrix) if args.matrix else {}
    source = args.matrix.name if args.matrix else "command line"
    teardown = document.get("teardown", "destroy")
    if teardown not in TEARDOWNS:
        raise SweepSpecError(f"{source}: teardown: {teardown!r} is not one of {', '.join(TEARDOWNS)}")
    base = _merge(_base_cluster(args.base), document.get("base") or {})
    if args.ssh_key_name:
        base = _merge(base, {"security": {"ssh_key_name": args.ssh_key_name}})
    base_nodes, base_network = base.get("nodes") or {}, base.get("network") or {}
    from_base = {
        "profile": ("nodes.profile", base_nodes.get("profile")),
        "variant": ("network.variant", base_network.get("variant")),
        "nodes": ("nodes.count", base_nodes.get("count")),
        "nics": ("network.nics_per_node", base_network.get("nics_per_node")),
    }
    axes: dict[str, tuple[Any, ...]] = {}
    for axis in AXES:
        flag_values = getattr(args, axis)
        base_key, base_value = from_base[axis]
        if flag_values is not None:
            axes[axis] = _parse_axis(axis, flag_values, f"--{axis}")
        elif axis in document:
            axes[axis] = _parse_axis(axis, document[axis], f"{source}: {axis}")
        elif base_value is not None:
            axes[axis] = _parse_axis(axis, base_value, f"{source}: base.{base_key}")
        elif axis == "nics":
            axes[axis] = DEFAULT_NICS
        else:
            where = f"{source}: {axis}" if args.matrix else f"--{axis}"
            raise SweepSpecError(f"{where}: required (no value from the flags, the matrix file or --base)")
    if args.zone is not None and not args.zone.strip():
        raise SweepSpecError("--zone: must be a zone name such as us-east-3, not empty")
    zone = args.zone or document.get("zone") or base.get("zone") or DEFAULT_ZONE
    return SweepSpec(
        source=source,
        profiles=axes["profile"],
        variants=axes["variant"],
        nodes=axes["nodes"],
        nics=axes["nics"],
        zone=zone,
        base=base,
        teardown=str(teardown),
    )


def expand(spec: SweepSpec) -> list[Cell]:
    """Every distinct cell, in axis order; ``pod`` cells use no secondary NIC whatever the nics axis says."""
    cells: dict[Cell, None] = {}
    for profile, variant, nodes, nics in itertools.product(spec.profiles, spec.variants, spec.nodes, spec.nics):
        count = nodes if nics == NICS_AS_NODES else int(nics)
        cells[Cell(profile=profile, nodes=nodes, variant=variant, nics=0 if variant == "pod" else count)] = None
    return list(cells)


PLACEHOLDER_CLUSTER = "sweep-x0000"
PLACEHOLDER_VNIC_RANGE = "10.250.0.0/16"
"""Infra ID of the cluster a sweep without ``--base`` adopts: previews only (``--up`` needs ``--base``)."""


def _placeholder_nodes(zone: str) -> dict[str, Any]:
    """A sweep without a base adopts the workers of one MachineSet of a placeholder cluster."""
    # Never nodes.allow_instance_stop: a sweep does not consent to stopping workers on the user's behalf
    # (``--up`` of a cluster-network cell is refused until the --base stack opts in itself).
    return {"source": "adopt", "machineset": f"{PLACEHOLDER_CLUSTER}-gpu-{zone.rsplit('-', 1)[-1]}"}


def _cell_cluster(cell: Cell, spec: SweepSpec) -> dict[str, Any]:
    base = dict(spec.base)
    if "source" not in (base.get("nodes") or {}) and base.get("layers") != "kubernetes":
        base["openshift"] = {"infra_id": PLACEHOLDER_CLUSTER}
        base["nodes"] = {**_placeholder_nodes(spec.zone), **(base.get("nodes") or {})}
    names = (base.get("nodes") or {}).get("names")
    if isinstance(names, list) and len(names) >= cell.nodes:
        # The base lists its workers: a cell of N nodes uses the first N.
        base["nodes"] = {**base["nodes"], "names": names[: cell.nodes]}
    network = dict(base.get("network") or {})
    if network.get("variant") not in (None, cell.variant):
        # The base attached NICs for its own variant: a vNIC count means nothing to SR-IOV, and vice versa.
        network.pop("attached_nics", None)
    network.update(variant=cell.variant, nics_per_node=cell.nics)
    if cell.variant == "vnic":
        network.setdefault("vpc_cidr", PLACEHOLDER_VNIC_RANGE)
    cluster = _merge(
        base, {"name_prefix": cell.name, "zone": spec.zone, "nodes": {"profile": cell.profile, "count": cell.nodes}}
    )
    cluster["network"] = network  # replaced, not merged: the base's attached_nics may be gone
    return cluster


def plan_cells(spec: SweepSpec) -> list[CellPlan]:
    plans = []
    for cell in expand(spec):
        cluster = _cell_cluster(cell, spec)
        try:  # the stack file the cell would have, planned once: the path only labels messages, nothing is written
            stack = stack_from_config(
                cell.name, {f"{PROJECT}:{CLUSTER_KEY}": cluster}, Path(f"Pulumi.{cell.name}.yaml")
            )
        except InvalidCluster as invalid:
            plans.append(CellPlan(cell=cell, cluster=cluster, stack=None, reason="; ".join(invalid.problems)))
            continue
        plans.append(CellPlan(cell=cell, cluster=cluster, stack=stack))
    return plans


_NAME_THE_CLUSTER = {"--up": "(a stack that adopts or joins it)", "--engine argo": "(or base: in the matrix)"}


def check_plans(spec: SweepSpec, plans: list[CellPlan], deploying: str | None) -> None:
    """A matrix with no valid cell is bad input; so is deploying cells (``deploying`` names the flag:
    ``--up``, ``--engine argo``) that adopt the placeholder cluster, which only a preview can use."""
    if all(plan.stack is None for plan in plans):
        reasons = "\n".join(f"  {plan.cell.name}: {plan.reason}" for plan in plans)
        raise SweepSpecError(f"{spec.source}: every cell of the matrix is invalid:\n{reasons}")
    if deploying is not None and any(
        p.stack is not None and p.stack.cluster.openshift.infra_id == PLACEHOLDER_CLUSTER for p in plans
    ):
        raise SweepSpecError(
            f"{deploying}: name your cluster with --base STACK {_NAME_THE_CLUSTER[deploying]}; "
            "without one the cells adopt a placeholder cluster, which only a preview can use"
        )
    # Each cell's consent is checked against its own plan: a roll-out id consents to that roll-out alone.
    refused = [p for p in plans if deploying is not None and p.stack is not None and p.stack.up_refusals]
    if refused:
        first = refused[0].stack
        assert first is not None
        consent = first.cluster.nodes.allow_instance_stop
        why = (
            f"nodes.allow_instance_stop: {consent} names another roll-out ({refused[0].cell.name}'s is "
            f"{first.plan.rollout}: each cell has its own)"
            if isinstance(consent, str)
            else "nodes.allow_instance_stop is not set"
        )
        raise SweepSpecError(
            f"{deploying}: pulumi up would be refused for {', '.join(p.cell.name for p in refused)}: they stop "
            f"adopted workers to attach cluster NICs, and {why}. Read `gpu-cluster preview` of one of them, then "
            "set it (base: in the matrix file, or the --base stack)"
        )
