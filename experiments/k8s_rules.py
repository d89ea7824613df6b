"""What pulumi-kubernetes does when a field of an object changes: replace it, or update it in place.

Read from the provider's own table (``forceNew`` in pulumi-kubernetes ``provider/pkg/provider``):
the diff flags these changes as ``[replace]``, and a replaced claim or namespace as data loss.
"""

from __future__ import annotations

__all__ = ["KUBERNETES_REPLACE_ON_CHANGE"]

# Kubernetes objects that a change replaces: pulumi-kubernetes's own ForceNew table (provider
# ``forceNew``: a new name or namespace is a new object; ConfigMap and Secret contents unless the
# provider is told they are mutable, which this stack's is not; a claim's whole spec; a Job's
# template; a binding's roleRef).  Custom resources (PyTorchJob, NADs, policies) update in place.
KUBERNETES_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "*": ("metadata.name", "metadata.namespace"),
    "ConfigMap": ("binaryData", "data"),
    "Secret": ("data", "stringData", "type"),
    "PersistentVolumeClaim": ("spec",),
    "Job": ("spec.selector", "spec.template"),
    "RoleBinding": ("roleRef",),
    "ClusterRoleBinding": ("roleRef",),
    "Service": ("spec.clusterIP", "spec.type"),
    "StorageClass": ("parameters", "provisioner"),
}
