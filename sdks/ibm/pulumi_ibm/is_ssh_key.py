# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Sequence, overload

import pulumi

from . import _utilities

__all__ = ["IsSshKeyArgs", "IsSshKey"]


@pulumi.input_type
class IsSshKeyArgs:
    """Arguments for constructing an `IsSshKey` resource."""

    public_key: pulumi.Input[str] = pulumi.property("publicKey")
    access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("accessTags", default=None)
    is_ssh_key_id: Optional[pulumi.Input[str]] = pulumi.property("isSshKeyId", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = pulumi.property("tags", default=None)
    type: Optional[pulumi.Input[str]] = pulumi.property("type", default=None)


_COMPUTED = (
    "created_at",
    "crn",
    "fingerprint",
    "href",
    "length",
    "resource_controller_url",
    "resource_crn",
    "resource_group_name",
    "resource_name",
)


@pulumi.type_token("ibm:index/isSshKey:IsSshKey")
@_utilities.output_properties
class IsSshKey(pulumi.CustomResource):
    """`ibm_is_ssh_key` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    access_tags: pulumi.Output[Sequence[str]] = _utilities.output("accessTags")
    created_at: pulumi.Output[str] = _utilities.output("createdAt")
    crn: pulumi.Output[str] = _utilities.output("crn")
    fingerprint: pulumi.Output[str] = _utilities.output("fingerprint")
    href: pulumi.Output[str] = _utilities.output("href")
    is_ssh_key_id: pulumi.Output[Optional[str]] = _utilities.output("isSshKeyId")
    length: pulumi.Output[float] = _utilities.output("length")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    public_key: pulumi.Output[str] = _utilities.output("publicKey")
    resource_controller_url: pulumi.Output[str] = _utilities.output("resourceControllerUrl")
    resource_crn: pulumi.Output[str] = _utilities.output("resourceCrn")
    resource_group: pulumi.Output[str] = _utilities.output("resourceGroup")
    resource_group_name: pulumi.Output[str] = _utilities.output("resourceGroupName")
    resource_name: pulumi.Output[str] = _utilities.output("resourceName")
    tags: pulumi.Output[Sequence[str]] = _utilities.output("tags")
    type: pulumi.Output[str] = _utilities.output("type")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        public_key: Optional[pulumi.Input[str]] = None,
        access_tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        is_ssh_key_id: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        tags: Optional[pulumi.Input[Sequence[pulumi.Input[str]]]] = None,
        type: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsSshKeyArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(IsSshKeyArgs, pulumi.ResourceOptions, *args, **kwargs)
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
        opts, props = _utilities.resource_props(IsSshKeyArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.public_key is None:
                raise TypeError("Missing required property 'public_key'")
        super().__init__(
            "ibm:index/isSshKey:IsSshKey", resource_name, props, opts, package_ref=_utilities.get_package()
        )

    @staticmethod
    def get(
        resource_name: str,
        id: pulumi.Input[str],
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> "IsSshKey":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsSshKey(resource_name, opts=opts, __props__=_utilities.empty_props(IsSshKeyArgs, _COMPUTED))
