"""gpu-cluster's components: one ComponentResource and its frozen Args per module.

The flow is one way: ``config`` (validated fields) → ``validation`` (every cross-field rule,
once) → ``plan`` (every decision, frozen) → the components, which render the part of the plan
they are given → ``program`` (``pulumi_program``: the one program every stack runs).

The public surface is re-exported here and imported on first use, so that a tool needing only
the catalog or the config models does not pay for Pulumi and every component.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "AddressPlan": "inventory",
    "build": "program",
    "ClusterConfig": "config",
    "ClusterNetwork": "clusternet",
    "ClusterNetworkArgs": "clusternet",
    "ConfigurationError": "validation",
    "Deployment": "program",
    "Fabric": "fabric",
    "FabricArgs": "fabric",
    "FabricPlan": "plan",
    "GpuCluster": "cluster",
    "GpuClusterArgs": "cluster",
    "GpuNode": "node",
    "GpuNodeArgs": "node",
    "JobPlan": "plan",
    "load": "program",
    "make_plan": "plan",
    "NcclBenchmark": "benchmark",
    "NcclBenchmarkArgs": "benchmark",
    "Nic": "inventory",
    "Plan": "plan",
    "PodLayout": "pods",
    "PodNetworkWiring": "wiring",
    "pulumi_program": "program",
    "StackInputs": "program",
    "TrainingJob": "training",
    "TrainingJobArgs": "training",
    "validate_cluster": "validation",
    "VpcNetwork": "network",
    "VpcNetworkArgs": "network",
    "WorkloadFiles": "training",
}

__all__ = sorted(_EXPORTS, key=str.casefold)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
