"""Names that come from a cluster, a pod, a log or a results store, made safe for the one place they
go: a file name, a terminal line, a Rich table cell, a Markdown table cell.

Every such name is hostile input: a pod may be called ``../../.bashrc``, a stack ``[bold]`` or
``<img src=x onerror=...>``, a CSR ``\\x1b]0;owned\\x07``. Each medium has its own escape here, and
nothing else in the project escapes names.
"""

from __future__ import annotations

import hashlib
import re

from rich.text import Text

__all__ = ["MAX_COMPONENT", "markdown_cell", "path_component", "rich_text", "terminal_text"]

MAX_COMPONENT = 120
"""Bytes of a file name made from a foreign name (file systems allow 255; room for a suffix)."""

_UNSAFE_IN_PATH = re.compile(r"[^A-Za-z0-9._-]")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~])")


def path_component(name: str) -> str:
    """One file-name component for ``name``: letters, digits, ``.``, ``_`` and ``-`` only, never
    hidden, ``.`` or ``..``, at most ``MAX_COMPONENT`` bytes. A name that had to change gets a digest
    of the original, so two different names never share a file."""
    safe = _UNSAFE_IN_PATH.sub("_", name).lstrip(".")
    if safe == name and 0 < len(safe) <= MAX_COMPONENT:
        return safe
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{safe[: MAX_COMPONENT - 13]}-{digest}" if safe else digest


def terminal_text(text: object) -> str:
    """``text`` with every non-printable character (escape sequences, carriage returns, newlines,
    bidirectional overrides) written as a Python escape, so it cannot rewrite the terminal."""
    value = str(text)
    if value.isprintable():
        return value
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in value)


def rich_text(text: object) -> Text:
    """A Rich cell that shows ``text`` literally: no markup (``[bold]``, ``[/]``) is interpreted."""
    return Text(terminal_text(text))


def markdown_cell(text: object) -> str:
    """``text`` for a Markdown table cell that is also safe as HTML: no tag, entity, link, emphasis
    or column break can come from it."""
    value = terminal_text(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", value)
