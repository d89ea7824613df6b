"""``python -m experiments run STACK``: arguments, reaching the cluster, and recording the result
(the job's life cycle is ``jobrun``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from .errors import StackFileError
from .kube import add_cluster_arguments
from .outputs import check_out_dir, output_path

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    run = commands.add_parser("run", help="start a deployed stack's training job, follow it, record its throughput")
    run.add_argument("stack", help="stack name or stack file (deployed with pulumi up)")
    add_cluster_arguments(run)
    run.add_argument("--benchmark", action="store_true", help="run the stack's NCCL benchmark job instead")
    run.add_argument("--timeout", type=float, default=3600.0, help="seconds before giving up (default 3600)")
    run.add_argument("--poll", type=float, default=10.0, help="seconds between status checks (default 10)")
    run.add_argument("--out", type=output_path, help="where pod logs go (default: out/runs/<stack>)")
    run.add_argument("--store", type=Path, help="results database (default: .gpu-cluster/results.sqlite)")


def run(args: argparse.Namespace, console: Console) -> int:
    from kubernetes.client.exceptions import ApiException

    from .jobrun import job_manifest_of, run_job
    from .record import record_run
    from .runlog import RunLogError
    from .stackfile import load_stack

    stack = load_stack(args.stack)
    out_dir = args.out or Path("out") / "runs" / stack.name
    check_out_dir(out_dir, "--out")
    manifest = job_manifest_of(stack, args.benchmark)
    from kubernetes import client

    from .kube import connect

    api, cluster = connect(args.kubeconfig, args.context or stack.cluster.kubernetes.context)
    custom, core = client.CustomObjectsApi(api), client.CoreV1Api(api)
    console.print(f"{stack.name}: running {manifest['metadata']['name']} on {cluster}", highlight=False)
    try:
        result = run_job(custom, core, manifest, out_dir=out_dir, timeout=args.timeout, poll=args.poll,
                         report=lambda line: console.print(f"  {line}", highlight=False))
    except ApiException as error:
        raise StackFileError(f"{cluster}: {error.status} {error.reason} for PyTorchJob "
                             f"{manifest['metadata']['namespace']}/{manifest['metadata']['name']} (is the "
                             "training operator installed and the stack deployed?)") from None
    console.print(f"  succeeded after {result.seconds:.0f} s; logs of {len(result.logs)} pod(s) in {result.log_dir}",
                  highlight=False)
    if args.benchmark:
        from .runlog import bus_bandwidth

        lines = [line for text in result.logs.values() for line in text.splitlines()]
        found = ", ".join(f"{op} {gbs:.2f} GB/s" for op, gbs in bus_bandwidth(lines).items()) or "none found"
        console.print(f"bus bandwidth at the largest size: {found} (benchmarks are not stored as training runs)",
                      highlight=False)
        return 0
    try:
        record = record_run(stack, result.logs, store_path=args.store, source="run")
    except RunLogError as error:
        raise StackFileError(f"{result.log_dir}: {error}") from None
    predicted = f", model {record.predicted_samples_per_s:.2f}" if record.predicted_samples_per_s else ""
    console.print(f"recorded run {record.id}: {record.samples_per_s:.2f} samples/s{predicted} "
                  f"(transport {record.transport or '-'})", highlight=False)
    return 0
