# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsInstanceAvailabilityArgs,
    IsInstanceAvailabilityArgsDict,
    IsInstanceAvailabilityPolicyArgs,
    IsInstanceAvailabilityPolicyArgsDict,
    IsInstanceBootVolumeArgs,
    IsInstanceBootVolumeArgsDict,
    IsInstanceCatalogOfferingArgs,
    IsInstanceCatalogOfferingArgsDict,
    IsInstanceClusterNetworkAttachmentArgs,
    IsInstanceClusterNetworkAttachmentArgsDict,
    IsInstanceMetadataServiceArgs,
    IsInstanceMetadataServiceArgsDict,
    IsInstanceNetworkAttachmentArgs,
    IsInstanceNetworkAttachmentArgsDict,
    IsInstanceNetworkInterfaceArgs,
    IsInstanceNetworkInterfaceArgsDict,
    IsInstancePrimaryNetworkAttachmentArgs,
    IsInstancePrimaryNetworkAttachmentArgsDict,
    IsInstancePrimaryNetworkInterfaceArgs,
    IsInstancePrimaryNetworkInterfaceArgsDict,
    IsInstanceReservationAffinityArgs,
    IsInstanceReservationAffinityArgsDict,
    IsInstanceTimeoutsArgs,
    IsInstanceTimeoutsArgsDict,
    IsInstanceVcpuArgs,
    IsInstanceVcpuArgsDict,
    IsInstanceVolumePrototypeArgs,
    IsInstanceVolumePrototypeArgsDict,
)

__all__ = ["IsInstanceArgs", "IsInstance"]


