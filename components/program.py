"""The program function shared by ``__main__.py``, the tests, the offline preview and sweeps.

Config is read here and nowhere else: ``load()`` turns the stack's config into validated
models, secrets and the workload files; ``build()`` declares every resource from them.
Providers are built here too, at the edge, and reach components only through ``opts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pulumi
import pulumi_ibm as ibm
import pulumi_kubernetes as k8s
from pulumi.runtime.config import get_config_secret_keys_env
from pydantic import ValidationError

from .benchmark import NcclBenchmark, NcclBenchmarkArgs
from .cluster import GpuCluster, GpuClusterArgs
from .config import (
    CLUSTER_KEY,
    IBM_API_KEY,
    KUBECONFIG,
    MUST_BE_SECRET,
    PROJECT,
    SSH_PUBLIC_KEY,
    ClusterConfig,
    describe_validation_error,
)
from .existing import plan_from_existing
from .fabric import Fabric, FabricArgs
from .inventory import AddressPlan
from .training import TrainingJob, TrainingJobArgs, WorkloadFiles

__all__ = ["ConfigurationError", "Deployment", "StackInputs", "build", "load", "read_workload_files"]

WORKLOADS_DIR = Path(__file__).resolve().parents[1] / "workloads"


class ConfigurationError(Exception):
    """Invalid stack configuration; the message names the key and every bad field."""


@dataclass(frozen=True)
class StackInputs:
    """Everything a stack's config says, validated; secrets stay ``Output`` secrets."""

    cluster: ClusterConfig
    ssh_public_key: pulumi.Output[str] | None
    ibmcloud_api_key: pulumi.Output[str] | None
    kubeconfig: pulumi.Output[str] | None
    workload_files: WorkloadFiles


@dataclass(frozen=True)
class Deployment:
    """What ``build`` declared, for exports and for callers that inspect it."""

    config: ClusterConfig
    plan: AddressPlan
    cluster: GpuCluster | None
    fabric: Fabric | None
    training: TrainingJob | None
    benchmark: NcclBenchmark | None

    def outputs(self) -> dict[str, Any]:
        outputs: dict[str, Any] = {
            "nodes": list(self.plan.nodes),
            "nics": [nic.model_dump() for nic in self.plan.nics],
        }
        if self.cluster is not None:
            outputs.update(
                instanceIds=self.cluster.instance_ids,
                vpcId=self.cluster.vpc_id,
                clusterNetworkId=self.cluster.cluster_network_id,
            )
        if self.fabric is not None:
            outputs["podNetworks"] = list(self.fabric.wiring.networks)
        if self.training is not None:
            outputs["trainingJob"] = self.training.job_name
        if self.benchmark is not None:
            outputs["ncclBenchmarkJob"] = self.benchmark.job_name
        return outputs


def read_workload_files(directory: Path = WORKLOADS_DIR) -> WorkloadFiles:
    return WorkloadFiles(
        entrypoint_sh=(directory / "entrypoint.sh").read_text(),
        nccl_bench_py=(directory / "nccl_bench.py").read_text(),
        nccl_transport_py=(directory / "nccl_transport.py").read_text(),
    )


def _refuse_plaintext_secrets() -> None:
    """Secret keys must hold Pulumi secrets: a plaintext value would sit in the stack file."""
    secret_keys = set(get_config_secret_keys_env())
    for full_key in MUST_BE_SECRET:
        if pulumi.runtime.get_config(full_key) is None:
            continue
        if not (pulumi.runtime.is_config_secret(full_key) or full_key in secret_keys):
            raise ConfigurationError(
                f"{full_key}: holds a plaintext value; set it with 'pulumi config set --secret {full_key} ...'"
            )


def _ssh_public_key(config: pulumi.Config, cluster: ClusterConfig) -> pulumi.Output[str] | None:
    """The key to create, unless the stack names an existing one (or manages no cloud resources)."""
    if cluster.layers == "kubernetes":
        return None
    if cluster.security.ssh_key_name is None:
        return config.require_secret(SSH_PUBLIC_KEY)
    if config.get(SSH_PUBLIC_KEY) is not None:
        raise ConfigurationError(
            f"{PROJECT}:{SSH_PUBLIC_KEY}: unused, because {PROJECT}:{CLUSTER_KEY}.security.ssh_key_name names an "
            "existing key; remove one of them"
        )
    return None


