"""What the lab creates for one run, computed from a rendered stack alone: no root, no GPU, no pyroute2.

Each of the job's pods becomes one emulated node: a network namespace named after the pod, its own
hostname (the pod's name, which MASTER_ADDR names, so torch's c10d rendezvous hosts its store on the
master and nowhere else), a hosts file every node shares, ``eth0`` on one bridge (the pod network)
and one ``netN`` per secondary network on a bridge of its own, starting with the address an IPAM
plugin would hand out (the NetworkAttachmentDefinition's ``range_start`` onwards) so that the
entrypoint's mapping logic has real work: it replaces it with the mapping file's address.
The links the job's NCCL traffic takes are shaped like the variant (``Link``): on each node's end
a netem delay (the model's hop latency) and a tbf (the per-node bandwidth) for what the node sends,
on the bridge's end a tbf for what it receives.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PREFIX = "gclab"
"""Every namespace and link the lab creates starts with this, so a run can find a killed run's leftovers."""
POD_NETWORK = ipaddress.IPv4Network("10.128.0.0/14")
"""OpenShift's default cluster network; node i's pod gets 10.128.(2i).10, as a /23 per node would give."""
POD_CIDR_STEP = 512
BURST_SECONDS = 0.001
"""tbf's bucket: a millisecond at the rate (at least 64 KiB), enough for the kernel's 1 ms timer."""
MIN_BURST_BYTES = 65536
QUEUE_SECONDS = 0.01
"""tbf's queue: what a switch port might buffer before it drops (10 ms at the rate)."""
TBF_MAX_BYTES_S = 2**32 - 1
"""tbf's rate as pyroute2 sends it is 32 bits of bytes per second (34.4 Gbit/s): a faster link stays
unshaped, bounded by what the veth pair itself carries on this host."""
MACHINE_RULES = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
"""NVLink multicast off: the shared lab machines require it (it is never a cluster setting)."""


class LabRefused(ValueError):
    """The stack cannot run in the lab: one line saying why."""


@dataclass(frozen=True)
class Link:
    """How one node's share of the job's network is shaped, each direction."""

    gbps: float | None
    """Per node; None: unshaped."""
    latency_ms: float
    source: str
    """``model`` (the throughput model's figure for this stack) or ``override``."""
    detail: str = ""
    """Where the figure comes from, for the printout."""


@dataclass(frozen=True)
class Qdisc:
    namespace: str | None
    """The node's namespace, or None for the bridge's end in the host's namespace."""
    device: str
    kind: str
    """``netem`` or ``tbf``."""
    handle: str
    parent: str
    """``root`` or the netem's class ``1:1``."""
    delay_us: int = 0
    rate_bytes_s: int = 0
    burst_bytes: int = 0
    limit_bytes: int = 0

    def describe(self) -> str:
        where = f"{self.namespace}:{self.device}" if self.namespace else self.device
        if self.kind == "netem":
            return f"{where} netem delay {self.delay_us} us"
        rate = f"{self.rate_bytes_s * 8 / 1e9:.3f} Gbit/s"
        return f"{where} tbf {rate} burst {self.burst_bytes} B limit {self.limit_bytes} B"


@dataclass(frozen=True)
class Interface:
    name: str
    """Its name inside the node (``eth0``, ``net1``)."""
    host_end: str
    """The veth's other end, in the host's namespace, on ``bridge``."""
    bridge: str
    address: str
    """``ip/prefix`` it starts with."""
    shaped: bool
    """It carries the job's NCCL traffic (NCCL_SOCKET_IFNAME), so its link is shaped."""


@dataclass(frozen=True)
class Node:
    index: int
    pod: str
    """The pod's name: the node's hostname."""
    node_name: str
    """The Kubernetes node it stands for (NODE_NAME, the mapping file's first field)."""
    namespace: str
    gpus: tuple[int, ...]
    cpus: tuple[int, ...]
    interfaces: tuple[Interface, ...]
    env: tuple[tuple[str, str], ...]
    """What the pod's container gets: its spec, the downward API, the PyTorchJob operator."""
    lab_env: tuple[tuple[str, str], ...]
    """What the lab changes or adds for one host (GPUs per node, paths, NVLink multicast off)."""

    def environment(self) -> dict[str, str]:
        return {**dict(self.env), **dict(self.lab_env)}


@dataclass(frozen=True)
class Plan:
    stack: str
    variant: str
    nodes: tuple[Node, ...]
    bridges: tuple[str, ...]
    qdiscs: tuple[Qdisc, ...]
    hosts: str
    """The hosts file every node reads: each pod's name and its eth0 address."""
    link: Link
    gpus_per_node: int
    shared_gpu: bool

    @property
    def namespaces(self) -> tuple[str, ...]:
        return tuple(n.namespace for n in self.nodes)

    def created(self) -> list[str]:
        """Everything the executor makes, in order, as lines (printed before the run)."""
        lines = [f"bridge {b}" for b in self.bridges]
        for node in self.nodes:
            lines.append(f"netns {node.namespace} (hostname {node.pod}, node {node.node_name}, GPUs {node.gpus})")
            lines += [f"  veth {i.host_end}@{i.bridge} <-> {i.name} {i.address}" for i in node.interfaces]
        return lines + [f"qdisc {q.describe()}" for q in self.qdiscs]

    def teardown(self) -> list[str]:
        """What removing the run means: the namespaces (their veths go with them), then the bridges."""
        return [f"netns {n}" for n in self.namespaces] + [f"bridge {b}" for b in self.bridges]


