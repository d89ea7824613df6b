"""Per-stack desired state, kept as readable golden files under ``tests/golden/``, one per stack.

A golden file is the stack's whole ``preview.json`` as a reviewer reads it: every resource under its
logical identity (URN without the stack) with its inputs as the engine receives them and what it hangs
off (parent, provider, the inputs' sources and its other dependencies), then the rest of the document
(outputs, stops, simulated cluster, diagnostics), in sorted, stable JSON.  A renamed, added or removed
resource is a changed key, an altered input or dependency a changed line; no hash stands for anything.
Three things keep the files small and the diffs line-sized: a multi-line string is stored as its list
of lines, a string holding JSON as that JSON, and a string that is a file shipped from ``workloads/``
verbatim (the job's scripts, copied into its ConfigMap for every stack) as that file's path, its text
being the file itself: an edit to a script changes the script, not fourteen golden files.  Regenerate
after an intended change with ``python tools/update_golden.py``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from experiments.base.paths import PROJECT_ROOT
from experiments.stacks.stackfile import StackFile
from experiments.state.identity import logical_urn
from experiments.state.preview import run_preview

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
    return {path.read_text(): f"<file {path.relative_to(PROJECT_ROOT)}>" for path in files}


def readable(value: Any) -> Any:
    """``value`` as a golden file stores it: shipped files by name, multi-line strings by line."""
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


def _logical(urns: list[str]) -> list[str]:
    return [logical_urn(urn) for urn in urns]


def _resource(resource: dict[str, Any]) -> dict[str, Any]:
    """One resource of ``preview.json``: its inputs, and what it hangs off where it hangs off anything."""
    entry: dict[str, Any] = {"inputs": readable(resource["inputs"])}
    if not resource["custom"]:
        entry["custom"] = False
    for key in ("parent", "provider"):
        if resource[key]:
            entry[key] = logical_urn(resource[key])
    waits = {key: _logical(urns) for key, urns in resource["property_dependencies"].items() if urns}
    if waits:
        entry["property_dependencies"] = waits
    # What it waits for besides its inputs' sources (``depends_on``): the rest of ``dependencies``.
    through_inputs = {urn for urns in waits.values() for urn in urns}
    depends_on = [urn for urn in _logical(resource["dependencies"]) if urn not in through_inputs]
    if depends_on:
        entry["depends_on"] = depends_on
    return entry


def snapshot(stack: str | StackFile) -> dict[str, Any]:
    """The stack's desired state as its golden file holds it."""
    document = run_preview(stack).document()
    return {
        **{key: readable(value) for key, value in document.items() if key != "resources"},
        "resources": {logical_urn(r["urn"]): _resource(r) for r in document["resources"]},
    }


def golden_text(stack: str | StackFile) -> str:
    return json.dumps(snapshot(stack), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def expected(stack: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(golden_path(stack).read_text())
    return loaded
