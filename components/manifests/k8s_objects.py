"""Kubernetes objects as plain manifests, and their declaration as Pulumi resources.

The fabric renders every object as the manifest that would be applied (``Manifest``: a dict
with ``apiVersion``, ``kind``, ``metadata`` and ``spec`` or ``data``), so tests, schema
validation and the preview's manifest files all see exactly what Pulumi sends.  ``declare``
turns one into a resource: typed ``ConfigMap`` for the core kind, ``CustomResource`` for CRDs
and ``CustomResourcePatch`` (server-side apply of only our fields) for objects another owner
created, such as the GPU operator's ClusterPolicy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import version
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


def declare(name: str, manifest: Manifest | Mapping[str, Any], opts: pulumi.ResourceOptions) -> pulumi.CustomResource:
    """Register ``manifest`` as the Pulumi resource ``name``, typed where pulumi-kubernetes has a class."""
    if not isinstance(manifest, Manifest):
        manifest = Manifest(body=dict(manifest))
    body, kind = manifest.body, manifest.kind
    metadata = body["metadata"]
    if manifest.patch:
        return CustomResourcePatch(
            name, api_version=manifest.api_version, kind=kind, metadata=metadata, spec=body.get("spec"), opts=opts
        )
    if manifest.api_version == "v1" and kind == "ConfigMap":
        return k8s.core.v1.ConfigMap(name, metadata=metadata, data=body.get("data"), opts=opts)
    if manifest.api_version == "v1" and kind == "PersistentVolumeClaim":
        return k8s.core.v1.PersistentVolumeClaim(name, metadata=metadata, spec=body["spec"], opts=opts)
    if manifest.api_version == "v1" and kind == "ServiceAccount":
        return k8s.core.v1.ServiceAccount(
            name, metadata=metadata, opts=opts, automount_service_account_token=body.get("automountServiceAccountToken")
        )
    if manifest.api_version == "rbac.authorization.k8s.io/v1" and kind == "Role":
        return k8s.rbac.v1.Role(name, metadata=metadata, rules=body["rules"], opts=opts)
    if manifest.api_version == "rbac.authorization.k8s.io/v1" and kind == "RoleBinding":
        return k8s.rbac.v1.RoleBinding(
            name, metadata=metadata, role_ref=body["roleRef"], subjects=body["subjects"], opts=opts
        )
    if set(body) <= {"apiVersion", "kind", "metadata", "spec"}:
        return CustomResource(
            name, api_version=manifest.api_version, kind=kind, metadata=metadata, spec=body.get("spec"), opts=opts
        )
    return _TopLevelFieldsObject(name, body, opts)


class _TopLevelFieldsObject(pulumi.CustomResource):
    """An object with top-level fields besides ``spec`` (an OpenShift SCC), which
    ``apiextensions.CustomResource`` cannot carry in Python: registered under its own type
    token with the manifest as its inputs, as the provider expects."""

    def __init__(self, name: str, body: Mapping[str, Any], opts: pulumi.ResourceOptions) -> None:
        pinned = pulumi.ResourceOptions(version=version("pulumi_kubernetes"))
        super().__init__(
            f"kubernetes:{body['apiVersion']}:{body['kind']}",
            name,
            dict(body),
            pulumi.ResourceOptions.merge(opts, pinned),
        )
