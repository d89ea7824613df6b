"""Validation and planning, as one straight line that runs once per program run.

1. ``parse_cluster(raw)``: the fields (pydantic), then the cloud layout (``cloud_checks``) and
   the node source (``source_checks``): enough to know what to look up
   (``ClusterConfig.uses_existing_cluster``).  The caller looks the existing cluster up, if any
   (``components.ibm.lookup.discover``; offline, on a simulated cluster).
2. ``plan_cluster(cfg, inventory)``: the looked-up cluster checked against the config
   (``inventory_errors``), the node inventory (``existing_node_errors``), then ONE address plan
   (``components.plan.plan.address_plan``), the checks on it and on the config: the fabric's
   (``crosscheck``, its address rules read that plan) and the job's (``jobcheck``); then the
   plan (``make_plan``), made from that same address plan.  The plan's other parts need the
   fabric checks to hold (a guest interface name for every NIC the job uses), so they come last.

Every problem is a ``ConfigurationError`` line naming the field to change; each step reports all
of its problems at once.  Nothing is cached: a second program run parses and plans again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from components.checks.cloud_checks import cloud_errors
from components.checks.crosscheck import fabric_errors
from components.checks.inventory_checks import inventory_errors
from components.checks.jobcheck import job_errors
from components.checks.source_checks import source_errors
from components.models.config import CLUSTER_KEY, PROJECT, ClusterConfig
from components.models.messages import describe_validation_error
from components.models.workers import ClusterInventory
from components.plan.existing import existing_node_errors
from components.plan.inventory import AddressPlan
from components.plan.plan import Plan, address_plan, make_plan

__all__ = [
    "ConfigurationError",
    "PlannedCluster",
    "address_plan_and_errors",
    "parse_cluster",
    "plan_cluster",
    "validate_cluster",
]

CLUSTER_CONFIG_KEY = f"{PROJECT}:{CLUSTER_KEY}"


class ConfigurationError(Exception):
    """Invalid stack configuration; ``lines`` names every bad field, one problem per line."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


@dataclass(frozen=True)
class PlannedCluster:
    """A stack's config validated and planned once, with the existing cluster it was planned
    against: what a caller that already did both hands the program (``program.load(planned=...)``)."""

    cluster: ClusterConfig
    plan: Plan
    inventory: ClusterInventory | None = None
    """The existing cluster as looked up (``adopt``/``join``), None otherwise."""


def parse_cluster(raw: Mapping[str, Any], key: str = CLUSTER_CONFIG_KEY) -> ClusterConfig:
    """Step 1: the config, its fields, cloud layout and node source checked."""
    try:
        cfg = ClusterConfig.model_validate(raw)
    except ValidationError as error:
        raise ConfigurationError(describe_validation_error(error, key)) from None
    _raise_if_any(cloud_errors(cfg) + source_errors(cfg), key)
    return cfg


def plan_cluster(cfg: ClusterConfig, inventory: ClusterInventory | None = None, key: str = CLUSTER_CONFIG_KEY) -> Plan:
    """Step 2: the plan of a parsed config; a stack that adopts or joins an existing cluster needs
    that cluster's ``inventory`` (the lookup's)."""
    if cfg.uses_existing_cluster:
        if inventory is None:
            raise ValueError("this stack adopts or joins a cluster: plan it with the cluster's inventory")
        _raise_if_any(inventory_errors(cfg, inventory), key)
    addresses, problems = address_plan_and_errors(cfg, inventory)
    _raise_if_any(problems + job_errors(cfg), key)
    assert addresses is not None  # a broken node inventory is a problem above
    return make_plan(cfg, addresses)


def validate_cluster(
    raw: Mapping[str, Any], key: str = CLUSTER_CONFIG_KEY, inventory: ClusterInventory | None = None
) -> tuple[ClusterConfig, Plan]:
    """Both steps, for a caller that has the ``inventory`` already (or needs none)."""
    cfg = parse_cluster(raw, key)
    return cfg, plan_cluster(cfg, inventory, key)


def address_plan_and_errors(
    cfg: ClusterConfig,
    inventory: ClusterInventory | None = None,
) -> tuple[AddressPlan | None, list[InitErrorDetails]]:
    """The one address plan (None when the node inventory is broken) and the node inventory's
    problems, then the fabric's, whose address rules run on that plan (the cloud layout must be
    sound: ``cloud_errors``)."""
    problems = existing_node_errors(cfg)
    addresses = None if problems else address_plan(cfg, inventory)
    return addresses, problems + fabric_errors(cfg, addresses)


def _raise_if_any(errors: list[InitErrorDetails], key: str) -> None:
    if errors:
        error = ValidationError.from_exception_data("ClusterConfig", errors)
        raise ConfigurationError(describe_validation_error(error, key))
