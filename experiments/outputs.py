"""Output paths, checked before any work: a bad ``--out`` must not cost a whole run."""

from __future__ import annotations

from pathlib import Path

from .stackfile import StackFileError

__all__ = ["check_out_dir", "check_out_file"]


def check_out_dir(path: Path, flag: str) -> None:
    """Fail before any work when an output directory cannot be one."""
    for parent in (path, *path.parents):
        if parent.exists():
            if not parent.is_dir():
                raise StackFileError(f"{flag} {path}: {parent} exists and is not a directory")
            return


def check_out_file(path: Path, flag: str) -> None:
    if path.is_dir():
        raise StackFileError(f"{flag} {path}: is a directory, not a file")
    check_out_dir(path.parent, flag)
