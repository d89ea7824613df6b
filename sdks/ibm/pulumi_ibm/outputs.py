# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Mapping, Optional, Sequence

import pulumi

__all__ = [
    "GetIsClusterNetworkProfileSupportedInstanceProfileResult",
    "GetIsClusterNetworkProfileZoneResult",
    "GetIsImageAllowedUseResult",
    "GetIsImageCatalogOfferingResult",
    "GetIsImageRemoteResult",
    "GetIsImageResourceGroupResult",
    "GetIsImageStatusReasonResult",
    "GetIsImageZoneResult",
    "GetIsInstanceProfileAvailabilityClassResult",
    "GetIsInstanceProfileBandwidthResult",
    "GetIsInstanceProfileClusterNetworkAttachmentCountResult",
    "GetIsInstanceProfileConfidentialComputeModeResult",
    "GetIsInstanceProfileDiskResult",
    "GetIsInstanceProfileGpuCountResult",
    "GetIsInstanceProfileGpuManufacturerResult",
    "GetIsInstanceProfileGpuMemoryResult",
    "GetIsInstanceProfileGpuModelResult",
    "GetIsInstanceProfileMemoryResult",
    "GetIsInstanceProfileNetworkAttachmentCountResult",
    "GetIsInstanceProfileNetworkBandwidthModeResult",
    "GetIsInstanceProfileNetworkInterfaceCountResult",
    "GetIsInstanceProfileNumaCountResult",
    "GetIsInstanceProfilePortSpeedResult",
    "GetIsInstanceProfileReservationTermResult",
    "GetIsInstanceProfileSecureBootModeResult",
    "GetIsInstanceProfileSupportedClusterNetworkProfileResult",
    "GetIsInstanceProfileSupportedVcpuCountResult",
    "GetIsInstanceProfileThreadsPerCoreResult",
    "GetIsInstanceProfileTotalVolumeBandwidthResult",
    "GetIsInstanceProfileVcpuArchitectureResult",
    "GetIsInstanceProfileVcpuBurstLimitResult",
    "GetIsInstanceProfileVcpuCountResult",
    "GetIsInstanceProfileVcpuManufacturerResult",
    "GetIsInstanceProfileVcpuPercentageResult",
    "GetIsInstanceProfileVolumeBandwidthQosModeResult",
    "GetIsInstanceProfileZoneResult",
    "IsClusterNetworkInterfaceLifecycleReason",
    "IsClusterNetworkInterfacePrimaryIp",
    "IsClusterNetworkInterfacePrimaryIpDeleted",
    "IsClusterNetworkInterfaceSubnet",
    "IsClusterNetworkInterfaceSubnetDeleted",
    "IsClusterNetworkInterfaceTarget",
    "IsClusterNetworkInterfaceVpc",
    "IsClusterNetworkInterfaceZone",
    "IsClusterNetworkLifecycleReason",
    "IsClusterNetworkSubnetLifecycleReason",
    "IsClusterNetworkSubnetPrefixes",
    "IsClusterNetworkSubnetReservedIpLifecycleReason",
    "IsClusterNetworkSubnetReservedIpTarget",
    "IsClusterNetworkVpc",
    "IsClusterNetworkVpcDeleted",
    "IsInstanceActionStatusReason",
    "IsInstanceActionTimeouts",
    "IsInstanceAvailability",
    "IsInstanceAvailabilityPolicy",
    "IsInstanceBootVolume",
    "IsInstanceBootVolumeAllowedUse",
    "IsInstanceCatalogOffering",
    "IsInstanceCatalogOfferingDeleted",
    "IsInstanceClusterNetwork",
    "IsInstanceClusterNetworkAttachment",
    "IsInstanceClusterNetworkAttachmentBefore",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterface",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceDeleted",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIp",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpDeleted",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnet",
    "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetDeleted",
    "IsInstanceClusterNetworkAttachmentLifecycleReason",
    "IsInstanceDisk",
    "IsInstanceGpu",
    "IsInstanceHealthReason",
    "IsInstanceLifecycleReason",
    "IsInstanceMetadataService",
    "IsInstanceNetworkAttachment",
    "IsInstanceNetworkAttachmentDeleted",
    "IsInstanceNetworkAttachmentPrimaryIp",
    "IsInstanceNetworkAttachmentVirtualNetworkInterface",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceIp",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpDeleted",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIp",
    "IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted",
    "IsInstanceNetworkInterface",
    "IsInstanceNetworkInterfacePrimaryIp",
    "IsInstancePlacementTarget",
    "IsInstancePrimaryNetworkAttachment",
    "IsInstancePrimaryNetworkAttachmentDeleted",
    "IsInstancePrimaryNetworkAttachmentPrimaryIp",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterface",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIp",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpDeleted",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIp",
    "IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted",
    "IsInstancePrimaryNetworkInterface",
    "IsInstancePrimaryNetworkInterfacePrimaryIp",
    "IsInstanceReservation",
    "IsInstanceReservationAffinity",
    "IsInstanceReservationAffinityPool",
    "IsInstanceReservationAffinityPoolDeleted",
    "IsInstanceSoftwareAttachment",
    "IsInstanceStatusReason",
    "IsInstanceTimeouts",
    "IsInstanceVcpu",
    "IsInstanceVcpuBurst",
    "IsInstanceVolumeAttachment",
    "IsInstanceVolumePrototype",
    "IsInstanceVolumePrototypeAllowedUse",
    "IsPublicGatewayTimeouts",
    "IsSecurityGroupRuleIcmp",
    "IsSecurityGroupRuleTcp",
    "IsSecurityGroupRuleUdp",
    "IsSecurityGroupTimeouts",
    "IsSubnetTimeouts",
    "IsVirtualNetworkInterfaceIp",
    "IsVirtualNetworkInterfaceIpDeleted",
    "IsVirtualNetworkInterfacePrimaryIp",
    "IsVirtualNetworkInterfacePrimaryIpDeleted",
    "IsVirtualNetworkInterfaceTarget",
    "IsSubnetReservedIpTimeouts",
    "IsVirtualNetworkInterfaceTimeouts",
    "IsVirtualNetworkInterfaceVpc",
    "IsVpcCseSourceAddress",
    "IsVpcDns",
    "IsVpcDnsResolver",
    "IsVpcDnsResolverManualServer",
    "IsVpcDnsResolverServer",
    "IsVpcHealthReason",
    "IsVpcPublicAddressRange",
    "IsVpcSecurityGroup",
    "IsVpcSubnet",
    "IsVpcTimeouts",
]


