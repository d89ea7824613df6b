"""The NCCL settings table: values per variant, overrides, and the checks of contradictions."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.models.config import NETWORK_VARIANTS
from components.plan.nccl import (
    IBM_HOPPER_IB_SETTINGS,
    debug_problem,
    expected_transport,
    job_interfaces,
    nccl_defaults,
    nccl_environment,
    nccl_table_markdown,
    override_problems,
)

PROJECT_ROOT = Path(__file__).resolve().parents[3]
NETS = ("net1", "net2", "net3")


def test_every_variant_logs_at_info_so_the_transport_can_be_checked() -> None:
    for variant in NETWORK_VARIANTS:
        assert nccl_defaults(variant, NETS)["NCCL_DEBUG"] == "INFO"


def test_pod_uses_the_primary_interface_over_sockets() -> None:
    env = nccl_defaults("pod", ())
    assert env["NCCL_SOCKET_IFNAME"] == "eth0"
    assert env["NCCL_IB_DISABLE"] == "1"
    assert env["NCCL_NET"] == "Socket"
    assert not [name for name in env if name.startswith("NCCL_IB_") and name != "NCCL_IB_DISABLE"]


@pytest.mark.parametrize("variant", ["vnic", "sriov"])
def test_socket_variants_use_the_secondary_interfaces_in_order(variant: str) -> None:
    env = nccl_defaults(variant, NETS)
    assert env["NCCL_SOCKET_IFNAME"] == "net1,net2,net3"
    assert env["NCCL_IB_DISABLE"] == "1"
    assert env["NCCL_NET"] == "Socket"
    assert "NCCL_IB_GID_INDEX" not in env and "NCCL_NET_GDR_LEVEL" not in env


def test_sriov_rdma_turns_ib_on_with_ibms_settings() -> None:
    env = nccl_defaults("sriov-rdma", NETS)
    assert env["NCCL_IB_DISABLE"] == "0"
    assert env["NCCL_NET"] == "IB"
    assert env["NCCL_SOCKET_IFNAME"] == "net1,net2,net3"
    assert env["NCCL_IB_GID_INDEX"] == "3"
    assert env["NCCL_NET_GDR_LEVEL"] == "PHB"
    assert {name: env[name] for name in IBM_HOPPER_IB_SETTINGS} == {
        "NCCL_IB_PCI_RELAXED_ORDERING": "2",
        "NCCL_IB_QPS_PER_CONNECTION": "16",
        "NCCL_IB_ADAPTIVE_ROUTING": "1",
        "NCCL_IB_TIMEOUT": "22",
        "NCCL_IB_RETRY_CNT": "10",
        "NCCL_CROSS_NIC": "2",
    }
    # The entrypoint finds the HCA behind each netN in sysfs; a fixed list could name another NIC.
    assert "NCCL_IB_HCA" not in env


def test_secondary_variants_need_interfaces_and_unknown_variants_fail() -> None:
    with pytest.raises(ValueError, match="at least one secondary interface"):
        nccl_defaults("vnic", ())
    with pytest.raises(ValueError, match="unknown network variant"):
        nccl_defaults("infiniband", NETS)


def test_overrides_win_and_the_result_is_sorted() -> None:
    env = nccl_environment("sriov-rdma", ("net1",), {"NCCL_IB_GID_INDEX": "5", "NCCL_ALGO": "Ring"})
    assert env["NCCL_IB_GID_INDEX"] == "5"
    assert env["NCCL_ALGO"] == "Ring"
    assert list(env) == sorted(env)


def test_job_interfaces() -> None:
    assert job_interfaces("pod", 0) == ("eth0",)
    assert job_interfaces("vnic", 2) == ("net1", "net2")
    assert job_interfaces("sriov-rdma", 1) == ("net1",)


@pytest.mark.parametrize(
    ("variant", "overrides", "name", "fragment"),
    [
        ("vnic", {"NCCL_IB_DISABLE": "0"}, "NCCL_IB_DISABLE", "only sriov-rdma uses RDMA"),
        ("pod", {"NCCL_NET": "IB"}, "NCCL_NET", "has no RDMA devices"),
        ("sriov", {"NCCL_IB_HCA": "mlx5_0"}, "NCCL_IB_HCA", "runs NCCL over TCP sockets"),
        ("sriov", {"NCCL_IB_GID_INDEX": "3"}, "NCCL_IB_GID_INDEX", "is an RDMA setting"),
        ("vnic", {"NCCL_NET_GDR_LEVEL": "SYS"}, "NCCL_NET_GDR_LEVEL", "is an RDMA setting"),
        ("sriov-rdma", {"NCCL_IB_DISABLE": "1"}, "NCCL_IB_DISABLE", "would measure sriov"),
        ("sriov-rdma", {"NCCL_NET": "Socket"}, "NCCL_NET", "would measure sriov"),
        ("vnic", {"NCCL_IB_DISABLE": "yes"}, "NCCL_IB_DISABLE", "must be 0 or 1"),
        ("vnic", {"NCCL_SOCKET_IFNAME": "net1,net4"}, "NCCL_SOCKET_IFNAME", "no interface net4"),
        ("vnic", {"NCCL_SOCKET_IFNAME": "eth0"}, "NCCL_SOCKET_IFNAME", "is the pod network"),
        ("sriov", {"NCCL_SOCKET_IFNAME": "^lo"}, "NCCL_SOCKET_IFNAME", "plain interface names"),
        ("pod", {"NCCL_SOCKET_IFNAME": "net1"}, "NCCL_SOCKET_IFNAME", "only eth0"),
        ("pod", {"NCCL_SOCKET_IFNAME": "=eth"}, "NCCL_SOCKET_IFNAME", "no interface matching '=eth'"),
        ("sriov-rdma", {"NCCL_IB_GID_INDEX": "256"}, "NCCL_IB_GID_INDEX", "from 0 to 255"),
        ("sriov-rdma", {"NCCL_IB_GID_INDEX": "three"}, "NCCL_IB_GID_INDEX", "from 0 to 255"),
        ("sriov-rdma", {"NCCL_IB_HCA": "mlx4_0"}, "NCCL_IB_HCA", "named mlx5_N"),
        ("sriov-rdma", {"NCCL_IB_HCA": "mlx5_0,mlx5_1,mlx5_2,mlx5_3"}, "NCCL_IB_HCA", "names 4 RDMA devices"),
        ("sriov-rdma", {"NCCL_NET_GDR_LEVEL": "NEAR"}, "NCCL_NET_GDR_LEVEL", "must be one of"),
        ("sriov-rdma", {"NCCL_CROSS_NIC": "3"}, "NCCL_CROSS_NIC", "must be 0, 1 or 2"),
        ("pod", {"NCCL_DEBUG": "LOUD"}, "NCCL_DEBUG", "must be one of"),
        ("pod", {"NCCL_ALGO": "  "}, "NCCL_ALGO", "is empty"),
    ],
)
def test_contradicting_overrides_are_named(variant: str, overrides: dict[str, str], name: str, fragment: str) -> None:
    interfaces = job_interfaces(variant, 0 if variant == "pod" else 3)
    problems = dict(override_problems(variant, interfaces, overrides, hca_prefix="mlx5_"))
    assert list(problems) == [name]
    assert fragment in problems[name]


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("pod", {"NCCL_SOCKET_IFNAME": "eth", "NCCL_IB_DISABLE": "1", "NCCL_NET": "Socket"}),
        ("pod", {"NCCL_SOCKET_IFNAME": "=eth0"}),
        ("pod", {"NCCL_SOCKET_IFNAME": "^docker,lo"}),
        ("vnic", {"NCCL_SOCKET_IFNAME": "net2,net1", "NCCL_DEBUG": "warn", "NCCL_NSOCKS_PERTHREAD": "4"}),
        ("sriov-rdma", {"NCCL_IB_GID_INDEX": "-1", "NCCL_IB_HCA": "=mlx5_3:1,mlx5_5", "NCCL_NET_GDR_LEVEL": "SYS"}),
        ("sriov-rdma", {"NCCL_IB_HCA": "^mlx5_0,mlx5_1,mlx5_2,mlx5_3", "NCCL_NET": "ib", "NCCL_IB_DISABLE": "0"}),
    ],
)
def test_consistent_overrides_pass(variant: str, overrides: dict[str, str]) -> None:
    interfaces = job_interfaces(variant, 0 if variant == "pod" else 3)
    assert override_problems(variant, interfaces, overrides, hca_prefix="mlx5_") == []


def test_the_transport_assertion_needs_info_logs_in_the_output() -> None:
    assert debug_problem({"NCCL_DEBUG": "INFO"}) is None
    assert debug_problem({"NCCL_DEBUG": "trace"}) is None
    assert debug_problem({"NCCL_DEBUG": "WARN"})[0] == "NCCL_DEBUG"
    assert debug_problem({"NCCL_DEBUG_FILE": "/tmp/nccl.%h.%p"})[0] == "NCCL_DEBUG_FILE"


def test_expected_transport_per_variant() -> None:
    assert expected_transport("sriov-rdma", 2) == "ib"
    assert expected_transport("sriov", 2) == "socket"
    assert expected_transport("vnic", 8) == "socket"
    assert expected_transport("pod", 2) == "socket"
    for variant in NETWORK_VARIANTS:
        assert expected_transport(variant, 1) is None


def test_docs_carry_the_table_from_code() -> None:
    table = nccl_table_markdown()
    assert "| `NCCL_IB_GID_INDEX` | – | – | – | `3` |" in table
    assert table in (PROJECT_ROOT / "docs" / "training.md").read_text(encoding="utf-8")
