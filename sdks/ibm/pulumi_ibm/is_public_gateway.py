# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Mapping, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsPublicGatewayTimeoutsArgs,
    IsPublicGatewayTimeoutsArgsDict,
)

__all__ = ["IsPublicGatewayArgs", "IsPublicGateway"]


@pulumi.input_type
class IsPublicGatewayArgs:
    """Arguments for constructing an `IsPublicGateway` resource."""

    vpc: pulumi.Input[str] = pulumi.property("vpc")
    zone: pulumi.Input[str] = pulumi.property("zone")
    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    floating_ip: Optional[pulumi.Input[Mapping[str, pulumi.Input[str]]]] = pulumi.property("floatingIp", default=None)
    is_public_gateway_id: Optional[pulumi.Input[str]] = pulumi.property("isPublicGatewayId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    timeouts: Optional[pulumi.Input["IsPublicGatewayTimeoutsArgs"]] = pulumi.property("timeouts", default=None)


_COMPUTED = (
    "crn",
    "resource_controller_url",
    "resource_crn",
    "resource_group_name",
    "resource_name",
    "resource_status",
    "status",
)


@pulumi.type_token("ibm:index/isPublicGateway:IsPublicGateway")
@_utilities.output_properties
class IsPublicGateway(pulumi.CustomResource):
    """`ibm_is_public_gateway` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    crn: pulumi.Output[str] = _utilities.output("crn")
    floating_ip: pulumi.Output[Mapping[str, str]] = _utilities.output("floatingIp")
    is_public_gateway_id: pulumi.Output[Optional[str]] = _utilities.output("isPublicGatewayId")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    resource_status: pulumi.Output[str] = _utilities.output("resourceStatus")
    status: pulumi.Output[str] = _utilities.output("status")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    timeouts: pulumi.Output[Optional["outputs.IsPublicGatewayTimeouts"]] = _utilities.output("timeouts")
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
        floating_ip: Optional[pulumi.Input[Mapping[str, pulumi.Input[str]]]] = None,
        is_public_gateway_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        timeouts: (
            Optional[pulumi.Input[Union["IsPublicGatewayTimeoutsArgs", "IsPublicGatewayTimeoutsArgsDict"]]]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsPublicGatewayArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsPublicGatewayArgs, pulumi.ResourceOptions, *args, **kwargs
        )
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
        opts, props = _utilities.resource_props(IsPublicGatewayArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.vpc is None:
                raise TypeError("Missing required property 'vpc'")
            if props.zone is None:
                raise TypeError("Missing required property 'zone'")
        super().__init__(
            "ibm:index/isPublicGateway:IsPublicGateway",
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
    ) -> "IsPublicGateway":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsPublicGateway(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsPublicGatewayArgs, _COMPUTED)
        )
