# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Mapping, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsVpcDnsArgs,
    IsVpcDnsArgsDict,
    IsVpcTimeoutsArgs,
    IsVpcTimeoutsArgsDict,
)

__all__ = ["IsVpcArgs", "IsVpc"]


@pulumi.input_type
class IsVpcArgs:
    """Arguments for constructing an `IsVpc` resource."""

    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    address_prefix_management: Optional[pulumi.Input[str]] = pulumi.property("addressPrefixManagement", default=None)
    classic_access: Optional[pulumi.Input[bool]] = pulumi.property("classicAccess", default=None)
    default_network_acl_name: Optional[pulumi.Input[str]] = pulumi.property("defaultNetworkAclName", default=None)
    default_routing_table_name: Optional[pulumi.Input[str]] = pulumi.property("defaultRoutingTableName", default=None)
    default_security_group_name: Optional[pulumi.Input[str]] = pulumi.property("defaultSecurityGroupName", default=None)
    dns: Optional[pulumi.Input["IsVpcDnsArgs"]] = pulumi.property("dns", default=None)
    is_vpc_id: Optional[pulumi.Input[str]] = pulumi.property("isVpcId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    no_sg_acl_rules: Optional[pulumi.Input[bool]] = pulumi.property("noSgAclRules", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    timeouts: Optional[pulumi.Input["IsVpcTimeoutsArgs"]] = pulumi.property("timeouts", default=None)


_COMPUTED = (
    "crn",
    "cse_source_addresses",
    "default_address_prefixes",
    "default_network_acl",
    "default_network_acl_crn",
    "default_routing_table",
    "default_routing_table_crn",
    "default_security_group",
    "default_security_group_crn",
    "health_reasons",
    "health_state",
    "public_address_ranges",
    "resource_controller_url",
    "resource_crn",
    "resource_group_name",
    "resource_name",
    "resource_status",
    "security_groups",
    "status",
    "subnets",
)


@pulumi.type_token("ibm:index/isVpc:IsVpc")
@_utilities.output_properties
class IsVpc(pulumi.CustomResource):
    """`ibm_is_vpc` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    address_prefix_management: pulumi.Output[Optional[str]] = _utilities.output("addressPrefixManagement")
    classic_access: pulumi.Output[Optional[bool]] = _utilities.output("classicAccess")
    crn: pulumi.Output[str] = _utilities.output("crn")
    cse_source_addresses: pulumi.Output[Sequence["outputs.IsVpcCseSourceAddress"]] = _utilities.output(
        "cseSourceAddresses"
    )
    default_address_prefixes: pulumi.Output[Mapping[str, str]] = _utilities.output("defaultAddressPrefixes")
    default_network_acl: pulumi.Output[str] = _utilities.output("defaultNetworkAcl")
    default_network_acl_crn: pulumi.Output[str] = _utilities.output("defaultNetworkAclCrn")
    default_network_acl_name: pulumi.Output[str] = _utilities.output("defaultNetworkAclName")
    default_routing_table: pulumi.Output[str] = _utilities.output("defaultRoutingTable")
    default_routing_table_crn: pulumi.Output[str] = _utilities.output("defaultRoutingTableCrn")
    default_routing_table_name: pulumi.Output[str] = _utilities.output("defaultRoutingTableName")
    default_security_group: pulumi.Output[str] = _utilities.output("defaultSecurityGroup")
    default_security_group_crn: pulumi.Output[str] = _utilities.output("defaultSecurityGroupCrn")
    default_security_group_name: pulumi.Output[str] = _utilities.output("defaultSecurityGroupName")
    dns: pulumi.Output["outputs.IsVpcDns"] = _utilities.output("dns")
    health_reasons: pulumi.Output[Sequence["outputs.IsVpcHealthReason"]] = _utilities.output("healthReasons")
    health_state: pulumi.Output[str] = _utilities.output("healthState")
    is_vpc_id: pulumi.Output[Optional[str]] = _utilities.output("isVpcId")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    no_sg_acl_rules: pulumi.Output[Optional[bool]] = _utilities.output("noSgAclRules")
    public_address_ranges: pulumi.Output[Sequence["outputs.IsVpcPublicAddressRange"]] = _utilities.output(
        "publicAddressRanges"
    )
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    resource_status: pulumi.Output[str] = _utilities.output("resourceStatus")
    security_groups: pulumi.Output[Sequence["outputs.IsVpcSecurityGroup"]] = _utilities.output("securityGroups")
    status: pulumi.Output[str] = _utilities.output("status")
    subnets: pulumi.Output[Sequence["outputs.IsVpcSubnet"]] = _utilities.output("subnets")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    timeouts: pulumi.Output[Optional["outputs.IsVpcTimeouts"]] = _utilities.output("timeouts")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        address_prefix_management: Optional[pulumi.Input[str]] = None,
        classic_access: Optional[pulumi.Input[bool]] = None,
        default_network_acl_name: Optional[pulumi.Input[str]] = None,
        default_routing_table_name: Optional[pulumi.Input[str]] = None,
        default_security_group_name: Optional[pulumi.Input[str]] = None,
        dns: Optional[pulumi.Input[Union["IsVpcDnsArgs", "IsVpcDnsArgsDict"]]] = None,
        is_vpc_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        no_sg_acl_rules: Optional[pulumi.Input[bool]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        timeouts: Optional[pulumi.Input[Union["IsVpcTimeoutsArgs", "IsVpcTimeoutsArgsDict"]]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsVpcArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(IsVpcArgs, pulumi.ResourceOptions, *args, **kwargs)
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
        opts, props = _utilities.resource_props(IsVpcArgs, opts, __props__, kwargs, _COMPUTED)
        super().__init__("ibm:index/isVpc:IsVpc", resource_name, props, opts, package_ref=_utilities.get_package())

    @staticmethod
    def get(
        resource_name: str,
        id: pulumi.Input[str],
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> "IsVpc":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsVpc(resource_name, opts=opts, __props__=_utilities.empty_props(IsVpcArgs, _COMPUTED))
