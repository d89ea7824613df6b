# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsVirtualNetworkInterfaceIpArgs,
    IsVirtualNetworkInterfaceIpArgsDict,
    IsVirtualNetworkInterfacePrimaryIpArgs,
    IsVirtualNetworkInterfacePrimaryIpArgsDict,
    IsVirtualNetworkInterfaceTimeoutsArgs,
    IsVirtualNetworkInterfaceTimeoutsArgsDict,
)

__all__ = ["IsVirtualNetworkInterfaceArgs", "IsVirtualNetworkInterface"]


@pulumi.input_type
class IsVirtualNetworkInterfaceArgs:
    """Arguments for constructing an `IsVirtualNetworkInterface` resource."""

    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    enable_infrastructure_nat: Optional[pulumi.Input[bool]] = pulumi.property("enableInfrastructureNat", default=None)
    ips: Optional[pulumi.Input[Sequence[pulumi.Input["IsVirtualNetworkInterfaceIpArgs"]]]] = pulumi.property(
        "ips", default=None
    )
    is_virtual_network_interface_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isVirtualNetworkInterfaceId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsVirtualNetworkInterfacePrimaryIpArgs"]] = pulumi.property(
        "primaryIp", default=None
    )
    protocol_state_filtering_mode: Optional[pulumi.Input[str]] = pulumi.property(
        "protocolStateFilteringMode", default=None
    )
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )
    subnet: Optional[pulumi.Input[str]] = pulumi.property("subnet", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    timeouts: Optional[pulumi.Input["IsVirtualNetworkInterfaceTimeoutsArgs"]] = pulumi.property(
        "timeouts", default=None
    )


_COMPUTED = ("created_at", "crn", "href", "lifecycle_state", "mac_address", "resource_type", "targets", "vpcs", "zone")


@pulumi.type_token("ibm:index/isVirtualNetworkInterface:IsVirtualNetworkInterface")
@_utilities.output_properties
class IsVirtualNetworkInterface(pulumi.CustomResource):
    """`ibm_is_virtual_network_interface` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    allow_ip_spoofing: pulumi.Output[bool] = _utilities.output("allowIpSpoofing")
    auto_delete: pulumi.Output[bool] = _utilities.output("autoDelete")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    crn: pulumi.Output[str] = _utilities.output("crn")
    enable_infrastructure_nat: pulumi.Output[bool] = _utilities.output("enableInfrastructureNat")
    href: pulumi.Output[str] = _utilities.output("href")
    ips: pulumi.Output[Sequence["outputs.IsVirtualNetworkInterfaceIp"]] = _utilities.output("ips")
    is_virtual_network_interface_id: pulumi.Output[Optional[str]] = _utilities.output("isVirtualNetworkInterfaceId")
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    mac_address: pulumi.Output[str] = _utilities.output("macAddress")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    primary_ip: pulumi.Output["outputs.IsVirtualNetworkInterfacePrimaryIp"] = _utilities.output("primaryIp")
    protocol_state_filtering_mode: pulumi.Output[str] = _utilities.output("protocolStateFilteringMode")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    security_groups: pulumi.Output[Sequence[str]] = _utilities.output("securityGroups")
    subnet: pulumi.Output[Optional[str]] = _utilities.output("subnet")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    targets: pulumi.Output[Sequence["outputs.IsVirtualNetworkInterfaceTarget"]] = _utilities.output("targets")
    timeouts: pulumi.Output[Optional["outputs.IsVirtualNetworkInterfaceTimeouts"]] = _utilities.output("timeouts")
    vpcs: pulumi.Output[Sequence["outputs.IsVirtualNetworkInterfaceVpc"]] = _utilities.output("vpcs")
    zone: pulumi.Output[str] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        allow_ip_spoofing: Optional[pulumi.Input[bool]] = None,
        auto_delete: Optional[pulumi.Input[bool]] = None,
        enable_infrastructure_nat: Optional[pulumi.Input[bool]] = None,
        ips: (
            Optional[
                pulumi.Input[
                    Sequence[
                        pulumi.Input[Union["IsVirtualNetworkInterfaceIpArgs", "IsVirtualNetworkInterfaceIpArgsDict"]]
                    ]
                ]
            ]
        ) = None,
        is_virtual_network_interface_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        primary_ip: (
            Optional[
                pulumi.Input[
                    Union["IsVirtualNetworkInterfacePrimaryIpArgs", "IsVirtualNetworkInterfacePrimaryIpArgsDict"]
                ]
            ]
        ) = None,
        protocol_state_filtering_mode: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        subnet: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        timeouts: (
            Optional[
                pulumi.Input[
                    Union["IsVirtualNetworkInterfaceTimeoutsArgs", "IsVirtualNetworkInterfaceTimeoutsArgsDict"]
                ]
            ]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsVirtualNetworkInterfaceArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsVirtualNetworkInterfaceArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsVirtualNetworkInterfaceArgs, opts, __props__, kwargs, _COMPUTED)
        super().__init__(
            "ibm:index/isVirtualNetworkInterface:IsVirtualNetworkInterface",
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
    ) -> "IsVirtualNetworkInterface":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsVirtualNetworkInterface(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsVirtualNetworkInterfaceArgs, _COMPUTED)
        )
