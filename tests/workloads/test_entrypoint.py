"""Runs workloads/entrypoint.sh (the shim) and so launch.py end to end under bash against fake
`ip`, `torchrun`, sysfs and transport checker, and asserts the exact commands it issues; the
modules' cases one by one are in test_launch_settings.py and test_launch_net.py."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "workloads" / "entrypoint.sh"
REAL_CHECKER = ROOT / "workloads" / "nccl_transport.py"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entrypoint"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

LAUNCH_ENV = {
    "RANK": "1",
    "WORLD_SIZE": "4",
    "NPROC_PER_NODE": "8",
    "MASTER_ADDR": "ilab-master-0",
    "MASTER_PORT": "23456",
    "TRAINING_MODULE": "instructlab.training.main_ds",
}
TORCHRUN_PREFIX = [
    "--nnodes=4",
    "--nproc_per_node=8",
    "--node_rank=1",
    "--rdzv_backend=c10d",
    "--rdzv_endpoint=ilab-master-0:23456",
    # main_ds runs through the guard beside the launcher (equal minibatches, stall watchdog).
    str(ROOT / "workloads" / "main_ds_guard.py"),
]
CONFIG_ARGS = [
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
VNIC_IP_CALLS = [
    "-o -4 addr show dev net1",
    "-o -4 addr show dev net2",
    "addr del 10.241.1.17/26 dev net1",
    "addr add 10.241.1.4/26 dev net1",
    "link set net1 up",
    # worker-2's 10.241.1.100 shares worker-0's /24 but not its /26.
    "route replace 10.241.1.100/32 dev net1",
    "route replace 10.241.3.7/32 dev net1",
    "route replace 10.241.4.7/32 dev net2",
]


POD_INTERFACES = ("lo", "eth0", "net1", "net2", "net3")
"""What the pod's network namespace has, as its sysfs lists it (the launcher checks NCCL_SOCKET_IFNAME there)."""


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    pod: "Pod"

    def error_lines(self) -> List[str]:
        return [line for line in self.stderr.splitlines() if line.startswith("entrypoint: error:")]

    def single_error(self) -> str:
        errors = self.error_lines()
        assert len(errors) == 1, self.stderr
        return errors[0]


