# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Generator, Optional, Sequence, Union

import pulumi

from . import _utilities, outputs

__all__ = [
    "GetIsClusterNetworkProfileResult",
    "AwaitableGetIsClusterNetworkProfileResult",
    "get_is_cluster_network_profile",
    "get_is_cluster_network_profile_output",
]

_TOKEN = "ibm:index/getIsClusterNetworkProfile:getIsClusterNetworkProfile"


@pulumi.output_type
class GetIsClusterNetworkProfileResult:
    """Values returned by `ibm_is_cluster_network_profile` (`getIsClusterNetworkProfile`)."""

    family: Optional[str] = pulumi.property("family", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_type: Optional[str] = pulumi.property("resourceType", default=None)
    supported_instance_profiles: Optional[
        Sequence["outputs.GetIsClusterNetworkProfileSupportedInstanceProfileResult"]
    ] = pulumi.property("supportedInstanceProfiles", default=None)
    zones: Optional[Sequence["outputs.GetIsClusterNetworkProfileZoneResult"]] = pulumi.property("zones", default=None)


class AwaitableGetIsClusterNetworkProfileResult(GetIsClusterNetworkProfileResult):
    def __await__(self) -> Generator[Any, None, GetIsClusterNetworkProfileResult]:
        if False:
            yield self
        return GetIsClusterNetworkProfileResult(**self.__dict__)


def get_is_cluster_network_profile(
    name: str,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsClusterNetworkProfileResult:
    """Invoke `ibm_is_cluster_network_profile` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {
        "name": name,
    }
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsClusterNetworkProfileResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsClusterNetworkProfileResult(**result.__dict__)


def get_is_cluster_network_profile_output(
    name: pulumi.Input[str],
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsClusterNetworkProfileResult]:
    """Output-returning variant of `get_is_cluster_network_profile`."""
    __args__: dict[str, Any] = {
        "name": name,
    }
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsClusterNetworkProfileResult, package_ref=_utilities.get_package()
    )
