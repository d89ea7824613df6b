"""Objects ``--submit`` finds under the names ``setup.yaml`` uses: read, and used only when they are what
is rendered (``check_kept``), or replaced with the version read (``versioned``).

A ConfigMap's name is its content's digest, so anyone could plant one first (a kubeconfig pointing the
runner's token elsewhere); a claim, a ServiceAccount and a stack's Namespace must carry the project's
label; an SCC is replaced, so it grants what the cells need (a PUT of a custom resource must carry the
``resourceVersion`` of the object it replaces).
"""

from __future__ import annotations

from typing import Any

from kubernetes.client.exceptions import ApiException

from experiments.base.errors import InputError
from experiments.base.shapes import as_dict
from experiments.live.kube import Kube

__all__ = ["SCC_API", "check_kept", "label", "versioned"]

SCC_API = ("security.openshift.io", "v1", "securitycontextconstraints")


def label(obj: dict[str, Any]) -> str:
    meta = obj["metadata"]
    return f"{obj['kind']} {meta.get('namespace', '')}{'/' if meta.get('namespace') else ''}{meta['name']}"


def versioned(kube: Kube, target: Any, scc: dict[str, Any]) -> dict[str, Any]:
    """The SCC with the resourceVersion of the one found: a PUT of a custom resource must carry it."""
    what = f"reading the existing {label(scc)}"
    try:
        found = as_dict(kube.read_json(target.get_cluster_custom_object, *SCC_API, scc["metadata"]["name"], what=what))
    except ApiException as error:
        raise InputError(kube.api_error(error, what)) from None
    version = as_dict(found.get("metadata")).get("resourceVersion")
    if not isinstance(version, str) or not version.isdigit():
        raise InputError(f"{label(scc)}: the API answered no resourceVersion; nothing was replaced")
    return {**scc, "metadata": {**scc["metadata"], "resourceVersion": version}}


_READ = {
    "Namespace": "read_namespace",
    "ServiceAccount": "read_namespaced_service_account",
    "PersistentVolumeClaim": "read_namespaced_persistent_volume_claim",
    "ConfigMap": "read_namespaced_config_map",
}


def _difference(wanted: dict[str, Any], found: Any) -> str | None:
    """How an object found under a name ``setup.yaml`` uses differs from what it renders, or None.
    A ConfigMap must hold exactly the rendered data, immutable (its name is its content's digest, so
    anyone could plant one first: a kubeconfig pointing the runner's token elsewhere); a claim and a
    ServiceAccount must carry the project's label and, for the claim, the rendered access modes and
    class (the state lives on it)."""
    found, meta = as_dict(found), as_dict(as_dict(found).get("metadata"))
    labels = as_dict(meta.get("labels"))
    if any(labels.get(k) != v for k, v in as_dict(wanted["metadata"].get("labels")).items()):
        return "it lacks the project's labels"
    if wanted["kind"] == "ConfigMap":
        if found.get("data") != wanted["data"] or found.get("binaryData") or found.get("immutable") is not True:
            return "its data is not what setup.yaml renders under that name"
    if wanted["kind"] == "PersistentVolumeClaim":
        spec, ours = as_dict(found.get("spec")), wanted["spec"]
        if spec.get("accessModes") != ours["accessModes"] or (
            "storageClassName" in ours and spec.get("storageClassName") != ours["storageClassName"]
        ):
            return "its access modes or storage class are not setup.yaml's"
    return None


def check_kept(kube: Kube, target: Any, obj: dict[str, Any]) -> None:
    """An object that already exists is used only once read and found equal to what is rendered."""
    meta = obj["metadata"]
    where = (meta["namespace"],) if "namespace" in meta else ()
    try:
        found = kube.read_json(
            getattr(target, _READ[obj["kind"]]), meta["name"], *where, what=f"reading the existing {label(obj)}"
        )
    except ApiException as error:
        raise InputError(kube.api_error(error, f"reading the existing {label(obj)}")) from None
    why = _difference(obj, found)
    if why:
        raise InputError(
            f"{label(obj)} already exists and {why}: not created by this setup, or changed since; "
            "nothing was submitted (delete it, or render into another --namespace)"
        )
