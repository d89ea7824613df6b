# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §3; nested blocks come
# back as lists of plain mappings (the generated SDK types them; the wire shape is the same).

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsInstancesResult", "AwaitableGetIsInstancesResult", "get_is_instances", "get_is_instances_output"]

_TOKEN = "ibm:index/getIsInstances:getIsInstances"


@pulumi.output_type
class GetIsInstancesResult:
    """Values returned by `ibm_is_instances` (`getIsInstances`)."""

    cluster_network_crn: Optional[str] = pulumi.property("clusterNetworkCrn", default=None)
    cluster_network_id: Optional[str] = pulumi.property("clusterNetworkId", default=None)
    cluster_network_name: Optional[str] = pulumi.property("clusterNetworkName", default=None)
    dedicated_host: Optional[str] = pulumi.property("dedicatedHost", default=None)
    dedicated_host_name: Optional[str] = pulumi.property("dedicatedHostName", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    instance_group: Optional[str] = pulumi.property("instanceGroup", default=None)
    instance_group_name: Optional[str] = pulumi.property("instanceGroupName", default=None)
    instances: Optional[Any] = pulumi.property("instances", default=None)
    placement_group: Optional[str] = pulumi.property("placementGroup", default=None)
    placement_group_name: Optional[str] = pulumi.property("placementGroupName", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    vpc: Optional[str] = pulumi.property("vpc", default=None)
    vpc_crn: Optional[str] = pulumi.property("vpcCrn", default=None)
    vpc_name: Optional[str] = pulumi.property("vpcName", default=None)


class AwaitableGetIsInstancesResult(GetIsInstancesResult):
    def __await__(self) -> Generator[Any, None, GetIsInstancesResult]:
        if False:
            yield self
        return GetIsInstancesResult(**self.__dict__)


def get_is_instances(
    cluster_network_crn: Optional[str] = None,
    cluster_network_id: Optional[str] = None,
    cluster_network_name: Optional[str] = None,
    dedicated_host: Optional[str] = None,
    dedicated_host_name: Optional[str] = None,
    instance_group: Optional[str] = None,
    instance_group_name: Optional[str] = None,
    placement_group: Optional[str] = None,
    placement_group_name: Optional[str] = None,
    resource_group: Optional[str] = None,
    vpc: Optional[str] = None,
    vpc_crn: Optional[str] = None,
    vpc_name: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsInstancesResult:
    """Invoke `ibm_is_instances` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {"clusterNetworkCrn": cluster_network_crn, "clusterNetworkId": cluster_network_id, "clusterNetworkName": cluster_network_name, "dedicatedHost": dedicated_host, "dedicatedHostName": dedicated_host_name, "instanceGroup": instance_group, "instanceGroupName": instance_group_name, "placementGroup": placement_group, "placementGroupName": placement_group_name, "resourceGroup": resource_group, "vpc": vpc, "vpcCrn": vpc_crn, "vpcName": vpc_name}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsInstancesResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsInstancesResult(**result.__dict__)


def get_is_instances_output(
    cluster_network_crn: Optional[pulumi.Input[Optional[str]]] = None,
    cluster_network_id: Optional[pulumi.Input[Optional[str]]] = None,
    cluster_network_name: Optional[pulumi.Input[Optional[str]]] = None,
    dedicated_host: Optional[pulumi.Input[Optional[str]]] = None,
    dedicated_host_name: Optional[pulumi.Input[Optional[str]]] = None,
    instance_group: Optional[pulumi.Input[Optional[str]]] = None,
    instance_group_name: Optional[pulumi.Input[Optional[str]]] = None,
    placement_group: Optional[pulumi.Input[Optional[str]]] = None,
    placement_group_name: Optional[pulumi.Input[Optional[str]]] = None,
    resource_group: Optional[pulumi.Input[Optional[str]]] = None,
    vpc: Optional[pulumi.Input[Optional[str]]] = None,
    vpc_crn: Optional[pulumi.Input[Optional[str]]] = None,
    vpc_name: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsInstancesResult]:
    """Output-returning variant of `get_is_instances`."""
    __args__: dict[str, Any] = {"clusterNetworkCrn": cluster_network_crn, "clusterNetworkId": cluster_network_id, "clusterNetworkName": cluster_network_name, "dedicatedHost": dedicated_host, "dedicatedHostName": dedicated_host_name, "instanceGroup": instance_group, "instanceGroupName": instance_group_name, "placementGroup": placement_group, "placementGroupName": placement_group_name, "resourceGroup": resource_group, "vpc": vpc, "vpcCrn": vpc_crn, "vpcName": vpc_name}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsInstancesResult, package_ref=_utilities.get_package()
    )
