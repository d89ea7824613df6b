# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Generator, Optional, Sequence, Union

import pulumi

from . import _utilities, outputs

__all__ = [
    "GetIsInstanceProfileResult",
    "AwaitableGetIsInstanceProfileResult",
    "get_is_instance_profile",
    "get_is_instance_profile_output",
]

_TOKEN = "ibm:index/getIsInstanceProfile:getIsInstanceProfile"


@pulumi.output_type
class GetIsInstanceProfileResult:
    """Values returned by `ibm_is_instance_profile` (`getIsInstanceProfile`)."""

    architecture: Optional[str] = pulumi.property("architecture", default=None)
    architecture_type: Optional[str] = pulumi.property("architectureType", default=None)
    architecture_values: Optional[Sequence[str]] = pulumi.property("architectureValues", default=None)
    availability_classes: Optional[Sequence["outputs.GetIsInstanceProfileAvailabilityClassResult"]] = pulumi.property(
        "availabilityClasses", default=None
    )
    bandwidths: Optional[Sequence["outputs.GetIsInstanceProfileBandwidthResult"]] = pulumi.property(
        "bandwidths", default=None
    )
    cluster_network_attachment_counts: Optional[
        Sequence["outputs.GetIsInstanceProfileClusterNetworkAttachmentCountResult"]
    ] = pulumi.property("clusterNetworkAttachmentCounts", default=None)
    confidential_compute_modes: Optional[Sequence["outputs.GetIsInstanceProfileConfidentialComputeModeResult"]] = (
        pulumi.property("confidentialComputeModes", default=None)
    )
    disks: Optional[Sequence["outputs.GetIsInstanceProfileDiskResult"]] = pulumi.property("disks", default=None)
    family: Optional[str] = pulumi.property("family", default=None)
    gpu_counts: Optional[Sequence["outputs.GetIsInstanceProfileGpuCountResult"]] = pulumi.property(
        "gpuCounts", default=None
    )
    gpu_manufacturers: Optional[Sequence["outputs.GetIsInstanceProfileGpuManufacturerResult"]] = pulumi.property(
        "gpuManufacturers", default=None
    )
    gpu_memories: Optional[Sequence["outputs.GetIsInstanceProfileGpuMemoryResult"]] = pulumi.property(
        "gpuMemories", default=None
    )
    gpu_models: Optional[Sequence["outputs.GetIsInstanceProfileGpuModelResult"]] = pulumi.property(
        "gpuModels", default=None
    )
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    memories: Optional[Sequence["outputs.GetIsInstanceProfileMemoryResult"]] = pulumi.property("memories", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    network_attachment_counts: Optional[Sequence["outputs.GetIsInstanceProfileNetworkAttachmentCountResult"]] = (
        pulumi.property("networkAttachmentCounts", default=None)
    )
    network_bandwidth_modes: Optional[Sequence["outputs.GetIsInstanceProfileNetworkBandwidthModeResult"]] = (
        pulumi.property("networkBandwidthModes", default=None)
    )
    network_interface_counts: Optional[Sequence["outputs.GetIsInstanceProfileNetworkInterfaceCountResult"]] = (
        pulumi.property("networkInterfaceCounts", default=None)
    )
    numa_counts: Optional[Sequence["outputs.GetIsInstanceProfileNumaCountResult"]] = pulumi.property(
        "numaCounts", default=None
    )
    port_speeds: Optional[Sequence["outputs.GetIsInstanceProfilePortSpeedResult"]] = pulumi.property(
        "portSpeeds", default=None
    )
    reservation_terms: Optional[Sequence["outputs.GetIsInstanceProfileReservationTermResult"]] = pulumi.property(
        "reservationTerms", default=None
    )
    secure_boot_modes: Optional[Sequence["outputs.GetIsInstanceProfileSecureBootModeResult"]] = pulumi.property(
        "secureBootModes", default=None
    )
    status: Optional[str] = pulumi.property("status", default=None)
    supported_cluster_network_profiles: Optional[
        Sequence["outputs.GetIsInstanceProfileSupportedClusterNetworkProfileResult"]
    ] = pulumi.property("supportedClusterNetworkProfiles", default=None)
    supported_vcpu_counts: Optional[Sequence["outputs.GetIsInstanceProfileSupportedVcpuCountResult"]] = pulumi.property(
        "supportedVcpuCounts", default=None
    )
    threads_per_cores: Optional[Sequence["outputs.GetIsInstanceProfileThreadsPerCoreResult"]] = pulumi.property(
        "threadsPerCores", default=None
    )
    total_volume_bandwidths: Optional[Sequence["outputs.GetIsInstanceProfileTotalVolumeBandwidthResult"]] = (
        pulumi.property("totalVolumeBandwidths", default=None)
    )
    vcpu_architectures: Optional[Sequence["outputs.GetIsInstanceProfileVcpuArchitectureResult"]] = pulumi.property(
        "vcpuArchitectures", default=None
    )
    vcpu_burst_limits: Optional[Sequence["outputs.GetIsInstanceProfileVcpuBurstLimitResult"]] = pulumi.property(
        "vcpuBurstLimits", default=None
    )
    vcpu_counts: Optional[Sequence["outputs.GetIsInstanceProfileVcpuCountResult"]] = pulumi.property(
        "vcpuCounts", default=None
    )
    vcpu_manufacturers: Optional[Sequence["outputs.GetIsInstanceProfileVcpuManufacturerResult"]] = pulumi.property(
        "vcpuManufacturers", default=None
    )
    vcpu_percentages: Optional[Sequence["outputs.GetIsInstanceProfileVcpuPercentageResult"]] = pulumi.property(
        "vcpuPercentages", default=None
    )
    volume_bandwidth_qos_modes: Optional[Sequence["outputs.GetIsInstanceProfileVolumeBandwidthQosModeResult"]] = (
        pulumi.property("volumeBandwidthQosModes", default=None)
    )
    zones: Optional[Sequence["outputs.GetIsInstanceProfileZoneResult"]] = pulumi.property("zones", default=None)


class AwaitableGetIsInstanceProfileResult(GetIsInstanceProfileResult):
    def __await__(self) -> Generator[Any, None, GetIsInstanceProfileResult]:
        if False:
            yield self
        return GetIsInstanceProfileResult(**self.__dict__)


def get_is_instance_profile(
    name: str,
    id: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsInstanceProfileResult:
    """Invoke `ibm_is_instance_profile` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {
        "id": id,
        "name": name,
    }
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsInstanceProfileResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsInstanceProfileResult(**result.__dict__)


def get_is_instance_profile_output(
    name: pulumi.Input[str],
    id: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsInstanceProfileResult]:
    """Output-returning variant of `get_is_instance_profile`."""
    __args__: dict[str, Any] = {
        "id": id,
        "name": name,
    }
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsInstanceProfileResult, package_ref=_utilities.get_package()
    )
