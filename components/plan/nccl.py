"""NCCL settings per network variant: the one table every job and the docs are built from.

``nccl_defaults`` is the table; ``nccl_environment`` applies a user's overrides;
``override_problems`` names the overrides that contradict the variant (``jobcheck``
reports them at their config path); ``expected_transport`` says what the NCCL log of a
benchmark must show.  Pure functions of plain values: no config or wiring imports, so
the config validator can use them.

Why these values:

* Socket variants pin ``NCCL_NET=Socket`` and ``NCCL_IB_DISABLE=1``: an H100/H200 pod on
  ``sriov`` can see RDMA devices, and NCCL would silently prefer them.
* ``sriov-rdma`` pins ``NCCL_NET=IB`` so a missing RDMA device fails the job instead of
  quietly measuring TCP.  ``NCCL_IB_HCA`` is left to the entrypoint, which reads the RDMA
  device behind each ``netN`` from sysfs (the kernel's ``mlx5_N`` numbering follows probe
  order, so a fixed list can name another NIC).  GID index 3 is RoCE v2 over IPv4 on
  ConnectX VFs.  The ``NCCL_IB_*``/``NCCL_CROSS_NIC`` values are IBM's tested settings for
  the ``hopper-1`` cluster network.
* ``NCCL_NET_GDR_LEVEL=PHB``: GPUDirect RDMA when the GPU and the NIC hang off the same CPU
  root complex.  IBM's VMs show the guest no PCIe switches, so NCCL's default (``PXB``)
  would never use GPUDirect; ``SYS`` would also send it across the inter-socket link,
  where staging through host memory is usually faster.  Override with ``SYS`` to try.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal, cast

from components.models.config import NETWORK_VARIANTS

__all__ = [
    "GDR_LEVEL",
    "IBM_HOPPER_IB_SETTINGS",
    "PRIMARY_INTERFACE",
    "RDMA_VARIANTS",
    "benchmark_transport",
    "Transport",
    "debug_problem",
    "expected_transport",
    "job_interfaces",
    "nccl_defaults",
    "nccl_environment",
    "nccl_table_markdown",
    "override_problems",
]

Transport = Literal["ib", "socket", "p2p", "shm"]

RDMA_VARIANTS = frozenset({"sriov-rdma"})
PRIMARY_INTERFACE = "eth0"
"""The pod network's interface inside every pod (OVN-Kubernetes and other CNIs)."""
DEFAULT_GID_INDEX = "3"
GDR_LEVEL = "PHB"
IBM_HOPPER_IB_SETTINGS: dict[str, str] = {
    "NCCL_IB_PCI_RELAXED_ORDERING": "2",
    "NCCL_IB_QPS_PER_CONNECTION": "16",
    "NCCL_IB_ADAPTIVE_ROUTING": "1",
    "NCCL_IB_TIMEOUT": "22",
    "NCCL_IB_RETRY_CNT": "10",
    "NCCL_CROSS_NIC": "2",
}
"""IBM's tested NCCL settings for H100 on an 8-subnet ``hopper-1`` cluster network."""

_DEBUG_LEVELS = frozenset({"VERSION", "WARN", "INFO", "ABORT", "TRACE"})
_LOG_LEVELS = frozenset({"INFO", "TRACE"})
"""Levels that print the transport lines the benchmark's assertion reads."""
_GDR_LEVELS = frozenset({"LOC", "PIX", "PXB", "PHB", "SYS"})
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_IB_ONLY = re.compile(r"^NCCL_(IB_|NET_GDR_)")
"""Settings that only mean something to the IB transport."""


def job_interfaces(variant: str, nics_per_node: int) -> tuple[str, ...]:
    """The interfaces NCCL uses in a pod: ``net1..netK`` for secondary NICs, else the pod network's."""
    if variant == "pod":
        return (PRIMARY_INTERFACE,)
    return tuple(f"net{k}" for k in range(1, nics_per_node + 1))


