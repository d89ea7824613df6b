"""``export-results`` and ``pull-results``: bringing the in-cluster results store home.

The in-cluster store (on the state PVC) keeps every run; nothing here deletes from it. An export is
one JSON document: every run as the store has it (fingerprint, commit, measurement, prediction),
its count and the sha256 of the runs, so a document cut short by a lost connection is recognised
and refused whole. ``pull-results`` imports a document (a file, ``-`` for stdin, a copied store
file, or ``--from-cluster``: a short pod on the claim prints it, its log is read) into the local
store in ONE transaction: all runs or none. A run already present (every field equal but the local
id, or the same logs by ``logs_digest``) is skipped, so pulling again adds nothing and a pull cut short
leaves the store as it was.

The stores follow ``results_store``: an export and a store given as the source are opened read-only;
the local store is checked before any work (a foreign, newer or corrupt file is one message) and
written in one transaction. A run from an older store lacks the newer optional fields (they import
as empty); a field this version does not know (a newer one wrote it) refuses the document.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from dataclasses import MISSING, asdict, fields
from pathlib import Path
from typing import Any

from rich.console import Console

from experiments.base.errors import StackFileError
from experiments.base.owned_files import output_path
from experiments.base.safe_text import terminal_text
from experiments.incluster.settings import DEFAULT_ACCOUNT, DEFAULT_NAMESPACE, DEFAULT_STATE_CLAIM
from experiments.live.kube import add_cluster_arguments, positive_seconds

__all__ = ["EXPORT_FORMAT", "add_parsers", "export_document", "import_runs", "parse_export", "run"]

EXPORT_FORMAT = "gpu-cluster-results/1"
MAX_EXPORT_BYTES = 256 * 1024 * 1024


def _record_fields() -> list[str]:
    from experiments.results.store import RunRecord

    return [f.name for f in fields(RunRecord) if f.name != "id"]


def _kinds() -> dict[str, tuple[str, bool, bool]]:
    """Field -> (type, may be None, may be absent: a field a store of an older schema lacks)."""
    from experiments.results.store import RunRecord

    return {f.name: (str(f.type).split(" | ")[0], "None" in str(f.type), f.default is not MISSING)
            for f in fields(RunRecord) if f.name != "id"}


def add_parsers(commands: Any) -> None:
    export = commands.add_parser("export-results", help="print (or write) recorded runs as one checked JSON document")
    export.add_argument("--store", type=Path, help="results database (default: .gpu-cluster/results.sqlite)")
    export.add_argument("--stack", help="only this stack's runs")
    export.add_argument("--last", type=int, metavar="N", help="only the N most recent runs")
    export.add_argument("--out", type=output_path, default=Path("-"), help="file to write (default: - for stdout)")
    pull = commands.add_parser("pull-results", help="import runs from an export or another store, idempotently")
    pull.add_argument("source", nargs="?", help="export document, - for stdin, or a results database file")
    pull.add_argument("--store", type=Path, help="local results database (default: .gpu-cluster/results.sqlite)")
    remote = pull.add_argument_group("--from-cluster: read the in-cluster store through a short pod")
    remote.add_argument("--from-cluster", action="store_true", help="export on the cluster's state PVC, then import")
    remote.add_argument("--namespace", default=DEFAULT_NAMESPACE,
                        help=f"namespace of the state PVC (default {DEFAULT_NAMESPACE})")
    remote.add_argument("--state-claim", default=DEFAULT_STATE_CLAIM,
                        help=f"the state PVC (default {DEFAULT_STATE_CLAIM})")
    remote.add_argument("--image", help="the project image (the one the workflow ran)")
    remote.add_argument("--service-account", default=DEFAULT_ACCOUNT, help="the pod's ServiceAccount")
    add_cluster_arguments(remote)
    remote.add_argument("--timeout", type=positive_seconds, default=300.0,
                        help="seconds the command may take, every request included (default 300)")


def _digest(runs: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(runs, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def export_document(store: Path, stack: str | None = None, last: int | None = None) -> dict[str, Any]:
    """Every run of ``store``, opened read-only (never created, migrated or written; a foreign, newer
    or corrupt file is one ``StoreError``)."""
    from experiments.results.store import ResultsStore, StoreError

    reader = ResultsStore.reader(store)
    if not reader.exists:
        raise StoreError(f"store {store}: no such results database")
    runs = [{k: v for k, v in asdict(record).items() if k != "id"} for record in reader.runs(stack)]
    if last is not None:
        runs = runs[-last:] if last > 0 else []
    return {"format": EXPORT_FORMAT, "count": len(runs), "sha256": _digest(runs), "runs": runs}


def _valid(key: str, value: Any) -> bool:
    kind, optional, _ = _kinds()[key]
    if value is None:
        return optional
    if isinstance(value, bool):
        return False
    if kind == "str":
        return isinstance(value, str) and (optional or bool(value))
    if kind == "int":
        return isinstance(value, int)
    return isinstance(value, (int, float)) and math.isfinite(value)


def _check_run(run: Any, where: str) -> dict[str, Any]:
    """One run as the local store takes it; a field an older store lacks reads as None, a field this
    version does not know refuses the document (a newer gpu-cluster wrote it)."""
    kinds = _kinds()
    if not isinstance(run, dict):
        raise StackFileError(f"{where}: a run is not an object; nothing was imported")
    unknown = sorted(terminal_text(str(k))[:60] for k in run if k not in kinds)
    if unknown:
        raise StackFileError(f"{where}: a run has field(s) {', '.join(unknown[:5])} this gpu-cluster does not know "
                             "(a newer one wrote it: update the project); nothing was imported")
    missing = [k for k, (_, _, absent_ok) in kinds.items() if k not in run and not absent_ok]
    if missing:
        raise StackFileError(f"{where}: a run lacks {', '.join(missing)}; nothing was imported")
    complete = {k: run.get(k) for k in kinds}
    for key, value in complete.items():
        if not _valid(key, value):
            raise StackFileError(f"{where}: run of {terminal_text(repr(complete.get('stack'))[:80])}: {key}: "
                                 f"{terminal_text(repr(value)[:80])} is not a valid value; nothing was imported")
    return complete


def parse_export(text: str, where: str) -> list[dict[str, Any]]:
    """The runs of an export document, refused whole unless complete and well formed."""
    try:
        document = json.loads(text)
    except ValueError:
        raise StackFileError(f"{where}: not a complete export document (cut short? nothing was imported)") from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise StackFileError(f"{where}: not a {EXPORT_FORMAT} export document")
    runs = document.get("runs")
    if not isinstance(runs, list) or document.get("count") != len(runs) or document.get("sha256") != _digest(runs):
        raise StackFileError(f"{where}: the runs do not match the document's count and sha256; nothing was imported")
    return [_check_run(run, where) for run in runs]


def import_runs(store: Path, runs: list[dict[str, Any]]) -> tuple[int, int]:
    """(imported, already present), in one transaction of the store (created or migrated first; a
    foreign, newer or corrupt one is refused whole). A run is present when every field but the local
    id is equal, or when its logs (``logs_digest``) are recorded already, under whatever record."""
    from experiments.results.store import ResultsStore

    names = _record_fields()
    match = " AND ".join(f"{n} IS ?" for n in names)
    insert = f"INSERT INTO runs ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})"
    imported = present = 0
    with ResultsStore(store).writing() as db:
        for run in runs:
            values = tuple(run[n] for n in names)
            digest = run.get("logs_digest")
            if (digest is not None and db.execute("SELECT 1 FROM runs WHERE logs_digest = ?", (digest,)).fetchone()
                    or db.execute(f"SELECT 1 FROM runs WHERE {match} LIMIT 1", values).fetchone()):
                present += 1
            else:
                db.execute(insert, values)
                imported += 1
    return imported, present


def _source_runs(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    if args.from_cluster:
        if args.source:
            raise StackFileError("pull-results: give a SOURCE or --from-cluster, not both")
        from experiments.incluster.remote import export_from_cluster

        text = export_from_cluster(args, MAX_EXPORT_BYTES)
        return parse_export(text, "the cluster's export"), f"{args.namespace}/{args.state_claim}"
    if not args.source:
        raise StackFileError("pull-results: name a SOURCE (export file, - or a results database) or --from-cluster")
    if args.source == "-":
        return parse_export(sys.stdin.read(MAX_EXPORT_BYTES), "stdin"), "stdin"
    path = Path(args.source)
    if not path.is_file():  # a FIFO or device would block the read
        raise StackFileError(f"{terminal_text(path)}: no such file, or not a regular file")
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as error:
        raise StackFileError(f"{terminal_text(path)}: cannot read ({error.strerror})") from None
    if head.startswith(b"SQLite format 3"):
        runs = export_document(path)["runs"]
        return [_check_run(run, str(path)) for run in runs], str(path)
    if path.stat().st_size > MAX_EXPORT_BYTES:
        raise StackFileError(f"{path}: larger than any export this tool writes")
    return parse_export(path.read_text(errors="replace"), str(path)), str(path)


def run(args: argparse.Namespace, console: Console) -> int:
    from experiments.results.store import ResultsStore, default_store_path

    if args.command == "export-results":
        if args.last is not None and args.last < 0:
            raise StackFileError(f"--last {args.last}: a count of runs (0 or more)")
        to_stdout = str(args.out) == "-"
        if not to_stdout:  # checked before the store is read: a bad --out costs nothing
            from experiments.base.owned_files import check_owned_files

            check_owned_files(args.out.parent, [args.out.name], "--out")
        text = json.dumps(export_document(args.store or default_store_path(), args.stack, args.last), indent=1)
        if to_stdout:
            print(text)
        else:
            from experiments.base.owned_files import write_owned_files

            write_owned_files(args.out.parent, {args.out.name: (text + "\n").encode()})
        return 0
    store = args.store or default_store_path()
    ResultsStore.reader(store)  # a foreign, newer or corrupt local store is refused before any work
    runs, source = _source_runs(args)
    imported, present = import_runs(store, runs)
    console.print(terminal_text(f"{source}: imported {imported} run(s) into {store}, {present} already there"),
                  highlight=False, markup=False)
    return 0
