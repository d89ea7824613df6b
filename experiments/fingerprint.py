"""A variant fingerprint: a short hash of a stack's rendered desired state.

Benchmark results are filed under it, so it must name *what was built* and nothing
about *which stack built it*: two stacks that render the same resources with the same
inputs get the same fingerprint whatever their names, and any change to a resource
(one NIC more, another variant, a different NCCL setting) gives a different one.

What goes in, per resource: the URN without its stack part, the type, the logical name
and the inputs as sent to the engine, secrets already masked.  What stays out: the
stack name, stack outputs (they follow from the inputs), the provider reference (its
URN names the stack; the provider's own inputs are hashed as a resource) and the
``name_prefix`` that cloud and Kubernetes names are built from (``<prefix>-node0``,
``<prefix>_net1``): it becomes ``<name-prefix>`` first.

Telling a prefixed name from a constant is textual, so a prefix that also starts a
constant word is ambiguous: the default prefix ``gpu`` and a namespace ``gpu-training``.
The project name (the ``gpu-cluster`` tag) is protected; for the rest,
``stack_fingerprint`` renders the stack again under a prefix nothing else starts with,
which is exact.  Sweep cells' prefixes (``sweep-...``) are unambiguous already.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from components.models.config import PROJECT

from .stackfile import NEUTRAL_PREFIX, StackFile, with_neutral_prefix

__all__ = [
    "FINGERPRINT_LENGTH",
    "PREFIX_PLACEHOLDER",
    "canonical_resources",
    "fingerprint",
    "infer_name_prefix",
    "stack_fingerprint",
]

FINGERPRINT_LENGTH = 16
"""Hex digits kept: 64 bits, ample for the handful of variants a study compares."""
PREFIX_PLACEHOLDER = "<name-prefix>"

_FIRST_NODE_SUFFIX = "-node0"
_NAME_CHAR = re.compile(r"[a-z0-9-]")


def _strip_stack(urn: str) -> str:
    """``urn:pulumi:<stack>::<project>::<types>::<name>`` -> ``<project>::<types>::<name>``."""
    head, sep, rest = urn.partition("::")
    if not sep or not head.startswith("urn:pulumi:"):
        return urn
    return rest


def infer_name_prefix(document: Mapping[str, Any]) -> str | None:
    """The ``name_prefix`` a preview document was rendered with: its ``namePrefix`` output, or, in a
    document from before that output, its node inventory."""
    outputs = document.get("outputs") or {}
    if isinstance(outputs.get("namePrefix"), str):
        return str(outputs["namePrefix"])
    nodes = outputs.get("nodes") or []
    first = nodes[0] if nodes else None
    if isinstance(first, str) and first.endswith(_FIRST_NODE_SUFFIX):
        return first[: -len(_FIRST_NODE_SUFFIX)]
    return None


def _prefix_pattern(prefix: str) -> re.Pattern[str]:
    """The prefix as a whole word, in its IBM form and its identifier form (``-`` -> ``_``)."""
    forms = sorted({prefix, re.sub(r"[^A-Za-z0-9_]", "_", prefix)}, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_-])(?:" + "|".join(map(re.escape, forms)) + r")(?![A-Za-z0-9])")


def _is_project_name(text: str, start: int) -> bool:
    end = start + len(PROJECT)
    return text.startswith(PROJECT, start) and (end == len(text) or not _NAME_CHAR.match(text[end]))


def _normalize(value: Any, pattern: re.Pattern[str] | None) -> Any:
    if isinstance(value, dict):
        # Keys too: a resource limit is keyed by a name that derives from the stack (rdma/<prefix>_...).
        return {_normalize(k, pattern): _normalize(v, pattern) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v, pattern) for v in value]
    if isinstance(value, str) and pattern is not None:
        return pattern.sub(
            lambda m: m.group(0) if _is_project_name(m.string, m.start()) else PREFIX_PLACEHOLDER, value)
    return value


def canonical_resources(document: Mapping[str, Any], name_prefix: str | None = None) -> list[dict[str, Any]]:
    """The part of a preview document the fingerprint covers, stack-neutral and sorted."""
    prefix = name_prefix if name_prefix is not None else infer_name_prefix(document)
    pattern = _prefix_pattern(prefix) if prefix else None
    resources = [
        {"urn": _strip_stack(r["urn"]), "type": r["type"], "name": r["name"],
         "inputs": _normalize(r.get("inputs") or {}, pattern)}
        for r in document.get("resources", [])
    ]
    return sorted(resources, key=lambda r: r["urn"])


def fingerprint(document: Mapping[str, Any], name_prefix: str | None = None) -> str:
    """Short sha256 over the canonical JSON of the document's resources.

    ``name_prefix`` defaults to the one the document's node inventory shows.
    """
    canonical = json.dumps(canonical_resources(document, name_prefix), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:FINGERPRINT_LENGTH]


def stack_fingerprint(stack: StackFile) -> str:
    """The stack's fingerprint, exact for any prefix: rendered again under ``NEUTRAL_PREFIX``."""
    from .preview import run_preview  # the engine and the program load only when needed

    return fingerprint(run_preview(with_neutral_prefix(stack)).document(), NEUTRAL_PREFIX)
