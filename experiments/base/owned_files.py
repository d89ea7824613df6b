"""Output paths, checked before any work: a bad ``--out`` must not cost a whole run.

Relative paths are relative to where the user stands (the working directory), never to the
project.  A directory the project writes into keeps an index of the files it wrote
(``INDEX_FILE``, with the sha256 of each), so a later run replaces exactly those, still as it wrote
them, and never overwrites or deletes a file of the user's: ``preview --out`` (``preview.json`` and
``manifests/``), ``report --out`` (the report and its charts) and ``sweep --out FILE`` check their
files with ``check_owned_files`` before any work and write them with ``write_owned_files``. A
symbolic link in an output's place is always refused.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from experiments.base.errors import InputError
from experiments.base.safe_text import terminal_text

__all__ = [
    "INDEX_FILE",
    "check_owned_dir",
    "check_owned_files",
    "check_out_dir",
    "replace_owned_files",
    "write_owned_files",
]

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


def check_out_dir(path: Path, flag: str, *, given: bool = True, named: Path | None = None) -> None:
    """Fail before any work when ``path`` cannot be (or be created as) a writable directory.  The message
    names what the user named: ``named`` (a file in ``path``, ``--out FILE``) or ``path``; where the user named
    nothing (``given`` False: the flag's default), it says so, and names the working directory, never ``.``."""
    subject = f"{flag} {named or path}" if given else f"{named or path} (the default of {flag})"
    fix = "" if given else f"; name a writable place with {flag}"
    for parent in (path, *path.parents):
        if parent.exists():
            shown = f"{Path.cwd()} (the working directory)" if str(parent) == "." else str(parent)
            if not parent.is_dir():
                raise InputError(f"{subject}: {shown} exists and is not a directory{fix}")
            problem = _writable_dir(parent)
            if problem:
                raise InputError(f"{subject}: {shown} {problem}{fix}")
            return


MAX_INDEX_BYTES = 1024 * 1024
INDEX_FORMAT = "gpu-cluster-index/2"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plain_name(name: object) -> bool:
    return (
        isinstance(name, str)
        and 0 < len(name) <= 255
        and name not in (".", "..")
        and not any(c in name for c in "/\\\0")
    )


def _index(directory: Path) -> dict[str, str | None] | None:
    """The files the tool wrote into ``directory``: name -> sha256 of what it wrote (None: an index of
    an older version, which recorded names only, so nothing it lists is deleted or overwritten).
    None when there is no index. An index is a file anyone could edit: one that is not what the tool
    writes (a link, too large, not JSON, a path or a bad digest in it) is refused whole, before
    anything is deleted."""
    index = directory / INDEX_FILE
    if not index.exists() and not index.is_symlink():
        return None

    def refuse(why: str) -> InputError:
        return InputError(
            f"{index}: {why}: not an index this tool wrote; remove it (and the files you want "
            "gone) or choose another --out"
        )

    if index.is_symlink() or not index.is_file():
        raise refuse("not a regular file")
    try:
        if index.stat().st_size > MAX_INDEX_BYTES:
            raise refuse(f"larger than {MAX_INDEX_BYTES // 1024} KiB")
        document = json.loads(index.read_bytes())
    except (OSError, ValueError, RecursionError):
        raise refuse("unreadable or not JSON") from None
    if isinstance(document, list):  # an older version's: names only
        if not all(_plain_name(n) for n in document):
            raise refuse("a name in it is not a plain file name")
        return dict.fromkeys(document)
    files = document.get("files") if isinstance(document, dict) and document.get("format") == INDEX_FORMAT else None
    if not isinstance(files, dict):
        raise refuse(f"not a {INDEX_FORMAT} document")
    for name, digest in files.items():
        if not _plain_name(name) or not (
            isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)
        ):
            raise refuse(f"entry {terminal_text(repr(name)[:80])} is not a file name with its sha256")
    return dict(files)


def _owned(directory: Path, index: dict[str, str | None], name: str) -> bool:
    """``name`` is a regular file holding exactly what the tool wrote there (never a link)."""
    path = directory / name
    digest = index.get(name)
    if digest is None or path.is_symlink() or not path.is_file():
        return False
    try:
        return _digest(path.read_bytes()) == digest
    except OSError:
        return False


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
    (only those still holding what the tool wrote: a file changed since, or one a tampered index
    names, stays), then record the new index.  An empty ``files`` leaves no empty directory."""
    index = _index(directory) or {}  # validated whole before anything is deleted
    for name in [n for n in index if _owned(directory, index, n)]:
        (directory / name).unlink()
    (directory / INDEX_FILE).unlink(missing_ok=True)
    if not files:
        if directory.is_dir() and not any(directory.iterdir()):
            directory.rmdir()
        return []
    write_owned_files(directory, {name: text.encode() for name, text in sorted(files.items())})
    return [directory / name for name in sorted(files)]


def check_owned_files(
    directory: Path, names: list[str], flag: str, *, given: bool = True, named: Path | None = None
) -> None:
    """Refuse before any work when one of ``names`` in ``directory`` exists and this tool did not
    write it (it is not in the directory's index), or is a symbolic link (``given``, ``named``: as
    ``check_out_dir``)."""
    check_out_dir(directory, flag, given=given, named=named)
    index = _index(directory) or {}
    owned = {name for name in names if _owned(directory, index, name)}
    for name in names:
        path = directory / name
        if path.is_symlink():
            raise InputError(f"{flag}: {path} is a symbolic link; choose another --out or remove it")
        if path.is_dir():
            raise InputError(f"{flag}: {path} is a directory, not a file")
        if path.exists() and name not in owned:
            raise InputError(
                f"{flag}: {path} exists and this tool did not write it (it is not in "
                f"{directory / INDEX_FILE}, or changed since); choose another --out or move it away"
            )


def write_owned_files(directory: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` (name -> bytes) into ``directory`` and add them to its index (after
    ``check_owned_files``); the index is written first, so a crash never leaves an unlisted file."""
    directory.mkdir(parents=True, exist_ok=True)
    index = _index(directory) or {}
    owned = {n: d for n, d in index.items() if d is not None and _owned(directory, index, n)}
    owned |= {name: _digest(data) for name, data in files.items()}
    (directory / INDEX_FILE).unlink(missing_ok=True)  # replaced, never written through a link
    document = {"format": INDEX_FORMAT, "files": dict(sorted(owned.items()))}
    (directory / INDEX_FILE).write_text(json.dumps(document, indent=1) + "\n")
    written = []
    for name, data in files.items():
        path = directory / name
        path.unlink(missing_ok=True)  # a file of ours, replaced whole (never through a link put there since)
        path.write_bytes(data)
        written.append(path)
    return written
