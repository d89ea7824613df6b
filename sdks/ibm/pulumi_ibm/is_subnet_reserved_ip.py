# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import IsSubnetReservedIpTimeoutsArgs, IsSubnetReservedIpTimeoutsArgsDict

__all__ = ["IsSubnetReservedIpArgs", "IsSubnetReservedIp"]


@pulumi.input_type
class IsSubnetReservedIpArgs:
    """Arguments for constructing an `IsSubnetReservedIp` resource."""

    subnet: pulumi.Input[str] = pulumi.property("subnet")
    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    is_subnet_reserved_ip_id: Optional[pulumi.Input[str]] = pulumi.property("isSubnetReservedIpId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    target: Optional[pulumi.Input[str]] = pulumi.property("target", default=None)
    target_crn: Optional[pulumi.Input[str]] = pulumi.property("targetCrn", default=None)
    timeouts: Optional[pulumi.Input["IsSubnetReservedIpTimeoutsArgs"]] = pulumi.property("timeouts", default=None)


_COMPUTED = ("created_at", "href", "lifecycle_state", "owner", "reserved_ip", "resource_type")


@pulumi.type_token("ibm:index/isSubnetReservedIp:IsSubnetReservedIp")
@_utilities.output_properties
class IsSubnetReservedIp(pulumi.CustomResource):
    """`ibm_is_subnet_reserved_ip` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    address: pulumi.Output[str] = _utilities.output("address")
    auto_delete: pulumi.Output[bool] = _utilities.output("autoDelete")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    href: pulumi.Output[str] = _utilities.output("href")
    is_subnet_reserved_ip_id: pulumi.Output[Optional[str]] = _utilities.output("isSubnetReservedIpId")
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[str] = _utilities.output("name")
    owner: pulumi.Output[str] = _utilities.output("owner")
    reserved_ip: pulumi.Output[str] = _utilities.output("reservedIp")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    subnet: pulumi.Output[str] = _utilities.output("subnet")
    target: pulumi.Output[str] = _utilities.output("target")
    target_crn: pulumi.Output[str] = _utilities.output("targetCrn")
    timeouts: pulumi.Output[Optional["outputs.IsSubnetReservedIpTimeouts"]] = _utilities.output("timeouts")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        address: Optional[pulumi.Input[str]] = None,
        auto_delete: Optional[pulumi.Input[bool]] = None,
        is_subnet_reserved_ip_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        subnet: Optional[pulumi.Input[str]] = None,
        target: Optional[pulumi.Input[str]] = None,
        target_crn: Optional[pulumi.Input[str]] = None,
        timeouts: Optional[
            pulumi.Input[Union["IsSubnetReservedIpTimeoutsArgs", "IsSubnetReservedIpTimeoutsArgsDict"]]
        ] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsSubnetReservedIpArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(IsSubnetReservedIpArgs, pulumi.ResourceOptions,
                                                                *args, **kwargs)
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
        opts, props = _utilities.resource_props(IsSubnetReservedIpArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.subnet is None:
                raise TypeError("Missing required property 'subnet'")
        super().__init__(
            "ibm:index/isSubnetReservedIp:IsSubnetReservedIp",
            resource_name,
            props,
            opts,
            package_ref=_utilities.get_package(),
        )

    @staticmethod
    def get(
        resource_name: str,
        id: pulumi.Input[str],
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> "IsSubnetReservedIp":
        """Adopt an existing resource by its provider ID (``<subnet_id>/<reserved_ip_id>``)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsSubnetReservedIp(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsSubnetReservedIpArgs, _COMPUTED)
        )
