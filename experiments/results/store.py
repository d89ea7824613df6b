"""The results store: one SQLite row per measured run, embedded, safe for concurrent writers, and
careful with a file it did not write.

The file lives in the project's state directory (``.gpu-cluster/results.sqlite``; ``--store PATH``
or ``GPU_CLUSTER_RESULTS`` elsewhere). Its schema version is SQLite's ``user_version``, and
``application_id`` marks it as this tool's. Writers (``results add``, ``run``) create a missing
store, migrate an older one forward inside a transaction, use WAL mode, and insert each row in one
transaction, so two writers never corrupt the file or lose a row. Readers (``results``,
``report``) open it read-only and never create a file or folder: a missing store has no runs.

The header is read before SQLite opens anything, so a file that is not a store (``README.md``), a
foreign SQLite database, or one written by a newer version of this tool is refused without being
touched. Every failure (unreadable, corrupt, foreign, newer, locked beyond ``LOCK_WAIT`` seconds)
is one ``StoreError`` naming the file (exit 2).
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from pathlib import Path
from urllib.parse import quote

from experiments.base.bounded import figure_problem
from experiments.base.errors import InputError
from experiments.base.paths import project_dir

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_STORE",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "DuplicateRun",
    "ResultsStore",
    "RunRecord",
    "StoreError",
    "default_store_path",
]

APPLICATION_ID = 0x47505543
"""``GPUC``: SQLite's application id of a results store."""
_MAGIC = b"SQLite format 3\x00"

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
    # v3: what the run's logs were (a digest of their contents): the same run is never added twice.
    """ALTER TABLE runs ADD COLUMN logs_digest TEXT;
    CREATE UNIQUE INDEX runs_by_logs ON runs (logs_digest);""",
    # v4: a lab run's sidecar (``results.lab``: emulated nodes, link, model cut); NULL for a cluster run.
    "ALTER TABLE runs ADD COLUMN lab TEXT;",
)
SCHEMA_VERSION = len(MIGRATIONS)
V1_COLUMNS = {
    "id",
    "recorded_at",
    "stack",
    "fingerprint",
    "git_commit",
    "source",
    "samples_per_s",
    "transport",
    "steps_counted",
    "step_time_mean_s",
    "predicted_samples_per_s",
}


DEFAULT_STORE = project_dir() / ".gpu-cluster" / "results.sqlite"
LOCK_WAIT = 15.0
"""Seconds a command waits for another process's write before it gives up."""


class StoreError(InputError):
    """The store cannot be used: one line naming the file."""


class DuplicateRun(StoreError):
    """These logs are already recorded."""


def read_header(path: Path) -> bytes | None:
    """The first 100 bytes of an existing regular file, None when there is no file; read without
    blocking on a FIFO or device (those are refused)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StoreError(f"store {path}: cannot be read ({error.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise StoreError(f"store {path}: is a directory, not a results store")
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"store {path}: is not a regular file")
    try:
        with path.open("rb") as handle:
            return handle.read(100)
    except OSError as error:
        raise StoreError(f"store {path}: cannot be read ({error.strerror})") from None


def check_header(path: Path, header: bytes) -> int:
    """The schema version of a store's header (0 for an empty file); refuses anything else."""
    if not header:
        return 0
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise StoreError(f"store {path}: is not a results store (not an SQLite database)")
    version = int.from_bytes(header[60:64], "big", signed=True)
    application = int.from_bytes(header[68:72], "big")
    if application not in (0, APPLICATION_ID) or application == 0 and version not in (0, 1, 2):
        raise StoreError(f"store {path}: is an SQLite database of another application, not a results store")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"store {path}: was written by a newer gpu-cluster (schema {version}; this one reads up "
            f"to {SCHEMA_VERSION}): update the project"
        )
    if version < 0:
        raise StoreError(f"store {path}: has a corrupt header")
    return version


