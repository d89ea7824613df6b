"""The pod's secondary interfaces: the RDMA device behind each one (sysfs), and the address the VPC
assigned to it (the mapping file), set with ``ip`` together with host routes to the peers outside
its prefix. Every interface is planned and checked before the first change, so a bad setting never
leaves one half-reconfigured.

Apart by concept, not size: the one module that changes the node's network."""

from __future__ import annotations

import ipaddress
import os
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from workloads.launch_messages import E_MAPPING, E_RDMA, LaunchError, info, shell_line

IpRunner = Callable[[Sequence[str]], tuple[int, str]]
"""Runs ``ip ARGS``; returns its status and its combined output."""

_OCTET = r"(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = re.compile(rf"{_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET}")
_PREFIX_LENGTH = re.compile(r"3[0-2]|[12]?[0-9]")
_FIELD = r"[^:\s]+"
_LINE = re.compile(rf"({_FIELD}):({_FIELD}):({_FIELD}):({_FIELD})")


def rdma_devices(ifnames: Sequence[str], sysfs: str) -> list[str]:
    """The one RDMA device under each interface's PCI function, in interface order.

    The kernel numbers mlx5_N in probe order, so nothing can be computed from N."""
    devices = []
    for name in ifnames:
        ib_dir = f"{sysfs}/class/net/{name}/device/infiniband"
        found = sorted(
            entry
            for entry in (os.listdir(ib_dir) if os.path.isdir(ib_dir) else [])
            if not entry.startswith(".") and os.path.exists(os.path.join(ib_dir, entry))
        )
        if not found:
            raise LaunchError(E_RDMA, f"interface {name} has no RDMA device (nothing under {ib_dir})")
        if len(found) > 1:
            raise LaunchError(E_RDMA, f"interface {name} has several RDMA devices ({' '.join(found)}) under {ib_dir}")
        info(f"{name}: RDMA device {found[0]}")
        devices.append(found[0])
    return devices


def check_interfaces(ifnames: Sequence[str], sysfs: str) -> None:
    """Every interface NCCL_SOCKET_IFNAME names (plain names; NCCL's ``^``/``=`` patterns are not
    names) is in this pod, as ``$SYSFS/class/net`` of its own network namespace lists them."""
    net_dir = f"{sysfs}/class/net"
    if not os.path.isdir(net_dir):
        return  # no sysfs to read (not Linux): NCCL will say it itself
    present = sorted(os.listdir(net_dir))
    for name in ifnames:
        if name[:1] not in ("^", "=") and name not in present:
            raise LaunchError(
                E_MAPPING,
                f"interface {name} (NCCL_SOCKET_IFNAME) is missing in this pod, which has "
                f"{', '.join(present) or 'none'}: its network was not attached (the pod's "
                "k8s.v1.cni.cncf.io/networks annotation and its NetworkAttachmentDefinition)",
            )
    info(f"interfaces present: {', '.join(n for n in ifnames if n[:1] not in ('^', '='))}")


@dataclass(frozen=True)
class MappingLine:
    node: str
    hostif: str
    ifname: str
    ip: str
    lineno: int


def read_mapping(path: str) -> list[MappingLine]:
    """``node:hostif:netN:ip`` lines; blank lines and ``#`` comments skipped; each (node, netN)
    and each address at most once."""
    if not os.path.isfile(path):
        raise LaunchError(E_MAPPING, f"mapping file {path} not found (GPU_CLUSTER_IP_MAPPING)")
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as handle:
            text = handle.read()
    except OSError as exc:
        raise LaunchError(E_MAPPING, f"cannot read the mapping file {path}: {exc.strerror}") from None
    lines: list[MappingLine] = []
    pairs: dict[tuple[str, str], int] = {}
    ips: dict[str, int] = {}
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r").strip()
        if not line or line.startswith("#"):
            continue
        match = _LINE.fullmatch(line)
        if not match:
            raise LaunchError(E_MAPPING, f"{path}:{lineno}: expected node:hostif:netN:ip, got '{line}'")
        node, hostif, ifname, ip = match.groups()
        if not _IPV4.fullmatch(ip):
            raise LaunchError(E_MAPPING, f"{path}:{lineno}: '{ip}' is not a dotted-quad IPv4 address")
        if (node, ifname) in pairs:
            raise LaunchError(
                E_MAPPING,
                f"{path}:{lineno}: node {node} interface {ifname} is duplicated (first on line {pairs[node, ifname]})",
            )
        if ip in ips:
            raise LaunchError(E_MAPPING, f"{path}:{lineno}: address {ip} is already used on line {ips[ip]}")
        pairs[node, ifname] = ips[ip] = lineno
        lines.append(MappingLine(node, hostif, ifname, ip, lineno))
    return lines


