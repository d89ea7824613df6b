"""One identity per variant: a resource's logical URN, the neutral name prefix, the fingerprint.

A resource lines up across stacks by its **logical URN**, the URN without the stack part.  Two
stacks differ by design in their ``name_prefix``, which cloud and Kubernetes names are built from;
rendered again under ``NEUTRAL_PREFIX`` (a prefix no constant name starts with) they can be
compared exactly, which ``diff`` does field by field and the fingerprint does as a whole.

The **fingerprint** names what a stack builds and nothing about which stack builds it: a short
hash of the neutral rendering (per resource: logical URN, type, name and inputs as sent to the
engine, secrets masked) and of the instance profile, which an adopted worker's resources do not
show (adopting H100 or H200 workers renders the same NICs).  Stack outputs and providers' URNs
stay out.  Sweeps, recorded results and the report all file a variant under this one value.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from components.models.config import CLUSTER_KEY, PROJECT
from experiments.offline.simulated_cluster import planned_offline
from experiments.stacks.stackfile import StackFile
from experiments.state.preview import Preview, run_preview

__all__ = [
    "FINGERPRINT_LENGTH",
    "NEUTRAL_PREFIX",
    "logical_urn",
    "preview_fingerprint",
    "stack_fingerprint",
    "with_neutral_prefix",
]

NEUTRAL_PREFIX = "fingerprint-neutral-prefix"
"""A ``name_prefix`` no constant name starts with: replacing it is exact (``diff`` shows ``{prefix}``)."""
FINGERPRINT_LENGTH = 16
"""Hex digits kept: 64 bits, ample for the handful of variants a study compares."""


def logical_urn(urn: str) -> str:
    """``urn:pulumi:<stack>::<project>::<types>::<name>`` without the stack (anything else as given)."""
    head, sep, rest = urn.partition("::")
    return rest if sep and head.startswith("urn:pulumi:") else urn


def with_neutral_prefix(stack: StackFile) -> StackFile:
    """The same stack with ``name_prefix`` set to ``NEUTRAL_PREFIX`` (its plan follows: node names do)."""
    key = f"{PROJECT}:{CLUSTER_KEY}"
    raw = {**json.loads(stack.engine_config[key]), "name_prefix": NEUTRAL_PREFIX}
    planned, simulated = planned_offline(raw, key)
    return dataclasses.replace(
        stack, planned=planned, simulated=simulated, engine_config={**stack.engine_config, key: json.dumps(raw)}
    )


def preview_fingerprint(preview: Preview) -> str:
    """The fingerprint of a stack rendered under ``NEUTRAL_PREFIX`` (``with_neutral_prefix``)."""
    cluster = preview.stack.cluster
    if cluster.name_prefix != NEUTRAL_PREFIX:
        raise ValueError(
            f"{preview.stack.name}: fingerprint a rendering under the neutral prefix, not {cluster.name_prefix!r}"
        )
    resources: list[dict[str, Any]] = sorted(
        (
            {"urn": logical_urn(r.urn), "type": r.type, "name": r.name, "inputs": r.inputs}
            for r in preview.result.resources
        ),
        key=lambda r: str(r["urn"]),
    )
    canonical = json.dumps(
        {"profile": cluster.nodes.profile, "resources": resources}, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()[:FINGERPRINT_LENGTH]


def stack_fingerprint(stack: StackFile) -> str:
    """The stack's fingerprint, whatever its name and ``name_prefix``."""
    return preview_fingerprint(run_preview(with_neutral_prefix(stack)))
