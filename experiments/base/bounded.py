"""Reading what the project did not write (exports, checkpoints, lock files, answers), bounded:
JSON whose nesting the decoder cannot follow, gzip that inflates past a size, numbers past any
figure a run can have. Each failure is one ``InputError`` line naming where the input came from.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import os
import stat
import zlib
from pathlib import Path
from typing import Any

from experiments.base.errors import InputError

__all__ = ["MAX_COUNT", "MAX_FIGURE", "figure_problem", "gunzip", "parse_json", "read_regular_file"]

MAX_FIGURE = 1e9
"""The largest figure stored (samples/s, seconds): far above any run, far below an overflow."""
MAX_COUNT = 10**12
"""The largest count stored (steps, ranks, GPUs): SQLite's integers end at 2**63."""


def read_regular_file(path: Path, limit: int, where: str, error: type[InputError] = InputError) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.  A FIFO, a device, a socket or a
    directory is refused before it is read (a FIFO would block, ``/dev/zero`` would fill the memory); the file is
    opened without blocking and checked again, so that nothing put in its place after the check is read either.
    Each failure is one ``error`` line: ``where: what was wrong``."""
    try:
        info = os.stat(path)
    except OSError as problem:
        raise error(f"{where}: cannot read ({problem.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{where}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{where}: is not a regular file (a FIFO or a device would block or never end)")
    if info.st_size > limit:
        raise error(f"{where}: larger than {limit // 1024} KiB")
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise error(f"{where}: is not a regular file (a FIFO or a device would block or never end)")
            data = handle.read(limit + 1)
    except OSError as problem:
        raise error(f"{where}: cannot read ({problem.strerror})") from None
    if len(data) > limit:
        raise error(f"{where}: larger than {limit // 1024} KiB")
    return data


class _DuplicateKeyError(ValueError):
    pass


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKeyError(f"the key {json.dumps(key)[:60]} appears twice")
        seen[key] = value
    return seen


def parse_json(data: str | bytes, where: str, what: str = "JSON", *, unique_keys: bool = False) -> Any:
    """``data`` decoded; text that is not JSON, or nested deeper than the decoder follows (it stops
    at the interpreter's recursion limit), is one line.  With ``unique_keys`` an object that names a
    key twice is refused too (the decoder would keep the last silently: two readers could disagree)."""
    try:
        return json.loads(data, object_pairs_hook=_unique_object if unique_keys else None)
    except _DuplicateKeyError as error:
        raise InputError(f"{where}: not {what} ({error})") from None
    except RecursionError:
        raise InputError(f"{where}: not {what} (nested too deeply)") from None
    except ValueError as error:
        raise InputError(f"{where}: not {what} ({str(error).splitlines()[0][:120]})") from None


def gunzip(raw: bytes, limit: int, where: str) -> bytes:
    """The inflated bytes of a gzip stream, refused once they pass ``limit`` (the size on disk says
    nothing of what a stream inflates to)."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            data = stream.read(limit + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise InputError(f"{where}: not readable gzip ({type(error).__name__})") from None
    if len(data) > limit:
        raise InputError(f"{where}: inflates to more than {limit // 2**20} MiB")
    return data


def figure_problem(name: str, value: object, *, count: bool) -> str | None:
    """Why ``value`` cannot be stored as the figure ``name`` (None if it can): a count is a whole
    number in 0..``MAX_COUNT``; a figure a finite number in 0..``MAX_FIGURE``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"{name} is not a number"
    if count and not isinstance(value, int):
        return f"{name} is not a whole number"
    if not math.isfinite(value):
        return f"{name} is not finite"
    if value < 0:
        return f"{name} is negative"
    if value > (MAX_COUNT if count else MAX_FIGURE):
        return f"{name} is larger than any run has ({MAX_COUNT if count else MAX_FIGURE:g})"
    return None
