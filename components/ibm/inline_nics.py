"""Cluster network attachments given inline to an instance at creation (no stop needed then)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import pulumi_ibm as ibm

from components.args import OutputRef
from components.plan.inventory import Nic

__all__ = ["inline_cluster_attachments"]


def inline_cluster_attachments(
    nics: Sequence[Nic],
    subnet_ids: Sequence[OutputRef],
    *,
    attachment_name: Callable[[int], str],
    interface_name: Callable[[int], str],
) -> list[ibm.IsInstanceClusterNetworkAttachmentArgs] | None:
    """One attachment per cluster NIC on its subnet with its planned address (None when there are none)."""
    return [
        ibm.IsInstanceClusterNetworkAttachmentArgs(
            name=attachment_name(nic.index),
            cluster_network_interface=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceArgs(
                name=interface_name(nic.index),
                subnet=ibm.IsInstanceClusterNetworkAttachmentClusterNetworkInterfaceSubnetArgs(id=subnet_id),
                # The SDK's type for this block is the standalone attachment's (all four fields
                # required); the instance schema takes the address alone.
                primary_ip=cast(Any, {"address": nic.ip}),
            ),
        )
        for nic, subnet_id in zip(nics, subnet_ids, strict=True)
    ] or None
