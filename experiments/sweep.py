"""``python -m experiments sweep``: one stack per cell of profile x variant x nodes x NICs.

The matrix comes from flags or a YAML file (same axes, plus an optional ``base:`` cluster
mapping); ``--base STACK`` starts every cell from an existing stack's cluster settings.
Cells a profile cannot run (SR-IOV on L40S, more NICs than attached) are skipped with
the validation message; only a matrix with no valid cell at all is an input error.

Each valid cell is rendered by the mock engine first, which gives its variant
fingerprint (the same whether the cell then goes through Pulumi or not), then:

* by default, ``preview`` through the Automation API: one stack per cell on a local file
  backend (``--state-dir``), the inline program being the same ``build()``;
* with ``--up``, ``up`` instead (this creates cloud resources; there is no prompt);
* with ``--offline``, nothing more: the mock engine's rendering is the result.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from pulumi.automation.errors import CommandError
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from components.catalog import PROFILES
from components.config import CLUSTER_KEY, PROJECT, ClusterConfig, NetworkVariant, describe_validation_error

from .automation import (
    EventCounter,
    LocalStackFactory,
    StackFactory,
    backend_env,
    inline_program,
    run_stack,
    stack_config,
)
from .fingerprint import fingerprint
from .outputs import check_out_file, output_path
from .preview import run_preview
from .stackfile import (
    PROJECT_ROOT,
    StackFile,
    StackFileError,
    label,
    load_stack,
    read_yaml_file,
    stack_from_config,
)
from .summary import NotModelled, summarize

__all__ = [
    "AXES",
    "Cell",
    "CellResult",
    "SweepSpec",
    "SweepSpecError",
    "add_parser",
    "expand",
    "plan_cells",
    "read_matrix",
    "run",
    "spec_from_args",
]

AXES = ("profile", "variant", "nodes", "nics")
MATRIX_KEYS = (*AXES, "zone", "base")
NICS_AS_NODES = "nodes"
"""``--nics nodes``: one NIC per node of the cell (the study's L40S vNIC rule)."""
DEFAULT_ZONE = "us-east-3"
DEFAULT_NICS: tuple[int | str, ...] = (1,)
STACK_PREFIX = "sweep"
DEFAULT_STATE_DIR = PROJECT_ROOT / ".pulumi-state"
VARIANTS: tuple[str, ...] = get_args(NetworkVariant)


class SweepSpecError(StackFileError):
    """A matrix that cannot be swept; the message names the file or flag and the field."""


def _profile_aliases() -> dict[str, str]:
    """``h100`` -> gx3d-160x1792x8h100; a family's smaller profiles get ``-<n>gpu`` (``l40s-1gpu``)."""
    aliases: dict[str, str] = {}
    for family in sorted({p.family for p in PROFILES.values()}):
        members = sorted((p for p in PROFILES.values() if p.family == family), key=lambda p: -p.gpus)
        aliases[family] = members[0].name
        for profile in members[1:]:
            aliases[f"{family}-{profile.gpus}gpu"] = profile.name
    return aliases


PROFILE_ALIASES = _profile_aliases()
SHORT_NAMES = {name: alias for alias, name in PROFILE_ALIASES.items()}


@dataclass(frozen=True)
class Cell:
    profile: str
    """Full IBM profile name."""
    nodes: int
    variant: str
    nics: int

    @property
    def short_profile(self) -> str:
        return SHORT_NAMES[self.profile]

    @property
    def name(self) -> str:
        """Stack name and IBM ``name_prefix`` at once, e.g. ``sweep-h100-2n-sriov-rdma-1nic``."""
        nics = "" if self.variant == "pod" else f"-{self.nics}nic"
        return f"{STACK_PREFIX}-{self.short_profile}-{self.nodes}n-{self.variant}{nics}"


@dataclass(frozen=True)
class SweepSpec:
    source: str
    """Where the matrix came from, for messages: the matrix file's name or ``command line``."""
    profiles: tuple[str, ...]
    variants: tuple[str, ...]
    nodes: tuple[int, ...]
    nics: tuple[int | str, ...]
    zone: str
    base: dict[str, Any] = field(default_factory=dict)
    """Cluster settings every cell starts from (``--base`` stack, then the file's ``base:``)."""


@dataclass(frozen=True)
class CellPlan:
    cell: Cell
    cluster: dict[str, Any]
    stack: StackFile | None
    reason: str | None = None
    """Why the cell is skipped (``stack`` is None)."""


@dataclass(frozen=True)
class CellResult:
    cell: Cell
    status: str
    """``ok``, ``skipped`` or ``failed``."""
    reason: str | None = None
    resources: int | None = None
    changes: dict[str, int] = field(default_factory=dict)
    fingerprint: str | None = None
    predicted_samples_per_s: float | None = None
    """The throughput model's prediction for the cell (``python -m experiments predict``)."""
    steps: dict[str, int] | None = None
    """Engine events seen (real path): steps started, done and failed."""

    def row(self) -> dict[str, Any]:
        return {
            "stack": self.cell.name,
            "profile": self.cell.profile,
            "nodes": self.cell.nodes,
            "variant": self.cell.variant,
            "nics": self.cell.nics,
            "status": self.status,
            "reason": self.reason,
            "resources": self.resources,
            "changes": self.changes,
            "fingerprint": self.fingerprint,
            "predicted_samples_per_s": self.predicted_samples_per_s,
            "steps": self.steps,
        }

    @property
    def status_text(self) -> str:
        return self.status if self.reason is None else f"{self.status}: {self.reason}"


# ---- the matrix: flags, file, validation -------------------------------------------------------------


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
    if value in VARIANTS:
        return str(value)
    raise SweepSpecError(f"{where}: unknown network variant {value!r} (choose from {', '.join(VARIANTS)})")


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
    except StackFileError as error:
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
    )


