"""The results store: one SQLite row per measured run, embedded, safe for concurrent writers.

The file lives in the project's state directory (``.gpu-cluster/results.sqlite``; ``--store PATH``
or ``GPU_CLUSTER_RESULTS`` elsewhere). Its schema version is SQLite's ``user_version`` and opening
a store migrates it forward, one step at a time, inside a transaction. Writers use WAL mode and a
busy timeout, and each insert is one transaction, so two ``results add`` (or a ``run`` beside an
``add``) never corrupt the file or lose a row.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TypeVar

__all__ = ["DEFAULT_STORE", "MIGRATIONS", "RunRecord", "ResultsStore", "default_store_path"]

DEFAULT_STORE = Path(__file__).resolve().parents[1] / ".gpu-cluster" / "results.sqlite"

MIGRATIONS: tuple[str, ...] = (
    # v1: the run, its measurement and the model's prediction at the time.
    """CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        recorded_at TEXT NOT NULL,
        stack TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        git_commit TEXT,
        source TEXT NOT NULL,
        samples_per_s REAL NOT NULL,
        transport TEXT,
        steps_counted INTEGER NOT NULL,
        step_time_mean_s REAL NOT NULL,
        predicted_samples_per_s REAL
    );
    CREATE INDEX runs_by_stack ON runs (stack, fingerprint, recorded_at);""",
    # v2: the step-time spread and the job's size, as the logs tell them.
    """ALTER TABLE runs ADD COLUMN step_time_median_s REAL;
    ALTER TABLE runs ADD COLUMN step_time_p90_s REAL;
    ALTER TABLE runs ADD COLUMN ranks INTEGER;
    ALTER TABLE runs ADD COLUMN gpus INTEGER;""",
)
SCHEMA_VERSION = len(MIGRATIONS)
T = TypeVar("T")


def _retry_locked(action: Callable[[], T], seconds: float = 30.0) -> T:
    deadline = time.monotonic() + seconds
    while True:
        try:
            return action()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@dataclass(frozen=True)
class RunRecord:
    recorded_at: str
    stack: str
    fingerprint: str
    git_commit: str | None
    source: str
    samples_per_s: float
    transport: str | None
    steps_counted: int
    step_time_mean_s: float
    predicted_samples_per_s: float | None
    step_time_median_s: float | None = None
    step_time_p90_s: float | None = None
    ranks: int | None = None
    gpus: int | None = None
    id: int | None = None


def default_store_path() -> Path:
    configured = os.environ.get("GPU_CLUSTER_RESULTS")
    return Path(configured) if configured else DEFAULT_STORE


class ResultsStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._connection() as db:
            _retry_locked(lambda: self.migrate(db))

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout = 30000")
            # Switching a new file to WAL can report "locked" at once, without the busy handler,
            # while another process does the same: retried, like every first contact.
            _retry_locked(lambda: db.execute("PRAGMA journal_mode = WAL"))
            yield db
        finally:
            db.close()

    @staticmethod
    def migrate(db: sqlite3.Connection) -> int:
        """Bring the schema to ``SCHEMA_VERSION``; returns the version it started from."""
        db.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others then see the new version
        try:
            start = version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(f"schema version {version} is newer than this tool ({SCHEMA_VERSION})")
            for script in MIGRATIONS[version:]:
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                version += 1
            db.execute(f"PRAGMA user_version = {version}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return int(start)

    def add(self, record: RunRecord) -> RunRecord:
        values = {f.name: getattr(record, f.name) for f in fields(RunRecord) if f.name != "id"}
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        with self._connection() as db:
            cursor = db.execute(f"INSERT INTO runs ({columns}) VALUES ({marks})", tuple(values.values()))
            row_id = cursor.lastrowid
        return RunRecord(**{**values, "id": row_id})

    def runs(self, stack: str | None = None) -> list[RunRecord]:
        names = [f.name for f in fields(RunRecord)]
        query = f"SELECT {', '.join(names)} FROM runs"
        params: tuple[str, ...] = ()
        if stack is not None:
            query, params = query + " WHERE stack = ?", (stack,)
        with self._connection() as db:
            rows = db.execute(query + " ORDER BY recorded_at, id", params).fetchall()
        return [RunRecord(**dict(zip(names, row, strict=True))) for row in rows]
