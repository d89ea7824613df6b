# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, overload

import pulumi

from . import _utilities, outputs

__all__ = ["IsClusterNetworkSubnetReservedIpArgs", "IsClusterNetworkSubnetReservedIp"]


@pulumi.input_type
class IsClusterNetworkSubnetReservedIpArgs:
    """Arguments for constructing an `IsClusterNetworkSubnetReservedIp` resource."""

    cluster_network_id: pulumi.Input[str] = pulumi.property("clusterNetworkId")
    cluster_network_subnet_id: pulumi.Input[str] = pulumi.property("clusterNetworkSubnetId")
    address: Optional[pulumi.Input[str]] = pulumi.property("address", default=None)
    auto_delete: Optional[pulumi.Input[bool]] = pulumi.property("autoDelete", default=None)
    is_cluster_network_subnet_reserved_ip_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isClusterNetworkSubnetReservedIpId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)


_COMPUTED = (
    "cluster_network_subnet_reserved_ip_id",
    "created_at",
    "etag",
    "href",
    "lifecycle_reasons",
    "lifecycle_state",
    "owner",
    "resource_type",
    "targets",
)


@pulumi.type_token("ibm:index/isClusterNetworkSubnetReservedIp:IsClusterNetworkSubnetReservedIp")
@_utilities.output_properties
class IsClusterNetworkSubnetReservedIp(pulumi.CustomResource):
    """`ibm_is_cluster_network_subnet_reserved_ip` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    address: pulumi.Output[Optional[str]] = _utilities.output("address")
    auto_delete: pulumi.Output[bool] = _utilities.output("autoDelete")
    cluster_network_id: pulumi.Output[str] = _utilities.output("clusterNetworkId")
    cluster_network_subnet_id: pulumi.Output[str] = _utilities.output("clusterNetworkSubnetId")
    cluster_network_subnet_reserved_ip_id: pulumi.Output[str] = _utilities.output("clusterNetworkSubnetReservedIpId")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    etag: pulumi.Output[str] = _utilities.output("etag")
    href: pulumi.Output[str] = _utilities.output("href")
    is_cluster_network_subnet_reserved_ip_id: pulumi.Output[Optional[str]] = _utilities.output(
        "isClusterNetworkSubnetReservedIpId"
    )
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsClusterNetworkSubnetReservedIpLifecycleReason"]] = (
        _utilities.output("lifecycleReasons")
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    owner: pulumi.Output[str] = _utilities.output("owner")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    targets: pulumi.Output[Sequence["outputs.IsClusterNetworkSubnetReservedIpTarget"]] = _utilities.output("targets")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        cluster_network_id: Optional[pulumi.Input[str]] = None,
        cluster_network_subnet_id: Optional[pulumi.Input[str]] = None,
        address: Optional[pulumi.Input[str]] = None,
        auto_delete: Optional[pulumi.Input[bool]] = None,
        is_cluster_network_subnet_reserved_ip_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsClusterNetworkSubnetReservedIpArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsClusterNetworkSubnetReservedIpArgs, pulumi.ResourceOptions, *args, **kwargs
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
            IsClusterNetworkSubnetReservedIpArgs, opts, __props__, kwargs, _COMPUTED
        )
        if opts.id is None and not opts.urn:
            if props.cluster_network_id is None:
                raise TypeError("Missing required property 'cluster_network_id'")
            if props.cluster_network_subnet_id is None:
                raise TypeError("Missing required property 'cluster_network_subnet_id'")
        super().__init__(
            "ibm:index/isClusterNetworkSubnetReservedIp:IsClusterNetworkSubnetReservedIp",
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
    ) -> "IsClusterNetworkSubnetReservedIp":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsClusterNetworkSubnetReservedIp(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsClusterNetworkSubnetReservedIpArgs, _COMPUTED)
        )
