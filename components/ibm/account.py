"""What every IBM resource of a stack shares, decided once: its tags and its resource group."""

from __future__ import annotations

import pulumi
import pulumi_ibm as ibm

from components.models.config import ClusterConfig

__all__ = ["lookup_resource_group_id", "resource_tags"]


def resource_tags(cfg: ClusterConfig) -> list[str]:
    """``gpu-cluster`` and the stack's ``tags``, sorted so that reordering them changes nothing."""
    return sorted({"gpu-cluster", *cfg.tags})


def lookup_resource_group_id(parent: pulumi.Resource, cfg: ClusterConfig) -> pulumi.Output[str] | None:
    """The ID of ``resource_group`` (looked up by name), or None for the account's default group."""
    if not cfg.resource_group:
        return None
    group_id: pulumi.Output[str] = ibm.get_resource_group_output(
        name=cfg.resource_group, opts=pulumi.InvokeOutputOptions(parent=parent)
    ).id
    return group_id
