# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Generator, Mapping, Optional, Sequence, Union

import pulumi

from . import _utilities, outputs

__all__ = ["GetIsImageResult", "AwaitableGetIsImageResult", "get_is_image", "get_is_image_output"]

_TOKEN = "ibm:index/getIsImage:getIsImage"


@pulumi.output_type
class GetIsImageResult:
    """Values returned by `ibm_is_image` (`getIsImage`)."""

    access_tags: Optional[Sequence[str]] = pulumi.property("accessTags", default=None)
    allowed_uses: Optional[Sequence["outputs.GetIsImageAllowedUseResult"]] = pulumi.property(
        "allowedUses", default=None
    )
    architecture: Optional[str] = pulumi.property("architecture", default=None)
    catalog_offerings: Optional[Sequence["outputs.GetIsImageCatalogOfferingResult"]] = pulumi.property(
        "catalogOfferings", default=None
    )
    checksum: Optional[str] = pulumi.property("checksum", default=None)
    created_at: Optional[str] = pulumi.property("createdAt", default=None)
    crn: Optional[str] = pulumi.property("crn", default=None)
    deprecation_at: Optional[str] = pulumi.property("deprecationAt", default=None)
    encryption: Optional[str] = pulumi.property("encryption", default=None)
    encryption_key: Optional[str] = pulumi.property("encryptionKey", default=None)
    id: Optional[str] = pulumi.property("id", default=None)
    identifier: Optional[str] = pulumi.property("identifier", default=None)
    name: Optional[str] = pulumi.property("name", default=None)
    obsolescence_at: Optional[str] = pulumi.property("obsolescenceAt", default=None)
    operating_systems: Optional[Sequence[Mapping[str, Any]]] = pulumi.property("operatingSystems", default=None)
    os: Optional[str] = pulumi.property("os", default=None)
    remotes: Optional[Sequence["outputs.GetIsImageRemoteResult"]] = pulumi.property("remotes", default=None)
    resource_groups: Optional[Sequence["outputs.GetIsImageResourceGroupResult"]] = pulumi.property(
        "resourceGroups", default=None
    )
    source_volume: Optional[str] = pulumi.property("sourceVolume", default=None)
    status: Optional[str] = pulumi.property("status", default=None)
    status_reasons: Optional[Sequence["outputs.GetIsImageStatusReasonResult"]] = pulumi.property(
        "statusReasons", default=None
    )
    user_data_format: Optional[str] = pulumi.property("userDataFormat", default=None)
    visibility: Optional[str] = pulumi.property("visibility", default=None)
    zones: Optional[Sequence["outputs.GetIsImageZoneResult"]] = pulumi.property("zones", default=None)


class AwaitableGetIsImageResult(GetIsImageResult):
    def __await__(self) -> Generator[Any, None, GetIsImageResult]:
        if False:
            yield self
        return GetIsImageResult(**self.__dict__)


def get_is_image(
    identifier: Optional[str] = None,
    name: Optional[str] = None,
    visibility: Optional[str] = None,
    opts: Optional[pulumi.InvokeOptions] = None,
) -> AwaitableGetIsImageResult:
    """Invoke `ibm_is_image` (see ibm-provider.md §3)."""
    __args__: dict[str, Any] = {
        "identifier": identifier,
        "name": name,
        "visibility": visibility,
    }
    opts = pulumi.InvokeOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    result = pulumi.runtime.invoke(
        _TOKEN, __args__, opts=opts, typ=GetIsImageResult, package_ref=_utilities.get_package()
    ).value
    return AwaitableGetIsImageResult(**result.__dict__)


def get_is_image_output(
    identifier: Optional[pulumi.Input[Optional[str]]] = None,
    name: Optional[pulumi.Input[Optional[str]]] = None,
    visibility: Optional[pulumi.Input[Optional[str]]] = None,
    opts: Optional[Union[pulumi.InvokeOptions, pulumi.InvokeOutputOptions]] = None,
) -> pulumi.Output[GetIsImageResult]:
    """Output-returning variant of `get_is_image`."""
    __args__: dict[str, Any] = {
        "identifier": identifier,
        "name": name,
        "visibility": visibility,
    }
    opts = pulumi.InvokeOutputOptions.merge(_utilities.get_invoke_opts_defaults(), opts)
    return pulumi.runtime.invoke_output(
        _TOKEN, __args__, opts=opts, typ=GetIsImageResult, package_ref=_utilities.get_package()
    )
