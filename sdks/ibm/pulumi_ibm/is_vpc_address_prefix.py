# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, overload

import pulumi

from . import _utilities

__all__ = ["IsVpcAddressPrefixArgs", "IsVpcAddressPrefix"]


@pulumi.input_type
class IsVpcAddressPrefixArgs:
    """Arguments for constructing an `IsVpcAddressPrefix` resource."""

    cidr: pulumi.Input[str] = pulumi.property("cidr")
    vpc: pulumi.Input[str] = pulumi.property("vpc")
    zone: pulumi.Input[str] = pulumi.property("zone")
    is_default: Optional[pulumi.Input[bool]] = pulumi.property("isDefault", default=None)
    is_vpc_address_prefix_id: Optional[pulumi.Input[str]] = pulumi.property("isVpcAddressPrefixId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)


_COMPUTED = ("address_prefix", "has_subnets", "related_crn")


@pulumi.type_token("ibm:index/isVpcAddressPrefix:IsVpcAddressPrefix")
@_utilities.output_properties
class IsVpcAddressPrefix(pulumi.CustomResource):
    """`ibm_is_vpc_address_prefix` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    address_prefix: pulumi.Output[str] = _utilities.output("addressPrefix")
    cidr: pulumi.Output[str] = _utilities.output("cidr")
    has_subnets: pulumi.Output[bool] = _utilities.output("hasSubnets")
    is_default: pulumi.Output[Optional[bool]] = _utilities.output("isDefault")
    is_vpc_address_prefix_id: pulumi.Output[Optional[str]] = _utilities.output("isVpcAddressPrefixId")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    related_crn: pulumi.Output[str] = _utilities.output("relatedCrn")
    vpc: pulumi.Output[str] = _utilities.output("vpc")
    zone: pulumi.Output[str] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        cidr: Optional[pulumi.Input[str]] = None,
        vpc: Optional[pulumi.Input[str]] = None,
        zone: Optional[pulumi.Input[str]] = None,
        is_default: Optional[pulumi.Input[bool]] = None,
        is_vpc_address_prefix_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsVpcAddressPrefixArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsVpcAddressPrefixArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsVpcAddressPrefixArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.cidr is None:
                raise TypeError("Missing required property 'cidr'")
            if props.vpc is None:
                raise TypeError("Missing required property 'vpc'")
            if props.zone is None:
                raise TypeError("Missing required property 'zone'")
        super().__init__(
            "ibm:index/isVpcAddressPrefix:IsVpcAddressPrefix",
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
    ) -> "IsVpcAddressPrefix":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsVpcAddressPrefix(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsVpcAddressPrefixArgs, _COMPUTED)
        )
