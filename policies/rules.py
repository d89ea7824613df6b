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

This module only builds policy objects: the ``PolicyPack(...)`` call, which serves gRPC
and never returns, lives in ``__main__.py`` alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    Policy,
    PolicyResource,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UnknownValueError

__all__ = [
    "ALLOWED_CAPABILITIES",
    "CLUSTER_ATTACHMENT_COUNTS",
    "IBM_NAMED_KINDS",
    "NETWORKS_ANNOTATION",
    "POLICIES",
    "NetworkRef",
    "PodTemplate",
    "job_pod_templates",
    "multus_networks",
]

# --- IBM --------------------------------------------------------------------------------

IBM_NAMED_KINDS = frozenset({
    # Every IBM resource whose Terraform schema has a ``name`` input: the bridge makes it
    # optional and, when left out, fills in ``<logical name>-<7 random chars>``.
    "IsVpc", "IsVpcAddressPrefix", "IsSubnet", "IsPublicGateway", "IsSecurityGroup", "IsSecurityGroupRule",
    "IsSshKey", "IsInstance", "IsVirtualNetworkInterface", "IsInstanceNetworkAttachment", "IsClusterNetwork",
    "IsClusterNetworkSubnet", "IsClusterNetworkSubnetReservedIp", "IsClusterNetworkInterface",
    "IsInstanceClusterNetworkAttachment", "ContainerVpcCluster", "IsInstanceNetworkInterface", "IsSubnetReservedIp",
})
IBM_NAME = re.compile(r"^[a-z](?:[-a-z0-9]*[a-z0-9])?$")
IBM_NAME_MAX = 63
BRIDGE_DEFAULTS_KEY = "__defaults"
"""Where the bridge's Check lists the inputs it filled in itself (the auto-name among them)."""

CLUSTER_ATTACHMENT_COUNTS = (8, 16, 32)
"""Cluster network attachments IBM accepts on one instance (hopper-1 cluster networks)."""

_IBM_PREFIX = "ibm:"

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
_NAD_GENERATORS = frozenset({
    ("sriovnetwork.openshift.io", "SriovNetwork"),
    ("sriovnetwork.openshift.io", "SriovIBNetwork"),
    ("sriovnetwork.openshift.io", "OVSNetwork"),
})
_NAD = ("k8s.cni.cncf.io", "NetworkAttachmentDefinition")
_SRIOV_NODE_POLICY = ("sriovnetwork.openshift.io", "SriovNetworkNodePolicy")
_NIC_CLUSTER_POLICY = ("mellanox.com", "NicClusterPolicy")


# --- property helpers -------------------------------------------------------------------


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _sequence(value: Any) -> Sequence[Any]:
    return value if isinstance(value, Sequence) and not isinstance(value, str) else ()


def _known_items(values: Sequence[Any]) -> Iterator[Any]:
    """The elements known so far (an ID list of resources still to be created is not)."""
    for index in range(len(values)):
        try:
            yield values[index]
        except UnknownValueError:
            continue


def _has_key(props: Mapping[str, Any], key: str) -> bool:
    """Presence without reading the value (reading an unknown one raises at preview)."""
    return any(k == key for k in props)


def _defaulted(props: Mapping[str, Any]) -> set[str]:
    """Inputs the bridge's Check filled in with defaults (``name`` when it auto-named)."""
    return {str(k) for k in _sequence(props.get(BRIDGE_DEFAULTS_KEY))}


def _ibm_kind(resource_type: str) -> str | None:
    """``IsVpc`` for ``ibm:index/isVpc:IsVpc``; None for anything not an IBM resource."""
    return resource_type.rsplit(":", 1)[-1] if resource_type.startswith(_IBM_PREFIX) else None


def _k8s_kind(resource_type: str) -> tuple[str, str] | None:
    """(API group, kind) of a Kubernetes resource token ``kubernetes:<group>/<version>:<Kind>``."""
    parts = resource_type.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes" or "/" not in parts[1]:
        return None
    return parts[1].split("/", 1)[0], parts[2]


