# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §3; nested blocks come
# back as lists of plain mappings (the generated SDK types them; the wire shape is the same).

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsInstanceResult", "AwaitableGetIsInstanceResult", "get_is_instance", "get_is_instance_output"]

_TOKEN = "ibm:index/getIsInstance:getIsInstance"


@pulumi.output_type
class GetIsInstanceResult:
    """Values returned by `ibm_is_instance` (`getIsInstance`)."""

    access_tags: Optional[Any] = pulumi.property("accessTags", default=None)
    availabilities: Optional[Any] = pulumi.property("availabilities", default=None)
    availability_policies: Optional[Any] = pulumi.property("availabilityPolicies", default=None)
    availability_policy_host_failure: Optional[Any] = pulumi.property("availabilityPolicyHostFailure", default=None)
    bandwidth: Optional[Any] = pulumi.property("bandwidth", default=None)
    boot_volumes: Optional[Any] = pulumi.property("bootVolumes", default=None)
    catalog_offerings: Optional[Any] = pulumi.property("catalogOfferings", default=None)
    cluster_network_attachments: Optional[Any] = pulumi.property("clusterNetworkAttachments", default=None)
    cluster_networks: Optional[Any] = pulumi.property("clusterNetworks", default=None)
    confidential_compute_mode: Optional[Any] = pulumi.property("confidentialComputeMode", default=None)
    crn: Optional[Any] = pulumi.property("crn", default=None)
    disks: Optional[Any] = pulumi.property("disks", default=None)
    enable_secure_boot: Optional[Any] = pulumi.property("enableSecureBoot", default=None)
    gpus: Optional[Any] = pulumi.property("gpus", default=None)
    health_reasons: Optional[Any] = pulumi.property("healthReasons", default=None)
    health_state: Optional[Any] = pulumi.property("healthState", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    image: Optional[Any] = pulumi.property("image", default=None)
    keys: Optional[Any] = pulumi.property("keys", default=None)
    lifecycle_reasons: Optional[Any] = pulumi.property("lifecycleReasons", default=None)
    lifecycle_state: Optional[Any] = pulumi.property("lifecycleState", default=None)
    memory: Optional[Any] = pulumi.property("memory", default=None)
    metadata_service_enabled: Optional[Any] = pulumi.property("metadataServiceEnabled", default=None)
    metadata_services: Optional[Any] = pulumi.property("metadataServices", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    network_attachments: Optional[Any] = pulumi.property("networkAttachments", default=None)
    network_interfaces: Optional[Any] = pulumi.property("networkInterfaces", default=None)
    numa_count: Optional[Any] = pulumi.property("numaCount", default=None)
    passphrase: Optional[str] = pulumi.property("passphrase", default=None)
    password: Optional[Any] = pulumi.property("password", default=None)
    placement_targets: Optional[Any] = pulumi.property("placementTargets", default=None)
    primary_network_attachments: Optional[Any] = pulumi.property("primaryNetworkAttachments", default=None)
    primary_network_interfaces: Optional[Any] = pulumi.property("primaryNetworkInterfaces", default=None)
    private_key: Optional[str] = pulumi.property("privateKey", default=None)
    profile: Optional[Any] = pulumi.property("profile", default=None)
    reservation_affinities: Optional[Any] = pulumi.property("reservationAffinities", default=None)
    reservations: Optional[Any] = pulumi.property("reservations", default=None)
    resource_controller_url: Optional[Any] = pulumi.property("resourceControllerUrl", default=None)
    resource_crn: Optional[Any] = pulumi.property("resourceCrn", default=None)
    resource_group: Optional[Any] = pulumi.property("resourceGroup", default=None)
    resource_group_name: Optional[Any] = pulumi.property("resourceGroupName", default=None)
    resource_name: Optional[Any] = pulumi.property("resourceName", default=None)
    resource_status: Optional[Any] = pulumi.property("resourceStatus", default=None)
    software_attachments: Optional[Any] = pulumi.property("softwareAttachments", default=None)
    status: Optional[Any] = pulumi.property("status", default=None)
    status_reasons: Optional[Any] = pulumi.property("statusReasons", default=None)
    tags: Optional[Any] = pulumi.property("tags", default=None)
    threads_per_core: Optional[Any] = pulumi.property("threadsPerCore", default=None)
    total_network_bandwidth: Optional[Any] = pulumi.property("totalNetworkBandwidth", default=None)
    total_volume_bandwidth: Optional[Any] = pulumi.property("totalVolumeBandwidth", default=None)
    vcpus: Optional[Any] = pulumi.property("vcpus", default=None)
    volume_attachments: Optional[Any] = pulumi.property("volumeAttachments", default=None)
    volume_bandwidth_qos_mode: Optional[Any] = pulumi.property("volumeBandwidthQosMode", default=None)
    volumes: Optional[Any] = pulumi.property("volumes", default=None)
    vpc: Optional[Any] = pulumi.property("vpc", default=None)
    zone: Optional[Any] = pulumi.property("zone", default=None)


class AwaitableGetIsInstanceResult(GetIsInstanceResult):
    def __await__(self) -> Generator[Any, None, GetIsInstanceResult]:
        if False:
            yield self
        return GetIsInstanceResult(**self.__dict__)


def get_is_instance(
    name: str,
    passphrase: Optional[str] = None,
    private_key: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsInstanceResult:
    """Invoke `ibm_is_instance` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {"name": name, "passphrase": passphrase, "privateKey": private_key}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsInstanceResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsInstanceResult(**result.__dict__)


def get_is_instance_output(
    name: pulumi.Input[str],
    passphrase: Optional[pulumi.Input[Optional[str]]] = None,
    private_key: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsInstanceResult]:
    """Output-returning variant of `get_is_instance`."""
    __args__: dict[str, Any] = {"name": name, "passphrase": passphrase, "privateKey": private_key}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsInstanceResult, package_ref=_utilities.get_package()
    )
