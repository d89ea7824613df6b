"""The nodes' SSH key: an existing one by name, or one created from the stack's public key."""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_ibm as ibm

from components.args import OutputRef

__all__ = ["ssh_key_id"]


def ssh_key_id(
    parent: pulumi.Resource,
    name: str,
    *,
    ibm_name_prefix: str,
    existing_key: str | None,
    public_key: OutputRef,
    resource_group_id: OutputRef | None,
    tags: Sequence[str],
) -> pulumi.Output[str]:
    """The key's ID: ``existing_key`` looked up, else a key ``<prefix>-key`` created under ``parent``."""
    key_id: pulumi.Output[str]
    if existing_key is not None:
        key_id = ibm.get_is_ssh_key_output(
            name=existing_key,
            resource_group=resource_group_id,
            opts=pulumi.InvokeOutputOptions(parent=parent),
        ).id
        return key_id
    key_id = ibm.IsSshKey(
        f"{name}-ssh-key",
        name=f"{ibm_name_prefix}-key",
        public_key=public_key,
        resource_group=resource_group_id,
        tags=list(tags),
        # Rotating the key replaces it under the same name: delete the old one first.
        opts=pulumi.ResourceOptions(parent=parent, delete_before_replace=True),
    ).id
    return key_id