def _metadata(props: Mapping[str, Any]) -> tuple[str | None, str]:
    """(name, namespace) of a Kubernetes object."""
    metadata = _mapping(props.get("metadata"))
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
            for container in _sequence(self.spec.get(key)):
                if isinstance(container, Mapping):
                    yield container

    def label(self, container: Mapping[str, Any]) -> str:
        return f"{self.role} pod, container {container.get('name')!r}"


def job_pod_templates(resource_type: str, props: Mapping[str, Any]) -> list[PodTemplate]:
    """The pod templates of a PyTorchJob or LeaderWorkerSet; empty for anything else."""
    kind = _k8s_kind(resource_type)
    if kind not in (_PYTORCH_JOB, _LEADER_WORKER_SET):
        return []
    _, namespace = _metadata(props)
    spec = _mapping(props.get("spec"))
    if kind == _PYTORCH_JOB:
        roles = _mapping(spec.get("pytorchReplicaSpecs"))
        templates = [(role, _mapping(roles[role]).get("template")) for role in roles]
    else:
        group = _mapping(spec.get("leaderWorkerTemplate"))
        templates = [("leader", group.get("leaderTemplate")), ("worker", group.get("workerTemplate"))]
    return [
        PodTemplate(role, namespace, _mapping(_mapping(t).get("metadata")), _mapping(_mapping(t).get("spec")))
        for role, t in templates
        if isinstance(t, Mapping)
    ]


def _requested_resources(container: Mapping[str, Any]) -> set[str]:
    resources = _mapping(container.get("resources"))
    return {str(k) for part in ("limits", "requests") for k in _mapping(resources.get(part))}


def _plain_env(container: Mapping[str, Any]) -> dict[str, str]:
    """Env vars with literal values (``valueFrom`` ones are decided at run time)."""
    env: dict[str, str] = {}
    for entry in _sequence(container.get("env")):
        var = _mapping(entry)
        if isinstance(var.get("name"), str) and isinstance(var.get("value"), str):
            env[var["name"]] = var["value"]
    return env


def _capabilities_added(container: Mapping[str, Any]) -> list[str]:
    """Added capabilities, normalised the way the runtime reads them (``cap_ipc_lock`` = ``IPC_LOCK``)."""
    context = _mapping(container.get("securityContext"))
    added = _sequence(_mapping(context.get("capabilities")).get("add"))
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
    annotations = _mapping(template.metadata.get("annotations"))
    if not _has_key(annotations, NETWORKS_ANNOTATION):
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
            refs.append(NetworkRef(
                namespace=str(entry.get("namespace") or template.namespace),
                name=entry["name"],
                interface=str(entry.get("interface") or f"net{position}"),
            ))
        return refs
    for position, item in enumerate((i.strip() for i in text.split(",") if i.strip()), start=1):
        selection, _, interface = item.partition("@")
        namespace, _, name = selection.rpartition("/")
        refs.append(NetworkRef(namespace or template.namespace, name, interface or f"net{position}"))
    return refs


def _socket_ifname_misses(value: str, interfaces: Iterable[str]) -> list[str]:
    """NCCL_SOCKET_IFNAME entries that select none of ``interfaces``, by NCCL's rules: entries are
    prefixes, ``=`` makes them exact, and a ``^`` list excludes (it names nothing to look for)."""
    value = value.strip()
    if value.startswith("^"):
        return []
    exact = value.startswith("=")
    entries = [e.strip() for e in value.removeprefix("=").split(",") if e.strip()]
    names = list(interfaces)
    return [e for e in entries if not any(n == e if exact else n.startswith(e) for n in names)]


# --- 1. IBM names -----------------------------------------------------------------------


