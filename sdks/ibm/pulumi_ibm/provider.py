# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Config keys follow ibm-provider.md §1 ("Provider configuration").

from typing import Any, Optional, overload

import pulumi

from . import _utilities

__all__ = ["ProviderArgs", "Provider"]

# Credentials never go into state in clear text.
_SECRET_INPUTS = ("ibmcloud_api_key", "iam_token", "iam_refresh_token")
# The engine passes provider config as strings; generated SDKs JSON-encode non-string values.
_JSON_INPUTS = ("ibmcloud_timeout", "max_retries")


@pulumi.input_type
class ProviderArgs:
    """Configuration of the `ibm` provider (also settable as `ibm:<camelName>` stack config)."""

    iam_profile_id: Optional[pulumi.Input[str]] = pulumi.property("iamProfileId", default=None)
    iam_refresh_token: Optional[pulumi.Input[str]] = pulumi.property("iamRefreshToken", default=None)
    iam_token: Optional[pulumi.Input[str]] = pulumi.property("iamToken", default=None)
    ibmcloud_api_key: Optional[pulumi.Input[str]] = pulumi.property("ibmcloudApiKey", default=None)
    ibmcloud_timeout: Optional[pulumi.Input[float]] = pulumi.property("ibmcloudTimeout", default=None)
    max_retries: Optional[pulumi.Input[float]] = pulumi.property("maxRetries", default=None)
    private_endpoint_type: Optional[pulumi.Input[str]] = pulumi.property("privateEndpointType", default=None)
    region: Optional[pulumi.Input[str]] = pulumi.property("region", default=None)
    resource_group: Optional[pulumi.Input[str]] = pulumi.property("resourceGroup", default=None)
    visibility: Optional[pulumi.Input[str]] = pulumi.property("visibility", default=None)
    zone: Optional[pulumi.Input[str]] = pulumi.property("zone", default=None)


@pulumi.type_token("pulumi:providers:ibm")
@_utilities.output_properties
class Provider(pulumi.ProviderResource):
    """Explicit `ibm` provider instance (token `pulumi:providers:ibm`)."""

    iam_profile_id: pulumi.Output[Optional[str]] = _utilities.output("iamProfileId")
    iam_refresh_token: pulumi.Output[Optional[str]] = _utilities.output("iamRefreshToken")
    iam_token: pulumi.Output[Optional[str]] = _utilities.output("iamToken")
    ibmcloud_api_key: pulumi.Output[Optional[str]] = _utilities.output("ibmcloudApiKey")
    private_endpoint_type: pulumi.Output[Optional[str]] = _utilities.output("privateEndpointType")
    region: pulumi.Output[Optional[str]] = _utilities.output("region")
    resource_group: pulumi.Output[Optional[str]] = _utilities.output("resourceGroup")
    visibility: pulumi.Output[Optional[str]] = _utilities.output("visibility")
    zone: pulumi.Output[Optional[str]] = _utilities.output("zone")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        iam_profile_id: Optional[pulumi.Input[str]] = None,
        iam_refresh_token: Optional[pulumi.Input[str]] = None,
        iam_token: Optional[pulumi.Input[str]] = None,
        ibmcloud_api_key: Optional[pulumi.Input[str]] = None,
        ibmcloud_timeout: Optional[pulumi.Input[float]] = None,
        max_retries: Optional[pulumi.Input[float]] = None,
        private_endpoint_type: Optional[pulumi.Input[str]] = None,
        region: Optional[pulumi.Input[str]] = None,
        resource_group: Optional[pulumi.Input[str]] = None,
        visibility: Optional[pulumi.Input[str]] = None,
        zone: Optional[pulumi.Input[str]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[ProviderArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(ProviderArgs, pulumi.ResourceOptions, *args, **kwargs)
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
        opts, props = _utilities.resource_props(ProviderArgs, opts, __props__, kwargs, ())
        for name in _SECRET_INPUTS:
            value = props.__dict__.get(name)
            if value is not None:
                props.__dict__[name] = pulumi.Output.secret(value)
        for name in _JSON_INPUTS:
            value = props.__dict__.get(name)
            if value is not None:
                props.__dict__[name] = pulumi.Output.from_input(value).apply(pulumi.runtime.to_json)
        secret_opts = pulumi.ResourceOptions(
            additional_secret_outputs=["ibmcloudApiKey", "iamToken", "iamRefreshToken"]
        )
        opts = pulumi.ResourceOptions.merge(opts, secret_opts)
        super().__init__(_utilities.PACKAGE_NAME, resource_name, props, opts, package_ref=_utilities.get_package())
