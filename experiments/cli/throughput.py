"""``predict`` and ``calibrate``: the throughput model, for one stack or against the study."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sysconfig
from pathlib import Path

from rich.console import Console
from rich.table import Table

from experiments.base import paths
from experiments.base.errors import InputError
from experiments.cli.arguments import store_path
from experiments.results.lab import lab_shape, read_sidecar
from experiments.results.lab_points import baseline_rate, predict_point, stored_sidecar
from experiments.results.store import ResultsStore
from experiments.stacks.stackfile import load_stack
from experiments.state.summary import NotModelled, summarize
from experiments.throughput import parameters
from experiments.throughput.calibration import calibrate, calibration_table, save_params

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    if args.command != "predict":
        return _calibrate(args, console)
    if (args.stack is None) == (args.lab is None):
        raise InputError("predict: give a stack, or --lab FILE for a lab run (not both)")
    if args.one_node is not None and args.lab is None:
        raise InputError("--one-node: only with --lab")
    return _predict(args, console) if args.lab is None else _predict_lab(args, console)


def _predict_lab(args: argparse.Namespace, console: Console) -> int:
    sidecar = read_sidecar(args.lab)
    shape = lab_shape(sidecar)
    baseline = args.one_node
    if baseline is None:
        records = ResultsStore.reader(store_path(args.store)).runs()
        known = [(lab_shape(s), r.samples_per_s) for r in records if (s := stored_sidecar(r)) is not None]
        baseline = baseline_rate(shape, known)
    lab, why = predict_point(shape, baseline)
    if lab is None:
        raise InputError(f"--lab {args.lab}: {why} (record one with results add --lab, or give --one-node)")
    p = lab.prediction
    if args.json:
        body = {"stack": sidecar.stack, "lab": sidecar.model_dump(), "one_node_samples_per_s": baseline}
        print(json.dumps({**body, "local_scale": lab.local_scale, **dataclasses.asdict(p)}, indent=2, sort_keys=True))
        return 0
    link = "unshaped" if sidecar.link.gbps is None else f"{sidecar.link.gbps:g} Gbit/s"
    console.print(
        f"{sidecar.stack} in the lab: {sidecar.nodes} emulated node(s) x {sidecar.gpus_per_node} GPU(s), "
        f"{sidecar.model_cut.layers} layers, link {link} and {sidecar.link.latency_ms:g} ms "
        f"({p.bandwidth_gbps_per_node:.1f} Gbps per node over tcp)\n"
        f"  predicted {p.samples_per_s:.2f} samples/s from a one-node run at {baseline:.2f};"
        f" step {p.step_seconds:.2f} s"
        f" = node-local {p.compute_seconds + p.host_offload_seconds + p.optimizer_seconds:.2f} s"
        f" + exposed communication {p.exposed_communication_seconds:.2f} s (of {p.communication_seconds:.2f} s)",
    )
    return 0


def _predict(args: argparse.Namespace, console: Console) -> int:
    stack = load_stack(args.stack)

    try:
        summary = summarize(stack.name, stack.cluster)
    except NotModelled as reason:
        raise InputError(f"{stack.path.name}: {reason}") from None
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
    )
    return 0


def _installed(path: Path) -> bool:
    """Whether ``path`` belongs to an installed package (site-packages, or code that runs from no checkout)."""
    where = path.resolve()
    installed = {Path(sysconfig.get_path(name)).resolve() for name in ("purelib", "platlib")}
    in_site = any(where.is_relative_to(folder) for folder in installed)
    return in_site or not paths.in_checkout() or not {"site-packages", "dist-packages"}.isdisjoint(where.parts)


def _calibrate(args: argparse.Namespace, console: Console) -> int:
    target = parameters.DEFAULT_PARAMS_PATH
    if args.save and _installed(target):  # refused before the fit: nothing is computed to be thrown away
        raise InputError(
            f"calibrate --save: predict reads the fit from {target}, a file of the installed package, "
            "which --save rewrites only in a checkout (docs/install.md); keep this fit with "
            "`gpu-cluster calibrate --json > calibration.json`"
        )
    fitted = calibrate()
    rows = calibration_table(fitted)
    # Printed at the precision every machine agrees on (the fit is unique to ~1e-6, see fit()).
    params = {k: float(f"{v:.4g}") for k, v in fitted.params.fitted().items()}
    summary = {
        "rows": rows,
        "params": params,
        "in_sample": {"mape_pct": round(fitted.mape_pct, 1), "max_abs_error_pct": round(fitted.max_abs_error_pct, 1)},
        "leave_one_out": {
            "mape_pct": round(fitted.loo_mape_pct, 1),
            "max_abs_error_pct": round(fitted.loo_max_abs_error_pct, 1),
        },
    }
    saved = save_params(fitted) if args.save else None
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
        f"in-sample MAPE {fitted.mape_pct:.1f}% (max {fitted.max_abs_error_pct:.1f}%), "
        f"leave-one-out MAPE {fitted.loo_mape_pct:.1f}% (max {fitted.loo_max_abs_error_pct:.1f}%)"
    )
    console.print("fitted: " + ", ".join(f"{k}={v}" for k, v in params.items()))
    if saved is not None:
        console.print(f"wrote {saved}")
    return 0
