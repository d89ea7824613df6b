"""Stack names as the file backend resolves them: what the offline engine answers a ``StackReference`` with."""

from __future__ import annotations

import pulumi

__all__ = ["ORGANIZATION", "file_backend_name"]

ORGANIZATION = "organization"
"""What the file backend (``pulumi login file://...``) names every stack's organization."""


def file_backend_name(reference: str) -> str:
    """A stack reference's name as the file backend's project layout resolves it (pulumi/pulumi
    ``pkg/backend/diy/store.go``, ``projectReferenceStore.ParseReference``): ``stack`` and ``organization/stack``
    are stacks of the current project, ``organization/<project>/<stack>`` names itself."""
    parts = reference.split("/")
    if len(parts) == 3:
        return reference
    return f"{ORGANIZATION}/{pulumi.get_project()}/{parts[-1]}"