@pulumi.input_type
class IsInstanceArgs:
    """Arguments for constructing an `IsInstance` resource."""

    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    action: Optional[pulumi.Input[str]] = pulumi.property("action", default=None)
    auto_delete_volume: Optional[pulumi.Input[bool]] = pulumi.property("autoDeleteVolume", default=None)
    availability: Optional[pulumi.Input["IsInstanceAvailabilityArgs"]] = pulumi.property("availability", default=None)
    availability_policy: Optional[pulumi.Input["IsInstanceAvailabilityPolicyArgs"]] = pulumi.property(
        "availabilityPolicy", default=None
    )
    availability_policy_host_failure: Optional[pulumi.Input[str]] = pulumi.property(
        "availabilityPolicyHostFailure", default=None
    )
    boot_volume: Optional[pulumi.Input["IsInstanceBootVolumeArgs"]] = pulumi.property("bootVolume", default=None)
    catalog_offering: Optional[pulumi.Input["IsInstanceCatalogOfferingArgs"]] = pulumi.property(
        "catalogOffering", default=None
    )
    cluster_network_attachments: Optional[
        pulumi.Input[Sequence[pulumi.Input["IsInstanceClusterNetworkAttachmentArgs"]]]
    ] = pulumi.property("clusterNetworkAttachments", default=None)
    confidential_compute_mode: Optional[pulumi.Input[str]] = pulumi.property("confidentialComputeMode", default=None)
    dedicated_host: Optional[pulumi.Input[str]] = pulumi.property("dedicatedHost", default=None)
    dedicated_host_group: Optional[pulumi.Input[str]] = pulumi.property("dedicatedHostGroup", default=None)
    default_trusted_profile_auto_link: Optional[pulumi.Input[bool]] = pulumi.property(
        "defaultTrustedProfileAutoLink", default=None
    )
    default_trusted_profile_target: Optional[pulumi.Input[str]] = pulumi.property(
        "defaultTrustedProfileTarget", default=None
    )
    enable_secure_boot: Optional[pulumi.Input[bool]] = pulumi.property("enableSecureBoot", default=None)
    force_action: Optional[pulumi.Input[bool]] = pulumi.property("forceAction", default=None)
    force_recovery_time: Optional[pulumi.Input[float]] = pulumi.property("forceRecoveryTime", default=None)
    image: Optional[pulumi.Input[str]] = pulumi.property("image", default=None)
    instance_template: Optional[pulumi.Input[str]] = pulumi.property("instanceTemplate", default=None)
    is_instance_id: Optional[pulumi.Input[str]] = pulumi.property("isInstanceId", default=None)
    keys: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("keys", default=None)
    metadata_service: Optional[pulumi.Input["IsInstanceMetadataServiceArgs"]] = pulumi.property(
        "metadataService", default=None
    )
    metadata_service_enabled: Optional[pulumi.Input[bool]] = pulumi.property("metadataServiceEnabled", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    network_attachments: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceNetworkAttachmentArgs"]]]] = (
        pulumi.property("networkAttachments", default=None)
    )
    network_interfaces: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceNetworkInterfaceArgs"]]]] = (
        pulumi.property("networkInterfaces", default=None)
    )
    placement_group: Optional[pulumi.Input[str]] = pulumi.property("placementGroup", default=None)
    primary_network_attachment: Optional[pulumi.Input["IsInstancePrimaryNetworkAttachmentArgs"]] = pulumi.property(
        "primaryNetworkAttachment", default=None
    )
    primary_network_interface: Optional[pulumi.Input["IsInstancePrimaryNetworkInterfaceArgs"]] = pulumi.property(
        "primaryNetworkInterface", default=None
    )
    profile: Optional[pulumi.Input[str]] = pulumi.property("profile", default=None)
    reservation_affinities: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceReservationAffinityArgs"]]]] = (
        pulumi.property("reservationAffinities", default=None)
    )
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    threads_per_core: Optional[pulumi.Input[float]] = pulumi.property("threadsPerCore", default=None)
    timeouts: Optional[pulumi.Input["IsInstanceTimeoutsArgs"]] = pulumi.property("timeouts", default=None)
    total_volume_bandwidth: Optional[pulumi.Input[float]] = pulumi.property("totalVolumeBandwidth", default=None)
    user_data: Optional[pulumi.Input[str]] = pulumi.property("userData", default=None)
    vcpu: Optional[pulumi.Input["IsInstanceVcpuArgs"]] = pulumi.property("vcpu", default=None)
    volume_bandwidth_qos_mode: Optional[pulumi.Input[str]] = pulumi.property("volumeBandwidthQosMode", default=None)
    volume_prototypes: Optional[pulumi.Input[Sequence[pulumi.Input["IsInstanceVolumePrototypeArgs"]]]] = (
        pulumi.property("volumePrototypes", default=None)
    )
    volumes: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("volumes", default=None)
    vpc: Optional[pulumi.Input[str]] = pulumi.property("vpc", default=None)
    wait_before_delete: Optional[pulumi.Input[bool]] = pulumi.property("waitBeforeDelete", default=None)
    zone: Optional[pulumi.Input[str]] = pulumi.property("zone", default=None)


_COMPUTED = (
    "bandwidth",
    "cluster_networks",
    "crn",
    "disks",
    "gpus",
    "health_reasons",
    "health_state",
    "lifecycle_reasons",
    "lifecycle_state",
    "memory",
    "numa_count",
    "placement_targets",
    "reservations",
    "resource_controller_url",
    "resource_crn",
    "resource_group_name",
    "resource_name",
    "resource_status",
    "software_attachments",
    "status",
    "status_reasons",
    "total_network_bandwidth",
    "volume_attachments",
)


