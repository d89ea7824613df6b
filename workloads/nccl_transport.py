#!/usr/bin/env python3
"""Say whether NCCL really used the expected transport, from NCCL_DEBUG=INFO logs.

Shipped into training pods next to the NCCL benchmark, so it is stdlib-only and runs on Python
3.9+; the log reading is ``nccl_log.py`` beside it. Importable (``check``, and ``parse_log``,
``parse_files`` re-exported) and a CLI:

    python3 nccl_transport.py --expect {ib,socket,p2p,shm} [--ifnames net1,net2]
                              [--gdr] LOGFILE...

Exit status: 0 when the logs meet the expectation, 1 when they do not, 2 on a
usage error or an unreadable file.
"""

from __future__ import annotations

import argparse
import os
import sys
import types
from collections.abc import Sequence

if __name__ == "__main__" and not __package__:
    # Run as a file (the pod: `python3 /mnt/workloads/nccl_transport.py`): serve this file's folder
    # as the `workloads` package, whatever the folder is called, so the import below is the repo's.
    _package = types.ModuleType("workloads")
    _package.__path__ = [os.path.dirname(os.path.abspath(__file__))]
    sys.modules["workloads"] = _package

from workloads.nccl_log import (  # noqa: E402
    IbPort,
    SocketInterface,
    TransportSummary,
    parse_files,
    parse_log,
)

__all__ = [
    "EXPECTATIONS",
    "IbPort",
    "SocketInterface",
    "TransportSummary",
    "check",
    "describe",
    "main",
    "parse_files",
    "parse_log",
]

EXPECTATIONS = ("ib", "socket", "p2p", "shm")


def _is_network(transport: str) -> bool:
    """Transports that cross nodes: every NET plugin, and CollNet (in-network reductions)."""
    return transport.startswith("net-") or transport == "collnet"


def _fmt_counts(connections: dict[str, int]) -> str:
    if not connections:
        return "none"
    return ", ".join(f"{t}={n}" for t, n in sorted(connections.items()))


def check(
    summary: TransportSummary,
    expect: str,
    ifnames: Sequence[str] | None = None,
    require_gdr: bool = False,
) -> list[str]:
    """Return human-readable failures; an empty list means the expectation holds.

    - ``ib``: connections over NET/IB and none over NET/Socket.
    - ``socket``: connections over NET/Socket and none over another network
      transport (NET/IB, other NET plugins, CollNet); with ``ifnames``, every
      socket interface NCCL bound is one of those names (and at least one is).
    - ``p2p`` / ``shm``: intra-node cases; connections over that transport, none
      over the other one, and no network connections when all ranks share a node.
    ``require_gdr`` additionally demands GPUDirect RDMA on a network connection.
    """
    if expect not in EXPECTATIONS:
        raise ValueError(f"unknown expectation {expect!r}; choose from {', '.join(EXPECTATIONS)}")
    if ifnames and expect != "socket":
        raise ValueError("ifnames only applies to expect='socket'")

    conns = summary.connections
    seen = _fmt_counts(conns)
    failures: list[str] = []
    if not conns:
        failures.append(
            "no NCCL connection lines (`Channel .. via ..`) found: was "
            "NCCL_DEBUG=INFO set, and did a collective run after the communicator "
            "was created?"
        )
        return failures

    if expect == "ib":
        if "net-ib" not in conns:
            why = " (NCCL reported `NET/IB : No device found`)" if summary.ib_no_device else ""
            failures.append(f"expected NET/IB connections, saw {seen}{why}")
        if "net-socket" in conns:
            failures.append(
                f"{conns['net-socket']} connection(s) fell back to NET/Socket "
                f"(interfaces {', '.join(summary.socket_ifnames) or '?'}); "
                "expected IB only"
            )
    elif expect == "socket":
        if "net-socket" not in conns:
            failures.append(f"expected NET/Socket connections, saw {seen}")
        # The mirror of the IB fallback check: any connection over another network transport
        # (IB verbs, a plugin, CollNet) means sockets did not carry all inter-node traffic.
        others = {t: n for t, n in conns.items() if _is_network(t) and t != "net-socket"}
        if others:
            failures.append(
                f"{sum(others.values())} connection(s) used another network transport "
                f"({_fmt_counts(others)}); expected NET/Socket only"
            )
        if ifnames:
            allowed = set(ifnames)
            used = set(summary.socket_ifnames)
            if not used:
                failures.append("no `NET/Socket : Using ...` line: cannot tell which interfaces NCCL bound")
            stray = sorted(used - allowed)
            if stray:
                detail = ", ".join(f"{i.name} ({i.address})" for i in summary.socket_interfaces if i.name in stray)
                failures.append(f"NCCL socket interfaces outside {','.join(ifnames)}: {detail}")
    else:  # intra-node expectations
        other = "shm" if expect == "p2p" else "p2p"
        label = {"p2p": "P2P", "shm": "SHM"}
        if expect not in conns:
            failures.append(f"expected {label[expect]} connections, saw {seen}")
        if other in conns:
            failures.append(f"{conns[other]} connection(s) used {label[other]}; expected {label[expect]}")
        if summary.net_connections and (summary.n_nodes or 1) <= 1:
            nets = {t: n for t, n in conns.items() if t.startswith("net-")}
            failures.append(f"single-node job used network transport(s) {_fmt_counts(nets)}; expected {label[expect]}")
    if require_gdr and not summary.gdr:
        failures.append("expected GPUDirect RDMA (`/GDRDMA`) on a network connection, saw none")
    return failures