def _first_field(env: Mapping[str, str], *names: str) -> str:
    return next((env[n] for n in names if env.get(n)), "")


def refusal(job: Mapping[str, Any]) -> str | None:
    """Why this job cannot run in the lab, if it cannot."""
    master = dict(job["replicas"][0]["env"]) if job["replicas"] else {}
    values = {k: v for k, v in master.items() if isinstance(v, str)}
    if job.get("rdma") or values.get("GPU_CLUSTER_RDMA") == "1" or job.get("variant") == "sriov-rdma":
        return (
            f"{job['stack']}: variant {job.get('variant')} runs NCCL over RDMA devices (GPU_CLUSTER_RDMA=1, NET/IB), "
            "which a network namespace on this host cannot have: the lab runs the socket variants "
            "(pod, vnic, sriov over TCP) only"
        )
    return None


def _shape(namespace: str | None, device: str, link: Link, with_delay: bool) -> list[Qdisc]:
    out: list[Qdisc] = []
    parent = "root"
    if with_delay and link.latency_ms > 0:
        out.append(Qdisc(namespace, device, "netem", "1:", "root", delay_us=round(link.latency_ms * 1000)))
        parent = "1:1"
    if link.gbps is not None and link.gbps * 1e9 / 8 <= TBF_MAX_BYTES_S:
        rate = int(link.gbps * 1e9 / 8)
        burst = max(MIN_BURST_BYTES, int(rate * BURST_SECONDS))
        out.append(
            Qdisc(
                namespace,
                device,
                "tbf",
                "10:",
                parent,
                rate_bytes_s=rate,
                burst_bytes=burst,
                limit_bytes=burst + int(rate * QUEUE_SECONDS),
            )
        )
    return out


def _resolved(value: str | dict[str, str], pod: str, node_name: str, pod_ip: str) -> str:
    if isinstance(value, str):
        return value
    field = value.get("fieldRef", "")
    known = {"spec.nodeName": node_name, "metadata.name": pod, "status.podIP": pod_ip}
    if field not in known:
        raise LabRefused(f"the pod's environment reads {field} from the downward API, which the lab does not give")
    return known[field]


