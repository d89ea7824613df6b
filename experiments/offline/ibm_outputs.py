"""What the mock engine answers for each IBM resource kind: the provider's composite IDs (the
bare child ID as its own output) and the outputs IBM computes, derived from inputs and names."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from components.compat import SECRET_SIG, SECRET_SIG_KEY
from components.models.catalog import GPUS, PROFILES

__all__ = ["COMPOSITE_IDS", "KIND_OUTPUTS", "digest", "ibm_id"]


def digest(*parts: str, length: int = 32) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:length]


def ibm_id(kind: str, name: str, *identity: str) -> str:
    h = digest(kind, name, *identity)
    return f"r014-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _unwrap(value: Any) -> Any:
    if isinstance(value, dict) and value.get(SECRET_SIG_KEY) == SECRET_SIG:
        return value.get("value")
    return value


def _instance_outputs(state: dict[str, Any], bare_id: str) -> None:
    profile = PROFILES.get(str(state.get("profile")))
    state.update(status="running", lifecycleState="stable")
    if profile is not None:
        gpu = GPUS[profile.gpu]
        state.update(
            memory=profile.memory_gib,
            bandwidth=profile.bandwidth_gbps * 1000,
            totalNetworkBandwidth=int(profile.network_share_gbps * 1000),
            gpus=[{"count": profile.gpus, "manufacturer": "nvidia", "memory": gpu.memory_gb, "model": gpu.name}],
        )
    nic = state.get("primaryNetworkInterface")
    if isinstance(nic, dict) and not (nic.get("primaryIp") or {}).get("address"):
        # IBM picks the primary address in the subnet: a deterministic host of 10.241.128.0/24 stands for it.
        host = 16 + int(digest(bare_id, "primary-ip", length=4), 16) % 200
        state["primaryNetworkInterface"] = {
            **nic,
            "primaryIp": {"address": f"10.241.128.{host}"},
            "id": digest(bare_id, "eth0", length=12),
        }
    attachment = state.get("primaryNetworkAttachment")
    if isinstance(attachment, dict):
        vni = attachment.get("virtualNetworkInterface") or {}
        address = (vni.get("primaryIp") or {}).get("address")
        state["primaryNetworkAttachment"] = {
            **attachment,
            "id": digest(bare_id, "eth0", length=12),
            "primaryIps": [{"address": address, "id": digest(bare_id, "ip", length=12)}],
        }


COMPOSITE_IDS: dict[str, Callable[[dict[str, Any], str], str]] = {
    # The provider's composite IDs; the bare child ID is a separate output.
    "IsVpcAddressPrefix": lambda s, b: f"{_unwrap(s.get('vpc'))}/{b}",
    "IsClusterNetworkSubnet": lambda s, b: f"{_unwrap(s.get('clusterNetworkId'))}/{b}",
    "IsInstanceNetworkAttachment": lambda s, b: f"{_unwrap(s.get('instance'))}/{b}",
    "IsSecurityGroupRule": lambda s, b: f"{_unwrap(s.get('group'))}.{b}",
    "IsInstanceNetworkInterface": lambda s, b: f"{_unwrap(s.get('instance'))}/{b}",
    "IsInstanceClusterNetworkAttachment": lambda s, b: f"{_unwrap(s.get('instanceId'))}/{b}",
    "IsClusterNetworkSubnetReservedIp": lambda s,
    b: f"{_unwrap(s.get('clusterNetworkId'))}/{_unwrap(s.get('clusterNetworkSubnetId'))}/{b}",
    "IsSubnetReservedIp": lambda s, b: f"{_unwrap(s.get('subnet'))}/{b}",
}

KIND_OUTPUTS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "IsInstance": _instance_outputs,
    "IsVpcAddressPrefix": lambda s, b: s.update(addressPrefix=b, hasSubnets=True),
    "IsClusterNetworkSubnet": lambda s, b: s.update(clusterNetworkSubnetId=b, lifecycleState="stable"),
    "IsInstanceNetworkAttachment": lambda s, b: s.update(networkAttachment=b, type="secondary", portSpeed=32000),
    "IsSecurityGroupRule": lambda s, b: s.update(ruleId=b),
    "IsSubnet": lambda s, b: s.update(status="available"),
    "IsVpc": lambda s, b: s.update(status="available", defaultSecurityGroup=ibm_id("sg", b)),
    "IsClusterNetwork": lambda s, b: s.update(lifecycleState="stable"),
    "IsInstanceNetworkInterface": lambda s, b: s.update(
        networkInterface=b,
        status="available",
        type="secondary",
        portSpeed=16000,
        primaryIp={**(s.get("primaryIp") or {}), "reservedIp": digest(b, "ip", length=12)},
    ),
    "IsClusterNetworkSubnetReservedIp": lambda s, b: s.update(
        clusterNetworkSubnetReservedIpId=b,
        href=f"https://us-east.iaas.cloud.ibm.com/v1/reserved_ips/{b}",
        lifecycleState="stable",
        owner="user",
    ),
    "IsInstanceClusterNetworkAttachment": lambda s, b: s.update(
        instanceClusterNetworkAttachmentId=b, lifecycleState="stable"
    ),
    "IsSubnetReservedIp": lambda s, b: s.update(reservedIp=b, lifecycleState="stable"),
}
