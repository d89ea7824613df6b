"""Per-stack desired-state digests, kept as golden files under ``tests/golden/``.

A digest maps every resource's logical identity (URN without the stack) to a short hash of
its inputs, and holds the hash of the whole ``preview.json`` (parents, providers, outputs: any
byte of it, so a change to the offline engine that alters the document cannot pass unseen).
The test suite compares each stack's digest with its golden file, so a change
that renames, adds or removes a resource, or alters any input, shows up in review as a
small, readable diff of ``tests/golden/<stack>.json``; ``python -m experiments diff`` then
explains the field-level change.  Regenerate after an intended change with
``python tools/update_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .identity import logical_urn
from .preview import preview_json, run_preview
from .stackfile import PROJECT_ROOT, StackFile

__all__ = ["GOLDEN_DIR", "digest", "golden_path"]

GOLDEN_DIR = PROJECT_ROOT / "tests" / "golden"


def golden_path(stack: str) -> Path:
    return GOLDEN_DIR / f"{stack}.json"


def _hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]


def digest(stack: str | StackFile) -> dict[str, Any]:
    preview = run_preview(stack)
    return {
        "stack": preview.stack.name,
        "resources": {logical_urn(r.urn): _hash(r.inputs) for r in preview.result.resources},
        "document": hashlib.sha256(preview_json(preview).encode()).hexdigest(),
    }
