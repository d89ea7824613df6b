"""The rendezvous checks and the transport watch, case by case with an injected clock, resolver and
connector (no network, no waiting); the entrypoint runs them end to end in test_entrypoint.py."""

from __future__ import annotations

import errno
import socket

import pytest

from workloads.launch_env import Rendezvous
from workloads.launch_messages import E_CONFIG, E_RENDEZVOUS, LaunchError
from workloads.launch_reach import check_master, rendezvous_timeout, wait_for_master
from workloads.launch_run import TransportWatch

WORKER = Rendezvous("2", "8", "1", "ilab-master-0", "29500", ("-m", "x"))
MASTER = Rendezvous("2", "8", "0", "ilab-master-0", "29500", ("-m", "x"))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def refused(ip: str, port: int, timeout: float) -> None:
    raise ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")


def test_a_worker_waits_for_the_master_until_its_deadline_then_names_the_last_failure() -> None:
    clock = Clock()
    with pytest.raises(LaunchError) as stop:
        wait_for_master(WORKER, 10, lambda host: ["10.128.0.10"], refused, clock, clock.sleep)
    assert stop.value.status == E_RENDEZVOUS
    # Attempts at 0, 2, 4, 6, 8 and 10 s: the deadline is kept to the retry pause.
    assert stop.value.message == (
        "cannot reach the master's rendezvous ilab-master-0:29500 from node rank 1 within 10 s "
        "(GPU_CLUSTER_RENDEZVOUS_TIMEOUT; 6 attempts): 10.128.0.10:29500: connection refused (the address answers, "
        "but no rendezvous listens on the port)"
    )


def test_a_master_name_that_does_not_resolve_is_said_so() -> None:
    def unknown(host: str) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    clock = Clock()
    with pytest.raises(LaunchError) as stop:
        wait_for_master(WORKER, 3, unknown, refused, clock, clock.sleep)
    assert stop.value.message.endswith(
        "(GPU_CLUSTER_RENDEZVOUS_TIMEOUT; 3 attempts): ilab-master-0 does not resolve: Name or service not known"
    )


def test_a_partitioned_master_is_a_timeout_not_a_refusal() -> None:
    def silent(ip: str, port: int, timeout: float) -> None:
        raise TimeoutError("timed out")

    clock = Clock()
    with pytest.raises(LaunchError) as stop:
        wait_for_master(WORKER, 0, lambda host: ["10.128.0.10"], silent, clock, clock.sleep)
    assert stop.value.message.endswith("1 attempts): 10.128.0.10:29500: no answer (connection timed out)")


def test_a_worker_goes_on_once_any_address_of_the_master_answers() -> None:
    tried: list[str] = []

    def second_only(ip: str, port: int, timeout: float) -> None:
        tried.append(ip)
        if ip != "10.0.0.2":
            refused(ip, port, timeout)

    clock = Clock()
    wait_for_master(WORKER, 10, lambda host: ["10.0.0.1", "10.0.0.2"], second_only, clock, clock.sleep)
    assert tried == ["10.0.0.1", "10.0.0.2"] and clock.now == 0.0


def test_the_master_is_master_addr_by_hostname_or_by_an_address_of_its_own() -> None:
    check_master(MASTER, "ilab-master-0", lambda host: pytest.fail("no lookup needed"))
    check_master(MASTER, "other", lambda host: ["127.0.0.1"])
    with pytest.raises(LaunchError) as stop:
        check_master(MASTER, "ilab-worker-0", lambda host: ["192.0.2.7"])
    assert stop.value.message == (
        "node rank 0 hosts torchrun's rendezvous, but MASTER_ADDR ilab-master-0 (192.0.2.7) is not this node "
        "(hostname ilab-worker-0, none of those addresses here): no node would host the store"
    )


def test_the_rendezvous_timeout_is_a_number_of_seconds() -> None:
    assert rendezvous_timeout({}) == 900
    assert rendezvous_timeout({"GPU_CLUSTER_RENDEZVOUS_TIMEOUT": "0"}) == 0
    with pytest.raises(LaunchError) as stop:
        rendezvous_timeout({"GPU_CLUSTER_RENDEZVOUS_TIMEOUT": "5m"})
    assert (stop.value.status, stop.value.message) == (
        E_CONFIG,
        "GPU_CLUSTER_RENDEZVOUS_TIMEOUT must be a number of seconds, got '5m'",
    )


LINE = "ilab-worker-0:7:7 [0] NCCL INFO "


@pytest.mark.parametrize(
    ("variant", "ifnames", "line", "wrong"),
    [
        ("vnic", ("net1",), "NET/Socket : Using [0]net1:10.241.192.71<0>", False),
        ("vnic", ("net",), "NET/Socket : Using [0]net1:10.241.192.71<0>", False),  # a prefix, as NCCL reads it
        ("vnic", ("=net1",), "NET/Socket : Using [0]net10:10.241.192.71<0>", True),  # exact
        ("vnic", ("net1",), "NET/Socket : Using [0]eth0:10.128.0.10<0>", True),
        ("sriov", ("net1",), "Channel 01/0 : 0[0] -> 1[0] [send] via NET/Socket/0", False),
        ("sriov", ("net1",), "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM", False),  # inside a node
        ("sriov-rdma", ("net1",), "Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0", True),  # IB fell back
        ("sriov-rdma", ("net1",), "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA", False),
        ("sriov-rdma", ("net1",), "NET/Socket : Using [0]eth0:10.128.0.10<0>", False),  # bootstrap, not data
        ("pod", ("eth0",), "comm 0x1 rank 0 nRanks 4 nNodes 2 localRanks 2 localRank 0 MNNVL 0", False),
        ("pod", ("eth0",), "comm 0x1 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0", True),
        # FSDP's shard group (one node's ranks) is one NCCL node; its replicate group spans the nodes.
        ("pod", ("eth0",), "comm 0x2 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0", False),
        ("pod", ("eth0",), "comm 0x3 rank 0 nRanks 1 nNodes 1 localRanks 1 localRank 0 MNNVL 0", False),
        ("", ("eth0",), "Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0", False),  # no variant: no judgement
    ],
)
def test_the_transport_watch_judges_each_line_by_the_variant(
    variant: str, ifnames: tuple[str, ...], line: str, wrong: bool
) -> None:
    assert (TransportWatch(variant, ifnames, "2", "2").line(LINE + line) is not None) is wrong


def test_one_node_is_not_watched() -> None:
    assert TransportWatch("pod", ("eth0",), "1", "8").line(LINE + "comm 0x1 rank 0 nRanks 8 nNodes 1") is None
