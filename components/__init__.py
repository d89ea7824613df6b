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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what a type checker reads; at run time each name is imported on first use (_EXPORTS)
    from components.checks.validation import (
        ConfigurationError as ConfigurationError,
    )
    from components.checks.validation import (
        validate_cluster as validate_cluster,
    )
    from components.ibm.cluster import GpuCluster as GpuCluster
    from components.ibm.cluster import GpuClusterArgs as GpuClusterArgs
    from components.ibm.clusternet import ClusterNetwork as ClusterNetwork
    from components.ibm.clusternet import ClusterNetworkArgs as ClusterNetworkArgs
    from components.ibm.network import VpcNetwork as VpcNetwork
    from components.ibm.network import VpcNetworkArgs as VpcNetworkArgs
    from components.ibm.node import GpuNode as GpuNode
    from components.ibm.node import GpuNodeArgs as GpuNodeArgs
    from components.k8s.benchmark import NcclBenchmark as NcclBenchmark
    from components.k8s.benchmark import NcclBenchmarkArgs as NcclBenchmarkArgs
    from components.k8s.fabric import Fabric as Fabric
    from components.k8s.fabric import FabricArgs as FabricArgs
    from components.k8s.training import (
        TrainingJob as TrainingJob,
    )
    from components.k8s.training import (
        TrainingJobArgs as TrainingJobArgs,
    )
    from components.k8s.training import (
        WorkloadFiles as WorkloadFiles,
    )
    from components.models.config import ClusterConfig as ClusterConfig
    from components.plan.inventory import AddressPlan as AddressPlan
    from components.plan.inventory import Nic as Nic
    from components.plan.plan import FabricPlan as FabricPlan
    from components.plan.plan import JobPlan as JobPlan
    from components.plan.plan import Plan as Plan
    from components.plan.plan import make_plan as make_plan
    from components.plan.specs import PodLayout as PodLayout
    from components.plan.wiring import PodNetworkWiring as PodNetworkWiring
    from components.program import (
        Deployment as Deployment,
    )
    from components.program import (
        StackInputs as StackInputs,
    )
    from components.program import (
        build as build,
    )
    from components.program import (
        load as load,
    )
    from components.program import (
        pulumi_program as pulumi_program,
    )

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
