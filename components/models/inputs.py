"""The component package's input shape: the stack file's ``gpu-cluster:cluster`` mapping as typed dicts.

Other Pulumi languages construct ``GpuCluster`` (``components.package``) with these fields, camelCased by the
schema (``nodes.nicsPerNode``); the provider hands them back snake_cased, the stack file's own keys, and the
component validates them with the stack file's models (``ClusterConfig``), so a typo or a bad value fails the
same way with the same message. The deep sections (``openshift``, ``kubernetes``, ``fabric``, ``job``) pass
through as mappings with the stack file's keys (docs/configuration.md). A test keeps these keys equal to the
models' fields.
"""

# No `from __future__ import annotations`: the package's schema is read from these annotations as objects.

from typing import Any, NotRequired, TypedDict

__all__ = ["ClusterInputs", "NetworkInputs", "NodesInputs", "SecurityInputs"]


class NodesInputs(TypedDict):
    """The GPU nodes of the experiment, and where they come from."""

    profile: str
    """IBM instance profile of every GPU node, e.g. gx3d-160x1792x8h100 or gx3-48x240x2l40s."""
    count: int
    """Number of GPU nodes (1 to 1024)."""
    source: NotRequired[str]
    """adopt (the cluster's existing GPU workers get the NICs), join (new instances join the cluster) or
    standalone (a VPC and instances of their own, with layers: cloud; the default)."""
    names: NotRequired[list[str]]
    """adopt: the workers to use; join: the names (and hostnames) of the new instances."""
    machineset: NotRequired[str]
    """adopt: every instance whose name starts with <machineset>- instead of names."""
    allow_instance_stop: NotRequired[bool | str]
    """adopt with a cluster network: consent to stop each worker to attach its cluster NICs (rolling): true for
    the stack's first roll-out, the roll-out id the preview names (rollout-<8 hex digits>) for any later one."""
    max_unavailable: NotRequired[int]
    """adopt with a cluster network: at most this many workers out of service at once (default 1)."""
    drain_delete_emptydir_data: NotRequired[bool]
    """adopt with a cluster network: let the drain evict pods with emptyDir volumes (their data is lost;
    default false: such a pod stops the drain)."""
    drain_timeout_s: NotRequired[int]
    """adopt with a cluster network: seconds a drain may wait for evictions (default 900)."""
    allow_worker_change: NotRequired[bool]
    """adopt: let an update move the NICs when the selection swaps workers."""
    hosts: NotRequired[dict[str, int]]
    """adopt: workers pinned to host numbers (what the refusal of an address still held names)."""
    image: NotRequired[str]
    """VPC image name of created instances (standalone and join)."""
    join: NotRequired[dict[str, Any]]
    """join: ignition (cluster or secret), kubeadm_endpoint, approve_csrs."""


class NetworkInputs(TypedDict):
    """How the nodes talk to each other during training."""

    variant: str
    """pod, vnic, sriov or sriov-rdma."""
    nics_per_node: int
    """Secondary NICs the training job uses on every node (0 for pod)."""
    attached_nics: NotRequired[int]
    """Secondary NICs attached to every node (vNICs, or 8, 16 or 32 cluster NICs); the job may use fewer."""
    vpc_cidr: NotRequired[str]
    """The VPC address prefix in the node zone (default 10.241.0.0/16)."""
    subnet_prefix_length: NotRequired[int]
    """Size of every VPC and cluster subnet (default 24); changing it later replaces every subnet."""
    cluster_network_cidr: NotRequired[str]
    """The cluster network's subnet prefix (sriov and sriov-rdma; default 10.0.0.0/16)."""


class SecurityInputs(TypedDict):
    """Who may reach the nodes from outside the cluster."""

    ssh_allowed_cidrs: NotRequired[list[str]]
    """Sources allowed to SSH to the nodes' management interfaces (none by default)."""
    ssh_key_name: NotRequired[str]
    """An SSH key that already exists in the region, used instead of creating one from sshPublicKey."""


class ClusterInputs(TypedDict):
    """The ``gpu-cluster:cluster`` mapping of a stack file (docs/configuration.md)."""

    zone: str
    """IBM Cloud zone of the nodes, e.g. us-east-3."""
    nodes: NodesInputs
    """The GPU nodes."""
    network: NetworkInputs
    """The network the training job uses."""
    name_prefix: NotRequired[str]
    """Prefix of every cloud resource name (default gpu)."""
    resource_group: NotRequired[str]
    """Resource group name (default: the account's default group)."""
    security: NotRequired[SecurityInputs]
    """SSH access to the nodes."""
    tags: NotRequired[list[str]]
    """Extra user tags on every taggable cloud resource."""
    layers: NotRequired[str]
    """both (the default), cloud or kubernetes: what the component manages."""
    openshift: NotRequired[dict[str, Any]]
    """The existing cluster (adopt or join): infra_id, vpc, compute_subnet, security_groups, image."""
    kubernetes: NotRequired[dict[str, Any]]
    """The cluster the training runs on: context, openshift, nodes (layers: kubernetes), ..."""
    fabric: NotRequired[dict[str, Any]]
    """The Kubernetes network fabric's settings (operators, SR-IOV, IPAM)."""
    job: NotRequired[dict[str, Any]]
    """The training job and the NCCL benchmark."""
