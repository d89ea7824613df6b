"""The pods of the jobs that train or benchmark, as the Kubernetes rules read them: pod templates,
containers' requests, environment and capabilities, and the Multus networks a pod names."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from policy_props import has_key, mapping, sequence

__all__ = [
    "ALLOWED_CAPABILITIES",
    "NAD_GENERATORS",
    "NAD_KIND",
    "NETWORKS_ANNOTATION",
    "NIC_CLUSTER_POLICY",
    "PRIMARY_INTERFACE",
    "RDMA_ONLY_CAPABILITY",
    "RDMA_RESOURCE_PREFIX",
    "SRIOV_NODE_POLICY",
    "NetworkRef",
    "PodTemplate",
    "capabilities_added",
    "job_pod_templates",
    "k8s_kind",
    "metadata_of",
    "multus_networks",
    "plain_env",
    "requested_resources",
    "socket_ifname_misses",
]

# --- Kubernetes -------------------------------------------------------------------------

NETWORKS_ANNOTATION = "k8s.v1.cni.cncf.io/networks"
PRIMARY_INTERFACE = "eth0"
ALLOWED_CAPABILITIES = frozenset({"IPC_LOCK", "NET_ADMIN"})
RDMA_ONLY_CAPABILITY = "IPC_LOCK"
"""Pins memory for RDMA registration; without an RDMA device it is privilege for nothing."""
RDMA_RESOURCE_PREFIX = "rdma/"
"""The NVIDIA RDMA shared device plugin's default resource prefix."""
DEFAULT_NAMESPACE = "default"

# Job kinds whose pods run the training or the NCCL benchmark: (API group, kind).
_PYTORCH_JOB = ("kubeflow.org", "PyTorchJob")
_LEADER_WORKER_SET = ("leaderworkerset.x-k8s.io", "LeaderWorkerSet")
# Kinds that make the SR-IOV operator generate a NAD of their own name.
NAD_GENERATORS = frozenset(
    {
        ("sriovnetwork.openshift.io", "SriovNetwork"),
        ("sriovnetwork.openshift.io", "SriovIBNetwork"),
        ("sriovnetwork.openshift.io", "OVSNetwork"),
    }
)
NAD_KIND = ("k8s.cni.cncf.io", "NetworkAttachmentDefinition")
SRIOV_NODE_POLICY = ("sriovnetwork.openshift.io", "SriovNetworkNodePolicy")
NIC_CLUSTER_POLICY = ("mellanox.com", "NicClusterPolicy")


