"""The shared value types of the config models, each defined once."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Annotated, TypeGuard

from pydantic import AfterValidator, Field

__all__ = [
    "Cidr",
    "DnsLabel",
    "DnsSubdomain",
    "InterfaceName",
    "Ipv4",
    "JobName",
    "ResourceName",
    "ipv4_network",
    "is_dns_label",
    "is_dns_subdomain",
]

# Matched whole (``fullmatch``): ``$`` would let a trailing newline through.
_IFNAME = re.compile(r"[A-Za-z0-9_.-]{1,15}")
_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?")
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
# Extended-resource names as the device plugins register them (no prefix here).
_RESOURCE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def is_dns_label(value: object, max_length: int = 63) -> TypeGuard[str]:
    """A Kubernetes DNS-1123 label (namespaces, most object names), byte for byte."""
    return isinstance(value, str) and len(value) <= max_length and _DNS_LABEL.fullmatch(value) is not None


def is_dns_subdomain(value: object) -> TypeGuard[str]:
    """A Kubernetes DNS-1123 subdomain (node, Secret and storage class names), byte for byte."""
    return isinstance(value, str) and len(value) <= 253 and _DNS_SUBDOMAIN.fullmatch(value) is not None


def ipv4_network(value: str) -> str:
    try:
        return str(ipaddress.IPv4Network(value, strict=True))
    except ValueError as exc:
        raise ValueError(f"{value!r} is not an IPv4 network in CIDR form ({exc})") from None


def _ipv4_address(value: str) -> str:
    try:
        return str(ipaddress.IPv4Address(value))
    except ValueError as exc:
        raise ValueError(f"{value!r} is not an IPv4 address ({exc})") from None


def _matching(pattern: re.Pattern[str], what: str) -> Callable[[str], str]:
    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            raise ValueError(f"{value!r} is not a valid {what}")
        return value

    return check


Cidr = Annotated[str, AfterValidator(ipv4_network)]
Ipv4 = Annotated[str, AfterValidator(_ipv4_address)]
InterfaceName = Annotated[str, AfterValidator(_matching(_IFNAME, "Linux interface name (1-15 of A-Z a-z 0-9 _ . -)"))]
DnsLabel = Annotated[str, Field(max_length=63), AfterValidator(_matching(_DNS_LABEL, "DNS label"))]
DnsSubdomain = Annotated[str, Field(max_length=253), AfterValidator(_matching(_DNS_SUBDOMAIN, "DNS subdomain"))]
ResourceName = Annotated[str, Field(max_length=63), AfterValidator(_matching(_RESOURCE_NAME, "resource name"))]
_DNS_1035_LABEL = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?")
JobName = Annotated[
    str,
    Field(min_length=1, max_length=40),
    AfterValidator(
        _matching(_DNS_1035_LABEL, "job name (lowercase letters, digits and hyphens, starting with a letter)")
    ),
]
"""A job name: the operator names Services after it (a DNS-1035 label, so a leading letter), and
pods add ``-worker-<n>`` and the benchmark ``-nccl-bench``, so 40 characters leave room."""
