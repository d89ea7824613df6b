# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

import sys
from typing import Optional, Sequence

import pulumi

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:
    from typing_extensions import NotRequired, TypedDict

__all__ = [
    "IsSubnetReservedIpTimeoutsArgs",
    "IsSubnetReservedIpTimeoutsArgsDict",
    "IsClusterNetworkInterfacePrimaryIpArgs",
    "IsClusterNetworkInterfacePrimaryIpArgsDict",
    "IsClusterNetworkInterfaceSubnetArgs",
    "IsClusterNetworkInterfaceSubnetArgsDict",
    "IsClusterNetworkSubnetPrefixesArgs",
    "IsClusterNetworkSubnetPrefixesArgsDict",
    "IsClusterNetworkVpcArgs",
    "IsClusterNetworkVpcArgsDict",
    "IsInstanceActionTimeoutsArgs",
    "IsInstanceActionTimeoutsArgsDict",
    "IsInstanceAvailabilityArgs",
    "IsInstanceAvailabilityArgsDict",
    "IsInstanceAvailabilityPolicyArgs",
    "IsInstanceAvailabilityPolicyArgsDict",
    "IsInstanceBootVolumeAllowedUseArgs",
    "IsInstanceBootVolumeAllowedUseArgsDict",
    "IsInstanceBootVolumeArgs",
    "IsInstanceBootVolumeArgsDict",
    "IsInstanceCatalogOfferingArgs",
    "IsInstanceCatalogOfferingArgsDict",
    "IsInstanceClusterNetworkAttachmentArgs",
    "IsInstanceClusterNetworkAttachmentArgsDict",
    "IsInstanceClusterNetworkAttachmentBeforeArgs",
    "IsInstanceClusterNetworkAttachmentBeforeArgsDict",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgsDict",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgsDict",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgsDict",
    "IsInstanceMetadataServiceArgs",
    "IsInstanceMetadataServiceArgsDict",
    "IsInstanceNetworkAttachmentArgs",
    "IsInstanceNetworkAttachmentArgsDict",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgsDict",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgs",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgsDict",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict",
    "IsInstanceNetworkInterfaceArgs",
    "IsInstanceNetworkInterfaceArgsDict",
    "IsInstanceNetworkInterfacePrimaryIpArgs",
    "IsInstanceNetworkInterfacePrimaryIpArgsDict",
    "IsInstancePrimaryNetworkAttachmentArgs",
    "IsInstancePrimaryNetworkAttachmentArgsDict",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgs",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgsDict",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgs",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgsDict",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict",
    "IsInstancePrimaryNetworkInterfaceArgs",
    "IsInstancePrimaryNetworkInterfaceArgsDict",
    "IsInstancePrimaryNetworkInterfacePrimaryIpArgs",
    "IsInstancePrimaryNetworkInterfacePrimaryIpArgsDict",
    "IsInstanceReservationAffinityArgs",
    "IsInstanceReservationAffinityArgsDict",
    "IsInstanceReservationAffinityPoolArgs",
    "IsInstanceReservationAffinityPoolArgsDict",
    "IsInstanceTimeoutsArgs",
    "IsInstanceTimeoutsArgsDict",
    "IsInstanceVcpuArgs",
    "IsInstanceVcpuArgsDict",
    "IsInstanceVolumePrototypeAllowedUseArgs",
    "IsInstanceVolumePrototypeAllowedUseArgsDict",
    "IsInstanceVolumePrototypeArgs",
    "IsInstanceVolumePrototypeArgsDict",
    "IsPublicGatewayTimeoutsArgs",
    "IsPublicGatewayTimeoutsArgsDict",
    "IsSecurityGroupRuleIcmpArgs",
    "IsSecurityGroupRuleIcmpArgsDict",
    "IsSecurityGroupRuleTcpArgs",
    "IsSecurityGroupRuleTcpArgsDict",
    "IsSecurityGroupRuleUdpArgs",
    "IsSecurityGroupRuleUdpArgsDict",
    "IsSecurityGroupTimeoutsArgs",
    "IsSecurityGroupTimeoutsArgsDict",
    "IsSubnetTimeoutsArgs",
    "IsSubnetTimeoutsArgsDict",
    "IsVirtualNetworkInterfaceIpArgs",
    "IsVirtualNetworkInterfaceIpArgsDict",
    "IsVirtualNetworkInterfacePrimaryIpArgs",
    "IsVirtualNetworkInterfacePrimaryIpArgsDict",
    "IsVirtualNetworkInterfaceTimeoutsArgs",
    "IsVirtualNetworkInterfaceTimeoutsArgsDict",
    "IsVpcDnsArgs",
    "IsVpcDnsArgsDict",
    "IsVpcDnsResolverArgs",
    "IsVpcDnsResolverArgsDict",
    "IsVpcDnsResolverManualServerArgs",
    "IsVpcDnsResolverManualServerArgsDict",
    "IsVpcTimeoutsArgs",
    "IsVpcTimeoutsArgsDict",
]


class IsClusterNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsClusterNetworkInterface`."""

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    href: NotRequired[pulumi.Input[str]]
    id: NotRequired[pulumi.Input[str]]
    name: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsClusterNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsClusterNetworkInterface`."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    href: Optional[pulumi.Input[str]] = pulumi.property("href", default=None)
    id: Optional[pulumi.Input[str]] = pulumi.property("id", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)


class IsClusterNetworkInterfaceSubnetArgsDict(TypedDict):
    """Nested input of `IsClusterNetworkInterface`."""

    href: NotRequired[pulumi.Input[str]]
    id: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsClusterNetworkInterfaceSubnetArgs:
    """Nested input of `IsClusterNetworkInterface`."""

    href: Optional[pulumi.Input[str]] = pulumi.property("href", default=None)
    id: Optional[pulumi.Input[str]] = pulumi.property("id", default=None)


class IsClusterNetworkSubnetPrefixesArgsDict(TypedDict):
    """Nested input of `IsClusterNetwork`."""

    cidr: pulumi.Input[str]


@pulumi.input_type
class IsClusterNetworkSubnetPrefixesArgs:
    """Nested input of `IsClusterNetwork`."""

    cidr: pulumi.Input[str] = pulumi.property("cidr")


class IsClusterNetworkVpcArgsDict(TypedDict):
    """Nested input of `IsClusterNetwork`."""

    id: pulumi.Input[str]


@pulumi.input_type
class IsClusterNetworkVpcArgs:
    """Nested input of `IsClusterNetwork`."""

    id: pulumi.Input[str] = pulumi.property("id")


class IsInstanceActionTimeoutsArgsDict(TypedDict):
    """Nested input of `IsInstanceAction`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceActionTimeoutsArgs:
    """Nested input of `IsInstanceAction`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)


class IsInstanceAvailabilityArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    class_: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceAvailabilityArgs:
    """Nested input of `IsInstance`."""

    class_: Optional[pulumi.Input[str]] = pulumi.property("class", default=None)


class IsInstanceAvailabilityPolicyArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    host_failure: NotRequired[pulumi.Input[str]]
    preemption: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceAvailabilityPolicyArgs:
    """Nested input of `IsInstance`."""

    host_failure: Optional[pulumi.Input[str]] = pulumi.property("hostFailure", default=None)
    preemption: Optional[pulumi.Input[str]] = pulumi.property("preemption", default=None)


class IsInstanceBootVolumeAllowedUseArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    api_version: NotRequired[pulumi.Input[str]]
    bare_metal_server: NotRequired[pulumi.Input[str]]
    instance: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceBootVolumeAllowedUseArgs:
    """Nested input of `IsInstance`."""

    api_version: Optional[pulumi.Input[str]] = pulumi.property("apiVersion", default=None)
    bare_metal_server: Optional[pulumi.Input[str]] = pulumi.property("bareMetalServer", default=None)
    instance: Optional[pulumi.Input[str]] = pulumi.property("instance", default=None)


class IsInstanceBootVolumeArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    allowed_use: NotRequired[pulumi.Input["IsInstanceBootVolumeAllowedUseArgsDict"]]
    auto_delete_volume: NotRequired[pulumi.Input[bool]]
    bandwidth: NotRequired[pulumi.Input[float]]
    encryption: NotRequired[pulumi.Input[str]]
    iops: NotRequired[pulumi.Input[float]]
    name: NotRequired[pulumi.Input[str]]
    profile: NotRequired[pulumi.Input[str]]
    size: NotRequired[pulumi.Input[float]]
    snapshot: NotRequired[pulumi.Input[str]]
    snapshot_crn: NotRequired[pulumi.Input[str]]
    tags: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]
    volume_id: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceBootVolumeArgs:
    """Nested input of `IsInstance`."""

    allowed_use: Optional[pulumi.Input["IsInstanceBootVolumeAllowedUseArgs"]] = pulumi.property(
        "allowedUse", default=None
    )
    auto_delete_volume: Optional[pulumi.Input[bool]] = pulumi.property("autoDeleteVolume", default=None)
    bandwidth: Optional[pulumi.Input[float]] = pulumi.property("bandwidth", default=None)
    encryption: Optional[pulumi.Input[str]] = pulumi.property("encryption", default=None)
    iops: Optional[pulumi.Input[float]] = pulumi.property("iops", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    profile: Optional[pulumi.Input[str]] = pulumi.property("profile", default=None)
    size: Optional[pulumi.Input[float]] = pulumi.property("size", default=None)
    snapshot: Optional[pulumi.Input[str]] = pulumi.property("snapshot", default=None)
    snapshot_crn: Optional[pulumi.Input[str]] = pulumi.property("snapshotCrn", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    volume_id: Optional[pulumi.Input[str]] = pulumi.property("volumeId", default=None)


class IsInstanceCatalogOfferingArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    offering_crn: NotRequired[pulumi.Input[str]]
    plan_crn: NotRequired[pulumi.Input[str]]
    version_crn: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceCatalogOfferingArgs:
    """Nested input of `IsInstance`."""

    offering_crn: Optional[pulumi.Input[str]] = pulumi.property("offeringCrn", default=None)
    plan_crn: Optional[pulumi.Input[str]] = pulumi.property("planCrn", default=None)
    version_crn: Optional[pulumi.Input[str]] = pulumi.property("versionCrn", default=None)


class IsInstanceClusterNetworkAttachmentArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    cluster_network_interface: pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgsDict"]
    name: pulumi.Input[str]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentArgs:
    """Nested input of `IsInstance`."""

    cluster_network_interface: pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs"] = (
        pulumi.property("clusterNetworkInterface")
    )
    name: pulumi.Input[str] = pulumi.property("name")


class IsInstanceClusterNetworkAttachmentBeforeArgsDict(TypedDict):
    """Nested input of `IsInstanceClusterNetworkAttachment`."""

    id: pulumi.Input[str]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentBeforeArgs:
    """Nested input of `IsInstanceClusterNetworkAttachment`."""

    id: pulumi.Input[str] = pulumi.property("id")


class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgsDict(TypedDict):
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    subnet: pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgsDict"]
    name: NotRequired[pulumi.Input[str]]
    primary_ip: NotRequired[pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgsDict"]]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs:
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    subnet: pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs"] = pulumi.property(
        "subnet"
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs"]] = (
        pulumi.property("primaryIp", default=None)
    )


class IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    address: pulumi.Input[str]
    href: pulumi.Input[str]
    id: pulumi.Input[str]
    name: pulumi.Input[str]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    address: pulumi.Input[str] = pulumi.property("address")
    href: pulumi.Input[str] = pulumi.property("href")
    id: pulumi.Input[str] = pulumi.property("id")
    name: pulumi.Input[str] = pulumi.property("name")


class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgsDict(TypedDict):
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    id: pulumi.Input[str]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs:
    """Nested input of `IsInstanceClusterNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceClusterNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    id: pulumi.Input[str] = pulumi.property("id")


class IsInstanceMetadataServiceArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    enabled: NotRequired[pulumi.Input[bool]]
    protocol: NotRequired[pulumi.Input[str]]
    response_hop_limit: NotRequired[pulumi.Input[float]]


@pulumi.input_type
class IsInstanceMetadataServiceArgs:
    """Nested input of `IsInstance`."""

    enabled: Optional[pulumi.Input[bool]] = pulumi.property("enabled", default=None)
    protocol: Optional[pulumi.Input[str]] = pulumi.property("protocol", default=None)
    response_hop_limit: Optional[pulumi.Input[float]] = pulumi.property("responseHopLimit", default=None)


class IsInstanceNetworkAttachmentArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    name: NotRequired[pulumi.Input[str]]
    virtual_network_interface: NotRequired[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgsDict"]]


@pulumi.input_type
class IsInstanceNetworkAttachmentArgs:
    """Nested input of `IsInstance`."""

    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    virtual_network_interface: Optional[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs"]] = (
        pulumi.property("virtualNetworkInterface", default=None)
    )


class IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgsDict(TypedDict):
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    allow_ip_spoofing: NotRequired[pulumi.Input[bool]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    enable_infrastructure_nat: NotRequired[pulumi.Input[bool]]
    id: NotRequired[pulumi.Input[str]]
    ips: NotRequired[
        pulumi.Input[Sequence[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgsDict"]]]
    ]
    name: NotRequired[pulumi.Input[str]]
    primary_ip: NotRequired[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict"]]
    protocol_state_filtering_mode: NotRequired[pulumi.Input[str]]
    resource_group: NotRequired[pulumi.Input[str]]
    security_groups: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]
    subnet: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs:
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    enable_infrastructure_nat: Optional[pulumi.Input[bool]] = pulumi.property("enableInfrastructureNat", default=None)
    id: Optional[pulumi.Input[str]] = pulumi.property("id", default=None)
    ips: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgs"]]]] = (
        pulumi.property("ips", default=None)
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs"]] = (
        pulumi.property("primaryIp", default=None)
    )
    protocol_state_filtering_mode: Optional[pulumi.Input[str]] = pulumi.property(
        "protocolStateFilteringMode", default=None
    )
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )
    subnet: Optional[pulumi.Input[str]] = pulumi.property("subnet", default=None)


class IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgsDict(TypedDict):
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    reserved_ip: pulumi.Input[str]


@pulumi.input_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpArgs:
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    reserved_ip: pulumi.Input[str] = pulumi.property("reservedIp")


class IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    reserved_ip: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsInstanceNetworkAttachment`, also used by `IsInstance`.

    The generated SDK keeps one shape per type name: the module processed last (`IsInstanceNetworkAttachment`)
    wins, so keys only the other resource's schema has are not declared here (README).
    """

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    reserved_ip: Optional[pulumi.Input[str]] = pulumi.property("reservedIp", default=None)


class IsInstanceNetworkInterfaceArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    subnet: pulumi.Input[str]
    allow_ip_spoofing: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    primary_ip: NotRequired[pulumi.Input["IsInstanceNetworkInterfacePrimaryIpArgsDict"]]
    primary_ipv4_address: NotRequired[pulumi.Input[str]]
    security_groups: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]


