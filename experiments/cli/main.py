"""Argument parsing and exit codes for ``python -m experiments``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from experiments.base.errors import StackFileError
from experiments.base.owned_files import check_owned_dir, check_owned_files, output_path
from experiments.cli.csr import add_parser as add_approve_csrs_parser
from experiments.cli.incluster import add_pko_parser
from experiments.cli.results import add_parser as add_results_parser
from experiments.cli.run import add_parser as add_run_parser
from experiments.cli.stack import add_parser as add_stack_parser
from experiments.cli.sweep_args import add_parser as add_sweep_parser
from experiments.incluster.pull import add_parsers as add_results_transfer_parsers

__all__ = ["main"]

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m experiments", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    preview = commands.add_parser("preview", help="run a stack's program offline and write its desired state")
    preview.add_argument("stack", help="stack name (reads Pulumi.<stack>.yaml) or path to a stack file")
    preview.add_argument("--out", type=output_path, help="output directory (default: out/<stack>)")
    diff = commands.add_parser("diff", help="semantic diff of two stacks' desired state (exit 1 when they differ)")
    diff.add_argument("a", help="stack name or stack file")
    diff.add_argument("b", help="stack name or stack file")
    diff.add_argument("--json", action="store_true", help="print the diff as JSON")
    predict = commands.add_parser("predict", help="predicted throughput of a stack (calibrated on the study)")
    predict.add_argument("stack", help="stack name or stack file")
    predict.add_argument("--json", action="store_true", help="print the prediction as JSON")
    calibrate = commands.add_parser("calibrate", help="fit the throughput model to the study; in-sample and LOO error")
    calibrate.add_argument("--save", action="store_true", help="write the fitted parameters where predict reads them")
    calibrate.add_argument("--json", action="store_true", help="print the table as JSON")
    report = commands.add_parser("report", help="Markdown table and PNG charts: measured vs predicted")
    report.add_argument("--out", type=output_path, default=Path("out/report"),
                        help="output directory (default: out/report)")
    report.add_argument("--store", type=Path, help="results database whose runs the report shows")
    add_sweep_parser(commands)
    add_results_parser(commands)
    add_run_parser(commands)
    add_approve_csrs_parser(commands)
    add_stack_parser(commands)
    add_pko_parser(commands)
    add_results_transfer_parsers(commands)
    return parser


def _preview(args: argparse.Namespace, console: Console) -> int:
    from experiments.stacks.stackfile import load_stack

    stack = load_stack(args.stack)  # validates before the program (and any resource) runs
    from experiments.state.preview import render_preview, run_preview, write_preview

    out_dir = args.out or Path("out") / stack.name
    check_owned_files(out_dir, ["preview.json"], "--out")
    check_owned_dir(out_dir / "manifests", "--out")
    preview = run_preview(stack)
    written = write_preview(preview, out_dir)
    render_preview(preview, console)
    console.print(f"wrote {', '.join(str(p) for p in written)}", highlight=False, markup=False)
    return 0


def _diff(args: argparse.Namespace, console: Console) -> int:
    import json

    from experiments.stacks.stackfile import load_stack

    stacks, problems = [], []
    for arg in (args.a, args.b):
        try:
            stacks.append(load_stack(arg))
        except StackFileError as error:
            problems.append(str(error))
    if problems:
        raise StackFileError("\nerror: ".join(problems))
    a, b = stacks
    from experiments.state.diff import diff_stacks
    from experiments.state.diff_text import render_text
    from experiments.state.summary import NotModelled, compare, summarize

    try:
        summary = compare(summarize(a.name, a.cluster), summarize(b.name, b.cluster))
    except NotModelled as reason:
        summary = f"{a.name} → {b.name}: no throughput prediction ({reason})."
    result = diff_stacks(a, b, summary=summary)
    if args.json:
        print(json.dumps(result.as_json(), indent=2, sort_keys=True))
    else:
        for line in render_text(result):
            console.print(line, markup=False, highlight=False)
    return 1 if result.differs else 0


def _predict(args: argparse.Namespace, console: Console) -> int:
    import dataclasses
    import json

    from experiments.stacks.stackfile import load_stack

    stack = load_stack(args.stack)
    from experiments.state.summary import NotModelled, summarize

    try:
        summary = summarize(stack.name, stack.cluster)
    except NotModelled as reason:
        raise StackFileError(f"{stack.path.name}: {reason}") from None
    prediction = dataclasses.asdict(summary.prediction)
    if args.json:
        print(json.dumps({"stack": stack.name, **prediction}, indent=2, sort_keys=True))
        return 0
    p = summary.prediction
    console.print(
        f"{stack.name}: {summary.nodes} x {summary.profile}, "
        f"{summary.variant} with {summary.nics_used} NIC(s) per node "
        f"({summary.bandwidth_gbps_per_node:.1f} Gbps per node over {summary.transport})\n"
        f"  predicted {p.samples_per_s:.2f} samples/s; step {p.step_seconds:.2f} s = compute {p.compute_seconds:.2f} s"
        f" + exposed communication {p.exposed_communication_seconds:.2f} s (of {p.communication_seconds:.2f} s)"
        f" + host offload {p.host_offload_seconds:.2f} s + CPU optimizer {p.optimizer_seconds:.2f} s\n"
        f"  GPU utilization {p.gpu_utilization:.0%}; bottleneck: {p.bottleneck}",
        highlight=False, markup=False,
    )
    return 0


def _calibrate(args: argparse.Namespace, console: Console) -> int:
    import json

    from rich.table import Table

    from experiments.throughput import calibrate, calibration_table, save_params

    calibration = calibrate()
    rows = calibration_table(calibration)
    # Printed at the precision every machine agrees on (the fit is unique to ~1e-6, see fit()).
    summary = {
        "rows": rows,
        "params": {k: float(f"{v:.4g}") for k, v in calibration.params.fitted().items()},
        "in_sample": {"mape_pct": round(calibration.mape_pct, 1),
                      "max_abs_error_pct": round(calibration.max_abs_error_pct, 1)},
        "leave_one_out": {"mape_pct": round(calibration.loo_mape_pct, 1),
                          "max_abs_error_pct": round(calibration.loo_max_abs_error_pct, 1)},
    }
    saved = save_params(calibration) if args.save else None
    if args.json:
        print(json.dumps({**summary, **({"saved": str(saved)} if saved else {})}, indent=2))
        return 0
    table = Table(title="throughput model vs the study (samples/s)", show_edge=False)
    for column in ("row", "measured", "predicted", "error %", "leave-one-out error %"):
        table.add_column(column, justify="left" if column == "row" else "right")
    for row in rows:
        table.add_row(
            str(row["row"]),
            f"{row['measured']:.2f}",
            f"{row['predicted']:.2f}",
            f"{row['error_pct']:+.1f}",
            f"{row['loo_error_pct']:+.1f}",
        )
    console.print(table)
    console.print(
        f"in-sample MAPE {calibration.mape_pct:.1f}% (max {calibration.max_abs_error_pct:.1f}%), "
        f"leave-one-out MAPE {calibration.loo_mape_pct:.1f}% (max {calibration.loo_max_abs_error_pct:.1f}%)"
    )
    console.print("fitted: " + ", ".join(f"{k}={v}" for k, v in summary["params"].items()))
    if saved is not None:
        console.print(f"wrote {saved}", highlight=False, markup=False)
    return 0


def _report(args: argparse.Namespace, console: Console) -> int:
    from experiments.cli.results import recorded_runs
    from experiments.results.report import REPORT_FILES, write_report

    check_owned_files(args.out, list(REPORT_FILES), "--out")
    runs = recorded_runs(args.store)  # a bad store stops the report before anything is written
    for path in write_report(args.out, runs=runs):
        console.print(f"wrote {path}", highlight=False, markup=False)
    return 0


def _run(args: argparse.Namespace, console: Console) -> int:
    from experiments.cli.run import run

    return run(args, console)


def _approve_csrs(args: argparse.Namespace, console: Console) -> int:
    from experiments.cli.csr import run

    return run(args, console)


def _results(args: argparse.Namespace, console: Console) -> int:
    from experiments.cli.results import run

    return run(args, console)


def _sweep(args: argparse.Namespace, console: Console) -> int:
    if args.spec is not None:
        if args.matrix is not None:
            raise StackFileError(f"{args.spec}: give the matrix file once (SPEC or --matrix)")
        args.matrix = args.spec
    from experiments.cli.incluster import refuse_engine_flags, run_argo

    if args.engine == "argo":
        return run_argo(args, console)
    refuse_engine_flags(args)
    from experiments.cli.sweep import run

    return run(args, console)


def _in_cluster(args: argparse.Namespace, console: Console) -> int:
    """``stack``, ``pko``, ``export-results`` and ``pull-results``: the in-cluster commands."""
    if args.command == "stack":
        from experiments.cli.stack import run as run_stack

        return run_stack(args, console)
    if args.command == "pko":
        from experiments.cli.incluster import run_pko

        return run_pko(args, console)
    from experiments.incluster.pull import run as run_transfer

    return run_transfer(args, console)


_COMMANDS = {
    "preview": _preview,
    "diff": _diff,
    "predict": _predict,
    "calibrate": _calibrate,
    "report": _report,
    "sweep": _sweep,
    "results": _results,
    "run": _run,
    "approve-csrs": _approve_csrs,
    "stack": _in_cluster,
    "pko": _in_cluster,
    "export-results": _in_cluster,
    "pull-results": _in_cluster,
}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # Wide when piped, so tables keep whole node names.
    console = Console(soft_wrap=True, width=None if sys.stdout.isatty() else 160)
    try:
        return _COMMANDS[args.command](args, console)
    except StackFileError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # commands with work to keep say more themselves (run, sweep, approve-csrs)
        print("interrupted: nothing more was done", file=sys.stderr)
        return EXIT_INTERRUPTED