@dataclass
class Pod:
    """A temp dir standing in for the pod: fake tools on PATH, state, sysfs."""

    root: Path
    env: Dict[str, str] = field(default_factory=dict)

    @property
    def ip_log(self) -> Path:
        return self.root / "ip.log"

    @property
    def ip_state(self) -> Path:
        return self.root / "ip-state"

    def set_addresses(self, dev: str, *addresses: str) -> None:
        self.ip_state.mkdir(exist_ok=True)
        (self.ip_state / dev).write_text("".join(a + "\n" for a in addresses))

    def addresses(self, dev: str) -> List[str]:
        return (self.ip_state / dev).read_text().split()

    def routes(self) -> List[str]:
        path = self.ip_state / "routes"
        return path.read_text().splitlines() if path.exists() else []

    def ip_calls(self) -> List[str]:
        return self.ip_log.read_text().splitlines() if self.ip_log.exists() else []

    def add_rdma(self, netdev: str, rdma_device: str, pci_slot: int) -> None:
        """Mirror sysfs: class/net/<dev>/device links to the PCI function,
        whose infiniband/ lists the RDMA device."""
        pci = self.root / "sys" / "devices" / "pci0000:00" / f"0000:00:{pci_slot:02x}.0"
        (pci / "infiniband" / rdma_device).mkdir(parents=True)
        net = self.root / "sys" / "class" / "net" / netdev
        net.mkdir(parents=True, exist_ok=True)
        (net / "device").symlink_to(os.path.relpath(pci, net))
        ib_class = self.root / "sys" / "class" / "infiniband"
        ib_class.mkdir(parents=True, exist_ok=True)
        (ib_class / rdma_device).symlink_to(pci / "infiniband" / rdma_device)

    def torchrun_argv(self) -> Optional[List[str]]:
        path = self.root / "torchrun.argv"
        if not path.exists():
            return None
        return path.read_bytes().decode().split("\0")[:-1]

    def torchrun_env(self) -> Dict[str, str]:
        raw = (self.root / "torchrun.env").read_bytes().decode()
        pairs = (entry.split("=", 1) for entry in raw.split("\0") if entry)
        return {key: value for key, value in pairs}

    def checker_record(self) -> Optional[dict]:
        path = self.root / "checker.json"
        return json.loads(path.read_text()) if path.exists() else None

    def run(self, **overrides: Optional[str]) -> Result:
        env = dict(self.env)
        for key, value in overrides.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        proc = subprocess.run(
            ["bash", str(SCRIPT)],
            env=env,
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return Result(proc.returncode, proc.stdout, proc.stderr, self)


@pytest.fixture
def pod(tmp_path: Path) -> Pod:
    bin_dir = tmp_path / "bin"
    shutil.copytree(FIXTURES / "bin", bin_dir)
    # The launcher's `python3` is the interpreter behind this test run (outside its venv), not whatever comes
    # first on PATH: a version manager's shim there (pyenv's) costs a shell script and a second start per run.
    (bin_dir / "python3").symlink_to(getattr(sys, "_base_executable", sys.executable))
    workloads = tmp_path / "workloads"
    shutil.copytree(FIXTURES / "workloads", workloads)
    shutil.copy(FIXTURES / "config.json", tmp_path / "config.json")
    shutil.copy(FIXTURES / "mapping.txt", tmp_path / "mapping.txt")
    (tmp_path / "tmp").mkdir()
    for interface in POD_INTERFACES:
        (tmp_path / "sys" / "class" / "net" / interface).mkdir(parents=True)
    env = {
        # The fakes come first so the host's real `ip` can never be reached.
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "LANG": "C.UTF-8",
        "TMPDIR": str(tmp_path / "tmp"),
        "FAKE_IP_LOG": str(tmp_path / "ip.log"),
        "FAKE_IP_STATE": str(tmp_path / "ip-state"),
        "FAKE_TORCHRUN_ARGV": str(tmp_path / "torchrun.argv"),
        "FAKE_TORCHRUN_ENV": str(tmp_path / "torchrun.env"),
        "FAKE_CHECKER_RECORD": str(tmp_path / "checker.json"),
        "GPU_CLUSTER_SYSFS": str(tmp_path / "sys"),
        "GPU_CLUSTER_WORKLOADS": str(workloads),
        "GPU_CLUSTER_LOG": str(tmp_path / "torchrun.log"),
        "CONFIG_JSON_PATH": str(tmp_path / "config.json"),
        # The rendezvous checks talk to MASTER_ADDR; their own tests are test_entrypoint_multinode.py.
        "GPU_CLUSTER_RENDEZVOUS_TIMEOUT": "0",
        **LAUNCH_ENV,
    }
    return Pod(tmp_path, env)


@pytest.fixture
def pod_variant(pod: Pod) -> Pod:
    pod.env.update(GPU_CLUSTER_VARIANT="pod", NCCL_SOCKET_IFNAME="eth0")
    return pod


@pytest.fixture
def vnic(pod: Pod) -> Pod:
    pod.env.update(
        GPU_CLUSTER_VARIANT="vnic",
        NCCL_SOCKET_IFNAME="net1,net2",
        NODE_NAME="worker-0",
        GPU_CLUSTER_IP_MAPPING=str(pod.root / "mapping.txt"),
    )
    pod.set_addresses("net1", "10.241.1.17/26")
    pod.set_addresses("net2", "10.241.2.4/26")
    return pod


@pytest.fixture
def rdma(pod: Pod) -> Pod:
    pod.env.update(
        GPU_CLUSTER_VARIANT="sriov-rdma",
        GPU_CLUSTER_RDMA="1",
        NCCL_SOCKET_IFNAME="net1,net2,net3",
    )
    # mlx5_0 is the node's own PF; the VFs were probed out of interface order,
    # so counting down from the number of RDMA devices would give 3,2,1.
    pod.add_rdma("eth0", "mlx5_0", 1)
    pod.add_rdma("net1", "mlx5_3", 4)
    pod.add_rdma("net2", "mlx5_1", 2)
    pod.add_rdma("net3", "mlx5_2", 3)
    return pod


def write_mapping(pod: Pod, text: str) -> Path:
    path = pod.root / "mapping.txt"
    path.write_text(text)
    return path


# ------------------------------------------------------------------ launch --


def test_pod_variant_runs_torchrun_with_exact_argv(pod_variant: Pod) -> None:
    result = pod_variant.run()
    assert result.returncode == 0, result.stderr
    assert pod_variant.torchrun_argv() == TORCHRUN_PREFIX + CONFIG_ARGS
    assert pod_variant.ip_calls() == []
    env = pod_variant.torchrun_env()
    assert env["NCCL_SOCKET_IFNAME"] == "eth0"
    assert env["NCCL_IB_DISABLE"] == "1"
    assert "NCCL_IB_HCA" not in env
    assert "entrypoint: launching: torchrun --nnodes=4" in result.stdout
    assert result.error_lines() == []


def test_exit_status_is_torchruns(pod_variant: Pod) -> None:
    result = pod_variant.run(FAKE_TORCHRUN_RC="7")
    assert result.returncode == 7
    assert "fake torchrun: started" in result.stdout


def test_training_script_and_kubeflow_pet_variables(pod_variant: Pod) -> None:
    result = pod_variant.run(
        TRAINING_MODULE=None,
        TRAINING_SCRIPT="/opt/train.py",
        PET_NODE_RANK="2",
        PET_NNODES="2:8",
        PET_NPROC_PER_NODE="gpu",
        MASTER_PORT=None,
    )
    assert result.returncode == 0, result.stderr
    assert pod_variant.torchrun_argv() == [
        "--nnodes=2:8",
        "--nproc_per_node=gpu",
        "--node_rank=2",
        "--rdzv_backend=c10d",
        "--rdzv_endpoint=ilab-master-0:29500",
        "/opt/train.py",
        *CONFIG_ARGS,
    ]


def test_leaderworkerset_variables(pod_variant: Pod) -> None:
    result = pod_variant.run(
        RANK=None,
        MASTER_ADDR=None,
        WORLD_SIZE=None,
        NNODES="2",
        LWS_WORKER_INDEX="1",
        LWS_LEADER_ADDRESS="ilab-0.ilab.ns",
    )
    assert result.returncode == 0, result.stderr
    assert pod_variant.torchrun_argv()[:5] == [
        "--nnodes=2",
        "--nproc_per_node=8",
        "--node_rank=1",
        "--rdzv_backend=c10d",
        "--rdzv_endpoint=ilab-0.ilab.ns:23456",
    ]


def test_default_config_path_absent_means_no_arguments(pod_variant: Pod) -> None:
    result = pod_variant.run(CONFIG_JSON_PATH=None)
    if Path("/mnt/config/config.json").exists():
        pytest.skip("this host has a real /mnt/config/config.json")
    assert result.returncode == 0, result.stderr
    assert pod_variant.torchrun_argv() == TORCHRUN_PREFIX


@pytest.mark.parametrize(
    ("unset", "named"),
    [
        ("RANK", "node rank"),
        ("MASTER_ADDR", "rendezvous address"),
        ("WORLD_SIZE", "node count"),
        ("NPROC_PER_NODE", "processes per node"),
        ("TRAINING_MODULE", "TRAINING_MODULE or TRAINING_SCRIPT"),
    ],
)
def test_missing_launch_variable_exits_2_before_touching_interfaces(vnic: Pod, unset: str, named: str) -> None:
    result = vnic.run(**{unset: None})
    assert result.returncode == 2
    assert named in result.single_error()
    assert vnic.ip_calls() == []
    assert vnic.torchrun_argv() is None


def test_rank_must_be_below_node_count(pod_variant: Pod) -> None:
    result = pod_variant.run(RANK="4")
    assert result.returncode == 2
    assert "node rank 4" in result.single_error()


# Every config.json error is in test_launch_settings.py; one runs end to end here.
@pytest.mark.parametrize(
    ("config", "message"),
    [('{"fsdp": {"sharding": "HYBRID_SHARD"}}', "key 'fsdp': nested objects are not supported")],
)
def test_bad_config_json_exits_2(pod_variant: Pod, config: str, message: str) -> None:
    (pod_variant.root / "config.json").write_text(config)
    result = pod_variant.run()
    assert result.returncode == 2
    error = result.single_error()
    assert message in error
    assert str(pod_variant.root / "config.json") in error
    assert pod_variant.torchrun_argv() is None


# ------------------------------------------------------- address remapping --


def test_vnic_remaps_address_keeping_prefix_and_routes_out_of_prefix_peers(vnic: Pod) -> None:
    result = vnic.run()
    assert result.returncode == 0, result.stderr
    assert vnic.ip_calls() == VNIC_IP_CALLS
    assert vnic.addresses("net1") == ["10.241.1.4/26"]
    assert vnic.addresses("net2") == ["10.241.2.4/26"]
    assert vnic.routes() == [
        "10.241.1.100/32 dev net1",
        "10.241.3.7/32 dev net1",
        "10.241.4.7/32 dev net2",
    ]
    assert vnic.torchrun_argv() == TORCHRUN_PREFIX + CONFIG_ARGS
    assert "entrypoint: net1: set 10.241.1.4/26" in result.stdout
    assert "entrypoint: net2: 10.241.2.4/26 already set" in result.stdout


def test_prefix_comes_from_current_address_not_slash_24(vnic: Pod) -> None:
    vnic.set_addresses("net1", "10.241.1.200/24")
    result = vnic.run()
    assert result.returncode == 0, result.stderr
    calls = vnic.ip_calls()
    assert "addr del 10.241.1.200/24 dev net1" in calls
    assert "addr add 10.241.1.4/24 dev net1" in calls
    # Inside the /24 only worker-3 needs a route on net1.
    assert [c for c in calls if c.startswith("route") and c.endswith("net1")] == [
        "route replace 10.241.3.7/32 dev net1"
    ]


def test_interface_without_address_needs_prefix_variable(vnic: Pod) -> None:
    vnic.set_addresses("net1")
    result = vnic.run()
    assert result.returncode == 3
    error = result.single_error()
    assert "net1" in error and "GPU_CLUSTER_PREFIX_net1" in error
    assert not any(c.startswith(("addr ", "route ", "link ")) for c in vnic.ip_calls())

    result = vnic.run(GPU_CLUSTER_PREFIX_net1="26")
    assert result.returncode == 0, result.stderr
    assert vnic.addresses("net1") == ["10.241.1.4/26"]
    assert "addr del" not in "\n".join(c for c in vnic.ip_calls() if c.endswith("net1"))


def test_node_missing_from_mapping(vnic: Pod) -> None:
    result = vnic.run(NODE_NAME="worker-9")
    assert result.returncode == 3
    error = result.single_error()
    assert "worker-9" in error
    assert str(vnic.root / "mapping.txt") in error
    assert vnic.torchrun_argv() is None


def test_error_on_second_interface_leaves_first_untouched(vnic: Pod) -> None:
    text = (FIXTURES / "mapping.txt").read_text()
    write_mapping(vnic, text.replace("worker-0:ens14:net2:10.241.2.4\n", ""))
    result = vnic.run()
    assert result.returncode == 3
    assert "no line for node worker-0 interface net2" in result.single_error()
    assert all(c.startswith("-o -4 addr show") for c in vnic.ip_calls())
    assert vnic.addresses("net1") == ["10.241.1.17/26"]


def test_duplicated_mapping_line(vnic: Pod) -> None:
    write_mapping(
        vnic,
        "worker-0:ens13:net1:10.241.1.4\nworker-0:ens14:net2:10.241.2.4\nworker-0:ens15:net1:10.241.1.9\n",
    )
    result = vnic.run()
    assert result.returncode == 3
    error = result.single_error()
    assert "mapping.txt:3:" in error and "duplicated" in error and "line 1" in error
    assert vnic.ip_calls() == []


# Every malformed line is in test_launch_net.py; one runs end to end here.
@pytest.mark.parametrize(
    ("bad_line", "message"), [("worker-1:ens13:net1:10.241.1.256", "'10.241.1.256' is not a dotted-quad")]
)
def test_malformed_mapping_line_reports_its_number(vnic: Pod, bad_line: str, message: str) -> None:
    write_mapping(
        vnic,
        f"# header\nworker-0:ens13:net1:10.241.1.4\n\nworker-0:ens14:net2:10.241.2.4\n{bad_line}\n",
    )
    result = vnic.run()
    assert result.returncode == 3
    error = result.single_error()
    assert "mapping.txt:5:" in error
    assert message in error
    assert vnic.ip_calls() == []


def test_mapping_needs_node_name(vnic: Pod) -> None:
    result = vnic.run(NODE_NAME=None)
    assert result.returncode == 2
    assert "NODE_NAME" in result.single_error()


def test_failed_ip_command_is_reported(vnic: Pod) -> None:
    result = vnic.run(FAKE_IP_FAIL="route replace 10.241.3.7")
    assert result.returncode == 3
    error = result.single_error()
    assert "ip route replace 10.241.3.7/32 dev net1" in error
    assert "Operation not permitted" in error
    assert vnic.torchrun_argv() is None


def test_dry_run_prints_commands_without_running_them(vnic: Pod) -> None:
    result = vnic.run(GPU_CLUSTER_DRY_RUN="1")
    assert result.returncode == 0, result.stderr
    assert all(c.startswith("-o -4 addr show") for c in vnic.ip_calls())
    assert vnic.addresses("net1") == ["10.241.1.17/26"]
    assert vnic.torchrun_argv() is None
    dry = [
        line.removeprefix("entrypoint: dry-run: ")
        for line in result.stdout.splitlines()
        if line.startswith("entrypoint: dry-run: ")
    ]
    assert dry[:-1] == ["ip " + c for c in VNIC_IP_CALLS if not c.startswith("-o")]
    assert dry[-1].startswith("torchrun --nnodes=4 --nproc_per_node=8 --node_rank=1")
    assert dry[-1].endswith(r"--data_path=/mnt/storage/data\ set.jsonl")


# -------------------------------------------------------------------- RDMA --


def test_rdma_devices_follow_interface_order_through_sysfs(rdma: Pod) -> None:
    result = rdma.run()
    assert result.returncode == 0, result.stderr
    env = rdma.torchrun_env()
    assert env["NCCL_IB_HCA"] == "=mlx5_3,mlx5_1,mlx5_2"
    assert env["NCCL_IB_DISABLE"] == "0"
    assert env["NCCL_IB_GID_INDEX"] == "3"
    assert env["NCCL_SOCKET_IFNAME"] == "net1,net2,net3"
    assert rdma.torchrun_argv() == TORCHRUN_PREFIX + CONFIG_ARGS
    assert "entrypoint: net1: RDMA device mlx5_3" in result.stdout


def test_rdma_devices_are_exact_names_not_prefixes(pod: Pod) -> None:
    """NCCL reads a plain `mlx5_1` as a prefix that also matches mlx5_10..19 (nodes with 16+
    RDMA devices have them); the leading `=` makes the whole list exact."""
    pod.env.update(GPU_CLUSTER_VARIANT="sriov-rdma", GPU_CLUSTER_RDMA="1", NCCL_SOCKET_IFNAME="net1")
    pod.add_rdma("net1", "mlx5_1", 2)
    pod.add_rdma("net10", "mlx5_10", 11)
    result = pod.run()
    assert result.returncode == 0, result.stderr
    assert pod.torchrun_env()["NCCL_IB_HCA"] == "=mlx5_1"
    assert "NCCL_IB_HCA==mlx5_1" in result.stdout


@pytest.mark.parametrize("user_hca", ["mlx5_1,mlx5_3", "=mlx5_9:1", "^mlx5_0"])
def test_user_set_hca_is_passed_through_unchanged(rdma: Pod, user_hca: str) -> None:
    result = rdma.run(NCCL_IB_HCA=user_hca)
    assert result.returncode == 0, result.stderr
    assert rdma.torchrun_env()["NCCL_IB_HCA"] == user_hca


def test_user_set_hca_and_gid_are_kept(rdma: Pod) -> None:
    result = rdma.run(NCCL_IB_HCA="=mlx5_9:1", NCCL_IB_GID_INDEX="1")
    assert result.returncode == 0, result.stderr
    env = rdma.torchrun_env()
    assert env["NCCL_IB_HCA"] == "=mlx5_9:1"
    assert env["NCCL_IB_GID_INDEX"] == "1"
    assert "keeping NCCL_IB_HCA=" in result.stdout


def test_interface_without_rdma_device_is_named(rdma: Pod) -> None:
    (rdma.root / "sys" / "class" / "net" / "net4").mkdir()
    result = rdma.run(NCCL_SOCKET_IFNAME="net1,net4")
    assert result.returncode == 4
    error = result.single_error()
    assert "interface net4 has no RDMA device" in error
    assert rdma.torchrun_argv() is None


def test_rdma_with_mapping_remaps_then_launches(rdma: Pod) -> None:
    rdma.env.update(NODE_NAME="worker-0", GPU_CLUSTER_IP_MAPPING=str(rdma.root / "mapping.txt"))
    rdma.set_addresses("net1", "10.241.1.17/26")
    rdma.set_addresses("net2", "10.241.2.4/26")
    result = rdma.run(NCCL_SOCKET_IFNAME="net1,net2")
    assert result.returncode == 0, result.stderr
    assert rdma.ip_calls() == VNIC_IP_CALLS
    assert rdma.torchrun_env()["NCCL_IB_HCA"] == "=mlx5_3,mlx5_1"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        # The rest of the variant checks are in test_launch_settings.py.
        ({"GPU_CLUSTER_RDMA": None}, "variant sriov-rdma needs GPU_CLUSTER_RDMA=1"),
        ({"GPU_CLUSTER_VARIANT": "roce"}, "GPU_CLUSTER_VARIANT must be"),
    ],
)
def test_variant_sanity_checks(rdma: Pod, overrides: Dict[str, Optional[str]], message: str) -> None:
    result = rdma.run(**overrides)
    assert result.returncode == 2
    assert message in result.single_error()


