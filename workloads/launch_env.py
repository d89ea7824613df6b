"""The launch settings, read from the environment the Kubernetes layer sets and checked before
anything changes: the variant and its network switches, the transport assertion, and the
torchrun rendezvous (the variables are documented in ``launch.py``).

Apart from the steps by concept, not size: every setting is read and checked here, before anything changes."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass

from workloads.launch_messages import E_CONFIG, LaunchError, info

VARIANTS = ("pod", "vnic", "sriov", "sriov-rdma")
TRANSPORTS = ("ib", "socket", "p2p", "shm")
_PLAIN_IFNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


@dataclass(frozen=True)
class Assertion:
    """Check the NCCL transport in torchrun's output once it has finished."""

    expect: str
    checker: str
    """``nccl_transport.py`` in GPU_CLUSTER_WORKLOADS."""
    log_file: str
    """Where torchrun's output is teed for the checker."""


@dataclass(frozen=True)
class Network:
    """The variant and how its interfaces are wired."""

    variant: str
    """One of VARIANTS, or empty when the pod does not say (no variant checks)."""
    rdma: bool
    mapping_file: str
    """The node/interface/IP mapping, or empty: keep the addresses the pod got."""
    ifnames: tuple[str, ...]
    """NCCL_SOCKET_IFNAME's entries, in order."""


@dataclass(frozen=True)
class Rendezvous:
    """torchrun's node, process and rendezvous arguments, and what it runs."""

    nnodes: str
    nproc: str
    node_rank: str
    address: str
    port: str
    target: tuple[str, ...]
    """``-m MODULE`` or ``SCRIPT``."""

    def torchrun(self, program_args: Sequence[str]) -> list[str]:
        return [
            "torchrun",
            f"--nnodes={self.nnodes}",
            f"--nproc_per_node={self.nproc}",
            f"--node_rank={self.node_rank}",
            "--rdzv_backend=c10d",
            f"--rdzv_endpoint={self.address}:{self.port}",
            *self.target,
            *program_args,
        ]


def switch(env: Mapping[str, str], name: str) -> bool:
    """A 0/1 variable (unset or empty: 0)."""
    value = env.get(name, "")
    if value not in ("", "0", "1"):
        raise LaunchError(E_CONFIG, f"{name} must be 0 or 1, got '{value}'")
    return value == "1"


def read_network(env: Mapping[str, str]) -> Network:
    variant = env.get("GPU_CLUSTER_VARIANT", "")
    if variant in VARIANTS:
        info(f"variant {variant}")
    elif not variant:
        info("GPU_CLUSTER_VARIANT not set; skipping the variant checks")
    else:
        raise LaunchError(E_CONFIG, f"GPU_CLUSTER_VARIANT must be pod, vnic, sriov or sriov-rdma, got '{variant}'")
    rdma = switch(env, "GPU_CLUSTER_RDMA")
    mapping_file = env.get("GPU_CLUSTER_IP_MAPPING", "")
    ifnames = tuple(
        name for name in ("".join(raw.split()) for raw in env.get("NCCL_SOCKET_IFNAME", "").split(",")) if name
    )
    if variant == "pod":
        if mapping_file:
            raise LaunchError(E_CONFIG, "variant pod uses the pod network; unset GPU_CLUSTER_IP_MAPPING")
        if rdma:
            raise LaunchError(E_CONFIG, "variant pod has no RDMA devices; unset GPU_CLUSTER_RDMA")
    elif variant in ("vnic", "sriov") and rdma:
        raise LaunchError(
            E_CONFIG, f"variant {variant} runs NCCL over sockets; GPU_CLUSTER_RDMA=1 needs variant sriov-rdma"
        )
    elif variant == "sriov-rdma" and not rdma:
        raise LaunchError(E_CONFIG, "variant sriov-rdma needs GPU_CLUSTER_RDMA=1")
    if variant in ("vnic", "sriov", "sriov-rdma") and not ifnames:
        raise LaunchError(E_CONFIG, f"variant {variant} needs NCCL_SOCKET_IFNAME (e.g. net1,net2)")
    if mapping_file or rdma:
        if not ifnames:
            raise LaunchError(E_CONFIG, "GPU_CLUSTER_IP_MAPPING and GPU_CLUSTER_RDMA need NCCL_SOCKET_IFNAME")
        for name in ifnames:
            # NCCL also takes `^prefix` and `=name` patterns; the mapping and sysfs need real names.
            if not _PLAIN_IFNAME.fullmatch(name):
                raise LaunchError(E_CONFIG, f"NCCL_SOCKET_IFNAME entry '{name}' is not a plain interface name")
    return Network(variant, rdma, mapping_file, ifnames)


