"""Cross-checks of the ``job`` config against the nodes and the network variant.

``job_errors(cfg)`` returns one field-level error per problem, each at the path to change:

* GPUs: ``job.nproc_per_node`` within the profile's GPUs;
* NCCL: every ``job.nccl_env`` override consistent with the variant (no IB on socket
  variants, no sockets on sriov-rdma, ``NCCL_SOCKET_IFNAME`` naming only interfaces the pod
  has, ``NCCL_IB_HCA`` naming the profile's RDMA devices, GID index in range...), and
  ``NCCL_DEBUG`` left at INFO when the benchmark asserts the transport;
* resources: requests within the node, limits not below requests or the /dev/shm size;
* storage: a created claim shared by pods on several nodes must be ``ReadWriteMany``;
* elastic: only for PyTorchJob on at least two nodes (the operator wants a Worker beside
  the Master), with ``min_nodes`` within ``nodes.count``;
* benchmark: an explicit transport expectation the variant can meet, a PyTorchJob (a
  LeaderWorkerSet restarts forever, so its verdict is lost), and no benchmark running beside
  the training job where the two would deadlock over the nodes.

Called once by ``components.checks.validation``, after the fabric checks and before the plan is made.
"""

from __future__ import annotations

from pydantic_core import InitErrorDetails

from components.models.config import ClusterConfig, config_error
from components.models.quantity import parse_quantity
from components.plan.nccl import RDMA_VARIANTS, benchmark_transport, debug_problem, job_interfaces, override_problems

__all__ = ["job_errors"]

Loc = tuple[str | int, ...]
_GI = 2**30


def _error(loc: Loc, message: str, value: object) -> InitErrorDetails:
    return config_error(("job", *loc), message, value)


def job_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    """Every problem of ``cfg.job`` that needs the rest of the config."""
    return (
        _gpu_errors(cfg)
        + _nccl_errors(cfg)
        + _resource_errors(cfg)
        + _storage_errors(cfg)
        + _elastic_errors(cfg)
        + _benchmark_errors(cfg)
    )


def _nproc(cfg: ClusterConfig) -> int:
    return cfg.job.nproc_per_node or cfg.profile.gpus


def _gpu_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    nproc, gpus = cfg.job.nproc_per_node, cfg.profile.gpus
    if nproc is not None and nproc > gpus:
        return [
            _error(
                ("nproc_per_node",),
                f"a {cfg.profile.name} node has {gpus} GPU(s); one pod per node "
                f"cannot run {nproc} processes with a GPU each",
                nproc,
            )
        ]
    return []


def _nccl_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    variant, overrides = cfg.network.variant, cfg.job.nccl_env
    interfaces = job_interfaces(variant, cfg.network.nics_per_node)
    errors = [
        _error(("nccl_env", name), message, overrides[name])
        for name, message in override_problems(variant, interfaces, overrides, cfg.profile.rdma_hca_prefix)
    ]
    transport = benchmark_transport(cfg.job.benchmark.expect_transport, variant, cfg.nodes.count)
    if cfg.job.benchmark.enabled and transport is not None:
        problem = debug_problem(overrides)
        if problem:
            name, message = problem
            errors.append(_error(("nccl_env", name), message, overrides[name]))
    return errors


def _resource_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    job, profile = cfg.job, cfg.profile
    res = job.resources
    errors: list[InitErrorDetails] = []
    node_memory = profile.memory_gib * _GI
    if parse_quantity(res.cpu) > profile.vcpus:
        errors.append(
            _error(
                ("resources", "cpu"), f"requests more CPUs than a {profile.name} node has ({profile.vcpus})", res.cpu
            )
        )
    if parse_quantity(res.memory) > node_memory:
        errors.append(
            _error(
                ("resources", "memory"),
                f"requests more memory than a {profile.name} node has ({profile.memory_gib}Gi)",
                res.memory,
            )
        )
    if parse_quantity(job.shm_size) > node_memory:
        errors.append(
            _error(
                ("shm_size",), f"is larger than a {profile.name} node's memory ({profile.memory_gib}Gi)", job.shm_size
            )
        )
    if res.cpu_limit is not None and parse_quantity(res.cpu_limit) < parse_quantity(res.cpu):
        errors.append(_error(("resources", "cpu_limit"), f"is below the CPU request ({res.cpu})", res.cpu_limit))
    if res.memory_limit is not None:
        limit = parse_quantity(res.memory_limit)
        if limit < parse_quantity(res.memory):
            errors.append(
                _error(("resources", "memory_limit"), f"is below the memory request ({res.memory})", res.memory_limit)
            )
        elif limit <= parse_quantity(job.shm_size):
            errors.append(
                _error(
                    ("resources", "memory_limit"),
                    f"leaves nothing beside /dev/shm: the in-memory volume ({job.shm_size}) counts against the limit",
                    res.memory_limit,
                )
            )
    return errors


