"""Fixtures of the node-operation tests: the recorded resources of an adopting sriov stack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from experiments.offline.engine import RecordedResource
from experiments.stacks.stackfile import load_stack
from experiments.state.preview import run_preview

from ...conftest import cluster_config
from .standins import World

H100 = "gx3d-160x1792x8h100"


def sriov_cluster(count: int = 3, **changes: Any) -> dict[str, Any]:
    return cluster_config(
        **{
            "nodes.profile": H100,
            "nodes.count": count,
            "network.variant": "sriov",
            "network.nics_per_node": 1,
            **changes,
        }
    )


@pytest.fixture
def records(write_stack: Any) -> Callable[..., list[RecordedResource]]:
    """The recorded resources of ``sriov_cluster(count, **changes)``, always as stack ``ops`` (same URNs)."""

    def _records(count: int = 3, **changes: Any) -> list[RecordedResource]:
        path = write_stack("ops", sriov_cluster(count, **changes))
        return run_preview(load_stack(str(path))).result.resources

    return _records


def world_of(*record_sets: list[RecordedResource]) -> World:
    """A cluster holding every worker the recorded stacks adopt."""
    workers = {
        r.inputs["instance_id"]: r.inputs["node"]
        for records in record_sets
        for r in records
        if r.type.endswith(":WorkerOutOfService")
    }
    return World(workers)
