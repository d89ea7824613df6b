"""Facts about the IBM Cloud GPU instance profiles and zones this project supports.

Figures come from IBM's VPC documentation as summarised in the project's provider
reference (§4): they drive defaults and validation, and the throughput model reads
the bandwidth and GPU figures.  Where IBM's pages disagree (the L40S bandwidth cap
is 48 or 50 Gbps on one page and 96 or 100 on another) we take the profile table's
value, which is also what the published study quotes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CLUSTER_NETWORK_PROFILE",
    "GpuModel",
    "GPUS",
    "InstanceProfile",
    "PROFILES",
    "ProfileName",
    "region_of",
    "vnic_limit_for_vcpus",
]

ProfileName = Literal[
    "gx3-24x120x1l40s",
    "gx3-48x240x2l40s",
    "gx3d-160x1792x8h100",
    "gx3d-160x1792x8h200",
]

CLUSTER_NETWORK_PROFILE = "hopper-1"
"""The only cluster-network profile for H100/H200 (the older ``h100`` profile is deprecated)."""


@dataclass(frozen=True)
class GpuModel:
    name: str
    memory_gb: int
    dense_bf16_tflops: float
    """Vendor peak dense BF16 tensor throughput per GPU (no sparsity)."""


GPUS: dict[str, GpuModel] = {
    "L40S": GpuModel("NVIDIA L40S", 48, 362.0),
    "H100": GpuModel("NVIDIA H100 SXM5", 80, 989.0),
    "H200": GpuModel("NVIDIA H200 SXM5", 141, 989.0),
}


@dataclass(frozen=True)
class InstanceProfile:
    name: str
    family: Literal["l40s", "h100", "h200"]
    gpu: str
    """Key into ``GPUS``."""
    gpus: int
    vcpus: int
    memory_gib: int
    bandwidth_gbps: int
    """Total instance bandwidth cap, split between volumes and network."""
    max_vnics: int
    """Network attachments per instance, the primary one included (5/10/15 by vCPU count)."""
    max_single_nic_gbps: int
    """Gen-3 GPU profiles cap one virtual NIC at 32 Gbps whatever the profile total."""
    cluster_network_zones: tuple[str, ...]
    """Zones where a ``hopper-1`` cluster network can hold this profile; empty = unsupported."""
    cluster_nic_counts: tuple[int, ...]
    """Cluster network attachments an instance may have (IBM requires exactly one of these)."""
    cluster_nic_gbps: int
    """Line rate of one cluster NIC (a ConnectX-7 virtual function)."""
    rdma_hca_prefix: str
    """Kernel name prefix of the cluster NICs' RDMA devices in the guest."""
    worker_flavor: str
    """The same machine as an IKS/ROKS worker flavor (dot notation)."""
    regions: tuple[str, ...]
    """Regions that offer the profile."""
    zones: tuple[str, ...] = ()
    """Zones that offer the profile where IBM lists them per zone; empty = any zone of ``regions``."""

    @property
    def supports_cluster_network(self) -> bool:
        return bool(self.cluster_network_zones)

    def offered_in(self, zone: str) -> bool:
        if self.zones:
            return zone in self.zones
        return region_of(zone) in self.regions

    @property
    def network_share_gbps(self) -> float:
        """Bandwidth left for networking under IBM's default 75 % network / 25 % volume split."""
        return self.bandwidth_gbps * 0.75


def vnic_limit_for_vcpus(vcpus: int) -> int:
    """IBM's network-attachment limit: 2-16 vCPUs -> 5, 17-48 -> 10, 49+ -> 15."""
    if vcpus <= 16:
        return 5
    if vcpus <= 48:
        return 10
    return 15


def region_of(zone: str) -> str:
    """``us-east-3`` -> ``us-east``: IBM zone names are the region plus a zone number."""
    region, _, number = zone.rpartition("-")
    if not region or not number.isdigit():
        raise ValueError(f"{zone!r} is not an IBM Cloud zone name (like 'us-east-3')")
    return region


_L40S_REGIONS = (
    "br-sao",
    "ca-tor",
    "us-south",
    "us-east",
    "eu-de",
    "eu-gb",
    "eu-es",
    "au-syd",
    "jp-tok",
)
_H100_ZONES = (
    "eu-gb-2",
    "au-syd-2",
    "ca-tor-3",
    "eu-es-3",
    "us-east-2",
    "us-east-3",
    "jp-tok-3",
    "br-sao-1",
    "us-south-1",
    "eu-de-2",
)
_H200_ZONES = ("us-east-2", "us-east-3", "ca-tor-3", "eu-de-2", "eu-gb-2", "au-syd-3", "in-che-1")
_HOPPER_ZONES_H100 = ("us-east-3", "eu-de-2")
_HOPPER_ZONES_H200 = ("us-east-3", "eu-de-2", "in-che-1")

PROFILES: dict[str, InstanceProfile] = {
    p.name: p
    for p in (
        InstanceProfile(
            name="gx3-24x120x1l40s",
            family="l40s",
            gpu="L40S",
            gpus=1,
            vcpus=24,
            memory_gib=120,
            bandwidth_gbps=50,
            max_vnics=vnic_limit_for_vcpus(24),
            max_single_nic_gbps=32,
            cluster_network_zones=(),
            cluster_nic_counts=(),
            cluster_nic_gbps=0,
            rdma_hca_prefix="",
            worker_flavor="gx3.24x120.l40s",
            regions=_L40S_REGIONS,
        ),
        InstanceProfile(
            name="gx3-48x240x2l40s",
            family="l40s",
            gpu="L40S",
            gpus=2,
            vcpus=48,
            memory_gib=240,
            bandwidth_gbps=100,
            max_vnics=vnic_limit_for_vcpus(48),
            max_single_nic_gbps=32,
            cluster_network_zones=(),
            cluster_nic_counts=(),
            cluster_nic_gbps=0,
            rdma_hca_prefix="",
            worker_flavor="gx3.48x240.2l40s",
            regions=_L40S_REGIONS,
        ),
        InstanceProfile(
            name="gx3d-160x1792x8h100",
            family="h100",
            gpu="H100",
            gpus=8,
            vcpus=160,
            memory_gib=1792,
            bandwidth_gbps=200,
            max_vnics=vnic_limit_for_vcpus(160),
            max_single_nic_gbps=32,
            cluster_network_zones=_HOPPER_ZONES_H100,
            cluster_nic_counts=(8, 16, 32),
            cluster_nic_gbps=400,
            rdma_hca_prefix="mlx5_",
            worker_flavor="gx3d.160x1792.8h100",
            regions=tuple(sorted({region_of(z) for z in _H100_ZONES})),
            zones=_H100_ZONES,
        ),
        InstanceProfile(
            name="gx3d-160x1792x8h200",
            family="h200",
            gpu="H200",
            gpus=8,
            vcpus=160,
            memory_gib=1792,
            bandwidth_gbps=200,
            max_vnics=vnic_limit_for_vcpus(160),
            max_single_nic_gbps=32,
            cluster_network_zones=_HOPPER_ZONES_H200,
            cluster_nic_counts=(8, 16, 32),
            cluster_nic_gbps=400,
            rdma_hca_prefix="mlx5_",
            worker_flavor="gx3d.160x1792.8h200",
            regions=tuple(sorted({region_of(z) for z in _H200_ZONES})),
            zones=_H200_ZONES,
        ),
    )
}