def nccl_defaults(variant: str, interfaces: Sequence[str]) -> dict[str, str]:
    """The NCCL environment of a variant's pods; ``interfaces`` are the pod's secondary NICs."""
    if variant not in NETWORK_VARIANTS:
        raise ValueError(f"unknown network variant {variant!r}")
    socket_ifname = ",".join(interfaces) if variant != "pod" else PRIMARY_INTERFACE
    if variant != "pod" and not interfaces:
        raise ValueError(f"the {variant} variant needs at least one secondary interface")
    env = {"NCCL_DEBUG": "INFO", "NCCL_SOCKET_IFNAME": socket_ifname}
    if variant in RDMA_VARIANTS:
        env |= {
            "NCCL_NET": "IB",
            "NCCL_IB_DISABLE": "0",
            "NCCL_IB_GID_INDEX": DEFAULT_GID_INDEX,
            "NCCL_NET_GDR_LEVEL": GDR_LEVEL,
            **IBM_HOPPER_IB_SETTINGS,
        }
    else:
        env |= {"NCCL_NET": "Socket", "NCCL_IB_DISABLE": "1"}
    return env


def nccl_environment(variant: str, interfaces: Sequence[str], overrides: Mapping[str, str]) -> dict[str, str]:
    """The table's settings with the user's overrides applied, sorted by name."""
    return dict(sorted((nccl_defaults(variant, interfaces) | dict(overrides)).items()))


def expected_transport(variant: str, nodes: int) -> Transport | None:
    """What a benchmark's NCCL log must show between nodes; None for one node.

    One node never touches the network: its ranks use NVLink/PCIe P2P or shared memory,
    depending on the GPUs, so there is nothing to assert about the variant.  On several
    nodes ``pod`` is TCP sockets over the pod network's ``eth0``, which is what the
    socket assertion checks (``--ifnames`` pins the interface).
    """
    if nodes < 2:
        return None
    return "ib" if variant in RDMA_VARIANTS else "socket"


def benchmark_transport(expect: str, variant: str, nodes: int) -> Transport | None:
    """The transport a benchmark asserts: ``job.benchmark.expect_transport``, with ``auto`` resolved
    to the variant's between nodes and ``none`` to no assertion."""
    if expect == "auto":
        return expected_transport(variant, nodes)
    return None if expect == "none" else cast(Transport, expect)


def override_problems(
    variant: str, interfaces: Sequence[str], overrides: Mapping[str, str], hca_prefix: str = ""
) -> list[tuple[str, str]]:
    """``(variable, message)`` for every override that contradicts the variant or is malformed.

    ``interfaces`` are the pod's NCCL interfaces (``job_interfaces``); ``hca_prefix`` is
    the RDMA device name prefix of the node profile (``mlx5_``).
    """
    rdma = variant in RDMA_VARIANTS
    problems: list[tuple[str, str]] = []
    for name, value in overrides.items():
        message = _problem(name, value.strip(), variant, rdma, tuple(interfaces), hca_prefix)
        if message:
            problems.append((name, message))
    return problems


def _problem(
    name: str, value: str, variant: str, rdma: bool, interfaces: tuple[str, ...], hca_prefix: str
) -> str | None:
    if not value:
        return "is empty; leave it out to keep the variant's setting"
    if name == "NCCL_IB_DISABLE":
        if value not in ("0", "1"):
            return f"must be 0 or 1, not {value!r}"
        if value == "0" and not rdma:
            return (
                f"enables InfiniBand verbs, but the {variant} variant runs NCCL over TCP sockets; "
                "only sriov-rdma uses RDMA"
            )
        if value == "1" and rdma:
            return "disables InfiniBand on sriov-rdma: NCCL would fall back to sockets and the run would measure sriov"
        return None
    if name == "NCCL_NET":
        if value.lower() == "ib" and not rdma:
            return f"selects the IB transport, but the {variant} variant has no RDMA devices; only sriov-rdma uses IB"
        if value.lower() == "socket" and rdma:
            return "selects TCP sockets on sriov-rdma: the run would measure sriov; use the sriov variant instead"
        return None
    if _IB_ONLY.match(name) and not rdma:
        return f"is an RDMA setting, but the {variant} variant runs NCCL over TCP sockets (NCCL_IB_DISABLE=1)"
    if name == "NCCL_SOCKET_IFNAME":
        return _socket_ifname_problem(value, variant, interfaces)
    if name == "NCCL_IB_HCA":
        return _hca_problem(value, interfaces, hca_prefix)
    if name == "NCCL_IB_GID_INDEX":
        if not re.fullmatch(r"-?\d+", value) or not -1 <= int(value) <= 255:
            return f"must be a GID table index from 0 to 255, or -1 to let NCCL pick; not {value!r}"
        return None
    if name == "NCCL_NET_GDR_LEVEL":
        if value.upper() not in _GDR_LEVELS and not (value.isdigit() and int(value) <= 5):
            return f"must be one of {', '.join(sorted(_GDR_LEVELS))} (or 0-5), not {value!r}"
        return None
    if name == "NCCL_CROSS_NIC" and value not in ("0", "1", "2"):
        return f"must be 0, 1 or 2, not {value!r}"
    if name == "NCCL_DEBUG" and value.upper() not in _DEBUG_LEVELS:
        return f"must be one of {', '.join(sorted(_DEBUG_LEVELS))}, not {value!r}"
    return None


