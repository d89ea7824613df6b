"""Renders kept between runs: ``preview`` and ``diff`` run the program only for what they have not seen.

A render is the mock engine's result (``EngineResult``) for one stack file.  Its key is a digest of
everything that can change it: the program's code (every file of ``components/``, ``experiments/`` and
``workloads/``, and the local ``pulumi_ibm`` SDK), the stack's name, its engine config (secret values
included: only their digest is kept) and secret keys, the simulated cluster it is planned against, and
the versions of Python and of the SDKs the program runs on.  Entries live in ``<state dir>/renders/``
(``--state-dir``; ``--no-cache`` neither reads nor writes them), one JSON file per key, the newest
``KEEP`` kept.

The cache touches only what it wrote: the prune counts and removes only files named as its entries
(``<64 hex digits>.json``), regular files whose first bytes are the ones it writes (another file
there, a link, a FIFO, stays); a ``renders`` that is not a directory (a link elsewhere) is no cache.
Anything it cannot fully validate is a miss, rendered again: an entry that is not a regular file (a
FIFO is never opened for reading, so it cannot block; a link is never followed), is larger than
``MAX_ENTRY_BYTES``, or does not read back whole in the shape written: every field of every resource
of its type, every Kubernetes object with the ``apiVersion``, ``kind`` and ``metadata`` a manifest
needs, the outputs the program derives from the plan equal to the plan's own.  A write that fails (a
full disk) leaves no temporary file.  Nothing in a cache file is executed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import platform
import re
import stat
import tempfile
from functools import cache
from importlib import metadata, util
from pathlib import Path
from typing import Any

from experiments.base.paths import PROJECT_ROOT
from experiments.offline.engine import EngineResult, RecordedResource
from experiments.stacks.stackfile import StackFile

__all__ = ["FORMAT", "KEEP", "MAX_ENTRY_BYTES", "RenderCache", "code_digest", "render_key"]

FORMAT = 1
"""The layout of a cache file; a file of another layout is a miss."""
KEEP = 64
"""Renders kept per state directory (the oldest go first)."""
MAX_ENTRY_BYTES = 256 * 1024 * 1024
"""An entry larger is a miss (a 1024-node stack's render is tens of MB)."""
_ENTRY = re.compile(r"[0-9a-f]{64}\.json")
_DOCUMENT = {"format", "key", "resources", "outputs", "diagnostics"}
_OPTIONAL_TEXT = ("parent", "provider", "id")
_KUBERNETES = "kubernetes:"
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
    deps, by_input, inputs = data["dependencies"], data["property_dependencies"], data["inputs"]
    if not (
        all(isinstance(data[k], str) for k in ("urn", "type", "name"))
        and all(data[k] is None or isinstance(data[k], str) for k in _OPTIONAL_TEXT)
        and isinstance(data["custom"], bool)
        and isinstance(data["retain_on_delete"], bool)
        and (data["delete_before_replace"] is None or isinstance(data["delete_before_replace"], bool))
        and isinstance(inputs, dict)
        and _strings(deps)
        and isinstance(by_input, dict)
        and all(_strings(v) for v in by_input.values())
    ):
        raise ValueError("not a recorded resource")
    if data["custom"] and data["type"].startswith(_KUBERNETES) and not _manifest_shaped(inputs):
        raise ValueError("not a Kubernetes object")
    return RecordedResource(
        **{**data, "dependencies": tuple(deps), "property_dependencies": {k: tuple(v) for k, v in by_input.items()}}
    )


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _manifest_shaped(inputs: dict[str, Any]) -> bool:
    """What a manifest of ``preview`` is made of (``kubernetes_manifests``, ``manifest_file_name``)."""
    metadata = inputs.get("metadata", {})
    return (
        all(isinstance(inputs.get(k), str) and inputs[k] for k in ("apiVersion", "kind"))
        and isinstance(metadata, dict)
        and all(isinstance(metadata[k], str) for k in ("name", "namespace") if k in metadata)
    )


def _planned_outputs(stack: StackFile) -> dict[str, Any]:
    """The outputs the program derives from the plan alone (``components.program``), as JSON reads them."""
    addresses = stack.plan.addresses
    return {
        "namePrefix": stack.cluster.name_prefix,
        "nodes": list(addresses.nodes),
        "nics": [nic.model_dump(mode="json") for nic in addresses.nics],
    }


def _result(document: Any, key: str, stack: StackFile) -> EngineResult:
    """The render a document holds, validated whole; ``ValueError`` for anything else."""
    if not isinstance(document, dict) or set(document) != _DOCUMENT:
        raise ValueError("not a render")
    if document["format"] != FORMAT or document["key"] != key or not isinstance(document["resources"], list):
        raise ValueError("not this render")
    resources = [_resource(r) for r in document["resources"]]
    outputs, diagnostics = document["outputs"], document["diagnostics"]
    if not isinstance(outputs, dict) or not _strings(diagnostics):
        raise ValueError("not a render")
    planned = _planned_outputs(stack)
    if any(outputs.get(name) != value for name, value in planned.items()):
        raise ValueError("outputs that are not the plan's")
    if "adoptedWorkers" in outputs and outputs["adoptedWorkers"] != planned["nodes"]:
        raise ValueError("outputs that are not the plan's")
    return EngineResult(resources=resources, outputs=outputs, diagnostics=list(diagnostics))


def _regular(path: Path, most: int) -> bytes | None:
    """Up to ``most`` bytes of ``path`` if it is a regular file (no link followed, no FIFO or device opened)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(descriptor, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
                return None  # swapped since the look, or larger than any render
            return handle.read(most)
    except OSError:
        return None


def _head(key: str) -> bytes:
    """How every entry this cache writes begins."""
    return f'{{"format":{FORMAT},"key":"{key}"'.encode()


class RenderCache:
    """The renders of one state directory."""

    def __init__(self, state_dir: Path) -> None:
        self.directory = state_dir / "renders"

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def _usable(self) -> bool:
        """``renders`` is a directory of its own, not a link to somewhere else."""
        try:
            return stat.S_ISDIR(os.lstat(self.directory).st_mode)
        except OSError:
            return False

    def load(self, stack: StackFile) -> EngineResult | None:
        """The stored render of ``stack``, or None (none stored, or not validated whole as written)."""
        key = render_key(stack)
        raw = _regular(self._path(key), MAX_ENTRY_BYTES + 1) if self._usable() else None
        if raw is None or len(raw) > MAX_ENTRY_BYTES or not raw.startswith(_head(key)):
            return None
        try:
            return _result(json.loads(raw), key, stack)
        except (ValueError, KeyError, TypeError, RecursionError):
            return None

    def store(self, stack: StackFile, result: EngineResult) -> None:
        """Keep ``result`` as ``stack``'s render; a state directory that cannot be written keeps nothing (not even a
        temporary file), and a link, FIFO or directory at the entry's path stays as it is."""
        key = render_key(stack)
        document = {
            "format": FORMAT,
            "key": key,
            "resources": [_resource_json(r) for r in result.resources],
            "outputs": result.outputs,
            "diagnostics": result.diagnostics,
        }
        path = self._path(key)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if not self._usable() or (path.is_symlink() or (path.exists() and not path.is_file())):
                return
            text = json.dumps(document, separators=(",", ":"))  # at once: json.dump encodes in Python, piece by piece
            descriptor, temporary = tempfile.mkstemp(dir=self.directory, prefix=".render-", suffix=".tmp")
        except OSError:
            return
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(temporary, path)
        except BaseException as error:  # a full disk, or an interrupt: no partial file stays behind
            Path(temporary).unlink(missing_ok=True)
            if not isinstance(error, OSError):
                raise
            return
        self._prune()

    def _prune(self) -> None:
        """The newest ``KEEP`` of this cache's own entries stay; nothing else in the directory is touched."""
        try:
            entries = [e for e in os.scandir(self.directory) if _ENTRY.fullmatch(e.name)]
            ours = [
                (e.stat(follow_symlinks=False).st_mtime, e.path)
                for e in entries
                if e.is_file(follow_symlinks=False)
                and (_regular(Path(e.path), 128) or b"").startswith(_head(e.name[:-5]))
            ]
            for _, old in sorted(ours, reverse=True)[KEEP:]:
                os.unlink(old)
        except OSError:
            return
