"""The project's invariants as CrossGuard policies, checked on what the engine sends.

Every rule reads plain engine properties: camelCase keys, Kubernetes objects as their
manifests, IBM resources as the bridge sees them.  In a real ``pulumi preview``/``up`` the
analyzer hands them over wrapped in read-only proxies (``Mapping``/``Sequence``, not
``dict``/``list``) that raise ``UnknownValueError`` on a value not known yet; the analyzer
turns that into an advisory "can't run during preview" note.  Rules therefore test types
against the abstract collections, and the stack rules resolve references through the
engine's property dependencies first, which are known even when IDs are not.

Resource rules see a resource's *inputs* after the provider's Check (so the bridge's
auto-name, if any, is already filled in and listed in ``__defaults``); stack rules see
every resource's *outputs* (a bridged resource's outputs carry its ``id``).

This module only lists the policies; the rules are split by domain: ``ibm_policies.py`` (IBM
resources) and ``k8s_policies.py`` (the job pods, as ``job_pods.py`` reads them), with
``policy_props.py`` reading proxied properties for both.  The ``PolicyPack(...)`` call, which
serves gRPC and never returns, lives in ``__main__.py`` alone.
"""

from __future__ import annotations

# The CLI runs the pack's directory as a script, with it first on sys.path: its modules import each
# other by their bare names (the tests put the directory on sys.path the same way).
from ibm_policies import (
    ADDRESS_DIGEST,
    ADDRESS_NAMED_KINDS,
    CLUSTER_ATTACHMENT_COUNTS,
    IBM_NAMED_KINDS,
    validate_cluster_attachment_counts,
    validate_delete_before_replace,
    validate_ibm_names,
    validate_secondary_group_self_only,
)
from job_pods import (
    ALLOWED_CAPABILITIES,
    NETWORKS_ANNOTATION,
    NetworkRef,
    PodTemplate,
    job_pod_templates,
    multus_networks,
)
from k8s_policies import (
    validate_job_pod_security,
    validate_multus_networks_exist,
    validate_nccl_socket_interfaces,
    validate_rdma_consistency,
)
from pulumi_policy import EnforcementLevel, Policy, ResourceValidationPolicy, StackValidationPolicy

__all__ = [
    "ALLOWED_CAPABILITIES",
    "CLUSTER_ATTACHMENT_COUNTS",
    "ADDRESS_DIGEST",
    "ADDRESS_NAMED_KINDS",
    "IBM_NAMED_KINDS",
    "NETWORKS_ANNOTATION",
    "POLICIES",
    "NetworkRef",
    "PodTemplate",
    "job_pod_templates",
    "multus_networks",
]

# --- the policies -----------------------------------------------------------------------

POLICIES: list[Policy] = [
    ResourceValidationPolicy(
        name="ibm-explicit-names",
        description="Every IBM resource that takes a name sets it, as a valid IBM name (lowercase letters, "
        "digits, hyphens; at most 63): the bridge would otherwise auto-name it with a random suffix.",
        validate=validate_ibm_names,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    ResourceValidationPolicy(
        name="ibm-delete-before-replace",
        description="IBM resources with fixed names are replaced delete-first (deleteBeforeReplace), since IBM "
        "names are unique and a create-first replacement collides with the old resource.",
        validate=validate_delete_before_replace,
        enforcement_level=EnforcementLevel.ADVISORY,
    ),
    ResourceValidationPolicy(
        name="job-pod-security",
        description="Training and benchmark pods (PyTorchJob, LeaderWorkerSet) are never privileged, never allow "
        "privilege escalation, and add no capability beyond IPC_LOCK and NET_ADMIN.",
        validate=validate_job_pod_security,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    ResourceValidationPolicy(
        name="job-nccl-socket-interfaces",
        description="NCCL_SOCKET_IFNAME in job pods names only interfaces the pod has: those of its Multus "
        "networks annotation, or eth0 when it has none.",
        validate=validate_nccl_socket_interfaces,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    StackValidationPolicy(
        name="job-rdma-consistency",
        description="Only job containers that request an RDMA device (rdma/*, or an SR-IOV resource of an isRdma "
        "node policy) add IPC_LOCK or enable NCCL's InfiniBand transport (NCCL_IB_DISABLE=0, NCCL_NET=IB).",
        validate=validate_rdma_consistency,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    StackValidationPolicy(
        name="multus-networks-exist",
        description="Every network a job pod's Multus annotation names is a NetworkAttachmentDefinition the stack "
        "creates (directly or through an SR-IOV network) in the same namespace.",
        validate=validate_multus_networks_exist,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    StackValidationPolicy(
        name="cluster-network-attachment-count",
        description="An instance on a cluster network has 8, 16 or 32 cluster network attachments (inline and "
        "standalone together).",
        validate=validate_cluster_attachment_counts,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
    StackValidationPolicy(
        name="secondary-sg-self-only",
        description="The secondary security group admits inbound traffic only from its own members.",
        validate=validate_secondary_group_self_only,
        enforcement_level=EnforcementLevel.MANDATORY,
    ),
]
