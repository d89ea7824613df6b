# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Mapping, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsSecurityGroupTimeoutsArgs,
    IsSecurityGroupTimeoutsArgsDict,
)

__all__ = ["IsSecurityGroupArgs", "IsSecurityGroup"]


@pulumi.input_type
class IsSecurityGroupArgs:
    """Arguments for constructing an `IsSecurityGroup` resource."""

    vpc: pulumi.Input[str] = pulumi.property("vpc")
    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    is_security_group_id: Optional[pulumi.Input[str]] = pulumi.property("isSecurityGroupId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    timeouts: Optional[pulumi.Input["IsSecurityGroupTimeoutsArgs"]] = pulumi.property("timeouts", default=None)


_COMPUTED = ("crn", "resource_controller_url", "resource_crn", "resource_group_name", "resource_name", "rules")


@pulumi.type_token("ibm:index/isSecurityGroup:IsSecurityGroup")
@_utilities.output_properties
class IsSecurityGroup(pulumi.CustomResource):
    """`ibm_is_security_group` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    crn: pulumi.Output[str] = _utilities.output("crn")
    is_security_group_id: pulumi.Output[Optional[str]] = _utilities.output("isSecurityGroupId")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    rules: pulumi.Output[Sequence[Mapping[str, Any]]] = _utilities.output("rules")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    timeouts: pulumi.Output[Optional["outputs.IsSecurityGroupTimeouts"]] = _utilities.output("timeouts")
    vpc: pulumi.Output[str] = _utilities.output("vpc")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        vpc: Optional[pulumi.Input[str]] = None,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        is_security_group_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        timeouts: (
            Optional[pulumi.Input[Union["IsSecurityGroupTimeoutsArgs", "IsSecurityGroupTimeoutsArgsDict"]]]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsSecurityGroupArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsSecurityGroupArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsSecurityGroupArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.vpc is None:
                raise TypeError("Missing required property 'vpc'")
        super().__init__(
            "ibm:index/isSecurityGroup:IsSecurityGroup",
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
    ) -> "IsSecurityGroup":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsSecurityGroup(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsSecurityGroupArgs, _COMPUTED)
        )
