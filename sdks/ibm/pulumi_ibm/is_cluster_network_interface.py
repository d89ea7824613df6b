# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsClusterNetworkInterfacePrimaryIpArgs,
    IsClusterNetworkInterfacePrimaryIpArgsDict,
    IsClusterNetworkInterfaceSubnetArgs,
    IsClusterNetworkInterfaceSubnetArgsDict,
)

__all__ = ["IsClusterNetworkInterfaceArgs", "IsClusterNetworkInterface"]


@pulumi.input_type
class IsClusterNetworkInterfaceArgs:
    """Arguments for constructing an `IsClusterNetworkInterface` resource."""

    cluster_network_id: pulumi.Input[str] = pulumi.property("clusterNetworkId")
    is_cluster_network_interface_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isClusterNetworkInterfaceId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsClusterNetworkInterfacePrimaryIpArgs"]] = pulumi.property(
        "primaryIp", default=None
    )
    subnet: Optional[pulumi.Input["IsClusterNetworkInterfaceSubnetArgs"]] = pulumi.property("subnet", default=None)


_COMPUTED = (
    "allow_ip_spoofing",
    "auto_delete",
    "cluster_network_interface_id",
    "created_at",
    "enable_infrastructure_nat",
    "etag",
    "href",
    "lifecycle_reasons",
    "lifecycle_state",
    "mac_address",
    "resource_type",
    "targets",
    "vpcs",
    "zones",
)


@pulumi.type_token("ibm:index/isClusterNetworkInterface:IsClusterNetworkInterface")
@_utilities.output_properties
class IsClusterNetworkInterface(pulumi.CustomResource):
    """`ibm_is_cluster_network_interface` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    allow_ip_spoofing: pulumi.Output[bool] = _utilities.output("allowIpSpoofing")
    auto_delete: pulumi.Output[bool] = _utilities.output("autoDelete")
    cluster_network_id: pulumi.Output[str] = _utilities.output("clusterNetworkId")
    cluster_network_interface_id: pulumi.Output[str] = _utilities.output("clusterNetworkInterfaceId")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    enable_infrastructure_nat: pulumi.Output[bool] = _utilities.output("enableInfrastructureNat")
    etag: pulumi.Output[str] = _utilities.output("etag")
    href: pulumi.Output[str] = _utilities.output("href")
    is_cluster_network_interface_id: pulumi.Output[Optional[str]] = _utilities.output("isClusterNetworkInterfaceId")
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsClusterNetworkInterfaceLifecycleReason"]] = _utilities.output(
        "lifecycleReasons"
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    mac_address: pulumi.Output[str] = _utilities.output("macAddress")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    primary_ip: pulumi.Output["outputs.IsClusterNetworkInterfacePrimaryIp"] = _utilities.output("primaryIp")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    subnet: pulumi.Output["outputs.IsClusterNetworkInterfaceSubnet"] = _utilities.output("subnet")
    targets: pulumi.Output[Sequence["outputs.IsClusterNetworkInterfaceTarget"]] = _utilities.output("targets")
    vpcs: pulumi.Output[Sequence["outputs.IsClusterNetworkInterfaceVpc"]] = _utilities.output("vpcs")
    zones: pulumi.Output[Sequence["outputs.IsClusterNetworkInterfaceZone"]] = _utilities.output("zones")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        cluster_network_id: Optional[pulumi.Input[str]] = None,
        is_cluster_network_interface_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        primary_ip: (
            Optional[
                pulumi.Input[
                    Union["IsClusterNetworkInterfacePrimaryIpArgs", "IsClusterNetworkInterfacePrimaryIpArgsDict"]
                ]
            ]
        ) = None,
        subnet: (
            Optional[
                pulumi.Input[Union["IsClusterNetworkInterfaceSubnetArgs", "IsClusterNetworkInterfaceSubnetArgsDict"]]
            ]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsClusterNetworkInterfaceArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsClusterNetworkInterfaceArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsClusterNetworkInterfaceArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.cluster_network_id is None:
                raise TypeError("Missing required property 'cluster_network_id'")
        super().__init__(
            "ibm:index/isClusterNetworkInterface:IsClusterNetworkInterface",
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
    ) -> "IsClusterNetworkInterface":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsClusterNetworkInterface(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsClusterNetworkInterfaceArgs, _COMPUTED)
        )
