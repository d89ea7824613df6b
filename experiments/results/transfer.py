"""``export-results`` and ``pull-results``: bringing the in-cluster results store home.

The in-cluster store (on the state PVC) keeps every run; nothing here deletes from it. An export is
one JSON document: every run as the store has it (fingerprint, commit, measurement, prediction),
its count and the sha256 of the runs, so a document cut short by a lost connection is recognised
and refused whole. ``pull-results`` imports a document (a file, ``-`` for stdin, a copied store
file, or ``--from-cluster``: a short pod on the claim prints it, its log is read) into the local
store in ONE transaction: all runs or none. A run already present (every field equal but the local
id, or the same logs by ``logs_digest``) is skipped, so pulling again adds nothing and a pull cut short
leaves the store as it was.

The stores follow ``results.store``: an export and a store given as the source are opened read-only;
the local store is checked before any work (a foreign, newer or corrupt file is one message) and
written in one transaction. A run from an older store lacks the newer optional fields (they import
as empty); a field this version does not know (a newer one wrote it) refuses the document.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import MISSING, asdict, fields
from pathlib import Path
from typing import Any

from experiments.base.bounded import figure_problem
from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text
from experiments.results.store import ResultsStore, RunRecord, StoreError

__all__ = ["EXPORT_FORMAT", "MAX_EXPORT_BYTES", "check_run", "export_document", "import_runs", "parse_export"]

EXPORT_FORMAT = "gpu-cluster-results/1"
MAX_EXPORT_BYTES = 256 * 1024 * 1024
MAX_TEXT = 4096
"""The longest text field of a run (a stack name, a source): a row is shown and looked up by it."""


def _record_fields() -> list[str]:
    return [f.name for f in fields(RunRecord) if f.name != "id"]


def _kinds() -> dict[str, tuple[str, bool, bool]]:
    """Field -> (type, may be None, may be absent: a field a store of an older schema lacks)."""
    return {
        f.name: (str(f.type).split(" | ")[0], "None" in str(f.type), f.default is not MISSING)
        for f in fields(RunRecord)
        if f.name != "id"
    }


def _digest(runs: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(runs, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def export_document(store: Path, stack: str | None = None, last: int | None = None) -> dict[str, Any]:
    """Every run of ``store``, opened read-only (never created, migrated or written; a foreign, newer
    or corrupt file is one ``StoreError``)."""
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
        return isinstance(value, str) and (optional or bool(value)) and len(value) <= MAX_TEXT
    # Counts whole and figures finite, both within what a run can have (never negative, never an overflow).
    return figure_problem(key, value, count=kind == "int") is None


def check_run(run: Any, where: str) -> dict[str, Any]:
    """One run as the local store takes it; a field an older store lacks reads as None, a field this
    version does not know refuses the document (a newer gpu-cluster wrote it)."""
    kinds = _kinds()
    if not isinstance(run, dict):
        raise InputError(f"{where}: a run is not an object; nothing was imported")
    unknown = sorted(terminal_text(str(k))[:60] for k in run if k not in kinds)
    if unknown:
        raise InputError(
            f"{where}: a run has field(s) {', '.join(unknown[:5])} this gpu-cluster does not know "
            "(a newer one wrote it: update the project); nothing was imported"
        )
    missing = [k for k, (_, _, absent_ok) in kinds.items() if k not in run and not absent_ok]
    if missing:
        raise InputError(f"{where}: a run lacks {', '.join(missing)}; nothing was imported")
    complete = {k: run.get(k) for k in kinds}
    for key, value in complete.items():
        if not _valid(key, value):
            raise InputError(
                f"{where}: run of {terminal_text(repr(complete.get('stack'))[:80])}: {key}: "
                f"{terminal_text(repr(value)[:80])} is not a valid value; nothing was imported"
            )
    ranks, gpus = complete.get("ranks"), complete.get("gpus")
    if ranks is not None and gpus is not None and ranks != gpus:  # both from one log: one job has one size
        raise InputError(
            f"{where}: run of {terminal_text(repr(complete.get('stack'))[:80])}: ranks {ranks} and gpus {gpus} "
            "contradict each other (its log cannot say both); nothing was imported"
        )
    return complete


def parse_export(text: str, where: str) -> list[dict[str, Any]]:
    """The runs of an export document, refused whole unless complete and well formed."""
    try:
        document = json.loads(text)
    except RecursionError:
        raise InputError(f"{where}: nested too deeply to be an export document; nothing was imported") from None
    except ValueError:
        raise InputError(f"{where}: not a complete export document (cut short? nothing was imported)") from None
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InputError(f"{where}: not a {EXPORT_FORMAT} export document")
    runs = document.get("runs")
    if not isinstance(runs, list) or document.get("count") != len(runs) or document.get("sha256") != _digest(runs):
        raise InputError(f"{where}: the runs do not match the document's count and sha256; nothing was imported")
    return [check_run(run, where) for run in runs]


def import_runs(store: Path, runs: list[dict[str, Any]]) -> tuple[int, int]:
    """(imported, already present), in one transaction of the store (created or migrated first; a
    foreign, newer or corrupt one is refused whole); ``ResultsStore.add_new`` says what is present."""
    return ResultsStore(store).add_new([RunRecord(**run) for run in runs])


def runs_from_source(source: str) -> tuple[list[dict[str, Any]], str]:
    """The runs of an export document (a file, or ``-`` for stdin) or of a copied results database,
    each checked, and how to name the source; the file is hostile input (size-capped, regular only)."""
    if source == "-":
        return parse_export(sys.stdin.read(MAX_EXPORT_BYTES), "stdin"), "stdin"
    path = Path(source)
    if not path.is_file():  # a FIFO or device would block the read
        raise InputError(f"{terminal_text(path)}: no such file, or not a regular file")
    try:
        with path.open("rb") as handle:
            head = handle.read(16)
    except OSError as error:
        raise InputError(f"{terminal_text(path)}: cannot read ({error.strerror})") from None
    if head.startswith(b"SQLite format 3"):
        runs = export_document(path)["runs"]
        return [check_run(run, str(path)) for run in runs], str(path)
    if path.stat().st_size > MAX_EXPORT_BYTES:
        raise InputError(f"{path}: larger than any export this tool writes")
    return parse_export(path.read_text(errors="replace"), str(path)), str(path)
