# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs,
    IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgsDict,
)

__all__ = ["IsInstanceNetworkAttachmentInitArgs", "IsInstanceNetworkAttachment"]


@pulumi.input_type
class IsInstanceNetworkAttachmentInitArgs:
    """Arguments for constructing an `IsInstanceNetworkAttachment` resource."""

    instance: pulumi.Input[str] = pulumi.property("instance")
    is_instance_network_attachment_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isInstanceNetworkAttachmentId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    virtual_network_interface: Optional[pulumi.Input["IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs"]] = (
        pulumi.property("virtualNetworkInterface", default=None)
    )


_COMPUTED = ("created_at", "href", "lifecycle_state", "network_attachment", "port_speed", "resource_type", "type")


@pulumi.type_token("ibm:index/isInstanceNetworkAttachment:IsInstanceNetworkAttachment")
@_utilities.output_properties
class IsInstanceNetworkAttachment(pulumi.CustomResource):
    """`ibm_is_instance_network_attachment` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    href: pulumi.Output[str] = _utilities.output("href")
    instance: pulumi.Output[str] = _utilities.output("instance")
    is_instance_network_attachment_id: pulumi.Output[Optional[str]] = _utilities.output("isInstanceNetworkAttachmentId")
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    network_attachment: pulumi.Output[str] = _utilities.output("networkAttachment")
    port_speed: pulumi.Output[float] = _utilities.output("portSpeed")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    type: pulumi.Output[str] = _utilities.output("type")
    virtual_network_interface: pulumi.Output["outputs.IsInstanceNetworkAttachmentVirtualNetworkInterface"] = (
        _utilities.output("virtualNetworkInterface")
    )

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        instance: Optional[pulumi.Input[str]] = None,
        is_instance_network_attachment_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        virtual_network_interface: (
            Optional[
                pulumi.Input[
                    Union[
                        "IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgs",
                        "IsInstanceNetworkAttachmentVirtualNetworkInterfaceArgsDict",
                    ]
                ]
            ]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsInstanceNetworkAttachmentInitArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsInstanceNetworkAttachmentInitArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsInstanceNetworkAttachmentInitArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.instance is None:
                raise TypeError("Missing required property 'instance'")
        super().__init__(
            "ibm:index/isInstanceNetworkAttachment:IsInstanceNetworkAttachment",
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
    ) -> "IsInstanceNetworkAttachment":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsInstanceNetworkAttachment(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsInstanceNetworkAttachmentInitArgs, _COMPUTED)
        )
