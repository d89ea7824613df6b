# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §3; nested blocks come
# back as lists of plain mappings (the generated SDK types them; the wire shape is the same).

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsSubnetResult", "AwaitableGetIsSubnetResult", "get_is_subnet", "get_is_subnet_output"]

_TOKEN = "ibm:index/getIsSubnet:getIsSubnet"


@pulumi.output_type
class GetIsSubnetResult:
    """Values returned by `ibm_is_subnet` (`getIsSubnet`)."""

    access_tags: Optional[Any] = pulumi.property("accessTags", default=None)
    available_ipv4_address_count: Optional[Any] = pulumi.property("availableIpv4AddressCount", default=None)
    crn: Optional[Any] = pulumi.property("crn", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    identifier: Optional[str] = pulumi.property("identifier", default=None)
    ipv4_cidr_block: Optional[Any] = pulumi.property("ipv4CidrBlock", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    network_acl: Optional[Any] = pulumi.property("networkAcl", default=None)
    public_gateway: Optional[Any] = pulumi.property("publicGateway", default=None)
    resource_controller_url: Optional[Any] = pulumi.property("resourceControllerUrl", default=None)
    resource_crn: Optional[Any] = pulumi.property("resourceCrn", default=None)
    resource_group: Optional[Any] = pulumi.property("resourceGroup", default=None)
    resource_group_name: Optional[Any] = pulumi.property("resourceGroupName", default=None)
    resource_name: Optional[Any] = pulumi.property("resourceName", default=None)
    resource_status: Optional[Any] = pulumi.property("resourceStatus", default=None)
    routing_tables: Optional[Any] = pulumi.property("routingTables", default=None)
    status: Optional[Any] = pulumi.property("status", default=None)
    tags: Optional[Any] = pulumi.property("tags", default=None)
    total_ipv4_address_count: Optional[Any] = pulumi.property("totalIpv4AddressCount", default=None)
    vpc: Optional[str] = pulumi.property("vpc", default=None)
    vpc_name: Optional[Any] = pulumi.property("vpcName", default=None)
    zone: Optional[Any] = pulumi.property("zone", default=None)


class AwaitableGetIsSubnetResult(GetIsSubnetResult):
    def __await__(self) -> Generator[Any, None, GetIsSubnetResult]:
        if False:
            yield self
        return GetIsSubnetResult(**self.__dict__)


def get_is_subnet(
    identifier: Optional[str] = None,
    name: Optional[str] = None,
    vpc: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsSubnetResult:
    """Invoke `ibm_is_subnet` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {"identifier": identifier, "name": name, "vpc": vpc}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsSubnetResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsSubnetResult(**result.__dict__)


def get_is_subnet_output(
    identifier: Optional[pulumi.Input[Optional[str]]] = None,
    name: Optional[pulumi.Input[Optional[str]]] = None,
    vpc: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsSubnetResult]:
    """Output-returning variant of `get_is_subnet`."""
    __args__: dict[str, Any] = {"identifier": identifier, "name": name, "vpc": vpc}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsSubnetResult, package_ref=_utilities.get_package()
    )