# --------------------------------------------------------- transport check --


def test_transport_assertion_failure_is_the_exit_status(vnic: Pod) -> None:
    result = vnic.run(GPU_CLUSTER_EXPECT_TRANSPORT="socket", FAKE_CHECKER_RC="1")
    assert result.returncode == 1
    assert "transport assertion failed" in result.single_error()
    record = vnic.checker_record()
    log = str(vnic.root / "torchrun.log")
    assert record["argv"] == ["--expect", "socket", "--ifnames", "net1,net2", log]
    # tee had flushed both streams before the checker read the log.
    assert "fake torchrun: started" in record["log"]
    assert "fake torchrun: stderr line" in record["log"]
    assert vnic.torchrun_env()["NCCL_DEBUG"] == "INFO"
    assert "fake torchrun: started" in result.stdout


def test_transport_assertion_pass(rdma: Pod) -> None:
    result = rdma.run(GPU_CLUSTER_EXPECT_TRANSPORT="ib")
    assert result.returncode == 0, result.stderr
    # The checker refuses --ifnames unless it checks sockets.
    assert rdma.checker_record()["argv"] == ["--expect", "ib", str(rdma.root / "torchrun.log")]
    assert "transport assertion passed (ib)" in result.stdout


def test_torchrun_failure_wins_over_assertion(vnic: Pod) -> None:
    result = vnic.run(GPU_CLUSTER_EXPECT_TRANSPORT="socket", FAKE_TORCHRUN_RC="7")
    assert result.returncode == 7
    assert "torchrun exited with 7" in result.single_error()
    assert vnic.checker_record() is None


