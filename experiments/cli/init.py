"""``init``: write a Pulumi project of the user's own (``Pulumi.yaml``, ``__main__.py``, one stack file)."""

from __future__ import annotations

import argparse

from rich.console import Console

from experiments.stacks.scaffold import init_project

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    written = init_project(args.directory, args.from_stack)
    for path in written:
        console.print(f"wrote {path}")
    console.print(
        f"next: cd {args.directory} && gpu-cluster preview {args.from_stack}   "
        f"(edit Pulumi.{args.from_stack}.yaml first: zone, nodes, network; docs/install.md)"
    )
    return 0
