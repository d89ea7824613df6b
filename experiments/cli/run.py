"""``python -m experiments run STACK``: arguments, reaching the cluster, and recording the result
(the job's life cycle is ``jobrun``). ``--timeout`` bounds the whole command, every request to the
cluster included; Ctrl-C keeps the logs collected so far and says how to go on."""

from __future__ import annotations

import argparse
from pathlib import Path

from kubernetes.client.exceptions import ApiException
from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.owned_files import check_out_dir
from experiments.cli.arguments import store_path
from experiments.live.jobrun import JobRun, job_manifest_of, run_job
from experiments.live.kube import DeadlineReached, Kube, KubeError, connect, deadline_alarm
from experiments.results.record import project_stack, record_run
from experiments.results.runlog import RunLogError, bus_bandwidth
from experiments.results.store import ResultsStore
from experiments.stacks.stackfile import StackFile, load_stack

__all__ = ["run"]


def _interrupted(console: Console, stack: str, job: str, log_dir: Path | None) -> int:
    kept = f"logs collected so far are in {log_dir}; " if log_dir is not None else ""
    console.print(
        f"interrupted: {job} keeps running in the cluster; {kept}`python -m experiments run "
        f"{stack}` starts it afresh, and `python -m experiments results add {stack} --log FILE ...` "
        "records logs you collect yourself"
    )
    return 130


def run(args: argparse.Namespace, console: Console) -> int:
    stack = load_stack(args.stack)
    out_dir = args.out or Path("out") / "runs" / stack.name
    check_out_dir(out_dir, "--out", given=args.out is not None)
    manifest = job_manifest_of(stack, args.benchmark)
    if not args.benchmark:  # checked before the run: its result must have somewhere to go
        project_stack(stack)
        ResultsStore.reader(store_path(args.store, writes=True))
    job = f"PyTorchJob {manifest['metadata']['namespace']}/{manifest['metadata']['name']}"
    log_dirs: list[Path] = []
    with deadline_alarm(args.timeout):
        try:
            kube = connect(args.kubeconfig, args.context or stack.cluster.kubernetes.context, args.timeout)
            console.print(f"{stack.name}: running {manifest['metadata']['name']} on {kube.server}")
            result = _run_job(args, console, kube, manifest, job, out_dir, log_dirs)
        except DeadlineReached:
            kept = f"; logs collected so far are in {log_dirs[0]}" if log_dirs else ""
            raise InputError(
                f"--timeout {args.timeout:g} s reached: the cluster did not answer in time "
                f"({job} keeps running there){kept}"
            ) from None
        except KeyboardInterrupt:
            return _interrupted(console, stack.name, job, log_dirs[0] if log_dirs else None)
    console.print(f"  succeeded after {result.seconds:.0f} s; logs of {len(result.logs)} pod(s) in {result.log_dir}")
    return _record(args, console, stack, result)


def _run_job(
    args: argparse.Namespace,
    console: Console,
    kube: Kube,
    manifest: dict[str, object],
    job: str,
    out_dir: Path,
    log_dirs: list[Path],
) -> JobRun:
    """The job on a reachable cluster: its API refusals and the deadline said as input errors."""
    try:
        return run_job(
            kube,
            manifest,
            out_dir=out_dir,
            poll=args.poll,
            on_log_dir=log_dirs.append,
            report=lambda line: console.print(f"  {line}"),
        )
    except ApiException as error:
        raise InputError(
            kube.api_error(error, f"for {job} (is the training operator installed and the stack deployed?)")
        ) from None
    except KubeError as error:
        if kube.remaining() > 0:
            raise
        raise InputError(
            f"{job} not done at --timeout {args.timeout:g} s ({error}); it keeps running in the cluster"
        ) from None


def _record(args: argparse.Namespace, console: Console, stack: StackFile, result: JobRun) -> int:
    if args.benchmark:
        lines = [line for text in result.logs.values() for line in text.splitlines()]
        found = ", ".join(f"{op} {gbs:.2f} GB/s" for op, gbs in bus_bandwidth(lines).items()) or "none found"
        console.print(f"bus bandwidth at the largest size: {found} (benchmarks are not stored as training runs)")
        return 0
    try:
        record = record_run(stack, result.logs, store_path=store_path(args.store, writes=True), source="run")
    except RunLogError as error:
        raise InputError(f"{result.log_dir}: {error}") from None
    predicted = f", model {record.predicted_samples_per_s:.2f}" if record.predicted_samples_per_s else ""
    console.print(
        f"recorded run {record.id}: {record.samples_per_s:.2f} samples/s{predicted} "
        f"(transport {record.transport or '-'})"
    )
    return 0
