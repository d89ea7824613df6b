"""``sweep``'s arguments, importable without Pulumi so that ``--help`` stays instant."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from experiments.base.owned_files import output_path
from experiments.sweep.cells import AXES, DEFAULT_STATE_DIR, DEFAULT_ZONE, NICS_AS_NODES, PROFILE_ALIASES, VARIANTS

__all__ = ["add_parser"]


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
    parser.add_argument("--out", type=output_path, metavar="FILE",
                        help="also write the results as JSON to FILE (with --engine argo: the DIR of the YAML files)")
    from experiments.cli.incluster import add_engine_arguments

    add_engine_arguments(parser)
