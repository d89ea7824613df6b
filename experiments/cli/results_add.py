"""``results add``: record a run from pod logs collected elsewhere.

It reads regular files only (a FIFO or a device would block it), checked before any is opened, and
records only stacks of the project (``Pulumi.<stack>.yaml`` beside ``Pulumi.yaml``), so that a
recorded run always names a stack ``results`` and ``report`` can find.
"""

from __future__ import annotations

import argparse

from rich.console import Console

from experiments.base.errors import InputError
from experiments.cli.arguments import store_path
from experiments.results.lab import read_sidecar
from experiments.results.record import project_stack, record_run
from experiments.results.runlog import RunLogError
from experiments.results.runs import read_log_files
from experiments.results.store import ResultsStore

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    stack = project_stack(args.stack)
    store = store_path(args.store, writes=True)
    ResultsStore.reader(store)  # a foreign, newer or corrupt store is refused before anything is read
    lab = getattr(args, "lab", None)
    if lab is not None and args.gpus:
        raise InputError("--gpus and --lab: a lab run's GPUs are its sidecar's; give one or the other")
    sidecar = read_sidecar(lab) if lab is not None else None
    logs = read_log_files(args.log)
    try:
        record = record_run(stack, logs, store_path=store, source="results add", proof_gpus=args.gpus, lab=sidecar)
    except RunLogError as error:
        raise InputError(f"--log {', '.join(map(str, args.log))}: {error}") from None
    proof = f" as a {args.gpus}-GPU proof" if args.gpus else ""
    if sidecar is not None:
        link = "unshaped" if sidecar.link.gbps is None else f"{sidecar.link.gbps:g} Gbit/s"
        shared = ", sharing GPUs" if sidecar.shared_gpu else ""
        proof = f" as a lab run ({sidecar.nodes} emulated node(s) x {sidecar.gpus_per_node} GPU(s){shared}, {link})"
    console.print(
        f"recorded run {record.id} of {record.stack}{proof}: {record.samples_per_s:.2f} samples/s over "
        f"{record.steps_counted} steps (fingerprint {record.fingerprint})"
    )
    return 0
