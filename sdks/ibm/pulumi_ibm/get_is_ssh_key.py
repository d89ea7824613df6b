# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). The data source is `ibm_is_ssh_key`
# (ibm/service/vpc/data_source_ibm_is_ssh_key.go: `name` required, `resource_group` optional);
# ibm-provider.md does not list it, so the names below were read from the provider's schema.

from typing import Any, Generator, Optional, Union

import pulumi

from . import _utilities

__all__ = ["GetIsSshKeyResult", "AwaitableGetIsSshKeyResult", "get_is_ssh_key", "get_is_ssh_key_output"]

_TOKEN = "ibm:index/getIsSshKey:getIsSshKey"


@pulumi.output_type
class GetIsSshKeyResult:
    """Values returned by `ibm_is_ssh_key` (`getIsSshKey`)."""

    crn: Optional[str] = pulumi.property("crn", default=None)
    fingerprint: Optional[str] = pulumi.property("fingerprint", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    length: Optional[int] = pulumi.property("length", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    public_key: Optional[str] = pulumi.property("publicKey", default=None)
    resource_group: Optional[str] = pulumi.property("resourceGroup", default=None)
    type: Optional[str] = pulumi.property("type", default=None)


class AwaitableGetIsSshKeyResult(GetIsSshKeyResult):
    def __await__(self) -> Generator[Any, None, GetIsSshKeyResult]:
        if False:
            yield self
        return GetIsSshKeyResult(**self.__dict__)


def get_is_ssh_key(
    name: Optional[str] = None,
    resource_group: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsSshKeyResult:
    """Invoke `ibm_is_ssh_key`: an existing VPC SSH key of the region, by name."""
    __args__: dict[str, Any] = {"name": name, "resourceGroup": resource_group}
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsSshKeyResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsSshKeyResult(**result.__dict__)


def get_is_ssh_key_output(
    name: Optional[pulumi.Input[Optional[str]]] = None,
    resource_group: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsSshKeyResult]:
    """Output-returning variant of `get_is_ssh_key`."""
    __args__: dict[str, Any] = {"name": name, "resourceGroup": resource_group}
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsSshKeyResult, package_ref=_utilities.get_package()
    )