@pulumi.input_type
class IsInstanceNetworkInterfaceArgs:
    """Nested input of `IsInstance`."""

    subnet: pulumi.Input[str] = pulumi.property("subnet")
    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsInstanceNetworkInterfacePrimaryIpArgs"]] = pulumi.property(
        "primaryIp", default=None
    )
    primary_ipv4_address: Optional[pulumi.Input[str]] = pulumi.property("primaryIpv4Address", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )


class IsInstanceNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsInstanceNetworkInterface` (the same shape as `IsInstance.network_interfaces[].primary_ip`)."""

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    reserved_ip: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsInstanceNetworkInterface` (the same shape as `IsInstance.network_interfaces[].primary_ip`)."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    reserved_ip: Optional[pulumi.Input[str]] = pulumi.property("reservedIp", default=None)


class IsInstancePrimaryNetworkAttachmentArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    name: NotRequired[pulumi.Input[str]]
    virtual_network_interface: NotRequired[
        pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgsDict"]
    ]


@pulumi.input_type
class IsInstancePrimaryNetworkAttachmentArgs:
    """Nested input of `IsInstance`."""

    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    virtual_network_interface: Optional[
        pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgs"]
    ] = pulumi.property("virtualNetworkInterface", default=None)


class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    allow_ip_spoofing: NotRequired[pulumi.Input[bool]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    enable_infrastructure_nat: NotRequired[pulumi.Input[bool]]
    id: NotRequired[pulumi.Input[str]]
    ips: NotRequired[
        pulumi.Input[Sequence[pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgsDict"]]]
    ]
    name: NotRequired[pulumi.Input[str]]
    primary_ip: NotRequired[pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict"]]
    protocol_state_filtering_mode: NotRequired[pulumi.Input[str]]
    resource_group: NotRequired[pulumi.Input[str]]
    security_groups: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]
    subnet: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceArgs:
    """Nested input of `IsInstance`."""

    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    enable_infrastructure_nat: Optional[pulumi.Input[bool]] = pulumi.property("enableInfrastructureNat", default=None)
    id: Optional[pulumi.Input[str]] = pulumi.property("id", default=None)
    ips: Optional[
        pulumi.Input[Sequence[pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgs"]]]
    ] = pulumi.property("ips", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs"]] = (
        pulumi.property("primaryIp", default=None)
    )
    protocol_state_filtering_mode: Optional[pulumi.Input[str]] = pulumi.property(
        "protocolStateFilteringMode", default=None
    )
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )
    subnet: Optional[pulumi.Input[str]] = pulumi.property("subnet", default=None)


class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    reserved_ip: pulumi.Input[str]


@pulumi.input_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpArgs:
    """Nested input of `IsInstance`."""

    reserved_ip: pulumi.Input[str] = pulumi.property("reservedIp")


class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    reserved_ip: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsInstance`."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    reserved_ip: Optional[pulumi.Input[str]] = pulumi.property("reservedIp", default=None)


class IsInstancePrimaryNetworkInterfaceArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    subnet: pulumi.Input[str]
    allow_ip_spoofing: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    port_speed: NotRequired[pulumi.Input[float]]
    primary_ip: NotRequired[pulumi.Input["IsInstancePrimaryNetworkInterfacePrimaryIpArgsDict"]]
    primary_ipv4_address: NotRequired[pulumi.Input[str]]
    security_groups: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]


@pulumi.input_type
class IsInstancePrimaryNetworkInterfaceArgs:
    """Nested input of `IsInstance`."""

    subnet: pulumi.Input[str] = pulumi.property("subnet")
    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    port_speed: Optional[pulumi.Input[float]] = pulumi.property("portSpeed", default=None)
    primary_ip: Optional[pulumi.Input["IsInstancePrimaryNetworkInterfacePrimaryIpArgs"]] = pulumi.property(
        "primaryIp", default=None
    )
    primary_ipv4_address: Optional[pulumi.Input[str]] = pulumi.property("primaryIpv4Address", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )


class IsInstancePrimaryNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    reserved_ip: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstancePrimaryNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsInstance`."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    reserved_ip: Optional[pulumi.Input[str]] = pulumi.property("reservedIp", default=None)


class IsInstanceReservationAffinityArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    policy: NotRequired[pulumi.Input[str]]
    pools: NotRequired[pulumi.Input[Sequence[pulumi.Input["IsInstanceReservationAffinityPoolArgsDict"]]]]


@pulumi.input_type
class IsInstanceReservationAffinityArgs:
    """Nested input of `IsInstance`."""

    policy: Optional[pulumi.Input[str]] = pulumi.property("policy", default=None)
    pools: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceReservationAffinityPoolArgs"]]]] = pulumi.property(
        "pools", default=None
    )


class IsInstanceReservationAffinityPoolArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    id: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceReservationAffinityPoolArgs:
    """Nested input of `IsInstance`."""

    id: Optional[pulumi.Input[str]] = pulumi.property("id", default=None)


class IsInstanceTimeoutsArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]
    update: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceTimeoutsArgs:
    """Nested input of `IsInstance`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)
    update: Optional[pulumi.Input[str]] = pulumi.property("update", default=None)


class IsInstanceVcpuArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    percentage: NotRequired[pulumi.Input[float]]


@pulumi.input_type
class IsInstanceVcpuArgs:
    """Nested input of `IsInstance`."""

    percentage: Optional[pulumi.Input[float]] = pulumi.property("percentage", default=None)


class IsInstanceVolumePrototypeAllowedUseArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    api_version: NotRequired[pulumi.Input[str]]
    bare_metal_server: NotRequired[pulumi.Input[str]]
    instance: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsInstanceVolumePrototypeAllowedUseArgs:
    """Nested input of `IsInstance`."""

    api_version: Optional[pulumi.Input[str]] = pulumi.property("apiVersion", default=None)
    bare_metal_server: Optional[pulumi.Input[str]] = pulumi.property("bareMetalServer", default=None)
    instance: Optional[pulumi.Input[str]] = pulumi.property("instance", default=None)


class IsInstanceVolumePrototypeArgsDict(TypedDict):
    """Nested input of `IsInstance`."""

    name: pulumi.Input[str]
    allowed_use: NotRequired[pulumi.Input["IsInstanceVolumePrototypeAllowedUseArgsDict"]]
    delete_volume_on_instance_delete: NotRequired[pulumi.Input[bool]]
    volume_bandwidth: NotRequired[pulumi.Input[float]]
    volume_capacity: NotRequired[pulumi.Input[float]]
    volume_encryption_key: NotRequired[pulumi.Input[str]]
    volume_iops: NotRequired[pulumi.Input[float]]
    volume_name: NotRequired[pulumi.Input[str]]
    volume_profile: NotRequired[pulumi.Input[str]]
    volume_source_snapshot: NotRequired[pulumi.Input[str]]
    volume_tags: NotRequired[pulumi.Input[Sequence[pulumi.Input[str]]]]


@pulumi.input_type
class IsInstanceVolumePrototypeArgs:
    """Nested input of `IsInstance`."""

    name: pulumi.Input[str] = pulumi.property("name")
    allowed_use: Optional[pulumi.Input["IsInstanceVolumePrototypeAllowedUseArgs"]] = pulumi.property(
        "allowedUse", default=None
    )
    delete_volume_on_instance_delete: Optional[pulumi.Input[bool]] = pulumi.property(
        "deleteVolumeOnInstanceDelete", default=None
    )
    volume_bandwidth: Optional[pulumi.Input[float]] = pulumi.property("volumeBandwidth", default=None)
    volume_capacity: Optional[pulumi.Input[float]] = pulumi.property("volumeCapacity", default=None)
    volume_encryption_key: Optional[pulumi.Input[str]] = pulumi.property("volumeEncryptionKey", default=None)
    volume_iops: Optional[pulumi.Input[float]] = pulumi.property("volumeIops", default=None)
    volume_name: Optional[pulumi.Input[str]] = pulumi.property("volumeName", default=None)
    volume_profile: Optional[pulumi.Input[str]] = pulumi.property("volumeProfile", default=None)
    volume_source_snapshot: Optional[pulumi.Input[str]] = pulumi.property("volumeSourceSnapshot", default=None)
    volume_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("volumeTags", default=None)


class IsPublicGatewayTimeoutsArgsDict(TypedDict):
    """Nested input of `IsPublicGateway`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsPublicGatewayTimeoutsArgs:
    """Nested input of `IsPublicGateway`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)


class IsSecurityGroupRuleIcmpArgsDict(TypedDict):
    """Nested input of `IsSecurityGroupRule`."""

    code: NotRequired[pulumi.Input[float]]
    type: NotRequired[pulumi.Input[float]]


@pulumi.input_type
class IsSecurityGroupRuleIcmpArgs:
    """Nested input of `IsSecurityGroupRule`."""

    code: Optional[pulumi.Input[float]] = pulumi.property("code", default=None)
    type: Optional[pulumi.Input[float]] = pulumi.property("type", default=None)


class IsSecurityGroupRuleTcpArgsDict(TypedDict):
    """Nested input of `IsSecurityGroupRule`."""

    port_max: NotRequired[pulumi.Input[float]]
    port_min: NotRequired[pulumi.Input[float]]


@pulumi.input_type
class IsSecurityGroupRuleTcpArgs:
    """Nested input of `IsSecurityGroupRule`."""

    port_max: Optional[pulumi.Input[float]] = pulumi.property("portMax", default=None)
    port_min: Optional[pulumi.Input[float]] = pulumi.property("portMin", default=None)


class IsSecurityGroupRuleUdpArgsDict(TypedDict):
    """Nested input of `IsSecurityGroupRule`."""

    port_max: NotRequired[pulumi.Input[float]]
    port_min: NotRequired[pulumi.Input[float]]


@pulumi.input_type
class IsSecurityGroupRuleUdpArgs:
    """Nested input of `IsSecurityGroupRule`."""

    port_max: Optional[pulumi.Input[float]] = pulumi.property("portMax", default=None)
    port_min: Optional[pulumi.Input[float]] = pulumi.property("portMin", default=None)


class IsSecurityGroupTimeoutsArgsDict(TypedDict):
    """Nested input of `IsSecurityGroup`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsSecurityGroupTimeoutsArgs:
    """Nested input of `IsSecurityGroup`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)


class IsSubnetTimeoutsArgsDict(TypedDict):
    """Nested input of `IsSubnet`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]
    update: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsSubnetTimeoutsArgs:
    """Nested input of `IsSubnet`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)
    update: Optional[pulumi.Input[str]] = pulumi.property("update", default=None)


class IsVirtualNetworkInterfaceIpArgsDict(TypedDict):
    """Nested input of `IsVirtualNetworkInterface`."""

    reserved_ip: pulumi.Input[str]


@pulumi.input_type
class IsVirtualNetworkInterfaceIpArgs:
    """Nested input of `IsVirtualNetworkInterface`."""

    reserved_ip: pulumi.Input[str] = pulumi.property("reservedIp")


class IsVirtualNetworkInterfacePrimaryIpArgsDict(TypedDict):
    """Nested input of `IsVirtualNetworkInterface`."""

    address: NotRequired[pulumi.Input[str]]
    auto_delete: NotRequired[pulumi.Input[bool]]
    name: NotRequired[pulumi.Input[str]]
    reserved_ip: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsVirtualNetworkInterfacePrimaryIpArgs:
    """Nested input of `IsVirtualNetworkInterface`."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    reserved_ip: Optional[pulumi.Input[str]] = pulumi.property("reservedIp", default=None)


class IsVirtualNetworkInterfaceTimeoutsArgsDict(TypedDict):
    """Nested input of `IsVirtualNetworkInterface`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]
    update: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsVirtualNetworkInterfaceTimeoutsArgs:
    """Nested input of `IsVirtualNetworkInterface`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)
    update: Optional[pulumi.Input[str]] = pulumi.property("update", default=None)


