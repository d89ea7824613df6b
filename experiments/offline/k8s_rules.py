"""What pulumi-kubernetes does when a field of an object changes (replace it, or update it in place),
and which objects lose data or disrupt nodes when they change.

Read from the provider's own table (``forceNew`` in pulumi-kubernetes ``provider/pkg/provider/diff.go``):
the diff flags these changes as ``[replace]``, and a replaced claim or namespace as data loss.
"""

from __future__ import annotations

__all__ = ["DATA_KINDS", "JOB_KINDS", "KUBERNETES_REPLACE_ON_CHANGE", "NODE_DISRUPTING_KINDS"]

# Kubernetes objects that a change replaces: pulumi-kubernetes v4's own table (``forceNew`` in
# provider/pkg/provider/diff.go): a new name or namespace is a new object; ConfigMap and Secret
# contents too, because this project's provider does not set enableConfigMapMutable/
# enableSecretMutable; the claim's access modes, class, selector and volume (a size change is an
# in-place expansion); a Job's template, selector, completions and parallelism; a binding's roleRef.
# Custom resources (PyTorchJob, NADs, policies, SCCs) update in place.
KUBERNETES_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "*": ("metadata.name", "metadata.namespace"),
    "ConfigMap": ("binaryData", "data"),
    "Secret": ("data", "stringData", "type"),
    "PersistentVolumeClaim": ("spec.accessModes", "spec.selector", "spec.storageClassName", "spec.volumeName"),
    "Job": ("spec.completions", "spec.parallelism", "spec.selector", "spec.template"),
    "RoleBinding": ("roleRef",),
    "ClusterRoleBinding": ("roleRef",),
    "Service": ("spec.clusterIP",),
    "StorageClass": ("parameters", "provisioner"),
}

# Objects whose replacement or removal loses data.
DATA_KINDS: dict[str, str] = {
    "PersistentVolumeClaim": "the claim's volume (training data and checkpoints) is deleted with it",
    "Namespace": "deleting a namespace deletes everything in it, the data claim included",
}
# Jobs whose running pods a spec change does not touch.
JOB_KINDS = frozenset({"PyTorchJob", "LeaderWorkerSet", "MPIJob"})

# Kinds whose creation, change or removal makes an operator drain and/or reboot nodes.
NODE_DISRUPTING_KINDS: dict[str, str] = {
    "SriovNetworkNodePolicy": "the SR-IOV operator drains each selected node (and may reboot it) to apply VF config",
    "MachineConfig": "the Machine Config Operator drains and reboots every node of the pool",
    "NicClusterPolicy": "the NVIDIA network operator rolls its driver and device-plugin pods on every node",
    "ClusterPolicy": "the GPU operator restarts driver pods, evicting GPU workloads node by node",
}
