"""``python -m experiments``: parse, run the chosen verb (its parser names it, imported only now), map errors
to exit codes."""

from __future__ import annotations

import argparse
import os
import sys

from experiments.base.console import plain_console
from experiments.base.errors import InputError
from experiments.cli.parser import build_parser

__all__ = ["EXIT_BAD_INPUT", "EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "main", "quiet_stdout"]

EXIT_BAD_INPUT = 2
MAX_KUBECONFIG_BYTES = 16 * 2**20
"""A kubeconfig of many clusters with embedded certificates is well under 1 MiB."""
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a command whose reader went away."""


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Wide when piped, so tables keep whole node names.
    console = plain_console(width=None if sys.stdout.isatty() else 160)
    try:
        _named_files_exist(args)
        return int(args.verb(args, console))
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # commands with work to keep say more themselves (run, sweep, approve-csrs)
        print("interrupted: nothing more was done", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # piped into `head`, which has read enough: no traceback, the usual status
        quiet_stdout()
        return EXIT_BROKEN_PIPE


def _named_files_exist(args: argparse.Namespace) -> None:
    """A kubeconfig the user names is used or refused, never ignored by a run that happens not to need it (a
    report of workers without Nodes, an import without --from-cluster)."""
    kubeconfig = getattr(args, "kubeconfig", None)
    if kubeconfig is not None and not kubeconfig.is_file():
        raise InputError(f"--kubeconfig {kubeconfig}: {kubeconfig} is not a regular file")
    # The client and the secret masking each read it whole: a 2 GiB file took 2 GiB of memory, then the deadline.
    if kubeconfig is not None and kubeconfig.stat().st_size > MAX_KUBECONFIG_BYTES:
        raise InputError(
            f"--kubeconfig {kubeconfig}: larger than {MAX_KUBECONFIG_BYTES // 2**20} MiB, not a kubeconfig"
        )
    # A state directory that is a file, a FIFO or a device was used as no cache at all (preview, diff) or
    # failed half-way (sweep --up): it is made when absent, refused when something else is in its place.
    state_dir = getattr(args, "state_dir", None)
    if state_dir is not None and os.path.lexists(state_dir) and not state_dir.is_dir():
        raise InputError(f"--state-dir {state_dir}: exists and is not a directory")


def quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush of what the reader never took
    raises nothing more (the advice of Python's ``signal`` documentation, "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (a test's capture): nothing to flush
        pass