def validate_ibm_names(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    kind = _ibm_kind(args.resource_type)
    if kind not in IBM_NAMED_KINDS:
        return
    props = args.props
    # Read only after the presence checks: a name computed from another resource's output is
    # unknown in a preview, and reading it makes the analyzer skip this policy until `up`.
    if not _has_key(props, "name") or "name" in _defaulted(props) or props["name"] in (None, ""):
        report_violation(
            f"{kind} sets no `name`: the IBM bridge auto-names it `<logical name>-<7 random chars>`, which no "
            "experiment can predict; pass name= explicitly", None)
        return
    name = props["name"]
    if not isinstance(name, str) or len(name) > IBM_NAME_MAX or not IBM_NAME.match(name):
        report_violation(
            f"{kind} name {name!r} is not a valid IBM name: lowercase letters, digits and hyphens, starting "
            f"with a letter, not ending with a hyphen, at most {IBM_NAME_MAX} characters", None)


# --- 2. delete before replace -----------------------------------------------------------


ADDRESS_NAMED_KINDS = frozenset({"IsClusterNetworkSubnetReservedIp"})
"""Replaced create-first on purpose: the old reserved IP stays bound to its attachment until the
stopped worker's attachment is replaced (components/ibm/adopted.py), so its name carries a digest
of the address and subnet (``...-cnic<i>-<6 hex>``)."""
ADDRESS_DIGEST = re.compile(r"-cnic[0-9]+-[0-9a-f]{6}$")


def validate_delete_before_replace(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    kind = _ibm_kind(args.resource_type)
    if kind not in IBM_NAMED_KINDS or not _has_key(args.props, "name") or "name" in _defaulted(args.props):
        return  # an auto-named resource gets a fresh name, so create-before-delete is safe
    if kind in ADDRESS_NAMED_KINDS and ADDRESS_DIGEST.search(str(args.props["name"])):
        return  # its name changes with its address and subnet: a create-first replacement cannot collide
    if args.opts.delete_before_replace is not True:
        report_violation(
            f"{kind} has a fixed IBM name but no deleteBeforeReplace: a replacement would create the new "
            "resource under the name the old one still holds, and IBM rejects the duplicate", None)


# --- 3. pod security --------------------------------------------------------------------


def validate_job_pod_security(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    for template in job_pod_templates(args.resource_type, args.props):
        for container in template.containers():
            where = template.label(container)
            context = _mapping(container.get("securityContext"))
            if context.get("privileged") is True:
                report_violation(f"{where}: privileged container", None)
            if context.get("allowPrivilegeEscalation") is not False:
                report_violation(
                    f"{where}: allowPrivilegeEscalation is not false (Kubernetes defaults it to true)", None)
            extra = [c for c in _capabilities_added(container) if c not in ALLOWED_CAPABILITIES]
            if extra:
                report_violation(
                    f"{where}: adds capabilities {', '.join(extra)}; only {', '.join(sorted(ALLOWED_CAPABILITIES))}"
                    " are allowed", None)


# --- 4. NCCL socket interfaces ----------------------------------------------------------


def validate_nccl_socket_interfaces(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    for template in job_pod_templates(args.resource_type, args.props):
        try:
            networks = multus_networks(template)
        except ValueError as err:
            report_violation(f"{template.role} pod: {err}", None)
            continue
        interfaces = [n.interface for n in networks] if networks is not None else [PRIMARY_INTERFACE]
        for container in template.containers():
            value = _plain_env(container).get("NCCL_SOCKET_IFNAME")
            if value is None:
                continue
            missing = _socket_ifname_misses(value, interfaces)
            if missing:
                source = f"the {NETWORKS_ANNOTATION} annotation" if networks is not None else "a pod without it"
                report_violation(
                    f"{template.label(container)}: NCCL_SOCKET_IFNAME={value} names {', '.join(missing)}, but "
                    f"{source} has only {', '.join(interfaces)}", None)


# --- 5. RDMA consistency (stack: which resources are RDMA devices is declared elsewhere) --


def _rdma_resource_names(resources: Sequence[PolicyResource]) -> set[str]:
    """Names (after the ``prefix/``) of the stack's RDMA device resources: the RDMA shared device
    plugin's (NicClusterPolicy) and SR-IOV node policies with ``isRdma``."""
    names: set[str] = set()
    for resource in resources:
        kind = _k8s_kind(resource.resource_type)
        spec = _mapping(resource.props.get("spec")) if kind in (_NIC_CLUSTER_POLICY, _SRIOV_NODE_POLICY) else {}
        if kind == _SRIOV_NODE_POLICY and spec.get("isRdma") is True and isinstance(spec.get("resourceName"), str):
            names.add(spec["resourceName"])
        if kind == _NIC_CLUSTER_POLICY:
            config = _mapping(spec.get("rdmaSharedDevicePlugin")).get("config")
            try:
                entries = _sequence(_mapping(json.loads(config)).get("configList")) if isinstance(config, str) else ()
            except json.JSONDecodeError:
                entries = ()
            names.update(str(_mapping(e).get("resourceName")) for e in entries if _mapping(e).get("resourceName"))
    return names


def _requests_rdma(container: Mapping[str, Any], rdma_names: set[str]) -> bool:
    return any(r.startswith(RDMA_RESOURCE_PREFIX) or r.rpartition("/")[2] in rdma_names
               for r in _requested_resources(container))


def _ib_enabled_by(env: Mapping[str, str]) -> list[str]:
    settings = []
    if env.get("NCCL_IB_DISABLE", "").strip() == "0":
        settings.append("NCCL_IB_DISABLE=0")
    if env.get("NCCL_NET", "").strip().upper() == "IB":
        settings.append(f"NCCL_NET={env['NCCL_NET']}")
    return settings


def validate_rdma_consistency(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    rdma_names = _rdma_resource_names(args.resources)
    for resource in args.resources:
        for template in job_pod_templates(resource.resource_type, resource.props):
            for container in template.containers():
                if _requests_rdma(container, rdma_names):
                    continue
                where = f"{resource.name}: {template.label(container)}"
                if RDMA_ONLY_CAPABILITY in _capabilities_added(container):
                    report_violation(f"{where}: adds {RDMA_ONLY_CAPABILITY} without requesting an RDMA resource",
                                     resource.urn)
                ib = _ib_enabled_by(_plain_env(container))
                if ib:
                    report_violation(
                        f"{where}: {' and '.join(ib)} on a pod that requests no RDMA resource (NCCL would look for "
                        "InfiniBand/RoCE devices it does not have)", resource.urn)


# --- 6. Multus networks exist in the stack ----------------------------------------------


def _stack_networks(resources: Sequence[PolicyResource]) -> set[tuple[str, str]]:
    """(namespace, name) of every NAD the stack creates, directly or through the SR-IOV operator."""
    networks: set[tuple[str, str]] = set()
    for resource in resources:
        kind = _k8s_kind(resource.resource_type)
        if kind != _NAD and kind not in _NAD_GENERATORS:
            continue
        name, namespace = _metadata(resource.props)
        if kind in _NAD_GENERATORS:
            # The operator writes the NAD into spec.networkNamespace, else next to the network object.
            namespace = str(_mapping(resource.props.get("spec")).get("networkNamespace") or namespace)
        if name:
            networks.add((namespace, name))
    return networks


def validate_multus_networks_exist(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    available = _stack_networks(args.resources)
    for resource in args.resources:
        for template in job_pod_templates(resource.resource_type, resource.props):
            try:
                networks = multus_networks(template) or []
            except ValueError:
                continue  # reported by the NCCL interface policy
            for network in networks:
                if (network.namespace, network.name) not in available:
                    report_violation(
                        f"{resource.name}: {template.role} pod attaches network {network.namespace}/{network.name}, "
                        "but the stack declares no such NetworkAttachmentDefinition (the pod would stay in "
                        "ContainerCreating)", resource.urn)


# --- 7. cluster network attachments -----------------------------------------------------


def _single_dependency(resource: PolicyResource, prop: str, kind: str) -> PolicyResource | None:
    """The one resource of IBM ``kind`` that property ``prop`` was computed from, if exactly one."""
    matches = [d for d in resource.property_dependencies.get(prop, []) if _ibm_kind(d.resource_type) == kind]
    return matches[0] if len(matches) == 1 else None


def _by_id(resources: Iterable[PolicyResource], value: Any) -> PolicyResource | None:
    """The resource whose ``id`` output is ``value``.  A resource whose ID is not known yet (a
    preview of its creation) cannot be what a known value names, so it is passed over."""
    if not isinstance(value, str):
        return None
    for resource in resources:
        try:
            if _has_key(resource.props, "id") and resource.props["id"] == value:
                return resource
        except UnknownValueError:
            continue
    return None


_UNKNOWN = object()


def _peek(props: Mapping[str, Any], key: str) -> Any:
    """``props[key]``, None when absent, ``_UNKNOWN`` when not known yet (a preview)."""
    try:
        return props.get(key)
    except UnknownValueError:
        return _UNKNOWN


def _referenced(resource: PolicyResource, prop: str, kind: str, candidates: Sequence[PolicyResource]) -> str | None:
    """URN of the ``kind`` resource whose ID ``resource.props[prop]`` holds.

    The engine's property dependencies say which resource the value came from, even in a
    preview where neither ID is known; where both are known they must also be equal (a value
    merely derived from the resource is not its ID).  Without a dependency, the ID decides.
    """
    value = _peek(resource.props, prop)
    dependency = _single_dependency(resource, prop, kind)
    if dependency is not None:
        dependency_id = _peek(dependency.props, "id")
        if value is _UNKNOWN or dependency_id in (_UNKNOWN, None) or value == dependency_id:
            return dependency.urn
    target = _by_id(candidates, value) if value is not _UNKNOWN else None
    return target.urn if target is not None else None


def validate_cluster_attachment_counts(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    instances = [r for r in args.resources if _ibm_kind(r.resource_type) == "IsInstance"]
    counts = {i.urn: len(_sequence(i.props.get("clusterNetworkAttachments"))) for i in instances}
    for resource in args.resources:
        if _ibm_kind(resource.resource_type) == "IsInstanceClusterNetworkAttachment":
            owner = _referenced(resource, "instanceId", "IsInstance", instances)
            if owner is not None:
                counts[owner] += 1
    allowed = ", ".join(map(str, CLUSTER_ATTACHMENT_COUNTS[:-1])) + f" or {CLUSTER_ATTACHMENT_COUNTS[-1]}"
    for instance in instances:
        count = counts[instance.urn]
        if count and count not in CLUSTER_ATTACHMENT_COUNTS:
            report_violation(
                f"{instance.name}: {count} cluster network attachments; IBM accepts {allowed} per instance",
                instance.urn)


# --- 8. secondary security group --------------------------------------------------------

SECONDARY_GROUP_SUFFIX = "-secondary"
"""The program names the vNIC traffic's group ``<prefix>-secondary`` (components/ibm/network.py)."""


def _secondary_groups(resources: Sequence[PolicyResource], groups: Sequence[PolicyResource]) -> set[str]:
    """URNs of the groups guarding secondary traffic: named as such, or attached to a secondary vNIC."""
    secondary = {g.urn for g in groups if str(g.props.get("name") or "").endswith(SECONDARY_GROUP_SUFFIX)}
    group_urns = {g.urn for g in groups}
    for resource in resources:
        if _ibm_kind(resource.resource_type) != "IsInstanceNetworkAttachment":
            continue
        secondary.update(d.urn for d in resource.property_dependencies.get("virtualNetworkInterface", [])
                         if d.urn in group_urns)
        vni = _mapping(resource.props.get("virtualNetworkInterface"))
        for group_id in _known_items(_sequence(vni.get("securityGroups"))):
            group = _by_id(groups, group_id)
            if group is not None:
                secondary.add(group.urn)
    return secondary


def validate_secondary_group_self_only(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    groups = [r for r in args.resources if _ibm_kind(r.resource_type) == "IsSecurityGroup"]
    secondary = _secondary_groups(args.resources, groups)
    names = {g.urn: g.name for g in groups}
    for rule in args.resources:
        if _ibm_kind(rule.resource_type) != "IsSecurityGroupRule":
            continue
        group = _referenced(rule, "group", "IsSecurityGroup", groups)
        if group not in secondary or str(rule.props.get("direction")) != "inbound":
            continue
        if _referenced(rule, "remote", "IsSecurityGroup", groups) != group:
            report_violation(
                f"{rule.name}: inbound rule of the secondary group {names[group]} admits {rule.props.get('remote')!r}; "
                "it may only admit members of the group itself (remote = the group's own ID)", rule.urn)


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