def test_assertion_refuses_quiet_nccl_debug(vnic: Pod) -> None:
    result = vnic.run(GPU_CLUSTER_EXPECT_TRANSPORT="socket", NCCL_DEBUG="WARN")
    assert result.returncode == 2
    assert "NCCL_DEBUG=WARN" in result.single_error()
    assert vnic.ip_calls() == []


@pytest.mark.skipif(not REAL_CHECKER.exists(), reason="workloads/nccl_transport.py not present")
@pytest.mark.parametrize(("ifnames", "expected_rc"), [("net1,net2", 0), ("eth0", 1)])
def test_real_checker_reads_the_teed_log(pod: Pod, ifnames: str, expected_rc: int) -> None:
    for module in ("nccl_transport.py", "nccl_log.py"):  # the checker and the log reader it imports
        shutil.copy(REAL_CHECKER.with_name(module), pod.root / "workloads" / module)
    result = pod.run(
        GPU_CLUSTER_VARIANT=None,
        NCCL_SOCKET_IFNAME=ifnames,
        GPU_CLUSTER_EXPECT_TRANSPORT="socket",
        FAKE_TORCHRUN_OUTPUT_FILE=str(FIXTURES / "nccl_socket.log"),
    )
    assert result.returncode == expected_rc, result.stdout + result.stderr
    assert ("PASS" if expected_rc == 0 else "FAIL") + " expect=socket on " + ifnames in result.stdout


