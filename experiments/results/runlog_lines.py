"""Training-log lines to metric records: total (no input raises) and linear in the input's size.

Three forms of InstructLab ``main_ds``'s per-step metrics dict are read (instructlab-training
0.16.2, ``main_ds.py`` ``train`` and ``logger.py``):

* JSON lines, as its ``AsyncStructuredHandler`` writes them to
  ``<output_dir>/training_params_and_metrics_global<rank>.jsonl`` (and as the retired
  ``fsdp_finetune.py`` printed them);
* the console: ``FormatDictFilter`` turns the dict into ``key=value, key=value`` and Rich's
  ``RichHandler`` prints it after a time and a level column, with the source file on the right.
  Off a terminal (a pod) Rich wraps at ``COLUMNS`` or 80 characters, and the continuation rows
  carry only the message, indented past the time and level columns. Rows are joined back into
  one record here;
* either behind a launcher's prefix (torchrun's ``[default0]:``, a timestamp, ``kubectl logs
  --prefix``).

Everything a pod writes is hostile input: every line is either read or skipped, and the skipped
ones that looked like metrics are counted (``malformed``). No regular expression here can
backtrack over more than a bounded number of characters, so time grows linearly with the input.

Apart from ``runlog`` by concept, not size: this reads lines into records (``tools/bench/runlog_scaling.py``
times it alone); what the records measure is ``runlog``'s.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_RECORD_CHARS", "LogRecord", "finite_number", "records"]

MAX_RECORD_CHARS = 1 << 16
"""A console record longer than this (main_ds's largest, the hyperparameters, is about 2 KB) is
dropped as malformed rather than kept growing."""
_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_CONTINUATION_INDENT = 8
_DECODER = json.JSONDecoder(parse_constant=lambda name: _reject(name))


def _reject(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


@dataclass
class LogRecord:
    """One metrics dict as the log wrote it (values are JSON values or console text)."""

    values: dict[str, Any]
    source: str
    """``json`` or ``console`` (rounded to three digits by ``FormatDictFilter``)."""


@dataclass
class _Console:
    parts: list[str] = field(default_factory=list)
    size: int = 0
    overflow: bool = False

    def add(self, text: str) -> None:
        self.size += len(text) + 1
        if self.size > MAX_RECORD_CHARS:
            self.overflow = True
            self.parts.clear()
        elif not self.overflow:
            self.parts.append(text)


def finite_number(value: Any) -> float | None:
    """A JSON or console value as a finite float; None for anything else (bool, inf, nan, text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return float(value) if abs(value) < 1 << 62 else None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str) and 0 < len(value) <= 40:
        try:
            number = float(value)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _strip_launcher_prefix(line: str) -> str:
    # torchrun's --tee/--redirects prefix: "[default0]:" or "[rank0]:" (bounded look-ahead).
    if line.startswith("["):
        end = line.find("]:", 0, 24)
        if end > 0:
            return line[end + 2 :]
    return line


def _rich_message(line: str) -> tuple[bool, str] | None:
    """(is the start of a record, its message) for a Rich row; None when it is no Rich row."""
    rest = line
    if rest.startswith("["):
        end = rest.find("] ", 0, 32)
        if end < 0:
            return None
        rest = rest[end + 2 :]
    else:
        stripped = rest.lstrip(" ")
        indent = len(rest) - len(stripped)
        if indent >= _CONTINUATION_INDENT and not stripped.startswith(_LEVELS):
            return False, _drop_source_column(stripped)
        rest = stripped
    level, _, message = rest.partition(" ")
    if level not in _LEVELS:
        return None
    return True, _drop_source_column(message.lstrip(" "))


def _drop_source_column(text: str) -> str:
    """Rich's right-hand ``main_ds.py:343`` column, when the row has one."""
    body = text.rstrip()
    cut = body.rfind("  ")
    if cut >= 0:
        tail = body[cut:].strip()
        name, colon, number = tail.rpartition(":")
        if colon and number.isdigit() and name.endswith(".py") and len(tail) < 120 and " " not in tail:
            return body[:cut].rstrip()
    return body


def _pairs(text: str) -> dict[str, Any] | None:
    """``key=value, key=value`` (FormatDictFilter); anything before the first key is a prefix."""
    values: dict[str, Any] = {}
    for chunk in text.split(","):
        words = chunk.split()
        if not words:
            continue
        key, equals, value = words[-1].partition("=")
        if equals and key.isidentifier():
            values[key] = value
    return values or None


def _json(line: str) -> dict[str, Any] | None | bool:
    """The JSON object on a line (after any prefix); False when the line holds none at all."""
    start = line.find("{")
    if start < 0:
        return False
    try:
        value, _ = _DECODER.raw_decode(line, start)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _is_metrics(text: str) -> bool:
    return "=" in text and ("overall_throughput=" in text or "num_gpus=" in text)


def records(lines: Iterable[str], counts: dict[str, int] | None = None) -> Iterator[LogRecord]:
    """Every metrics record of ``lines``; ``counts`` gets ``lines``, ``records`` and ``malformed``."""
    tally = counts if counts is not None else {}
    tally.setdefault("lines", 0)
    tally.setdefault("records", 0)
    tally.setdefault("malformed", 0)
    console: _Console | None = None

    def flush() -> Iterator[LogRecord]:
        nonlocal console
        if console is None:
            return
        record, console = console, None
        if record.overflow:
            tally["malformed"] += 1
            return
        text = " ".join(record.parts)
        if _is_metrics(text):
            values = _pairs(text)
            if values is None:
                tally["malformed"] += 1
            else:
                tally["records"] += 1
                yield LogRecord(values, "console")

    for raw in lines:
        tally["lines"] += 1
        line = _strip_launcher_prefix(raw.rstrip("\r\n"))
        rich = _rich_message(line)
        if rich is not None and not rich[0] and console is not None:
            console.add(rich[1])
            continue
        yield from flush()
        if rich is not None and rich[0]:
            console = _Console()
            console.add(rich[1])
            continue
        found = _json(line)
        if found is False or found is True:
            if _is_metrics(line):  # a plain "key=value, ..." line without Rich's columns
                console = _Console()
                console.add(line)
            continue
        if found is None:
            if '"overall_throughput"' in line or '"step"' in line:
                tally["malformed"] += 1
            continue
        tally["records"] += 1
        yield LogRecord(found, "json")
    yield from flush()
