"""``init``: write a Pulumi project of the user's own (``Pulumi.yaml``, ``__main__.py``, one stack file), add
another shipped stack to it, or list the shipped stacks (``--list``)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.stacks.scaffold import init_project, shipped_dir, shipped_stacks

__all__ = ["run", "shell_word"]


def shell_word(path: Path) -> str:
    """``path`` as one word a POSIX shell reads back as it is (``cd`` never takes it for an option)."""
    text = str(path)
    return shlex.quote(f"./{text}" if text.startswith("-") else text)


def run(args: argparse.Namespace, console: Console) -> int:
    if args.list:
        console.print(terminal_text(f"shipped stacks, in {shipped_dir()}:"))
        for name in shipped_stacks():
            console.print(f"  {name}")
        console.print("copy one into a project of your own: gpu-cluster init DIR --from STACK (again for another)")
        return 0
    if args.directory is None:
        raise InputError("init: name DIR, the project's directory (or --list the shipped stacks)")
    written = init_project(args.directory, args.from_stack)
    for path in written:
        console.print(terminal_text(f"wrote {path}"))
    console.print(
        terminal_text(
            f"next: cd {shell_word(args.directory)} && gpu-cluster preview {shlex.quote(args.from_stack)}   "
            f"(edit Pulumi.{args.from_stack}.yaml first: zone, nodes, network; docs/install.md)"
        )
    )
    return 0
