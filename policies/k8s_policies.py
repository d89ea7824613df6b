"""The Kubernetes rules on the job pods: security, NCCL socket interfaces, RDMA consistency and the
Multus networks they name."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from job_pods import (
    ALLOWED_CAPABILITIES,
    NAD_GENERATORS,
    NAD_KIND,
    NETWORKS_ANNOTATION,
    NIC_CLUSTER_POLICY,
    PRIMARY_INTERFACE,
    RDMA_ONLY_CAPABILITY,
    RDMA_RESOURCE_PREFIX,
    SRIOV_NODE_POLICY,
    capabilities_added,
    job_pod_templates,
    k8s_kind,
    metadata_of,
    multus_networks,
    plain_env,
    requested_resources,
    socket_ifname_misses,
)
from policy_props import mapping, sequence
from pulumi_policy import (
    PolicyResource,
    ReportViolation,
    ResourceValidationArgs,
    StackValidationArgs,
)

__all__ = [
    "validate_job_pod_security",
    "validate_multus_networks_exist",
    "validate_nccl_socket_interfaces",
    "validate_rdma_consistency",
]

# --- 3. pod security --------------------------------------------------------------------


def validate_job_pod_security(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    for template in job_pod_templates(args.resource_type, args.props):
        for container in template.containers():
            where = template.label(container)
            context = mapping(container.get("securityContext"))
            if context.get("privileged") is True:
                report_violation(f"{where}: privileged container", None)
            if context.get("allowPrivilegeEscalation") is not False:
                report_violation(
                    f"{where}: allowPrivilegeEscalation is not false (Kubernetes defaults it to true)", None
                )
            extra = [c for c in capabilities_added(container) if c not in ALLOWED_CAPABILITIES]
            if extra:
                report_violation(
                    f"{where}: adds capabilities {', '.join(extra)}; only {', '.join(sorted(ALLOWED_CAPABILITIES))}"
                    " are allowed",
                    None,
                )


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
            value = plain_env(container).get("NCCL_SOCKET_IFNAME")
            if value is None:
                continue
            missing = socket_ifname_misses(value, interfaces)
            if missing:
                source = f"the {NETWORKS_ANNOTATION} annotation" if networks is not None else "a pod without it"
                report_violation(
                    f"{template.label(container)}: NCCL_SOCKET_IFNAME={value} names {', '.join(missing)}, but "
                    f"{source} has only {', '.join(interfaces)}",
                    None,
                )


# --- 5. RDMA consistency (stack: which resources are RDMA devices is declared elsewhere) --


def _rdma_resource_names(resources: Sequence[PolicyResource]) -> set[str]:
    """Names (after the ``prefix/``) of the stack's RDMA device resources: the RDMA shared device
    plugin's (NicClusterPolicy) and SR-IOV node policies with ``isRdma``."""
    names: set[str] = set()
    for resource in resources:
        kind = k8s_kind(resource.resource_type)
        spec = mapping(resource.props.get("spec")) if kind in (NIC_CLUSTER_POLICY, SRIOV_NODE_POLICY) else {}
        if kind == SRIOV_NODE_POLICY and spec.get("isRdma") is True and isinstance(spec.get("resourceName"), str):
            names.add(spec["resourceName"])
        if kind == NIC_CLUSTER_POLICY:
            config = mapping(spec.get("rdmaSharedDevicePlugin")).get("config")
            try:
                entries = sequence(mapping(json.loads(config)).get("configList")) if isinstance(config, str) else ()
            except json.JSONDecodeError:
                entries = ()
            names.update(str(mapping(e).get("resourceName")) for e in entries if mapping(e).get("resourceName"))
    return names


def _requests_rdma(container: Mapping[str, Any], rdma_names: set[str]) -> bool:
    return any(
        r.startswith(RDMA_RESOURCE_PREFIX) or r.rpartition("/")[2] in rdma_names for r in requested_resources(container)
    )


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
                if RDMA_ONLY_CAPABILITY in capabilities_added(container):
                    report_violation(
                        f"{where}: adds {RDMA_ONLY_CAPABILITY} without requesting an RDMA resource", resource.urn
                    )
                ib = _ib_enabled_by(plain_env(container))
                if ib:
                    report_violation(
                        f"{where}: {' and '.join(ib)} on a pod that requests no RDMA resource (NCCL would look for "
                        "InfiniBand/RoCE devices it does not have)",
                        resource.urn,
                    )


# --- 6. Multus networks exist in the stack ----------------------------------------------


def _stack_networks(resources: Sequence[PolicyResource]) -> set[tuple[str, str]]:
    """(namespace, name) of every NAD the stack creates, directly or through the SR-IOV operator."""
    networks: set[tuple[str, str]] = set()
    for resource in resources:
        kind = k8s_kind(resource.resource_type)
        if kind != NAD_KIND and kind not in NAD_GENERATORS:
            continue
        name, namespace = metadata_of(resource.props)
        if kind in NAD_GENERATORS:
            # The operator writes the NAD into spec.networkNamespace, else next to the network object.
            namespace = str(mapping(resource.props.get("spec")).get("networkNamespace") or namespace)
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
                        "ContainerCreating)",
                        resource.urn,
                    )
