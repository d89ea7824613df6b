# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §3; nested blocks come
# back as lists of plain mappings (the generated SDK types them; the wire shape is the same).

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsVpcResult", "AwaitableGetIsVpcResult", "get_is_vpc", "get_is_vpc_output"]

_TOKEN = "ibm:index/getIsVpc:getIsVpc"


@pulumi.output_type
class GetIsVpcResult:
    """Values returned by `ibm_is_vpc` (`getIsVpc`)."""

    access_tags: Optional[Any] = pulumi.property("accessTags", default=None)
    classic_access: Optional[Any] = pulumi.property("classicAccess", default=None)
    crn: Optional[Any] = pulumi.property("crn", default=None)
    cse_source_addresses: Optional[Any] = pulumi.property("cseSourceAddresses", default=None)
    default_address_prefixes: Optional[Any] = pulumi.property("defaultAddressPrefixes", default=None)
    default_network_acl: Optional[Any] = pulumi.property("defaultNetworkAcl", default=None)
    default_network_acl_crn: Optional[Any] = pulumi.property("defaultNetworkAclCrn", default=None)
    default_network_acl_name: Optional[Any] = pulumi.property("defaultNetworkAclName", default=None)
    default_routing_table: Optional[Any] = pulumi.property("defaultRoutingTable", default=None)
    default_routing_table_name: Optional[Any] = pulumi.property("defaultRoutingTableName", default=None)
    default_security_group: Optional[Any] = pulumi.property("defaultSecurityGroup", default=None)
    default_security_group_crn: Optional[Any] = pulumi.property("defaultSecurityGroupCrn", default=None)
    default_security_group_name: Optional[Any] = pulumi.property("defaultSecurityGroupName", default=None)
    dns: Optional[Any] = pulumi.property("dns", default=None)
    health_reasons: Optional[Any] = pulumi.property("healthReasons", default=None)
    health_state: Optional[Any] = pulumi.property("healthState", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    identifier: Optional[str] = pulumi.property("identifier", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    public_address_ranges: Optional[Any] = pulumi.property("publicAddressRanges", default=None)
    resource_controller_url: Optional[Any] = pulumi.property("resourceControllerUrl", default=None)
    resource_crn: Optional[Any] = pulumi.property("resourceCrn", default=None)
    resource_group: Optional[Any] = pulumi.property("resourceGroup", default=None)
    resource_group_name: Optional[Any] = pulumi.property("resourceGroupName", default=None)
    resource_name: Optional[Any] = pulumi.property("resourceName", default=None)
    resource_status: Optional[Any] = pulumi.property("resourceStatus", default=None)
    security_groups: Optional[Any] = pulumi.property("securityGroups", default=None)
    status: Optional[Any] = pulumi.property("status", default=None)
    subnets: Optional[Any] = pulumi.property("subnets", default=None)
    tags: Optional[Any] = pulumi.property("tags", default=None)


class AwaitableGetIsVpcResult(GetIsVpcResult):
    def __await__(self) -> Generator[Any, None, GetIsVpcResult]:
        if False:
            yield self
        return GetIsVpcResult(**self.__dict__)


def get_is_vpc(
    identifier: Optional[str] = None,
    name: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsVpcResult:
    """Invoke `ibm_is_vpc` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {"identifier": identifier, "name": name}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsVpcResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsVpcResult(**result.__dict__)


def get_is_vpc_output(
    identifier: Optional[pulumi.Input[Optional[str]]] = None,
    name: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsVpcResult]:
    """Output-returning variant of `get_is_vpc`."""
    __args__: dict[str, Any] = {"identifier": identifier, "name": name}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsVpcResult, package_ref=_utilities.get_package()
    )
