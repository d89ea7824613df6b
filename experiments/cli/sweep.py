"""``sweep``: the cells run from here (Automation API or offline), or ``--engine argo``.

The rules live in ``sweep``: the matrix and its checks in ``sweep.matrix``, what deploying asks
(cells side by side, the SSH key) and the runners in ``sweep.runners``; this verb wires the flags to them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from rich.console import Console

from experiments.base.console import plain_console
from experiments.base.errors import InputError
from experiments.base.owned_files import check_owned_files, write_owned_files
from experiments.cli.incluster import refuse_engine_flags, run_argo

# A module reference: tests stand in for the factory there (no Pulumi CLI here).
from experiments.stacks import automation
from experiments.stacks.automation import StackFactory, backend_env
from experiments.sweep.cells import CellPlan, CellResult
from experiments.sweep.matrix import check_plans, plan_cells, spec_from_args
from experiments.sweep.runners import (
    AutomationRunner,
    check_one_key_per_fingerprint,
    check_side_by_side,
    offline_cell,
    read_ssh_key,
    run_cells,
)
from experiments.sweep.table import render_results, results_document


def _run_checked(
    plans: list[CellPlan], args: argparse.Namespace, console: Console, factory: StackFactory | None
) -> tuple[list[CellResult], str, str | None]:
    if args.offline:
        return run_cells(plans, offline_cell, console), "offline", None
    if args.up:
        check_side_by_side(plans)
    factory = factory or automation.LocalStackFactory(secrets_provider=args.secrets_provider)
    factory.preflight()
    ssh_key = None if args.ssh_key_name else read_ssh_key(args.ssh_public_key_file)
    if args.up:
        check_one_key_per_fingerprint(plans, ssh_key)
    operation = "up" if args.up else "preview"
    args.state_dir.mkdir(parents=True, exist_ok=True)
    backend = backend_env(args.state_dir)["PULUMI_BACKEND_URL"]
    with tempfile.TemporaryDirectory(prefix="gpu-cluster-sweep-") as work_dir:
        runner = AutomationRunner(
            factory=factory, state_dir=args.state_dir, work_dir=Path(work_dir), ssh_public_key=ssh_key, up=args.up
        )
        return run_cells(plans, runner, console), operation, backend


def run(args: argparse.Namespace, console: Console, factory: StackFactory | None = None) -> int:
    """Cells run from here, or with ``--engine argo`` rendered (and submitted) as a Workflow."""
    if args.spec is not None:
        if args.matrix is not None:
            raise InputError(f"{args.spec}: give the matrix file once (SPEC or --matrix)")
        args.matrix = args.spec
    if args.engine == "argo":
        return run_argo(args, console)
    refuse_engine_flags(args)
    return _run_here(args, console, factory)


def _run_here(args: argparse.Namespace, console: Console, factory: StackFactory | None) -> int:
    """Exit status: 0 when every valid cell succeeded, 1 when one failed; bad input raises SweepSpecError."""
    spec = spec_from_args(args)
    if args.ssh_public_key_file is not None:  # a file the user names is read, whatever the run needs of it
        read_ssh_key(args.ssh_public_key_file)
    if args.json:  # stdout carries the JSON document alone; progress goes to stderr
        console = plain_console(stderr=True, width=console.width)
    if args.out is not None:
        # before any cell runs: results must not be lost at the end, nor overwrite a file of the user's
        check_owned_files(args.out.parent, [args.out.name], "--out", named=args.out)
    plans = plan_cells(spec)
    check_plans(spec, plans, "--up" if args.up and not args.offline else None)
    results, operation, backend = _run_checked(plans, args, console, factory)
    document = results_document(results, operation, backend)
    if args.json:
        print(json.dumps(document, indent=2))
    else:
        render_results(results, operation, console)
    if args.out:
        write_owned_files(args.out.parent, {args.out.name: (json.dumps(document, indent=2) + "\n").encode()})
        console.print(f"wrote {args.out}")
    if any(r.status == "interrupted" for r in results):
        done = sum(1 for r in results if r.status in ("ok", "failed"))
        console.print(
            f"interrupted after {done} cell(s): their results are kept above"
            f"{' and in ' + str(args.out) if args.out else ''}; run the same command again to go on "
            "(a cell already up shows no changes the second time)"
        )
        return 130
    return 1 if any(r.status == "failed" for r in results) else 0
