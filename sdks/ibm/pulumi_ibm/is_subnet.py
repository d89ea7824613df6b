# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsSubnetTimeoutsArgs,
    IsSubnetTimeoutsArgsDict,
)

__all__ = ["IsSubnetArgs", "IsSubnet"]


@pulumi.input_type
class IsSubnetArgs:
    """Arguments for constructing an `IsSubnet` resource."""

    vpc: pulumi.Input[str] = pulumi.property("vpc")
    zone: pulumi.Input[str] = pulumi.property("zone")
    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    ip_version: Optional[pulumi.Input[str]] = pulumi.property("ipVersion", default=None)
    ipv4_cidr_block: Optional[pulumi.Input[str]] = pulumi.property("ipv4CidrBlock", default=None)
    is_subnet_id: Optional[pulumi.Input[str]] = pulumi.property("isSubnetId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    network_acl: Optional[pulumi.Input[str]] = pulumi.property("networkAcl", default=None)
    public_gateway: Optional[pulumi.Input[str]] = pulumi.property("publicGateway", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    routing_table: Optional[pulumi.Input[str]] = pulumi.property("routingTable", default=None)
    routing_table_crn: Optional[pulumi.Input[str]] = pulumi.property("routingTableCrn", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    timeouts: Optional[pulumi.Input["IsSubnetTimeoutsArgs"]] = pulumi.property("timeouts", default=None)
    total_ipv4_address_count: Optional[pulumi.Input[float]] = pulumi.property("totalIpv4AddressCount", default=None)


_COMPUTED = (
    "available_ipv4_address_count",
    "crn",
    "resource_controller_url",
    "resource_crn",
    "resource_group_name",
    "resource_name",
    "resource_status",
    "status",
)


@pulumi.type_token("ibm:index/isSubnet:IsSubnet")
@_utilities.output_properties
class IsSubnet(pulumi.CustomResource):
    """`ibm_is_subnet` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    available_ipv4_address_count: pulumi.Output[float] = _utilities.output("availableIpv4AddressCount")
    crn: pulumi.Output[str] = _utilities.output("crn")
    ip_version: pulumi.Output[Optional[str]] = _utilities.output("ipVersion")
    ipv4_cidr_block: pulumi.Output[str] = _utilities.output("ipv4CidrBlock")
    is_subnet_id: pulumi.Output[Optional[str]] = _utilities.output("isSubnetId")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    network_acl: pulumi.Output[str] = _utilities.output("networkAcl")
    public_gateway: pulumi.Output[str] = _utilities.output("publicGateway")
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    resource_status: pulumi.Output[str] = _utilities.output("resourceStatus")
    routing_table: pulumi.Output[str] = _utilities.output("routingTable")
    routing_table_crn: pulumi.Output[str] = _utilities.output("routingTableCrn")
    status: pulumi.Output[str] = _utilities.output("status")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    timeouts: pulumi.Output[Optional["outputs.IsSubnetTimeouts"]] = _utilities.output("timeouts")
    total_ipv4_address_count: pulumi.Output[float] = _utilities.output("totalIpv4AddressCount")
    vpc: pulumi.Output[str] = _utilities.output("vpc")
    zone: pulumi.Output[str] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        vpc: Optional[pulumi.Input[str]] = None,
        zone: Optional[pulumi.Input[str]] = None,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        ip_version: Optional[pulumi.Input[str]] = None,
        ipv4_cidr_block: Optional[pulumi.Input[str]] = None,
        is_subnet_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        network_acl: Optional[pulumi.Input[str]] = None,
        public_gateway: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        routing_table: Optional[pulumi.Input[str]] = None,
        routing_table_crn: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        timeouts: Optional[pulumi.Input[Union["IsSubnetTimeoutsArgs", "IsSubnetTimeoutsArgsDict"]]] = None,
        total_ipv4_address_count: Optional[pulumi.Input[float]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsSubnetArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(IsSubnetArgs, pulumi.ResourceOptions, *args, **kwargs)
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
        opts, props = _utilities.resource_props(IsSubnetArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.vpc is None:
                raise TypeError("Missing required property 'vpc'")
            if props.zone is None:
                raise TypeError("Missing required property 'zone'")
        super().__init__(
            "ibm:index/isSubnet:IsSubnet", resource_name, props, opts, package_ref=_utilities.get_package()
        )

    @staticmethod
    def get(
        resource_name: str,
        id: pulumi.Input[str],
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> "IsSubnet":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsSubnet(resource_name, opts=opts, __props__=_utilities.empty_props(IsSubnetArgs, _COMPUTED))
