# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). ibm-provider.md does not list the `ibm_is_ssh_key` data source; its
# names come from terraform-provider-ibm v2.5.0 `ibm/service/vpc/data_source_ibm_is_ssh_key.go`
# (arguments `id` and `name`, exactly one of them, and `resource_group`) with the bridge's rules
# (a data source keeps its `id` argument), as `tools/ibm_reference_supplement.md` records them.

from typing import Any, Generator, Optional, Sequence, Union

import pulumi

from . import _utilities

__all__ = ["GetIsSshKeyResult", "AwaitableGetIsSshKeyResult", "get_is_ssh_key", "get_is_ssh_key_output"]

_TOKEN = "ibm:index/getIsSshKey:getIsSshKey"


@pulumi.output_type
class GetIsSshKeyResult:
    """Values returned by `ibm_is_ssh_key` (`getIsSshKey`)."""

    access_tags: Optional[Sequence[str]] = pulumi.property("accessTags", default=None)
    created_at: Optional[str] = pulumi.property("createdAt", default=None)
    crn: Optional[str] = pulumi.property("crn", default=None)
    fingerprint: Optional[str] = pulumi.property("fingerprint", default=None)
    href: Optional[str] = pulumi.property("href", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    length: Optional[float] = pulumi.property("length", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    public_key: Optional[str] = pulumi.property("publicKey", default=None)
    resource_controller_url: Optional[str] = pulumi.property("resourceControllerUrl", default=None)
    resource_crn: Optional[str] = pulumi.property("resourceCrn", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    resource_group_name: Optional[str] = pulumi.property("resourceGroupName", default=None)
    resource_name: Optional[str] = pulumi.property("resourceName", default=None)
    tags: Optional[Sequence[str]] = pulumi.property("tags", default=None)
    type: Optional[str] = pulumi.property("type", default=None)


class AwaitableGetIsSshKeyResult(GetIsSshKeyResult):
    def __await__(self) -> Generator[Any, None, GetIsSshKeyResult]:
        if False:
            yield self
        return GetIsSshKeyResult(**self.__dict__)


def get_is_ssh_key(
    id: Optional[str] = None,
    name: Optional[str] = None,
    resource_group: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsSshKeyResult:
    """Invoke `ibm_is_ssh_key`: an existing VPC SSH key of the region, by `name` or by `id`.

    A name lookup lists every key of the region and matches the name exactly; `resource_group`
    does not filter it (the provider reads the key's group back into it)."""
    __args__: dict[str, Any] = {"id": id, "name": name, "resourceGroup": resource_group}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsSshKeyResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsSshKeyResult(**result.__dict__)


def get_is_ssh_key_output(
    id: Optional[pulumi.Input[Optional[str]]] = None,
    name: Optional[pulumi.Input[Optional[str]]] = None,
    resource_group: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsSshKeyResult]:
    """Output-returning variant of `get_is_ssh_key`."""
    __args__: dict[str, Any] = {"id": id, "name": name, "resourceGroup": resource_group}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsSshKeyResult, package_ref=_utilities.get_package()
    )
