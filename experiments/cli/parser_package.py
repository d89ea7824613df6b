"""The arguments of the verbs around the package itself: ``init`` (a project of the user's own) and
``package-schema`` (the component package's schema, for other Pulumi languages)."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["DEFAULT_INIT_STACK", "add_package_parsers"]

DEFAULT_INIT_STACK = "dev"


def add_package_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = commands.add_parser("init", help="write a Pulumi project of your own: Pulumi.yaml, __main__.py, a stack")
    init.add_argument("directory", type=Path, metavar="DIR", help="the project's directory (created if absent)")
    init.add_argument(
        "--from",
        dest="from_stack",
        default=DEFAULT_INIT_STACK,
        metavar="STACK",
        help=f"the shipped stack to start from (default {DEFAULT_INIT_STACK})",
    )
    commands.add_parser(
        "package-schema", help="print the component package's schema (what `pulumi package get-schema` prints)"
    )
