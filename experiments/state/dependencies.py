"""The order ``pulumi up`` must follow, read back from a preview document (``preview.json``).

Every recorded resource lists the URNs it waits for (``dependencies``: explicit ``depends_on`` and
the resources its inputs come from).  The engine starts a resource only once all of them exist, so
"B comes after A" holds exactly when A is in B's transitive dependencies: what a reviewer (or a
test) checks for the disruptive steps, e.g. that a worker's stop comes after its claim and its
cluster subnets, and the next worker's stop after this one is back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["comes_after", "transitive_dependencies"]


def transitive_dependencies(resources: Sequence[Mapping[str, Any]]) -> dict[str, frozenset[str]]:
    """URN -> every URN it waits for, directly or through others."""
    direct = {str(r["urn"]): set(r.get("dependencies") or ()) for r in resources}
    closed: dict[str, frozenset[str]] = {}

    def close(urn: str, visiting: frozenset[str]) -> frozenset[str]:
        if urn in closed:
            return closed[urn]
        found: set[str] = set()
        for dep in direct.get(urn, ()):
            found.add(dep)
            if dep not in visiting:  # the engine refuses cycles; a document with one must not hang this
                found |= close(dep, visiting | {urn})
        closed[urn] = frozenset(found)
        return closed[urn]

    for urn in direct:
        close(urn, frozenset())
    return closed


def comes_after(document: Mapping[str, Any], later: str, earlier: str) -> bool:
    """Whether the resource ``later`` (a URN) can only start once ``earlier`` exists."""
    return earlier in transitive_dependencies(document["resources"]).get(later, frozenset())