def test_termination_signal_reaches_torchrun_during_assertion_run(vnic: Pod) -> None:
    """Bash as PID 1 defers trapped signals; the entrypoint must pass SIGTERM on."""
    mark = vnic.root / "torchrun.mark"
    pid_file = vnic.root / "torchrun.pid"
    torchrun = vnic.root / "bin" / "torchrun"
    torchrun.write_text(
        "#!/usr/bin/env bash\n"
        f"echo $$ > {pid_file}\n"
        f"trap 'echo TERM >> {mark}; exit 143' TERM\n"
        f"echo started > {mark}\n"
        "while :; do sleep 0.05; done\n"
    )
    env = {**vnic.env, "GPU_CLUSTER_EXPECT_TRANSPORT": "socket"}
    proc = subprocess.Popen(
        ["bash", str(SCRIPT)], env=env, cwd=vnic.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        for _ in range(600):  # wait for the fake to install its trap, at most ~30 s
            if (mark.exists() and mark.read_text()) or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        # Never leave the looping fake behind when the entrypoint failed to stop it.
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert mark.read_text().split() == ["started", "TERM"]
    assert proc.returncode == 143
    assert "torchrun exited with 143" in stderr
    assert vnic.checker_record() is None


def test_a_stalled_rank_is_the_launchers_last_error_line(pod_variant: Pod) -> None:
    """main_ds runs watched (teed, not exec'd): the guard's stall line becomes the pod's last error."""
    stall = (
        "[rank1]: gpu-cluster: stall: rank 1 made no progress for 61 s (GPU_CLUSTER_STALL_SECONDS 60) in "
        "step 2, forward/backward of 6 minibatch(es) and the loss all-reduce; waiting in collective "
        "nccl:all_reduce #5 (scheduled, process group default_pg, 1 not completed)\n"
    )
    output = pod_variant.root / "torchrun-output.txt"
    output.write_text("Epoch 0:  14%\n" + stall + "torch.distributed.elastic.multiprocessing.errors.ChildFailedError\n")
    result = pod_variant.run(
        FAKE_TORCHRUN_RC="1", FAKE_TORCHRUN_OUTPUT_FILE=str(output), GPU_CLUSTER_STALL_SECONDS="60"
    )
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "entrypoint: error: training stopped: " + stall.split(": ", 1)[1].strip()
    assert stall.strip() in (pod_variant.root / "torchrun.log").read_text()
    env = pod_variant.torchrun_env()
    # A save may take 4 stall limits (240 s); NCCL's timeout is past that, for the barrier a save ends in.
    assert env["GPU_CLUSTER_SAVE_SECONDS"] == "240" and env["INSTRUCTLAB_NCCL_TIMEOUT_MS"] == "360000"
    assert env["TORCH_NCCL_TRACE_BUFFER_SIZE"] == "2000"


@pytest.mark.parametrize("value", ["1e23", "inf", "nan", "-60", "0", "100000000000000000000000"])
def test_a_stall_limit_main_ds_could_not_take_is_one_error_line_before_torchrun(pod_variant: Pod, value: str) -> None:
    result = pod_variant.run(GPU_CLUSTER_STALL_SECONDS=value)
    assert result.returncode == 2 and pod_variant.torchrun_argv() is None
    assert result.single_error() == "entrypoint: error: " + (
        f"GPU_CLUSTER_STALL_SECONDS must be a whole number of seconds from 1 to 604800, got {value!r}"
    )
    assert "Traceback" not in result.stderr


def test_a_failure_without_a_stall_keeps_torchruns_status_and_no_extra_error(pod_variant: Pod) -> None:
    result = pod_variant.run(FAKE_TORCHRUN_RC="9", GPU_CLUSTER_STALL_SECONDS="60")
    assert result.returncode == 9
    assert result.error_lines() == []


# ------------------------------------------------------ several nodes --
# A failed multi-node start ends with one `entrypoint: error:` line naming the cause (issue 35), each
# reproduced once in the lab (docs/lab.md, tests/fixtures/runs/lab/) and kept here without a network.


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow  # one connection attempt and one 2 s retry pause: the 1 s deadline's own effect
def test_a_worker_that_cannot_reach_the_master_stops_in_one_line(pod_variant: Pod) -> None:
    port = _closed_port()
    result = pod_variant.run(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), GPU_CLUSTER_RENDEZVOUS_TIMEOUT="1")
    assert result.returncode == 6
    assert result.single_error() == (
        f"entrypoint: error: cannot reach the master's rendezvous 127.0.0.1:{port} from node rank 1 within 1 s "
        f"(GPU_CLUSTER_RENDEZVOUS_TIMEOUT; {result.single_error().split('; ')[1].split(' ')[0]} attempts): "
        f"127.0.0.1:{port}: connection refused (the address answers, but no rendezvous listens on the port)"
    )
    assert pod_variant.torchrun_argv() is None