@pulumi.output_type
class GetIsClusterNetworkProfileSupportedInstanceProfileResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class GetIsClusterNetworkProfileZoneResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)


@pulumi.output_type
class GetIsImageAllowedUseResult(dict):
    api_version: Optional[str] = pulumi.property("apiVersion", default=None)
    bare_metal_server: Optional[str] = pulumi.property("bareMetalServer", default=None)
    instance: Optional[str] = pulumi.property("instance", default=None)


@pulumi.output_type
class GetIsImageCatalogOfferingResult(dict):
    managed: Optional[bool] = pulumi.property("managed", default=None)
    versions: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("versions", default=None)


@pulumi.output_type
class GetIsImageRemoteResult(dict):
    accounts: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("accounts", default=None)


@pulumi.output_type
class GetIsImageResourceGroupResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)


@pulumi.output_type
class GetIsImageStatusReasonResult(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class GetIsImageZoneResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)


@pulumi.output_type
class GetIsInstanceProfileAvailabilityClassResult(dict):
    default: Optional[str] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[str] = pulumi.property("value", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileBandwidthResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileClusterNetworkAttachmentCountResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileConfidentialComputeModeResult(dict):
    default: Optional[str] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileDiskResult(dict):
    quantities: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("quantities", default=None)
    sizes: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("sizes", default=None)
    supported_interface_types: Optional[Sequence[Mapping[str, Any]]] = pulumi.property(
        "supportedInterfaceTypes", default=None
    )


@pulumi.output_type
class GetIsInstanceProfileGpuCountResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileGpuManufacturerResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileGpuMemoryResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileGpuModelResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileMemoryResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileNetworkAttachmentCountResult(dict):
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    type: Optional[str] = pulumi.property("type", default=None)


@pulumi.output_type
class GetIsInstanceProfileNetworkBandwidthModeResult(dict):
    default: Optional[str] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[str] = pulumi.property("value", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileNetworkInterfaceCountResult(dict):
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    type: Optional[str] = pulumi.property("type", default=None)


@pulumi.output_type
class GetIsInstanceProfileNumaCountResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)


@pulumi.output_type
class GetIsInstanceProfilePortSpeedResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)


