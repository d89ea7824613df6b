"""workloads/launch_net.py in process: the mapping file, the address plan (IPv4 arithmetic), the
`ip` changes in order, and the RDMA device lookup in a sysfs tree."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from workloads.launch_messages import E_MAPPING, E_RDMA, LaunchError
from workloads.launch_net import (
    InterfacePlan,
    apply_plan,
    inet_addresses,
    ip_changer,
    plan_interface,
    rdma_devices,
    read_mapping,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "entrypoint"
MAPPING = str(FIXTURES / "mapping.txt")


class FakeIp:
    """`ip -o -4 addr show` answers from a table; records every call."""

    def __init__(self, addresses: dict[str, list[str]], fail: str = "") -> None:
        self.addresses, self.fail = addresses, fail
        self.calls: list[str] = []

    def __call__(self, args: Sequence[str]) -> tuple[int, str]:
        line = " ".join(args)
        self.calls.append(line)
        if self.fail and self.fail in line:
            return 2, "RTNETLINK answers: Operation not permitted\n"
        if args[:4] == ["-o", "-4", "addr", "show"]:
            dev = args[-1]
            if dev not in self.addresses:
                return 1, f'Device "{dev}" does not exist.\n'
            return 0, "".join(
                f"3: {dev}    inet {a} brd 0.0.0.0 scope global {dev}\\       valid_lft forever\n"
                for a in self.addresses[dev]
            )
        return 0, ""


def _error(call: object, *args: object, **kwargs: object) -> LaunchError:
    with pytest.raises(LaunchError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value


def test_the_mapping_fixture_reads_in_file_order_with_line_numbers() -> None:
    lines = read_mapping(MAPPING)
    assert [(m.node, m.ifname, m.ip, m.lineno) for m in lines[:3]] == [
        ("worker-0", "net1", "10.241.1.4", 4),
        ("worker-0", "net2", "10.241.2.4", 5),
        ("worker-1", "net1", "10.241.1.5", 7),
    ]
    assert len(lines) == 8  # blank, comment and indented comment lines skipped


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a:b:net1:10.0.0.1\na:c:net1:10.0.0.2\n", ":2: node a interface net1 is duplicated (first on line 1)"),
        ("a:b:net1:10.0.0.1\nb:b:net1:10.0.0.1\n", ":2: address 10.0.0.1 is already used on line 1"),
        ("a:b:net1:010.0.0.1\n", ":1: '010.0.0.1' is not a dotted-quad IPv4 address"),
        ("a:b:net1\r\n", ":1: expected node:hostif:netN:ip, got 'a:b:net1'"),
        ("# c\n\n  w-1 ens13 net1 10.0.0.5\n", ":3: expected node:hostif:netN:ip, got 'w-1 ens13 net1 10.0.0.5'"),
        ("w-1:ens13:net1:10.241.1\n", ":1: '10.241.1' is not a dotted-quad IPv4 address"),
        ("w-1:ens13:net1:10.241.1.256\n", ":1: '10.241.1.256' is not a dotted-quad IPv4 address"),
    ],
)
def test_bad_mapping_lines_name_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "m.txt"
    path.write_text(text)
    error = _error(read_mapping, str(path))
    assert error.status == E_MAPPING and error.message == f"{path}{message}"


def test_a_missing_mapping_file_is_named() -> None:
    assert (
        _error(read_mapping, "/nonexistent/m.txt").message
        == "mapping file /nonexistent/m.txt not found (GPU_CLUSTER_IP_MAPPING)"
    )


def test_inet_addresses_takes_the_word_after_inet_primary_first() -> None:
    shown = "3: net1 inet 10.0.0.5/26 brd x\n3: net1 inet 10.0.0.9/26 brd x secondary\n4: net1 inet6 fe80::1/64\n"
    assert inet_addresses(shown) == ["10.0.0.5/26", "10.0.0.9/26"]


def test_prefix_comes_from_the_interface_and_only_peers_outside_it_get_routes() -> None:
    ip = FakeIp({"net1": ["10.241.1.17/26"]})
    plan = plan_interface("net1", "worker-0", read_mapping(MAPPING), MAPPING, ip, {})
    assert plan == InterfacePlan(
        "net1", "10.241.1.4", 26, ("10.241.1.17/26",), True, (("10.241.1.100", "worker-2"), ("10.241.3.7", "worker-3"))
    )
    wide = plan_interface("net1", "worker-0", read_mapping(MAPPING), MAPPING, FakeIp({"net1": ["10.241.1.4/24"]}), {})
    assert (wide.prefix, wide.stale, wide.needs_add, wide.routes) == (24, (), False, (("10.241.3.7", "worker-3"),))


def test_the_prefix_variable_overrides_and_is_needed_without_an_address() -> None:
    mapping = read_mapping(MAPPING)
    error = _error(plan_interface, "net1", "worker-0", mapping, MAPPING, FakeIp({"net1": []}), {})
    assert (
        error.message == "interface net1 has no IPv4 address to take the prefix length from; set "
        "GPU_CLUSTER_PREFIX_net1"
    )
    plan = plan_interface("net1", "worker-0", mapping, MAPPING, FakeIp({"net1": []}), {"GPU_CLUSTER_PREFIX_net1": "16"})
    assert (plan.prefix, plan.routes) == (16, ())  # every peer inside 10.241.0.0/16
    bad = _error(
        plan_interface, "net1", "worker-0", mapping, MAPPING, FakeIp({"net1": []}), {"GPU_CLUSTER_PREFIX_net1": "33"}
    )
    assert bad.message == "GPU_CLUSTER_PREFIX_net1 must be a prefix length 0-32, got '33'"


@pytest.mark.parametrize(
    ("addresses", "message"),
    [
        (None, 'cannot read the addresses of interface net1: Device "net1" does not exist.'),
        (["10.0.0.1/40"], "interface net1 reports an unexpected address '10.0.0.1/40'"),
    ],
)
def test_what_ip_reports_is_checked(addresses: list[str] | None, message: str) -> None:
    ip = FakeIp({} if addresses is None else {"net1": addresses})
    assert _error(plan_interface, "net1", "worker-0", read_mapping(MAPPING), MAPPING, ip, {}).message == message


def test_changes_delete_before_adding_then_route() -> None:
    plans = [
        InterfacePlan("net1", "10.0.0.4", 26, ("10.0.0.17/26",), True, (("10.0.1.7", "w3"),)),
        InterfacePlan("net2", "10.0.2.4", 26, (), False, ()),
    ]
    ip = FakeIp({})
    apply_plan(plans, ip_changer(ip, dry_run=False))
    assert ip.calls == [
        "addr del 10.0.0.17/26 dev net1",
        "addr add 10.0.0.4/26 dev net1",
        "link set net1 up",
        "route replace 10.0.1.7/32 dev net1",
    ]
    dry = FakeIp({})
    apply_plan(plans, ip_changer(dry, dry_run=True))
    assert dry.calls == []


def test_a_failed_change_stops_with_ips_message() -> None:
    error = _error(
        ip_changer(FakeIp({}, fail="route"), dry_run=False), ["route", "replace", "10.0.1.7/32", "dev", "net1"]
    )
    assert (error.status, error.message) == (
        E_MAPPING,
        "'ip route replace 10.0.1.7/32 dev net1' failed: RTNETLINK answers: Operation not permitted",
    )


def _rdma(sysfs: Path, netdev: str, *devices: str) -> None:
    for device in devices:
        (sysfs / "class" / "net" / netdev / "device" / "infiniband" / device).mkdir(parents=True)


def test_rdma_devices_follow_the_interfaces(tmp_path: Path) -> None:
    _rdma(tmp_path, "net1", "mlx5_3")
    _rdma(tmp_path, "net2", "mlx5_1")
    assert rdma_devices(["net1", "net2"], str(tmp_path)) == ["mlx5_3", "mlx5_1"]
    _rdma(tmp_path, "net3", "mlx5_4", "mlx5_5")
    (tmp_path / "class" / "net" / "net4").mkdir()
    several = _error(rdma_devices, ["net3"], str(tmp_path))
    assert (several.status, several.message) == (
        E_RDMA,
        f"interface net3 has several RDMA devices (mlx5_4 mlx5_5) under {tmp_path}/class/net/net3/device/infiniband",
    )
    assert _error(rdma_devices, ["net4"], str(tmp_path)).message.startswith("interface net4 has no RDMA device")
