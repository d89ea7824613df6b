"""A stack's desired state, offline: run the program under the mock engine, the preview document and
its manifests, and how the ``preview`` verb (``experiments.cli.preview``) shows them."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from components.models.config import PROJECT
from components.models.main_ds_options import MAIN_DS_MODULE, MAIN_DS_VERSION, effective_options
from components.program import pulumi_program
from experiments.base.owned_files import replace_owned_files, write_owned_files
from experiments.base.safe_text import terminal_text
from experiments.offline.engine import EngineResult, run_offline
from experiments.stacks.stackfile import StackFile, load_stack
from experiments.state.preview_notes import simulated_document, simulated_lines, stop_lines, stops_document
from experiments.state.render_cache import RenderCache
from experiments.state.summary import NotModelled, summarize

__all__ = [
    "Preview",
    "kubernetes_manifests",
    "manifest_file_name",
    "manifest_yaml",
    "preview_json",
    "render_preview",
    "cached_preview",
    "run_preview",
    "write_preview",
]

_KUBERNETES_PREFIX = "kubernetes:"


@dataclass(frozen=True)
class Preview:
    stack: StackFile
    result: EngineResult

    def document(self) -> dict[str, Any]:
        return {
            "project": PROJECT,
            "stack": self.stack.name,
            "simulated": simulated_document(self.stack.cluster),
            "stops": stops_document(self.stack.plan),
            "diagnostics": self.result.diagnostics,
            "resources": [r.as_json() for r in self.result.resources],
            "outputs": self.result.outputs,
        }


def run_preview(stack: str | StackFile, root: Path | None = None, *, unknowns: bool = False) -> Preview:
    """``unknowns``: what providers compute is unknown, as ``pulumi preview`` has it (``run_offline``)."""
    stack_file = stack if isinstance(stack, StackFile) else load_stack(stack, root)
    stack_file.require_secrets()
    # The program every stack runs, given what the stack file already validated, looked up and planned.
    result = run_offline(
        lambda: pulumi_program(stack_file.planned),
        project=PROJECT,
        stack=stack_file.name,
        config=stack_file.engine_config,
        secret_keys=stack_file.secret_keys,
        cluster=stack_file.simulated,
        unknowns=unknowns,
    )
    return Preview(stack=stack_file, result=result)


def cached_preview(stack: StackFile, renders: RenderCache | None) -> Preview:
    """``run_preview``, unless ``renders`` (the state directory's) holds this very render; kept there if not."""
    found = renders.load(stack) if renders is not None else None
    return Preview(stack, found) if found is not None else _kept(run_preview(stack), renders)


def _kept(preview: Preview, renders: RenderCache | None) -> Preview:
    if renders is not None:
        renders.store(preview.stack, preview.result)
    return preview


def kubernetes_manifests(preview: Preview) -> list[dict[str, Any]]:
    """Every Kubernetes object the stack declares, as it would be applied."""
    manifests = []
    for resource in preview.result.resources:
        if resource.custom and resource.type.startswith(_KUBERNETES_PREFIX):
            manifest = dict(resource.inputs)
            manifests.append({"apiVersion": manifest.pop("apiVersion"), "kind": manifest.pop("kind"), **manifest})
    return manifests


_HEAD_KEYS = ("apiVersion", "kind", "metadata")


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def manifest_yaml(manifest: dict[str, Any]) -> str:
    """apiVersion, kind, metadata first, everything else in sorted order: the engine's key
    order varies from run to run, and a file must not."""
    head = {k: _sorted_keys(manifest[k]) for k in _HEAD_KEYS if k in manifest}
    rest = {k: _sorted_keys(manifest[k]) for k in sorted(manifest) if k not in _HEAD_KEYS}
    return yaml.safe_dump({**head, **rest}, sort_keys=False, default_flow_style=False)


def manifest_file_name(manifest: dict[str, Any]) -> str:
    """``<kind>_<namespace>_<name>.yaml``: sorts by kind, so two stacks' directories diff well."""
    metadata = manifest.get("metadata", {})
    parts = [manifest["kind"], metadata.get("namespace", "cluster-scoped"), metadata.get("name", "unnamed")]
    return "_".join(re.sub(r"[^A-Za-z0-9.-]+", "-", str(p)).lower() for p in parts) + ".yaml"


def preview_json(preview: Preview) -> str:
    """The text of ``preview.json``."""
    return json.dumps(preview.document(), indent=2, sort_keys=True) + "\n"


def write_preview(preview: Preview, out_dir: Path) -> list[Path]:
    """``preview.json`` and ``manifests/`` into ``out_dir``, recorded in its index (the caller
    checked first that neither is a file this tool did not write: ``base.owned_files.check_owned_files``)."""
    written = write_owned_files(out_dir, {"preview.json": preview_json(preview).encode()})
    manifests = kubernetes_manifests(preview)
    # A previous stack's objects must not linger beside this one's (a directory diff would lie),
    # but only the files the last preview wrote are ever removed.
    files = {manifest_file_name(m): manifest_yaml(m) for m in manifests}
    if replace_owned_files(out_dir / "manifests", files):
        written.append(out_dir / "manifests")
    return written


NIC_TABLE_NODES = 4
"""Nodes whose NICs the summary lists: enough to read the pattern, never thousands of rows."""


def render_preview(preview: Preview, console: Console, training_options: bool = False) -> None:
    """The summary ``preview`` prints; ``training_options``: also every option main_ds runs with."""
    cfg = preview.stack.cluster
    for line in simulated_lines(cfg):
        console.print(line)
    console.print(
        f"[bold]{PROJECT}/{escape(terminal_text(preview.stack.name))}[/]: "
        f"{cfg.nodes.count} x {cfg.nodes.profile} in {cfg.zone}, "
        f"network [bold]{cfg.network.variant}[/] ({cfg.network.nics_per_node} NIC(s) per node used by the job)",
        markup=True,
    )
    for key in preview.stack.stand_ins:
        console.print(
            f"note: {key} is not set; this offline preview stands in a placeholder key. pulumi up needs it: "
            f'pulumi config set --secret {key} "$(cat ~/.ssh/id_ed25519.pub)"'
        )
    for line in stop_lines(cfg, preview.stack.plan):
        console.print(line)
    counts = Counter(r.type for r in preview.result.resources)
    by_type = Table(title=f"{len(preview.result.resources)} resources", show_edge=False)
    by_type.add_column("type")
    by_type.add_column("count", justify="right")
    for token, count in sorted(counts.items()):
        by_type.add_row(token, str(count))
    console.print(by_type)

    inventory = preview.result.outputs.get("nics", [])
    nodes = list(dict.fromkeys(nic["node"] for nic in inventory))
    shown = set(nodes[:NIC_TABLE_NODES])
    title = (
        "NIC inventory"
        if len(nodes) <= NIC_TABLE_NODES
        else f"NIC inventory (first {NIC_TABLE_NODES} of {len(nodes)} nodes; every NIC is in preview.json)"
    )
    nics = Table(title=title, show_edge=False)
    for column in ("node", "nic", "role", "pod iface", "subnet", "ip", "job"):
        nics.add_column(column)
    for nic in (n for n in inventory if n["node"] in shown):
        nics.add_row(
            nic["node"],
            str(nic["index"]),
            nic["role"],
            "" if nic["role"] == "primary" else f"net{nic['index']}",
            nic["subnet_cidr"],
            nic["ip"],
            "yes" if nic["used_by_job"] else "",
        )
    console.print(nics)
    if training_options:
        _render_training_options(cfg.job, console)

    try:
        summary = summarize(preview.stack.name, cfg)
    except NotModelled as reason:
        console.print(f"predicted: - ({reason})")
        return
    p = summary.prediction
    console.print(
        f"predicted: {p.samples_per_s:.2f} samples/s, GPU utilization {p.gpu_utilization:.0%} "
        f"({summary.bandwidth_gbps_per_node:.1f} Gbps per node over {summary.transport}; bottleneck {p.bottleneck}) "
        "- gpu-cluster predict for the breakdown",
    )


def _render_training_options(job: Any, console: Console) -> None:
    """Every option main_ds runs with: config.json's values, and main_ds's defaults for the rest."""
    if not job.enabled or job.training_script or job.training_module != MAIN_DS_MODULE:
        return
    written = job.training.config_json()
    table = Table(
        title=f"main_ds options (instructlab-training {MAIN_DS_VERSION}): config.json, then defaults", show_edge=False
    )
    for column in ("option", "value", "from"):
        table.add_column(column)
    for option, value in effective_options(written).items():
        table.add_row(option, json.dumps(value), "config.json" if option in written else "main_ds default")
    console.print(table)
