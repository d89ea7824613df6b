"""The existing cluster an offline preview imagines: an installer-provisioned OpenShift cluster on
IBM Cloud VPC shaped like the one the stack file describes.

It has the installer's names (VPC ``<infraID>-vpc``, compute subnet, the two worker security
groups, ``<infraID>-rhcos``), three control-plane instances and, for ``adopt``, the GPU workers
the stack selects: the listed ``nodes.names``, or ``nodes.count`` instances of
``nodes.machineset`` with generated suffixes, with the configured profile and zone, running, in
the child-NIC model the machine-api gives every IPI worker (``primary_network_interface`` only).
Everything is derived from names by hashing, so two previews of one stack agree.  It answers
the lookups both directly (``CloudLookups``, for planning outside a Pulumi run) and as the wire
results of the provider's data sources (for the mock engine), so both paths parse the same data.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import ipaddress
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from components.checks.discovery import LookupFailed, discover
from components.checks.validation import PlannedCluster, parse_cluster, plan_cluster
from components.models.catalog import GPUS, PROFILES
from components.models.config import ClusterConfig
from components.plan.plan import Plan

__all__ = ["SimulatedCluster", "plan_offline", "planned_offline", "simulated_cluster_for"]

SIMULATED_INFRA_ID = "ocp4-sim0x"
"""Infra ID of a cluster named only by overrides (``openshift.vpc`` and friends)."""
_REGION_SECOND_OCTET = {
    "us-south": 240,
    "us-east": 241,
    "eu-gb": 242,
    "eu-de": 243,
    "jp-tok": 244,
    "au-syd": 245,
    "jp-osa": 246,
    "ca-tor": 249,
    "br-sao": 250,
    "eu-es": 251,
    "in-che": 252,
}
"""IBM's default address prefixes are ``10.<octet>.<64 * (zone - 1)>.0/18`` per region; IPI compute
subnets come out of them."""


def _digest(*parts: str, length: int = 12) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:length]


def _suffix(*parts: str) -> str:
    """A machine-api style random suffix: five lowercase letters and digits, first a letter."""
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    number = int(_digest(*parts), 16)
    chars = [alphabet[(number >> (5 * i)) % len(alphabet)] for i in range(5)]
    return ("k" + "".join(chars[1:])) if chars[0].isdigit() else "".join(chars)


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


def _wire(value: Any) -> Any:
    """Plain data with the provider's wire (camelCase) keys."""
    if isinstance(value, Mapping):
        return {_camel(str(k)): _wire(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_wire(v) for v in value]
    return value


@dataclass(frozen=True)
class SimulatedCluster:
    infra_id: str
    region: str
    zone: str
    vpc_name: str
    compute_subnet_name: str
    compute_subnet_cidr: str
    security_groups: tuple[str, ...]
    image_name: str
    instance_records: tuple[dict[str, Any], ...] = field(default=())

    @property
    def vpc_id(self) -> str:
        return f"r014-{_digest('vpc', self.vpc_name)}"

    # ---- CloudLookups -------------------------------------------------------------------------
    def vpc(self, name: str) -> Mapping[str, Any]:
        if name != self.vpc_name:
            raise LookupFailed(f"No VPC found with name {name}")
        return {"id": self.vpc_id, "name": name, "status": "available"}

    def subnet(self, name: str, vpc_id: str) -> Mapping[str, Any]:
        if name != self.compute_subnet_name or vpc_id != self.vpc_id:
            raise LookupFailed(f"No subnet found with name {name}")
        return {
            "id": f"0757-{_digest('subnet', name)}",
            "name": name,
            "ipv4_cidr_block": self.compute_subnet_cidr,
            "zone": self.zone,
            "vpc": vpc_id,
            "vpc_name": self.vpc_name,
            "status": "available",
        }

    def security_group(self, name: str, vpc_id: str) -> Mapping[str, Any]:
        if name not in self.security_groups or vpc_id != self.vpc_id:
            raise LookupFailed(f"No security group found with name {name}")
        return {"id": f"r014-{_digest('sg', name)}", "name": name, "vpc": vpc_id}

    def image(self, name: str) -> Mapping[str, Any]:
        if name != self.image_name:
            raise LookupFailed(f"No image found with name {name}")
        return {"id": f"r014-{_digest('image', name)}", "name": name, "status": "available", "visibility": "private"}

    def instances(self, vpc_name: str) -> Sequence[Mapping[str, Any]]:
        if vpc_name != self.vpc_name:
            raise LookupFailed(f"No VPC found with name {vpc_name}")
        return list(self.instance_records)

    # ---- the provider's data sources, as the mock engine answers them ----------------------------
    def answer(self, kind: str, args: Mapping[str, Any]) -> dict[str, Any] | None:
        """The wire result of data source ``kind`` (e.g. ``getIsVpc``), or None if it is not one of the
        cluster's.  A lookup that finds nothing raises, as the provider's does."""
        name = str(args.get("name") or "")
        if kind == "getIsVpc":
            return dict(_wire(self.vpc(name)))
        if kind == "getIsSubnet":
            return dict(_wire(self.subnet(name, str(args.get("vpc")))))
        if kind == "getIsSecurityGroup":
            return dict(_wire(self.security_group(name, str(args.get("vpc")))))
        if kind == "getIsImage" and name == self.image_name:
            return dict(_wire(self.image(name)))
        if kind == "getIsInstances":
            return {"instances": _wire(self.instances(str(args.get("vpcName")))), "vpcName": args.get("vpcName")}
        return None

    def worker_user_data(self) -> str:
        """The ``userData`` of ``openshift-machine-api/worker-user-data``: the pointer ignition, base64."""
        pointer = {
            "ignition": {
                "version": "3.2.0",
                "config": {"merge": [{"source": f"https://api-int.{self.infra_id}.example.com:22623/config/worker"}]},
            }
        }
        return base64.b64encode(json.dumps(pointer).encode()).decode()


def _instance(cluster_id: tuple[str, str, str], name: str, profile: str, ip: str, index: int) -> dict[str, Any]:
    vpc_id, zone, subnet_id = cluster_id
    spec = PROFILES.get(profile)
    gpus = (
        []
        if spec is None
        else [
            {
                "count": spec.gpus,
                "manufacturer": "nvidia",
                "memory": GPUS[spec.gpu].memory_gb,
                "model": GPUS[spec.gpu].name,
            }
        ]
    )
    instance_id = f"0757_{_digest('instance', name, length=8)}-{_digest('instance-id', name, length=24)}"
    return {
        "id": instance_id,
        "name": name,
        "profile": profile,
        "zone": zone,
        "status": "running",
        "lifecycle_state": "stable",
        "vpc": vpc_id,
        "gpus": gpus,
        "primary_network_interfaces": [
            {
                "id": f"0757-{_digest('nic', name)}",
                "name": "eth0",
                "subnet": subnet_id,
                "port_speed": 16000,
                "primary_ipv4_address": ip,
                "primary_ips": [{"address": ip, "name": f"{name}-ip{index}"}],
            }
        ],
        "network_interfaces": [],
        "primary_network_attachments": [],
        "network_attachments": [],
        "cluster_network_attachments": [],
        "cluster_networks": [],
    }


def simulated_cluster_for(cfg: ClusterConfig) -> SimulatedCluster:
    """The cluster that ``cfg`` adopts or joins, as the offline preview imagines it."""
    ocp = cfg.openshift
    infra = ocp.infra_id or SIMULATED_INFRA_ID
    region, zone_number = cfg.zone.rsplit("-", 1)
    octet = _REGION_SECOND_OCTET.get(region, 254)
    compute = ipaddress.IPv4Network(f"10.{octet}.{64 * (int(zone_number) - 1)}.0/24")
    cluster = SimulatedCluster(
        infra_id=infra,
        region=region,
        zone=cfg.zone,
        vpc_name=str(ocp.vpc_name() or f"{infra}-vpc"),
        compute_subnet_name=str(ocp.compute_subnet_name(cfg.zone)),
        compute_subnet_cidr=str(compute),
        security_groups=tuple(ocp.security_group_names() or ()),
        image_name=str(ocp.image_name() or f"{infra}-rhcos"),
    )
    subnet_id = str(cluster.subnet(cluster.compute_subnet_name, cluster.vpc_id)["id"])
    where = (cluster.vpc_id, cfg.zone, subnet_id)
    names = [f"{infra}-master-{i}" for i in range(3)]
    profiles = ["bx2-8x32"] * 3
    if cfg.nodes.source == "adopt":
        machineset = cfg.nodes.machineset
        workers = cfg.nodes.names or [f"{machineset}-{_suffix(infra, str(i))}" for i in range(cfg.nodes.count)]
        names += workers
        profiles += [cfg.nodes.profile] * len(workers)
    first = int(compute.network_address) + 4  # IBM keeps the first four addresses of every subnet
    instances = tuple(
        _instance(where, name, profile, str(ipaddress.IPv4Address(first + i)), i)
        for i, (name, profile) in enumerate(zip(names, profiles, strict=True))
    )
    return dataclasses.replace(cluster, instance_records=instances)


def planned_offline(
    raw: Mapping[str, Any],
    key: str = "gpu-cluster:cluster",
) -> tuple[PlannedCluster, SimulatedCluster | None]:
    """Validation and planning outside a Pulumi run, once: parse, look up (a stack that adopts or joins
    a cluster looks up the simulated one, which then answers the mock engine's lookups too), plan."""
    cfg = parse_cluster(raw, key)
    simulated = simulated_cluster_for(cfg) if cfg.uses_existing_cluster else None
    inventory = discover(cfg, simulated) if simulated is not None else None
    return PlannedCluster(cluster=cfg, plan=plan_cluster(cfg, inventory, key), inventory=inventory), simulated


def plan_offline(raw: Mapping[str, Any], key: str = "gpu-cluster:cluster") -> tuple[ClusterConfig, Plan]:
    """The config and plan of ``planned_offline``."""
    planned, _ = planned_offline(raw, key)
    return planned.cluster, planned.plan
