"""``package-schema``: the component package's schema, as ``pulumi package get-schema`` prints it."""

from __future__ import annotations

import argparse
import json

from rich.console import Console

from components.package import package_schema

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    print(json.dumps(package_schema(), indent=2, sort_keys=True))
    return 0
