"""``report``: the Markdown table and PNG charts of measured runs against the model and the study."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from experiments.base.owned_files import check_owned_files
from experiments.cli.arguments import store_path
from experiments.results.lab_points import lab_points
from experiments.results.report import REPORT_FILES, write_report
from experiments.results.runs import recorded_runs
from experiments.results.store import ResultsStore

__all__ = ["run"]

DEFAULT_OUT = Path("out") / "report"


def run(args: argparse.Namespace, console: Console) -> int:
    out = args.out or DEFAULT_OUT
    check_owned_files(out, list(REPORT_FILES), "--out", given=args.out is not None)
    store = store_path(args.store)
    runs = recorded_runs(store)  # a bad store stops the report before anything is written
    lab = lab_points(ResultsStore.reader(store).runs())
    for path in write_report(out, runs=runs, lab=lab):
        console.print(f"wrote {path}")
    return 0
