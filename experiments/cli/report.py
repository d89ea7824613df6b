"""``report``: the Markdown table and PNG charts of measured runs against the model and the study."""

from __future__ import annotations

import argparse

from rich.console import Console

from experiments.base.owned_files import check_owned_files
from experiments.results.report import REPORT_FILES, write_report
from experiments.results.runs import recorded_runs

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    check_owned_files(args.out, list(REPORT_FILES), "--out")
    runs = recorded_runs(args.store)  # a bad store stops the report before anything is written
    for path in write_report(args.out, runs=runs):
        console.print(f"wrote {path}")
    return 0