def is_locked(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


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
    logs_digest: str | None = None
    lab: str | None = None
    id: int | None = None


_FLOATS = {f.name for f in fields(RunRecord) if "float" in str(f.type)}
_INTS = {"steps_counted", "ranks", "gpus", "id"}


def default_store_path() -> Path:
    configured = os.environ.get("GPU_CLUSTER_RESULTS")
    return Path(configured) if configured else DEFAULT_STORE


class ResultsStore:
    """``ResultsStore(path)`` opens for writing (creating and migrating); ``ResultsStore.reader(path)``
    opens read-only and changes nothing on disk."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        header = read_header(path)
        self.exists = header is not None
        version = check_header(path, header) if header is not None else 0
        if read_only:
            if self.exists and version == 0 and header:
                with self._errors(), self._connection() as db:
                    self._check_tables(db, version)
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"store {path}: its folder cannot be created ({error.strerror})") from None
        with self._errors(), self._connection() as db:
            self.migrate(db, self._check_tables)
        self.exists = True

    @classmethod
    def reader(cls, path: Path) -> ResultsStore:
        return cls(path, read_only=True)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as error:
            if is_locked(error):
                raise StoreError(
                    f"store {self.path}: is locked by another process (waited {LOCK_WAIT:g} s); "
                    "try again when it is done"
                ) from None
            raise StoreError(
                f"store {self.path}: cannot be used ({str(error).splitlines()[0] if str(error) else ''})".replace(
                    " ()", ""
                )
            ) from None

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            # Without a write-ahead log beside it the file is all there is: read it as immutable, so
            # that SQLite creates no -wal/-shm file either; with one, read through it (read-only).
            wal = self.path.with_name(self.path.name + "-wal").exists()
            mode = "mode=ro" if wal else "mode=ro&immutable=1"
            db = sqlite3.connect(
                f"file:{quote(str(self.path.resolve()))}?{mode}", uri=True, timeout=LOCK_WAIT, isolation_level=None
            )
        else:
            db = sqlite3.connect(self.path, timeout=LOCK_WAIT, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT * 1000)}")
            if not self.read_only:
                db.execute("PRAGMA journal_mode = WAL")
            yield db
        finally:
            db.close()

    def _check_tables(self, db: sqlite3.Connection, version: int) -> None:
        """A store without our application id must hold our table, or nothing at all."""
        tables = {
            row[0]
            for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        if version == 0 and tables:
            raise StoreError(
                f"store {self.path}: is an SQLite database of another application (tables "
                f"{', '.join(sorted(tables)[:5])}), not a results store"
            )
        if version > 0:
            columns = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
            if not V1_COLUMNS <= columns:
                raise StoreError(f"store {self.path}: has no runs table of a results store")

    @staticmethod
    def migrate(db: sqlite3.Connection, check: Callable[[sqlite3.Connection, int], None] | None = None) -> int:
        """Bring the schema to ``SCHEMA_VERSION`` (after ``check`` of what the file holds, in the same
        transaction); returns the version it started from."""
        db.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others then see the new version
        try:
            start = version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(f"schema version {version} is newer than this tool ({SCHEMA_VERSION})")
            if check is not None and db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                check(db, version)
            for script in MIGRATIONS[version:]:
                for statement in filter(str.strip, script.split(";")):
                    db.execute(statement)
                version += 1
            db.execute(f"PRAGMA user_version = {version}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return int(start)

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed at the end, rolled back on any failure (all or nothing);
        every SQLite failure one ``StoreError``. Only on a store opened for writing."""
        with self._errors(), self._connection() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def add(self, record: RunRecord) -> RunRecord:
        """Insert ``record``; ``DuplicateRun`` when its logs are already recorded."""
        values = _row(record)
        with self.writing() as db:
            earlier = _recorded(db, values, equal_rows=False)
            if earlier is not None:
                raise DuplicateRun(
                    f"these logs are already recorded as run {earlier[0]} of {earlier[1]}: a run is added once"
                )
            cursor = db.execute(_INSERT, tuple(values.values()))
        return replace(record, id=cursor.lastrowid)

    def add_new(self, records: list[RunRecord]) -> tuple[int, int]:
        """Insert the records not recorded yet, all in one transaction: (added, already present). A
        record is present when its logs are recorded (``logs_digest``), or an equal row exists."""
        added = present = 0
        with self.writing() as db:
            for record in records:
                values = _row(record)
                if _recorded(db, values, equal_rows=True) is not None:
                    present += 1
                else:
                    db.execute(_INSERT, tuple(values.values()))
                    added += 1
        return added, present

    def runs(self, stack: str | None = None) -> list[RunRecord]:
        """Every run, oldest first; a value of the wrong type or not finite reads as None."""
        if not self.exists:
            return []
        names = [f.name for f in fields(RunRecord)]
        with self._errors(), self._connection() as db:
            present = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
            if not present:
                return []
            columns = [n if n in present else "NULL" for n in names]
            query, params = f"SELECT {', '.join(columns)} FROM runs", tuple[str, ...]()
            if stack is not None:
                query, params = query + " WHERE stack = ?", (stack,)
            rows = db.execute(query + " ORDER BY recorded_at, id", params).fetchall()
        return [RunRecord(**{n: _clean(n, v) for n, v in zip(names, row, strict=True)}) for row in rows]  # type: ignore[arg-type]


def _clean(name: str, value: object) -> object:
    """A stored value as a record holds it; a figure no run can have (a foreign or older writer's
    infinity, overflow or negative) reads as None."""
    if value is None:
        return None
    if name in _INTS and name != "id":
        return value if figure_problem(name, value, count=True) is None else None
    if name == "id":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if name in _FLOATS:
        return float(value) if figure_problem(name, value, count=False) is None else None  # type: ignore[arg-type]
    return value if isinstance(value, str) else str(value)


_COLUMNS = [f.name for f in fields(RunRecord) if f.name != "id"]
_INSERT = f"INSERT INTO runs ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
_EQUAL_ROW = f"SELECT id, stack FROM runs WHERE {' AND '.join(f'{n} IS ?' for n in _COLUMNS)} LIMIT 1"


def _row(record: RunRecord) -> dict[str, object]:
    """The record's columns (all but the id), its numbers checked: finite, not negative, within what a
    run can have (``base.bounded``), so no reader meets an overflow or an infinity later."""
    values = {name: getattr(record, name) for name in _COLUMNS}
    for name in sorted(_FLOATS | _INTS - {"id"}):
        problem = figure_problem(name, values[name], count=name in _INTS)
        if problem:
            raise StoreError(f"{problem} ({str(values[name])[:40]}): only figures a run can have are recorded")
    return values


def _recorded(db: sqlite3.Connection, values: dict[str, object], *, equal_rows: bool) -> tuple[int, str] | None:
    """(id, stack) of the run already holding these logs, or (``equal_rows``) of an equal row: an
    import finds runs it imported before that way; two measured runs may well look alike."""
    digest = values["logs_digest"]
    if digest is not None:
        earlier = db.execute("SELECT id, stack FROM runs WHERE logs_digest = ?", (digest,)).fetchone()
        if earlier is not None:
            return (int(earlier[0]), str(earlier[1]))
    if not equal_rows:
        return None
    same = db.execute(_EQUAL_ROW, tuple(values.values())).fetchone()
    return None if same is None else (int(same[0]), str(same[1]))
