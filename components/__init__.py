"""gpu-cluster's components: one ComponentResource and its frozen Args per module.

The flow is one way: ``models`` (validated fields) → ``checks.validation`` (parse and check the
cloud layout; the caller looks an existing cluster up; then the inventory checks, ONE address plan,
the fabric and job checks, and the frozen ``plan``, each once) → the components, which render the
part of the plan they are given → ``program`` (``pulumi_program``: the one program every stack runs).

What the Pulumi SDK forces on the project (and on the offline engine) lives in ``compat``, each workaround
with the SDK code or upstream issue it answers and a guard.

The public surface is re-exported here and imported on first use, so that a tool needing only
the catalog or the config models does not pay for Pulumi and every component.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "AddressPlan": "plan.inventory",
    "build": "program",
    "ClusterConfig": "models.config",
    "ClusterNetwork": "ibm.clusternet",
    "ClusterNetworkArgs": "ibm.clusternet",
    "ConfigurationError": "checks.validation",
    "Deployment": "program",
    "Fabric": "k8s.fabric",
    "FabricArgs": "k8s.fabric",
    "FabricPlan": "plan.plan",
    "GpuCluster": "ibm.cluster",
    "GpuClusterArgs": "ibm.cluster",
    "GpuNode": "ibm.node",
    "GpuNodeArgs": "ibm.node",
    "JobPlan": "plan.plan",
    "load": "program",
    "make_plan": "plan.plan",
    "NcclBenchmark": "k8s.benchmark",
    "NcclBenchmarkArgs": "k8s.benchmark",
    "Nic": "plan.inventory",
    "Plan": "plan.plan",
    "PodLayout": "plan.specs",
    "PodNetworkWiring": "plan.wiring",
    "pulumi_program": "program",
    "StackInputs": "program",
    "TrainingJob": "k8s.training",
    "TrainingJobArgs": "k8s.training",
    "validate_cluster": "checks.validation",
    "VpcNetwork": "ibm.network",
    "VpcNetworkArgs": "ibm.network",
    "WorkloadFiles": "k8s.training",
}

__all__ = sorted(_EXPORTS, key=str.casefold)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"components.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