def load(config: pulumi.Config | None = None) -> StackInputs:
    config = config or pulumi.Config(PROJECT)
    try:
        cluster = ClusterConfig.model_validate(config.require_object(CLUSTER_KEY))
    except ValidationError as error:
        raise ConfigurationError("\n".join(describe_validation_error(error))) from None
    _refuse_plaintext_secrets()
    return StackInputs(
        cluster=cluster,
        ssh_public_key=_ssh_public_key(config, cluster),
        # The explicit provider reads no `ibm:` config itself: accept the provider's own key too.
        ibmcloud_api_key=config.get_secret(IBM_API_KEY) or pulumi.Config("ibm").get_secret(IBM_API_KEY),
        kubeconfig=config.get_secret(KUBECONFIG),
        workload_files=read_workload_files(),
    )


def build(inputs: StackInputs) -> Deployment:
    cfg = inputs.cluster
    cluster: GpuCluster | None = None
    if cfg.layers in ("both", "cloud"):
        # One explicit provider: its region always matches the zone.
        ibm_provider = ibm.Provider("ibm", region=cfg.region, ibmcloud_api_key=inputs.ibmcloud_api_key)
        cluster = GpuCluster(
            "gpu",
            GpuClusterArgs(config=cfg, ssh_public_key=inputs.ssh_public_key),
            opts=pulumi.ResourceOptions(providers=[ibm_provider]),
        )
        plan = cluster.plan
    else:
        plan = plan_from_existing(cfg)
    fabric = training = benchmark = None
    if cfg.layers in ("both", "kubernetes"):
        fabric, training, benchmark = _kubernetes_layer(inputs, plan, cluster)
    return Deployment(config=cfg, plan=plan, cluster=cluster, fabric=fabric, training=training, benchmark=benchmark)


def _kubernetes_layer(
    inputs: StackInputs, plan: AddressPlan, cluster: GpuCluster | None
) -> tuple[Fabric, TrainingJob, NcclBenchmark | None]:
    cfg = inputs.cluster
    # The kubeconfig secret when set, else the ambient kubeconfig (and its context).
    provider = k8s.Provider("k8s", kubeconfig=inputs.kubeconfig, context=cfg.kubernetes.context)
    on_cluster = pulumi.ResourceOptions(providers=[provider], depends_on=[cluster] if cluster else [])
    namespace = k8s.core.v1.Namespace(
        "gpu-namespace",
        metadata=k8s.meta.v1.ObjectMetaArgs(
            name=cfg.kubernetes.namespace, labels={"app.kubernetes.io/part-of": PROJECT}
        ),
        opts=on_cluster,
    )
    fabric = Fabric(
        "gpu-fabric", FabricArgs(config=cfg, plan=plan, namespace_dependencies=[namespace]), opts=on_cluster
    )
    after_fabric = pulumi.ResourceOptions(providers=[provider], depends_on=[namespace, fabric])
    # Renders the pods' shared objects always, the training job itself only when enabled.
    training = TrainingJob(
        "gpu-training",
        TrainingJobArgs(
            job=cfg.job,
            wiring=fabric.wiring,
            nodes=cfg.nodes.count,
            gpus_per_node=cfg.profile.gpus,
            openshift=cfg.kubernetes.openshift,
            files=inputs.workload_files,
        ),
        opts=after_fabric,
    )
    benchmark = None
    if cfg.job.benchmark.enabled:
        benchmark = NcclBenchmark(
            "gpu-nccl-benchmark",
            NcclBenchmarkArgs(layout=training.layout, benchmark=cfg.job.benchmark, name=cfg.job.benchmark_name),
            opts=pulumi.ResourceOptions(providers=[provider], depends_on=[training]),
        )
    return fabric, training, benchmark
