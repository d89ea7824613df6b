"""Per-stack desired state, kept as readable golden files under ``tests/golden/``.

A golden file maps every resource's logical identity (URN without the stack) to its inputs as the
engine receives them, in sorted, stable JSON, so a review of ``tests/golden/<stack>.json`` shows what
changed, not only which resource: a renamed, added or removed resource is a changed key, an altered
input a changed line.  Three things keep the files small and the diffs line-sized: a multi-line
string is stored as its list of lines, a string holding JSON as that JSON, and a string that is a
file shipped from ``workloads/`` (the job's scripts, copied into its ConfigMap for every stack) as
that file's path and content hash, its text being the file itself.  The file also holds the hash
of the whole ``preview.json`` (parents, providers, outputs: any byte of it), so a change to the
offline engine that alters the document cannot pass unseen.  Regenerate after an intended
change with ``python tools/update_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from experiments.base.paths import PROJECT_ROOT
from experiments.stacks.stackfile import StackFile
from experiments.state.identity import logical_urn
from experiments.state.preview import preview_json, run_preview

__all__ = ["GOLDEN_DIR", "JSON", "LINES", "expected", "golden_path", "golden_text", "readable", "snapshot"]

GOLDEN_DIR = PROJECT_ROOT / "tests" / "golden"
LINES = "<lines>"
"""The key under which a multi-line string is stored as its lines."""
JSON = "<json>"
"""The key under which a string holding a JSON object or array (a CNI config, an annotation) is stored parsed."""
_SHIPPED = ("*.py", "*.sh")


def golden_path(stack: str) -> Path:
    return GOLDEN_DIR / f"{stack}.json"


@cache
def _shipped_files() -> dict[str, str]:
    """The text of every script under ``workloads/``, mapped to how a golden file names it."""
    files = sorted(path for pattern in _SHIPPED for path in (PROJECT_ROOT / "workloads").rglob(pattern))
    contents = {path: path.read_bytes() for path in files}
    return {data.decode(): f"<file {path.relative_to(PROJECT_ROOT)} sha256:{hashlib.sha256(data).hexdigest()[:16]}>"
            for path, data in contents.items()}


def readable(value: Any) -> Any:
    """``value`` as a golden file stores it: shipped files by name and hash, multi-line strings by line."""
    if isinstance(value, str):
        if value in _shipped_files():
            return _shipped_files()[value]
        if value[:1] in ("{", "["):
            try:
                return {JSON: readable(json.loads(value))}
            except ValueError:
                pass
        return {LINES: value.split("\n")} if "\n" in value else value
    if isinstance(value, dict):
        return {key: readable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [readable(item) for item in value]
    return value


def snapshot(stack: str | StackFile) -> dict[str, Any]:
    """The stack's desired state as its golden file holds it."""
    preview = run_preview(stack)
    return {
        "stack": preview.stack.name,
        "resources": {logical_urn(r.urn): readable(r.inputs) for r in preview.result.resources},
        "document": hashlib.sha256(preview_json(preview).encode()).hexdigest(),
    }


def golden_text(stack: str | StackFile) -> str:
    return json.dumps(snapshot(stack), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def expected(stack: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(golden_path(stack).read_text())
    return loaded
