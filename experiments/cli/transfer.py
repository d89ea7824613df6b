"""``export-results`` and ``pull-results``: recorded runs out of a store as one checked document, and
into the local store from an export, another store or the cluster's store, idempotently."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from experiments.base.errors import InputError
from experiments.base.owned_files import check_owned_files, write_owned_files
from experiments.base.safe_text import terminal_text
from experiments.cli.arguments import store_path
from experiments.incluster.remote import ExportRequest, export_from_cluster
from experiments.results import transfer
from experiments.results.store import ResultsStore

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    if args.command == "export-results":
        if args.last is not None and args.last < 0:
            raise InputError(f"--last {args.last}: a count of runs (0 or more)")
        to_stdout = str(args.out) == "-"
        if not to_stdout:  # checked before the store is read: a bad --out costs nothing
            check_owned_files(args.out.parent, [args.out.name], "--out", named=args.out)
        text = json.dumps(transfer.export_document(store_path(args.store), args.stack, args.last), indent=1)
        if to_stdout:
            print(text)
        else:
            write_owned_files(args.out.parent, {args.out.name: (text + "\n").encode()})
        return 0
    store = store_path(args.store, writes=True)
    ResultsStore.reader(store)  # a foreign, newer or corrupt local store is refused before any work
    runs, source = _source_runs(args)
    imported, present = transfer.import_runs(store, runs)
    console.print(terminal_text(f"{source}: imported {imported} run(s) into {store}, {present} already there"))
    return 0


def _source_runs(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    if args.from_cluster:
        if args.source:
            raise InputError("pull-results: give a SOURCE or --from-cluster, not both")
        request = ExportRequest(
            namespace=args.namespace,
            state_claim=args.state_claim,
            image=args.image,
            service_account=args.service_account,
            kubeconfig=args.kubeconfig,
            context=args.context,
            timeout=args.timeout,
        )
        text = export_from_cluster(request, transfer.MAX_EXPORT_BYTES)
        return transfer.parse_export(text, "the cluster's export"), f"{args.namespace}/{args.state_claim}"
    if not args.source:
        raise InputError("pull-results: name a SOURCE (export file, - or a results database) or --from-cluster")
    return transfer.runs_from_source(args.source)
