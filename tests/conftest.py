"""Shared fixtures: stack files written on the fly, and a clean Pulumi runtime per test."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml
from pulumi.runtime import settings as pulumi_settings

PROJECT_ROOT = Path(__file__).resolve().parents[1]

BASE_CLUSTER: dict[str, Any] = {
    "name_prefix": "t",
    "zone": "us-east-3",
    "nodes": {"profile": "gx3-48x240x2l40s", "count": 2},
    "network": {"variant": "vnic", "nics_per_node": 2},
}


def cluster_config(**changes: Any) -> dict[str, Any]:
    """BASE_CLUSTER with dotted-path changes: ``cluster_config(**{"network.variant": "pod"})``."""
    cfg = copy.deepcopy(BASE_CLUSTER)
    for dotted, value in changes.items():
        *parents, leaf = dotted.split(".")
        node = cfg
        for part in parents:
            node = node.setdefault(part, {})
        if value is ...:
            node.pop(leaf, None)
        else:
            node[leaf] = value
    return cfg


@pytest.fixture
def write_stack(tmp_path: Path) -> Callable[..., Path]:
    """Write ``Pulumi.<name>.yaml`` with the given cluster object (or raw text) and return its path."""

    def _write(name: str = "test", cluster: dict[str, Any] | None = None, *, text: str | None = None,
               extra: dict[str, Any] | None = None) -> Path:
        path = tmp_path / f"Pulumi.{name}.yaml"
        if text is None:
            config: dict[str, Any] = {"gpu-cluster:cluster": cluster if cluster is not None else cluster_config()}
            config.update(extra or {})
            text = yaml.safe_dump({"config": config}, sort_keys=False)
        path.write_text(text)
        return path

    return _write


class RecordingMocks(pulumi.runtime.Mocks):
    """Echoes inputs as outputs and keeps every registration, for components tested alone."""

    def __init__(self) -> None:
        self.registered: list[pulumi.runtime.MockResourceArgs] = []

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        self.registered.append(args)
        return f"{args.name}-id", dict(args.inputs)

    def call(self, args: pulumi.runtime.MockCallArgs) -> dict[str, Any]:
        return {}


@pytest.fixture(autouse=True)
def _clean_pulumi_runtime() -> Iterator[None]:
    yield
    pulumi.runtime.set_all_config({}, [])
    pulumi_settings.reset_options()


def validation_problems(raw: dict[str, Any]) -> list[tuple[str, str]]:
    """``(dotted field, message)`` per problem ``validate_cluster`` reports; [] when it passes."""
    from components.checks.validation import ConfigurationError, validate_cluster

    try:
        validate_cluster(raw, key="")
    except ConfigurationError as error:
        return [tuple(line.lstrip(".").split(": ", 1)) for line in error.lines]  # type: ignore[misc]
    return []


@pytest.fixture
def mocks() -> Iterator[RecordingMocks]:
    """The one mock engine of component tests: records every registration, reset afterwards."""
    recording = RecordingMocks()
    pulumi.runtime.set_mocks(recording, project="gpu-cluster", stack="test", preview=False)
    yield recording
    pulumi.runtime.settings.reset_options()
