"""NCCL_DEBUG=INFO output read into a summary of how the ranks were connected: the
per-connection ``via`` lines, the plugin banners, bootstrap, environment echoes and warnings.

Standard library only (shipped into the pods with ``nccl_transport.py``, which judges the summary;
``experiments`` reads run logs with it too).

What counts as evidence is the per-connection line NCCL prints when it wires a channel
(`Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM`, `... via NET/IB/0/GDRDMA`). The plugin banner lines
(`NET/Socket : Using [0]eth0:...`) only say what NCCL *could* use: the socket plugin initialises
even when every connection goes over NVLink, so the banners feed the interface/device inventory,
never the verdict on which transport carried the data.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

# `host:pid:tid [dev] NCCL INFO ` -- several of these can share one physical line
# when ranks write to one stream at once, so we split on every occurrence.
_PREFIX = re.compile(
    r"(?P<host>[\w.\-]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>\d+)\] "
    r"NCCL (?P<level>INFO|WARN|TRACE) "
)
_HOST_CHAR = re.compile(r"[\w.\-]")
# Fallback for logs whose prefix was stripped or rewritten (kubectl, launchers).
_BARE = re.compile(r"\bNCCL (?P<level>INFO|WARN|TRACE) ")

_VERSION = re.compile(r"NCCL version (?P<version>\S+)")
_CONNECTION = re.compile(r"^(?:Channel|CollNet|Coll) \d+(?:/\d+)? : .*?\bvia (?P<via>.+?)\s*$")
_NET_VIA = re.compile(r"^NET/(?P<name>[^/]+)/(?P<dev>\d+)(?:\((?P<proxy>\d+)\))?(?P<flags>.*)$")
_SOCKET_BANNER = re.compile(r"^NET/Socket : Using (?P<list>.*)$")
_IB_BANNER = re.compile(r"^NET/IB : Using (?P<list>.*)$")
_SOCKET_IF = re.compile(r"\[(?P<idx>\d+)\](?P<name>[^:\s\[\]]+):(?P<addr>[^<\s]+)<\d+>")
_IB_PORT = re.compile(r"\[(?P<idx>\d+)\](?P<name>[^:\s\[\]]+):(?P<port>\d+)/(?P<link>\w+)")
_OOB = re.compile(r"OOB (?P<name>[^:\s]+):(?P<addr>[^<\s]+)<\d+>")
_IB_NO_DEVICE = re.compile(r"^NET/IB : No device found")
_NETWORK = re.compile(r"^Using network (?P<name>.+?)\s*$")
_NODES = re.compile(r"\bnRanks (?P<nranks>\d+) nNodes (?P<nnodes>\d+)\b")
_NVLS_CHANNELS = re.compile(r"\b(?P<n>\d+) nvls channels\b")
# NCCL ends some of these with a full stop (`NCCL_SHM_DISABLE set by environment to 1.`).
_ENV = re.compile(r"^(?P<key>NCCL_[A-Z0-9_]+) set (?:by environment )?to (?P<value>.*?)\.?\s*$")
_BOOTSTRAP = re.compile(r"^Bootstrap ?: Using (?P<name>[^:\s]+):(?P<addr>[^<\s]+)<\d+>")
_GDR_HCA = re.compile(r"GPU Direct RDMA (?P<state>Enabled|Disabled) for HCA \d+ '(?P<name>[^']+)'")


@dataclass(frozen=True)
class SocketInterface:
    """An interface the NCCL socket plugin (or IB's out-of-band channel) bound."""

    name: str
    address: str


@dataclass(frozen=True)
class IbPort:
    """One HCA port from `NET/IB : Using [0]mlx5_0:1/RoCE ...`."""

    device: str
    port: int
    link_layer: str  # "IB" or "RoCE"


@dataclass(frozen=True)
class TransportSummary:
    """What one or more NCCL logs say about how ranks were connected."""

    version: str | None
    transports: frozenset[str]  # p2p, shm, net-socket, net-ib, net-<plugin>, collnet, nvls
    connections: dict[str, int]  # transport -> number of connection lines
    via: dict[str, int]  # raw `via ...` text -> count, for messages and docs
    socket_interfaces: tuple[SocketInterface, ...]
    ib_ports: tuple[IbPort, ...]
    oob_interfaces: tuple[SocketInterface, ...]
    bootstrap_interfaces: tuple[SocketInterface, ...]
    ib_no_device: bool
    networks: frozenset[str]  # from `Using network X`
    gdr: bool  # some network connection ran GPUDirect RDMA (`/GDRDMA`)
    gdr_hcas: frozenset[str]  # HCAs NCCL declared GDR-capable
    n_nodes: int | None
    n_ranks: int | None
    hosts: frozenset[str]
    env: dict[str, str]  # NCCL_* settings NCCL echoed back (`NCCL_P2P_DISABLE set by environment to 1`)
    warnings: tuple[str, ...] = field(default=())

    @property
    def ib_devices(self) -> tuple[str, ...]:
        return tuple(sorted({p.device for p in self.ib_ports}))

    @property
    def socket_ifnames(self) -> tuple[str, ...]:
        return tuple(sorted({i.name for i in self.socket_interfaces}))

    @property
    def net_connections(self) -> int:
        return sum(n for t, n in self.connections.items() if t.startswith("net-"))


def _clean_hosts(lines: Sequence[str]) -> set[str]:
    """Hosts of records that start a line (after any launcher tag such as `[default0]:`)."""
    hosts = set()
    for line in lines:
        m = _PREFIX.search(line)
        if m and (m.start() == 0 or not _HOST_CHAR.match(line[m.start() - 1])):
            hosts.add(m.group("host"))
    return hosts


def _split_point(m: re.Match[str], known: set[str]) -> tuple[int, str]:
    """Where a record glued onto the previous one starts, and its host.

    A glued record's host regex also swallows the tail of the previous message
    (`...GDRDMAgpu-node-1:207:231 [7] NCCL INFO`); cut it back to a host that
    starts lines elsewhere in the log.
    """
    host = m.group("host")
    if host not in known:
        for candidate in sorted(known, key=len, reverse=True):
            if host.endswith(candidate):
                return m.end("host") - len(candidate), candidate
    return m.start(), host


def _messages(lines: Iterable[str]) -> Iterator[tuple[str | None, str, str]]:
    """Yield (host, level, message) for every NCCL record, splitting glued lines."""
    text = [raw.rstrip("\r\n") for raw in lines]
    known = _clean_hosts(text)
    for line in text:
        matches = list(_PREFIX.finditer(line))
        if matches:
            cuts = [(m.start(), m.group("host")) for m in matches[:1]]
            cuts += [_split_point(m, known) for m in matches[1:]]
            for i, m in enumerate(matches):
                end = cuts[i + 1][0] if i + 1 < len(matches) else len(line)
                yield cuts[i][1], m.group("level"), line[m.end() : end].rstrip()
            continue
        bare = _BARE.search(line)
        if bare:
            yield None, bare.group("level"), line[bare.end() :].rstrip()


def _classify_via(via: str) -> tuple[str, bool]:
    """Map the text after `via` to a transport name, and whether it used GDR."""
    head = via.split("/", 1)[0].upper()
    if head == "P2P":
        return "p2p", False
    if head == "SHM":
        return "shm", False
    if head == "COLLNET":
        return "collnet", "/GDRDMA" in via
    if head == "NVLS":
        return "nvls", False
    net = _NET_VIA.match(via)
    if net:
        name = net.group("name")
        gdr = "/GDRDMA" in net.group("flags")
        # `IBext`, `IBext_v8` are the SHARP plugin's IB verbs transport.
        if name == "IB" or name.lower().startswith("ibext"):
            return "net-ib", gdr
        if name == "Socket":
            return "net-socket", gdr
        return "net-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"), gdr
    return "other", False


