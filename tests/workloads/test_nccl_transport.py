"""workloads/nccl_transport.py against real NCCL 2.28.9 logs from 2x H200 and a
synthetic two-node RoCE log, through the API and the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from workloads import nccl_transport as nt

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "workloads" / "nccl_transport.py"
LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "nccl-logs"
NVLINK = LOGS / "2xH200-nvlink.log"
SHM = LOGS / "2xH200-shm.log"
SOCKET = LOGS / "2xH200-socket.log"
BENCH_SOCKET = LOGS / "bench-2xH200-socket.log"  # nccl_bench.py output + NCCL INFO, one stream
IB = LOGS / "synthetic-2node-ib.log"


def summary(path: Path) -> nt.TransportSummary:
    return nt.parse_files([str(path)])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60, check=False)


# ---------------------------------------------------------------- real logs --


def test_nvlink_log_uses_p2p_cumem_only() -> None:
    s = summary(NVLINK)
    assert s.version == "2.28.9+cuda13.0"
    assert s.transports == {"p2p"}
    assert s.via == {"P2P/CUMEM": 48}
    assert (s.n_ranks, s.n_nodes) == (2, 1)
    assert s.gdr is False
    # The socket plugin initialises even though no connection used it.
    assert s.socket_interfaces == (nt.SocketInterface("eth0", "192.0.2.2"),)
    assert s.ib_no_device and s.ib_ports == ()
    # `0 nvls channels` is a count, not NVLS use; `24 collnet channels` likewise.
    assert "nvls" not in s.transports and "collnet" not in s.transports


def test_shm_log_uses_shm_only() -> None:
    s = summary(SHM)
    assert s.transports == {"shm"}
    assert s.via == {"SHM/direct/direct": 8}
    assert s.env == {"NCCL_P2P_DISABLE": "1"}


def test_socket_log_uses_net_socket_on_loopback() -> None:
    s = summary(SOCKET)
    assert s.transports == {"net-socket"}
    assert s.via == {"NET/Socket/0": 8}
    assert s.socket_interfaces == (nt.SocketInterface("lo", "127.0.0.1"),)
    assert s.socket_ifnames == ("lo",)
    assert s.oob_interfaces == (nt.SocketInterface("lo", "127.0.0.1"),)
    assert s.env["NCCL_SOCKET_IFNAME"] == "lo"
    assert s.hosts == {"vm"}


def test_bench_log_ignores_table_lines_and_strips_env_full_stops() -> None:
    s = summary(BENCH_SOCKET)
    assert s.transports == {"net-socket"}
    assert s.socket_ifnames == ("lo",)
    # NCCL writes `NCCL_SHM_DISABLE set by environment to 1.`
    assert s.env["NCCL_SHM_DISABLE"] == "1"
    assert s.env["NCCL_NVLS_ENABLE"] == "0"


@pytest.mark.parametrize(
    ("log", "expect", "ifnames"),
    [
        (NVLINK, "p2p", None),
        (SHM, "shm", None),
        (SOCKET, "socket", None),
        (SOCKET, "socket", ["lo"]),
        (SOCKET, "socket", ["net1", "lo"]),
        (BENCH_SOCKET, "socket", ["lo"]),
    ],
)
def test_check_passes_for_the_transport_used(log: Path, expect: str, ifnames: list[str] | None) -> None:
    assert nt.check(summary(log), expect, ifnames=ifnames) == []


def test_expect_ib_on_socket_log_names_the_fallback() -> None:
    failures = nt.check(summary(SOCKET), "ib")
    assert len(failures) == 2
    assert "expected NET/IB connections, saw net-socket=8" in failures[0]
    assert "NET/IB : No device found" in failures[0]
    assert "8 connection(s) fell back to NET/Socket (interfaces lo)" in failures[1]


def test_expect_socket_on_wrong_interface_names_it() -> None:
    failures = nt.check(summary(SOCKET), "socket", ifnames=["net1"])
    assert failures == ["NCCL socket interfaces outside net1: lo (127.0.0.1)"]


def test_expect_socket_rejects_eth0_when_secondary_nics_were_asked_for() -> None:
    # The P2P log's socket plugin bound eth0: a job meant for net1/net2 must not pass.
    failures = nt.check(summary(NVLINK), "socket", ifnames=["net1", "net2"])
    assert any("saw p2p=48" in f for f in failures)
    assert any("outside net1,net2: eth0 (192.0.2.2)" in f for f in failures)


@pytest.mark.parametrize(
    ("log", "expect", "message"),
    [
        (SHM, "p2p", "expected P2P connections, saw shm=8"),
        (NVLINK, "shm", "expected SHM connections, saw p2p=48"),
        (NVLINK, "socket", "expected NET/Socket connections, saw p2p=48"),
        (SOCKET, "p2p", "expected P2P connections, saw net-socket=8"),
    ],
)
def test_check_fails_for_other_transports(log: Path, expect: str, message: str) -> None:
    assert message in nt.check(summary(log), expect)


def test_check_rejects_bad_arguments() -> None:
    s = summary(NVLINK)
    with pytest.raises(ValueError, match="unknown expectation"):
        nt.check(s, "nvlink")
    with pytest.raises(ValueError, match="ifnames only applies"):
        nt.check(s, "p2p", ifnames=["eth0"])


def test_log_without_connections_fails_every_expectation() -> None:
    s = nt.parse_log(["vm:1:1 [0] NCCL INFO NCCL version 2.28.9+cuda13.0\n"])
    assert s.version == "2.28.9+cuda13.0"
    for expect in nt.EXPECTATIONS:
        (failure,) = nt.check(s, expect)
        assert "no NCCL connection lines" in failure


# ------------------------------------------------------ synthetic 2-node IB --


def test_ib_log_detects_roce_ports_gdr_and_both_nodes() -> None:
    s = summary(IB)
    assert s.transports == {"p2p", "net-ib"}
    assert s.connections == {"p2p": 3, "net-ib": 8}
    assert s.ib_ports == (nt.IbPort("mlx5_0", 1, "RoCE"), nt.IbPort("mlx5_1", 1, "RoCE"))
    assert s.ib_devices == ("mlx5_0", "mlx5_1")
    assert s.gdr is True
    assert s.gdr_hcas == {"mlx5_0", "mlx5_1"}
    assert s.oob_interfaces == (
        nt.SocketInterface("eth0", "10.240.0.4"),
        nt.SocketInterface("eth0", "10.240.0.5"),
    )
    assert [i.address for i in s.bootstrap_interfaces] == ["10.240.0.4", "10.240.0.5"]
    assert (s.n_ranks, s.n_nodes) == (16, 2)
    assert s.networks == {"IB"}
    assert s.env == {"NCCL_IB_GID_INDEX": "3"}


def test_glued_and_launcher_tagged_lines_are_split_per_record() -> None:
    s = summary(IB)
    # One physical line holds two PXN records; `[default7]:` tags two more.
    assert s.via["NET/IB/0(8)/GDRDMA"] == 1
    assert s.via["NET/IB/1(8)/GDRDMA"] == 1
    assert s.hosts == {"gpu-node-0", "gpu-node-1"}


def test_ib_log_passes_ib_with_gdr_and_intra_node_p2p() -> None:
    s = summary(IB)
    assert nt.check(s, "ib", require_gdr=True) == []
    # Two nodes: the NET connections are inter-node, so P2P inside each node holds.
    assert nt.check(s, "p2p") == []
    assert nt.check(s, "socket") == [
        "expected NET/Socket connections, saw net-ib=8, p2p=3",
        "8 connection(s) used another network transport (net-ib=8); expected NET/Socket only",
    ]


def test_ib_with_one_socket_fallback_and_no_gdr_fails() -> None:
    lines = [
        "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
        "a:1:1 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0",
        "b:2:2 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>",
        "b:2:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
    ]
    s = nt.parse_log(lines)
    assert s.gdr is False
    failures = nt.check(s, "ib", require_gdr=True)
    assert failures == [
        "1 connection(s) fell back to NET/Socket (interfaces eth0); expected IB only",
        "expected GPUDirect RDMA (`/GDRDMA`) on a network connection, saw none",
    ]


MIXED_SOCKET_AND_IB = [
    "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0",
    "a:1:1 [0] NCCL INFO NET/Socket : Using [0]net1:10.241.1.4<0>",
    "a:1:1 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0",
    "b:2:2 [0] NCCL INFO NET/Socket : Using [0]net1:10.241.1.5<0>",
    "b:2:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0",
    "b:2:2 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA",
]


def test_expect_socket_fails_when_some_connections_went_over_ib() -> None:
    """The mirror of the IB check: a socket run whose NCCL also wired a channel over IB
    (an RDMA device the variant should have hidden) did not measure sockets."""
    s = nt.parse_log(MIXED_SOCKET_AND_IB)
    assert s.connections == {"net-socket": 2, "net-ib": 1}
    assert nt.check(s, "socket", ifnames=["net1"]) == [
        "1 connection(s) used another network transport (net-ib=1); expected NET/Socket only",
    ]


def test_expect_socket_fails_on_plugin_and_collnet_connections() -> None:
    lines = [
        "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
        "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/AWS Libfabric/0/GDRDMA",
        "h:1:1 [0] NCCL INFO CollNet 00/0 : 0 [send] via COLLNET/IBext_v8/0/GDRDMA",
        "h:1:1 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
    ]
    (failure,) = nt.check(nt.parse_log(lines), "socket")
    assert failure == (
        "2 connection(s) used another network transport (collnet=1, net-aws-libfabric=1); expected NET/Socket only"
    )


def test_cli_socket_on_mixed_log_exits_1(tmp_path: Path) -> None:
    log = tmp_path / "mixed.log"
    log.write_text("\n".join(MIXED_SOCKET_AND_IB) + "\n")
    result = run_cli("--expect", "socket", "--ifnames", "net1", str(log))
    assert result.returncode == 1, result.stdout
    assert "FAIL expect=socket on net1" in result.stdout
    assert "used another network transport (net-ib=1)" in result.stdout


def test_other_connection_kinds_are_classified() -> None:
    lines = [
        "h:1:1 [0] NCCL INFO CollNet 00/0 : 0 [send] via COLLNET/IBext_v8/0/GDRDMA",
        "h:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/AWS Libfabric/0/GDRDMA",
        "h:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/IBext_v8/1/GDRDMA/Shared",
        "h:1:1 [0] NCCL INFO 16 coll channels, 0 collnet channels, 16 nvls channels, 16 p2p channels",
        "NCCL INFO Channel 02 : 0[0] -> 1[1] via SHM/direct/direct",  # prefix stripped
    ]
    s = nt.parse_log(lines)
    assert s.transports == {"collnet", "net-aws-libfabric", "net-ib", "nvls", "shm"}
    assert s.gdr is True


def test_warnings_are_collected_not_counted_as_connections() -> None:
    s = nt.parse_log(["h:1:1 [0] NCCL WARN NET/Socket : no usable interface found via eth9"])
    assert s.warnings == ("NET/Socket : no usable interface found via eth9",)
    assert s.connections == {}


# ---------------------------------------------------------------------- CLI --


def test_cli_pass_prints_verdict_and_exits_0() -> None:
    result = run_cli("--expect", "p2p", str(NVLINK))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS expect=p2p" in result.stdout
    assert "via: P2P/CUMEM x48" in result.stdout


def test_cli_socket_with_ifnames_passes_on_lo() -> None:
    result = run_cli("--expect", "socket", "--ifnames", "lo", str(SOCKET))
    assert result.returncode == 0, result.stdout
    assert "PASS expect=socket on lo" in result.stdout


def test_cli_failure_exits_1_with_reasons() -> None:
    result = run_cli("--expect", "socket", "--ifnames", "net1,net2", str(SOCKET))
    assert result.returncode == 1
    assert "FAIL expect=socket on net1,net2" in result.stdout
    assert "outside net1,net2: lo (127.0.0.1)" in result.stdout


def test_cli_ib_on_socket_log_exits_1() -> None:
    result = run_cli("--expect", "ib", str(SOCKET))
    assert result.returncode == 1
    assert "fell back to NET/Socket" in result.stdout


def test_cli_merges_several_logs() -> None:
    result = run_cli("--expect", "p2p", str(NVLINK), str(SHM))
    assert result.returncode == 1
    assert "48 connection(s) used P2P" not in result.stdout
    assert "8 connection(s) used SHM; expected P2P" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--expect", "p2p", "does-not-exist.log"],
        ["--expect", "p2p", "--ifnames", "eth0", str(NVLINK)],
        ["--expect", "nvlink", str(NVLINK)],
        ["--expect", "p2p"],
    ],
)
def test_cli_usage_errors_and_unreadable_files_exit_2(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 2
    assert result.stderr