def expand(spec: SweepSpec) -> list[Cell]:
    """Every distinct cell, in axis order; ``pod`` cells use no secondary NIC whatever the nics axis says."""
    cells: dict[Cell, None] = {}
    for profile, variant, nodes, nics in itertools.product(spec.profiles, spec.variants, spec.nodes, spec.nics):
        count = nodes if nics == NICS_AS_NODES else int(nics)
        cells[Cell(profile=profile, nodes=nodes, variant=variant, nics=0 if variant == "pod" else count)] = None
    return list(cells)


def _cell_cluster(cell: Cell, spec: SweepSpec) -> dict[str, Any]:
    base = spec.base
    network = dict(base.get("network") or {})
    if network.get("variant") not in (None, cell.variant):
        # The base attached NICs for its own variant: a vNIC count means nothing to SR-IOV, and vice versa.
        network.pop("attached_nics", None)
    network.update(variant=cell.variant, nics_per_node=cell.nics)
    cluster = _merge(
        base, {"name_prefix": cell.name, "zone": spec.zone, "nodes": {"profile": cell.profile, "count": cell.nodes}}
    )
    cluster["network"] = network  # replaced, not merged: the base's attached_nics may be gone
    return cluster


def _invalid_reason(cluster: Mapping[str, Any]) -> str | None:
    try:
        ClusterConfig.model_validate(cluster)
    except ValidationError as error:
        return "; ".join(line.lstrip(".") for line in describe_validation_error(error, key=""))
    return None


def plan_cells(spec: SweepSpec) -> list[CellPlan]:
    plans = []
    for cell in expand(spec):
        cluster = _cell_cluster(cell, spec)
        reason = _invalid_reason(cluster)
        if reason is not None:
            plans.append(CellPlan(cell=cell, cluster=cluster, stack=None, reason=reason))
            continue
        # The stack file the cell would have: the path only labels messages, nothing is written.
        stack = stack_from_config(cell.name, {f"{PROJECT}:{CLUSTER_KEY}": cluster}, Path(f"Pulumi.{cell.name}.yaml"))
        plans.append(CellPlan(cell=cell, cluster=cluster, stack=stack))
    return plans


# ---- running the cells -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rendering:
    resources: int
    fingerprint: str
    predicted_samples_per_s: float | None


def render_offline(stack: StackFile) -> Rendering:
    document = run_preview(stack).document()
    return Rendering(
        resources=len(document["resources"]),
        fingerprint=fingerprint(document, stack.cluster.name_prefix),
        predicted_samples_per_s=_predicted(stack),
    )


def _predicted(stack: StackFile) -> float | None:
    try:
        return summarize(stack.name, stack.cluster).prediction.samples_per_s
    except NotModelled:
        return None


_ERROR_LINE = re.compile(r"(?:^|\s)error:\s*(.+)")


