"""Kubernetes objects as plain manifests, and their declaration as Pulumi resources.

The fabric renders every object as the manifest that would be applied (``Manifest``: a dict
with ``apiVersion``, ``kind``, ``metadata`` and ``spec`` or ``data``), so tests, schema
validation and the preview's manifest files all see exactly what Pulumi sends.  ``declare``
turns one into a resource: typed ``ConfigMap`` for the core kind, ``CustomResource`` for CRDs
and ``CustomResourcePatch`` (server-side apply of only our fields) for objects another owner
created, such as the GPU operator's ClusterPolicy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.apiextensions import CustomResource, CustomResourcePatch

__all__ = ["PATCH_FORCE_ANNOTATION", "Manifest", "declare", "part_of_labels"]

PATCH_FORCE_ANNOTATION = "pulumi.com/patchForce"
"""Lets a server-side-apply patch take fields another field manager set (e.g. the console)."""


@dataclass(frozen=True)
class Manifest:
    """One object as it is applied; ``patch`` objects hold only the fields we own."""

    body: dict[str, Any]
    patch: bool = False

    @property
    def api_version(self) -> str:
        return str(self.body["apiVersion"])

    @property
    def kind(self) -> str:
        return str(self.body["kind"])

    @property
    def name(self) -> str:
        return str(self.body["metadata"]["name"])

    @property
    def namespace(self) -> str | None:
        namespace = self.body["metadata"].get("namespace")
        return str(namespace) if namespace is not None else None


def part_of_labels(instance: str) -> dict[str, str]:
    """Labels on every object this project owns (not on patches of others' objects)."""
    return {"app.kubernetes.io/part-of": "gpu-cluster", "app.kubernetes.io/instance": instance}


def declare(name: str, manifest: Manifest, opts: pulumi.ResourceOptions) -> pulumi.CustomResource:
    """Register ``manifest`` as the Pulumi resource ``name``."""
    body = manifest.body
    if manifest.patch:
        return CustomResourcePatch(name, api_version=manifest.api_version, kind=manifest.kind,
                                   metadata=body["metadata"], spec=body.get("spec"), opts=opts)
    if (manifest.api_version, manifest.kind) == ("v1", "ConfigMap"):
        return k8s.core.v1.ConfigMap(name, metadata=body["metadata"], data=body.get("data"), opts=opts)
    extra = {key: value for key, value in body.items() if key not in ("apiVersion", "kind", "metadata")}
    return CustomResource(name, api_version=manifest.api_version, kind=manifest.kind,
                          metadata=body["metadata"], opts=opts, **extra)
