"""``python -m experiments``: parse, import only the chosen verb's module, map errors to exit codes."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

from rich.console import Console

from experiments.base.errors import InputError
from experiments.cli.parser import build_parser

__all__ = ["COMMANDS", "EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "main"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130

COMMANDS = {
    "init": "init",
    "package-schema": "package_schema",
    "preview": "preview",
    "diff": "diff",
    "predict": "throughput",
    "calibrate": "throughput",
    "report": "report",
    "sweep": "sweep",
    "results": "results",
    "results add": "results_add",
    "run": "run",
    "approve-csrs": "csr",
    "stack": "stack",
    "pko": "incluster",
    "export-results": "transfer",
    "pull-results": "transfer",
}
"""Each verb's module in ``experiments.cli``, imported when it runs: ``--help`` imports no Pulumi. A
subcommand with a module of its own is keyed ``"<command> <subcommand>"``."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Wide when piped, so tables keep whole node names.
    console = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 160)
    try:
        verb = import_module(f"experiments.cli.{COMMANDS.get(_subcommand(args), COMMANDS[args.command])}")
        return int(verb.run(args, console))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # commands with work to keep say more themselves (run, sweep, approve-csrs)
        print("interrupted: nothing more was done", file=sys.stderr)
        return EXIT_INTERRUPTED


def _subcommand(args: argparse.Namespace) -> str:
    """``results add`` for ``results add``: the command, then its subcommand (``<command>_command``)."""
    sub = getattr(args, f"{args.command.replace('-', '_')}_command", None)
    return f"{args.command} {sub}" if sub else args.command
