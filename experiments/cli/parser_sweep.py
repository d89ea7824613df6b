"""``sweep``'s arguments: the matrix's axes, how each cell runs, and the in-cluster engine's options."""

from __future__ import annotations

import argparse
from pathlib import Path

from components.models.config import NETWORK_VARIANTS
from experiments.cli.arguments import add_cluster_arguments, add_settings_arguments, output_path, positive_seconds
from experiments.incluster.settings import DEFAULT_RUN_SECONDS
from experiments.sweep.cells import (
    AXES,
    DEFAULT_STATE_DIR,
    DEFAULT_ZONE,
    NICS_AS_NODES,
    PROFILE_ALIASES,
    TEARDOWNS,
)

__all__ = ["add_sweep_parser"]

SWEEP_DESCRIPTION = """One stack per cell of profile x variant x nodes x NICs, from flags or a matrix file (same axes,
plus an optional zone and base: mapping). Cells a profile cannot run are skipped with the validation
message. Each valid cell is rendered offline first (its fingerprint), then previewed, brought up
(--up) or left at that (--offline); --engine argo writes a Workflow that runs the cells in the cluster."""


def add_sweep_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "sweep",
        help="one stack per cell of profile x variant x nodes x NICs: preview (or up) each",
        description=SWEEP_DESCRIPTION,
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
    parser.add_argument("--variant", nargs="+", metavar="V", help=f"network variants: {', '.join(NETWORK_VARIANTS)}")
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
    parser.add_argument(
        "--out",
        type=output_path,
        metavar="FILE",
        help="also write the results as JSON to FILE (with --engine argo: the DIR of the YAML files)",
    )
    _add_engine_arguments(parser)
    return parser


def _add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """The in-cluster options (the positional SPEC is the matrix file)."""
    parser.add_argument("spec", nargs="?", type=Path, metavar="SPEC", help="matrix file (the same as --matrix)")
    parser.add_argument(
        "--engine",
        choices=("local", "argo"),
        default="local",
        help="local: run the cells from here (default); argo: write an Argo Workflow that runs "
        "them in the cluster (--out DIR)",
    )
    argo = parser.add_argument_group("--engine argo")
    argo.add_argument(
        "--teardown",
        choices=TEARDOWNS,
        help="after a cell's run: destroy (default), keep-last (the last cell of each chain stays) "
        "or keep; a matrix file may say teardown: too",
    )
    argo.add_argument(
        "--run-timeout",
        type=int,
        default=DEFAULT_RUN_SECONDS,
        metavar="SECONDS",
        help=f"each cell's run --timeout (default {DEFAULT_RUN_SECONDS})",
    )
    argo.add_argument("--submit", action="store_true", help="also create the objects and the Workflow, and follow it")
    add_cluster_arguments(argo)  # with --submit
    argo.add_argument(
        "--poll", type=positive_seconds, default=15.0, help="with --submit: seconds between reads (default 15)"
    )
    argo.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="with --submit: seconds the command may take, every request included (default: the "
        "workflow's longest run by its step deadlines); the workflow keeps running after it",
    )
    add_settings_arguments(parser)
