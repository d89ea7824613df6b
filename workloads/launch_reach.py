"""The rendezvous between the nodes, checked before torchrun: the master must be the node MASTER_ADDR
names (torch's c10d backend hosts its store only where the address or hostname is its own, and
torchrun elsewhere waits for a store nobody hosts), and every other node must reach the master's
port within GPU_CLUSTER_RENDEZVOUS_TIMEOUT seconds (else torchrun retries for its own timeout and
then ends in a traceback). A failure names what was tried and how it failed, in one line.

Apart by concept, not size: the only place the launcher talks to another node."""

from __future__ import annotations

import errno
import socket
import time
from collections.abc import Callable, Mapping
from typing import Optional

from workloads.launch_env import Rendezvous
from workloads.launch_messages import E_CONFIG, E_RENDEZVOUS, LaunchError, info

DEFAULT_TIMEOUT_S = 900
"""The master runs its own data step before torchrun opens the port: minutes on the study's data."""
RETRY_S = 2.0
CONNECT_S = 5.0

Resolver = Callable[[str], list[str]]
Connector = Callable[[str, int, float], None]
"""Opens and closes one TCP connection; raises OSError."""


def resolve(host: str) -> list[str]:
    """IPv4 addresses of ``host`` (hosts file, DNS), in the resolver's order, each once."""
    found = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
    return list(dict.fromkeys(str(entry[4][0]) for entry in found))


def connect(address: str, port: int, timeout: float) -> None:
    with socket.create_connection((address, port), timeout=timeout):
        pass


def is_local(address: str) -> bool:
    """Whether ``address`` is one of this node's own: only those can be bound."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((address, 0))
        except OSError:
            return False
    return True


def _multi_node(rendezvous: Rendezvous) -> bool:
    return ":" in rendezvous.nnodes or int(rendezvous.nnodes) > 1


def rendezvous_timeout(env: Mapping[str, str]) -> int:
    text = env.get("GPU_CLUSTER_RENDEZVOUS_TIMEOUT", "")
    if not text:
        return DEFAULT_TIMEOUT_S
    if not text.isdigit():
        raise LaunchError(E_CONFIG, f"GPU_CLUSTER_RENDEZVOUS_TIMEOUT must be a number of seconds, got '{text}'")
    return int(text)


def check_master(rendezvous: Rendezvous, hostname: str, resolver: Resolver = resolve) -> None:
    """Node rank 0 must be MASTER_ADDR: its hostname, or an address this node holds."""
    address = rendezvous.address
    if address in ("localhost", hostname) or address.startswith("127."):
        return
    try:
        addresses = resolver(address)
    except OSError as exc:
        raise LaunchError(
            E_RENDEZVOUS,
            f"node rank 0 hosts torchrun's rendezvous, but MASTER_ADDR {address} does not resolve here "
            f"({_reason(exc)}); this node's hostname is {hostname}",
        ) from None
    if any(is_local(ip) for ip in addresses):
        return
    raise LaunchError(
        E_RENDEZVOUS,
        f"node rank 0 hosts torchrun's rendezvous, but MASTER_ADDR {address} ({', '.join(addresses)}) is not "
        f"this node (hostname {hostname}, none of those addresses here): no node would host the store",
    )


def wait_for_master(
    rendezvous: Rendezvous,
    timeout_s: int,
    resolver: Resolver = resolve,
    connector: Connector = connect,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """A worker: connect to MASTER_ADDR:MASTER_PORT until it answers, at most ``timeout_s`` seconds."""
    address, port = rendezvous.address, int(rendezvous.port)
    deadline = clock() + timeout_s
    attempts = 0
    last: Optional[str] = None
    while True:
        attempts += 1
        try:
            for ip in resolver(address):
                try:
                    connector(ip, port, CONNECT_S)
                except OSError as exc:
                    last = f"{ip}:{port}: {_reason(exc)}"
                    continue
                info(f"the master's rendezvous {address}:{port} answers at {ip} (attempt {attempts})")
                return
            last = last or f"{address} resolves to no IPv4 address"
        except OSError as exc:
            last = f"{address} does not resolve: {_reason(exc)}"
        if clock() >= deadline:
            break
        sleep(RETRY_S)
    raise LaunchError(
        E_RENDEZVOUS,
        f"cannot reach the master's rendezvous {address}:{port} from node rank {rendezvous.node_rank} within "
        f"{timeout_s} s (GPU_CLUSTER_RENDEZVOUS_TIMEOUT; {attempts} attempts): {last}",
    )


def _reason(exc: OSError) -> str:
    if isinstance(exc, socket.gaierror):
        return str(exc.strerror or exc)
    if isinstance(exc, socket.timeout) or exc.errno == errno.ETIMEDOUT:
        return "no answer (connection timed out)"
    if exc.errno == errno.ECONNREFUSED:
        return "connection refused (the address answers, but no rendezvous listens on the port)"
    return str(exc.strerror or exc)


def check_rendezvous(env: Mapping[str, str], rendezvous: Rendezvous) -> None:
    """Before torchrun on a job of several nodes; GPU_CLUSTER_RENDEZVOUS_TIMEOUT=0 turns the checks off."""
    timeout_s = rendezvous_timeout(env)
    if timeout_s == 0 or not _multi_node(rendezvous):
        return
    if rendezvous.node_rank == "0":
        check_master(rendezvous, socket.gethostname())
        info(f"this node is MASTER_ADDR {rendezvous.address}: it hosts the rendezvous")
    else:
        wait_for_master(rendezvous, timeout_s)
