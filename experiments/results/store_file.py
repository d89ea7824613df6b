"""What a results store file is: its schema (migrations, ``user_version``), its application id, and the
header checks that refuse a foreign, newer or corrupt file before SQLite opens it."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from experiments.base.errors import InputError

__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "V1_COLUMNS",
    "StoreError",
    "check_header",
    "is_locked",
    "read_header",
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


class StoreError(InputError):
    """The store cannot be used: one line naming the file."""


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