def _socket_ifname_problem(value: str, variant: str, interfaces: tuple[str, ...]) -> str | None:
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    if variant != "pod":
        # The entrypoint maps each entry to its address and RDMA device, so they must be real names.
        for entry in entries:
            if not _PLAIN_NAME.match(entry):
                return (
                    f"{entry!r}: the {variant} variant needs plain interface names "
                    f"(the entrypoint maps each one); use some of {','.join(interfaces)}"
                )
            if entry == PRIMARY_INTERFACE:
                return (
                    f"{entry} is the pod network: the {variant} variant runs NCCL on its secondary "
                    f"interfaces {','.join(interfaces)}"
                )
            if entry not in interfaces:
                return f"the pod has no interface {entry}: the job attaches {','.join(interfaces)}"
        return None
    if value.startswith("^"):
        return None  # an exclusion list: NCCL keeps whatever else exists
    for entry in entries:
        exact = entry.startswith("=")
        name = entry.lstrip("=")
        if not any(iface == name if exact else iface.startswith(name) for iface in interfaces):
            return (
                f"the pod has no interface matching {entry!r}: the pod variant has only "
                f"{PRIMARY_INTERFACE} (no secondary NICs)"
            )
    return None


def _hca_problem(value: str, interfaces: tuple[str, ...], hca_prefix: str) -> str | None:
    excluding = value.startswith("^")
    entries = [entry.strip() for entry in value.lstrip("^=").split(",") if entry.strip()]
    if not entries:
        return "names no RDMA device"
    for entry in entries:
        device = entry.split(":", 1)[0]
        if hca_prefix and not device.startswith(hca_prefix):
            return f"{device!r} is not an RDMA device of this profile (they are named {hca_prefix}N)"
    if not excluding and len(entries) > len(interfaces):
        return (
            f"names {len(entries)} RDMA devices, but the pod has {len(interfaces)} RDMA "
            f"interface(s) ({','.join(interfaces)})"
        )
    return None


def debug_problem(overrides: Mapping[str, str]) -> tuple[str, str] | None:
    """Why the overrides would hide the lines a transport assertion reads, if they do."""
    level = overrides.get("NCCL_DEBUG")
    if level is not None and level.strip().upper() not in _LOG_LEVELS:
        return "NCCL_DEBUG", f"{level} hides the INFO lines the benchmark's transport assertion reads; use INFO"
    if "NCCL_DEBUG_FILE" in overrides:
        return "NCCL_DEBUG_FILE", "sends NCCL's log away from the output the benchmark's transport assertion reads"
    return None


def nccl_table_markdown() -> str:
    """The table as Markdown, one column per variant (docs/training.md and the README)."""
    samples = {variant: nccl_defaults(variant, ("net1", "netK")) for variant in NETWORK_VARIANTS}
    names: list[str] = []
    for env in samples.values():
        names += [name for name in env if name not in names]
    names.insert(names.index("NCCL_IB_DISABLE") + 1, "NCCL_IB_HCA")
    lines = [
        "| Variable | " + " | ".join(f"`{v}`" for v in NETWORK_VARIANTS) + " |",
        "|---|" + "---|" * len(NETWORK_VARIANTS),
    ]
    for name in names:
        cells = []
        for variant in NETWORK_VARIANTS:
            if name == "NCCL_IB_HCA" and variant in RDMA_VARIANTS:
                cells.append("RDMA device of each `netN` (entrypoint, from sysfs)")
                continue
            value = samples[variant].get(name)
            cells.append("–" if value is None else f"`{value.replace('net1,netK', 'net1,…,netK')}`")
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
