"""``export-results`` and ``pull-results``: bringing the in-cluster results store home.

The in-cluster store (on the state PVC) keeps every run; nothing here deletes from it. An export is
one JSON document: every run as the store has it (fingerprint, commit, measurement, prediction),
its count and the sha256 of the runs, so a document cut short by a lost connection is recognised
and refused whole. ``pull-results`` imports a document (a file, ``-`` for stdin, a copied store
file, or ``--from-cluster``: a short pod on the claim prints it, its log is read) into the local
store in ONE transaction: all runs or none. A run already present (every field equal but the local
id) is skipped, so pulling again adds nothing and a pull cut short leaves the store as it was.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sqlite3
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from rich.console import Console

from .errors import StackFileError
from .outputs import output_path

__all__ = ["EXPORT_FORMAT", "add_parsers", "export_document", "import_runs", "parse_export", "run"]

EXPORT_FORMAT = "gpu-cluster-results/1"
MAX_EXPORT_BYTES = 256 * 1024 * 1024
_TEXT = ("recorded_at", "stack", "fingerprint", "source")
_OPTIONAL_TEXT = ("git_commit", "transport")
_INTEGER = ("steps_counted",)
_FLOAT = ("samples_per_s", "step_time_mean_s")
_OPTIONAL_INTEGER = ("ranks", "gpus")


def _record_fields() -> list[str]:
    from .results_store import RunRecord

    return [f.name for f in fields(RunRecord) if f.name != "id"]


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
    remote.add_argument("--namespace", default="gpu-cluster", help="namespace of the state PVC (default gpu-cluster)")
    remote.add_argument("--state-claim", default="gpu-cluster-state", help="the state PVC (default gpu-cluster-state)")
    remote.add_argument("--image", help="the project image (the one the workflow ran)")
    remote.add_argument("--service-account", default="gpu-cluster-runner", help="the pod's ServiceAccount")
    remote.add_argument("--kubeconfig", type=Path, help="kubeconfig (default KUBECONFIG or ~/.kube/config)")
    remote.add_argument("--context", help="kubeconfig context")
    remote.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the pod (default 300)")


def _digest(runs: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(runs, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def export_document(store: Path, stack: str | None = None, last: int | None = None) -> dict[str, Any]:
    """Every run of ``store`` (read-only: the store is never migrated or written by an export)."""
    names = _record_fields()
    rows = _read_store(store)
    runs = [{k: row.get(k) for k in names} for row in rows if stack is None or row.get("stack") == stack]
    if last is not None:
        runs = runs[-last:] if last > 0 else []
    return {"format": EXPORT_FORMAT, "count": len(runs), "sha256": _digest(runs), "runs": runs}


def _read_store(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise StackFileError(f"{path}: no such results database")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0)
        try:
            cursor = db.execute("SELECT * FROM runs ORDER BY recorded_at, id")
            columns = [c[0] for c in cursor.description]
            return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
        finally:
            db.close()
    except sqlite3.Error as error:
        raise StackFileError(f"{path}: not a results database ({error})") from None


def _valid(key: str, value: Any) -> bool:
    if key in _TEXT:
        return isinstance(value, str) and bool(value)
    if key in _OPTIONAL_TEXT:
        return value is None or isinstance(value, str)
    if value is None:
        return key not in _INTEGER and key not in _FLOAT
    if isinstance(value, bool):
        return False
    if key in _INTEGER or key in _OPTIONAL_INTEGER:
        return isinstance(value, int)
    return isinstance(value, (int, float)) and math.isfinite(value)


def _check_run(run: Any, where: str) -> dict[str, Any]:
    names = _record_fields()
    if not isinstance(run, dict) or set(run) != set(names):
        raise StackFileError(f"{where}: a run has exactly the fields {', '.join(names)}")
    for key in names:
        if not _valid(key, run[key]):
            raise StackFileError(f"{where}: run of {run.get('stack')!r}: {key}: {run[key]!r} is not a valid value")
    return run


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
    """(imported, already present), in one transaction."""
    from .results_store import ResultsStore

    ResultsStore(store)  # creates or migrates the local store first
    names = _record_fields()
    match = " AND ".join(f"{n} IS ?" for n in names)
    insert = f"INSERT INTO runs ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})"
    db = sqlite3.connect(store, timeout=30.0, isolation_level=None)
    imported = present = 0
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            for run in runs:
                values = tuple(run[n] for n in names)
                if db.execute(f"SELECT 1 FROM runs WHERE {match} LIMIT 1", values).fetchone():
                    present += 1
                else:
                    db.execute(insert, values)
                    imported += 1
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.close()
    return imported, present


def _source_runs(args: argparse.Namespace) -> tuple[list[dict[str, Any]], str]:
    if args.from_cluster:
        if args.source:
            raise StackFileError("pull-results: give a SOURCE or --from-cluster, not both")
        from .results_remote import export_from_cluster

        return parse_export(export_from_cluster(args), "the cluster's export"), f"{args.namespace}/{args.state_claim}"
    if not args.source:
        raise StackFileError("pull-results: name a SOURCE (export file, - or a results database) or --from-cluster")
    if args.source == "-":
        return parse_export(sys.stdin.read(MAX_EXPORT_BYTES), "stdin"), "stdin"
    path = Path(args.source)
    try:
        head = path.read_bytes()[:16]
    except OSError as error:
        raise StackFileError(f"{path}: cannot read ({error.strerror})") from None
    if head.startswith(b"SQLite format 3"):
        runs = export_document(path)["runs"]
        return [_check_run(run, str(path)) for run in runs], str(path)
    if path.stat().st_size > MAX_EXPORT_BYTES:
        raise StackFileError(f"{path}: larger than any export this tool writes")
    return parse_export(path.read_text(errors="replace"), str(path)), str(path)


def run(args: argparse.Namespace, console: Console) -> int:
    from .results_store import default_store_path

    if args.command == "export-results":
        if args.last is not None and args.last < 0:
            raise StackFileError(f"--last {args.last}: a count of runs (0 or more)")
        text = json.dumps(export_document(args.store or default_store_path(), args.stack, args.last), indent=1)
        if str(args.out) == "-":
            print(text)
        else:
            from .outputs import check_out_file

            check_out_file(args.out, "--out")
            args.out.write_text(text + "\n")
        return 0
    runs, source = _source_runs(args)
    store = args.store or default_store_path()
    imported, present = import_runs(store, runs)
    console.print(f"{source}: imported {imported} run(s) into {store}, {present} already there", highlight=False)
    return 0
