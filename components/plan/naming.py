"""IBM names of the NICs the stack gives instances: its own nodes' and those it does not own.

One place, because the lookup uses them too: a NIC or cluster attachment whose name the stack
would give is the stack's own (from an earlier ``pulumi up``), any other one is foreign and
counts against the instance's limits.
"""

from __future__ import annotations

import hashlib

__all__ = ["cluster_attachment_name", "fit_ibm_name", "secondary_nic_name"]

IBM_NAME_MAX = 63


def secondary_nic_name(name_prefix: str, index: int) -> str:
    """Name of secondary vNIC ``index`` on a node (unique per instance, which is IBM's scope)."""
    return f"{name_prefix}-vnic{index}"


def cluster_attachment_name(name_prefix: str, index: int) -> str:
    """Name of cluster network attachment ``index`` on a node (unique per instance)."""
    return f"{name_prefix}-cnic{index}"


def fit_ibm_name(base: str, suffix: str) -> str:
    """``base-suffix``, shortened with a digest of ``base`` when it would pass IBM's 63 characters
    (a worker name of a long infra ID plus a per-NIC suffix can)."""
    name = f"{base}-{suffix}"
    if len(name) <= IBM_NAME_MAX:
        return name
    digest = hashlib.sha256(base.encode()).hexdigest()[:8]
    keep = IBM_NAME_MAX - len(suffix) - len(digest) - 2
    return f"{base[:keep].rstrip('-')}-{digest}-{suffix}"
