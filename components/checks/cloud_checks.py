"""Cross-field rules of the cloud layout: profile and zone, NIC limits, the hopper-1 cluster network,
the subnet layout.  Run first by ``components.checks.validation``: the address plan needs them to hold."""

from __future__ import annotations

import ipaddress

from pydantic_core import InitErrorDetails

from components.models.config import CLUSTER_RESERVED_IP_QUOTA, IBM_RESERVED_ADDRESSES, ClusterConfig, config_error

__all__ = ["cloud_errors"]


def cloud_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """Every problem of the cloud layout, each reported at the field to change."""
    return _profile_errors(cfg) + _layout_errors(cfg)


def _profile_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    profile, net = cfg.profile, cfg.network
    errors: list[InitErrorDetails] = []
    if not profile.offered_in(cfg.zone):
        where = ", ".join(profile.zones or profile.regions)
        errors.append(
            config_error(("zone",), f"{profile.name} is not offered in {cfg.zone} (offered in: {where})", cfg.zone)
        )
    if net.variant == "pod" and net.nics_per_node != 0:
        errors.append(
            config_error(
                ("network", "nics_per_node"),
                "must be 0 for the pod network: the job uses no secondary NICs",
                net.nics_per_node,
            )
        )
    if net.variant != "pod" and net.nics_per_node < 1:
        errors.append(
            config_error(
                ("network", "nics_per_node"),
                f"the {net.variant} variant needs at least one secondary NIC per node",
                net.nics_per_node,
            )
        )
    if net.variant == "pod" and net.attached_nics:
        errors.append(
            config_error(("network", "attached_nics"), "the pod network attaches no secondary NICs", net.attached_nics)
        )
    if net.uses_cluster_network:
        errors.extend(_cluster_network_errors(cfg))
    elif net.variant == "vnic":
        limit = profile.max_vnics - 1  # the primary network attachment counts against the limit
        if net.secondary_nics > limit:
            errors.append(
                config_error(
                    ("network", "attached_nics" if net.attached_nics is not None else "nics_per_node"),
                    f"{profile.name} allows {profile.max_vnics} network attachments per instance, "
                    f"the primary included: at most {limit} secondary vNICs, not {net.secondary_nics}",
                    net.secondary_nics,
                )
            )
    if net.variant != "pod" and net.nics_per_node > net.secondary_nics:
        errors.append(
            config_error(
                ("network", "nics_per_node"),
                f"the job cannot use {net.nics_per_node} NICs when only {net.secondary_nics} are attached per node",
                net.nics_per_node,
            )
        )
    return errors


def _cluster_network_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    profile, net = cfg.profile, cfg.network
    if not profile.supports_cluster_network:
        return [
            config_error(
                ("network", "variant"),
                f"{net.variant} needs a cluster network, "
                f"which {profile.name} does not support (H100/H200 profiles only)",
                net.variant,
            )
        ]
    errors: list[InitErrorDetails] = []
    if cfg.zone not in profile.cluster_network_zones:
        errors.append(
            config_error(
                ("zone",),
                f"no hopper-1 cluster network for {profile.name} in {cfg.zone} "
                f"(zones: {', '.join(profile.cluster_network_zones)})",
                cfg.zone,
            )
        )
    reserved_ips = cfg.nodes.count * net.secondary_nics
    if reserved_ips > CLUSTER_RESERVED_IP_QUOTA:
        errors.append(
            config_error(
                ("nodes", "count"),
                f"{cfg.nodes.count} nodes x {net.secondary_nics} cluster NICs need {reserved_ips} cluster subnet "
                f"reserved IPs; IBM allows {CLUSTER_RESERVED_IP_QUOTA} per account",
                cfg.nodes.count,
            )
        )
    if net.secondary_nics not in profile.cluster_nic_counts:
        counts = ", ".join(str(n) for n in profile.cluster_nic_counts)
        errors.append(
            config_error(
                ("network", "attached_nics"),
                f"an instance has {counts} cluster network attachments, not {net.secondary_nics}",
                net.secondary_nics,
            )
        )
    return errors


def _layout_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    net = cfg.network
    vpc = ipaddress.IPv4Network(net.vpc_cidr)
    prefix = cfg.subnet_prefix_length
    errors: list[InitErrorDetails] = []
    per_subnet = 2 ** (32 - prefix) - IBM_RESERVED_ADDRESSES
    if cfg.nodes.count > per_subnet:
        errors.append(
            config_error(
                ("network", "subnet_prefix_length"),
                f"a /{prefix} subnet holds {per_subnet} nodes after IBM's 5 reserved addresses, not "
                f"{cfg.nodes.count}: set a larger subnet (a smaller prefix length)",
                prefix,
            )
        )
    vpc_subnets = 1 + (net.secondary_nics if net.variant == "vnic" else 0)
    if prefix < vpc.prefixlen or 2 ** (prefix - vpc.prefixlen) < vpc_subnets:
        errors.append(
            config_error(
                ("network", "vpc_cidr"),
                f"{vpc} cannot hold {vpc_subnets} /{prefix} subnets (management + one per vNIC)",
                net.vpc_cidr,
            )
        )
    if net.uses_cluster_network:
        cluster = ipaddress.IPv4Network(net.cluster_network_cidr)
        if vpc.overlaps(cluster):
            errors.append(
                config_error(
                    ("network", "cluster_network_cidr"),
                    f"{cluster} overlaps the VPC prefix {vpc}: an address could then exist on two interfaces of a node",
                    net.cluster_network_cidr,
                )
            )
        if prefix < cluster.prefixlen or 2 ** (prefix - cluster.prefixlen) < net.secondary_nics:
            errors.append(
                config_error(
                    ("network", "cluster_network_cidr"),
                    f"{cluster} cannot hold {net.secondary_nics} /{prefix} cluster subnets",
                    net.cluster_network_cidr,
                )
            )
    return errors
