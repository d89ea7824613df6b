"""The NCCL benchmark: the training job's pods running a collective bandwidth sweep.

It reuses the training job's ``PodLayout`` (network wiring, NCCL settings, volumes,
capabilities, service account), so it measures exactly what the training will get.  The
program is ``nccl_bench.py`` from the workload ConfigMap; its options come from the
benchmark's own config.json, which the entrypoint turns into ``--key=value``.  With
``GPU_CLUSTER_EXPECT_TRANSPORT`` set, the entrypoint then runs ``nccl_transport.py`` on
the NCCL log, and the job fails when the variant's transport was not the one used.
"""

from __future__ import annotations

import json
from typing import Any

import pulumi

from components.args import ComponentArgs
from components.manifests.k8s_objects import declare
from components.manifests.pods import (
    CONFIG_FILE,
    WORKLOADS_MOUNT,
    config_map_manifest,
    job_labels,
    job_manifest,
)
from components.models.job_config import BenchmarkConfig
from components.models.types import JobName
from components.plan.nccl import Transport
from components.plan.specs import PodLayout

__all__ = ["NcclBenchmark", "NcclBenchmarkArgs", "benchmark_manifests", "bench_options"]

COMPONENT = "nccl-benchmark"


class NcclBenchmarkArgs(ComponentArgs):
    layout: PodLayout
    """The training job's pod layout (``TrainingJob.layout``)."""
    benchmark: BenchmarkConfig
    """The validated ``job.benchmark`` section."""
    name: JobName
    """Kubernetes name of the benchmark job (``JobConfig.benchmark_name``)."""
    transport: Transport | None
    """What the transport assertion requires, decided by the plan (``JobPlan.benchmark_transport``)."""


def bench_options(benchmark: BenchmarkConfig, name: str) -> dict[str, Any]:
    """``nccl_bench.py``'s command-line options, as config.json holds them."""
    return {
        "ops": ",".join(benchmark.ops),
        "min-bytes": benchmark.min_bytes,
        "max-bytes": benchmark.max_bytes,
        "iters": benchmark.iters,
        "warmup": benchmark.warmup,
        "time-budget": benchmark.time_budget_s,
        # Relative to the working directory, the storage volume, so the results outlive the pods.
        "json": benchmark.results_file or f"{name}.json",
    }


def benchmark_manifests(args: NcclBenchmarkArgs) -> dict[str, dict[str, Any]]:
    """The benchmark's config.json ConfigMap and its job, keyed by child role."""
    layout, name = args.layout, args.name
    config_map = f"{name}-config"
    options = json.dumps(bench_options(args.benchmark, name), indent=2) + "\n"
    program_env = {"TRAINING_SCRIPT": f"{WORKLOADS_MOUNT}/nccl_bench.py"}
    transport = args.transport
    if transport:
        program_env["GPU_CLUSTER_EXPECT_TRANSPORT"] = transport
    labels = job_labels(name, COMPONENT)
    return {
        "config": config_map_manifest(config_map, layout.namespace, {CONFIG_FILE: options}, labels),
        "job": job_manifest(layout, name=name, component=COMPONENT, config_map=config_map, program_env=program_env),
    }


class NcclBenchmark(pulumi.ComponentResource):
    """An all-reduce/all-gather bandwidth sweep with the training job's pods.

    Children: ``<name>-config`` (the sweep's options) and ``<name>-job`` (PyTorchJob or
    LeaderWorkerSet, like the training job).  Create it with ``depends_on`` the
    ``TrainingJob``, whose ConfigMaps, claim and SCC binding its pods use.
    """

    job_name: str
    expected_transport: str | None
    """What the transport assertion requires (``ib``, ``socket``...), or None when nothing is asserted."""

    def __init__(self, name: str, args: NcclBenchmarkArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:benchmark:NcclBenchmark", name, None, opts)
        manifests = benchmark_manifests(args)
        config = declare(f"{name}-config", manifests["config"], pulumi.ResourceOptions(parent=self))
        declare(f"{name}-job", manifests["job"], pulumi.ResourceOptions(parent=self, depends_on=[config]))
        self.job_name = args.name
        self.expected_transport = args.transport
        self.register_outputs({"job_name": self.job_name, "expected_transport": self.expected_transport})
