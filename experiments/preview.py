"""``python -m experiments preview``: the stack's desired state, offline."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from components.program import PROJECT, build, load

from .engine import EngineResult, run_offline
from .stackfile import PROJECT_ROOT, StackFile, load_stack

__all__ = ["Preview", "render_preview", "run_preview", "write_preview"]


@dataclass(frozen=True)
class Preview:
    stack: StackFile
    result: EngineResult

    def document(self) -> dict[str, Any]:
        return {
            "project": PROJECT,
            "stack": self.stack.name,
            "resources": [r.as_json() for r in self.result.resources],
            "outputs": self.result.outputs,
        }


def run_preview(stack: str | StackFile, root: Path = PROJECT_ROOT) -> Preview:
    stack_file = stack if isinstance(stack, StackFile) else load_stack(stack, root)
    result = run_offline(
        lambda: build(load()).outputs(),
        project=PROJECT, stack=stack_file.name,
        config=stack_file.engine_config, secret_keys=stack_file.secret_keys,
    )
    return Preview(stack=stack_file, result=result)


def write_preview(preview: Preview, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "preview.json"
    path.write_text(json.dumps(preview.document(), indent=2, sort_keys=True) + "\n")
    return [path]


def render_preview(preview: Preview, console: Console) -> None:
    cfg = preview.stack.cluster
    console.print(
        f"[bold]{PROJECT}/{preview.stack.name}[/]: {cfg.nodes.count} x {cfg.nodes.profile} in {cfg.zone}, "
        f"network [bold]{cfg.network.variant}[/] ({cfg.network.nics_per_node} NIC(s) per node used by the job)"
    )
    counts = Counter(r.type for r in preview.result.resources)
    by_type = Table(title=f"{len(preview.result.resources)} resources", show_edge=False)
    by_type.add_column("type")
    by_type.add_column("count", justify="right")
    for token, count in sorted(counts.items()):
        by_type.add_row(token, str(count))
    console.print(by_type)

    nics = Table(title="NIC inventory", show_edge=False)
    for column in ("node", "nic", "role", "pod iface", "subnet", "ip", "job"):
        nics.add_column(column)
    for nic in preview.result.outputs.get("nics", []):
        nics.add_row(nic["node"], str(nic["index"]), nic["role"],
                     "" if nic["role"] == "primary" else f"net{nic['index']}",
                     nic["subnet_cidr"], nic["ip"], "yes" if nic["used_by_job"] else "")
    console.print(nics)