class IsSubnetReservedIpTimeoutsArgsDict(TypedDict):
    """Nested input of `IsSubnetReservedIp`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsSubnetReservedIpTimeoutsArgs:
    """Nested input of `IsSubnetReservedIp`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)


class IsVpcDnsArgsDict(TypedDict):
    """Nested input of `IsVpc`."""

    enable_hub: NotRequired[pulumi.Input[bool]]
    resolver: NotRequired[pulumi.Input["IsVpcDnsResolverArgsDict"]]


@pulumi.input_type
class IsVpcDnsArgs:
    """Nested input of `IsVpc`."""

    enable_hub: Optional[pulumi.Input[bool]] = pulumi.property("enableHub", default=None)
    resolver: Optional[pulumi.Input["IsVpcDnsResolverArgs"]] = pulumi.property("resolver", default=None)


class IsVpcDnsResolverArgsDict(TypedDict):
    """Nested input of `IsVpc`."""

    dns_binding_name: NotRequired[pulumi.Input[str]]
    manual_servers: NotRequired[pulumi.Input[Sequence[pulumi.Input["IsVpcDnsResolverManualServerArgsDict"]]]]
    type: NotRequired[pulumi.Input[str]]
    vpc_crn: NotRequired[pulumi.Input[str]]
    vpc_id: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsVpcDnsResolverArgs:
    """Nested input of `IsVpc`."""

    dns_binding_name: Optional[pulumi.Input[str]] = pulumi.property("dnsBindingName", default=None)
    manual_servers: Optional[pulumi.Input[Sequence[pulumi.Input["IsVpcDnsResolverManualServerArgs"]]]] = (
        pulumi.property("manualServers", default=None)
    )
    type: Optional[pulumi.Input[str]] = pulumi.property("type", default=None)
    vpc_crn: Optional[pulumi.Input[str]] = pulumi.property("vpcCrn", default=None)
    vpc_id: Optional[pulumi.Input[str]] = pulumi.property("vpcId", default=None)


class IsVpcDnsResolverManualServerArgsDict(TypedDict):
    """Nested input of `IsVpc`."""

    address: NotRequired[pulumi.Input[str]]
    zone_affinity: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsVpcDnsResolverManualServerArgs:
    """Nested input of `IsVpc`."""

    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    zone_affinity: Optional[pulumi.Input[str]] = pulumi.property("zoneAffinity", default=None)


class IsVpcTimeoutsArgsDict(TypedDict):
    """Nested input of `IsVpc`."""

    create: NotRequired[pulumi.Input[str]]
    delete: NotRequired[pulumi.Input[str]]


@pulumi.input_type
class IsVpcTimeoutsArgs:
    """Nested input of `IsVpc`."""

    create: Optional[pulumi.Input[str]] = pulumi.property("create", default=None)
    delete: Optional[pulumi.Input[str]] = pulumi.property("delete", default=None)
