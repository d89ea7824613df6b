"""Argument parsing and exit codes for ``python -m experiments``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from .stackfile import StackFileError, load_stack

__all__ = ["main"]

EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m experiments", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    preview = commands.add_parser("preview", help="run a stack's program offline and write its desired state")
    preview.add_argument("stack", help="stack name (reads Pulumi.<stack>.yaml) or path to a stack file")
    preview.add_argument("--out", type=Path, help="output directory (default: out/<stack>)")
    return parser


def _preview(args: argparse.Namespace, console: Console) -> int:
    stack = load_stack(args.stack)  # validates before the program (and any resource) runs
    from .preview import render_preview, run_preview, write_preview

    preview = run_preview(stack)
    out_dir = args.out or Path("out") / preview.stack.name
    written = write_preview(preview, out_dir)
    render_preview(preview, console)
    console.print(f"wrote {', '.join(str(p) for p in written)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    console = Console()
    try:
        return _preview(args, console)
    except StackFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
