"""``python -m experiments``: parse, run the chosen verb (its parser names it, imported only now), map errors
to exit codes."""

from __future__ import annotations

import sys

from experiments.base.console import plain_console
from experiments.base.errors import InputError
from experiments.cli.parser import build_parser

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "main"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Wide when piped, so tables keep whole node names.
    console = plain_console(width=None if sys.stdout.isatty() else 160)
    try:
        return int(args.verb(args, console))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # commands with work to keep say more themselves (run, sweep, approve-csrs)
        print("interrupted: nothing more was done", file=sys.stderr)
        return EXIT_INTERRUPTED