def k8s_kind(resource_type: str) -> tuple[str, str] | None:
    """(API group, kind) of a Kubernetes resource token ``kubernetes:<group>/<version>:<Kind>``."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes" or "/" not in parts[1]:
        return None
    return parts[1].split("/", 1)[0], parts[2]


def metadata_of(props: Mapping[str, Any]) -> tuple[str | None, str]:
    """(name, namespace) of a Kubernetes object."""
    metadata = mapping(props.get("metadata"))
    name = metadata.get("name")
    return (name if isinstance(name, str) else None), str(metadata.get("namespace") or DEFAULT_NAMESPACE)


# --- pods of jobs -----------------------------------------------------------------------


@dataclass(frozen=True)
class PodTemplate:
    role: str
    """``Master``/``Worker`` (PyTorchJob) or ``leader``/``worker`` (LeaderWorkerSet)."""
    namespace: str
    metadata: Mapping[str, Any]
    spec: Mapping[str, Any]

    def containers(self) -> Iterator[Mapping[str, Any]]:
        for key in ("initContainers", "containers", "ephemeralContainers"):
            for container in sequence(self.spec.get(key)):
                if isinstance(container, Mapping):
                    yield container

    def label(self, container: Mapping[str, Any]) -> str:
        return f"{self.role} pod, container {container.get('name')!r}"


def job_pod_templates(resource_type: str, props: Mapping[str, Any]) -> list[PodTemplate]:
    """The pod templates of a PyTorchJob or LeaderWorkerSet; empty for anything else."""
    kind = k8s_kind(resource_type)
    if kind not in (_PYTORCH_JOB, _LEADER_WORKER_SET):
        return []
    _, namespace = metadata_of(props)
    spec = mapping(props.get("spec"))
    if kind == _PYTORCH_JOB:
        roles = mapping(spec.get("pytorchReplicaSpecs"))
        templates = [(role, mapping(roles[role]).get("template")) for role in roles]
    else:
        group = mapping(spec.get("leaderWorkerTemplate"))
        templates = [("leader", group.get("leaderTemplate")), ("worker", group.get("workerTemplate"))]
    return [
        PodTemplate(role, namespace, mapping(mapping(t).get("metadata")), mapping(mapping(t).get("spec")))
        for role, t in templates
        if isinstance(t, Mapping)
    ]


def requested_resources(container: Mapping[str, Any]) -> set[str]:
    resources = mapping(container.get("resources"))
    return {str(k) for part in ("limits", "requests") for k in mapping(resources.get(part))}


def plain_env(container: Mapping[str, Any]) -> dict[str, str]:
    """Env vars with literal values (``valueFrom`` ones are decided at run time)."""
    env: dict[str, str] = {}
    for entry in sequence(container.get("env")):
        var = mapping(entry)
        if isinstance(var.get("name"), str) and isinstance(var.get("value"), str):
            env[var["name"]] = var["value"]
    return env


def capabilities_added(container: Mapping[str, Any]) -> list[str]:
    """Added capabilities, normalised the way the runtime reads them (``cap_ipc_lock`` = ``IPC_LOCK``)."""
    context = mapping(container.get("securityContext"))
    added = sequence(mapping(context.get("capabilities")).get("add"))
    return [str(c).upper().removeprefix("CAP_") for c in added]


@dataclass(frozen=True)
class NetworkRef:
    namespace: str
    name: str
    interface: str


def multus_networks(template: PodTemplate) -> list[NetworkRef] | None:
    """The secondary networks a pod template asks Multus for; None without the annotation.

    Both annotation forms: the JSON list of selection objects and the short
    ``[namespace/]name[@interface]`` comma list.  Multus names an interface left unnamed
    ``net<position>``.  Raises ValueError for an annotation Multus would reject.
    """
    annotations = mapping(template.metadata.get("annotations"))
    if not has_key(annotations, NETWORKS_ANNOTATION):
        return None
    text = str(annotations[NETWORKS_ANNOTATION]).strip()
    refs: list[NetworkRef] = []
    if text.startswith(("[", "{")):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"{NETWORKS_ANNOTATION} is not valid JSON: {err}") from None
        for position, entry in enumerate(parsed if isinstance(parsed, list) else [parsed], start=1):
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                raise ValueError(f"{NETWORKS_ANNOTATION} entry {position} has no network name")
            refs.append(
                NetworkRef(
                    namespace=str(entry.get("namespace") or template.namespace),
                    name=entry["name"],
                    interface=str(entry.get("interface") or f"net{position}"),
                )
            )
        return refs
    for position, item in enumerate((i.strip() for i in text.split(",") if i.strip()), start=1):
        selection, _, interface = item.partition("@")
        namespace, _, name = selection.rpartition("/")
        refs.append(NetworkRef(namespace or template.namespace, name, interface or f"net{position}"))
    return refs


def socket_ifname_misses(value: str, interfaces: Iterable[str]) -> list[str]:
    """NCCL_SOCKET_IFNAME entries that select none of ``interfaces``, by NCCL's rules: entries are
    prefixes, ``=`` makes them exact, and a ``^`` list excludes (it names nothing to look for)."""
    value = value.strip()
    if value.startswith("^"):
        return []
    exact = value.startswith("=")
    entries = [e.strip() for e in value.removeprefix("=").split(",") if e.strip()]
    names = list(interfaces)
    return [e for e in entries if not any(n == e if exact else n.startswith(e) for n in names)]