@pulumi.type_token("ibm:index/isInstance:IsInstance")
@_utilities.output_properties
class IsInstance(pulumi.CustomResource):
    """`ibm_is_instance` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    action: pulumi.Output[Optional[str]] = _utilities.output("action")
    auto_delete_volume: pulumi.Output[Optional[bool]] = _utilities.output("autoDeleteVolume")
    availability: pulumi.Output["outputs.IsInstanceAvailability"] = _utilities.output("availability")
    availability_policy: pulumi.Output["outputs.IsInstanceAvailabilityPolicy"] = _utilities.output("availabilityPolicy")
    availability_policy_host_failure: pulumi.Output[str] = _utilities.output("availabilityPolicyHostFailure")
    bandwidth: pulumi.Output[float] = _utilities.output("bandwidth")
    boot_volume: pulumi.Output["outputs.IsInstanceBootVolume"] = _utilities.output("bootVolume")
    catalog_offering: pulumi.Output[Optional["outputs.IsInstanceCatalogOffering"]] = _utilities.output(
        "catalogOffering"
    )
    cluster_network_attachments: pulumi.Output[Sequence["outputs.IsInstanceClusterNetworkAttachment"]] = (
        _utilities.output("clusterNetworkAttachments")
    )
    cluster_networks: pulumi.Output[Sequence["outputs.IsInstanceClusterNetwork"]] = _utilities.output("clusterNetworks")
    confidential_compute_mode: pulumi.Output[str] = _utilities.output("confidentialComputeMode")
    crn: pulumi.Output[str] = _utilities.output("crn")
    dedicated_host: pulumi.Output[Optional[str]] = _utilities.output("dedicatedHost")
    dedicated_host_group: pulumi.Output[Optional[str]] = _utilities.output("dedicatedHostGroup")
    default_trusted_profile_auto_link: pulumi.Output[bool] = _utilities.output("defaultTrustedProfileAutoLink")
    default_trusted_profile_target: pulumi.Output[Optional[str]] = _utilities.output("defaultTrustedProfileTarget")
    disks: pulumi.Output[Sequence["outputs.IsInstanceDisk"]] = _utilities.output("disks")
    enable_secure_boot: pulumi.Output[bool] = _utilities.output("enableSecureBoot")
    force_action: pulumi.Output[Optional[bool]] = _utilities.output("forceAction")
    force_recovery_time: pulumi.Output[Optional[float]] = _utilities.output("forceRecoveryTime")
    gpus: pulumi.Output[Sequence["outputs.IsInstanceGpu"]] = _utilities.output("gpus")
    health_reasons: pulumi.Output[Sequence["outputs.IsInstanceHealthReason"]] = _utilities.output("healthReasons")
    health_state: pulumi.Output[str] = _utilities.output("healthState")
    image: pulumi.Output[str] = _utilities.output("image")
    instance_template: pulumi.Output[Optional[str]] = _utilities.output("instanceTemplate")
    is_instance_id: pulumi.Output[Optional[str]] = _utilities.output("isInstanceId")
    keys: pulumi.Output[Optional[Sequence[str]]] = _utilities.output("keys")
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsInstanceLifecycleReason"]] = _utilities.output(
        "lifecycleReasons"
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    memory: pulumi.Output[float] = _utilities.output("memory")
    metadata_service: pulumi.Output["outputs.IsInstanceMetadataService"] = _utilities.output("metadataService")
    metadata_service_enabled: pulumi.Output[bool] = _utilities.output("metadataServiceEnabled")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    network_attachments: pulumi.Output[Sequence["outputs.IsInstanceNetworkAttachment"]] = _utilities.output(
        "networkAttachments"
    )
    network_interfaces: pulumi.Output[Sequence["outputs.IsInstanceNetworkInterface"]] = _utilities.output(
        "networkInterfaces"
    )
    numa_count: pulumi.Output[float] = _utilities.output("numaCount")
    placement_group: pulumi.Output[Optional[str]] = _utilities.output("placementGroup")
    placement_targets: pulumi.Output[Sequence["outputs.IsInstancePlacementTarget"]] = _utilities.output(
        "placementTargets"
    )
    primary_network_attachment: pulumi.Output[Optional["outputs.IsInstancePrimaryNetworkAttachment"]] = (
        _utilities.output("primaryNetworkAttachment")
    )
    primary_network_interface: pulumi.Output["outputs.IsInstancePrimaryNetworkInterface"] = _utilities.output(
        "primaryNetworkInterface"
    )
    profile: pulumi.Output[str] = _utilities.output("profile")
    reservation_affinities: pulumi.Output[Sequence["outputs.IsInstanceReservationAffinity"]] = _utilities.output(
        "reservationAffinities"
    )
    reservations: pulumi.Output[Sequence["outputs.IsInstanceReservation"]] = _utilities.output("reservations")
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    resource_status: pulumi.Output[str] = _utilities.output("resourceStatus")
    software_attachments: pulumi.Output[Sequence["outputs.IsInstanceSoftwareAttachment"]] = _utilities.output(
        "softwareAttachments"
    )
    status: pulumi.Output[str] = _utilities.output("status")
    status_reasons: pulumi.Output[Sequence["outputs.IsInstanceStatusReason"]] = _utilities.output("statusReasons")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    threads_per_core: pulumi.Output[float] = _utilities.output("threadsPerCore")
    timeouts: pulumi.Output[Optional["outputs.IsInstanceTimeouts"]] = _utilities.output("timeouts")
    total_network_bandwidth: pulumi.Output[float] = _utilities.output("totalNetworkBandwidth")
    total_volume_bandwidth: pulumi.Output[float] = _utilities.output("totalVolumeBandwidth")
    user_data: pulumi.Output[Optional[str]] = _utilities.output("userData")
    vcpu: pulumi.Output["outputs.IsInstanceVcpu"] = _utilities.output("vcpu")
    volume_attachments: pulumi.Output[Sequence["outputs.IsInstanceVolumeAttachment"]] = _utilities.output(
        "volumeAttachments"
    )
    volume_bandwidth_qos_mode: pulumi.Output[str] = _utilities.output("volumeBandwidthQosMode")
    volume_prototypes: pulumi.Output[Sequence["outputs.IsInstanceVolumePrototype"]] = _utilities.output(
        "volumePrototypes"
    )
    volumes: pulumi.Output[Optional[Sequence[str]]] = _utilities.output("volumes")
    vpc: pulumi.Output[str] = _utilities.output("vpc")
    wait_before_delete: pulumi.Output[Optional[bool]] = _utilities.output("waitBeforeDelete")
    zone: pulumi.Output[str] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        action: Optional[pulumi.Input[str]] = None,
        auto_delete_volume: Optional[pulumi.Input[bool]] = None,
        availability: (
            Optional[pulumi.Input[Union["IsInstanceAvailabilityArgs", "IsInstanceAvailabilityArgsDict"]]]
        ) = None,
        availability_policy: (
            Optional[pulumi.Input[Union["IsInstanceAvailabilityPolicyArgs", "IsInstanceAvailabilityPolicyArgsDict"]]]
        ) = None,
        availability_policy_host_failure: Optional[pulumi.Input[str]] = None,
        boot_volume: Optional[pulumi.Input[Union["IsInstanceBootVolumeArgs", "IsInstanceBootVolumeArgsDict"]]] = None,
        catalog_offering: (
            Optional[pulumi.Input[Union["IsInstanceCatalogOfferingArgs", "IsInstanceCatalogOfferingArgsDict"]]]
        ) = None,
        cluster_network_attachments: (
            Optional[
                pulumi.Input[
                    Sequence[
                        pulumi.Input[
                            Union[
                                "IsInstanceClusterNetworkAttachmentArgs", "IsInstanceClusterNetworkAttachmentArgsDict"
                            ]
                        ]
                    ]
                ]
            ]
        ) = None,
        confidential_compute_mode: Optional[pulumi.Input[str]] = None,
        dedicated_host: Optional[pulumi.Input[str]] = None,
        dedicated_host_group: Optional[pulumi.Input[str]] = None,
        default_trusted_profile_auto_link: Optional[pulumi.Input[bool]] = None,
        default_trusted_profile_target: Optional[pulumi.Input[str]] = None,
        enable_secure_boot: Optional[pulumi.Input[bool]] = None,
        force_action: Optional[pulumi.Input[bool]] = None,
        force_recovery_time: Optional[pulumi.Input[float]] = None,
        image: Optional[pulumi.Input[str]] = None,
        instance_template: Optional[pulumi.Input[str]] = None,
        is_instance_id: Optional[pulumi.Input[str]] = None,
        keys: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        metadata_service: (
            Optional[pulumi.Input[Union["IsInstanceMetadataServiceArgs", "IsInstanceMetadataServiceArgsDict"]]]
        ) = None,
        metadata_service_enabled: Optional[pulumi.Input[bool]] = None,
        name: Optional[pulumi.Input[str]] = None,
        network_attachments: (
            Optional[
                pulumi.Input[
                    Sequence[
                        pulumi.Input[Union["IsInstanceNetworkAttachmentArgs", "IsInstanceNetworkAttachmentArgsDict"]]
                    ]
                ]
            ]
        ) = None,
        network_interfaces: (
            Optional[
                pulumi.Input[
                    Sequence[
                        pulumi.Input[Union["IsInstanceNetworkInterfaceArgs", "IsInstanceNetworkInterfaceArgsDict"]]
                    ]
                ]
            ]
        ) = None,
        placement_group: Optional[pulumi.Input[str]] = None,
        primary_network_attachment: (
            Optional[
                pulumi.Input[
                    Union["IsInstancePrimaryNetworkAttachmentArgs", "IsInstancePrimaryNetworkAttachmentArgsDict"]
                ]
            ]
        ) = None,
        primary_network_interface: (
            Optional[
                pulumi.Input[
                    Union["IsInstancePrimaryNetworkInterfaceArgs", "IsInstancePrimaryNetworkInterfaceArgsDict"]
                ]
            ]
        ) = None,
        profile: Optional[pulumi.Input[str]] = None,
        reservation_affinities: (
            Optional[
                pulumi.Input[
                    Sequence[
                        pulumi.Input[
                            Union["IsInstanceReservationAffinityArgs", "IsInstanceReservationAffinityArgsDict"]
                        ]
                    ]
                ]
            ]
        ) = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        threads_per_core: Optional[pulumi.Input[float]] = None,
        timeouts: Optional[pulumi.Input[Union["IsInstanceTimeoutsArgs", "IsInstanceTimeoutsArgsDict"]]] = None,
        total_volume_bandwidth: Optional[pulumi.Input[float]] = None,
        user_data: Optional[pulumi.Input[str]] = None,
        vcpu: Optional[pulumi.Input[Union["IsInstanceVcpuArgs", "IsInstanceVcpuArgsDict"]]] = None,
        volume_bandwidth_qos_mode: Optional[pulumi.Input[str]] = None,
        volume_prototypes: (
            Optional[
                pulumi.Input[
                    Sequence[pulumi.Input[Union["IsInstanceVolumePrototypeArgs", "IsInstanceVolumePrototypeArgsDict"]]]
                ]
            ]
        ) = None,
        volumes: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        vpc: Optional[pulumi.Input[str]] = None,
        wait_before_delete: Optional[pulumi.Input[bool]] = None,
        zone: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsInstanceArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(IsInstanceArgs, pulumi.ResourceOptions, *args, **kwargs)
        if resource_args is not None:
            __self__._internal_init(resource_name, opts, **resource_args.__dict__)
        else:
            __self__._internal_init(resource_name, *args, **kwargs)

    def _internal_init(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        __props__: Optional[Any] = None,
        **kwargs: Any,
    ) -> None:
        opts, props = _utilities.resource_props(IsInstanceArgs, opts, __props__, kwargs, _COMPUTED)
        super().__init__(
            "ibm:index/isInstance:IsInstance", resource_name, props, opts, package_ref=_utilities.get_package()
        )

    @staticmethod
    def get(
        resource_name: str,
        id: pulumi.Input[str],
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> "IsInstance":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsInstance(resource_name, opts=opts, __props__=_utilities.empty_props(IsInstanceArgs, _COMPUTED))
