# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsClusterNetworkSubnetPrefixesArgs,
    IsClusterNetworkSubnetPrefixesArgsDict,
    IsClusterNetworkVpcArgs,
    IsClusterNetworkVpcArgsDict,
)

__all__ = ["IsClusterNetworkArgs", "IsClusterNetwork"]


@pulumi.input_type
class IsClusterNetworkArgs:
    """Arguments for constructing an `IsClusterNetwork` resource."""

    profile: pulumi.Input[str] = pulumi.property("profile")
    vpc: pulumi.Input["IsClusterNetworkVpcArgs"] = pulumi.property("vpc")
    zone: pulumi.Input[str] = pulumi.property("zone")
    is_cluster_network_id: Optional[pulumi.Input[str]] = pulumi.property("isClusterNetworkId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    subnet_prefixes: Optional[pulumi.Input["IsClusterNetworkSubnetPrefixesArgs"]] = pulumi.property(
        "subnetPrefixes", default=None
    )


_COMPUTED = ("created_at", "crn", "etag", "href", "lifecycle_reasons", "lifecycle_state", "resource_type")


@pulumi.type_token("ibm:index/isClusterNetwork:IsClusterNetwork")
@_utilities.output_properties
class IsClusterNetwork(pulumi.CustomResource):
    """`ibm_is_cluster_network` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    crn: pulumi.Output[str] = _utilities.output("crn")
    etag: pulumi.Output[str] = _utilities.output("etag")
    href: pulumi.Output[str] = _utilities.output("href")
    is_cluster_network_id: pulumi.Output[Optional[str]] = _utilities.output("isClusterNetworkId")
    lifecycle_reasons: pulumi.Output[Sequence["outputs.IsClusterNetworkLifecycleReason"]] = _utilities.output(
        "lifecycleReasons"
    )
    lifecycle_state: pulumi.Output[str] = _utilities.output("lifecycleState")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    profile: pulumi.Output[str] = _utilities.output("profile")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_type: pulumi.Output[str] = _utilities.output("resourceType")
    subnet_prefixes: pulumi.Output["outputs.IsClusterNetworkSubnetPrefixes"] = _utilities.output("subnetPrefixes")
    vpc: pulumi.Output["outputs.IsClusterNetworkVpc"] = _utilities.output("vpc")
    zone: pulumi.Output[str] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        profile: Optional[pulumi.Input[str]] = None,
        vpc: Optional[pulumi.Input[Union["IsClusterNetworkVpcArgs", "IsClusterNetworkVpcArgsDict"]]] = None,
        zone: Optional[pulumi.Input[str]] = None,
        is_cluster_network_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        subnet_prefixes: (
            Optional[
                pulumi.Input[Union["IsClusterNetworkSubnetPrefixesArgs", "IsClusterNetworkSubnetPrefixesArgsDict"]]
            ]
        ) = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsClusterNetworkArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsClusterNetworkArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsClusterNetworkArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.profile is None:
                raise TypeError("Missing required property 'profile'")
            if props.vpc is None:
                raise TypeError("Missing required property 'vpc'")
            if props.zone is None:
                raise TypeError("Missing required property 'zone'")
        super().__init__(
            "ibm:index/isClusterNetwork:IsClusterNetwork",
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
    ) -> "IsClusterNetwork":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsClusterNetwork(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsClusterNetworkArgs, _COMPUTED)
        )