def make_plan(
    job: Mapping[str, Any],
    gpus: Sequence[int],
    cpus: Sequence[int],
    link: Link,
    paths: Mapping[str, str],
    share_gpu: bool = False,
) -> Plan:
    """The run of ``job`` (``render``'s lab.json) on ``gpus`` and ``cpus`` of this host.

    ``paths`` maps the pod's files onto the host: ``config``, ``workloads``, ``mapping``, ``storage``
    and ``node_root`` (a folder per node: its TMPDIR and torchrun log). ``share_gpu`` puts every node
    on ``gpus[0]`` (a one-GPU host proving the node boundary, not measuring throughput)."""
    from .checks import check_job  # checks names this module's PREFIX and LabRefused

    check_job(job)
    if reason := refusal(job):
        raise LabRefused(reason)
    nnodes = int(job["nnodes"])
    node_gpus: list[tuple[int, ...]]
    if share_gpu:
        per_node, node_gpus = 1, [(gpus[0],)] * nnodes
    else:
        if len(gpus) < nnodes or len(gpus) % nnodes:
            raise LabRefused(
                f"{job['stack']} runs {nnodes} nodes; {len(gpus)} GPU(s) do not split evenly among them "
                "(on a one-GPU host, share it: --share-gpu)"
            )
        per_node = len(gpus) // nnodes
        node_gpus = [tuple(gpus[i * per_node : (i + 1) * per_node]) for i in range(nnodes)]
    cpu_share = max(1, len(cpus) // nnodes)
    names = list(job["node_names"])
    if len(names) < nnodes:
        raise LabRefused(f"{job['stack']}: {len(names)} node name(s) for {nnodes} nodes")
    master = job["replicas"][0]
    nccl_ifnames = {
        name.strip() for name in dict(master["env"]).get("NCCL_SOCKET_IFNAME", "").split(",") if name.strip()
    }
    networks = [{"ifname": "eth0", "range": str(POD_NETWORK), "range_start": None}, *job["networks"]]
    bridges = tuple(f"{PREFIX}-{net['ifname']}" for net in networks)
    pod_ips = [str(POD_NETWORK.network_address + POD_CIDR_STEP * i + 10) for i in range(nnodes)]
    shaped_ifnames = [net["ifname"] for net in networks if net["ifname"] in nccl_ifnames]
    per_nic = (
        Link(link.gbps / len(shaped_ifnames), link.latency_ms, link.source) if link.gbps and shaped_ifnames else link
    )
    nodes, qdiscs = [], []
    for i, replica in enumerate(job["replicas"]):
        pod = replica["pod"]
        namespace = f"{PREFIX}-{pod}"
        interfaces = []
        for net, bridge in zip(networks, bridges, strict=True):
            subnet = ipaddress.IPv4Network(net["range"])
            if net["range_start"] is None:
                address = f"{pod_ips[i]}/{subnet.prefixlen}"
            else:
                address = f"{ipaddress.IPv4Address(net['range_start']) + i}/{subnet.prefixlen}"
            shaped = net["ifname"] in shaped_ifnames
            host_end = f"{PREFIX}{i}-{net['ifname']}"
            interfaces.append(Interface(net["ifname"], host_end, bridge, address, shaped))
            if shaped:
                qdiscs += _shape(namespace, net["ifname"], per_nic, with_delay=True)
                qdiscs += _shape(None, host_end, per_nic, with_delay=False)
        env = [(k, _resolved(v, pod, names[i], pod_ips[i])) for k, v in replica["env"]]
        operator = {
            "PYTHONUNBUFFERED": "0",
            "MASTER_PORT": str(job["port"]),
            "MASTER_ADDR": job["replicas"][0]["pod"],
            "WORLD_SIZE": str(nnodes * int(job["nproc_per_node"])),
            "RANK": str(replica["rank"]),
            "PET_NPROC_PER_NODE": str(job["nproc_per_node"]),
            "PET_NODE_RANK": str(replica["rank"]),
            "PET_NNODES": str(nnodes),
        }
        env += list(operator.items())
        node_root = f"{paths['node_root']}/{pod}"
        lab_env = {
            "PET_NPROC_PER_NODE": str(per_node),
            "NPROC_PER_NODE": str(per_node),
            "WORLD_SIZE": str(nnodes * per_node),
            "CUDA_VISIBLE_DEVICES": ",".join(map(str, node_gpus[i])),
            "CONFIG_JSON_PATH": paths["config"],
            "GPU_CLUSTER_WORKLOADS": paths["workloads"],
            "TMPDIR": f"{node_root}/tmp",
            "GPU_CLUSTER_LOG": f"{node_root}/torchrun.log",
            **MACHINE_RULES,
        }
        if job.get("mapping"):
            lab_env["GPU_CLUSTER_IP_MAPPING"] = paths["mapping"]
        if share_gpu:
            # NCCL tells hosts apart by hostname and boot id; say it outright, so that two nodes on one
            # GPU are never taken for one host (which would be a duplicate GPU to it).
            lab_env["NCCL_HOSTID"] = f"{PREFIX}-{pod}"
        nodes.append(
            Node(
                index=i,
                pod=pod,
                node_name=names[i],
                namespace=namespace,
                gpus=node_gpus[i],
                cpus=tuple(cpus[i * cpu_share : (i + 1) * cpu_share]) or tuple(cpus),
                interfaces=tuple(interfaces),
                env=tuple(env),
                lab_env=tuple(lab_env.items()),
            )
        )
    hosts = "127.0.0.1 localhost\n::1 localhost\n" + "".join(
        f"{ip} {node.pod}\n" for ip, node in zip(pod_ips, nodes, strict=True)
    )
    return Plan(
        stack=job["stack"],
        variant=job["variant"],
        nodes=tuple(nodes),
        bridges=bridges,
        qdiscs=tuple(qdiscs),
        hosts=hosts,
        link=link,
        gpus_per_node=per_node,
        shared_gpu=share_gpu,
    )


def model_link(job: Mapping[str, Any], gpus_per_node: int) -> Link:
    """The throughput model's per-node figure for this stack with ``gpus_per_node`` GPUs (render's ``links``)."""
    figures = job["links"].get(str(gpus_per_node))
    if figures is None:
        raise LabRefused(f"{job['stack']}: the model gives no link for {gpus_per_node} GPU(s) per node")
    if int(job["nnodes"]) == 1:
        # One node has no link: its run is the compute baseline the model's lab predictions start from.
        return Link(None, 0.0, "model", "one node: no link between nodes (the compute baseline)")
    detail = (
        f"{figures['transport']}: {figures['nics']} NIC(s) x {figures['line_gbps_per_nic']:g} Gbit/s line rate "
        f"x {figures['efficiency']:.3f} efficiency ({gpus_per_node} GPU(s) per node) = {figures['gbps']:.2f} Gbit/s; "
        f"hop latency {figures['hop_latency_ms']:g} ms"
    )
    return Link(figures["gbps"], figures["hop_latency_ms"], "model", detail)


def override_link(model: Link, gbps: float | None, unshaped: bool, latency_ms: float | None) -> Link:
    """The model's link with the options' bandwidth or latency in its place."""
    if not unshaped and gbps is None and latency_ms is None:
        return model
    new_gbps = None if unshaped else (gbps if gbps is not None else model.gbps)
    new_latency = latency_ms if latency_ms is not None else model.latency_ms
    shown = "unshaped" if new_gbps is None else f"{new_gbps:g} Gbit/s"
    return Link(new_gbps, new_latency, "override", f"override: {shown}, {new_latency:g} ms (model: {model.detail})")
