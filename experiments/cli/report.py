"""``report``: the Markdown table and PNG charts of measured runs against the model and the study."""

from __future__ import annotations

import argparse

from rich.console import Console

from experiments.base.owned_files import check_owned_files
from experiments.results.lab_points import lab_points
from experiments.results.report import REPORT_FILES, write_report
from experiments.results.runs import recorded_runs
from experiments.results.store import ResultsStore, default_store_path

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    check_owned_files(args.out, list(REPORT_FILES), "--out")
    runs = recorded_runs(args.store)  # a bad store stops the report before anything is written
    lab = lab_points(ResultsStore.reader(args.store or default_store_path()).runs())
    for path in write_report(args.out, runs=runs, lab=lab):
        console.print(f"wrote {path}")
    return 0