@pulumi.output_type
class GetIsInstanceProfileReservationTermResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileSecureBootModeResult(dict):
    default: Optional[bool] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[bool]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileSupportedClusterNetworkProfileResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class GetIsInstanceProfileSupportedVcpuCountResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileThreadsPerCoreResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileTotalVolumeBandwidthResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileVcpuArchitectureResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[str] = pulumi.property("value", default=None)


@pulumi.output_type
class GetIsInstanceProfileVcpuBurstLimitResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)


@pulumi.output_type
class GetIsInstanceProfileVcpuCountResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    max: Optional[float] = pulumi.property("max", default=None)
    min: Optional[float] = pulumi.property("min", default=None)
    step: Optional[float] = pulumi.property("step", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[float] = pulumi.property("value", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileVcpuManufacturerResult(dict):
    type: Optional[str] = pulumi.property("type", default=None)
    value: Optional[str] = pulumi.property("value", default=None)


@pulumi.output_type
class GetIsInstanceProfileVcpuPercentageResult(dict):
    default: Optional[float] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[float]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileVolumeBandwidthQosModeResult(dict):
    default: Optional[str] = pulumi.property("default", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    values: Optional[Sequence[str]] = pulumi.property("values", default=None)


@pulumi.output_type
class GetIsInstanceProfileZoneResult(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsClusterNetworkInterfacePrimaryIpDeleted"]] = pulumi.property(
        "deleteds", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkInterfacePrimaryIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceSubnet(dict):
    deleteds: Optional[Sequence["IsClusterNetworkInterfaceSubnetDeleted"]] = pulumi.property("deleteds", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceSubnetDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceTarget(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceVpc(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkInterfaceZone(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)


@pulumi.output_type
class IsClusterNetworkLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkSubnetLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkSubnetPrefixes(dict):
    cidr: str = pulumi.property("cidr")
    allocation_policy: Optional[str] = pulumi.property("allocationPolicy", default=None)


@pulumi.output_type
class IsClusterNetworkSubnetReservedIpLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsClusterNetworkSubnetReservedIpTarget(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkVpc(dict):
    id: str = pulumi.property("id")
    crn: Optional[str] = pulumi.property("crn", default=None)
    deleteds: Optional[Sequence["IsClusterNetworkVpcDeleted"]] = pulumi.property("deleteds", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsClusterNetworkVpcDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceActionStatusReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceActionTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)


@pulumi.output_type
class IsInstanceAvailability(dict):
    class_: Optional[str] = pulumi.property("class", default=None)


@pulumi.output_type
class IsInstanceAvailabilityPolicy(dict):
    host_failure: Optional[str] = pulumi.property("hostFailure", default=None)
    preemption: Optional[str] = pulumi.property("preemption", default=None)


@pulumi.output_type
class IsInstanceBootVolume(dict):
    allowed_use: Optional["IsInstanceBootVolumeAllowedUse"] = pulumi.property("allowedUse", default=None)
    auto_delete_volume: Optional[bool] = pulumi.property("autoDeleteVolume", default=None)
    bandwidth: Optional[float] = pulumi.property("bandwidth", default=None)
    encryption: Optional[str] = pulumi.property("encryption", default=None)
    iops: Optional[float] = pulumi.property("iops", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    profile: Optional[str] = pulumi.property("profile", default=None)
    size: Optional[float] = pulumi.property("size", default=None)
    snapshot: Optional[str] = pulumi.property("snapshot", default=None)
    snapshot_crn: Optional[str] = pulumi.property("snapshotCrn", default=None)
    tags: Optional[Sequence[str]] = pulumi.property("tags", default=None)
    volume_id: Optional[str] = pulumi.property("volumeId", default=None)


@pulumi.output_type
class IsInstanceBootVolumeAllowedUse(dict):
    api_version: Optional[str] = pulumi.property("apiVersion", default=None)
    bare_metal_server: Optional[str] = pulumi.property("bareMetalServer", default=None)
    instance: Optional[str] = pulumi.property("instance", default=None)


@pulumi.output_type
class IsInstanceCatalogOffering(dict):
    deleteds: Optional[Sequence["IsInstanceCatalogOfferingDeleted"]] = pulumi.property("deleteds", default=None)
    offering_crn: Optional[str] = pulumi.property("offeringCrn", default=None)
    plan_crn: Optional[str] = pulumi.property("planCrn", default=None)
    version_crn: Optional[str] = pulumi.property("versionCrn", default=None)


@pulumi.output_type
class IsInstanceCatalogOfferingDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceClusterNetwork(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachment(dict):
    cluster_network_interface: "IsInstanceClusterNetworkAttachmentClusterNetworkInterface" = pulumi.property(
        "clusterNetworkInterface"
    )
    name: str = pulumi.property("name")
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentBefore(dict):
    id: str = pulumi.property("id")
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterface(dict):
    subnet: "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnet" = pulumi.property("subnet")
    deleteds: Optional[Sequence["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceDeleted"]] = pulumi.property(
        "deleteds", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ip: Optional["IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIp"] = pulumi.property(
        "primaryIp", default=None
    )
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIp(dict):
    address: str = pulumi.property("address")
    href: str = pulumi.property("href")
    id: str = pulumi.property("id")
    name: str = pulumi.property("name")
    deleteds: Optional[Sequence["IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpDeleted"]] = (
        pulumi.property("deleteds", default=None)
    )
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfacePrimaryIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnet(dict):
    id: str = pulumi.property("id")
    deleteds: Optional[Sequence["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetDeleted"]] = (
        pulumi.property("deleteds", default=None)
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceClusterNetworkAttachmentLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceDisk(dict):
    created_at: Optional[str] = pulumi.property("createdAt", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    interface_type: Optional[str] = pulumi.property("interfaceType", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    size: Optional[float] = pulumi.property("size", default=None)


@pulumi.output_type
class IsInstanceGpu(dict):
    count: Optional[float] = pulumi.property("count", default=None)
    manufacturer: Optional[str] = pulumi.property("manufacturer", default=None)
    memory: Optional[float] = pulumi.property("memory", default=None)
    model: Optional[str] = pulumi.property("model", default=None)


@pulumi.output_type
class IsInstanceHealthReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceLifecycleReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceMetadataService(dict):
    enabled: Optional[bool] = pulumi.property("enabled", default=None)
    protocol: Optional[str] = pulumi.property("protocol", default=None)
    response_hop_limit: Optional[float] = pulumi.property("responseHopLimit", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachment(dict):
    deleteds: Optional[Sequence["IsInstanceNetworkAttachmentDeleted"]] = pulumi.property("deleteds", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ips: Optional[Sequence["IsInstanceNetworkAttachmentPrimaryIp"]] = pulumi.property(
        "primaryIps", default=None
    )
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    virtual_network_interface: Optional["IsInstanceNetworkAttachmentVirtualNetworkInterface"] = pulumi.property(
        "virtualNetworkInterface", default=None
    )


@pulumi.output_type
class IsInstanceNetworkAttachmentDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentPrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentVirtualNetworkInterface(dict):
    allow_ip_spoofing: Optional[bool] = pulumi.property("allowIpSpoofing", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    crn: Optional[str] = pulumi.property("crn", default=None)
    enable_infrastructure_nat: Optional[bool] = pulumi.property("enableInfrastructureNat", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    ips: Optional[Sequence["IsInstanceNetworkAttachmentVirtualNetworkInterfaceIp"]] = pulumi.property(
        "ips", default=None
    )
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ip: Optional["IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIp"] = pulumi.property(
        "primaryIp", default=None
    )
    protocol_state_filtering_mode: Optional[str] = pulumi.property("protocolStateFilteringMode", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    security_groups: Optional[Sequence[str]] = pulumi.property("securityGroups", default=None)
    subnet: Optional[str] = pulumi.property("subnet", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfaceIp(dict):
    reserved_ip: str = pulumi.property("reservedIp")
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpDeleted"]] = pulumi.property(
        "deleteds", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfaceIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted"]] = (
        pulumi.property("deleteds", default=None)
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    reserved_ip: Optional[str] = pulumi.property("reservedIp", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceNetworkInterface(dict):
    subnet: str = pulumi.property("subnet")
    allow_ip_spoofing: Optional[bool] = pulumi.property("allowIpSpoofing", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ip: Optional["IsInstanceNetworkInterfacePrimaryIp"] = pulumi.property("primaryIp", default=None)
    primary_ipv4_address: Optional[str] = pulumi.property("primaryIpv4Address", default=None)
    security_groups: Optional[Sequence[str]] = pulumi.property("securityGroups", default=None)


@pulumi.output_type
class IsInstanceNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    reserved_ip: Optional[str] = pulumi.property("reservedIp", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstancePlacementTarget(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachment(dict):
    deleteds: Optional[Sequence["IsInstancePrimaryNetworkAttachmentDeleted"]] = pulumi.property(
        "deleteds", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ips: Optional[Sequence["IsInstancePrimaryNetworkAttachmentPrimaryIp"]] = pulumi.property(
        "primaryIps", default=None
    )
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    virtual_network_interface: Optional["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterface"] = pulumi.property(
        "virtualNetworkInterface", default=None
    )


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentPrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterface(dict):
    allow_ip_spoofing: Optional[bool] = pulumi.property("allowIpSpoofing", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    crn: Optional[str] = pulumi.property("crn", default=None)
    enable_infrastructure_nat: Optional[bool] = pulumi.property("enableInfrastructureNat", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    ips: Optional[Sequence["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIp"]] = pulumi.property(
        "ips", default=None
    )
    name: Optional[str] = pulumi.property("name", default=None)
    primary_ip: Optional["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIp"] = pulumi.property(
        "primaryIp", default=None
    )
    protocol_state_filtering_mode: Optional[str] = pulumi.property("protocolStateFilteringMode", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    security_groups: Optional[Sequence[str]] = pulumi.property("securityGroups", default=None)
    subnet: Optional[str] = pulumi.property("subnet", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIp(dict):
    reserved_ip: str = pulumi.property("reservedIp")
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpDeleted"]] = (
        pulumi.property("deleteds", default=None)
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfaceIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted"]] = (
        pulumi.property("deleteds", default=None)
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    reserved_ip: Optional[str] = pulumi.property("reservedIp", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkAttachmentVirtualNetworkInterfacePrimaryIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkInterface(dict):
    subnet: str = pulumi.property("subnet")
    allow_ip_spoofing: Optional[bool] = pulumi.property("allowIpSpoofing", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    port_speed: Optional[float] = pulumi.property("portSpeed", default=None)
    primary_ip: Optional["IsInstancePrimaryNetworkInterfacePrimaryIp"] = pulumi.property("primaryIp", default=None)
    primary_ipv4_address: Optional[str] = pulumi.property("primaryIpv4Address", default=None)
    security_groups: Optional[Sequence[str]] = pulumi.property("securityGroups", default=None)


@pulumi.output_type
class IsInstancePrimaryNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    reserved_ip: Optional[str] = pulumi.property("reservedIp", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceReservation(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceReservationAffinity(dict):
    policy: Optional[str] = pulumi.property("policy", default=None)
    pools: Optional[Sequence["IsInstanceReservationAffinityPool"]] = pulumi.property("pools", default=None)


@pulumi.output_type
class IsInstanceReservationAffinityPool(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    deleteds: Optional[Sequence["IsInstanceReservationAffinityPoolDeleted"]] = pulumi.property("deleteds", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceReservationAffinityPoolDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceSoftwareAttachment(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsInstanceStatusReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsInstanceTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)
    update: Optional[str] = pulumi.property("update", default=None)


@pulumi.output_type
class IsInstanceVcpu(dict):
    architecture: Optional[str] = pulumi.property("architecture", default=None)
    bursts: Optional[Sequence["IsInstanceVcpuBurst"]] = pulumi.property("bursts", default=None)
    count: Optional[float] = pulumi.property("count", default=None)
    manufacturer: Optional[str] = pulumi.property("manufacturer", default=None)
    percentage: Optional[float] = pulumi.property("percentage", default=None)


@pulumi.output_type
class IsInstanceVcpuBurst(dict):
    limit: Optional[float] = pulumi.property("limit", default=None)


@pulumi.output_type
class IsInstanceVolumeAttachment(dict):
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    volume_crn: Optional[str] = pulumi.property("volumeCrn", default=None)
    volume_id: Optional[str] = pulumi.property("volumeId", default=None)
    volume_name: Optional[str] = pulumi.property("volumeName", default=None)


@pulumi.output_type
class IsInstanceVolumePrototype(dict):
    name: str = pulumi.property("name")
    allowed_use: Optional["IsInstanceVolumePrototypeAllowedUse"] = pulumi.property("allowedUse", default=None)
    delete_volume_on_instance_delete: Optional[bool] = pulumi.property("deleteVolumeOnInstanceDelete", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    volume_bandwidth: Optional[float] = pulumi.property("volumeBandwidth", default=None)
    volume_capacity: Optional[float] = pulumi.property("volumeCapacity", default=None)
    volume_crn: Optional[str] = pulumi.property("volumeCrn", default=None)
    volume_encryption_key: Optional[str] = pulumi.property("volumeEncryptionKey", default=None)
    volume_id: Optional[str] = pulumi.property("volumeId", default=None)
    volume_iops: Optional[float] = pulumi.property("volumeIops", default=None)
    volume_name: Optional[str] = pulumi.property("volumeName", default=None)
    volume_profile: Optional[str] = pulumi.property("volumeProfile", default=None)
    volume_resource_type: Optional[str] = pulumi.property("volumeResourceType", default=None)
    volume_source_snapshot: Optional[str] = pulumi.property("volumeSourceSnapshot", default=None)
    volume_tags: Optional[Sequence[str]] = pulumi.property("volumeTags", default=None)


@pulumi.output_type
class IsInstanceVolumePrototypeAllowedUse(dict):
    api_version: Optional[str] = pulumi.property("apiVersion", default=None)
    bare_metal_server: Optional[str] = pulumi.property("bareMetalServer", default=None)
    instance: Optional[str] = pulumi.property("instance", default=None)


@pulumi.output_type
class IsPublicGatewayTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)


@pulumi.output_type
class IsSecurityGroupRuleIcmp(dict):
    code: Optional[float] = pulumi.property("code", default=None)
    type: Optional[float] = pulumi.property("type", default=None)


@pulumi.output_type
class IsSecurityGroupRuleTcp(dict):
    port_max: Optional[float] = pulumi.property("portMax", default=None)
    port_min: Optional[float] = pulumi.property("portMin", default=None)


@pulumi.output_type
class IsSecurityGroupRuleUdp(dict):
    port_max: Optional[float] = pulumi.property("portMax", default=None)
    port_min: Optional[float] = pulumi.property("portMin", default=None)


@pulumi.output_type
class IsSecurityGroupTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)


@pulumi.output_type
class IsSubnetTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)
    update: Optional[str] = pulumi.property("update", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfaceIp(dict):
    reserved_ip: str = pulumi.property("reservedIp")
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsVirtualNetworkInterfaceIpDeleted"]] = pulumi.property("deleteds", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfaceIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfacePrimaryIp(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    auto_delete: Optional[bool] = pulumi.property("autoDelete", default=None)
    deleteds: Optional[Sequence["IsVirtualNetworkInterfacePrimaryIpDeleted"]] = pulumi.property(
        "deleteds", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    reserved_ip: Optional[str] = pulumi.property("reservedIp", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfacePrimaryIpDeleted(dict):
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfaceTarget(dict):
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsSubnetReservedIpTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfaceTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)
    update: Optional[str] = pulumi.property("update", default=None)


@pulumi.output_type
class IsVirtualNetworkInterfaceVpc(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsVpcCseSourceAddress(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    zone_name: Optional[str] = pulumi.property("zoneName", default=None)


@pulumi.output_type
class IsVpcDns(dict):
    enable_hub: Optional[bool] = pulumi.property("enableHub", default=None)
    resolution_binding_count: Optional[float] = pulumi.property("resolutionBindingCount", default=None)
    resolver: Optional["IsVpcDnsResolver"] = pulumi.property("resolver", default=None)


@pulumi.output_type
class IsVpcDnsResolver(dict):
    configuration: Optional[str] = pulumi.property("configuration", default=None)
    dns_binding_id: Optional[str] = pulumi.property("dnsBindingId", default=None)
    dns_binding_name: Optional[str] = pulumi.property("dnsBindingName", default=None)
    manual_servers: Optional[Sequence["IsVpcDnsResolverManualServer"]] = pulumi.property("manualServers", default=None)
    servers: Optional[Sequence["IsVpcDnsResolverServer"]] = pulumi.property("servers", default=None)
    type: Optional[str] = pulumi.property("type", default=None)
    vpc_crn: Optional[str] = pulumi.property("vpcCrn", default=None)
    vpc_id: Optional[str] = pulumi.property("vpcId", default=None)
    vpc_name: Optional[str] = pulumi.property("vpcName", default=None)
    vpc_remote_account_id: Optional[str] = pulumi.property("vpcRemoteAccountId", default=None)
    vpc_remote_region: Optional[str] = pulumi.property("vpcRemoteRegion", default=None)


@pulumi.output_type
class IsVpcDnsResolverManualServer(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    zone_affinity: Optional[str] = pulumi.property("zoneAffinity", default=None)


@pulumi.output_type
class IsVpcDnsResolverServer(dict):
    address: Optional[str] = pulumi.property("address", default=None)
    zone_affinity: Optional[str] = pulumi.property("zoneAffinity", default=None)


@pulumi.output_type
class IsVpcHealthReason(dict):
    code: Optional[str] = pulumi.property("code", default=None)
    message: Optional[str] = pulumi.property("message", default=None)
    more_info: Optional[str] = pulumi.property("moreInfo", default=None)


@pulumi.output_type
class IsVpcPublicAddressRange(dict):
    crn: Optional[str] = pulumi.property("crn", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)


@pulumi.output_type
class IsVpcSecurityGroup(dict):
    group_id: Optional[str] = pulumi.property("groupId", default=None)
    group_name: Optional[str] = pulumi.property("groupName", default=None)
    rules: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("rules", default=None)


@pulumi.output_type
class IsVpcSubnet(dict):
    available_ipv4_address_count: Optional[float] = pulumi.property("availableIpv4AddressCount", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    status: Optional[str] = pulumi.property("status", default=None)
    total_ipv4_address_count: Optional[float] = pulumi.property("totalIpv4AddressCount", default=None)
    zone: Optional[str] = pulumi.property("zone", default=None)


@pulumi.output_type
class IsVpcTimeouts(dict):
    create: Optional[str] = pulumi.property("create", default=None)
    delete: Optional[str] = pulumi.property("delete", default=None)
