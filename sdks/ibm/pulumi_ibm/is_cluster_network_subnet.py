# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, overload

import pulumi

from . import _utilities, outputs

__all__ = ["IsClusterNetworkSubnetArgs", "IsClusterNetworkSubnet"]


@pulumi.input_type
class IsClusterNetworkSubnetArgs:
    """Arguments for constructing an `IsClusterNetworkSubnet` resource."""

    cluster_network_id: pulumi.Input[str] = pulumi.property("clusterNetworkId")
    ip_version: Optional[pulumi.Input[str]] = pulumi.property("ipVersion", default=None)
    ipv4_cidr_block: Optional[pulumi.Input[str]] = pulumi.property("ipv4CidrBlock", default=None)
    is_cluster_network_subnet_id: Optional[pulumi.Input[str]] = pulumi.property(
        "isClusterNetworkSubnetId", default=None
    )
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    total_ipv4_address_count: Optional[pulumi.Input[float]] = pulumi.property("totalIpv4AddressCount", default=None)


_COMPUTED = (
    "available_ipv4_address_count",
    "cluster_network_subnet_id",
    "created_at",
    "etag",
    "href",
    "lifecycle_reasons",
    "lifecycle_state",
    "resource_type",
)


@pulumi.type_token("ibm:index/isClusterNetworkSubnet:IsClusterNetworkSubnet")
@_utilities.output_properties
class IsClusterNetworkSubnet(pulumi.CustomResource):
    """`ibm_is_cluster_network_subnet` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    available_ipv4_address_count: pulumi.Output[float] = _utilities.output("availableIpv4AddressCount")
    cluster_network_id: pulumi.Output[str] = _utilities.output("clusterNetworkId")
    cluster_network_subnet_id: pulumi.Output[str] = _utilities.output("clusterNetworkSubnetId")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    etag: pulumi.Output[str] = _utilities.output("etag")
    href: pulumi.Output[str] = _utilities.output("href")
    ip_version: pulumi.Output[str] = _utilities.output("ipVersion")
    ipv4_cidr_block: pulumi.Output[str] = _utilities.output("ipv4CidrBlock")
    is_cluster_network_subnet_id: pulumi.Output[Optional[str]] = _utilities.output("isClusterNetworkSubnetId")
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsClusterNetworkSubnetLifecycleReason"]] = _utilities.output(
        "lifecycleReasons"
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    total_ipv4_address_count: pulumi.Output[float] = _utilities.output("totalIpv4AddressCount")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        cluster_network_id: Optional[pulumi.Input[str]] = None,
        ip_version: Optional[pulumi.Input[str]] = None,
        ipv4_cidr_block: Optional[pulumi.Input[str]] = None,
        is_cluster_network_subnet_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        total_ipv4_address_count: Optional[pulumi.Input[float]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsClusterNetworkSubnetArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsClusterNetworkSubnetArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsClusterNetworkSubnetArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.cluster_network_id is None:
                raise TypeError("Missing required property 'cluster_network_id'")
        super().__init__(
            "ibm:index/isClusterNetworkSubnet:IsClusterNetworkSubnet",
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
    ) -> "IsClusterNetworkSubnet":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsClusterNetworkSubnet(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsClusterNetworkSubnetArgs, _COMPUTED)
        )