def describe(summary: TransportSummary) -> list[str]:
    """A few lines a human reads next to the verdict."""
    out = [
        f"NCCL version: {summary.version or 'unknown'}",
        f"connections: {_fmt_counts(summary.connections)}",
        "via: " + ("; ".join(f"{v} x{n}" for v, n in sorted(summary.via.items())) or "none"),
    ]
    if summary.socket_interfaces:
        out.append("socket interfaces: " + ", ".join(f"{i.name}:{i.address}" for i in summary.socket_interfaces))
    if summary.ib_ports:
        out.append("IB ports: " + ", ".join(f"{p.device}:{p.port}/{p.link_layer}" for p in summary.ib_ports))
    elif summary.ib_no_device:
        out.append("IB ports: none (NET/IB : No device found)")
    if summary.bootstrap_interfaces:
        out.append("bootstrap: " + ", ".join(f"{i.name}:{i.address}" for i in summary.bootstrap_interfaces))
    out.append(f"GPUDirect RDMA: {'yes' if summary.gdr else 'no'}")
    if summary.env:
        out.append("env: " + " ".join(f"{k}={v}" for k, v in sorted(summary.env.items())))
    if summary.n_nodes is not None:
        out.append(f"ranks: {summary.n_ranks}, nodes: {summary.n_nodes}")
    if summary.warnings:
        out.append(f"NCCL WARN lines: {len(summary.warnings)} (first: {summary.warnings[0]})")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Assert which transport NCCL used, from NCCL_DEBUG=INFO logs.")
    parser.add_argument("--expect", required=True, choices=EXPECTATIONS)
    parser.add_argument(
        "--ifnames",
        help="comma-separated interface names NCCL's sockets must stay within (--expect socket only)",
    )
    parser.add_argument("--gdr", action="store_true", help="also require GPUDirect RDMA")
    parser.add_argument("logs", nargs="+", metavar="LOGFILE")
    args = parser.parse_args(argv)  # exits 2 on usage errors

    ifnames = [n.strip() for n in args.ifnames.split(",") if n.strip()] if args.ifnames else None
    if ifnames and args.expect != "socket":
        parser.error("--ifnames only applies to --expect socket")
    try:
        summary = parse_files(args.logs)
    except OSError as exc:
        print(f"nccl_transport: cannot read log: {exc}", file=sys.stderr)
        return 2

    failures = check(summary, args.expect, ifnames=ifnames, require_gdr=args.gdr)
    for line in describe(summary):
        print(f"  {line}")
    want = args.expect + (f" on {','.join(ifnames)}" if ifnames else "") + (" +GDR" if args.gdr else "")
    if failures:
        print(f"FAIL expect={want}")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print(f"PASS expect={want}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