def parse_log(lines: Iterable[str]) -> TransportSummary:
    """Summarise NCCL INFO lines (any iterable of text lines, e.g. an open file)."""
    version: str | None = None
    connections: Counter[str] = Counter()
    via_counts: Counter[str] = Counter()
    sockets: dict[SocketInterface, None] = {}
    oobs: dict[SocketInterface, None] = {}
    bootstraps: dict[SocketInterface, None] = {}
    env: dict[str, str] = {}
    ib_ports: dict[IbPort, None] = {}
    networks = set()
    gdr_hcas = set()
    hosts = set()
    warnings: list[str] = []
    gdr = False
    ib_no_device = False
    nvls_channels = 0
    n_nodes: int | None = None
    n_ranks: int | None = None

    for host, level, msg in _messages(lines):
        if host:
            hosts.add(host)
        if level == "WARN":
            warnings.append(msg)
            continue
        if version is None:
            m = _VERSION.search(msg)
            if m:
                version = m.group("version")
                continue
        m = _CONNECTION.match(msg)
        if m:
            via = m.group("via")
            transport, used_gdr = _classify_via(via)
            connections[transport] += 1
            via_counts[via] += 1
            gdr = gdr or used_gdr
            continue
        m = _SOCKET_BANNER.match(msg)
        if m:
            for s in _SOCKET_IF.finditer(m.group("list")):
                sockets[SocketInterface(s.group("name"), s.group("addr"))] = None
            continue
        m = _IB_BANNER.match(msg)
        if m:
            for p in _IB_PORT.finditer(m.group("list")):
                ib_ports[IbPort(p.group("name"), int(p.group("port")), p.group("link"))] = None
            for o in _OOB.finditer(m.group("list")):
                oobs[SocketInterface(o.group("name"), o.group("addr"))] = None
            continue
        m = _BOOTSTRAP.match(msg)
        if m:
            bootstraps[SocketInterface(m.group("name"), m.group("addr"))] = None
            continue
        m = _ENV.match(msg)
        if m:
            env[m.group("key")] = m.group("value")
            continue
        if _IB_NO_DEVICE.match(msg):
            ib_no_device = True
            continue
        m = _NETWORK.match(msg)
        if m:
            networks.add(m.group("name"))
            continue
        m = _NODES.search(msg)
        if m:
            # Every rank prints this; keep the communicator that spans the most.
            n_nodes = max(n_nodes or 0, int(m.group("nnodes")))
            n_ranks = max(n_ranks or 0, int(m.group("nranks")))
            continue
        m = _NVLS_CHANNELS.search(msg)
        if m:
            nvls_channels = max(nvls_channels, int(m.group("n")))
            continue
        m = _GDR_HCA.search(msg)
        if m and m.group("state") == "Enabled":
            gdr_hcas.add(m.group("name"))

    transports = set(t for t in connections if t != "other")
    if nvls_channels > 0:
        # NVLS buffers are registered rather than announced with a `via` line.
        transports.add("nvls")
    return TransportSummary(
        version=version,
        transports=frozenset(transports),
        connections=dict(connections),
        via=dict(via_counts),
        socket_interfaces=tuple(sockets),
        ib_ports=tuple(ib_ports),
        oob_interfaces=tuple(oobs),
        bootstrap_interfaces=tuple(bootstraps),
        ib_no_device=ib_no_device,
        networks=frozenset(networks),
        gdr=gdr,
        gdr_hcas=frozenset(gdr_hcas),
        n_nodes=n_nodes,
        n_ranks=n_ranks,
        hosts=frozenset(hosts),
        env=env,
        warnings=tuple(warnings),
    )


def parse_files(paths: Sequence[str]) -> TransportSummary:
    """Summarise several logs (e.g. one per pod) as one job. Raises OSError."""

    def lines() -> Iterator[str]:
        for path in paths:
            with open(path, encoding="utf-8", errors="replace") as handle:
                yield from handle

    return parse_log(lines())
