"""The cloud lookups of a real Pulumi run: ``pulumi_ibm``'s data sources behind ``CloudLookups``.

``SdkLookups`` runs them as synchronous invokes through the stack's IBM provider, so that resources
fan out from plain values and never from inside an ``apply``; ``components.checks.discovery.discover``
turns their answers into the ``ClusterInventory`` the plan is made from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pulumi
import pulumi_ibm as ibm

from components.checks.discovery import LookupFailed

__all__ = ["SdkLookups"]


def _snake(key: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower()


def plain(value: Any) -> Any:
    """A nested result as plain data with snake_case keys, whether the SDK gave mappings with wire
    (camelCase) keys, as the stand-in does, or typed dict-like objects, as the generated one does."""
    if isinstance(value, Mapping):
        return {_snake(str(k)): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class SdkLookups:
    """``CloudLookups`` through ``pulumi_ibm``'s data sources and the stack's IBM provider."""

    def __init__(self, provider: pulumi.ProviderResource) -> None:
        self._opts = pulumi.InvokeOptions(provider=provider)

    def _call(self, what: str, fn: Any, **args: Any) -> Any:
        try:
            return fn(**args, opts=self._opts)
        except Exception as error:  # noqa: BLE001 - the provider reports "not found" as a failed invoke
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise LookupFailed(f"{what}: {first}") from None

    def vpc(self, name: str) -> Mapping[str, Any]:
        found = self._call(f"VPC {name}", ibm.get_is_vpc, name=name)
        return {"id": found.id, "name": found.name}

    def subnet(self, name: str, vpc_id: str) -> Mapping[str, Any]:
        found = self._call(f"subnet {name}", ibm.get_is_subnet, name=name, vpc=vpc_id)
        return {"id": found.id, "name": found.name, "ipv4_cidr_block": found.ipv4_cidr_block, "zone": found.zone}

    def security_group(self, name: str, vpc_id: str) -> Mapping[str, Any]:
        found = self._call(f"security group {name}", ibm.get_is_security_group, name=name, vpc=vpc_id)
        return {"id": found.id, "name": found.name}

    def image(self, name: str) -> Mapping[str, Any]:
        found = self._call(f"image {name}", ibm.get_is_image, name=name)
        return {"id": found.id, "name": found.name}

    def instances(self, vpc_name: str) -> Sequence[Mapping[str, Any]]:
        found = self._call(f"instances of VPC {vpc_name}", ibm.get_is_instances, vpc_name=vpc_name)
        instances: list[Mapping[str, Any]] = plain(list(found.instances or []))
        return instances
