# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §3; nested blocks come
# back as lists of plain mappings (the generated SDK types them; the wire shape is the same).

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsSecurityGroupResult", "AwaitableGetIsSecurityGroupResult", "get_is_security_group", "get_is_security_group_output"]

_TOKEN = "ibm:index/getIsSecurityGroup:getIsSecurityGroup"


@pulumi.output_type
class GetIsSecurityGroupResult:
    """Values returned by `ibm_is_security_group` (`getIsSecurityGroup`)."""

    access_tags: Optional[Any] = pulumi.property("accessTags", default=None)
    crn: Optional[Any] = pulumi.property("crn", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    resource_controller_url: Optional[Any] = pulumi.property("resourceControllerUrl", default=None)
    resource_crn: Optional[Any] = pulumi.property("resourceCrn", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    resource_group_name: Optional[Any] = pulumi.property("resourceGroupName", default=None)
    resource_name: Optional[Any] = pulumi.property("resourceName", default=None)
    rules: Optional[Any] = pulumi.property("rules", default=None)
    tags: Optional[Any] = pulumi.property("tags", default=None)
    vpc: Optional[str] = pulumi.property("vpc", default=None)
    vpc_name: Optional[str] = pulumi.property("vpcName", default=None)


class AwaitableGetIsSecurityGroupResult(GetIsSecurityGroupResult):
    def __await__(self) -> Generator[Any, None, GetIsSecurityGroupResult]:
        if False:
            yield self
        return GetIsSecurityGroupResult(**self.__dict__)


def get_is_security_group(
    name: str,
    resource_group: Optional[str] = None,
    vpc: Optional[str] = None,
    vpc_name: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsSecurityGroupResult:
    """Invoke `ibm_is_security_group` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {"name": name, "resourceGroup": resource_group, "vpc": vpc, "vpcName": vpc_name}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsSecurityGroupResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsSecurityGroupResult(**result.__dict__)


def get_is_security_group_output(
    name: pulumi.Input[str],
    resource_group: Optional[pulumi.Input[Optional[str]]] = None,
    vpc: Optional[pulumi.Input[Optional[str]]] = None,
    vpc_name: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsSecurityGroupResult]:
    """Output-returning variant of `get_is_security_group`."""
    __args__: dict[str, Any] = {"name": name, "resourceGroup": resource_group, "vpc": vpc, "vpcName": vpc_name}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsSecurityGroupResult, package_ref=_utilities.get_package()
    )