def test_a_worker_starts_torchrun_once_the_master_answers(pod_variant: Pod) -> None:
    with socket.socket() as master:
        master.bind(("127.0.0.1", 0))
        master.listen()
        port = master.getsockname()[1]
        result = pod_variant.run(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), GPU_CLUSTER_RENDEZVOUS_TIMEOUT="5")
    assert result.returncode == 0, result.stderr
    assert f"the master's rendezvous 127.0.0.1:{port} answers at 127.0.0.1 (attempt 1)" in result.stdout
    assert pod_variant.torchrun_argv() is not None


def test_a_master_that_is_not_master_addr_stops_before_torchrun(pod_variant: Pod) -> None:
    # 192.0.2.1 (TEST-NET-1) is nobody's address here; torch would host the store on no node.
    result = pod_variant.run(RANK="0", MASTER_ADDR="192.0.2.1", GPU_CLUSTER_RENDEZVOUS_TIMEOUT="5")
    assert result.returncode == 6
    assert result.single_error().startswith(
        "entrypoint: error: node rank 0 hosts torchrun's rendezvous, but MASTER_ADDR 192.0.2.1 (192.0.2.1) is not "
        "this node (hostname "
    )
    assert pod_variant.torchrun_argv() is None


def test_the_master_named_by_its_own_address_runs(pod_variant: Pod) -> None:
    result = pod_variant.run(RANK="0", MASTER_ADDR="127.0.0.1", GPU_CLUSTER_RENDEZVOUS_TIMEOUT="5")
    assert result.returncode == 0, result.stderr
    assert "this node is MASTER_ADDR 127.0.0.1: it hosts the rendezvous" in result.stdout


