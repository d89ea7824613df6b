"""The IBM rules: explicit valid names, delete-first replacement of named resources, cluster network
attachment counts, and a secondary security group that admits only its own members."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from policy_props import UNKNOWN, has_key, known_items, mapping, peek, sequence
from pulumi_policy import (
    PolicyResource,
    ReportViolation,
    ResourceValidationArgs,
    StackValidationArgs,
)
from pulumi_policy.proxy import UnknownValueError

__all__ = [
    "CLUSTER_ATTACHMENT_COUNTS",
    "IBM_NAMED_KINDS",
    "validate_cluster_attachment_counts",
    "validate_delete_before_replace",
    "validate_ibm_names",
    "validate_secondary_group_self_only",
]

# --- IBM --------------------------------------------------------------------------------

IBM_NAMED_KINDS = frozenset(
    {
        # Every IBM resource whose Terraform schema has a ``name`` input: the bridge makes it
        # optional and, when left out, fills in ``<logical name>-<7 random chars>``.
        "IsVpc",
        "IsVpcAddressPrefix",
        "IsSubnet",
        "IsPublicGateway",
        "IsSecurityGroup",
        "IsSecurityGroupRule",
        "IsSshKey",
        "IsInstance",
        "IsVirtualNetworkInterface",
        "IsInstanceNetworkAttachment",
        "IsClusterNetwork",
        "IsClusterNetworkSubnet",
        "IsClusterNetworkSubnetReservedIp",
        "IsClusterNetworkInterface",
        "IsInstanceClusterNetworkAttachment",
        "ContainerVpcCluster",
        "IsInstanceNetworkInterface",
        "IsSubnetReservedIp",
    }
)
IBM_NAME = re.compile(r"^[a-z](?:[-a-z0-9]*[a-z0-9])?$")
IBM_NAME_MAX = 63
BRIDGE_DEFAULTS_KEY = "__defaults"
"""Where the bridge's Check lists the inputs it filled in itself (the auto-name among them)."""

CLUSTER_ATTACHMENT_COUNTS = (8, 16, 32)
"""Cluster network attachments IBM accepts on one instance (hopper-1 cluster networks)."""

_IBM_PREFIX = "ibm:"


def _defaulted(props: Mapping[str, Any]) -> set[str]:
    """Inputs the bridge's Check filled in with defaults (``name`` when it auto-named)."""
    return {str(k) for k in sequence(props.get(BRIDGE_DEFAULTS_KEY))}


def _ibm_kind(resource_type: str) -> str | None:
    """``IsVpc`` for ``ibm:index/isVpc:IsVpc``; None for anything not an IBM resource."""
    return resource_type.rsplit(":", 1)[-1] if resource_type.startswith(_IBM_PREFIX) else None


# --- 1. IBM names -----------------------------------------------------------------------


def validate_ibm_names(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    kind = _ibm_kind(args.resource_type)
    if kind not in IBM_NAMED_KINDS:
        return
    props = args.props
    # Read only after the presence checks: a name computed from another resource's output is
    # unknown in a preview, and reading it makes the analyzer skip this policy until `up`.
    if not has_key(props, "name") or "name" in _defaulted(props) or props["name"] in (None, ""):
        report_violation(
            f"{kind} sets no `name`: the IBM bridge auto-names it `<logical name>-<7 random chars>`, which no "
            "experiment can predict; pass name= explicitly",
            None,
        )
        return
    name = props["name"]
    if not isinstance(name, str) or len(name) > IBM_NAME_MAX or not IBM_NAME.fullmatch(name):
        report_violation(
            f"{kind} name {name!r} is not a valid IBM name: lowercase letters, digits and hyphens, starting "
            f"with a letter, not ending with a hyphen, at most {IBM_NAME_MAX} characters",
            None,
        )


# --- 2. delete before replace -----------------------------------------------------------


ADDRESS_NAMED_KINDS = frozenset({"IsClusterNetworkSubnetReservedIp"})
"""Replaced create-first on purpose: the old reserved IP stays bound to its attachment until the
stopped worker's attachment is replaced (components/ibm/adopted.py), so its name carries a digest
of the address and subnet (``...-cnic<i>-<6 hex>``)."""
ADDRESS_DIGEST = re.compile(r"-cnic[0-9]+-[0-9a-f]{6}$")


def validate_delete_before_replace(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    kind = _ibm_kind(args.resource_type)
    if kind not in IBM_NAMED_KINDS or not has_key(args.props, "name") or "name" in _defaulted(args.props):
        return  # an auto-named resource gets a fresh name, so create-before-delete is safe
    if kind in ADDRESS_NAMED_KINDS and ADDRESS_DIGEST.search(str(args.props["name"])):
        return  # its name changes with its address and subnet: a create-first replacement cannot collide
    if args.opts.delete_before_replace is not True:
        report_violation(
            f"{kind} has a fixed IBM name but no deleteBeforeReplace: a replacement would create the new "
            "resource under the name the old one still holds, and IBM rejects the duplicate",
            None,
        )


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
            if has_key(resource.props, "id") and resource.props["id"] == value:
                return resource
        except UnknownValueError:
            continue
    return None


def _referenced(resource: PolicyResource, prop: str, kind: str, candidates: Sequence[PolicyResource]) -> str | None:
    """URN of the ``kind`` resource whose ID ``resource.props[prop]`` holds.

    The engine's property dependencies say which resource the value came from, even in a
    preview where neither ID is known; where both are known they must also be equal (a value
    merely derived from the resource is not its ID).  Without a dependency, the ID decides.
    """
    value = peek(resource.props, prop)
    dependency = _single_dependency(resource, prop, kind)
    if dependency is not None:
        dependency_id = peek(dependency.props, "id")
        if value is UNKNOWN or dependency_id in (UNKNOWN, None) or value == dependency_id:
            return dependency.urn
    target = _by_id(candidates, value) if value is not UNKNOWN else None
    return target.urn if target is not None else None


def validate_cluster_attachment_counts(args: StackValidationArgs, report_violation: ReportViolation) -> None:
    instances = [r for r in args.resources if _ibm_kind(r.resource_type) == "IsInstance"]
    counts = {i.urn: len(sequence(i.props.get("clusterNetworkAttachments"))) for i in instances}
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
                instance.urn,
            )


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
        secondary.update(
            d.urn for d in resource.property_dependencies.get("virtualNetworkInterface", []) if d.urn in group_urns
        )
        vni = mapping(resource.props.get("virtualNetworkInterface"))
        for group_id in known_items(sequence(vni.get("securityGroups"))):
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
                "it may only admit members of the group itself (remote = the group's own ID)",
                rule.urn,
            )
