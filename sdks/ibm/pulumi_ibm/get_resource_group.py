# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Generator, Optional, Sequence, Union

import pulumi

from . import _utilities

__all__ = [
    "GetResourceGroupResult",
    "AwaitableGetResourceGroupResult",
    "get_resource_group",
    "get_resource_group_output",
]

_TOKEN = "ibm:index/getResourceGroup:getResourceGroup"


@pulumi.output_type
class GetResourceGroupResult:
    """Values returned by `ibm_resource_group` (`getResourceGroup`)."""

    account_id: Optional[str] = pulumi.property("accountId", default=None)
    created_at: Optional[str] = pulumi.property("createdAt", default=None)
    crn: Optional[str] = pulumi.property("crn", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    is_default: Optional[bool] = pulumi.property("isDefault", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    payment_methods_url: Optional[str] = pulumi.property("paymentMethodsUrl", default=None)
    quota_id: Optional[str] = pulumi.property("quotaId", default=None)
    quota_url: Optional[str] = pulumi.property("quotaUrl", default=None)
    resource_linkages: Optional[Sequence[Any]] = pulumi.property("resourceLinkages", default=None)
    state: Optional[str] = pulumi.property("state", default=None)
    teams_url: Optional[str] = pulumi.property("teamsUrl", default=None)
    updated_at: Optional[str] = pulumi.property("updatedAt", default=None)


class AwaitableGetResourceGroupResult(GetResourceGroupResult):
    def __await__(self) -> Generator[Any, None, GetResourceGroupResult]:
        if False:
            yield self
        return GetResourceGroupResult(**self.__dict__)


def get_resource_group(
    id: Optional[str] = None,
    is_default: Optional[bool] = None,
    name: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetResourceGroupResult:
    """Invoke `ibm_resource_group` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {
        "id": id,
        "isDefault": is_default,
        "name": name,
    }
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetResourceGroupResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetResourceGroupResult(**result.__dict__)


def get_resource_group_output(
    id: Optional[pulumi.Input[Optional[str]]] = None,
    is_default: Optional[pulumi.Input[Optional[bool]]] = None,
    name: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetResourceGroupResult]:
    """Output-returning variant of `get_resource_group`."""
    __args__: dict[str, Any] = {
        "id": id,
        "isDefault": is_default,
        "name": name,
    }
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetResourceGroupResult, package_ref=_utilities.get_package()
    )
