"""gpu-cluster's components: one ComponentResource and its frozen Args per module.

The public surface is re-exported here; ``build`` (``components.program``) composes them.
"""

from .benchmark import NcclBenchmark, NcclBenchmarkArgs
from .cluster import GpuCluster, GpuClusterArgs
from .clusternet import ClusterNetwork, ClusterNetworkArgs
from .config import ClusterConfig
from .fabric import Fabric, FabricArgs
from .inventory import AddressPlan, Nic
from .network import VpcNetwork, VpcNetworkArgs
from .node import GpuNode, GpuNodeArgs
from .program import Deployment, StackInputs, build, load
from .training import TrainingJob, TrainingJobArgs, WorkloadFiles
from .wiring import PodNetworkWiring

__all__ = [
    "AddressPlan",
    "build",
    "ClusterConfig",
    "ClusterNetwork",
    "ClusterNetworkArgs",
    "Deployment",
    "Fabric",
    "FabricArgs",
    "GpuCluster",
    "GpuClusterArgs",
    "GpuNode",
    "GpuNodeArgs",
    "load",
    "NcclBenchmark",
    "NcclBenchmarkArgs",
    "Nic",
    "PodNetworkWiring",
    "StackInputs",
    "TrainingJob",
    "TrainingJobArgs",
    "VpcNetwork",
    "VpcNetworkArgs",
    "WorkloadFiles",
]