def read_assertion(env: MutableMapping[str, str]) -> Assertion | None:
    """The transport assertion, if asked for; defaults NCCL_DEBUG to INFO in ``env`` for it."""
    expect = env.get("GPU_CLUSTER_EXPECT_TRANSPORT", "")
    if not expect:
        return None
    if expect not in TRANSPORTS:
        raise LaunchError(E_CONFIG, f"GPU_CLUSTER_EXPECT_TRANSPORT must be ib, socket, p2p or shm, got '{expect}'")
    checker = os.path.join(env.get("GPU_CLUSTER_WORKLOADS") or "/mnt/workloads", "nccl_transport.py")
    if not os.path.isfile(checker):
        raise LaunchError(E_CONFIG, f"transport checker {checker} not found (GPU_CLUSTER_WORKLOADS)")
    # The checker reads NCCL's INFO lines from torchrun's output.
    debug = env.get("NCCL_DEBUG", "")
    if not debug:
        env["NCCL_DEBUG"] = "INFO"
    elif debug not in ("INFO", "TRACE"):
        raise LaunchError(
            E_CONFIG, f"NCCL_DEBUG={debug} hides the INFO lines the transport assertion reads; set INFO or unset it"
        )
    if env.get("NCCL_DEBUG_FILE"):
        raise LaunchError(
            E_CONFIG,
            "NCCL_DEBUG_FILE sends NCCL's log away from torchrun's output; unset it for the transport assertion",
        )
    return Assertion(expect, checker, env.get("GPU_CLUSTER_LOG") or "/tmp/torchrun.log")


def _first_set(env: Mapping[str, str], what: str, *names: str) -> tuple[str, str]:
    for name in names:
        if env.get(name):
            return name, env[name]
    raise LaunchError(E_CONFIG, f"{what} is not set (set one of: {' '.join(names)})")


def read_rendezvous(env: Mapping[str, str]) -> Rendezvous:
    """Node rank and count from Kubeflow's PET_* / RANK / WORLD_SIZE or LeaderWorkerSet's variables."""
    rank_var, rank = _first_set(env, "node rank", "PET_NODE_RANK", "RANK", "LWS_WORKER_INDEX")
    if not re.fullmatch(r"0|[1-9][0-9]*", rank):
        raise LaunchError(E_CONFIG, f"{rank_var} must be a non-negative integer, got '{rank}'")
    nnodes_var, nnodes = _first_set(env, "node count", "PET_NNODES", "NNODES", "WORLD_SIZE")
    if not re.fullmatch(r"[1-9][0-9]*(:[1-9][0-9]*)?", nnodes):
        raise LaunchError(E_CONFIG, f"{nnodes_var} must be N or MIN:MAX, got '{nnodes}'")
    if ":" not in nnodes and int(rank) >= int(nnodes):
        raise LaunchError(
            E_CONFIG, f"node rank {rank} ({rank_var}) is not below the node count {nnodes} ({nnodes_var})"
        )
    nproc_var, nproc = _first_set(env, "processes per node", "PET_NPROC_PER_NODE", "NPROC_PER_NODE")
    if not re.fullmatch(r"[1-9][0-9]*|auto|gpu|cpu", nproc):
        raise LaunchError(E_CONFIG, f"{nproc_var} must be a count or auto/gpu/cpu, got '{nproc}'")
    _, address = _first_set(env, "rendezvous address", "MASTER_ADDR", "LWS_LEADER_ADDRESS")
    port = env.get("MASTER_PORT") or "29500"
    if not re.fullmatch(r"[1-9][0-9]*", port) or int(port) > 65535:
        raise LaunchError(E_CONFIG, f"MASTER_PORT must be a TCP port, got '{port}'")
    module, script = env.get("TRAINING_MODULE", ""), env.get("TRAINING_SCRIPT", "")
    if module and script:
        raise LaunchError(E_CONFIG, "set only one of TRAINING_MODULE and TRAINING_SCRIPT")
    if not module and not script:
        raise LaunchError(E_CONFIG, "set TRAINING_MODULE or TRAINING_SCRIPT")
    return Rendezvous(nnodes, nproc, rank, address, port, ("-m", module) if module else (script,))
