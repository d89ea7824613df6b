"""The program function shared by ``__main__.py``, the tests, the offline preview and sweeps.

Config is read here and nowhere else: ``load()`` turns the stack's config into validated
models and secrets, ``build()`` declares every resource from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_ibm as ibm
from pydantic import ValidationError

from .cluster import GpuCluster, GpuClusterArgs
from .config import (
    CLUSTER_KEY,
    IBM_API_KEY,
    PROJECT,
    SSH_PUBLIC_KEY,
    ClusterConfig,
    describe_validation_error,
)

__all__ = ["ConfigurationError", "Deployment", "StackInputs", "build", "load"]

class ConfigurationError(Exception):
    """Invalid stack configuration; the message names the key and every bad field."""


@dataclass(frozen=True)
class StackInputs:
    """Everything a stack's config says, validated; secrets stay ``Output`` secrets."""

    cluster: ClusterConfig
    ssh_public_key: pulumi.Output[str]
    ibmcloud_api_key: pulumi.Output[str] | None


@dataclass(frozen=True)
class Deployment:
    """What ``build`` declared, for exports and for callers that inspect it."""

    cluster: GpuCluster

    def outputs(self) -> dict[str, Any]:
        plan = self.cluster.plan
        return {
            "nodes": list(plan.nodes),
            "nics": [nic.model_dump() for nic in plan.nics],
            "instanceIds": self.cluster.instance_ids,
            "vpcId": self.cluster.vpc_id,
            "clusterNetworkId": self.cluster.cluster_network_id,
        }


def load(config: pulumi.Config | None = None) -> StackInputs:
    config = config or pulumi.Config(PROJECT)
    try:
        cluster = ClusterConfig.model_validate(config.require_object(CLUSTER_KEY))
    except ValidationError as error:
        raise ConfigurationError("\n".join(describe_validation_error(error))) from None
    return StackInputs(
        cluster=cluster,
        ssh_public_key=config.require_secret(SSH_PUBLIC_KEY),
        ibmcloud_api_key=config.get_secret(IBM_API_KEY),
    )


def build(inputs: StackInputs) -> Deployment:
    cfg = inputs.cluster
    # One explicit provider, built here at the edge: its region always matches the zone.
    provider = ibm.Provider("ibm", region=cfg.region, ibmcloud_api_key=inputs.ibmcloud_api_key)
    cluster = GpuCluster("gpu", GpuClusterArgs(config=cfg, ssh_public_key=inputs.ssh_public_key),
                         opts=pulumi.ResourceOptions(providers=[provider]))
    return Deployment(cluster=cluster)
