"""Validation, in one place and once: the config's fields, then every rule across fields and
layers, on the config and on its plan.

``validate_cluster(raw)`` returns the ``ClusterConfig`` and its ``Plan`` or raises
``ConfigurationError`` with one line per problem, each naming the field to change.  The order
follows what each rule needs: the fields (pydantic), the cloud layout (``cloud_checks``: the
address plan is only computed on a sound one), the fabric (``crosscheck``, with the address
plan), then the job (``jobcheck``).  The stack file loader and the Pulumi program both call it;
the result is cached per config text, so a preview validates and plans each stack once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from components.checks.cloud_checks import cloud_errors
from components.checks.crosscheck import fabric_errors
from components.checks.jobcheck import job_errors
from components.checks.source_checks import inventory_errors, source_errors
from components.models.config import CLUSTER_KEY, PROJECT, ClusterConfig
from components.models.messages import describe_validation_error
from components.models.workers import ClusterInventory
from components.plan.existing import existing_node_errors, plan_from_existing
from components.plan.inventory import plan_addresses
from components.plan.plan import Plan, make_plan

__all__ = ["ConfigurationError", "fabric_and_inventory_errors", "parse_cluster", "validate_cluster"]

CLUSTER_CONFIG_KEY = f"{PROJECT}:{CLUSTER_KEY}"


class ConfigurationError(Exception):
    """Invalid stack configuration; ``lines`` names every bad field, one problem per line."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def parse_cluster(raw: Mapping[str, Any], key: str = CLUSTER_CONFIG_KEY) -> ClusterConfig:
    """The config, its fields and cloud layout checked: enough to know what to look up
    (``ClusterConfig.uses_existing_cluster``) before ``validate_cluster`` plans it."""
    text = _text(raw)
    return _checked(text, key) if text else _parse(raw, key)


def validate_cluster(raw: Mapping[str, Any], key: str = CLUSTER_CONFIG_KEY,
                     inventory: ClusterInventory | None = None) -> tuple[ClusterConfig, Plan]:
    """The validated config and its plan; ``ConfigurationError`` lists every problem.  A stack
    that adopts or joins an existing cluster needs that cluster's ``inventory`` (the lookup's)."""
    text = _text(raw)
    if not text:
        cfg = _parse(raw, key)
        return _planned(cfg, key, inventory)
    return _validate_text(text, key, inventory)


def _text(raw: Any) -> str:
    try:
        return json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError):  # not JSON-shaped: let pydantic name the field
        return ""


@lru_cache(maxsize=64)
def _checked(text: str, key: str) -> ClusterConfig:
    return _parse(json.loads(text), key)


@lru_cache(maxsize=64)
def _validate_text(text: str, key: str, inventory: ClusterInventory | None) -> tuple[ClusterConfig, Plan]:
    return _planned(_checked(text, key), key, inventory)


def _parse(raw: Any, key: str) -> ClusterConfig:
    try:
        cfg = ClusterConfig.model_validate(raw)
    except ValidationError as error:
        raise ConfigurationError(describe_validation_error(error, key)) from None
    _raise_if_any(cloud_errors(cfg) + source_errors(cfg), key)
    return cfg


def _planned(cfg: ClusterConfig, key: str, inventory: ClusterInventory | None) -> tuple[ClusterConfig, Plan]:
    if cfg.uses_existing_cluster:
        if inventory is None:
            raise ValueError("this stack adopts or joins a cluster: plan it with the cluster's inventory")
        _raise_if_any(inventory_errors(cfg, inventory), key)
    _raise_if_any(fabric_and_inventory_errors(cfg, inventory) + job_errors(cfg), key)
    return cfg, make_plan(cfg, inventory)


def fabric_and_inventory_errors(cfg: ClusterConfig,
                                inventory: ClusterInventory | None = None) -> list[InitErrorDetails]:
    """The node inventory's problems, then the fabric's, the address checks on the address plan
    when the inventory allows one (the cloud layout must be sound: ``cloud_errors``)."""
    problems = existing_node_errors(cfg)
    addresses = None if problems else (
        plan_from_existing(cfg) if cfg.layers == "kubernetes" else plan_addresses(cfg, inventory))
    return problems + fabric_errors(cfg, addresses)


def _raise_if_any(errors: list[InitErrorDetails], key: str) -> None:
    if errors:
        error = ValidationError.from_exception_data("ClusterConfig", errors)
        raise ConfigurationError(describe_validation_error(error, key))
