"""Output paths, checked before any work: a bad ``--out`` must not cost a whole run.

Relative paths are relative to where the user stands (the working directory), never to the
project.  A directory the project writes into keeps an index of the files it wrote
(``INDEX_FILE``), so a later run replaces exactly those and never overwrites or deletes a file of
the user's: ``preview --out`` (``preview.json`` and ``manifests/``), ``report --out`` (the report and
its charts) and ``sweep --out FILE`` check their files with ``check_owned_files`` before any work
and write them with ``write_owned_files``. A symbolic link in an output's place is always refused.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from experiments.base.errors import InputError

__all__ = ["INDEX_FILE", "check_owned_dir", "check_owned_files", "check_out_dir", "replace_owned_files",
           "write_owned_files"]

INDEX_FILE = ".gpu-cluster-index.json"
"""Names of the files the last run wrote into a directory the project owns (``manifests/``)."""


def _writable_dir(directory: Path) -> str | None:
    """Why files cannot be created in ``directory`` (an existing directory), or None."""
    if not os.access(directory, os.W_OK | os.X_OK):
        return "is not writable"
    try:
        if os.statvfs(directory).f_flag & os.ST_RDONLY:
            return "is on a read-only file system"
    except OSError as error:
        return f"cannot be checked ({error.strerror})"
    return None


def check_out_dir(path: Path, flag: str) -> None:
    """Fail before any work when ``path`` cannot be (or be created as) a writable directory."""
    for parent in (path, *path.parents):
        if parent.exists():
            if not parent.is_dir():
                raise InputError(f"{flag} {path}: {parent} exists and is not a directory")
            problem = _writable_dir(parent)
            if problem:
                raise InputError(f"{flag} {path}: {parent} {problem}")
            return


def _index(directory: Path) -> list[str] | None:
    index = directory / INDEX_FILE
    if not index.is_file():
        return None
    try:
        names = json.loads(index.read_text())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(names, list):
        return None
    # Only plain file names: an index is a file anyone could edit, and "..", "." or a path in it
    # must not make a later run delete or overwrite anything outside its own files.
    return [n for n in names if isinstance(n, str) and n not in ("", ".", "..") and not any(c in n for c in "/\\\0")]


def check_owned_dir(directory: Path, flag: str) -> None:
    """Refuse a non-empty directory this project did not write (it has no index of ours), or a link."""
    if directory.is_symlink():
        raise InputError(f"{flag}: {directory} is a symbolic link; choose another --out or remove it")
    if directory.is_dir() and _index(directory) is None and any(directory.iterdir()):
        raise InputError(
            f"{flag}: {directory} holds files this tool did not write (no {INDEX_FILE}); "
            "choose another --out or move them away"
        )


def replace_owned_files(directory: Path, files: dict[str, str]) -> list[Path]:
    """Write ``files`` (name -> text) into ``directory``, first removing the files of the last run
    (and only those), then record the new index.  An empty ``files`` leaves no empty directory."""
    for name in _index(directory) or []:
        if (directory / name).is_file() or (directory / name).is_symlink():
            (directory / name).unlink()
    (directory / INDEX_FILE).unlink(missing_ok=True)
    if not files:
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
        return []
    write_owned_files(directory, {name: text.encode() for name, text in sorted(files.items())})
    return [directory / name for name in sorted(files)]


def check_owned_files(directory: Path, names: list[str], flag: str) -> None:
    """Refuse before any work when one of ``names`` in ``directory`` exists and this tool did not
    write it (it is not in the directory's index), or is a symbolic link."""
    check_out_dir(directory, flag)
    owned = set(_index(directory) or [])
    for name in names:
        path = directory / name
        if path.is_symlink():
            raise InputError(f"{flag}: {path} is a symbolic link; choose another --out or remove it")
        if path.is_dir():
            raise InputError(f"{flag}: {path} is a directory, not a file")
        if path.exists() and name not in owned:
            raise InputError(f"{flag}: {path} exists and this tool did not write it (it is not in "
                             f"{directory / INDEX_FILE}); choose another --out or move it away")


def write_owned_files(directory: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` (name -> bytes) into ``directory`` and add them to its index (after
    ``check_owned_files``); the index is written first, so a crash never leaves an unlisted file."""
    directory.mkdir(parents=True, exist_ok=True)
    owned = sorted(set(_index(directory) or []) | set(files))
    (directory / INDEX_FILE).unlink(missing_ok=True)  # replaced, never written through a link
    (directory / INDEX_FILE).write_text(json.dumps(owned, indent=1) + "\n")
    written = []
    for name, data in files.items():
        path = directory / name
        path.unlink(missing_ok=True)  # a file of ours, replaced whole (never through a link put there since)
        path.write_bytes(data)
        written.append(path)
    return written