def _storage_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    storage = cfg.job.storage
    if storage.create and cfg.nodes.count > 1 and storage.access_mode != "ReadWriteMany":
        return [
            _error(
                ("storage", "access_mode"),
                f"the claim is mounted by pods on {cfg.nodes.count} nodes, which needs ReadWriteMany",
                storage.access_mode,
            )
        ]
    return []


def _elastic_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    elastic = cfg.job.elastic
    if elastic is None:
        return []
    if cfg.job.kind != "pytorchjob":
        return [
            _error(
                ("elastic",),
                "elastic training is a PyTorchJob feature; a LeaderWorkerSet restarts its whole group instead",
                elastic.model_dump(),
            )
        ]
    if cfg.nodes.count < 2:
        # With one node the PyTorchJob has only a Master, and the training operator's webhook
        # rejects an elasticPolicy without a Worker replica spec.
        return [
            _error(
                ("elastic",),
                "elastic training needs nodes.count of at least 2: with one node the "
                "PyTorchJob has no Worker, which the training operator requires with "
                "an elasticPolicy; drop job.elastic",
                elastic.model_dump(),
            )
        ]
    if elastic.min_nodes > cfg.nodes.count:
        return [
            _error(
                ("elastic", "min_nodes"),
                f"exceeds nodes.count ({cfg.nodes.count}): the job would never start",
                elastic.min_nodes,
            )
        ]
    return []


def _benchmark_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    bench, variant, nodes = cfg.job.benchmark, cfg.network.variant, cfg.nodes.count
    errors: list[InitErrorDetails] = []
    loc: Loc = ("benchmark", "expect_transport")
    expect = bench.expect_transport
    if expect in ("ib", "socket") and nodes < 2:
        errors.append(
            _error(
                loc,
                f"one node's ranks never use the network ({expect}): they talk over P2P or "
                f"shared memory; expect p2p/shm or none",
                expect,
            )
        )
    elif expect == "ib" and variant not in RDMA_VARIANTS:
        errors.append(_error(loc, f"the {variant} variant runs NCCL over TCP sockets; only sriov-rdma uses IB", expect))
    elif expect == "socket" and variant in RDMA_VARIANTS:
        errors.append(
            _error(
                loc,
                "sriov-rdma must carry NCCL over IB verbs; expecting sockets would pass only on a broken RDMA setup",
                expect,
            )
        )
    elif expect in ("p2p", "shm") and nodes > 1:
        errors.append(
            _error(
                loc,
                f"with {nodes} nodes the inter-node connections use the network; {expect} describes only a single node",
                expect,
            )
        )
    if bench.enabled and cfg.job.kind == "leaderworkerset":
        errors.append(
            _error(
                ("benchmark", "enabled"),
                "the NCCL benchmark needs kind pytorchjob: LeaderWorkerSet "
                "pods always restart, so a failed transport assertion "
                "becomes a restart loop and a pass reruns the sweep; the "
                "benchmark could never fail or finish",
                bench.enabled,
            )
        )
        return errors
    nproc, gpus = _nproc(cfg), cfg.profile.gpus
    exclusive_nics = variant != "pod"
    if bench.enabled and cfg.job.enabled and nodes > 1 and (exclusive_nics or 2 * nproc > gpus):
        why = "every node's NICs (each serves one pod)" if exclusive_nics else "every node's GPUs"
        errors.append(
            _error(
                ("benchmark", "enabled"),
                f"the benchmark and the training job would start together "
                f"and compete for {why}; with each holding some of the "
                f"nodes, both wait forever: set job.enabled to false while "
                f"benchmarking",
                bench.enabled,
            )
        )
    return errors
