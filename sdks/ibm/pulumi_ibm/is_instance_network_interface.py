# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import IsInstanceNetworkInterfacePrimaryIpArgs, IsInstanceNetworkInterfacePrimaryIpArgsDict

__all__ = ["IsInstanceNetworkInterfaceInitArgs", "IsInstanceNetworkInterface"]


@pulumi.input_type
class IsInstanceNetworkInterfaceInitArgs:
    """Arguments for constructing an `IsInstanceNetworkInterface` resource (``InitArgs``: the nested
    ``IsInstanceNetworkInterfaceArgs`` of ``IsInstance.network_interfaces`` already holds that name)."""

    instance: pulumi.Input[str] = pulumi.property("instance")
    subnet: pulumi.Input[str] = pulumi.property("subnet")
    allow_ip_spoofing: Optional[pulumi.Input[bool]] = pulumi.property("allowIpSpoofing", default=None)
    floating_ip: Optional[pulumi.Input[str]] = pulumi.property("floatingIp", default=None)
    is_instance_network_interface_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isInstanceNetworkInterfaceId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    primary_ip: Optional[pulumi.Input["IsInstanceNetworkInterfacePrimaryIpArgs"]] = pulumi.property(
        "primaryIp", default=None
    )
    primary_ipv4_address: Optional[pulumi.Input[str]] = pulumi.property("primaryIpv4Address", default=None)
    security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property(
        "securityGroups", default=None
    )


_COMPUTED = ("created_at", "floating_ips", "href", "network_interface", "port_speed", "resource_type", "status",
             "type")


@pulumi.type_token("ibm:index/isInstanceNetworkInterface:IsInstanceNetworkInterface")
@_utilities.output_properties
class IsInstanceNetworkInterface(pulumi.CustomResource):
    """`ibm_is_instance_network_interface` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2): a
    secondary child network interface of an existing instance (the model OpenShift IPI workers use)."""

    allow_ip_spoofing: pulumi.Output[Optional[bool]] = _utilities.output("allowIpSpoofing")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    floating_ip: pulumi.Output[Optional[str]] = _utilities.output("floatingIp")
    floating_ips: pulumi.Output[Sequence[Any]] = _utilities.output("floatingIps")
    href: pulumi.Output[str] = _utilities.output("href")
    instance: pulumi.Output[str] = _utilities.output("instance")
    is_instance_network_interface_id: pulumi.Output[Optional[str]] = _utilities.output(
        "isInstanceNetworkInterfaceId"
    )
    name: pulumi.Output[str] = _utilities.output("name")
    network_interface: pulumi.Output[str] = _utilities.output("networkInterface")
    port_speed: pulumi.Output[float] = _utilities.output("portSpeed")
    primary_ip: pulumi.Output["outputs.IsInstanceNetworkInterfacePrimaryIp"] = _utilities.output("primaryIp")
    primary_ipv4_address: pulumi.Output[str] = _utilities.output("primaryIpv4Address")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    security_groups: pulumi.Output[Sequence[str]] = _utilities.output("securityGroups")
    status: pulumi.Output[str] = _utilities.output("status")
    subnet: pulumi.Output[str] = _utilities.output("subnet")
    type: pulumi.Output[str] = _utilities.output("type")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        allow_ip_spoofing: Optional[pulumi.Input[bool]] = None,
        floating_ip: Optional[pulumi.Input[str]] = None,
        instance: Optional[pulumi.Input[str]] = None,
        is_instance_network_interface_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        primary_ip: Optional[
            pulumi.Input[Union["IsInstanceNetworkInterfacePrimaryIpArgs", "IsInstanceNetworkInterfacePrimaryIpArgsDict"]]
        ] = None,
        primary_ipv4_address: Optional[pulumi.Input[str]] = None,
        security_groups: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        subnet: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsInstanceNetworkInterfaceInitArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsInstanceNetworkInterfaceInitArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsInstanceNetworkInterfaceInitArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.instance is None:
                raise TypeError("Missing required property 'instance'")
            if props.subnet is None:
                raise TypeError("Missing required property 'subnet'")
        super().__init__(
            "ibm:index/isInstanceNetworkInterface:IsInstanceNetworkInterface",
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
    ) -> "IsInstanceNetworkInterface":
        """Adopt an existing resource by its provider ID (``<instance_id>/<nic_id>``)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsInstanceNetworkInterface(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsInstanceNetworkInterfaceInitArgs, _COMPUTED)
        )
