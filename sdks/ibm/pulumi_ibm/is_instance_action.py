# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsInstanceActionTimeoutsArgs,
    IsInstanceActionTimeoutsArgsDict,
)

__all__ = ["IsInstanceActionArgs", "IsInstanceAction"]


@pulumi.input_type
class IsInstanceActionArgs:
    """Arguments for constructing an `IsInstanceAction` resource."""

    action: pulumi.Input[str] = pulumi.property("action")
    instance: pulumi.Input[str] = pulumi.property("instance")
    force_action: Optional[pulumi.Input[bool]] = pulumi.property("forceAction", default=None)
    is_instance_action_id: Optional[pulumi.Input[str]] = pulumi.property("isInstanceActionId", default=None)
    timeouts: Optional[pulumi.Input["IsInstanceActionTimeoutsArgs"]] = pulumi.property("timeouts", default=None)


_COMPUTED = ("status", "status_reasons")


@pulumi.type_token("ibm:index/isInstanceAction:IsInstanceAction")
@_utilities.output_properties
class IsInstanceAction(pulumi.CustomResource):
    """`ibm_is_instance_action` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    action: pulumi.Output[str] = _utilities.output("action")
    force_action: pulumi.Output[Optional[bool]] = _utilities.output("forceAction")
    instance: pulumi.Output[str] = _utilities.output("instance")
    is_instance_action_id: pulumi.Output[Optional[str]] = _utilities.output("isInstanceActionId")
    status: pulumi.Output[str] = _utilities.output("status")
    status_reasons: pulumi.Output[Sequence["outputs.IsInstanceActionStatusReason"]] = _utilities.output("statusReasons")
    timeouts: pulumi.Output[Optional["outputs.IsInstanceActionTimeouts"]] = _utilities.output("timeouts")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        action: Optional[pulumi.Input[str]] = None,
        instance: Optional[pulumi.Input[str]] = None,
        force_action: Optional[pulumi.Input[bool]] = None,
        is_instance_action_id: Optional[pulumi.Input[str]] = None,
        timeouts: (
            Optional[pulumi.Input[Union["IsInstanceActionTimeoutsArgs", "IsInstanceActionTimeoutsArgsDict"]]]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsInstanceActionArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsInstanceActionArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsInstanceActionArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.action is None:
                raise TypeError("Missing required property 'action'")
            if props.instance is None:
                raise TypeError("Missing required property 'instance'")
        super().__init__(
            "ibm:index/isInstanceAction:IsInstanceAction",
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
    ) -> "IsInstanceAction":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsInstanceAction(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsInstanceActionArgs, _COMPUTED)
        )
