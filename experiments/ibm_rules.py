"""What the IBM provider does when an input changes (terraform-provider-ibm 2.5.0 ``ForceNew``).

Shared by the diff, which flags replacements, and the offline engine, whose mock IDs are
derived from these inputs so that a replaced resource gets a new ID and everything that
references it sees the change, as it would against IBM Cloud.
"""

from __future__ import annotations

from typing import Any

__all__ = ["REPLACE_ON_CHANGE", "replace_key"]

# Inputs whose change makes the IBM provider replace the resource (TF ForceNew in
# terraform-provider-ibm 2.5.0), as wire paths; a path also covers everything below it.
REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {
    "IsVpc": ("addressPrefixManagement", "classicAccess", "resourceGroup"),
    "IsVpcAddressPrefix": ("cidr", "vpc", "zone"),
    "IsSubnet": (
        "ipVersion",
        "ipv4CidrBlock",
        "resourceGroup",
        "routingTable",
        "routingTableCrn",
        "totalIpv4AddressCount",
        "vpc",
        "zone",
    ),
    "IsPublicGateway": ("resourceGroup", "vpc", "zone"),
    "IsSecurityGroup": ("resourceGroup", "vpc"),
    "IsSecurityGroupRule": ("group",),
    "IsSshKey": ("publicKey", "resourceGroup"),
    "IsInstance": (
        "image",
        "zone",
        "vpc",
        "userData",
        "resourceGroup",
        "instanceTemplate",
        "catalogOffering",
        "placementGroup",
        "primaryNetworkAttachment.virtualNetworkInterface.subnet",
        "primaryNetworkAttachment.virtualNetworkInterface.securityGroups",
        "primaryNetworkAttachment.virtualNetworkInterface.resourceGroup",
        "primaryNetworkAttachment.virtualNetworkInterface.id",
    ),
    "IsInstanceNetworkAttachment": (
        "instance",
        "virtualNetworkInterface.id",
        "virtualNetworkInterface.subnet",
        "virtualNetworkInterface.securityGroups",
        "virtualNetworkInterface.resourceGroup",
    ),
    "IsClusterNetwork": ("profile", "resourceGroup", "subnetPrefixes.cidr", "vpc", "zone"),
    "IsClusterNetworkSubnet": ("clusterNetworkId", "ipVersion", "ipv4CidrBlock", "totalIpv4AddressCount"),
    "IsVirtualNetworkInterface": ("resourceGroup", "subnet"),
}


def _at(value: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def replace_key(kind: str, inputs: dict[str, Any]) -> list[Any]:
    """The values of ``kind``'s replace-on-change inputs: equal keys, same physical resource."""
    return [_at(inputs, path) for path in REPLACE_ON_CHANGE.get(kind, ())]