def _short_error(error: Exception) -> str:
    """The CLI's own ``error:`` line when there is one (a CommandError carries the whole output)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    for line in lines:
        match = _ERROR_LINE.search(line)
        if match:
            return match.group(1)
    return lines[-1] if lines else type(error).__name__


@dataclass
class AutomationRunner:
    factory: StackFactory
    state_dir: Path
    work_dir: Path
    ssh_public_key: str | None
    """None when every cell uses an existing key (``security.ssh_key_name``)."""
    up: bool

    def __call__(self, plan: CellPlan, rendering: Rendering, progress: Progress) -> CellResult:
        assert plan.stack is not None
        task = progress.add_task(f"  {plan.cell.name}: steps", total=None)
        counter = EventCounter(on_update=lambda c: progress.update(task, total=max(c.started, 1), completed=c.done))
        try:
            stack = self.factory.create_or_select(
                plan.cell.name, inline_program, backend_env(self.state_dir), self.work_dir
            )
            outcome = run_stack(stack, stack_config(plan.cluster, self.ssh_public_key), up=self.up, on_event=counter)
        except (CommandError, RuntimeError) as error:
            return CellResult(
                cell=plan.cell,
                status="failed",
                reason=_short_error(error),
                fingerprint=rendering.fingerprint,
                steps=_steps(counter),
                predicted_samples_per_s=rendering.predicted_samples_per_s,
            )
        finally:
            progress.remove_task(task)
        return CellResult(
            cell=plan.cell,
            status="ok",
            resources=counter.resource_count,
            changes=outcome.changes,
            fingerprint=rendering.fingerprint,
            steps=_steps(counter),
            predicted_samples_per_s=rendering.predicted_samples_per_s,
        )


def _steps(counter: EventCounter) -> dict[str, int]:
    return {"started": counter.started, "done": counter.done, "failed": counter.failed}


def _offline(plan: CellPlan, rendering: Rendering, progress: Progress) -> CellResult:
    # The mock engine plans every resource as new, as a first preview of the stack would.
    return CellResult(
        cell=plan.cell,
        status="ok",
        resources=rendering.resources,
        changes={"create": rendering.resources},
        fingerprint=rendering.fingerprint,
        predicted_samples_per_s=rendering.predicted_samples_per_s,
    )


CellRunner = Callable[[CellPlan, Rendering, Progress], CellResult]


def run_cells(plans: Sequence[CellPlan], runner: CellRunner, console: Console) -> list[CellResult]:
    results: list[CellResult] = []
    runnable = sum(1 for p in plans if p.stack is not None)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        overall = progress.add_task("cells", total=runnable)
        for plan in plans:
            if plan.stack is None:
                results.append(CellResult(cell=plan.cell, status="skipped", reason=plan.reason))
                continue
            progress.update(overall, description=f"cells ({plan.cell.name})")
            results.append(runner(plan, render_offline(plan.stack), progress))
            progress.advance(overall)
    return results


# ---- output ------------------------------------------------------------------------------------------


def _changes_text(changes: Mapping[str, int]) -> str:
    return ", ".join(f"{op} {n}" for op, n in changes.items() if n) or "-"


def render_results(results: Iterable[CellResult], operation: str, console: Console) -> None:
    """One row per cell, keyed by fingerprint; the stack name spells the cell out.  Reasons (long
    validation messages, shared by many cells) are numbered under the table."""
    table = Table(title=f"sweep ({operation})", show_edge=False)
    table.add_column("fingerprint", no_wrap=True)
    table.add_column("stack", no_wrap=True)
    table.add_column("changes", no_wrap=True)  # the resource count is in --json
    table.add_column("predicted samples/s", justify="right", no_wrap=True)
    table.add_column("status", no_wrap=True)
    notes: dict[str, int] = {}
    for result in results:
        status = result.status
        if result.reason is not None:
            status += f" [{notes.setdefault(result.reason, len(notes) + 1)}]"
        predicted = "-" if result.predicted_samples_per_s is None else f"{result.predicted_samples_per_s:.2f}"
        table.add_row(result.fingerprint or "-", result.cell.name, _changes_text(result.changes), predicted, status)
    console.print(table)
    for reason, number in notes.items():
        console.print(f"[{number}] {reason}", markup=False, highlight=False)


def results_document(results: Sequence[CellResult], operation: str, backend: str | None) -> dict[str, Any]:
    return {"project": PROJECT, "operation": operation, "backend": backend, "cells": [r.row() for r in results]}


# ---- command line ------------------------------------------------------------------------------------


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sweep",
        help="one stack per cell of profile x variant x nodes x NICs: preview (or up) each",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--matrix",
        type=Path,
        metavar="FILE",
        help=f"YAML file with the axes ({', '.join(AXES)}), optional zone and base: mapping",
    )
    parser.add_argument(
        "--profile", nargs="+", metavar="P", help=f"instance profiles: {', '.join(PROFILE_ALIASES)} or full names"
    )
    parser.add_argument("--variant", nargs="+", metavar="V", help=f"network variants: {', '.join(VARIANTS)}")
    parser.add_argument("--nodes", nargs="+", metavar="N", help="node counts")
    parser.add_argument(
        "--nics",
        nargs="+",
        metavar="K",
        help=f"NICs per node the job uses, or '{NICS_AS_NODES}' for one per node (default 1; always 0 for pod)",
    )
    parser.add_argument("--zone", help=f"IBM Cloud zone (default: the matrix's or base's, else {DEFAULT_ZONE})")
    parser.add_argument(
        "--base",
        metavar="STACK",
        help="start every cell from this stack's cluster settings (name or Pulumi.<stack>.yaml)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--offline", action="store_true", help="render every cell with the mock engine instead of Pulumi (needs no CLI)"
    )
    mode.add_argument(
        "--up",
        action="store_true",
        help="run `pulumi up` for every cell instead of preview: creates cloud resources, no prompt",
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=DEFAULT_STATE_DIR,
        help="local file backend of the sweep stacks (default: .pulumi-state/ in the project)",
    )
    parser.add_argument(
        "--secrets-provider",
        help="secrets provider of new stacks (default: passphrase, "
        "from PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE)",
    )
    keys = parser.add_mutually_exclusive_group()
    keys.add_argument(
        "--ssh-public-key-file",
        type=Path,
        metavar="FILE",
        help="public key the nodes accept; each cell creates a key from it (preview, or --up of one cell)",
    )
    keys.add_argument(
        "--ssh-key-name",
        metavar="NAME",
        help="an SSH key that exists in the region: every cell uses it (IBM refuses a second key with the "
        "same fingerprint, so --up of several cells needs this)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of the table")
    parser.add_argument("--out", type=output_path, metavar="FILE", help="also write the results as JSON to FILE")


def _read_ssh_key(path: Path | None) -> str:
    if path is None:
        raise SweepSpecError(
            "--ssh-public-key-file: required unless --offline or --ssh-key-name (the public key the nodes "
            "accept, e.g. ~/.ssh/id_ed25519.pub)"
        )
    try:
        key = path.read_text().strip()
    except OSError as error:
        raise SweepSpecError(f"--ssh-public-key-file: cannot read {path}: {error.strerror}") from None
    if not key or len(key.splitlines()) != 1 or "PRIVATE KEY" in key:
        raise SweepSpecError(f"--ssh-public-key-file: {path} is not a one-line OpenSSH public key")
    return key


def _run_checked(
    plans: list[CellPlan], args: argparse.Namespace, console: Console, factory: StackFactory | None
) -> tuple[list[CellResult], str, str | None]:
    if args.offline:
        return run_cells(plans, _offline, console), "offline", None
    factory = factory or LocalStackFactory(secrets_provider=args.secrets_provider)
    factory.preflight()
    ssh_key = None if args.ssh_key_name else _read_ssh_key(args.ssh_public_key_file)
    cloud_cells = [p for p in plans if p.stack is not None and p.stack.cluster.layers != "kubernetes"]
    if args.up and ssh_key is not None and len(cloud_cells) > 1:
        raise SweepSpecError(
            f"--ssh-public-key-file: {len(cloud_cells)} cells would each create an SSH key from the same public "
            "key, and IBM refuses a second key with one fingerprint: create it once (ibmcloud is key-create) "
            "and pass --ssh-key-name"
        )
    operation = "up" if args.up else "preview"
    args.state_dir.mkdir(parents=True, exist_ok=True)
    backend = backend_env(args.state_dir)["PULUMI_BACKEND_URL"]
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-sweep-") as work_dir:
        runner = AutomationRunner(
            factory=factory, state_dir=args.state_dir, work_dir=Path(work_dir), ssh_public_key=ssh_key, up=args.up
        )
        return run_cells(plans, runner, console), operation, backend


def run(args: argparse.Namespace, console: Console, factory: StackFactory | None = None) -> int:
    """Exit status: 0 when every valid cell succeeded, 1 when one failed; bad input raises SweepSpecError."""
    spec = spec_from_args(args)
    if args.json:  # stdout carries the JSON document alone; progress goes to stderr
        console = Console(stderr=True, soft_wrap=True, width=console.width)
    if args.out is not None:
        check_out_file(args.out, "--out")  # before any cell runs: results must not be lost at the end
    plans = plan_cells(spec)
    if all(plan.stack is None for plan in plans):
        reasons = "\n".join(f"  {plan.cell.name}: {plan.reason}" for plan in plans)
        raise SweepSpecError(f"{spec.source}: every cell of the matrix is invalid:\n{reasons}")
    results, operation, backend = _run_checked(plans, args, console, factory)
    document = results_document(results, operation, backend)
    if args.json:
        print(json.dumps(document, indent=2))
    else:
        render_results(results, operation, console)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(document, indent=2) + "\n")
        console.print(f"wrote {args.out}")
    return 1 if any(r.status == "failed" for r in results) else 0