def test_an_interface_missing_in_the_pod_stops_before_anything_runs(pod_variant: Pod) -> None:
    (pod_variant.root / "sys" / "class" / "net" / "eth0").rmdir()
    result = pod_variant.run()
    assert result.returncode == 3
    assert result.single_error() == (
        "entrypoint: error: interface eth0 (NCCL_SOCKET_IFNAME) is missing in this pod, which has lo, net1, net2, "
        "net3: its network was not attached (the pod's k8s.v1.cni.cncf.io/networks annotation and its "
        "NetworkAttachmentDefinition)"
    )
    assert pod_variant.torchrun_argv() is None


def test_a_mapped_interface_missing_in_the_pod_is_named(vnic: Pod) -> None:
    (vnic.ip_state / "net2").unlink()
    result = vnic.run()
    assert result.returncode == 3
    assert result.single_error() == (
        'entrypoint: error: cannot read the addresses of interface net2: Device "net2" does not exist.'
    )
    assert vnic.torchrun_argv() is None


NCCL_HEAD = (FIXTURES / "nccl_socket.log").read_text().splitlines()[:4]


@pytest.mark.parametrize(
    ("lines", "cause"),
    [
        (
            ["worker-0:101:101 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 1 localRanks 16 localRank 0 MNNVL 0"],
            "NCCL counts 1 node(s) for 16 ranks of 8 per node: it takes pods of different nodes for one host and "
            "connects them over P2P/SHM, not NET/Socket over eth0 (same hostname or NCCL_HOSTID on two pods?)",
        ),
        (
            ["worker-0:101:130 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA"],
            "NCCL connected ranks via NET/IB/0/GDRDMA, but variant pod carries NCCL over NET/Socket over eth0",
        ),
        (
            ["worker-0:101:101 [0] NCCL INFO NET/Socket : Using [0]net1:10.241.1.4<0>"],
            "NCCL's socket transport bound net1 (10.241.1.4), outside NCCL_SOCKET_IFNAME=eth0: variant pod "
            "carries NCCL over NET/Socket over eth0",
        ),
        (
            ["worker-0:101:101 [0] NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 1b000"],
            "NCCL found ranks of two pods on one GPU of one host (Duplicate GPU detected): it takes the job's nodes "
            "for one host, so it cannot connect them over NET/Socket over eth0 (same hostname or NCCL_HOSTID on "
            "two pods?)",
        ),
    ],
)
def test_nccl_on_a_transport_the_variant_does_not_expect_stops_torchrun(
    pod_variant: Pod, lines: List[str], cause: str
) -> None:
    log = pod_variant.root / "nccl.log"
    log.write_text("\n".join(lines) + "\nafter\n")
    # The fake keeps running like ranks in training; the launcher must stop it at the line, not wait.
    result = pod_variant.run(FAKE_TORCHRUN_OUTPUT_FILE=str(log), FAKE_TORCHRUN_SLEEP="50")
    assert result.returncode == 7
    assert "fake torchrun: terminated" in result.stdout
    assert result.single_error() == f"entrypoint: error: {cause}; torchrun stopped (status 143)"
    assert result.stderr.rstrip("\n").splitlines()[-1] == result.single_error()


def test_nccl_on_the_variants_own_transport_runs_to_the_end(vnic: Pod) -> None:
    result = vnic.run(WORLD_SIZE="2", FAKE_TORCHRUN_OUTPUT_FILE=str(FIXTURES / "nccl_socket.log"))
    assert result.returncode == 0, result.stderr
    assert result.error_lines() == []
    assert "via NET/Socket/0" in result.stdout
