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
from components.models.config import CLUSTER_KEY, PROJECT, ClusterConfig, describe_validation_error
from components.plan.existing import existing_node_errors, plan_from_existing
from components.plan.inventory import plan_addresses
from components.plan.plan import Plan, make_plan

__all__ = ["ConfigurationError", "fabric_and_inventory_errors", "validate_cluster"]

CLUSTER_CONFIG_KEY = f"{PROJECT}:{CLUSTER_KEY}"


class ConfigurationError(Exception):
    """Invalid stack configuration; ``lines`` names every bad field, one problem per line."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def validate_cluster(raw: Mapping[str, Any], key: str = CLUSTER_CONFIG_KEY) -> tuple[ClusterConfig, Plan]:
    """The validated config and its plan; ``ConfigurationError`` lists every problem."""
    try:
        text = json.dumps(raw, sort_keys=True)
    except (TypeError, ValueError):  # not JSON-shaped: let pydantic name the field
        return _validate(raw, key)
    return _validate_text(text, key)


@lru_cache(maxsize=64)
def _validate_text(text: str, key: str) -> tuple[ClusterConfig, Plan]:
    return _validate(json.loads(text), key)


def _validate(raw: Any, key: str) -> tuple[ClusterConfig, Plan]:
    try:
        cfg = ClusterConfig.model_validate(raw)
    except ValidationError as error:
        raise ConfigurationError(describe_validation_error(error, key)) from None
    _raise_if_any(cloud_errors(cfg), key)
    _raise_if_any(fabric_and_inventory_errors(cfg) + job_errors(cfg), key)
    return cfg, make_plan(cfg)


def fabric_and_inventory_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """The node inventory's problems, then the fabric's, the address checks on the address plan
    when the inventory allows one (the cloud layout must be sound: ``cloud_errors``)."""
    inventory = existing_node_errors(cfg)
    addresses = None if inventory else plan_from_existing(cfg) if cfg.layers == "kubernetes" else plan_addresses(cfg)
    return inventory + fabric_errors(cfg, addresses)


def _raise_if_any(errors: list[InitErrorDetails], key: str) -> None:
    if errors:
        error = ValidationError.from_exception_data("ClusterConfig", errors)
        raise ConfigurationError(describe_validation_error(error, key))
