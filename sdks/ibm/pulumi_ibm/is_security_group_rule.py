# coding=utf-8
# Hand-written stand-in for the module `pulumi package add terraform-provider ibm-cloud/ibm 2.5.0`
# generates (see README.md). Names and wire names follow ibm-provider.md §1/§2.

from typing import Any, Optional, Union, overload

import pulumi

from . import _utilities, outputs
from ._inputs import (
    IsSecurityGroupRuleIcmpArgs,
    IsSecurityGroupRuleIcmpArgsDict,
    IsSecurityGroupRuleTcpArgs,
    IsSecurityGroupRuleTcpArgsDict,
    IsSecurityGroupRuleUdpArgs,
    IsSecurityGroupRuleUdpArgsDict,
)

__all__ = ["IsSecurityGroupRuleInitArgs", "IsSecurityGroupRule"]


@pulumi.input_type
class IsSecurityGroupRuleInitArgs:
    """Arguments for constructing an `IsSecurityGroupRule` resource."""

    direction: pulumi.Input[str] = pulumi.property("direction")
    group: pulumi.Input[str] = pulumi.property("group")
    code: Optional[pulumi.Input[float]] = pulumi.property("code", default=None)
    icmp: Optional[pulumi.Input["IsSecurityGroupRuleIcmpArgs"]] = pulumi.property("icmp", default=None)
    ip_version: Optional[pulumi.Input[str]] = pulumi.property("ipVersion", default=None)
    is_security_group_rule_id: Optional[pulumi.Input[str]] = pulumi.property("isSecurityGroupRuleId", default=None)
    local: Optional[pulumi.Input[str]] = pulumi.property("local", default=None)
    name: Optional[pulumi.Input[str]] = pulumi.property("name", default=None)
    port_max: Optional[pulumi.Input[float]] = pulumi.property("portMax", default=None)
    port_min: Optional[pulumi.Input[float]] = pulumi.property("portMin", default=None)
    protocol: Optional[pulumi.Input[str]] = pulumi.property("protocol", default=None)
    remote: Optional[pulumi.Input[str]] = pulumi.property("remote", default=None)
    tcp: Optional[pulumi.Input["IsSecurityGroupRuleTcpArgs"]] = pulumi.property("tcp", default=None)
    type: Optional[pulumi.Input[float]] = pulumi.property("type", default=None)
    udp: Optional[pulumi.Input["IsSecurityGroupRuleUdpArgs"]] = pulumi.property("udp", default=None)


_COMPUTED = ("related_crn", "rule_id")


@pulumi.type_token("ibm:index/isSecurityGroupRule:IsSecurityGroupRule")
@_utilities.output_properties
class IsSecurityGroupRule(pulumi.CustomResource):
    """`ibm_is_security_group_rule` from terraform-provider-ibm 2.5.0 (see ibm-provider.md §2)."""

    code: pulumi.Output[float] = _utilities.output("code")
    direction: pulumi.Output[str] = _utilities.output("direction")
    group: pulumi.Output[str] = _utilities.output("group")
    icmp: pulumi.Output["outputs.IsSecurityGroupRuleIcmp"] = _utilities.output("icmp")
    ip_version: pulumi.Output[Optional[str]] = _utilities.output("ipVersion")
    is_security_group_rule_id: pulumi.Output[Optional[str]] = _utilities.output("isSecurityGroupRuleId")
    local: pulumi.Output[str] = _utilities.output("local")
    name: pulumi.Output[Optional[str]] = _utilities.output("name")
    port_max: pulumi.Output[float] = _utilities.output("portMax")
    port_min: pulumi.Output[float] = _utilities.output("portMin")
    protocol: pulumi.Output[str] = _utilities.output("protocol")
    related_crn: pulumi.Output[str] = _utilities.output("relatedCrn")
    remote: pulumi.Output[str] = _utilities.output("remote")
    rule_id: pulumi.Output[str] = _utilities.output("ruleId")
    tcp: pulumi.Output["outputs.IsSecurityGroupRuleTcp"] = _utilities.output("tcp")
    type: pulumi.Output[float] = _utilities.output("type")
    udp: pulumi.Output["outputs.IsSecurityGroupRuleUdp"] = _utilities.output("udp")

    @overload
    def __init__(
        __self__,
        resource_name: str,
        opts: Optional[pulumi.ResourceOptions] = None,
        *,
        direction: Optional[pulumi.Input[str]] = None,
        group: Optional[pulumi.Input[str]] = None,
        code: Optional[pulumi.Input[float]] = None,
        icmp: Optional[pulumi.Input[Union["IsSecurityGroupRuleIcmpArgs", "IsSecurityGroupRuleIcmpArgsDict"]]] = None,
        ip_version: Optional[pulumi.Input[str]] = None,
        is_security_group_rule_id: Optional[pulumi.Input[str]] = None,
        local: Optional[pulumi.Input[str]] = None,
        name: Optional[pulumi.Input[str]] = None,
        port_max: Optional[pulumi.Input[float]] = None,
        port_min: Optional[pulumi.Input[float]] = None,
        protocol: Optional[pulumi.Input[str]] = None,
        remote: Optional[pulumi.Input[str]] = None,
        tcp: Optional[pulumi.Input[Union["IsSecurityGroupRuleTcpArgs", "IsSecurityGroupRuleTcpArgsDict"]]] = None,
        type: Optional[pulumi.Input[float]] = None,
        udp: Optional[pulumi.Input[Union["IsSecurityGroupRuleUdpArgs", "IsSecurityGroupRuleUdpArgsDict"]]] = None,
    ) -> None: ...

    @overload
    def __init__(
        __self__,
        resource_name: str,
        args: Optional[IsSecurityGroupRuleInitArgs] = None,
        opts: Optional[pulumi.ResourceOptions] = None,
    ) -> None: ...

    def __init__(__self__, resource_name: str, *args: Any, **kwargs: Any) -> None:
        resource_args, opts = _utilities.get_resource_args_opts(
            IsSecurityGroupRuleInitArgs, pulumi.ResourceOptions, *args, **kwargs
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
        opts, props = _utilities.resource_props(IsSecurityGroupRuleInitArgs, opts, __props__, kwargs, _COMPUTED)
        if opts.id is None and not opts.urn:
            if props.direction is None:
                raise TypeError("Missing required property 'direction'")
            if props.group is None:
                raise TypeError("Missing required property 'group'")
        super().__init__(
            "ibm:index/isSecurityGroupRule:IsSecurityGroupRule",
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
    ) -> "IsSecurityGroupRule":
        """Adopt an existing resource by its provider ID (composite for some resources, see README)."""
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(id=id))
        return IsSecurityGroupRule(
            resource_name, opts=opts, __props__=_utilities.empty_props(IsSecurityGroupRuleInitArgs, _COMPUTED)
        )
