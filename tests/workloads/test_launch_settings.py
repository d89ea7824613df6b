"""workloads/launch_env.py, launch_program.py and launch_messages.py in process: what each
setting accepts, the exact messages and statuses it stops with, and the commands it builds."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from workloads.launch_env import read_assertion, read_network, read_rendezvous, switch
from workloads.launch_messages import E_CONFIG, LaunchError, shell_line
from workloads.launch_program import config_arguments, plan_data_step, program_arguments

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entrypoint"
RENDEZVOUS = {"RANK": "1", "WORLD_SIZE": "4", "NPROC_PER_NODE": "8", "MASTER_ADDR": "m", "TRAINING_MODULE": "t.main"}


def _stop(call: object, *args: object) -> str:
    with pytest.raises(LaunchError) as caught:
        call(*args)  # type: ignore[operator]
    assert caught.value.status == E_CONFIG
    return caught.value.message


@pytest.mark.parametrize(
    "words",
    [
        ["torchrun", "--data_path=/mnt/storage/data set.jsonl"],
        ["a,b", "x=~y", "~x", "#a", "a#b", "", "a\\b", "{", "it's", "é", "k=v:~w", "$HOME", "%@+"],
    ],
)
def test_commands_are_logged_as_bash_printf_q_writes_them(words: list[str]) -> None:
    if shutil.which("bash") is None:
        pytest.skip("needs bash")
    bash = subprocess.run(
        ["bash", "-c", 'printf "%q " "$@"', "q", *words], capture_output=True, text=True, check=True
    ).stdout.rstrip(" ")
    assert shell_line(words) == bash


def test_switches_are_0_or_1() -> None:
    assert switch({}, "X") is False and switch({"X": "1"}, "X") is True
    assert _stop(switch, {"X": "yes"}, "X") == "X must be 0 or 1, got 'yes'"


def test_network_settings_read_the_interfaces_in_order() -> None:
    network = read_network(
        {"GPU_CLUSTER_VARIANT": "sriov-rdma", "GPU_CLUSTER_RDMA": "1", "NCCL_SOCKET_IFNAME": " net1, net2 ,,net3"}
    )
    assert (network.variant, network.rdma, network.ifnames) == ("sriov-rdma", True, ("net1", "net2", "net3"))


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"GPU_CLUSTER_VARIANT": "pod", "GPU_CLUSTER_IP_MAPPING": "/m"},
            "variant pod uses the pod network; unset GPU_CLUSTER_IP_MAPPING",
        ),
        (
            {"GPU_CLUSTER_VARIANT": "vnic", "GPU_CLUSTER_RDMA": "1", "NCCL_SOCKET_IFNAME": "net1"},
            "variant vnic runs NCCL over sockets; GPU_CLUSTER_RDMA=1 needs variant sriov-rdma",
        ),
        ({"GPU_CLUSTER_VARIANT": "sriov"}, "variant sriov needs NCCL_SOCKET_IFNAME (e.g. net1,net2)"),
        (
            {"GPU_CLUSTER_VARIANT": "sriov", "GPU_CLUSTER_RDMA": "1", "NCCL_SOCKET_IFNAME": "net1"},
            "variant sriov runs NCCL over sockets; GPU_CLUSTER_RDMA=1 needs variant sriov-rdma",
        ),
        (
            {"GPU_CLUSTER_VARIANT": "pod", "GPU_CLUSTER_RDMA": "1"},
            "variant pod has no RDMA devices; unset GPU_CLUSTER_RDMA",
        ),
        (
            {"GPU_CLUSTER_VARIANT": "sriov-rdma", "NCCL_SOCKET_IFNAME": "net1"},
            "variant sriov-rdma needs GPU_CLUSTER_RDMA=1",
        ),
        (
            {"GPU_CLUSTER_RDMA": "1", "NCCL_SOCKET_IFNAME": "^docker,net1"},
            "NCCL_SOCKET_IFNAME entry '^docker' is not a plain interface name",
        ),
        ({"GPU_CLUSTER_IP_MAPPING": "/m"}, "GPU_CLUSTER_IP_MAPPING and GPU_CLUSTER_RDMA need NCCL_SOCKET_IFNAME"),
        (
            {"GPU_CLUSTER_RDMA": "1", "NCCL_SOCKET_IFNAME": "=net1"},
            "NCCL_SOCKET_IFNAME entry '=net1' is not a plain interface name",
        ),
    ],
)
def test_network_settings_that_contradict_the_variant_stop(env: dict[str, str], message: str) -> None:
    assert _stop(read_network, env) == message


def test_the_assertion_turns_nccl_info_on_and_finds_its_checker(tmp_path: Path) -> None:
    assert read_assertion({}) is None
    env = {"GPU_CLUSTER_EXPECT_TRANSPORT": "ib", "GPU_CLUSTER_WORKLOADS": str(tmp_path)}
    assert (
        _stop(read_assertion, dict(env))
        == f"transport checker {tmp_path}/nccl_transport.py not found (GPU_CLUSTER_WORKLOADS)"
    )
    (tmp_path / "nccl_transport.py").write_text("")
    assertion = read_assertion(env)
    assert assertion is not None and (assertion.expect, assertion.log_file) == ("ib", "/tmp/torchrun.log")
    assert env["NCCL_DEBUG"] == "INFO"
    assert _stop(read_assertion, {**env, "NCCL_DEBUG_FILE": "/x"}).startswith("NCCL_DEBUG_FILE sends NCCL's log away")


def test_the_rendezvous_becomes_torchruns_arguments() -> None:
    rendezvous = read_rendezvous({**RENDEZVOUS, "MASTER_PORT": "23456"})
    assert rendezvous.torchrun(["--seed=1"]) == [
        "torchrun",
        "--nnodes=4",
        "--nproc_per_node=8",
        "--node_rank=1",
        "--rdzv_backend=c10d",
        "--rdzv_endpoint=m:23456",
        "-m",
        "t.main",
        "--seed=1",
    ]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"RANK": "01"}, "RANK must be a non-negative integer, got '01'"),
        ({"RANK": "", "PET_NODE_RANK": ""}, "node rank is not set (set one of: PET_NODE_RANK RANK LWS_WORKER_INDEX)"),
        ({"WORLD_SIZE": "2:"}, "WORLD_SIZE must be N or MIN:MAX, got '2:'"),
        ({"WORLD_SIZE": "1"}, "node rank 1 (RANK) is not below the node count 1 (WORLD_SIZE)"),
        ({"NPROC_PER_NODE": "all"}, "NPROC_PER_NODE must be a count or auto/gpu/cpu, got 'all'"),
        ({"MASTER_PORT": "65536"}, "MASTER_PORT must be a TCP port, got '65536'"),
        ({"TRAINING_SCRIPT": "/t.py"}, "set only one of TRAINING_MODULE and TRAINING_SCRIPT"),
    ],
)
def test_bad_rendezvous_settings_stop(overrides: dict[str, str], message: str) -> None:
    assert _stop(read_rendezvous, {**RENDEZVOUS, **overrides}) == message


def test_config_json_keeps_number_text_and_file_order() -> None:
    assert config_arguments(str(FIXTURES / "config.json")) == [
        "--max_batch_len=35000",
        "--seed=42",
        "--learning_rate=2e-5",
        "--distributed_training_framework=fsdp",
        "--cpu_offload_optimizer",
        "--fsdp_sharding_strategy=HYBRID_SHARD",
        "--lora_target_modules",
        "q_proj",
        "v_proj",
        "--data_path=/mnt/storage/data set.jsonl",
    ]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('{"x": NaN}', "cannot read JSON: NaN is not valid JSON"),
        ('{"seed": 42,}', "cannot read JSON: "),  # then the json module's words, which vary by Python version
        ('["--seed=1"]', "the top level must be a JSON object of hyperparameters"),
        ('{"fsdp": {"sharding": "HYBRID_SHARD"}}', "key 'fsdp': nested objects are not supported"),
        ('{"modules": [["q"]]}', "key 'modules': arrays may only hold strings, numbers and booleans"),
        ('{"bad key": 1}', "key 'bad key' is not a plain option name"),
        ('{"flags": [true, 1.50, "a"], "x": [[]]}', "key 'x': arrays may only hold strings, numbers and booleans"),
        ('{"x": "a\\u0000b"}', "values must not contain NUL characters"),
    ],
)
def test_config_json_errors_name_the_file(tmp_path: Path, config: str, message: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(config)
    assert _stop(config_arguments, str(path)).startswith(f"{path}: {message}")


def test_an_explicit_config_path_must_exist(tmp_path: Path) -> None:
    assert (
        _stop(program_arguments, {"CONFIG_JSON_PATH": str(tmp_path / "no.json")})
        == f"config file {tmp_path}/no.json not found (CONFIG_JSON_PATH)"
    )


def test_the_data_step_replaces_the_data_path_and_keeps_the_model(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text(json.dumps({"data_path": "/d.jsonl", "model_name_or_path": "granite"}))
    args = config_arguments(str(tmp_path / "c.json"))
    env = {"GPU_CLUSTER_DATA_MESSAGES": "raw.jsonl", "TRAINING_MODULE": "m", "TMPDIR": "/scratch"}
    step = plan_data_step(env, "c.json", args, dry_run=True)
    assert step is not None and step.data_file == "/scratch/ilab-data/data.jsonl"
    assert args == ["--data_path=/scratch/ilab-data/data.jsonl", "--model_name_or_path=granite"]
    assert step.command == (
        "python3",
        "-m",
        "instructlab.training.data_process",
        "--data_path=raw.jsonl",
        "--data_output_path=/scratch/ilab-data",
        "--max_seq_len=4096",
        "--model_name_or_path=granite",
    )
    assert plan_data_step({}, "c.json", args, dry_run=False) is None
