"""Renders kept between runs: ``preview`` and ``diff`` run the program only for what they have not seen.

A render is the mock engine's result (``EngineResult``) for one stack file.  Its key is a digest of
everything that can change it: the program's code (every file of ``components/``, ``experiments/`` and
``workloads/``, and the local ``pulumi_ibm`` SDK), the stack's name, its engine config (secret values
included: only their digest is kept) and secret keys, the simulated cluster it is planned against, and
the versions of Python and of the SDKs the program runs on.  Entries live in ``<state dir>/renders/``
(``--state-dir``; ``--no-cache`` neither reads nor writes them), one JSON file per key, the newest
``KEEP`` kept.  A file that cannot be read back whole, in the shape written, is a miss: the stack is
rendered again and the file replaced.  Nothing in a cache file is executed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import tempfile
from functools import cache
from importlib import metadata, util
from pathlib import Path
from typing import Any

from experiments.base.paths import PROJECT_ROOT
from experiments.offline.engine import EngineResult, RecordedResource
from experiments.stacks.stackfile import StackFile

__all__ = ["FORMAT", "KEEP", "RenderCache", "code_digest", "render_key"]

FORMAT = 1
"""The layout of a cache file; a file of another layout is a miss."""
KEEP = 64
"""Renders kept per state directory (the oldest go first)."""
_CODE = ("components", "experiments", "workloads")
_SUFFIXES = (".py", ".json", ".sh", ".yaml", ".csv")
_VERSIONED = ("pulumi", "pulumi_kubernetes", "pydantic")


@cache
def code_digest() -> str:
    """The program's code as this process runs it (read once per process)."""
    digest = hashlib.sha256()
    ibm = util.find_spec("pulumi_ibm")
    roots = [PROJECT_ROOT / name for name in _CODE] + ([Path(ibm.origin).parent] if ibm and ibm.origin else [])
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in _SUFFIXES and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(root.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    for package in _VERSIONED:
        digest.update(f"{package}=={metadata.version(package)}\0".encode())
    digest.update(f"python {platform.python_version()}".encode())
    return digest.hexdigest()


def render_key(stack: StackFile) -> str:
    """The digest of everything that decides ``stack``'s render (see the module's docstring)."""
    simulated = dataclasses.asdict(stack.simulated) if stack.simulated is not None else None
    parts = {
        "code": code_digest(),
        "stack": stack.name,
        "config": stack.engine_config,
        "secret_keys": sorted(stack.secret_keys),
        "simulated": simulated,
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


_FIELDS = tuple(f.name for f in dataclasses.fields(RecordedResource))


def _resource_json(resource: RecordedResource) -> dict[str, Any]:
    # The fields as they are (``dataclasses.asdict`` would deep-copy every input only for json to read it).
    return {
        **{name: getattr(resource, name) for name in _FIELDS},
        "dependencies": list(resource.dependencies),
        "property_dependencies": {k: list(v) for k, v in resource.property_dependencies.items()},
    }


def _resource(data: Any) -> RecordedResource:
    if not isinstance(data, dict) or set(data) != set(_FIELDS):
        raise ValueError("not a recorded resource")
    strings = ("urn", "type", "name")
    if not all(isinstance(data[k], str) for k in strings) or not isinstance(data["inputs"], dict):
        raise ValueError("not a recorded resource")
    deps, by_input = data["dependencies"], data["property_dependencies"]
    if not (
        isinstance(deps, list)
        and all(isinstance(d, str) for d in deps)
        and isinstance(by_input, dict)
        and all(isinstance(v, list) and all(isinstance(d, str) for d in v) for v in by_input.values())
    ):
        raise ValueError("not a recorded resource")
    return RecordedResource(
        **{**data, "dependencies": tuple(deps), "property_dependencies": {k: tuple(v) for k, v in by_input.items()}}
    )


class RenderCache:
    """The renders of one state directory."""

    def __init__(self, state_dir: Path) -> None:
        self.directory = state_dir / "renders"

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def load(self, stack: StackFile) -> EngineResult | None:
        """The stored render of ``stack``, or None (none stored, or not readable as written)."""
        key = render_key(stack)
        try:
            document = json.loads(self._path(key).read_text())
            if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("key") != key:
                return None
            resources = [_resource(r) for r in document["resources"]]
            outputs, diagnostics = document["outputs"], document["diagnostics"]
            if not isinstance(outputs, dict) or not all(isinstance(d, str) for d in diagnostics):
                return None
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return None
        return EngineResult(resources=resources, outputs=outputs, diagnostics=list(diagnostics))

    def store(self, stack: StackFile, result: EngineResult) -> None:
        """Keep ``result`` as ``stack``'s render; a state directory that cannot be written keeps nothing."""
        key = render_key(stack)
        document = {
            "format": FORMAT,
            "key": key,
            "resources": [_resource_json(r) for r in result.resources],
            "outputs": result.outputs,
            "diagnostics": result.diagnostics,
        }
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            text = json.dumps(document, separators=(",", ":"))  # at once: json.dump encodes in Python, piece by piece
            with tempfile.NamedTemporaryFile("w", dir=self.directory, suffix=".tmp", delete=False) as handle:
                handle.write(text)
            os.replace(handle.name, self._path(key))
            self._prune()
        except OSError:
            return

    def _prune(self) -> None:
        entries = sorted(self.directory.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEEP:]:
            old.unlink(missing_ok=True)
