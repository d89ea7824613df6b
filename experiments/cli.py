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
    diff = commands.add_parser("diff", help="semantic diff of two stacks' desired state")
    diff.add_argument("a", help="stack name or stack file")
    diff.add_argument("b", help="stack name or stack file")
    diff.add_argument("--json", action="store_true", help="print the diff as JSON")
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


def _diff(args: argparse.Namespace, console: Console) -> int:
    import json

    a, b = load_stack(args.a), load_stack(args.b)
    from .diff import diff_previews, render_text
    from .preview import run_preview
    from .summary import compare, summarize

    summary = compare(summarize(a.name, a.cluster), summarize(b.name, b.cluster))
    result = diff_previews(run_preview(a), run_preview(b), summary=summary)
    if args.json:
        print(json.dumps(result.as_json(), indent=2, sort_keys=True))
    else:
        for line in render_text(result):
            console.print(line, markup=False, highlight=False)
    return 0


_COMMANDS = {"preview": _preview, "diff": _diff}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    console = Console()
    try:
        return _COMMANDS[args.command](args, console)
    except StackFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