def inet_addresses(shown: str) -> list[str]:
    """The ``addr/len`` words of ``ip -o -4 addr show`` output, primary first."""
    found = []
    for line in shown.splitlines():
        words = line.split()
        if "inet" in words[:-1]:
            found.append(words[words.index("inet") + 1])
    return found


@dataclass(frozen=True)
class InterfacePlan:
    ifname: str
    ip: str
    prefix: int
    stale: tuple[str, ...]
    """Addresses to delete (anything but ip/prefix)."""
    needs_add: bool
    routes: tuple[tuple[str, str], ...]
    """(peer address, its node) for every peer on this netN outside the prefix."""


def plan_interface(
    ifname: str, node: str, mapping: Sequence[MappingLine], mapping_file: str, run_ip: IpRunner, env: Mapping[str, str]
) -> InterfacePlan:
    own = next((line for line in mapping if line.node == node and line.ifname == ifname), None)
    if own is None:
        raise LaunchError(E_MAPPING, f"no line for node {node} interface {ifname} in {mapping_file}")
    status, shown = run_ip(["-o", "-4", "addr", "show", "dev", ifname])
    if status != 0:
        raise LaunchError(E_MAPPING, f"cannot read the addresses of interface {ifname}: {_one_line(shown)}")
    addresses = inet_addresses(shown)
    for address in addresses:
        ip, slash, length = address.partition("/")
        if not (_IPV4.fullmatch(ip) and slash and _PREFIX_LENGTH.fullmatch(length)):
            raise LaunchError(E_MAPPING, f"interface {ifname} reports an unexpected address '{address}'")
    override_var = "GPU_CLUSTER_PREFIX_" + re.sub(r"[^A-Za-z0-9]", "_", ifname)
    if env.get(override_var):
        text = env[override_var]
        if not _PREFIX_LENGTH.fullmatch(text):
            raise LaunchError(E_MAPPING, f"{override_var} must be a prefix length 0-32, got '{text}'")
        prefix = int(text)
    elif addresses:
        prefix = int(addresses[0].partition("/")[2])
    else:
        raise LaunchError(
            E_MAPPING, f"interface {ifname} has no IPv4 address to take the prefix length from; set {override_var}"
        )
    wanted = f"{own.ip}/{prefix}"
    subnet = ipaddress.IPv4Network(wanted, strict=False)
    routes = tuple(
        (line.ip, line.node)
        for line in mapping
        if line.ifname == ifname and line.node != node and ipaddress.IPv4Address(line.ip) not in subnet
    )
    info(
        f"{ifname}: node {node} host interface {own.hostif} wants {wanted} "
        f"(current: {' '.join(addresses) or 'none'}; subnet {subnet})"
    )
    return InterfacePlan(
        ifname, own.ip, prefix, tuple(a for a in addresses if a != wanted), wanted not in addresses, routes
    )


def apply_plan(plans: Sequence[InterfacePlan], change: Callable[[Sequence[str]], None]) -> None:
    for plan in plans:
        name, wanted = plan.ifname, f"{plan.ip}/{plan.prefix}"
        # Delete before adding: removing a primary address also drops secondaries of the same
        # subnet unless promote_secondaries is on.
        for address in plan.stale:
            change(["addr", "del", address, "dev", name])
        if plan.needs_add:
            change(["addr", "add", wanted, "dev", name])
            change(["link", "set", name, "up"])
            info(f"{name}: set {wanted}")
        else:
            info(f"{name}: {wanted} already set")
        for peer, node in plan.routes:
            change(["route", "replace", f"{peer}/32", "dev", name])
            info(f"{name}: route {peer}/32 to node {node}")
        if not plan.routes:
            info(f"{name}: every peer is inside {wanted}; no routes")


def run_ip(args: Sequence[str]) -> tuple[int, str]:
    """iproute2 ``ip``, its stdout and stderr together."""
    try:
        done = subprocess.run(["ip", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    except OSError as exc:
        return 127, f"ip: {exc.strerror}"
    return done.returncode, done.stdout.decode("utf-8", "replace")


def ip_changer(run: IpRunner, dry_run: bool) -> Callable[[Sequence[str]], None]:
    """A state-changing ``ip`` call: printed under dry-run, else run; a failure stops the launch."""

    def change(args: Sequence[str]) -> None:
        line = shell_line(["ip", *args])
        if dry_run:
            info(f"dry-run: {line}")
            return
        status, output = run(args)
        if status != 0:
            raise LaunchError(E_MAPPING, f"'{line}' failed: {_one_line(output)}")

    return change


def _one_line(text: str) -> str:
    return text.rstrip("\n").replace("\n", " ")
