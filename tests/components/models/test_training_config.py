"""The ``job`` config: the study's defaults, field rules, and cross-checks named by field path."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from components.checks.jobcheck import job_errors
from components.models.config import ClusterConfig
from components.models.job_config import JobConfig, parse_byte_size, parse_quantity
from tests.conftest import cluster_config

H100_RDMA = {"nodes.profile": "gx3d-160x1792x8h100", "network.variant": "sriov-rdma", "network.nics_per_node": 2}
H100_SRIOV = {**H100_RDMA, "network.variant": "sriov"}
L40S_POD = {"network.variant": "pod", "network.nics_per_node": 0}


def problems(**changes: Any) -> dict[tuple[str | int, ...], str]:
    """Field path -> message for a cluster config, whether or not ClusterConfig runs job_errors itself."""
    try:
        cfg = ClusterConfig.model_validate(cluster_config(**changes))
    except ValidationError as error:
        return {tuple(item["loc"]): item["msg"] for item in error.errors()}
    return {tuple(item["loc"]): item["type"].message() for item in job_errors(cfg)}


def test_defaults_are_the_studys() -> None:
    job = JobConfig()
    assert (job.kind, job.name, job.shm_size, job.storage.claim_name) == (
        "pytorchjob",
        "ilab",
        "20Gi",
        "fine-tuning-storage",
    )
    assert (job.resources.cpu, job.resources.memory) == ("1", "10Gi")
    assert job.training.config_json() == {
        "model_name_or_path": "granite-3.1-8b-starter-v2",
        "data_path": "data.jsonl",
        "output_dir": "checkpoints",
        "num_epochs": 1,
        "max_batch_len": 35000,
        "seed": 42,
        "save_samples": 0,
        "distributed_training_framework": "fsdp",
        "fsdp_sharding_strategy": "HYBRID_SHARD",
        "cpu_offload_optimizer": True,
        "cpu_offload_params_fsdp": True,
        "effective_batch_size": 3840,
        "learning_rate": 1e-4,
        "num_warmup_steps": 1000,
        "disable_flash_attn": False,
        "checkpoint_at_epoch": False,
        "keep_last_checkpoint_only": False,
    }
    assert (job.benchmark.ops, job.benchmark.min_bytes, job.benchmark.max_bytes) == (
        ("all_reduce", "all_gather"),
        "8",
        "1G",
    )
    assert parse_byte_size(job.benchmark.max_bytes) >= 2**30


def test_extra_training_keys_follow_the_typed_ones() -> None:
    training = JobConfig.model_validate(
        {
            "training": {
                "seed": 7,
                "effective_batch_size": 128,
                "extra": {
                    "lr_scheduler": "constant",
                    "adamw_beta2": 0.99,
                    "lora_target_modules": ["q_proj", "v_proj"],
                    "save_last": True,
                },
            }
        }
    ).training
    data = training.config_json()
    assert data["seed"] == 7 and data["effective_batch_size"] == 128
    assert list(data)[-4:] == ["lr_scheduler", "adamw_beta2", "lora_target_modules", "save_last"]


def test_quantities_and_byte_sizes() -> None:
    assert parse_quantity("10Gi") == 10 * 2**30
    assert parse_quantity("500m") == parse_quantity("0.5")
    assert parse_quantity("1e3") == 1000
    assert parse_byte_size("1GiB") == parse_byte_size("1G") == 2**30
    with pytest.raises(ValueError):
        parse_quantity("ten gigs")


@pytest.mark.parametrize(
    ("job", "path", "fragment"),
    [
        ({"name": "Ilab"}, ("name",), "lowercase"),
        ({"shm_size": "20 GB"}, ("shm_size",), "not a Kubernetes quantity"),
        ({"nccl_env": {"OMP_NUM_THREADS": "8"}}, ("nccl_env",), "only NCCL_* variables"),
        ({"env": {"NCCL_DEBUG": "WARN"}}, ("env",), "job.nccl_env"),
        ({"env": {"MASTER_ADDR": "x"}}, ("env",), "set by the pod spec"),
        ({"env": {"GPU_CLUSTER_RDMA": "1"}}, ("env",), "set by the pod spec"),
        ({"training": {"extra": {"seed": 1}}}, ("training", "extra"), "field of job.training"),
        ({"training": {"extra": {"--lr": 1}}}, ("training", "extra"), "not a plain option name"),
        ({"training": {"extra": {"deep": {"a": 1}}}}, ("training", "extra"), "scalars or lists"),
        ({"training": {"extra": {"effective_batch_size": 8}}}, ("training", "extra"), "field of job.training"),
        (
            {"training": {"extra": {"learning_rte": 1e-5}}},
            (),
            "learning_rte: not an option of instructlab-training 0.16.2's main_ds (did you mean learning_rate?)",
        ),
        ({"training": {"extra": {"lr_scheduler": 3}}}, (), "lr_scheduler: main_ds takes a string here, not 3"),
        ({"training": {"extra": {"use_liger": "yes"}}}, (), "use_liger: main_ds takes true or false"),
        ({"training": {"extra": {"cpu_offload_params": True}}}, (), "cpu_offload_params: not an option"),
        ({"training_script": "/x.py", "data_process": {"messages_path": "m.jsonl"}}, (), "data_process feeds"),
        ({"data_process": {"messages_path": ""}}, ("data_process", "messages_path"), "at least 1 character"),
        ({"training": {"max_batch_len": 0}}, ("training", "max_batch_len"), "greater than or equal"),
        ({"benchmark": {"min_bytes": "2G", "max_bytes": "1G"}}, ("benchmark",), "below min_bytes"),
        ({"benchmark": {"ops": ["all_reduce", "all_reduce"]}}, ("benchmark", "ops"), "twice"),
        ({"benchmark": {"ops": ["broadcast"]}}, ("benchmark", "ops", 0), "all_reduce"),
        ({"storage": {"mount_path": "/mnt/workloads"}}, ("storage", "mount_path"), "absolute path other"),
        ({"colour": "blue"}, ("colour",), "Extra inputs"),
    ],
)
def test_bad_fields_are_named(job: dict[str, Any], path: tuple[str | int, ...], fragment: str) -> None:
    with pytest.raises(ValidationError) as caught:
        JobConfig.model_validate(job)
    errors = {tuple(item["loc"]): item["msg"] for item in caught.value.errors()}
    assert path in errors, errors
    assert fragment in errors[path]


def test_nccl_values_written_as_yaml_numbers_become_text() -> None:
    assert JobConfig.model_validate({"nccl_env": {"NCCL_IB_GID_INDEX": 5}}).nccl_env == {"NCCL_IB_GID_INDEX": "5"}


@pytest.mark.parametrize("base", [L40S_POD, {}, H100_SRIOV, H100_RDMA])
def test_the_default_job_fits_every_variant(base: dict[str, Any]) -> None:
    assert problems(**base) == {}


@pytest.mark.parametrize(
    ("changes", "path", "fragment"),
    [
        ({"job.nproc_per_node": 4}, ("job", "nproc_per_node"), "has 2 GPU(s)"),
        (
            {"job.nccl_env": {"NCCL_IB_DISABLE": "0"}},
            ("job", "nccl_env", "NCCL_IB_DISABLE"),
            "only sriov-rdma uses RDMA",
        ),
        (
            {"job.nccl_env": {"NCCL_SOCKET_IFNAME": "net1,net3"}},
            ("job", "nccl_env", "NCCL_SOCKET_IFNAME"),
            "no interface net3",
        ),
        (
            {**L40S_POD, "job.nccl_env": {"NCCL_SOCKET_IFNAME": "net1"}},
            ("job", "nccl_env", "NCCL_SOCKET_IFNAME"),
            "only eth0",
        ),
        ({"job.nccl_env": {"NCCL_IB_HCA": "mlx5_0"}}, ("job", "nccl_env", "NCCL_IB_HCA"), "over TCP sockets"),
        (
            {**H100_RDMA, "job.nccl_env": {"NCCL_IB_GID_INDEX": "300"}},
            ("job", "nccl_env", "NCCL_IB_GID_INDEX"),
            "from 0 to 255",
        ),
        (
            {**H100_RDMA, "job.nccl_env": {"NCCL_IB_HCA": "mlx5_0,mlx5_1,mlx5_2"}},
            ("job", "nccl_env", "NCCL_IB_HCA"),
            "names 3 RDMA devices",
        ),
        ({**H100_RDMA, "job.nccl_env": {"NCCL_NET": "Socket"}}, ("job", "nccl_env", "NCCL_NET"), "measure sriov"),
        (
            {"job.benchmark": {"enabled": True}, "job.enabled": False, "job.nccl_env": {"NCCL_DEBUG": "WARN"}},
            ("job", "nccl_env", "NCCL_DEBUG"),
            "transport assertion",
        ),
        ({"job.resources": {"cpu": "64"}}, ("job", "resources", "cpu"), "more CPUs"),
        ({"job.resources": {"memory": "300Gi"}}, ("job", "resources", "memory"), "more memory"),
        ({"job.resources": {"memory_limit": "8Gi"}}, ("job", "resources", "memory_limit"), "below the memory"),
        ({"job.resources": {"memory_limit": "20Gi"}}, ("job", "resources", "memory_limit"), "/dev/shm"),
        ({"job.resources": {"cpu": "4", "cpu_limit": "2"}}, ("job", "resources", "cpu_limit"), "below the CPU"),
        ({"job.shm_size": "1Ti"}, ("job", "shm_size"), "larger than"),
        ({"job.storage": {"access_mode": "ReadWriteOnce"}}, ("job", "storage", "access_mode"), "ReadWriteMany"),
        ({"job.elastic": {"min_nodes": 3}}, ("job", "elastic", "min_nodes"), "exceeds nodes.count (2)"),
        ({"job.kind": "leaderworkerset", "job.elastic": {"min_nodes": 1}}, ("job", "elastic"), "PyTorchJob feature"),
        ({"nodes.count": 1, "job.elastic": {"min_nodes": 1}}, ("job", "elastic"), "nodes.count of at least 2"),
        (
            {"job.kind": "leaderworkerset", "job.benchmark": {"enabled": True}, "job.enabled": False},
            ("job", "benchmark", "enabled"),
            "needs kind pytorchjob",
        ),
        (
            {"nodes.count": 1, "job.kind": "leaderworkerset", "job.benchmark": {"enabled": True}},
            ("job", "benchmark", "enabled"),
            "restart loop",
        ),
        (
            {"job.benchmark": {"expect_transport": "ib"}},
            ("job", "benchmark", "expect_transport"),
            "only sriov-rdma uses IB",
        ),
        (
            {**H100_RDMA, "job.benchmark": {"expect_transport": "socket"}},
            ("job", "benchmark", "expect_transport"),
            "IB verbs",
        ),
        (
            {"nodes.count": 1, "job.benchmark": {"expect_transport": "socket"}},
            ("job", "benchmark", "expect_transport"),
            "never use the network",
        ),
        ({"job.benchmark": {"expect_transport": "p2p"}}, ("job", "benchmark", "expect_transport"), "single node"),
        ({"job.benchmark": {"enabled": True}}, ("job", "benchmark", "enabled"), "job.enabled to false"),
    ],
)
def test_cross_checks_name_the_field(changes: dict[str, Any], path: tuple[str | int, ...], fragment: str) -> None:
    found = problems(**changes)
    assert path in found, found
    assert fragment in found[path]


def test_consistent_job_settings_pass() -> None:
    assert (
        problems(
            **{
                **H100_RDMA,
                "job.nccl_env": {
                    "NCCL_IB_GID_INDEX": "-1",
                    "NCCL_NET_GDR_LEVEL": "SYS",
                    "NCCL_IB_HCA": "mlx5_2,mlx5_3",
                },
                "job.resources": {"cpu": "32", "memory": "512Gi", "memory_limit": "1500Gi"},
                "job.elastic": {"min_nodes": 1},
                "job.benchmark": {"enabled": True, "expect_transport": "ib"},
                "job.enabled": False,
            }
        )
        == {}
    )
    # NCCL's exact-match form, which the entrypoint itself writes, is accepted as an override.
    assert problems(**{**H100_RDMA, "job.nccl_env": {"NCCL_IB_HCA": "=mlx5_2,mlx5_3"}}) == {}
    # One node: the benchmark and the training share it one after the other, no deadlock.
    assert (
        problems(
            **{"nodes.count": 1, "job.benchmark": {"enabled": True}, "job.storage": {"access_mode": "ReadWriteOnce"}}
        )
        == {}
    )
    # Pod network with half the GPUs each: both jobs fit on every node at once.
    assert problems(**{**L40S_POD, "job.nproc_per_node": 1, "job.benchmark": {"enabled": True}}) == {}
