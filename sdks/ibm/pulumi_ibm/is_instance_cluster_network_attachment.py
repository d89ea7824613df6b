# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsInstanceClusterNetworkAttachmentBeforeArgs,
    IsInstanceClusterNetworkAttachmentBeforeArgsDict,
    IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs,
    IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgsDict,
)

__all__ = ["IsInstanceClusterNetworkAttachmentInitArgs", "IsInstanceClusterNetworkAttachment"]


@pulumi.input_type
class IsInstanceClusterNetworkAttachmentInitArgs:
    """Arguments for constructing an `IsInstanceClusterNetworkAttachment` resource."""

    cluster_network_interface: pulumi.Input["IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs"] = (
        pulumi.property("clusterNetworkInterface")
    )
    instance_id: pulumi.Input[str] = pulumi.property("instanceId")
    before: Optional[pulumi.Input["IsInstanceClusterNetworkAttachmentBeforeArgs"]] = pulumi.property(
        "before", default=None
    )
    is_instance_cluster_network_attachment_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isInstanceClusterNetworkAttachmentId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)


_COMPUTED = ("href", "instance_cluster_network_attachment_id", "lifecycle_reasons", "lifecycle_state", "resource_type")


@pulumi.type_token("ibm:index/isInstanceClusterNetworkAttachment:IsInstanceClusterNetworkAttachment")
@_utilities.output_properties
class IsInstanceClusterNetworkAttachment(pulumi.CustomResource):
    """`ibm_is_instance_cluster_network_attachment` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    before: pulumi.Output[Optional["outputs.IsInstanceClusterNetworkAttachmentBefore"]] = _utilities.output("before")
    cluster_network_interface: pulumi.Output["outputs.IsInstanceClusterNetworkAttachmentClusterNetworkInterface"] = (
        _utilities.output("clusterNetworkInterface")
    )
    href: pulumi.Output[str] = _utilities.output("href")
    instance_cluster_network_attachment_id: pulumi.Output[str] = _utilities.output("instanceClusterNetworkAttachmentId")
    instance_id: pulumi.Output[str] = _utilities.output("instanceId")
    is_instance_cluster_network_attachment_id: pulumi.Output[Optional[str]] = _utilities.output(
        "isInstanceClusterNetworkAttachmentId"
    )
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsInstanceClusterNetworkAttachmentLifecycleReason"]] = (
        _utilities.output("lifecycleReasons")
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        cluster_network_interface: (
            Optional[
                pulumi.Input[
                    Union[
                        "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs",
                        "IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgsDict",
                    ]
                ]
            ]
        ) = None,
        instance_id: Optional[pulumi.Input[str]] = None,
        before: (
            Optional[
                pulumi.Input[
                    Union[
                        "IsInstanceClusterNetworkAttachmentBeforeArgs",
                        "IsInstanceClusterNetworkAttachmentBeforeArgsDict",
                    ]
                ]
            ]
        ) = None,
        is_instance_cluster_network_attachment_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsInstanceClusterNetworkAttachmentInitArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsInstanceClusterNetworkAttachmentInitArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(
            IsInstanceClusterNetworkAttachmentInitArgs, opts, __props__, kwargs, _COMPUTED
        )
        if opts.id is None and not opts.urn:
            if props.cluster_network_interface is None:
                raise TypeError("Missing required property 'cluster_network_interface'")
            if props.instance_id is None:
                raise TypeError("Missing required property 'instance_id'")
        super().__init__(
            "ibm:index/isInstanceClusterNetworkAttachment:IsInstanceClusterNetworkAttachment",
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
    ) -> "IsInstanceClusterNetworkAttachment":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsInstanceClusterNetworkAttachment(
            resource_name,
            opts=opts,
            __props__=_utilities.empty_props(IsInstanceClusterNetworkAttachmentInitArgs, _COMPUTED),
        )
